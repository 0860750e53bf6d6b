"""What a Mousel table shows: hints, the state as JSON, a line of history per event."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from scorekeeper.cards import Card, parse_card
from scorekeeper.engine.core import (
    JSON,
    Event,
    common_json,
)
from scorekeeper.engine.messages import M, Msg
from scorekeeper.engine.mousel.deal import _last_card
from scorekeeper.engine.mousel.state import Deal, MouselState, _next_seated, _per_trick


def _leaders(state: MouselState) -> int | list[int] | None:
    balances = state.balances
    best = max(balances)
    top = [i for i, b in enumerate(balances) if b == best]
    return top[0] if len(top) == 1 else top


def _hints(state: MouselState) -> list[Event]:
    if state.end is not None:
        return []
    deal = state.deal
    if deal is None:
        first: Event = {"type": "deal" if state.mode == "adjudicate" else "deal_result"}
        if state.next_dealer is not None:
            first["dealer"] = state.next_dealer
        return [first, {"type": "end_session"}]
    player = deal.to_act()
    if deal.phase == "turn_up":
        return []
    if deal.phase == "offer":
        out: list[Event] = [{"type": "take", "player": player}]
        if not (player == deal.dealer and not deal.blind and _last_card(state, deal)):
            out.append({"type": "refuse", "player": player})
        if deal.blind:
            out.append({"type": "look", "player": deal.dealer})
        return out
    if deal.phase == "exchange":
        assert player is not None
        hand = deal.n + 1 if player == deal.taker else deal.n
        if player == deal.taker and state.opts.keep_trumpcard:
            hand = deal.n
        most = min(hand, deal.stock + (deal.pile if state.opts.reshuffle else 0))
        moves: list[Event] = [{"type": "exchange", "player": player, "count": k} for k in range(most + 1)]
        if player != deal.taker:
            others = [s for s in deal.ring if s not in (deal.taker, player)]
            if player != deal.must_play or not all(s in set(deal.folded) for s in others):
                moves.append({"type": "fold", "player": player})
        return moves
    if deal.phase == "discard":
        return [{"type": "discard", "player": deal.taker}]
    pending = [p.id for p in state.play.proposals if p.status == "pending"] if state.play is not None else []
    return [{"type": "confirm", "proposal": i} for i in pending] + [{"type": "dismiss", "proposal": i} for i in pending]


def _decision_json(deal: Deal, count: int) -> list[JSON | None]:
    out: list[JSON | None] = [None] * count
    for seat, exchanged in deal.decisions:
        out[seat] = {"fold": True} if exchanged is None else {"exchange": exchanged}
    return out


def _deal_json(state: MouselState, deal: Deal) -> JSON:
    count = len(state.players)
    play = state.play
    folded = deal.folded
    active = list(play.active) if play is not None else [s for s in sorted(deal.ring) if s not in folded]
    hands = [0] * count
    for s in deal.ring:
        if s in folded:
            continue
        hands[s] = deal.n + (1 if s == deal.taker and deal.phase in ("exchange", "discard") else 0)
    if play is not None:
        for s in play.active:
            played = sum(1 for t in play.tricks for p, _ in t.plays if p == s)
            played += sum(1 for p, _ in play.current if p == s)
            hands[s] = deal.n - played
    return {
        "number": deal.number, "dealer": deal.dealer, "seats": sorted(deal.ring), "hand_size": deal.n,
        "last": deal.last, "stock": deal.stock, "dealer_looked": deal.looked,
        "turned": None if deal.turned is None else str(deal.turned),
        "offered_to": deal.to_act() if deal.phase == "offer" else None,
        "blind_take": deal.phase == "offer" and deal.blind,
        "set_aside": [str(c) for c in deal.set_aside],
        "trump": None if deal.trump_card is None else deal.trump_card.suit,
        "trump_card": None if deal.trump_card is None else str(deal.trump_card),
        "taker": deal.taker, "must_play": deal.must_play, "decision_order": list(deal.order),
        "decisions": _decision_json(deal, count), "folded": list(folded), "active": active,
        "reshuffles": deal.reshuffles, "hands": hands,
        "tricks": [] if play is None else [t.to_json() for t in play.tricks],
        "current_trick": [] if play is None else [{"player": p, "card": str(c)} for p, c in play.current],
        "leader": None if play is None else play.leader,
        "tricks_won": [0] * count if play is None else list(play.won),
    }


def _to_json(state: MouselState) -> JSON:
    count = len(state.players)
    deal = state.deal
    data = common_json(state.balances, state.over, _leaders(state) if state.over else None, state.to_act())
    pot_now = state.pot
    proposals = state.play.proposals if deal is not None and state.play is not None else ()
    hand_size = deal.n if deal is not None else len(state.seated)
    data.update(
        game="mousel", mode=state.mode, phase=state.phase,
        options={"52": state.opts.pack52, "last_in_order": state.opts.last_in_order,
                 "reshuffle": state.opts.reshuffle, "keep_trumpcard": state.opts.keep_trumpcard,
                 "dealer_must_take": state.opts.dealer_must_take, "round_largest": state.opts.round_largest,
                 "bust": state.opts.bust, "stack": state.opts.stack, "end_refund": state.opts.end_refund,
                 "end_lastdeal": state.opts.end_lastdeal},
        players=list(state.players), status=list(state.status),
        balances=list(state.balances), pot=pot_now,
        value_per_trick=_per_trick(deal.pot if deal is not None else pot_now + len(state.seated), hand_size),
        holdings=[state.opts.stack + b for b in state.balances] if state.opts.bust else None,
        deals_played=state.deals, dealer=None if deal is None else deal.dealer,
        next_dealer=state.next_dealer if deal is None else _next_seated(state.status, deal.dealer),
        deal=None if deal is None else _deal_json(state, deal),
        proposals=[p.to_json() for p in proposals],
        pending_revokes=[p.to_json() for p in proposals if p.status == "pending"],
        last_tricks=[t.to_json() for t in state.play.tricks] if deal is None and state.play is not None else [],
        settlements=[row.to_json() for row in state.sheet],
        ledger=[e.to_json() for e in state.book.entries],
        history=[{"deal": d, "pot": p, "balances": list(b)} for d, p, b in state.history],
        last_announced=state.last_announced,
        end=None if state.end is None else state.end.to_json(count),
    )
    return data


def _describe(event: Mapping[str, Any], players: Sequence[str]) -> Msg:
    def name(key: str) -> str:
        value = event.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(players):
            return players[value]
        return "?"
    kind = event.get("type")
    dealer = name("dealer") if "dealer" in event else M("Next dealer")
    texts: dict[str, Callable[[], Msg]] = {
        "deal": lambda: (M("%(dealer)s deals; everyone antes 1 (last deal)", dealer=dealer) if event.get("last")
                         else M("%(dealer)s deals; everyone antes 1", dealer=dealer)),
        "look": lambda: M("%(player)s (dealer) looks at his hand", player=name("player")),
        "turn_up": lambda: M("Turn-up: %(card)s", card=_card_or_text(event.get("card"))),
        "take": lambda: M("%(player)s takes the turned card", player=name("player")),
        "refuse": lambda: M("%(player)s refuses the turned card", player=name("player")),
        "exchange": lambda: (M("%(player)s stands pat", player=name("player")) if event.get("count") == 0
                             else M("%(player)s exchanges %(count)s", player=name("player"),
                                    count=str(event.get("count")))),
        "fold": lambda: M("%(player)s folds", player=name("player")),
        "discard": lambda: M("%(player)s throws away one more card", player=name("player")),
        "play": lambda: M("%(player)s plays %(card)s", player=name("player"), card=_card_or_text(event.get("card"))),
        "confirm": lambda: M("Revoke #%(id)s confirmed", id=str(event.get("proposal"))),
        "dismiss": lambda: M("Revoke #%(id)s dismissed", id=str(event.get("proposal"))),
        "leave": lambda: M("%(player)s leaves the table", player=name("player")),
        "end_session": lambda: M("The session ends; the pot is split"),
        "deal_result": lambda: (M("Void deal: the pot carries over") if event.get("void")
                                else M("%(taker)s took trumps; tricks %(tricks)s", taker=name("taker"),
                                       tricks=str(event.get("tricks")))),
    }
    make = texts.get(kind) if isinstance(kind, str) else None
    return make() if make is not None else Msg("%(kind)s", {"kind": str(kind)})


def _card_or_text(text: Any) -> Card | str:
    """A card of the event as its name; text that is not a card as entered."""
    try:
        return parse_card(str(text), "french")
    except ValueError:
        return str(text)
