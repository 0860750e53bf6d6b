"""Muggins screens: the table (muggins piles, every player's discard top and card counts), the
set-up (muggins cards and dealer), a turn in three taps (which card was turned, its rank then its
suit; which pile it went on, the right pile highlighted under coach), the "Muggins!" banner with
its penalty, the winner, tally mode.

Everything a template shows is worked out here from the engine's state, so the Jinja stays
dumb and the logic is testable. The chosen card travels in the URL (``?card=6H``) between the
card and the pile; set-up picks (``?pick=``) and tally placings (``?order=``) do the same, so
every step also works without JavaScript.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from flask import request, url_for

from scorekeeper.cards import FRENCH_RANKS, FRENCH_SUITS, Card, NotationError, parse_card
from scorekeeper.engine.base import MalformedEvent, RuleViolation
from scorekeeper.engine.muggins import DEAL_TABLE, PACK, Muggins, MugginsState, placements_for
from scorekeeper.localize import card_face, card_words, localize, ngettext
from scorekeeper.localize import gettext as _
from scorekeeper.web import asset
from scorekeeper.web.forms import whole_number
from scorekeeper.web.views import register

PACK_CODES: tuple[str, ...] = tuple(str(card) for card in PACK)
STORY_LINES = 12


@register("muggins")
def muggins_view(ctx: dict[str, Any]) -> dict[str, Any]:
    state: dict[str, Any] = ctx["state"]
    raw: MugginsState = ctx["raw_state"]
    table = ctx["table"]
    names: list[str] = list(ctx["players"])
    seat: int | None = ctx["seat"]
    rules: Muggins = ctx["rules"]
    mg: dict[str, Any] = {
        "sheet_url": url_for("play.sheet", table_id=table.id),
        "sound_url": asset("muggins.wav"),
        "book": url_for("rulebook.book", game="muggins", table=table.id),
        "ranks": FRENCH_RANKS,
        "suits": FRENCH_SUITS,
        "piles": [{"index": p["index"], "top": p["top"], "count": p["count"],
                   "label": _("Muggins pile %(n)s", n=p["index"] + 1)} for p in state["muggins"]],
        "seats": seats(state, names, seat),
        "status": status(state, raw, names, seat),
        "call": muggins_call(state, names) if state.get("muggins_called") else None,
        "story": story(state, names),
        "result": result(state, names) if state["over"] else None,
        "setup": None,
        "compose": None,
        "tally": None,
    }
    if ctx["can_write"] and not state["over"]:
        args = _inputs()
        if state["mode"] == "tally":
            mg["tally"] = tally(table.id, names, args)
        elif state["phase"] == "setup":
            mg["setup"] = setup(table.id, names, args)
        elif state["to_act"] is not None:
            mg["compose"] = compose(rules, raw, state, names, args)
    return {"mg": mg}


def _inputs() -> dict[str, list[str]]:
    """The step's fields: from the query string, or from a refused form (a 422 re-renders the
    sheet in answer to the POST, and the player should not have to start the turn again)."""
    source = request.form if request.method == "POST" else request.args
    return {key: [v.strip() for v in source.getlist(key) if v.strip()] for key in source}


def _last(args: Mapping[str, list[str]], key: str) -> str:
    values = args.get(key) or []
    return values[-1] if values else ""


# --- The table ----------------------------------------------------------------------------------


def seats(state: Mapping[str, Any], names: Sequence[str], seat: int | None) -> list[dict[str, Any]]:
    to_act = state["to_act"]
    rows = []
    for p in state["players"]:
        rows.append({
            "seat": p["seat"], "name": p["name"], "top": p["discard_top"], "draw": p["draw"],
            "discard": p["discard"], "cards": p["cards"], "place": p["place"],
            "to_act": p["seat"] == to_act, "me": p["seat"] == seat,
            "counts": _("%(draw)s face down · %(discard)s face up", draw=p["draw"], discard=p["discard"]),
            "spoken": ngettext("%(name)s holds %(num)s card: %(draw)s in the draw pile, %(discard)s in the "
                               "discard pile", "%(name)s holds %(num)s cards: %(draw)s in the draw pile, "
                               "%(discard)s in the discard pile", p["cards"], name=p["name"],
                               draw=p["draw"], discard=p["discard"]),
        })
    return rows


def status(state: Mapping[str, Any], raw: MugginsState, names: Sequence[str], seat: int | None) -> dict[str, Any]:
    """Whose turn it is, in big letters, and what they do next."""
    to_act = state["to_act"]
    if state["over"] or state["mode"] == "tally":
        return {"headline": "", "notes": []}
    if state["phase"] == "setup":
        return {"headline": _("Lay out the muggins cards"), "notes": []}
    if to_act is None:
        return {"headline": "", "notes": []}
    name = names[to_act]
    headline = _("Your turn, %(name)s!", name=name) if seat == to_act else _("%(name)s's turn", name=name)
    notes = []
    if not raw.history:
        notes.append(_("%(dealer)s dealt, so %(forehand)s starts.", dealer=names[state["dealer"]],
                       forehand=names[state["forehand"]]))
    last = raw.history[-1] if raw.history else None
    if last is not None and last.player == to_act and not last.turn_ended:
        notes.append(_("%(name)s goes on: turn the next card.", name=name))
    else:
        notes.append(_("%(name)s turns the top card of the draw pile.", name=name))
    if state["turns_over_first"]:
        notes.append(_("The draw pile is empty: turn the discard pile over first, without shuffling."))
    if state["next_card"]:
        notes.append(_("The next card is %(card)s (the pile was turned over, so its order is known).",
                       card=_pretty(state["next_card"])))
    return {"headline": headline, "notes": notes}


def place_words(place: Mapping[str, Any] | None, names: Sequence[str], mover: int, own: str | None = None) -> str:
    """A place in words; ``own`` replaces "Anna's own pile" where Anna is already the subject."""
    if not place:
        return "?"
    if place.get("pile") == "muggins":
        return _("muggins pile %(n)s", n=int(place["index"]) + 1)
    if place.get("pile") == "discard" and place.get("player") != mover:
        return _("%(name)s's pile", name=names[int(place["player"])])
    return own or _("%(name)s's own pile", name=names[mover])


def _names(seats_: Iterable[int], names: Sequence[str]) -> str:
    listed = [names[s] for s in seats_]
    if len(listed) <= 1:
        return "".join(listed)
    return _("%(first)s and %(last)s", first=", ".join(listed[:-1]), last=listed[-1])


def _pretty(code: str | None) -> str:
    return card_words(code)  # "10♦" in English, "ruter tia" / "Karo-Zehn" in a sentence


def muggins_call(state: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any] | None:
    """The "Muggins!" banner: what went wrong, why, and the penalty, in plain words."""
    call = state.get("last_muggins")
    if not call:
        return None
    who, card = call["player"], _pretty(call["card"])
    put = place_words(call["placed"], names, who, own=_("their own pile"))
    if call["placed_on"]:
        put = _("%(place)s (on the %(top)s)", place=put, top=_pretty(call["placed_on"]))
    should = [place_words(p, names, who) for p in call["should"]]
    lines = [_("%(name)s put the %(card)s on %(place)s.", name=names[who], card=card, place=put)]
    first = call["should"][0]["pile"]
    if not call["fits"]:
        lines.append(_("It does not fit there: a card goes on a card one higher or one lower."))
    elif first == "muggins":
        lines.append(_("A muggins pile comes first."))
    elif first == "discard":
        lines.append(_("The nearest pile to the left comes before any other pile."))
    else:
        lines.append(_("It fitted neither a muggins pile nor the nearest pile to the left, so it belonged "
                       "on the player's own pile."))
    lines.append(_("It belonged on %(places)s.", places=_(" or ").join(should)))
    givers = call["givers"]
    if givers:
        penalty = ngettext("%(givers)s gave %(name)s a card: it goes under %(name)s's draw pile.",
                           "%(givers)s each gave %(name)s a card: %(num)s cards go under %(name)s's draw pile.",
                           len(givers), givers=_names(givers, names), name=names[who])
    else:
        penalty = _("Nobody had a card left to give.")
    if call["moved_to"]:
        moved = _("The %(card)s was moved to %(place)s.", card=card,
                  place=place_words(call["moved_to"], names, who))
    else:
        moved = _("The %(card)s stays where it is (house rule).", card=card)
    rules = [call["rule"]] + ([call["fit_rule"]] if call["fit_rule"] else []) + [call["penalty_rule"], "MUGGINS-PEN-3"]
    return {
        "id": f"{call['n']}-{call['player']}-{call['card']}",
        "name": names[who], "card": call["card"], "lines": lines, "penalty": penalty, "moved": moved,
        "turn_over": _("%(name)s's turn is over.", name=names[who]) if call["turn_ended"] else "",
        "givers": [names[g] for g in givers], "cards": call["penalty_cards"], "rules": rules,
        "explanation": call["explanation"],
    }


def story(state: Mapping[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    """The latest placements, newest first, for the game's running story."""
    rows = []
    for p in reversed(state["placements"][-STORY_LINES:]):
        mover = p["player"]
        own = _("own pile")
        text = _("%(name)s: %(card)s on %(place)s", name=names[mover], card=_pretty(p["card"]),
                 place=place_words(p["to"], names, mover, own))
        if p["muggins"]:
            if p["final"] != p["to"]:
                text += " — " + _("Muggins! moved to %(place)s", place=place_words(p["final"], names, mover, own))
            else:
                text += " — " + _("Muggins!")
        rows.append({"n": p["n"], "text": text, "muggins": p["muggins"], "turned_over": p["turned_over"],
                     "turn_ended": p["turn_ended"]})
    return rows


