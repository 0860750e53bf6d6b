"""Kasino: hints (every legal capture of a chosen card), the dispute desk link, claims, the dealer draw, the tally form."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask import url_for

from scorekeeper.engine.kasino import (
    TARGET,
    Kasino,
    KasinoState,
)
from scorekeeper.localize import gettext as _
from scorekeeper.localize import localize, ngettext
from scorekeeper.web.views.fishing import hint_card, join, pretty
from scorekeeper.web.views.kasino.words import picker_counts

HINT_LIMIT = 40  # a crowded table can have thousands of captures; the list shows the first ones


def desk_url(state: Mapping[str, Any], options: Mapping[str, Any], played: str = "") -> str:
    scheme = "fixed" if options.get("fixed") else "handtable" if options.get("handtable") else "standard"
    args: dict[str, str] = {"game": "kasino", "table": " ".join(state["table"]), "variant": scheme}
    if played:
        args["played"] = played
    return url_for("desk.desk", **args)


def hints(rules: Kasino, raw: KasinoState, state: Mapping[str, Any], text: str,
          options: Mapping[str, Any], opened: bool = False) -> dict[str, Any]:
    """Every legal capture of one chosen card on the current table (``Kasino.captures_for``); in
    misär and with must_capture the ones the capture duty forbids are marked."""
    out: dict[str, Any] = {"card": None, "open": bool(text) or opened, "error": "", "captures": [], "trail": "",
                           "unseen": picker_counts(state), "desk": "", "more": ""}
    if not text:
        return out
    code, out["error"] = hint_card(text)
    if code is None:
        return out
    if code in state["table"]:
        out["error"] = _("%(card)s lies on the table; choose a card from a hand.", card=pretty(code))
        return out
    if not out["unseen"].get(code):
        out["error"] = _("%(card)s has already been played this deal.", card=pretty(code))
        return out
    found = rules.captures_for(raw, code, limit=HINT_LIMIT)
    out["card"] = code
    out["desk"] = desk_url(state, options, played=code)
    for c in found["captures"]:
        g = c["grouping"]
        out["captures"].append({
            "capture": c["capture"], "allowed": c["allowed"], "tabbe": c["tabbe"],
            "text": _("%(card)s as %(value)s takes %(groups)s", card=pretty(code), value=g["value"],
                      groups=localize(g["describe"])),
        })
    out["captures"].sort(key=lambda c: not c["allowed"])  # the ones that may be played first
    left_out = int(found.get("count", len(found["captures"]))) - len(found["captures"])
    if left_out > 0:
        out["more"] = ngettext("%(num)s more capture is not listed here.",
                               "%(num)s more captures are not listed here.", left_out)
    if found["trail_allowed"]:
        out["trail"] = _("Trailing %(card)s is also allowed.", card=pretty(code)) if found["captures"] else \
            _("%(card)s takes nothing here: it is trailed.", card=pretty(code))
    else:
        out["trail"] = _("%(card)s can capture, so it must, and take as much as it can.", card=pretty(code))
    return out


def claims(state: Mapping[str, Any], labels: Sequence[str]) -> list[dict[str, Any]]:
    """KASINO-VAR-CLAIM: a button for every side whose settled points reach 16 during a deal."""
    if not state["claimable"] or state["phase"] != "play" or state["mode"] != "adjudicate":
        return []
    return [{"player": state["sides"][side][0], "label": labels[side],
             "text": _("%(side)s claims 16 (%(n)s settled)", side=labels[side], n=total)}
            for side, total in enumerate(state["claimable"]) if total >= TARGET]


def dealer_draw(state: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """KASINO-DEAL-1: one card per player; after a tie only the tied players draw again."""
    draw = state["dealer_draw"]
    drawers = list(draw["tied"]) if draw and draw["tied"] else list(range(len(names)))
    shown = []
    if draw:
        shown = [{"name": names[p], "card": c} for p, c in enumerate(draw["cards"]) if c]
    again = _("%(names)s tie for the highest card and draw again.", names=join([names[p] for p in drawers])) \
        if draw and draw["tied"] else ""
    return {"fields": [{"seat": p, "name": names[p], "draws": p in drawers} for p in range(len(names))],
            "shown": shown, "again": again, "open": bool(draw and draw["tied"])}


def tally(state: Mapping[str, Any], labels: Sequence[str], names: Sequence[str],
          options: Mapping[str, Any]) -> dict[str, Any]:
    """The end-of-deal form: one pile per side (or per player when partners compare their piles
    one by one), knocked-out misär players sent as null."""
    per_player = bool(options.get("pairs_individual"))
    key = "players" if per_player else "sides"
    units = []
    count = len(names) if per_player else len(labels)
    for i in range(count):
        seats_ = [i] if per_player else state["sides"][i]
        out = state["misar"] and seats_[0] in state["eliminated"]
        units.append({"index": i, "label": names[i] if per_player else labels[i], "out": out,
                      "prefix": f"{key}.{i}"})
    active = [u for u in units if not u["out"]]
    return {
        "key": key, "units": units, "active": active, "sistan": bool(options.get("sistan")),
        "deal": state["deal"] + 1,
        "dealers": list(enumerate(names)) if state["dealer"] is None and state["next_dealer"] is None else [],
        "next_dealer": names[state["next_dealer"]] if state["next_dealer"] is not None else "",
        "penalties": [{"player": p, "name": names[p]} for p in state["active"]] if state["misar"] else [],
        "penalty_b": bool(options.get("misar_penalty_b")),
        "claim": bool(options.get("claim")),
        "players": [(p, names[p]) for p in state["active"]],
    }
