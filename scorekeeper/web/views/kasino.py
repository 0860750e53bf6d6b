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
from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper.cards import FRENCH_RANKS, FRENCH_SUITS, NotationError, parse_card
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
from scorekeeper.localize import language, localize
from scorekeeper.web.views import register
from scorekeeper.web.views.fishing import hint_arg, join, pretty, side_labels

TABLE_SIZE = TABLE_START
HINT_LIMIT = 40  # a crowded table can have thousands of captures; the list shows the first ones


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
            ks["hints"] = hints(rules, raw, state, hint_arg(), options)
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


def _cards(codes: Sequence[str]) -> str:
    # "4♥ 9♦" with symbols; spelled-out names ("hjärter fyra, ruter nia") need commas.
    return (" " if language() == "en" else ", ").join(pretty(c) for c in codes)


def variant_name(state: Mapping[str, Any]) -> str:
    if state["drag"]:
        return _("Dragkasino misär") if state["misar"] else _("Dragkasino")
    return _("Kasino misär") if state["misar"] else _("Kasino")


def picker_counts(state: Mapping[str, Any]) -> dict[str, int]:
    """The picker's unseen counts: in Dragkasino a drawn card that was entered is "seen", but the
    player who drew it may still play it, so it stays tappable for them."""
    unseen = dict(state["unseen"])
    mover = state["to_act"]
    if state["known_hands"] and mover is not None:
        for code in state["known_hands"][mover]:
            unseen[code] = 1
    return unseen


# --- Scores, status, the players -------------------------------------------------------------


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


# --- What just happened -----------------------------------------------------------------------

def category_name(what: str) -> str:
    """A scoring item in words (the engine's ``what``)."""
    names = {
        "most_cards": _("Most cards"), "most_spades": _("Most spades"), "storan": _("Storan (10♦)"),
        "lillan": _("Lillan (2♠)"), "aces": _("Aces"), "tabbes": _("Tabbes"), "sistan": _("Sistan (last capture)"),
        "penalty": _("Penalty"), "penalty void": _("Penalty taken back"), "claim": _("Claim"),
    }
    return names.get(what, what)


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


# --- Misär penalty proposals ------------------------------------------------------------------


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
                    taken=_cards(ev["taken"]))
        else:
            did = _("%(name)s trailed %(card)s.", name=who, card=pretty(ev["played"]))
        lines.append(_("At play %(n)s the table was %(table)s.", n=ev.get("turn", p["turn"]),
                       table=_cards(ev.get("table", []))) + " " + did)
        sweep = ev.get("sweep") or {}
        lines.append(_("%(name)s held %(card)s, which takes the whole table: %(groups)s.", name=who,
                       card=pretty(ev.get("could_sweep_with")), groups=sweep.get("describe", "")))
        lines.append(_("Proof: %(name)s played %(card)s at play %(n)s in the same hand.", name=who,
                       card=pretty(ev.get("could_sweep_with")), n=ev.get("evidence_at_turn", "?")))
        lines.append(_("A card that can make a tabbe must be played and make it."))
    else:
        cards.update(played=ev.get("played"), taken=ev.get("taken", []))
        options = [_cards(c) for c in ev.get("must_take_one_of", [])]
        if ev.get("taken"):
            lines.append(_("At play %(n)s %(name)s played %(card)s and took only %(taken)s.", n=p["turn"], name=who,
                           card=pretty(ev.get("played")), taken=_cards(ev["taken"])))
        else:
            lines.append(_("At play %(n)s %(name)s trailed %(card)s, which could capture.", n=p["turn"], name=who,
                           card=pretty(ev.get("played"))))
        lines.append(_("It had to take %(options)s.", options=_(" or ").join(options)))
    return {
        "id": p["id"], "name": who, "points": p["points"], "breach": p["breach"], "rule": p["rule"],
        "lines": lines, "cards": cards, "message": p["message"],
        "title": _("Penalty for %(name)s? +%(points)s", name=who, points=p["points"]),
    }


# --- The end of a deal and of the game ------------------------------------------------------------


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


# --- Score sheet and chart ------------------------------------------------------------------------


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


# --- Hints, the dispute desk, claims ---------------------------------------------------------------


def desk_url(state: Mapping[str, Any], options: Mapping[str, Any], played: str = "") -> str:
    scheme = "fixed" if options.get("fixed") else "handtable" if options.get("handtable") else "standard"
    args: dict[str, str] = {"game": "kasino", "table": " ".join(state["table"]), "variant": scheme}
    if played:
        args["played"] = played
    return url_for("desk.desk", **args)


def hints(rules: Kasino, raw: KasinoState, state: Mapping[str, Any], text: str,
          options: Mapping[str, Any]) -> dict[str, Any]:
    """Every legal capture of one chosen card on the current table (``Kasino.captures_for``); in
    misär and with must_capture the ones the capture duty forbids are marked."""
    out: dict[str, Any] = {"card": None, "open": bool(text), "error": "", "captures": [], "trail": "",
                           "unseen": picker_counts(state), "desk": "", "more": ""}
    if not text:
        return out
    try:
        code = str(parse_card(text))
    except NotationError:
        out["error"] = _("“%(text)s” is not a card. Tap it in the grid or type it like 7H or 10♦.", text=text)
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


# --- Tally mode -------------------------------------------------------------------------------------


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
