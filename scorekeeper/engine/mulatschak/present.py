"""What a Mulatschak table shows: the deal as JSON, hints, a line of history per event."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.cards import Card, parse_card
from scorekeeper.engine.core import (
    JSON,
    Event,
    RuleViolation,
)
from scorekeeper.engine.messages import Msg
from scorekeeper.engine.mulatschak.hands import _available, _check_no_weak_hand
from scorekeeper.engine.mulatschak.state import (
    BID_LIMIT,
    STAY_LIMIT,
    SUIT_NAMES,
    SUITS,
    Deal,
    M,
    MulState,
    doubling_causes,
)
from scorekeeper.engine.tricks import (
    legal_cards,
)


def _deal_json(state: MulState, deal: Deal) -> JSON:
    n = state.n
    tricks: list[JSON] = []
    active = deal.active
    for index, trick in enumerate(deal.tricks):
        complete = len(trick) == len(active)
        tricks.append({"number": index + 1, "leader": trick[0][0],
                       "cards": [{"player": p, "card": str(c)} for p, c in trick],
                       "winner": deal.trick_winner(index) if complete else None})
    won = deal.tricks_won()
    collapses = min(deal.collapses, 1) if state.opts.collapse_cap else deal.collapses
    causes = doubling_causes(deal.trump, collapses, deal.cut == "knock")
    return {
        "number": deal.number,
        "phase": deal.phase,
        "dealer": deal.dealer,
        "cutter": deal.cutter,
        "forehand": deal.forehand,
        "to_act": deal.to_act,
        "cut": deal.cut,
        "weli_to": deal.weli_to,
        "collapses": deal.collapses,
        "bids": [c.to_json() for c in deal.calls],
        "high_bid": deal.high,
        "high_bidder": deal.high_bidder,
        "duel": None if deal.duel is None else {"dealer": deal.duel[0], "displaced": deal.duel[1]},
        "declarer": deal.declarer,
        "contract": deal.contract,
        "muli": deal.muli,
        "forced": deal.forced,
        "trump": deal.trump,
        "multiplier": 1 << len(causes),
        "causes": list(causes),
        "decisions": list(deal.decisions),
        "playing": list(active) if deal.declarer is not None and None not in deal.decisions else None,
        "home": [p for p in range(n) if deal.decisions[p] == "home"],
        "stock": deal.stock,
        "stock_available": _available(state, deal),
        "discards": deal.discards,
        "exchanges": [e.to_json() for e in deal.exchanges],
        "exchange_queue": list(deal.exch_queue),
        "bridge_queue": list(deal.bridge_queue),
        "tricks": tricks,
        "next_leader": deal.leader if deal.phase == "play" and not _trick_open(deal) else None,
        "tricks_won": won,
        "hands_entered": [h is not None for h in deal.hands],
        "cards_held": [None if deal.decisions[p] == "home" else 5 - len(deal.played_by(p)) for p in range(n)],
        "seen": [{"card": str(c), "holder": h} for c, h in deal.owners],
    }


def _trick_open(deal: Deal) -> bool:
    return bool(deal.tricks) and len(deal.tricks[-1]) < len(deal.active)


def _hints(state: MulState, deal: Deal) -> list[Event]:
    n = state.n
    p = deal.to_act
    phase = deal.phase
    if phase == "cut":
        hints: list[Event] = [{"type": "cut", "player": deal.cutter, "weli": False}]
        if not state.opts.no_knock:
            hints.append({"type": "knock", "player": deal.cutter, "weli": False})
        return hints
    if phase in ("bidding", "trump"):
        try:
            _check_no_weak_hand(state, deal)
        except RuleViolation as exc:
            weak = exc.facts["player"]
            return [{"type": "collapse", "player": weak, "cards": [str(c) for c in deal.hands[weak] or ()]}]
    if phase == "bidding" and p is not None:
        hints = [{"type": "pass", "player": p}]
        if state.scores[p] > BID_LIMIT:
            top = 5 if deal.duel is None or deal.high < 5 else 0
            hints += [{"type": "bid", "player": p, "tricks": t} for t in range(deal.high + 1, top + 1)]
            if p == deal.dealer and deal.high_bidder not in (None, p):
                hints.append({"type": "hold", "player": p})
        if not deal.calls:
            hints += [{"type": "muli", "player": q} for q in range(n) if state.scores[q] > BID_LIMIT]
        return hints
    if phase == "trump" and p is not None:
        return [{"type": "trump", "player": p, "suit": s} for s in SUITS]
    if phase == "stay" and p is not None:
        hints = [{"type": "join", "player": p}]
        last = p == deal.stay_order[-1] and all(deal.decisions[q] == "home" for q in deal.stay_order[:-1])
        if state.scores[p] > STAY_LIMIT and not last:
            hints.append({"type": "stay_home", "player": p})
        return hints
    if phase == "exchange" and p is not None:
        if not deal.exch_queue:
            return []   # the Bridge cards are whatever the stock gives: nothing to list
        top = min(5, state.opts.exch_limit, 5 if state.opts.reshuffle else _available(state, deal))
        return [{"type": "exchange", "player": p, "count": k} for k in range(top + 1)]
    if phase == "play" and p is not None:
        hand = deal.current_hand(p)
        if hand is None:
            return []
        trick = deal.tricks[-1] if deal.tricks and len(deal.tricks[-1]) < len(deal.active) else ()
        assert deal.trump is not None
        return [{"type": "play", "player": p, "card": str(c)}
                for c in legal_cards(hand, [c for _, c in trick], deal.trump, state.opts.duties)]
    if phase == "review":
        return [{"type": kind, "proposal": prop.id} for prop in state.proposals if prop.status == "pending"
                for kind in ("confirm", "dismiss")]
    return []


def _describe(event: Mapping[str, Any], players: Sequence[str]) -> Msg:
    kind = event.get("type")
    p = event.get("player")
    who = players[p] if isinstance(p, int) and 0 <= p < len(players) else "?"
    weli = bool(event.get("weli"))
    if kind == "cut":
        return M("%(who)s cuts and keeps the Weli", who=who) if weli else M("%(who)s cuts", who=who)
    if kind == "knock":
        return M("%(who)s knocks (×2) and keeps the Weli", who=who) if weli else M("%(who)s knocks (×2)", who=who)
    if kind == "collapse":
        return M("%(who)s: unter dem Hund — redeal, next deal doubled", who=who)
    if kind == "muli":
        return M("%(who)s announces Muli", who=who)
    if kind == "bid":
        return M("%(who)s bids %(tricks)s", who=who, tricks=str(event.get("tricks"))) if event.get("tricks") \
            else M("%(who)s passes", who=who)
    if kind == "pass":
        return M("%(who)s passes", who=who)
    if kind == "hold":
        return M("%(who)s: mit mir", who=who)
    if kind == "trump":
        if event.get("delayed"):
            return M("%(who)s takes the Packerl for trumps", who=who)
        suit = str(event.get("suit", "?")).upper()
        return M("%(who)s names %(suit)s trumps", who=who, suit=SUIT_NAMES.get(suit, suit))
    if kind == "join":
        return M("%(who)s plays along", who=who)
    if kind == "stay_home":
        return M("%(who)s stays home", who=who)
    if kind == "exchange":
        sort = event.get("kind", "normal")
        if sort == "normal":
            return M("%(who)s exchanges %(count)s", who=who, count=str(event.get("count")))
        return M("%(who)s exchanges (%(kind)s)", who=who, kind=str(sort))
    if kind == "bridge_cards":
        return M("%(who)s is dealt the Bridge", who=who)
    if kind == "play":
        return M("%(who)s plays %(card)s", who=who, card=_card_or_text(event.get("card")))
    if kind == "hand":
        return M("%(who)s enters their hand", who=who)
    if kind == "confirm":
        return M("revoke proposal %(id)s confirmed", id=str(event.get("proposal")))
    if kind == "dismiss":
        return M("revoke proposal %(id)s dismissed", id=str(event.get("proposal")))
    if kind == "dealer":
        return M("%(who)s deals first", who=who)
    if kind == "deal_result":
        if event.get("thrown_in"):
            return M("deal thrown in")
        d = event.get("declarer")
        name = players[d] if isinstance(d, int) and 0 <= d < len(players) else "?"
        return M("%(who)s played %(bid)s in %(suit)s", who=name, bid=str(event.get("bid")),
                 suit=str(event.get("trump", event.get("suit"))))
    return Msg("%(kind)s", {"kind": str(kind)})


def _card_or_text(text: Any) -> Card | str:
    """A card of the event as its name; text that is not a card as entered."""
    try:
        return parse_card(str(text), "german")
    except ValueError:
        return str(text)
