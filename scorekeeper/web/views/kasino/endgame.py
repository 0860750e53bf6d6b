"""Kasino: the misär penalty proposals, the end-of-deal count, the winner and the tie-break, the score sheet."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.localize import gettext as _
from scorekeeper.localize import ngettext
from scorekeeper.web.views.fishing import join, pretty
from scorekeeper.web.views.kasino.words import cards_text, category_name


def proposal_view(p: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    ev = p["evidence"]
    who = names[p["player"]]
    lines: list[str] = []
    cards: dict[str, Any] = {"table": [], "played": None, "sweeper": None, "taken": []}
    if p["breach"] == "KASINO-MIS-1":
        cards.update(table=ev.get("table", []), played=ev.get("played"), sweeper=ev.get("could_sweep_with"),
                     taken=ev.get("taken", []))
        if ev.get("taken"):
            did = _("%(name)s played %(card)s and took %(taken)s.", name=who, card=pretty(ev["played"]),
                    taken=cards_text(ev["taken"]))
        else:
            did = _("%(name)s trailed %(card)s.", name=who, card=pretty(ev["played"]))
        lines.append(_("At play %(n)s the table was %(table)s.", n=ev.get("turn", p["turn"]),
                       table=cards_text(ev.get("table", []))) + " " + did)
        sweep = ev.get("sweep") or {}
        lines.append(_("%(name)s held %(card)s, which takes the whole table: %(groups)s.", name=who,
                       card=pretty(ev.get("could_sweep_with")), groups=sweep.get("describe", "")))
        lines.append(_("Proof: %(name)s played %(card)s at play %(n)s in the same hand.", name=who,
                       card=pretty(ev.get("could_sweep_with")), n=ev.get("evidence_at_turn", "?")))
        lines.append(_("A card that can make a tabbe must be played and make it."))
    else:
        cards.update(played=ev.get("played"), taken=ev.get("taken", []))
        options = [cards_text(c) for c in ev.get("must_take_one_of", [])]
        if ev.get("taken"):
            lines.append(_("At play %(n)s %(name)s played %(card)s and took only %(taken)s.", n=p["turn"], name=who,
                           card=pretty(ev.get("played")), taken=cards_text(ev["taken"])))
        else:
            lines.append(_("At play %(n)s %(name)s trailed %(card)s, which could capture.", n=p["turn"], name=who,
                           card=pretty(ev.get("played"))))
        lines.append(_("It had to take %(options)s.", options=_(" or ").join(options)))
    return {
        "id": p["id"], "name": who, "points": p["points"], "breach": p["breach"], "rule": p["rule"],
        "lines": lines, "cards": cards, "message": p["message"],
        "title": _("Penalty for %(name)s? +%(points)s", name=who, points=p["points"]),
    }


def summary_view(state: Mapping[str, Any], labels: Sequence[str], names: Sequence[str],
                 individual: bool = False) -> dict[str, Any]:
    """The end-of-deal count (KASINO-SCORE-1..3): each side's pile, every category with who got it
    or the tie that cost it, each side's points, the last capture and the leftovers. With
    ``individual`` (KASINO-OPT-PAIRS-INDIVIDUAL) ties are between players, not sides."""
    s = state["summary"]
    facts = []
    for label, f in zip(labels, s["facts"], strict=True):
        if f is None:
            facts.append({"label": label, "out": True})
            continue
        facts.append({"label": label, "out": False, "cards": f["cards"], "spades": f["spades"], "aces": f["aces"],
                      "tabbes": f["tabbes"], "storan": f["storan"], "lillan": f["lillan"]})
    categories = []
    for c in s["categories"]:
        note = ""
        if c["tied"]:
            tied = [names[i] if individual else labels[i] for i in c["tied"]]
            note = ngettext("%(names)s tie: nobody scores it (%(num)s point lost).",
                            "%(names)s tie: nobody scores it (%(num)s points lost).", c["lost"], names=join(tied))
        categories.append({"name": category_name(c["what"]), "rule": c["rule"], "points": c["points"], "note": note})
    move = state["last_move"]
    last = s["leftovers_to"]
    if last is None and move and not move["trail"] and not s["leftovers"]:
        last = move["player"]
    if s["leftovers"]:
        if s["leftovers_to"] is not None:
            leftovers = _("%(name)s made the last capture and takes the cards left on the table (not a tabbe):",
                          name=names[s["leftovers_to"]])
        else:
            leftovers = _("Nobody captured anything: the cards left on the table belong to nobody.")
    elif move:
        leftovers = _("%(name)s made the last capture; no cards were left on the table.", name=names[last]) \
            if last is not None else ""
    else:
        leftovers = ""
    return {
        "deal": s["deal"], "facts": facts, "categories": categories, "points": s["points"],
        "total": s["total"], "lost": s["lost_to_ties"], "leftovers": s["leftovers"], "leftovers_text": leftovers,
        "check": _("%(total)s points given out in this deal.", total=s["total"]),
    }


def result(state: Mapping[str, Any], labels: Sequence[str], names: Sequence[str]) -> dict[str, Any]:
    """The winner in big letters, and why: the rule that ended the game and any tie-break."""
    winner = state["winner"]
    end = state["end"] or {}
    rule = end.get("rule") or ""
    misar = state["misar"]
    unit = names if misar else labels  # misär is played by individuals (KASINO-AMB-10)
    if isinstance(winner, list):
        headline = _("%(names)s share the win!", names=join([unit[w] for w in winner]))
    elif winner is not None:
        headline = _("%(name)s wins!", name=unit[winner])
    else:
        headline = _("Game over")
    lines: list[str] = []
    rows = state["history"]
    spades = rows[-1]["spades"] if rows else []
    scores = state["scores"]
    if rule in ("KASINO-VAR-CLAIM", "KASINO-AMB-13"):
        lines.append(_("%(name)s claimed 16 with the points already settled this deal.", name=unit[_first(winner)]))
    elif rule == "KASINO-MIS-7":
        lines.append(_("%(name)s is the last player left; everyone else reached 21.", name=unit[_first(winner)]))
    else:
        if rule == "KASINO-MIS-9":
            pool = rows[-1]["knocked_out"] if rows else []
            lines.append(_("Everyone left reached 21 in the same deal: the fewest points win."))
        elif rule == "KASINO-MIS-6":
            pool = list(state["active"])
            lines.append(_("A single misär deal: the fewest points win."))
        elif rule == "KASINO-END-1":
            pool = list(range(len(scores)))
            lines.append(_("A single deal: the most points win."))
        else:
            pool = list(range(len(scores)))
            lines.append(_("A side reached 16 after the deal: the most points win."))
        lines.extend(tie_break(pool, scores, spades, unit, fewest=misar))
    return {"headline": headline, "lines": lines, "rule": rule}


def _first(winner: Any) -> int:
    return int(winner[0] if isinstance(winner, list) else winner)


def tie_break(pool: Sequence[int], scores: Sequence[int], spades: Sequence[int], unit: Sequence[str],
              fewest: bool) -> list[str]:
    """KASINO-END-3 (most spades in the last deal) or KASINO-MIS-6/9 (fewest), then a shared win."""
    if not pool:
        return []
    best = (min if fewest else max)(scores[i] for i in pool)
    tied = [i for i in pool if scores[i] == best]
    if len(tied) < 2 or not spades:
        return []
    counts = join([_("%(name)s %(num)s", name=unit[i], num=spades[i]) for i in tied])
    if fewest:
        line = _("%(names)s tie on %(points)s points, so the fewest spades in the last deal decide: %(counts)s.",
                 names=join([unit[i] for i in tied]), points=best, counts=counts)
    else:
        line = _("%(names)s tie on %(points)s points, so the most spades in the last deal decide: %(counts)s.",
                 names=join([unit[i] for i in tied]), points=best, counts=counts)
    top = (min if fewest else max)(spades[i] for i in tied)
    if sum(1 for i in tied if spades[i] == top) > 1:
        return [line, _("Still tied: a shared win.")]
    return [line]


def score_sheet(state: Mapping[str, Any], labels: Sequence[str], names: Sequence[str]) -> dict[str, Any]:
    rows = []
    for r in state["history"]:
        cells = []
        for side, (points, penalty, total) in enumerate(zip(r["points"], r["penalties"], r["totals"], strict=True)):
            out = [names[p] for p in r["knocked_out"] if p in state["sides"][side]]
            cells.append({"points": points, "penalty": penalty, "total": total,
                          "out": _("knocked out") if out else ""})
        rows.append({"deal": r["deal"], "dealer": names[r["dealer"]] if r["dealer"] is not None else "",
                     "cells": cells, "note": _("claim") if r["note"] == "claim" else ""})
    chart_rows = [[0] * len(labels)] + [list(r["totals"]) for r in state["history"]]
    return {"rows": rows, "chart_rows": chart_rows, "labels": list(labels)}
