"""Kasino screens (with Kasino misär and Dragkasino): the table cards, whose turn it is, a move in
1 + k + 1 taps with a live legality preview (the shared fishing-game forms), what each move
scores as it happens, the misär penalty proposals with their evidence, the end-of-deal count,
the winner and the tie-break, hints (every legal capture of a chosen card), the tally form and
the score sheet with its chart.

Everything a template shows is worked out here from the engine's state JSON (and, for hints,
``Kasino.captures_for`` on the engine state), so the Jinja stays dumb and the logic is testable.
A hint's card travels in the URL (``?hint=7H``), so it also works without JavaScript.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask import url_for

from scorekeeper.cards import FRENCH_RANKS, FRENCH_SUITS
from scorekeeper.engine.kasino import (
    ACE_POINTS,
    KNOCKOUT,
    LILLAN,
    LILLAN_POINTS,
    STORAN,
    STORAN_POINTS,
    TABBE_POINTS,
    TABLE_START,
    TARGET,
    Kasino,
    KasinoState,
)
from scorekeeper.localize import gettext as _
from scorekeeper.localize import ngettext
from scorekeeper.web.views import register
from scorekeeper.web.views.fishing import hint_arg, hints_asked, join, side_labels
from scorekeeper.web.views.kasino.controls import (
    HINT_LIMIT,
    claims,
    dealer_draw,
    desk_url,
    hints,
    tally,
)
from scorekeeper.web.views.kasino.endgame import (
    proposal_view,
    result,
    score_sheet,
    summary_view,
    tie_break,
)
from scorekeeper.web.views.kasino.words import category_name, picker_counts

__all__ = ["HINT_LIMIT", "claims", "dealer_draw", "desk_url", "hints", "kasino_view", "proposal_view", "result",
           "score_sheet", "summary_view", "tally", "tie_break"]

TABLE_SIZE = TABLE_START


@register("kasino")
def kasino_view(ctx: dict[str, Any]) -> dict[str, Any]:
    state: dict[str, Any] = ctx["state"]
    raw: KasinoState = ctx["raw_state"]
    rules: Kasino = ctx["rules"]
    table = ctx["table"]
    names: list[str] = list(ctx["players"])
    seat: int | None = ctx["seat"]
    can_write: bool = ctx["can_write"]
    labels = side_labels(state, names)
    options: Mapping[str, Any] = table.options or {}
    adjudicate = state["mode"] == "adjudicate"
    playing = state["phase"] == "play"
    ks: dict[str, Any] = {
        "book": url_for("rulebook.book", game="kasino", table=table.id),
        "sheet_url": url_for("play.sheet", table_id=table.id),
        "post_url": url_for("play.post_event", table_id=table.id),
        "variant": variant_name(state),
        "scores": scoreboard(state, labels, names, seat),
        "status": status(state, names),
        "calls": calls(state, names),
        "just": just_happened(state, labels, names),
        "proposals": [proposal_view(p, names) for p in state["proposals"]] if state["misar"] else [],
        "eliminated": [names[p] for p in state["eliminated"]],
        "seats": seats(state, names, seat) if playing else [],
        "piles": piles(state, labels) if playing else None,
        "summary": summary_view(state, labels, names, bool(options.get("pairs_individual")))
        if state["summary"] and not playing else None,
        "result": result(state, labels, names) if state["over"] else None,
        "sheet": score_sheet(state, labels, names),
        "desk_url": desk_url(state, options),
        "hints": None,
        "tally": None,
        "draw": None,
        "claims": [],
        "target": KNOCKOUT if state["misar"] else TARGET,
    }
    if can_write and not state["over"]:
        ks["claims"] = claims(state, labels)
        if adjudicate and playing:
            ks["hints"] = hints(rules, raw, state, hint_arg(), options, hints_asked())
        if adjudicate and state["phase"] == "setup":
            ks["draw"] = dealer_draw(state, names)
        if not adjudicate and state["phase"] in ("setup", "between"):
            ks["tally"] = tally(state, labels, names, options)
    return {
        "ks": ks,
        "sides": labels,
        "fishing_ranks": FRENCH_RANKS,
        "fishing_suits": FRENCH_SUITS,
        "table_size": TABLE_SIZE,
        "fishing_unseen": picker_counts(state),
        "fishing_move_extra": "games/kasino/draw.html" if state["drag"] and state["stock"] else "",
    }


def variant_name(state: Mapping[str, Any]) -> str:
    if state["drag"]:
        return _("Dragkasino misär") if state["misar"] else _("Dragkasino")
    return _("Kasino misär") if state["misar"] else _("Kasino")


def scoreboard(state: Mapping[str, Any], labels: Sequence[str], names: Sequence[str],
               seat: int | None) -> list[dict[str, Any]]:
    misar = state["misar"]
    winners = state["winner"] if isinstance(state["winner"], list) else [state["winner"]]
    rows = []
    for side, (label, total) in enumerate(zip(labels, state["scores"], strict=True)):
        team = state["sides"][side]
        out = misar and team[0] in state["eliminated"]
        if misar:
            left = max(KNOCKOUT - total, 0)
            to_go = _("knocked out") if out else ngettext("%(num)s point from the knock-out",
                                                          "%(num)s points from the knock-out", left)
        else:
            to_go = _("%(n)s to go", n=max(TARGET - total, 0))
        claimable = state["claimable"][side] if state["claimable"] else None
        rows.append({
            "label": label, "total": total, "to_go": to_go, "out": out,
            "won": state["over"] and side in winners, "me": seat in team,
            "claimable": _("%(n)s settled this deal", n=claimable) if claimable is not None else "",
            "spoken": ngettext("%(side)s: %(num)s point", "%(side)s: %(num)s points", total, side=label),
        })
    return rows


def status(state: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """What stage the game is at, in one line, and what to do next."""
    phase = state["phase"]
    lines: list[str] = []
    if phase == "setup":
        if state["mode"] == "tally":
            headline = _("Enter each deal's piles when it is over.")
        else:
            headline = _("Deal 4 cards to each player and 4 face up to the table, then tap the table cards.")
    elif phase == "play":
        dealer = names[state["dealer"]]
        headline = _("Deal %(n)s · %(dealer)s dealt", n=state["deal"], dealer=dealer)
        if state["drag"]:
            lines.append(ngettext("%(num)s card left in the stock", "%(num)s cards left in the stock",
                                  state["stock"] or 0) if state["stock"] else
                         _("The stock is empty: everyone plays out their last cards (sistan)."))
        else:
            lines.append(_("Round %(round)s of %(total)s", round=state["round"], total=state["rounds_total"]))
            if state["is_last_round"]:
                lines.append(_("The last round (sistan)."))
            fresh = all(h == 4 for h in state["hands"] if h is not None)
            if fresh and state["round"] > 1:
                lines.append(_("Deal 4 more cards to each player, two at a time; none to the table."))
    elif phase == "settling":
        headline = _("Deal %(n)s is over. Confirm or dismiss the proposed penalties before the next deal.",
                     n=state["deal"])
    elif phase == "between":
        nd = state["next_dealer"]
        headline = _("Deal %(n)s is over.", n=state["deal"])
        if nd is not None:
            lines.append(_("%(name)s deals next.", name=names[nd]))
    else:
        headline = ""
    return {"headline": headline, "lines": lines}


def calls(state: Mapping[str, Any], names: Sequence[str]) -> list[dict[str, str]]:
    """Things to say at the table now: "sistan", misär's "tabbe på knekt", knock-outs."""
    out: list[dict[str, str]] = []
    for text in state["announce"]:
        if text == "sistan":
            out.append({"call": _("Sistan!"), "why": _("The last round: say so before dealing it."),
                        "rule": "KASINO-DEAL-6"})
    if state["misar"] and state["sweep_values"] and state["phase"] == "play":
        spoken = [f"tabbe på {v['name']}" for v in state["sweep_values"]]
        out.append({"call": " · ".join(spoken).capitalize() + "!",
                    "why": _("A card of that value would take the whole table, and whoever holds one must play it."),
                    "rule": "KASINO-MIS-4"})
    rows = state["history"]
    if rows and rows[-1]["knocked_out"] and state["phase"] in ("between", "over"):
        out.append({"call": ngettext("%(names)s is knocked out.", "%(names)s are knocked out.",
                                     len(rows[-1]["knocked_out"]),
                                     names=join([names[p] for p in rows[-1]["knocked_out"]])),
                    "why": _("21 points or more after a deal."), "rule": "KASINO-MIS-7"})
    return out


