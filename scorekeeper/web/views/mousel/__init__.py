"""Mousel screens: the pot in big figures with its value per trick, every balance, the turn-up
(card turned, offered to whom, taken or refused), exchanges and folds against the stock left,
the tricks tapped card by card, revoke proposals in words and cards, a small settlement table
per deal, the token ledger, a chart of the pot and balances, and the settle-up at the end.
Tally mode enters one ``deal_result`` per deal and shares the same ledger.

Everything shown is worked out here from the engine's state JSON (and its hints, where they
list the legal moves), so the templates stay dumb and the logic is testable.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask import request, url_for

from scorekeeper.cards import SUIT_SYMBOLS
from scorekeeper.engine.mousel import SUITS, Mousel, MouselState
from scorekeeper.localize import gettext as _
from scorekeeper.localize import ngettext
from scorekeeper.web.views import register
from scorekeeper.web.views.mousel.controls import (
    between,
    controls,
    exchange_controls,
    tally,
    unseen,
)
from scorekeeper.web.views.mousel.sheet import (
    chart,
    end_report,
    end_words,
    kind_label,
    ledger,
    settlements,
    transfers_words,
)
from scorekeeper.web.views.mousel.words import card_word, pack_codes, ranks, suit_word, token_count
from scorekeeper.web.views.tricks import proposals

__all__ = ["between", "chart", "controls", "end_report", "end_words", "exchange_controls", "kind_label", "ledger",
           "mousel_view", "pack_codes", "proposal_words", "ranks", "settlements", "tally", "transfers_words",
           "unseen"]


@register("mousel")
def mousel_view(ctx: dict[str, Any]) -> dict[str, Any]:
    state: dict[str, Any] = ctx["state"]
    raw: MouselState = ctx["raw_state"]
    rules: Mousel = ctx["rules"]
    table = ctx["table"]
    names: list[str] = list(ctx["players"])
    seat: int | None = ctx["seat"]
    book = url_for("rulebook.book", game="mousel", table=table.id)
    ms: dict[str, Any] = {
        "post_url": url_for("play.post_event", table_id=table.id),
        "preview_url": url_for("play.preview", table_id=table.id),
        "book": book,
        "ranks": list(ranks(state)),
        "suits": list(SUITS),
        "pot": pot_box(state),
        "seats": seats(state, names, seat),
        "status": status(state, names),
        "trumps": trumps(state, names),
        "offer": offer(state, raw, names),
        "decisions": decisions(state, names),
        "trick": trick_view(state, names),
        "past_tricks": past_tricks(state, names),
        "proposals": proposals(state, names, proposal_words),
        "pending": len(state["pending_revokes"]),
        "settlements": settlements(state, names),
        "chart": chart(state, names),
        "ledger": ledger(state, names),
        "end": end_report(state, names),
        "kinds": {"ante": _("ante"), "share": _("share"), "penalty": _("penalty"), "end split": _("end split")},
        "controls": None,
        "between": None,
        "tally": None,
    }
    if ctx["can_write"] and not state["over"]:
        hints = rules.hints(raw)
        if state["phase"] == "between_deals":
            ms["between"] = between(state, raw, rules, names)
            if state["mode"] == "tally":
                ms["tally"] = tally(state, names, _inputs())
        else:
            ms["controls"] = controls(state, raw, names, hints)
    return {"ms": ms}


def _inputs() -> dict[str, list[str]]:
    """The fields of a refused form (a 422 re-renders the sheet in answer to the POST), so
    nobody has to fill the tally in again."""
    if request.method != "POST":
        return {}
    return {key: [v.strip() for v in request.form.getlist(key) if v.strip()] for key in request.form}


def pot_box(state: Mapping[str, Any]) -> dict[str, Any]:
    """The pot now and what a trick is worth: in a deal, P / N; between deals, the next deal's
    pot once everyone has anted."""
    pot = state["pot"]
    per = state["value_per_trick"]
    deal = state["deal"]
    seated = sum(1 for s in state["status"] if s == "in")
    out: dict[str, Any] = {"pot": pot, "per_trick": token_count(per), "next": None}
    if deal is not None:
        plural = int(per) if float(per).is_integer() else 2
        out["note"] = ngettext("%(per)s token a trick", "%(per)s tokens a trick", plural, per=token_count(per))
    elif state["over"]:
        out["note"] = _("The session is over.")
    else:
        nxt = pot + seated
        out["next"] = nxt
        out["note"] = _("After the antes: %(pot)s, %(per)s a trick", pot=nxt, per=token_count(per))
    return out


def seats(state: Mapping[str, Any], names: Sequence[str], seat: int | None) -> list[dict[str, Any]]:
    deal = state["deal"]
    rows = []
    for p, name in enumerate(names):
        tags: list[str] = []
        info: dict[str, Any] = {"seat": p, "name": name, "balance": state["balances"][p], "me": p == seat,
                                "to_act": p == state["to_act"], "out": state["status"][p] != "in",
                                "folded": False, "taker": False, "tricks": None, "leads": False,
                                "holding": state["holdings"][p] if state["holdings"] else None, "tags": tags}
        if state["status"][p] == "left":
            tags.append(_("left the table"))
        elif state["status"][p] == "bust":
            tags.append(_("bust"))
        if deal is not None:
            if p == deal["dealer"]:
                tags.append(_("deals"))
            if p == deal["taker"]:
                info["taker"] = True
                tags.append(_("took trumps"))
            if p in deal["folded"]:
                info["folded"] = True
                tags.append(_("folded"))
            elif deal["taker"] is not None and p == deal["must_play"] and deal["decisions"][p] is None:
                tags.append(_("may not fold if all others do"))
            if deal["leader"] is not None and p in deal["active"]:
                info["tricks"] = deal["tricks_won"][p]
                if not deal["current_trick"] and p == deal["leader"] and state["phase"] == "play":
                    info["leads"] = True
                    tags.append(_("leads"))
        elif p == state["next_dealer"] and not state["over"] and state["mode"] == "adjudicate":
            tags.append(_("deals next"))
        info["spoken"] = _("%(name)s: balance %(n)s", name=name, n=info["balance"])
        rows.append(info)
    return rows


def status(state: Mapping[str, Any], names: Sequence[str]) -> dict[str, str]:
    """Whose turn it is, in big letters, and a line on what happens now."""
    phase = state["phase"]
    deal = state["deal"]
    p = state["to_act"]
    name = names[p] if p is not None else ""
    if phase == "ended":
        return {"headline": _("The session is over"), "note": ""}
    if phase == "between_deals":
        number = state["deals_played"] + 1
        if state["mode"] == "tally":
            return {"headline": _("Deal %(n)s: enter the result", n=number), "note": ""}
        if state["next_dealer"] is None:
            return {"headline": _("Deal %(n)s: who deals?", n=number), "note": _("Everyone antes 1 token.")}
        return {"headline": _("Deal %(n)s: %(name)s deals", n=number, name=names[state["next_dealer"]]),
                "note": _("Everyone antes 1 token.")}
    assert deal is not None
    if phase == "turn_up":
        note = (_("The turned card goes to whoever takes it; its suit is trumps.") if not deal["set_aside"] else
                ngettext("%(num)s card refused and set aside.", "%(num)s cards refused and set aside.",
                         len(deal["set_aside"])))
        return {"headline": _("%(name)s turns up a card", name=name), "note": note}
    if phase == "offer":
        card = card_word(deal["turned"])
        if deal["blind_take"]:
            return {"headline": _("%(name)s may take it blind", name=name),
                    "note": _("%(name)s, the dealer, has not looked at their hand and may take the %(card)s at once.",
                              name=name, card=card)}
        return {"headline": _("Offered to %(name)s", name=name),
                "note": _("Does %(name)s take the %(card)s?", name=name, card=card)}
    if phase == "exchange":
        note = ngettext("%(num)s card left in the stock.", "%(num)s cards left in the stock.", deal["stock"])
        if p == deal["taker"]:
            return {"headline": _("%(name)s exchanges", name=name), "note": note}
        return {"headline": _("%(name)s: exchange or fold?", name=name), "note": note}
    if phase == "discard":
        return {"headline": _("%(name)s throws away one more card", name=name),
                "note": _("The taker goes back to %(n)s cards; then they lead.", n=deal["hand_size"])}
    if phase == "play":
        number = len(deal["tricks"]) + 1
        total = deal["hand_size"]
        if deal["current_trick"]:
            return {"headline": _("%(name)s plays", name=name), "note": _("Trick %(n)s of %(total)s", n=number,
                                                                         total=total)}
        return {"headline": _("%(name)s leads", name=name), "note": _("Trick %(n)s of %(total)s", n=number,
                                                                     total=total)}
    if phase == "review":
        return {"headline": _("All tricks are played"),
                "note": _("Confirm or dismiss the revoke below; then the pot is shared out.")}
    return {"headline": "", "note": ""}


def trumps(state: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any] | None:
    deal = state["deal"]
    if deal is None or deal["trump"] is None:
        return None
    suit = deal["trump"]
    return {"card": deal["trump_card"], "suit": suit, "symbol": SUIT_SYMBOLS[suit], "name": suit_word(suit),
            "red": suit in "HD", "taker": names[deal["taker"]],
            "line": _("%(name)s took the %(card)s", name=names[deal["taker"]], card=card_word(deal["trump_card"]))}


def offer(state: Mapping[str, Any], raw: MouselState, names: Sequence[str]) -> dict[str, Any] | None:
    """The card on offer and who has been asked: clockwise from the dealer's left, the dealer
    last (and first, when he may take it blind)."""
    deal = state["deal"]
    if deal is None or raw.deal is None or state["phase"] not in ("turn_up", "offer"):
        return None
    ring = list(raw.deal.ring)
    asked = deal["offered_to"]
    people = []
    if deal["turned"] is not None:
        here = ring.index(asked) if asked in ring and not deal["blind_take"] else -1
        for k, p in enumerate(ring):
            if deal["blind_take"]:
                word, css = _("waiting"), "waiting"
            elif k < here:
                word, css = _("refused"), "refused"
            elif k == here:
                word, css = _("asked now"), "asked"
            else:
                word, css = _("waiting"), "waiting"
            people.append({"name": names[p], "word": word, "css": css, "dealer": p == deal["dealer"]})
    return {"card": deal["turned"], "blind": deal["blind_take"], "to": names[asked] if asked is not None else None,
            "people": people, "set_aside": list(deal["set_aside"]), "stock": deal["stock"],
            "looked": deal["dealer_looked"]}


def decisions(state: Mapping[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    deal = state["deal"]
    if deal is None or not deal["decision_order"]:
        return []
    out = []
    for p in deal["decision_order"]:
        d = deal["decisions"][p]
        name = names[p]
        if d is None:
            text = _("%(name)s decides now", name=name) if p == state["to_act"] else _("%(name)s: to decide", name=name)
            css = "now" if p == state["to_act"] else "waiting"
        elif d.get("fold"):
            text, css = _("%(name)s folded", name=name), "folded"
        elif d["exchange"] == 0:
            text, css = _("%(name)s stood pat", name=name), "done"
        else:
            text = ngettext("%(name)s exchanged %(num)s card", "%(name)s exchanged %(num)s cards", d["exchange"],
                            name=name)
            css = "done"
        out.append({"text": text, "css": css, "taker": p == deal["taker"]})
    return out


def trick_view(state: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any] | None:
    """The trick on the table: the open one, or the last one with its winner until the next lead."""
    deal = state["deal"]
    if deal is None or state["phase"] not in ("play", "review"):
        return None
    if deal["current_trick"]:
        return {"number": len(deal["tricks"]) + 1, "winner": None, "next": None,
                "cards": [{"name": names[c["player"]], "card": c["card"], "wins": False}
                          for c in deal["current_trick"]]}
    if not deal["tricks"]:
        return None
    last = deal["tricks"][-1]
    number = len(deal["tricks"])
    won = names[last["winner"]]
    nxt = _("%(name)s leads the next trick.", name=won) if number < deal["hand_size"] else ""
    return {"number": number, "winner": _("Trick %(n)s goes to %(name)s.", n=number, name=won), "next": nxt,
            "cards": [{"name": names[c["player"]], "card": c["card"], "wins": c["player"] == last["winner"]}
                      for c in last["cards"]]}


def past_tricks(state: Mapping[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    deal = state["deal"]
    tricks = deal["tricks"] if deal is not None else state["last_tricks"]
    return [{"number": k, "cards": [c["card"] for c in t["cards"]], "winner": names[t["winner"]]}
            for k, t in enumerate(tricks, start=1)]


def proposal_words(prop: Mapping[str, Any], deal: Mapping[str, Any] | None, names: Sequence[str]) -> dict[str, str]:
    """The evidence in plain words: what was played, what should have been, and the proof."""
    who = names[prop["player"]]
    card, evidence = card_word(prop["card"]), card_word(prop["evidence"])
    taker = deal is not None and prop["player"] == deal["taker"]
    if prop["kind"] == "trumpcard":
        trump_card = card_word(deal["trump_card"]) if deal else evidence
        what = _("%(name)s played the last card, the %(card)s, in trick %(n)s without ever playing the "
                 "turned-up %(trump)s.", name=who, card=card, n=prop["trick"], trump=trump_card)
        why = _("At this table the taker must keep the turned-up card, so %(name)s threw it away.", name=who)
        proof = ""
    else:
        led = suit_word(prop["led_suit"])
        what = _("In trick %(n)s %(name)s played the %(card)s although %(suit)s were led.", n=prop["trick"],
                 name=who, card=card, suit=led)
        why = _("%(name)s had to follow suit.", name=who)
        proof = _("But %(name)s played the %(card)s later, in trick %(n)s, so %(name)s held %(suit)s then.",
                  name=who, card=evidence, n=prop["evidence_trick"], suit=led)
    penalty = (_("If confirmed, %(name)s gets no share and pays twice the pot, as a taker without a trick.",
                 name=who) if taker else
               _("If confirmed, %(name)s gets no share and pays the pot, as a player without a trick.", name=who))
    return {"who": who, "what": what, "why": why, "proof": proof, "penalty": penalty,
            "title": _("Revoke? %(name)s, trick %(n)s", name=who, n=prop["trick"])}
