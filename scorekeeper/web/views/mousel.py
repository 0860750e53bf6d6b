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
from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper.engine.base import RuleViolation
from scorekeeper.engine.mousel import RANKS_32, RANKS_52, SUITS, Mousel, MouselState
from scorekeeper.localize import localize
from scorekeeper.web.forms import whole_number
from scorekeeper.web.views import register
from scorekeeper.web.views.tricks import names_of, proposals

SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _card_word(code: str | None) -> str:
    from scorekeeper.web import card_label

    return card_label(code) if code else "?"


def _suit_word(suit: str | None) -> str:
    from scorekeeper.web import suit_label

    return suit_label(suit) if suit else "?"


def _number(value: float) -> str:
    """A token count: whole numbers as such, a fraction (after a leave or a bust) to 2 places."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


# --- the view ---------------------------------------------------------------------------------------


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


def ranks(state: Mapping[str, Any]) -> tuple[str, ...]:
    """The pack in use, high to low: 7–A, or 2–A with the 52-card option."""
    return RANKS_52 if state["options"]["52"] else RANKS_32


def pack_codes(state: Mapping[str, Any]) -> list[str]:
    return [r + s for s in SUITS for r in ranks(state)]


# --- the pot and the players ------------------------------------------------------------------------


def pot_box(state: Mapping[str, Any]) -> dict[str, Any]:
    """The pot now and what a trick is worth: in a deal, P / N; between deals, the next deal's
    pot once everyone has anted."""
    pot = state["pot"]
    per = state["value_per_trick"]
    deal = state["deal"]
    seated = sum(1 for s in state["status"] if s == "in")
    out: dict[str, Any] = {"pot": pot, "per_trick": _number(per), "next": None}
    if deal is not None:
        plural = int(per) if float(per).is_integer() else 2
        out["note"] = ngettext("%(per)s token a trick", "%(per)s tokens a trick", plural, per=_number(per))
    elif state["over"]:
        out["note"] = _("The session is over.")
    else:
        nxt = pot + seated
        out["next"] = nxt
        out["note"] = _("After the antes: %(pot)s, %(per)s a trick", pot=nxt, per=_number(per))
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
        card = _card_word(deal["turned"])
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
    return {"card": deal["trump_card"], "suit": suit, "symbol": SYMBOL[suit], "name": _suit_word(suit),
            "red": suit in "HD", "taker": names[deal["taker"]],
            "line": _("%(name)s took the %(card)s", name=names[deal["taker"]], card=_card_word(deal["trump_card"]))}


# --- the turn-up ------------------------------------------------------------------------------------


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


# --- exchanges --------------------------------------------------------------------------------------


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


# --- tricks -----------------------------------------------------------------------------------------


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


# --- revokes ----------------------------------------------------------------------------------------


def proposal_words(prop: Mapping[str, Any], deal: Mapping[str, Any] | None, names: Sequence[str]) -> dict[str, str]:
    """The evidence in plain words: what was played, what should have been, and the proof."""
    who = names[prop["player"]]
    card, evidence = _card_word(prop["card"]), _card_word(prop["evidence"])
    taker = deal is not None and prop["player"] == deal["taker"]
    if prop["kind"] == "trumpcard":
        trump_card = _card_word(deal["trump_card"]) if deal else evidence
        what = _("%(name)s played the last card, the %(card)s, in trick %(n)s without ever playing the "
                 "turned-up %(trump)s.", name=who, card=card, n=prop["trick"], trump=trump_card)
        why = _("At this table the taker must keep the turned-up card, so %(name)s threw it away.", name=who)
        proof = ""
    else:
        led = _suit_word(prop["led_suit"])
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


# --- settlements, the chart, the ledger, the end -----------------------------------------------------


def settlements(state: Mapping[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    """One small table per deal, newest first: tricks, share, penalty and the balance after it."""
    history = {h["deal"]: h for h in state["history"]}
    out = []
    for row in reversed(state["settlements"]):
        after = history.get(row["deal"])
        lines = []
        for p in row["seats"]:
            folded = p in row["folded"]
            role = []
            if p == row["taker"]:
                role.append(_("took trumps"))
            if folded:
                role.append(_("folded"))
            if p in row["revokers"]:
                role.append(_("revoke"))
            if p in row["busted"]:
                role.append(_("bust"))
            paid, due = row["penalties"][p], row["penalties_due"][p]
            lines.append({"name": names[p], "role": ", ".join(role), "folded": folded, "taker": p == row["taker"],
                          "tricks": "–" if folded or row["void"] else row["tricks"][p],
                          "share": row["shares"][p], "penalty": paid, "short": due - paid,
                          "balance": after["balances"][p] if after else None})
        penalties = sum(row["penalties"])
        antes = row["next_pot"] - row["leftover"] - penalties
        if row["void"]:
            headline = _("Deal %(n)s: void, nobody took trumps; the pot of %(pot)s carries over.", n=row["deal"],
                         pot=row["pot"])
        else:
            headline = _("Deal %(n)s: %(name)s took trumps; pot %(pot)s, %(per)s a trick.", n=row["deal"],
                         name=names[row["taker"]], pot=row["pot"], per=_number(row["value_per_trick"]))
        out.append({"deal": row["deal"], "dealer": names[row["dealer"]], "void": row["void"], "lines": lines,
                    "headline": headline, "pot": row["pot"], "per_trick": _number(row["value_per_trick"]),
                    "leftover": row["leftover"], "penalties": penalties, "antes": antes,
                    "next_pot": row["next_pot"], "last": row["last"],
                    "next_words": _("Next pot: %(leftover)s left over + %(penalties)s in penalties + %(antes)s "
                                    "antes = %(total)s", leftover=row["leftover"], penalties=penalties,
                                    antes=antes, total=row["next_pot"])})
    return out


def chart(state: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any] | None:
    history = state["history"]
    if len(history) < 2:
        return None
    return {"labels": list(names) + [_("pot")],
            "rows": [list(h["balances"]) + [h["pot"]] for h in history]}


def kind_label(kind: str) -> str:
    return {"ante": _("ante"), "share": _("share"), "penalty": _("penalty"), "carry": _("carried over"),
            "end_split": _("end split"), "end_refund": _("end refund")}.get(kind, kind)


def ledger(state: Mapping[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    def party(x: int | str) -> str:
        return _("pot") if x == "pot" else names[int(x)]

    return [{"deal": e["deal"], "kind": kind_label(e["kind"]), "css": e["kind"], "from": party(e["from"]),
             "to": party(e["to"]), "amount": e["amount"], "rule": e["rule"]} for e in state["ledger"]]


def transfers_words(moves: Sequence[Mapping[str, Any]], names: Sequence[str]) -> list[dict[str, Any]]:
    out = []
    for t in moves:
        if t["to"] == "pot":
            text = _("%(from)s leaves %(n)s in the pot (unallocated)", n=t["amount"], **{"from": names[t["from"]]})
        elif t["from"] == "pot":
            text = _("%(to)s takes %(n)s from the pot (unallocated)", n=t["amount"], to=names[t["to"]])
        else:
            text = _("%(from)s pays %(to)s %(n)s", n=t["amount"], to=names[t["to"]], **{"from": names[t["from"]]})
        out.append({"text": text, "amount": t["amount"],
                    "from": _("pot") if t["from"] == "pot" else names[t["from"]],
                    "to": _("pot") if t["to"] == "pot" else names[t["to"]]})
    return out


def end_words(end: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    best = end["standings"][0]["balance"] if end["standings"] else 0
    return {
        "standings": [{"name": names[s["player"]], "balance": s["balance"], "best": s["balance"] == best}
                      for s in end["standings"]],
        "split": [{"name": names[p], "amount": a} for p, a in enumerate(end["split"]) if a],
        "unallocated": end["unallocated"],
        "transfers": transfers_words(end["settle_up"], names),
        "final": False,
    }


def end_report(state: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any] | None:
    if state["end"] is None:
        return None
    out = end_words(state["end"], names)
    out["final"] = True
    winner = state["winner"]
    tops = winner if isinstance(winner, list) else [winner] if winner is not None else []
    out["headline"] = (_("%(name)s is up the most: %(n)s", name=names[tops[0]], n=state["balances"][tops[0]])
                       if len(tops) == 1 else _("%(names)s are up the most", names=names_of(tops, names)))
    return out


# --- the controls -----------------------------------------------------------------------------------


def between(state: Mapping[str, Any], raw: MouselState, rules: Mousel, names: Sequence[str]) -> dict[str, Any]:
    """Between deals: the next deal (adjudicate), a player leaving, and stopping with a dry run of
    the end split and the settle-up, so the table sees what stopping now would mean."""
    seated = [p for p, s in enumerate(state["status"]) if s == "in"]
    first = state["next_dealer"] is None
    dealer = state["next_dealer"] if not first else seated[0]
    try:
        ended = localize(rules.to_json(rules.apply(raw, {"type": "end_session"})), names)
        stop = end_words(ended["end"], names) if ended["end"] else None
    except RuleViolation:
        stop = None
    return {
        "number": state["deals_played"] + 1,
        "first": first,
        "dealer": dealer,
        "dealer_name": names[dealer],
        "dealers": [{"seat": p, "name": names[p], "current": p == dealer} for p in seated] if first else [],
        "can_last": state["options"]["end_lastdeal"] and not state["last_announced"],
        "leavers": [{"seat": p, "name": names[p]} for p in seated] if len(seated) > 2 else [],
        "stop": stop,
        "pot": state["pot"],
        "refund": state["options"]["end_refund"],
    }


def controls(state: Mapping[str, Any], raw: MouselState, names: Sequence[str],
             hints: list[dict[str, Any]]) -> dict[str, Any] | None:
    deal = state["deal"]
    phase = state["phase"]
    p = state["to_act"]
    base: dict[str, Any] = {"phase": phase, "player": p, "name": names[p] if p is not None else ""}
    if phase == "turn_up":
        return {**base, "unseen": unseen(state, raw, None)}
    if phase == "offer":
        can_refuse = any(h["type"] == "refuse" for h in hints)
        why = None
        if not can_refuse:
            why = {"text": _("The last card of the stock: the dealer must take it."),
                   "rule": "MOUSEL-OPT-DEALER-MUST-TAKE"}
        return {**base, "card": deal["turned"], "blind": deal["blind_take"], "can_refuse": can_refuse, "why": why,
                "look": any(h["type"] == "look" for h in hints)}
    if phase == "exchange":
        return {**base, **exchange_controls(state, raw, names, hints)}
    if phase == "discard":
        return base
    if phase == "play":
        active = deal["active"]
        return {**base, "unseen": unseen(state, raw, p),
                "players": [{"seat": s, "name": names[s], "checked": s == p} for s in active]}
    return None


def exchange_controls(state: Mapping[str, Any], raw: MouselState, names: Sequence[str],
                      hints: list[dict[str, Any]]) -> dict[str, Any]:
    deal = state["deal"]
    p = state["to_act"]
    name = names[p]
    taker = p == deal["taker"]
    counts = sorted(h["count"] for h in hints if h["type"] == "exchange" and h["player"] == p)
    can_fold = any(h["type"] == "fold" for h in hints)
    hand = deal["hand_size"] + (1 if taker else 0)
    why_fold = None
    if not can_fold:
        if taker:
            why_fold = {"text": _("%(name)s took the trump card and can never fold.", name=name),
                        "rule": "MOUSEL-EXCH-2"}
        else:
            rule = "MOUSEL-OPT-LAST-IN-ORDER" if state["options"]["last_in_order"] else "MOUSEL-EXCH-3"
            why_fold = {"text": _("Everyone else has folded, so %(name)s must play against the taker.", name=name),
                        "rule": rule}
    why_count = None
    most = counts[-1] if counts else 0
    if most < hand:
        if taker and state["options"]["keep_trumpcard"] and most == deal["hand_size"]:
            why_count = {"text": _("%(name)s must keep the turned-up card.", name=name),
                         "rule": "MOUSEL-OPT-KEEP-TRUMPCARD"}
        else:
            why_count = {"text": ngettext("Only %(num)s card left in the stock.", "Only %(num)s cards left in the stock.",
                                          most), "rule": "MOUSEL-EXCH-5"}
    buttons = []
    for k in counts:
        label = _("stand pat") if k == 0 else str(k)
        spoken = (_("%(name)s stands pat", name=name) if k == 0 else
                  ngettext("%(name)s exchanges %(num)s card", "%(name)s exchanges %(num)s cards", k, name=name))
        buttons.append({"count": k, "label": label, "spoken": spoken})
    return {"counts": buttons, "can_fold": not taker, "fold_allowed": can_fold, "why_fold": why_fold,
            "why_count": why_count, "stock": deal["stock"], "hand": hand, "taker": taker,
            "fold_spoken": _("%(name)s folds", name=name)}


def unseen(state: Mapping[str, Any], raw: MouselState, player: int | None) -> dict[str, int]:
    """The picker's cards: 1 where the card can still come from ``player`` (or be turned up),
    0 where it is out: played, refused and set aside, or the trump card in the taker's hand."""
    deal = state["deal"]
    gone = set(deal["set_aside"])
    for t in deal["tricks"]:
        gone.update(c["card"] for c in t["cards"])
    gone.update(c["card"] for c in deal["current_trick"])
    trump_card = deal["trump_card"]
    # Only the taker, or a player who drew from a stock the taker's thrown cards were reshuffled into.
    reach = raw.deal.trump_reach if raw.deal is not None else ()
    if trump_card and player != deal["taker"] and player not in reach:
        gone.add(trump_card)
    return {code: 0 if code in gone else 1 for code in pack_codes(state)}