def seats(state: Mapping[str, Any], names: Sequence[str], seat: int | None) -> list[dict[str, Any]]:
    rows = []
    for p, name in enumerate(names):
        out = p in state["eliminated"]
        hand = state["hands"][p]
        tags = []
        if p == seat:
            tags.append(_("you"))
        if p == state["dealer"]:
            tags.append(_("dealer"))
        if p == state["to_act"]:
            tags.append(_("to play"))
        if out:
            tags.append(_("out"))
        known = state["known_hands"][p] if state["known_hands"] else []
        rows.append({
            "name": name, "tags": tags, "out": out, "to_act": p == state["to_act"],
            "hand": "" if hand is None else ngettext("%(num)s card in hand", "%(num)s cards in hand", hand),
            "known": known,
        })
    return rows


def piles(state: Mapping[str, Any], labels: Sequence[str]) -> list[dict[str, Any]]:
    """What each side has captured so far this deal."""
    rows = []
    for label, pile in zip(labels, state["piles"], strict=True):
        extras = []
        if pile["storan"]:
            extras.append(_("storan"))
        if pile["lillan"]:
            extras.append(_("lillan"))
        rows.append({"label": label, "cards": pile["cards"], "spades": pile["spades"], "aces": pile["aces"],
                     "tabbes": pile["tabbes"], "extras": ", ".join(extras)})
    return rows


