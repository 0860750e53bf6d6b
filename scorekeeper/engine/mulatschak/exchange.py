"""The exchange: cards thrown and drawn, face-up cards, the Sau or the seven shown, the bridge."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.cards import Card
from scorekeeper.engine.core import (
    MalformedEvent,
    RuleViolation,
    bool_field,
    evolve,
    player_field,
    str_field,
)
from scorekeeper.engine.messages import Seat
from scorekeeper.engine.mulatschak.hands import (
    _available,
    _can_exchange,
    _card,
    _cards,
    _check_limit,
    _check_unseen,
    _deal_face_up,
    _forget_hand,
    _take,
    _throw_and_draw,
)
from scorekeeper.engine.mulatschak.state import (
    STAY_LIMIT,
    Deal,
    Exchange,
    M,
    MulState,
    _clockwise,
    _deal,
)


def _start_exchange(state: MulState, deal: Deal) -> Deal:
    if deal.muli:   # MULAT-EXCH-1
        return _start_play(deal)
    declarer = deal.declarer
    assert declarer is not None
    done = {e.player for e in deal.exchanges}
    queue = tuple(p for p in _clockwise(declarer, state.n) if p in deal.active and p not in done)
    return _next_exchange(state, evolve(deal, phase="exchange", exch_queue=queue))

def _next_exchange(state: MulState, deal: Deal) -> Deal:
    queue = list(deal.exch_queue)
    while queue and not _can_exchange(state, deal, queue[0]):
        queue.pop(0)
    if queue:
        return evolve(deal, exch_queue=tuple(queue), to_act=queue[0])
    if deal.bridge_queue:
        return evolve(deal, exch_queue=(), to_act=deal.bridge_queue[0])
    return _start_play(evolve(deal, exch_queue=()))

def _start_play(deal: Deal) -> Deal:
    return evolve(deal, phase="play", leader=deal.declarer, to_act=deal.declarer)

def _exchange_turn(state: MulState, event: Mapping[str, Any], serving: bool = False) -> tuple[Deal, int]:
    deal = _deal(state)
    player = player_field(event, state.n)
    if deal.phase != "exchange":
        raise RuleViolation("MULAT-EXCH-1", M("exchanging happens after the stay-home decisions, before play "
                                              "(no exchange in a Muli)") if deal.muli and deal.phase == "play"
                            else M("exchanging happens after the stay-home decisions, before play"))
    if deal.decisions[player] == "home":
        raise RuleViolation("MULAT-STAY-5", M("%(player)s stayed home and does not exchange", player=Seat(player)))
    if any(e.player == player and e.kind == "trump" for e in deal.exchanges):
        raise RuleViolation("MULAT-TRUMP-2", M("the delayed trump was the declarer's exchange"))
    if state.scores[player] <= STAY_LIMIT:
        raise RuleViolation("MULAT-EXCH-1", M("%(player)s has %(score)s points (3 or less) and may not exchange", player=Seat(player), score=state.scores[player]), score=state.scores[player])
    if not serving and any(e.player == player for e in deal.exchanges):
        raise RuleViolation("MULAT-EXCH-3", M("%(player)s has already exchanged; once only", player=Seat(player)))
    if player != deal.to_act:
        raise RuleViolation("MULAT-EXCH-2", M("it is %(to_act)s's turn to exchange", to_act=Seat(deal.to_act)), to_act=deal.to_act)
    return deal, player

def on_exchange(state: MulState, event: Mapping[str, Any]) -> MulState:
    deal, player = _exchange_turn(state, event)
    if not deal.exch_queue:
        raise RuleViolation("MULAT-EXCH-5", M("%(player)s is to be dealt the Bridge cards now (event 'bridge_cards')", player=Seat(player)))
    kind = str_field(event, "kind", default="normal", max_len=20)
    if kind == "normal":
        count = event.get("count")
        if isinstance(count, bool) or not isinstance(count, int):
            raise MalformedEvent(M("a normal exchange needs 'count', the number of cards (0-5)"), event)
        if not 0 <= count <= 5:
            raise RuleViolation("MULAT-EXCH-3", M("exchange 0 to 5 cards, not %(count)s", count=count))
        _check_limit(state, count)
        # An entered hand is forgotten before drawing: a reshuffle must not trust it any more.
        base = _forget_hand(deal, player) if count else deal
        new = _throw_and_draw(state, base, player, count, "MULAT-EXCH-9")
        new = evolve(new, exchanges=new.exchanges + (Exchange(player, "normal", count, count),))
    elif kind == "sight":
        new = _sight(state, deal, player, event)
    elif kind == "bridge":
        _check_limit(state, 5)
        thrown = evolve(deal, discards=deal.discards + 5)
        if _available(state, thrown) < 6:
            raise RuleViolation("MULAT-EXCH-9", M("a Bridge needs at least 6 stock cards; %(value)s left", value=_available(state, deal)), stock=_available(state, deal))
        new = evolve(thrown, reserved=thrown.reserved + 6, bridge_queue=thrown.bridge_queue + (player,),
                      exchanges=thrown.exchanges + (Exchange(player, "bridge", 5, 0, served=False),))
        new = _forget_hand(new, player)
    elif kind in ("sau", "seven"):
        new = _sau_or_seven(state, deal, player, kind)
    else:
        raise MalformedEvent(M("unknown exchange kind %(kind)s (normal, sight, bridge, sau, seven)", kind=repr(kind)), event)
    new = evolve(new, exch_queue=new.exch_queue[1:])
    return evolve(state, deal=_next_exchange(state, new), scored=())

def _sight(state: MulState, deal: Deal, player: int, event: Mapping[str, Any]) -> Deal:
    _check_limit(state, 1)
    card = _card(event, "card", state.opts)
    keep = bool_field(event, "keep", None)
    need = 1 if keep else 2
    thrown = evolve(_forget_hand(deal, player), discards=deal.discards + 1)
    if _available(state, thrown) < need:
        if need == 2 and _available(state, thrown) == 1:
            raise RuleViolation("MULAT-EXCH-4", M("only one stock card is left: the face-up card must be kept"))
        raise RuleViolation("MULAT-EXCH-9", M("the stock is empty"), stock=_available(state, deal))
    new = _take(state, thrown, 1, player)
    _check_unseen(new, card, None)
    if keep:
        new = new.with_owner(card, player)
    else:
        # Thrown away before the next card is dealt, so a reshuffle may bring it back.
        new = _take(state, evolve(new.with_owner(card, -1), discards=new.discards + 1), 1, player)
    return evolve(new, exchanges=new.exchanges + (Exchange(player, "sight", 1, need, (card,), keep),))

def _sau_or_seven(state: MulState, deal: Deal, player: int, kind: str) -> Deal:
    trump = deal.trump
    assert trump is not None
    if kind == "sau":
        rule, keep, draw, extra = "MULAT-EXCH-6", Card("A", trump), 5, 1
    else:
        rule, keep, draw, extra = "MULAT-EXCH-7", Card("7", "S"), 6, 2
        if trump != "S":
            raise RuleViolation(rule, M("six on the seven is only allowed when Schelle is trumps"))
    _check_limit(state, 4)
    _check_unseen(deal, keep, player)   # seen elsewhere, or out of reach since a reshuffle
    entered = deal.current_hand(player)
    if entered is not None and keep not in entered:
        raise RuleViolation(rule, M("%(player)s does not hold %(keep)s", player=Seat(player), keep=keep), card=str(keep))
    thrown = evolve(_forget_hand(deal, player), discards=deal.discards + 4)
    if _available(state, thrown) < draw:
        raise RuleViolation("MULAT-EXCH-9", M("this exchange needs %(draw)s stock cards; %(value)s left", draw=draw, value=_available(state, deal)), stock=_available(state, deal))
    new = _take(state, thrown, draw, player)
    new = evolve(new, discards=new.discards + extra).with_owner(keep, player)
    return evolve(new, exchanges=new.exchanges + (Exchange(player, kind, 4, draw, (keep,)),))

def on_bridge_cards(state: MulState, event: Mapping[str, Any]) -> MulState:
    deal, player = _exchange_turn(state, event, serving=True)
    if deal.exch_queue or not deal.bridge_queue or deal.bridge_queue[0] != player:
        raise RuleViolation("MULAT-EXCH-2", M("Bridge cards are dealt after every other exchange, clockwise from the declarer"))
    face_up = _cards(event, "face_up", state.opts)
    if not face_up:
        raise RuleViolation("MULAT-EXCH-5", M("give the face-up card(s) dealt after the five"))
    released = evolve(deal, reserved=deal.reserved - 6)
    new = _deal_face_up(state, released, player, face_up, thrown=0, rule="MULAT-EXCH-5", trump_first=False)
    exchanges = tuple(evolve(e, drawn=5 + len(face_up), face_up=tuple(face_up), served=True)
                      if e.player == player and e.kind == "bridge" else e for e in new.exchanges)
    new = evolve(new, exchanges=exchanges, bridge_queue=new.bridge_queue[1:])
    return evolve(state, deal=_next_exchange(state, new), scored=())