def result(state: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    winners = state["placings"][0] if state["placings"] else []
    if len(winners) == 1:
        headline = _("%(name)s wins!", name=names[winners[0]])
    else:
        headline = _("%(names)s share the win!", names=_names(winners, names))
    stalemate = state.get("stalemate")
    why = ""
    if stalemate:
        reason = {"repeat": _("The same position came round again."),
                  "turned_over_twice": _("Everyone turned their pile over twice and nothing moved on."),
                  "agreed": _("The players agreed to stop.")}[stalemate["reason"]]
        why = reason + " " + _("Whoever holds the fewest cards wins.")
    elif state["mode"] == "adjudicate":
        why = _("No cards left!")
    placings = []
    counts = stalemate["cards"] if stalemate else None
    for k, group in enumerate(state["placings"], start=1):
        for p in group:
            placings.append({"place": k, "name": names[p], "cards": counts[p] if counts else None})
    return {"headline": headline, "why": why, "placings": placings,
            "rule": "MUGGINS-END-2" if stalemate else "MUGGINS-END-1"}


# --- Set-up ---------------------------------------------------------------------------------------


def setup(table_id: str, names: Sequence[str], args: Mapping[str, list[str]]) -> dict[str, Any]:
    """The muggins cards are tapped one at a time (``?pick=5H&pick=9C``), or typed in one go."""
    n = len(names)
    needed, each = DEAL_TABLE[n]
    chosen: list[str] = []
    errors: list[str] = []
    for text in args.get("pick", []) + args.get("muggins:list", []):
        for part in text.replace(",", " ").split():
            try:
                code = str(parse_card(part))
            except NotationError as exc:
                errors.append(str(exc))
                continue
            if code not in chosen and len(chosen) < needed:
                chosen.append(code)
    remove = [{"card": c, "url": url_for("play.sheet", table_id=table_id, pick=[o for o in chosen if o != c])}
              for c in chosen]
    return {
        "needed": needed, "each": each, "chosen": chosen, "errors": errors, "remove": remove,
        "ready": len(chosen) == needed,
        "unseen": {code: 0 if code in chosen else 1 for code in PACK_CODES},
        "random_dealer": random.randrange(n),
        "dealers": list(enumerate(names)),
        "prompt": ngettext("Lay out %(num)s card face up and tap it.", "Lay out %(num)s cards face up, "
                           "one pile each, and tap them from left to right.", needed),
        "deal": _("Then deal %(each)s cards to every player, face down, without looking.", each=each),
    }


# --- A turn: which card, then which pile ------------------------------------------------------------


def known_cards(raw: MugginsState) -> set[str]:
    """Every card lying face up or known in a draw pile: greyed out in the picker."""
    known = {str(c) for pile in raw.muggins for c in pile}
    for hand in raw.hands:
        known.update(str(c) for c in hand.discard)
        known.update(str(c) for c in hand.draw if c is not None)
    return known


def compose(rules: Muggins, raw: MugginsState, state: Mapping[str, Any], names: Sequence[str],
            args: Mapping[str, list[str]]) -> dict[str, Any]:
    mover: int = state["to_act"]
    known = known_cards(raw)
    out: dict[str, Any] = {
        "player": mover, "name": names[mover], "card": None, "error": None, "rule": None,
        "unseen": {code: 0 if code in known else 1 for code in PACK_CODES},
        "fixed": bool(state["next_card"]), "coach": state["options"]["coach"],
        "question": _("Which card did %(name)s turn?", name=names[mover]),
    }
    text = state["next_card"] or _last(args, "card")
    if not text:
        return out
    try:
        card = parse_card(text)
    except NotationError:
        out["error"] = _("“%(text)s” is not a card. Tap it in the grid or type it like 7H or 10♦.", text=text)
        return out
    from_refused_form = request.method == "POST"
    if from_refused_form and str(card) in known:
        return out  # the form was accepted after all: that card now lies on the table
    correct = [p["to"] for p in placements_for(raw, card) if p["correct"]]
    try:  # the card itself may be impossible (seen already, not the top of a turned-over pile)
        rules.apply(raw, {"type": "turn", "player": mover, "card": str(card), "to": correct[0]})
    except (RuleViolation, MalformedEvent) as exc:
        out["error"] = localize(exc.message, names)
        out["rule"] = getattr(exc, "rule", None)
        return out
    out["card"] = str(card)
    out["pretty"] = card_face(str(card))
    # Marking the right pile hands whoever records the card the answer, so a real muggins would
    # rarely be caught: only a coached table (the engine's ``coach`` option) shows it.
    out["destinations"] = destinations(state, names, mover, card, correct if out["coach"] else [])
    out["question"] = _("Where did %(name)s put the %(card)s? Tap that pile.", name=names[mover], card=_pretty(str(card)))
    out["right"] = [d["label"] for d in out["destinations"].values() if d["correct"]]
    return out


def destinations(state: Mapping[str, Any], names: Sequence[str], mover: int, card: Card,
                 correct: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Every pile the card can be put on, keyed ``m<i>`` (muggins pile) or ``p<seat>`` (a player's
    discard pile), each with the JSON ``to`` the form sends and whether it is the right place."""
    result: dict[str, dict[str, Any]] = {}
    pretty = _pretty(str(card))

    def add(key: str, to: dict[str, Any], label: str, top: str | None) -> None:
        right = to in correct
        spoken = _("Put the %(card)s on %(place)s", card=pretty, place=label)
        if top:
            spoken = _("Put the %(card)s on %(place)s, on the %(top)s", card=pretty, place=label, top=_pretty(top))
        if right:
            spoken += " — " + _("the right place")
        result[key] = {"to": to, "label": label, "top": top, "correct": right, "spoken": spoken}

    for pile in state["muggins"]:
        add(f"m{pile['index']}", {"pile": "muggins", "index": pile["index"]},
            _("muggins pile %(n)s", n=pile["index"] + 1), pile["top"])
    for p in state["players"]:
        if p["seat"] == mover:
            own_top = None if state["turns_over_first"] else p["discard_top"]
            add(f"p{mover}", {"pile": "own"}, _("%(name)s's own pile", name=names[mover]), own_top)
        elif p["discard_top"]:
            add(f"p{p['seat']}", {"pile": "discard", "player": p["seat"]},
                _("%(name)s's pile", name=p["name"]), p["discard_top"])
    return result


# --- Tally mode -------------------------------------------------------------------------------------


def tally(table_id: str, names: Sequence[str], args: Mapping[str, list[str]]) -> dict[str, Any]:
    """The winner in one tap, or the finishing order tapped player by player (``?order=2&order=0``)."""
    n = len(names)
    order: list[int] = []
    for text in args.get("order", []):
        seat = whole_number(text, 2)
        if seat is not None and seat < n and seat not in order:
            order.append(seat)
    left = [p for p in range(n) if p not in order]
    complete = len(left) <= 1
    placings = [[p] for p in order + left] if complete else []
    return {
        "players": list(enumerate(names)),
        "order": [{"place": k, "name": names[p]} for k, p in enumerate(order, start=1)],
        "add": [{"seat": p, "name": names[p], "url": url_for("play.sheet", table_id=table_id, order=order + [p])}
                for p in left] if not complete else [],
        "reset": url_for("play.sheet", table_id=table_id),
        "complete": complete and bool(order),
        "placings": json.dumps(placings),
        "next_place": len(order) + 1,
        "open": bool(order),
    }