def move_pops(move: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The points a capture puts in the pile, shown when they happen ("Tabbe +1", "Storan +2");
    they are counted at the end of the deal (KASINO-SCORE-1)."""
    if move["trail"]:
        return []
    taken = [move["card"], *move["capture"]]
    pops = []
    if str(STORAN) in taken:
        pops.append({"text": _("Storan"), "points": STORAN_POINTS, "rule": "KASINO-COMP-4"})
    if str(LILLAN) in taken:
        pops.append({"text": _("Lillan"), "points": LILLAN_POINTS, "rule": "KASINO-COMP-4"})
    aces = sum(1 for code in taken if code.startswith("A"))
    if aces:
        pops.append({"text": ngettext("Ace", "%(num)s aces", aces), "points": aces * ACE_POINTS, "rule": "KASINO-COMP-4"})
    if move["tabbe"]:
        if move["tabbe_scores"]:
            pops.append({"text": _("Tabbe"), "points": TABBE_POINTS, "rule": "KASINO-TURN-5"})
        else:
            pops.append({"text": _("Tabbe, no point in the last round"), "points": 0,
                         "rule": "KASINO-OPT-NO-LAST-TABBE"})
    return pops


def just_happened(state: Mapping[str, Any], labels: Sequence[str], names: Sequence[str]) -> dict[str, Any] | None:
    """The last move and what it scored, for every phone (drawn from the state, not the request)."""
    move = state["last_move"]
    text = ""
    pops: list[dict[str, Any]] = []
    if move:
        who = names[move["player"]]
        text = _("%(name)s: %(move)s", name=who, move=move["describe"])
        side = next(i for i, team in enumerate(state["sides"]) if move["player"] in team)
        if state["phase"] == "play" or not state["scored"]:
            pops = [dict(p, side=labels[side]) for p in move_pops(move)]
    facts = (state["summary"] or {}).get("facts") or []
    for s in state["scored"]:
        pops.append({"side": labels[s["side"]], "text": category_name(s["what"]), "points": s["points"],
                     "detail": _count_detail(s["what"], facts[s["side"]] if s["side"] < len(facts) else None),
                     "rule": s["rule"]})
    if not text and not pops:
        return None
    return {"text": text, "pops": pops}


def _count_detail(what: str, facts: Mapping[str, Any] | None) -> str:
    if not facts:
        return ""
    if what == "most_cards":
        return ngettext("%(num)s card", "%(num)s cards", facts["cards"])
    if what == "most_spades":
        return ngettext("%(num)s spade", "%(num)s spades", facts["spades"])
    return ""
