"""Tomelilla Mulle screens: the cribbage board (the main view), the table cards, whose turn it is,
round n of N and the last-round call (MULLE-DEAL-8), a move in 1 + k + 1 taps with the live
legality preview (the shared fishing-game forms), what each move scores as it happens, the
end-of-deal count, the winner, hints (every legal capture of a chosen card), the tally buttons,
the score sheet and the dispute-desk link.

Everything a template shows is worked out here from the engine's state JSON (and, for hints,
``Mulle.hints_for`` on the engine state), so the Jinja stays dumb and the logic is testable.
A hint's card travels in the URL (``?hint=7H``), so it also works without JavaScript.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask import url_for

from scorekeeper.cards import FRENCH_RANKS, FRENCH_SUITS
from scorekeeper.engine.mulle import COPIES, TALLY, TALLY_CAPS, TALLY_ORDER, Mulle, MulleState
from scorekeeper.localize import gettext as _
from scorekeeper.localize import localize, ngettext
from scorekeeper.web.views import register
from scorekeeper.web.views.fishing import (
    hint_arg,
    hint_card,
    hints_asked,
    join,
    pretty,
    side_labels,
)

HINTS_SHOWN = 40      # captures listed for one card; more are counted, not shown
COUNT_UP_TO = 100_000  # beyond this the screen says "100000+" rather than count on


@register("mulle")
def mulle_view(ctx: dict[str, Any]) -> dict[str, Any]:
    state: dict[str, Any] = ctx["state"]
    raw: MulleState = ctx["raw_state"]
    rules: Mulle = ctx["rules"]
    table = ctx["table"]
    names: list[str] = list(ctx["players"])
    seat: int | None = ctx["seat"]
    can_write: bool = ctx["can_write"]
    labels = side_labels(state, names)
    adjudicate = state["mode"] == "adjudicate"
    playing = state["phase"] == "play"
    ml: dict[str, Any] = {
        "book": url_for("rulebook.book", game="mulle", table=table.id),
        "sheet_url": url_for("play.sheet", table_id=table.id),
        "post_url": url_for("play.post_event", table_id=table.id),
        "scores": scoreboard(state, labels, seat),
        "board_title": _("Cribbage board to %(n)s", n=state["target"]),
        "status": status(state, names),
        "just": just_happened(state, labels, names),
        "seats": seats(state, names, seat) if playing else [],
        "piles": piles(state, labels) if playing else [],
        "summary": deal_summary(state, labels, names),
        "result": result(state, labels) if state["over"] else None,
        "sheet": score_sheet(state, labels, names),
        "desk_url": desk_url(state),
        "house": house_rules(state),
        "hints": None,
        "tally": None,
        "deal_state": None,
    }
    if can_write and not state["over"]:
        if adjudicate and playing:
            ml["hints"] = hints(rules, raw, state, hint_arg(), hints_asked())
        if adjudicate and state["phase"] == "deal":
            # Between deals every card of the two packs is unseen again: the deal form's picker
            # must not grey out what the last deal used up.
            ml["deal_state"] = {**state, "unseen": {f"{r}{s}": COPIES for s in FRENCH_SUITS for r in FRENCH_RANKS}}
        if not adjudicate:
            ml["tally"] = tally(state, raw, labels, names)
    return {
        "ml": ml,
        "fishing_ranks": FRENCH_RANKS,
        "fishing_suits": FRENCH_SUITS,
        "table_size": state["table_size"],
        "fishing_typed_extra": "games/mulle/move_extra.html",
    }


def house_rules(state: Mapping[str, Any]) -> list[dict[str, str]]:
    options = state["options"]
    out = []
    if options.get("strict_value"):
        out.append({"text": _("strict value"), "rule": "MULLE-OPT-STRICT-VALUE"})
    if options.get("no_last_sweep"):
        out.append({"text": _("no tabbe on the last play"), "rule": "MULLE-OPT-NO-LAST-SWEEP"})
    if options.get("mulle_alone"):
        out.append({"text": _("a twin is taken alone"), "rule": "MULLE-OPT-MULLE-ALONE"})
    return out


# --- The board, whose turn, what just happened ------------------------------------------------


def scoreboard(state: Mapping[str, Any], labels: Sequence[str], seat: int | None) -> list[dict[str, Any]]:
    target = state["target"]
    rows = []
    for side, (label, total) in enumerate(zip(labels, state["scores"], strict=True)):
        team = state["sides"][side]
        before = state["previous_scores"][side]
        rows.append({
            "label": label, "total": total, "before": before, "gained": total - before,
            "to_go": _("%(n)s to go", n=max(target - total, 0)),
            "me": seat in team, "acting": state["to_act"] in team,
            "won": state["over"] and state["winner"] == side,
            "spoken": ngettext("%(side)s: %(num)s point", "%(side)s: %(num)s points", total, side=label),
        })
    return rows


def status(state: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """Where the game is, in one line, what to do at the table now, and the last-round call."""
    phase = state["phase"]
    lines: list[str] = []
    last_round = False
    if phase == "deal":
        cards = state["table_size"]
        if state["deal"] == 0:
            headline = _("Choose the dealer, deal 5 cards to each player and %(n)s face up to the table, "
                         "then tap the table cards.", n=cards)
        else:
            headline = _("Deal %(n)s is over.", n=state["deal"])
            if state["next_dealer"] is not None:
                lines.append(_("%(name)s deals next: 5 cards to each player and %(n)s face up to the table.",
                               name=names[state["next_dealer"]], n=cards))
    elif phase == "play":
        headline = _("Deal %(n)s · %(dealer)s dealt · round %(round)s of %(total)s", n=state["deal"],
                     dealer=names[state["dealer"]], round=state["round"], total=state["rounds_total"])
        last_round = bool(state["is_last_round"])
        fresh = not any(state["played_this_round"])
        if fresh and state["round"] > 1:
            lines.append(_("Deal %(n)s more cards to each player; none to the table.", n=state["hand_size"]))
        lines.append(ngettext("%(num)s card left to play in this deal.", "%(num)s cards left to play in this deal.",
                              state["cards_left"]))
    elif phase == "tally":
        headline = _("Tally mode: tap what each side scores, the moment it happens.")
        if state["deal"]:
            lines.append(_("Deal %(n)s", n=state["deal"]))
    else:
        headline = ""
    return {"headline": headline, "lines": lines, "last_round": last_round,
            "last_round_text": _("Last round! These are the last cards of the deal.") if last_round else ""}


def fact_text(fact: Mapping[str, Any]) -> str:
    """One scoring fact as it is called at the table: "Mulle!", "Tabbe", "10♦", "Last capture"."""
    what, detail = fact["what"], str(fact.get("detail") or "")
    unit = TALLY.get(what, (1, ""))[0]
    count = fact["points"] // unit if unit and fact["points"] % unit == 0 else 1
    if fact.get("rule") == "MULLE-SCORE-6" and detail:
        return detail  # "A♣ left on the table", in the reader's language already
    if what == "ace":
        text = (detail if count == 1 else "") or _("Ace")
    elif what == "two_of_spades":
        text = "2♠"
    elif what == "ten_of_diamonds":
        text = "10♦"
    elif what == "tabbe":
        text = _("Tabbe")
    elif what == "mulle":
        text = _("Mulle!")
    elif what == "last_capture":
        text = _("Last capture")
    elif what == "most_spades":
        text = _("Most spades")
    else:
        text = detail or what
    if count > 1 and what in TALLY:
        text = _("%(count)s × %(what)s", count=count, what=text)
    return text


def move_text(move: Mapping[str, Any], names: Sequence[str]) -> str:
    name = names[move["player"]]
    if move["kind"] == "trail":
        return _("%(name)s trails %(card)s.", name=name, card=pretty(move["card"]))
    return _("%(name)s: %(card)s as %(value)s takes %(groups)s", name=name, card=pretty(move["card"]),
             value=move["value"], groups=move["grouping"])


def just_happened(state: Mapping[str, Any], labels: Sequence[str], names: Sequence[str]) -> dict[str, Any] | None:
    """The latest move and what it scored, on every phone (from the state, not from the POST)."""
    move = state["last_move"]
    facts = state["scored"]
    if not move and not facts:
        return None
    pops = [{"side": labels[f["side"]], "text": fact_text(f), "points": f["points"], "rule": f["rule"]}
            for f in facts]
    return {"text": move_text(move, names) if move else "", "pops": pops,
            "total": sum(f["points"] for f in facts)}


def seats(state: Mapping[str, Any], names: Sequence[str], seat: int | None) -> list[dict[str, Any]]:
    rows = []
    for p, name in enumerate(names):
        tags = []
        if p == seat:
            tags.append(_("you"))
        if p == state["dealer"]:
            tags.append(_("dealer"))
        if p == state["forehand"]:
            tags.append(_("forehand"))
        rows.append({"name": name, "tags": tags, "to_act": p == state["to_act"],
                     "hand": ngettext("%(num)s card in hand", "%(num)s cards in hand", state["cards_in_hand"][p])})
    return rows


def piles(state: Mapping[str, Any], labels: Sequence[str]) -> list[dict[str, Any]]:
    """What each side has captured so far this deal."""
    return [{"label": label, "cards": pile["cards"], "spades": pile["spades"], "tabbes": state["sweeps"][i],
             "mulles": state["mulles"][i], "points": state["deal_points"][i]}
            for i, (label, pile) in enumerate(zip(labels, state["piles"], strict=True))]


# --- The end of a deal and of the game --------------------------------------------------------


def deal_summary(state: Mapping[str, Any], labels: Sequence[str], names: Sequence[str]) -> dict[str, Any] | None:
    """MULLE-SCORE-5..9: the last capture, the leftovers, the spades per side and each side's points
    for the deal; shown between deals, and on the game-over screen for the deal that decided it."""
    if state["mode"] != "adjudicate":
        return None
    row = state["deal_end"]
    if row is None and state["over"] and state["history"]:
        row = state["history"][-1]
    if row is None:
        return None
    last = row["last_capture"]
    if not row["finished"]:
        last_text = ""  # the game was won inside the deal: no end-of-deal scoring (MULLE-END-3)
    elif last is None:
        last_text = _("Nobody captured anything in this deal: no last-capture point, and the cards left on "
                      "the table belong to nobody.")
    else:
        last_text = _("%(name)s made the last capture: +1 for %(side)s.", name=names[last["player"]],
                      side=labels[last["side"]])
    leftovers_text = ""
    if row["leftovers"] and row["leftovers_to"] is not None:
        leftovers_text = _("Left on the table, to %(side)s (not a tabbe):", side=labels[row["leftovers_to"]])
    elif row["leftovers"]:
        leftovers_text = _("Left on the table, for nobody:")
    spades = row["spades"]
    if not row["spades_counted"]:
        spades_text = _("The game was won before the spades were counted.")
        spades_rule = "MULLE-SCORE-9" if row["finished"] else "MULLE-END-3"
    elif row["most_spades"] is not None:
        spades_text = _("%(side)s has the most spades (%(n)s of 26): +1.", side=labels[row["most_spades"]],
                        n=spades[row["most_spades"]])
        spades_rule = "MULLE-SCORE-7"
    else:
        top = max(spades) if spades else 0
        tied = [labels[i] for i, n in enumerate(spades) if n == top]
        spades_text = _("%(sides)s tie for the most spades (%(n)s each): nobody scores the spade point.",
                        sides=join(tied), n=top)
        spades_rule = "MULLE-SCORE-7"
    rows = [{"label": label, "cards": row["piles"][i], "spades": spades[i], "tabbes": row["sweeps"][i],
             "mulles": row["mulles"][i], "points": row["points"][i], "total": row["scores"][i]}
            for i, label in enumerate(labels)]
    return {"deal": row["deal"], "finished": row["finished"], "last": last_text, "leftovers": row["leftovers"],
            "leftovers_text": leftovers_text, "spades": spades_text, "spades_rule": spades_rule, "rows": rows,
            "unfinished": "" if row["finished"] else _("The game ended during this deal.")}


def result(state: Mapping[str, Any], labels: Sequence[str]) -> dict[str, Any]:
    """MULLE-END-3: the first side to 61 wins at once."""
    winner = state["winner"]
    if winner is None:
        return {"headline": _("Game over"), "lines": [], "rule": "MULLE-END-3"}
    team = state["sides"][winner]
    headline = _("%(name)s win!", name=labels[winner]) if len(team) > 1 else _("%(name)s wins!", name=labels[winner])
    others = [_("%(side)s %(n)s", side=labels[i], n=s) for i, s in enumerate(state["scores"]) if i != winner]
    lines = [_("%(side)s reached %(target)s with %(n)s points.", side=labels[winner], target=state["target"],
               n=state["scores"][winner])]
    if others:
        lines.append(_("Final scores: %(others)s.", others=join(others)))
    return {"headline": headline, "lines": lines, "rule": "MULLE-END-3"}


# --- Score sheet ------------------------------------------------------------------------------


def score_sheet(state: Mapping[str, Any], labels: Sequence[str], names: Sequence[str]) -> dict[str, Any]:
    rows = []
    for r in state["history"]:
        cells = [{"points": p, "total": t} for p, t in zip(r["points"], r["scores"], strict=True)]
        rows.append({"deal": r["deal"], "dealer": names[r["dealer"]] if r["dealer"] is not None else "",
                     "cells": cells, "note": "" if r["finished"] else _("game over")})
    chart_rows = [[0] * len(labels)] + [list(r["scores"]) for r in state["history"]]
    return {"rows": rows, "chart_rows": chart_rows, "labels": list(labels)}


# --- Hints and the dispute desk ---------------------------------------------------------------


def desk_url(state: Mapping[str, Any], played: str = "") -> str:
    args: dict[str, str] = {"game": "mulle", "table": " ".join(state["table"])}
    if state["options"].get("strict_value"):
        args["strict_value"] = "on"
    if played:
        args["played"] = played
    return url_for("desk.desk", **args)


def hints(rules: Mulle, raw: MulleState, state: Mapping[str, Any], text: str, opened: bool = False) -> dict[str, Any]:
    """Every legal capture of one chosen card on the current table (``Mulle.hints_for``). A crowded
    table can have hundreds of thousands of captures, so the list is capped, and the screen says so."""
    out: dict[str, Any] = {"card": None, "open": bool(text) or opened, "error": "", "captures": [], "note": "",
                           "trail": "", "unseen": state["unseen"], "desk": "", "none": ""}
    if not text:
        return out
    code, out["error"] = hint_card(text)
    if code is None:
        return out
    if not state["unseen"].get(code):
        out["error"] = _("Both %(card)s have already been seen in this deal.", card=pretty(code))
        return out
    out["card"] = code
    out["desk"] = desk_url(state, played=code)
    # The solver lists the smallest captures first and counts the rest cheaply, on any table.
    found = rules.hints_for(raw, code, limit=HINTS_SHOWN)
    if len(found) == HINTS_SHOWN:
        total = rules.hint_count(raw, code, at_most=COUNT_UP_TO)
        if total > HINTS_SHOWN:
            shown_total = f"{total}+" if total >= COUNT_UP_TO else str(total)
            out["note"] = _("%(num)s captures in all: showing the first %(shown)s, smallest first.",
                            num=shown_total, shown=HINTS_SHOWN)
    for c in found:
        out["captures"].append({
            "capture": c["capture"], "points": c["points"], "tabbe": c["sweep"], "mulle": c["mulle"],
            "text": _("as %(value)s: %(groups)s", value=c["value"], groups=localize(c["grouping"])),
        })
    card = pretty(code)
    if not found:
        out["none"] = _("%(card)s takes nothing on this table.", card=card)
    out["trail"] = _("Trailing %(card)s is always allowed too.", card=card)
    return out


# --- Tally mode ---------------------------------------------------------------------------------


def tally_name(what: str) -> str:
    return {"ace": _("Ace"), "two_of_spades": "2♠", "ten_of_diamonds": "10♦", "tabbe": _("Tabbe"),
            "mulle": _("Mulle"), "last_capture": _("Last capture"), "most_spades": _("Most spades")}[what]


def tally(state: Mapping[str, Any], raw: MulleState, labels: Sequence[str], names: Sequence[str]) -> dict[str, Any]:
    """Per side, one button per scoring fact that pegs at once. Once deals are marked, a fact a
    deal cannot hold again (a third 10♦, a second last capture) is greyed out."""
    counts = raw.tally_counts
    sides = []
    for i, label in enumerate(labels):
        buttons = []
        for what in TALLY_ORDER:
            points, rule = TALLY[what]
            cap = TALLY_CAPS.get(what)
            full = bool(state["deal"]) and cap is not None and counts.get(what, 0) >= cap[0]
            name = tally_name(what)
            buttons.append({"what": what, "label": name, "points": points, "rule": rule, "disabled": full,
                            "spoken": _("%(what)s for %(side)s: +%(n)s", what=name, side=label, n=points)})
        sides.append({"index": i, "label": label, "buttons": buttons})
    first = state["dealer"] is None
    return {
        "sides": sides, "deal": state["deal"], "first": first,
        "dealers": list(enumerate(names)) if first else [],
        "next_dealer": names[state["next_dealer"]] if state["next_dealer"] is not None else "",
    }
