"""Mulatschak screens: a guided deal that follows the table (dealer, cut or knock, unter dem Hund,
bidding, trumps, play or stay home, exchange, five tricks), the sheet from 21 down to 0 with the
doublings of every deal, revoke proposals in words and cards, and tally mode.

Everything the template shows is worked out here from the engine's state (and, where the
engine already knows it, from its hints), so the Jinja stays dumb and the logic is testable.
The Packerl step keeps its chosen suit in the URL (``?packerl=L``) so it works without
JavaScript too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask import request, url_for
from markupsafe import Markup, escape

from scorekeeper.cards import parse_card
from scorekeeper.engine.mulatschak import START, Mulatschak, MulState
from scorekeeper.localize import gettext as _
from scorekeeper.localize import ngettext
from scorekeeper.web.views import register

# The phase controls live in their own module; tests import exchange_controls and unseen from here.
from scorekeeper.web.views.mulatschak.controls import (
    controls,
    exchange_controls,
    extras,
    tally,
    unseen,
)
from scorekeeper.web.views.mulatschak.terms import (
    _card_word,
    _glosses,
    maybe_suit,
    suit_info,
    term,
    term_text,
)
from scorekeeper.web.views.tricks import names_of, proposals

__all__ = ["exchange_controls", "mulatschak_view", "proposal_words", "row_words", "unseen"]

STEPS = ("cut", "bidding", "trump", "stay", "exchange", "play")


# --- the view -------------------------------------------------------------------------------------


@register("mulatschak")
def mulatschak_view(ctx: dict[str, Any]) -> dict[str, Any]:
    state: dict[str, Any] = ctx["state"]
    raw: MulState = ctx["raw_state"]
    rules: Mulatschak = ctx["rules"]
    table = ctx["table"]
    names: list[str] = list(ctx["players"])
    seat: int | None = ctx["seat"]
    deal: dict[str, Any] | None = state.get("deal")
    book = url_for("rulebook.book", game="mulatschak", table=table.id)
    mu: dict[str, Any] = {
        "post_url": url_for("play.post_event", table_id=table.id),
        "sheet_url": url_for("play.sheet", table_id=table.id),
        "preview_url": url_for("play.preview", table_id=table.id),
        "book": book,
        "terms": {w: term(w) for w in _glosses()},
        "key": key_line(),
        "seats": seats(state, names, seat),
        "steps": steps(state),
        "status": status(state, names),
        "deal": deal_summary(state, names) if deal else None,
        "trick": trick_view(state, names) if deal and deal["tricks"] else None,
        "past_tricks": past_tricks(state, names) if deal and deal["tricks"] else [],
        "sheet": sheet(state, names),
        "chart": chart(state),
        "result": result(state, names) if state["over"] else None,
        "proposals": proposals(state, names, proposal_words, book),
        "pending": sum(1 for p in state["proposals"] if p["status"] == "pending"),
        "controls": None,
        "tally": None,
        "extras": None,
    }
    if ctx["can_write"] and not state["over"]:
        args = _inputs()
        if state["mode"] == "tally":
            mu["tally"] = tally(state, raw, names, args)
        elif deal is not None:
            hints = rules.hints(raw)
            mu["controls"] = controls(state, raw, names, seat, hints, args, table.id)
            mu["extras"] = extras(state, raw, names, seat, hints)
    return {"mu": mu}


def _inputs() -> dict[str, list[str]]:
    """The step's fields: from the query string, or from a refused form (a 422 re-renders the
    sheet in answer to the POST, and nobody should have to fill the form in again)."""
    source = request.form if request.method == "POST" else request.args
    return {key: [v.strip() for v in source.getlist(key) if v.strip()] for key in source}


def key_line() -> list[Markup]:
    return [term(w) for w in ("Sau", "Ober", "Unter", "Weli")]


# --- who is who -------------------------------------------------------------------------------------


def seats(state: Mapping[str, Any], names: Sequence[str], seat: int | None) -> list[dict[str, Any]]:
    deal = state.get("deal")
    rows = []
    for p, name in enumerate(names):
        tags: list[str] = []
        info: dict[str, Any] = {"seat": p, "name": name, "score": state["scores"][p], "me": p == seat,
                                "to_act": p == state["to_act"], "leads": False, "home": False,
                                "declarer": False, "won": None, "tags": tags}
        if deal is not None:
            if p == deal["dealer"]:
                tags.append(_("deals"))
            if deal["phase"] == "cut" and p == deal["cutter"]:
                tags.append(_("cuts"))
            if p == deal["declarer"]:
                info["declarer"] = True
                tags.append(_("declarer"))
            if deal["decisions"][p] == "home":
                info["home"] = True
                tags.append(term_text("daheim bleiben"))
            if deal["phase"] in ("play", "review") and deal["decisions"][p] != "home":
                info["won"] = deal["tricks_won"][p]
            if deal["next_leader"] == p:
                info["leads"] = True
                tags.append(_("leads next"))
        elif p == state["dealer"] and not state["over"]:
            tags.append(_("deals"))
        info["spoken"] = _("%(name)s: %(n)s points", name=name, n=info["score"])
        rows.append(info)
    return rows


def steps(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    deal = state.get("deal")
    if deal is None or state["over"]:
        return []
    labels = {"cut": _("Cut"), "bidding": _("Bidding"), "trump": _("Trumps"), "stay": _("Play or stay home"),
              "exchange": _("Exchange"), "play": _("Tricks")}
    phase = "play" if deal["phase"] == "review" else deal["phase"]
    here = STEPS.index(phase) if phase in STEPS else -1
    return [{"label": labels[s], "current": k == here, "done": k < here} for k, s in enumerate(STEPS)]


def status(state: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """Whose turn it is, in big letters, and a line on what happens now."""
    deal = state.get("deal")
    if state["over"] or deal is None:
        return {"headline": "", "note": ""}
    p = deal["to_act"]
    name = names[p] if p is not None else ""
    phase = deal["phase"]
    if phase == "cut":
        return {"headline": _("%(name)s cuts or knocks", name=name),
                "note": _("%(dealer)s deals; %(name)s sits on the dealer's right.", dealer=names[deal["dealer"]],
                          name=name)}
    if phase == "bidding":
        if deal["duel"]:
            note = _("%(dealer)s held: only %(dealer)s and %(bidder)s bid on.", dealer=names[deal["duel"]["dealer"]],
                     bidder=names[deal["duel"]["displaced"]])
        elif deal["high_bidder"] is not None:
            note = _("Highest bid so far: %(n)s by %(name)s.", n=deal["high_bid"], name=names[deal["high_bidder"]])
        else:
            note = _("%(name)s speaks first; the dealer, %(dealer)s, speaks last.", name=names[deal["forehand"]],
                     dealer=names[deal["dealer"]])
        return {"headline": _("%(name)s bids", name=name), "note": note}
    if phase == "trump":
        return {"headline": _("%(name)s names trumps", name=name), "note": contract_words(deal, names)}
    if phase == "stay":
        return {"headline": _("%(name)s: play along or stay home?", name=name), "note": contract_words(deal, names)}
    if phase == "exchange":
        note = ngettext("%(num)s card left in the stock.", "%(num)s cards left in the stock.",
                        deal["stock_available"])
        if not deal["exchange_queue"] and deal["bridge_queue"]:
            return {"headline": _("%(name)s is dealt the Bridge", name=name), "note": note}
        return {"headline": _("%(name)s exchanges", name=name), "note": note}
    if phase == "play":
        open_trick = deal["tricks"] and deal["tricks"][-1]["winner"] is None
        number = len(deal["tricks"]) + (0 if open_trick else 1)
        if open_trick:
            return {"headline": _("%(name)s plays", name=name), "note": _("Trick %(n)s of 5", n=number)}
        return {"headline": _("%(name)s leads", name=name), "note": _("Trick %(n)s of 5", n=number)}
    if phase == "review":
        return {"headline": _("All five tricks are played"),
                "note": _("Confirm or dismiss the revoke below; then the deal is scored.")}
    return {"headline": "", "note": ""}


def contract_words(deal: Mapping[str, Any], names: Sequence[str]) -> str:
    who = names[deal["declarer"]]
    if deal["forced"]:
        return _("Everyone passed: %(name)s, the dealer, plays for 1 trick.", name=who)
    if deal["muli"]:
        return _("%(name)s plays a Muli: all five tricks, everyone plays.", name=who)
    return ngettext("%(name)s must take %(num)s trick.", "%(name)s must take %(num)s tricks.",
                    deal["contract"], name=who)


def cause_label(cause: str) -> str:
    return {"hearts": _("♥ Herz ×2"), "knock": _("knock ×2"), "collapse": _("collapse ×2")}.get(cause, cause)


def bid_words(call: Mapping[str, Any]) -> Markup:
    if call["call"] == "pass":
        return term("weiter")
    if call["call"] == "hold":
        return Markup("{} · {}").format(term("mit mir"), call["tricks"])
    if call["call"] == "muli" or call["tricks"] == 5:
        return term("Muli")
    return Markup(escape(str(call["tricks"])))


def deal_summary(state: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    deal = state["deal"]
    lines: list[Markup | str] = []
    cut = deal["cut"]
    cutter = names[deal["cutter"]]
    if cut == "knock":
        lines.append(_("%(name)s knocked: the deal counts double.", name=cutter))
    elif cut == "cut":
        lines.append(_("%(name)s cut.", name=cutter))
    if deal["weli_to"] is not None:
        lines.append(Markup(escape(_("%(name)s kept the Weli.", name=names[deal["weli_to"]]))))
    if deal["collapses"]:
        lines.append(ngettext("Dealt again after %(num)s weak hand (unter dem Hund).",
                              "Dealt again after %(num)s weak hands (unter dem Hund).", deal["collapses"]))
    bids = [{"name": names[c["player"]], "words": bid_words(c)} for c in deal["bids"]]
    trump = maybe_suit(deal["trump"])
    decisions = []
    if deal["declarer"] is not None and deal["trump"]:
        for p, d in enumerate(deal["decisions"]):
            if d == "home":
                decisions.append({"name": names[p], "words": term("daheim bleiben")})
            elif d == "play":
                decisions.append({"name": names[p], "words": Markup(escape(_("plays along")))})
    return {
        "number": deal["number"],
        "dealer": names[deal["dealer"]],
        "lines": lines,
        "bids": bids,
        "declarer": names[deal["declarer"]] if deal["declarer"] is not None else None,
        "contract": contract_words(deal, names) if deal["declarer"] is not None else "",
        "trump": trump,
        "multiplier": deal["multiplier"],
        "causes": [cause_label(c) for c in deal["causes"]],
        "decisions": decisions,
        "exchanges": [exchange_words(e, names) for e in deal["exchanges"]],
        "stock": deal["stock_available"],
        "show_stock": deal["phase"] == "exchange",
    }


def exchange_words(e: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    name = names[e["player"]]
    kind = e["kind"]
    cards: list[str] = list(e["face_up"])
    if kind == "normal":
        text: Markup | str = (_("%(name)s kept all five cards.", name=name) if e["thrown"] == 0 else
                              ngettext("%(name)s exchanged %(num)s card.", "%(name)s exchanged %(num)s cards.",
                                       e["thrown"], name=name))
    elif kind == "sight":
        text = (_("%(name)s took one on sight and kept it:", name=name) if e["kept"] else
                _("%(name)s took one on sight, threw it away and took the next:", name=name))
    elif kind == "bridge":
        text = (_("%(name)s took the Bridge; face up:", name=name) if e["served"] else
                _("%(name)s threw all five for the Bridge (dealt after the others).", name=name))
    elif kind == "sau":
        text = Markup("{}: {}").format(name, term("Fünf auf die Sau"))
    elif kind == "seven":
        text = Markup("{}: {}").format(name, term("Sechs auf den Siebener"))
    else:   # the delayed trump
        text = Markup("{}: {}").format(name, term("Packerl"))
    return {"text": text, "cards": cards}


# --- tricks -----------------------------------------------------------------------------------------


def trick_view(state: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """The trick on the table: the open one, or the last one with its winner until the next lead."""
    deal = state["deal"]
    trick = deal["tricks"][-1]
    winner = trick["winner"]
    winning = _winning_card(trick, deal["trump"]) if trick["cards"] else None
    cards = [{"name": names[c["player"]], "card": c["card"], "lead": k == 0,
              "wins": (c["player"] == winner) if winner is not None else (c["card"] == winning)}
             for k, c in enumerate(trick["cards"])]
    out: dict[str, Any] = {"number": trick["number"], "cards": cards, "winner": None, "next": None}
    if winner is not None:
        out["winner"] = _("Trick %(n)s goes to %(name)s.", n=trick["number"], name=names[winner])
        if deal["next_leader"] is not None:
            out["next"] = _("%(name)s leads the next trick.", name=names[deal["next_leader"]])
    return out


def _winning_card(trick: Mapping[str, Any], trump: str | None) -> str | None:
    from scorekeeper.engine.mulatschak import ORDER
    from scorekeeper.engine.tricks import winning_index

    cards = [parse_card(c["card"], "german") for c in trick["cards"]]
    return str(cards[winning_index(cards, trump, ORDER)])


def past_tricks(state: Mapping[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    deal = state["deal"]
    return [{"number": t["number"], "cards": [c["card"] for c in t["cards"]],
             "winner": names[t["winner"]] if t["winner"] is not None else None}
            for t in deal["tricks"] if t["winner"] is not None]


# --- the sheet --------------------------------------------------------------------------------------


def _winners(state: Mapping[str, Any]) -> list[int]:
    w = state["winner"]
    if w is None:
        return []
    return list(w) if isinstance(w, list) else [w]


def sheet(state: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    rows = []
    winners = _winners(state)
    last = len(state["sheet"]) - 1
    for k, r in enumerate(state["sheet"]):
        cells = []
        for p in range(len(names)):
            t = r["tricks"][p]
            home = p in r["home"]
            if home:
                what = term_text("daheim bleiben")
            elif r["declarer"] is None:
                what = ""
            else:
                what = ngettext("%(num)s trick", "%(num)s tricks", t or 0)
            cells.append({"change": r["changes"][p], "total": r["totals"][p], "home": home, "what": what,
                          "declarer": p == r["declarer"], "revoke": p in r["revokes"],
                          "breaker": p == r["breaker"], "winner": k == last and p in winners})
        if r["declarer"] is None:
            bid: Markup | str = _("Thrown in: everyone passed")
        elif r["muli"]:
            bid = term("Muli")
        elif r["forced"]:
            bid = _("%(n)s (everyone passed)", n=r["bid"])
        else:
            bid = str(r["bid"])
        rows.append({
            "deal": r["deal"], "dealer": names[r["dealer"]],
            "declarer": names[r["declarer"]] if r["declarer"] is not None else None,
            "bid": bid, "trump": maybe_suit(r["trump"]), "multiplier": r["multiplier"],
            "causes": [cause_label(c) for c in r["causes"]], "made": r["made"], "cells": cells,
            "spoken": row_words(r, names),
        })
    return {"rows": rows, "start": START, "names": list(names), "winners": winners}


def row_words(r: Mapping[str, Any], names: Sequence[str]) -> str:
    if r["declarer"] is None:
        return _("Deal %(n)s thrown in", n=r["deal"])
    made = _("made it") if r["made"] else _("failed")
    return _("Deal %(n)s: %(name)s bid %(bid)s and %(made)s", n=r["deal"], name=names[r["declarer"]],
             bid=r["bid"], made=made)


def chart(state: Mapping[str, Any]) -> list[list[int]] | None:
    if not state["sheet"]:
        return None
    n = len(state["scores"])
    return [[START] * n] + [list(r["totals"]) for r in state["sheet"]]


def result(state: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    winners = _winners(state)
    if len(winners) == 1:
        headline = _("%(name)s wins with %(n)s points!", name=names[winners[0]], n=state["scores"][winners[0]])
    else:
        headline = _("%(names)s share the win!", names=names_of(winners, names))
    rule = "MULAT-END-2" if sum(1 for s in state["scores"] if s <= 0) > 1 else "MULAT-END-1"
    return {"headline": headline, "rule": rule}


# --- revokes ----------------------------------------------------------------------------------------


def proposal_words(prop: Mapping[str, Any], deal: Mapping[str, Any] | None, names: Sequence[str]) -> dict[str, Any]:
    """The evidence in plain words: what was played, what it should have been, and the proof."""
    who = names[prop["player"]]
    card, evidence = _card_word(prop["card"]), _card_word(prop["evidence"])
    trump = deal["trump"] if deal else None
    led = None
    if deal and 0 < prop["trick"] <= len(deal["tricks"]):
        first = deal["tricks"][prop["trick"] - 1]["cards"][0]["card"]
        lead_card = parse_card(first, "german")
        led = trump if lead_card.is_weli or lead_card.suit == trump else lead_card.suit
    led_name = suit_info(led)["name"] if led else "?"
    trump_name = suit_info(trump)["name"] if trump else "?"
    kind = prop["kind"]
    if kind == "follow":
        what = _("In trick %(n)s %(name)s played the %(card)s although %(suit)s was led.", n=prop["trick"],
                 name=who, card=card, suit=led_name)
        why = _("%(name)s had to follow suit.", name=who)
    elif kind == "trump":
        what = _("In trick %(n)s %(name)s could not follow %(suit)s and played the %(card)s, not a trump.",
                 n=prop["trick"], name=who, suit=led_name, card=card)
        why = _("%(name)s had to play a trump (%(trump)s).", name=who, trump=trump_name)
    else:
        what = _("In trick %(n)s %(name)s played the %(card)s, which does not beat the trick.", n=prop["trick"],
                 name=who, card=card)
        why = _("%(name)s had to beat the trick if able.", name=who)
    if prop["evidence_trick"] is None:
        proof = _("The %(card)s is in the hand %(name)s entered, so %(name)s held it then.", card=evidence,
                  name=who)
    else:
        proof = _("But %(name)s played the %(card)s later, in trick %(n)s, so %(name)s held it then.", name=who,
                  card=evidence, n=prop["evidence_trick"])
    penalty = (_("If confirmed, %(name)s scores as failed: +10 × the multiplier.", name=who)
               if deal and prop["player"] == deal["declarer"] else
               _("If confirmed, %(name)s scores as if without a trick: +5 × the multiplier.", name=who))
    return {"who": who, "what": what, "why": why, "proof": proof, "penalty": penalty,
            "title": _("Revoke? %(name)s, trick %(n)s", name=who, n=prop["trick"])}