# --- tally mode -------------------------------------------------------------------------------------


def tally(state: Mapping[str, Any], names: Sequence[str], args: Mapping[str, list[str]]) -> dict[str, Any]:
    seated = [p for p, s in enumerate(state["status"]) if s == "in"]
    n = len(seated)
    first = state["next_dealer"] is None
    dealer = state["next_dealer"] if not first else seated[0]
    tricks = args.get("tricks:intlist", [])
    taker = args.get("taker:int", [])
    rows = []
    for p, name in enumerate(names):
        t = (whole_number(tricks[p]) or 0) if len(tricks) == len(names) else 0
        rows.append({"seat": p, "name": name, "in": p in seated, "tricks": t,
                     "taker": taker == [str(p)], "folded": str(p) in args.get("folded:intlist", []),
                     "revoke": str(p) in args.get("revokes:intlist", []),
                     "spoken": _("Tricks won by %(name)s", name=name)})
    return {
        "number": state["deals_played"] + 1,
        "first": first,
        "dealer": names[dealer],
        "dealers": [{"seat": p, "name": names[p], "current": str(p) == (args.get("dealer:int") or [str(dealer)])[-1]}
                    for p in seated] if first else [],
        "players": rows,
        "hand_size": n,
        "tricks_range": list(range(n + 1)),
        "can_last": state["options"]["end_lastdeal"] and not state["last_announced"],
        "can_void": not state["options"]["dealer_must_take"],
    }
