"""Mousel's phases before the tricks: antes and the deal, the turn-up and its offer, exchanges,
folds and the taker's discard; leaving and ending the session."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from scorekeeper.engine.core import (
    RuleViolation,
    Scored,
    bool_field,
    evolve,
    int_field,
    player_field,
)
from scorekeeper.engine.messages import M, Msg
from scorekeeper.engine.mousel.scoring import _finish, _void
from scorekeeper.engine.mousel.state import (
    Deal,
    MouselState,
    Play,
    _card,
    _next_seated,
    _rotate,
    _seat_ring,
    _with,
    _with_deal,
    phase_name,
)
from scorekeeper.engine.tricks.ledger import POT, Book, Entry


def _no_deal(state: MouselState, what: Callable[[], Msg]) -> None:
    """``what`` (the step refused) is made only when refused: most steps of a replay pass."""
    if state.deal is not None:
        raise RuleViolation("MOUSEL-END-2", M("%(what)s only between deals; deal %(number)s is on", what=what(), number=state.deal.number))


def _start(state: MouselState, event: Mapping[str, Any]) -> tuple[int, bool]:
    """Checks shared by ``deal`` and ``deal_result``: the dealer and the last-deal flag."""
    count = len(state.players)
    expected = state.next_dealer
    if "dealer" in event and event["dealer"] is not None:
        dealer = int_field(event, "dealer", minimum=0, maximum=count - 1)
        if expected is not None and dealer != expected:
            raise RuleViolation("MOUSEL-DEAL-3",
                                M("the deal passes clockwise: %(player)s deals, not %(player2)s", player=state.players[expected], player2=state.players[dealer]), expected=expected, dealer=dealer)
        if state.status[dealer] != "in":
            raise RuleViolation("MOUSEL-DEAL-3", M("%(player)s is no longer at the table", player=state.players[dealer]))
    else:
        dealer = expected if expected is not None else state.seated[0]
    last = bool_field(event, "last")
    if last and not state.opts.end_lastdeal:
        raise RuleViolation("MOUSEL-OPT-END-LASTDEAL",
                            M("announcing a last deal is a house rule this table does not play"))
    return dealer, last


def _antes(state: MouselState, number: int, ring: Sequence[int]) -> Book:
    return state.book.post(Entry(number, "ante", seat, POT, 1, "MOUSEL-DEAL-1", "ante") for seat in ring)


_ANTES: dict[tuple[int, ...], tuple[Scored, ...]] = {}


def on_deal(state: MouselState, event: Mapping[str, Any]) -> MouselState:
    _no_deal(state, lambda: M("a new deal starts"))
    dealer, last = _start(state, event)
    ring = _seat_ring(state.status, dealer)
    number = state.deals + 1
    book = _antes(state, number, ring)
    n = len(ring)
    deal = Deal(number=number, dealer=dealer, ring=ring, pot=book.pot, last=last, phase="turn_up",
                stock=state.opts.pack_size - n * n)
    scored = _ANTES.get(ring)
    if scored is None:  # the same few rings deal after deal
        scored = _ANTES[ring] = tuple(Scored(seat, -1, "ante", "MOUSEL-DEAL-1") for seat in ring)
    return _with(state, book=book, deal=deal, play=None, deals=number, next_dealer=dealer,
                 last_announced=state.last_announced or last, scored=scored)


def on_leave(state: MouselState, event: Mapping[str, Any]) -> MouselState:
    player = player_field(event, len(state.players))
    _no_deal(state, lambda: M("a player leaves"))
    if state.status[player] != "in":
        raise RuleViolation("MOUSEL-POT-3", M("%(player)s has already left", player=state.players[player]))
    if len(state.seated) <= 2:
        raise RuleViolation("MOUSEL-COMP-3", M("Mousel needs at least two players; end the session instead"))
    status = tuple("left" if i == player else s for i, s in enumerate(state.status))
    next_dealer = state.next_dealer
    if next_dealer == player:  # the deal passes on to the next player still at the table
        next_dealer = _next_seated(status, player)
    return _with(state, status=status, next_dealer=next_dealer, scored=())


def on_end(state: MouselState, event: Mapping[str, Any]) -> MouselState:
    _no_deal(state, lambda: M("the session stops"))
    return _finish(state, state.deals)


# --- Handlers: the turn-up --------------------------------------------------------------------

def _need_deal(state: MouselState, phases: tuple[str, ...], rule: str, what: Callable[[], Msg]) -> Deal:
    deal = state.deal
    if deal is None or deal.phase not in phases:
        raise RuleViolation(rule, M("%(what)s is not possible now (phase: %(now)s)", what=what(), now=phase_name(state.phase)),
                            phase=state.phase)
    return deal


def on_look(state: MouselState, event: Mapping[str, Any]) -> MouselState:
    player = player_field(event, len(state.players))
    deal = _need_deal(state, ("turn_up", "offer"), "MOUSEL-TRUMP-1", lambda: M("looking at the hand"))
    if player != deal.dealer:
        raise RuleViolation("MOUSEL-TRUMP-1", M("only the dealer's look matters: the others look at once"))
    if deal.looked:
        raise RuleViolation("MOUSEL-TRUMP-1", M("the dealer has already looked at his hand"))
    if deal.phase == "turn_up":
        raise RuleViolation("MOUSEL-TRUMP-1", M("no card is on offer yet: the dealer looks at his hand only once a card is turned up"))
    return _with_deal(state, evolve(deal, looked=True, looked_by_event=True, blind=False))


def on_turn_up(state: MouselState, event: Mapping[str, Any]) -> MouselState:
    deal = state.deal
    if deal is not None and deal.phase == "offer":
        raise RuleViolation("MOUSEL-TRUMP-5", M("%(turned)s is still on offer; a new card is turned only when everyone has refused it", turned=deal.turned))
    deal = _need_deal(state, ("turn_up",), "MOUSEL-TRUMP-1", lambda: M("turning up a card"))
    card = _card(event, state.opts)
    if card in deal.set_aside:
        raise RuleViolation("MOUSEL-COMP-1", M("%(card)s was already turned up and set aside", card=card), card=str(card))
    # stock > 0 here: an empty stock ends the deal as void when the last card is refused
    blind = not deal.looked
    offer = deal.ring
    new = evolve(deal, phase="offer", stock=deal.stock - 1, turns=deal.turns + 1, turned=card,
                  blind=blind, offer=offer)
    return _with_deal(state, new)


def on_take(state: MouselState, event: Mapping[str, Any]) -> MouselState:
    player = player_field(event, len(state.players))
    deal = _need_deal(state, ("offer",), "MOUSEL-TRUMP-1", lambda: M("taking the turned card"))
    _check_offer_turn(state, deal, player, taking=True)
    assert deal.turned is not None
    taker = player
    o_seat, order = _decision_order(deal.ring, deal.dealer, taker, state.opts.last_in_order)
    new = evolve(deal, phase="exchange", taker=taker, trump_card=deal.turned, turned=None, blind=False,
                  offer=(), must_play=o_seat, order=order,
                  looked=deal.looked or player == deal.dealer)
    return _with_deal(state, new)


def _check_offer_turn(state: MouselState, deal: Deal, player: int, *, taking: bool) -> None:
    names = state.players
    if player not in deal.ring:
        raise RuleViolation("MOUSEL-TRUMP-3", M("%(name)s is not in this deal", name=names[player]))
    if deal.blind and player == deal.dealer:
        return
    head = deal.offer[0]
    if player == head:
        if player == deal.dealer and not taking and _last_card(state, deal):
            raise RuleViolation("MOUSEL-OPT-DEALER-MUST-TAKE",
                                M("%(turned)s is the last card of the stock: the dealer must accept it", turned=deal.turned))
        return
    if player == deal.dealer:
        if deal.turns > 1:
            raise RuleViolation("MOUSEL-TRUMP-5",
                                M("the dealer has looked, so he may take %(turned)s only after everyone else has refused it; it is %(name)s's turn", turned=deal.turned, name=names[head]), to_act=head)
        if deal.looked_by_event:
            raise RuleViolation("MOUSEL-TRUMP-2",
                                M("the dealer has looked at his hand, so he may not take %(turned)s at once; it is offered round first (%(name)s's turn)", turned=deal.turned, name=names[head]), to_act=head)
        raise RuleViolation("MOUSEL-TRUMP-4",
                            M("the dealer passed on taking %(turned)s blind; he decides again only after everyone else has refused (%(name)s's turn)", turned=deal.turned, name=names[head]), to_act=head)
    raise RuleViolation("MOUSEL-TRUMP-3",
                        M("%(turned)s is offered clockwise: it is %(name)s's turn, not %(name2)s's", turned=deal.turned, name=names[head], name2=names[player]),
                        to_act=head)


def _last_card(state: MouselState, deal: Deal) -> bool:
    return state.opts.dealer_must_take and deal.stock == 0


def on_refuse(state: MouselState, event: Mapping[str, Any]) -> MouselState:
    player = player_field(event, len(state.players))
    deal = _need_deal(state, ("offer",), "MOUSEL-TRUMP-1", lambda: M("refusing the turned card"))
    _check_offer_turn(state, deal, player, taking=False)
    turned = deal.turned
    assert turned is not None
    if deal.blind:
        # The dealer passes on the blind take (by saying so, or by letting the offer go round).
        new = evolve(deal, blind=False)
        if player == deal.dealer:
            return _with_deal(state, new)
        deal = new
    offer = deal.offer[1:]
    if offer:
        return _with_deal(state, evolve(deal, offer=offer))
    set_aside = deal.set_aside + (turned,)
    if deal.stock == 0:
        return _void(state, evolve(deal, set_aside=set_aside, turned=None, offer=()))
    new = evolve(deal, phase="turn_up", turned=None, offer=(), set_aside=set_aside, looked=True)
    return _with_deal(state, new)


def _decision_order(ring: tuple[int, ...], dealer: int, taker: int,
                    last_in_order: bool) -> tuple[int, tuple[int, ...]]:
    """O (MOUSEL-EXCH-3) and the order of exchanges: clockwise from the taker, O last (EXCH-4)."""
    clockwise = _rotate(ring, taker)
    if last_in_order:
        return clockwise[-1], clockwise
    o_seat = dealer if taker != dealer else ring[-2]
    return o_seat, tuple(s for s in clockwise if s != o_seat) + (o_seat,)


# --- Handlers: exchanges and the taker's discard ----------------------------------------------

def _check_decision_turn(state: MouselState, deal: Deal, player: int) -> None:
    expected = deal.order[len(deal.decisions)]
    if player == expected:
        return
    names = state.players
    if player not in deal.ring:
        raise RuleViolation("MOUSEL-EXCH-1", M("%(name)s is not in this deal", name=names[player]))
    if any(seat == player for seat, _ in deal.decisions):
        raise RuleViolation("MOUSEL-EXCH-1", M("%(name)s has already decided", name=names[player]), to_act=expected)
    if player == deal.must_play and not state.opts.last_in_order:
        raise RuleViolation("MOUSEL-EXCH-4",
                            M("%(name)s may not fold and so decides last; it is %(name2)s's turn", name=names[player], name2=names[expected]),
                            to_act=expected)
    raise RuleViolation("MOUSEL-EXCH-1",
                        M("decisions go clockwise from the taker: it is %(name)s's turn, not %(name2)s's", name=names[expected], name2=names[player]),
                        to_act=expected)


def on_exchange(state: MouselState, event: Mapping[str, Any]) -> MouselState:
    player = player_field(event, len(state.players))
    count = int_field(event, "count", minimum=0)
    deal = _need_deal(state, ("exchange",), "MOUSEL-EXCH-1", lambda: M("exchanging cards"))
    _check_decision_turn(state, deal, player)
    name = state.players[player]
    hand = deal.n + 1 if player == deal.taker else deal.n
    if count > hand:
        rule = "MOUSEL-EXCH-2" if player == deal.taker else "MOUSEL-EXCH-1"
        raise RuleViolation(rule, M("%(name)s holds %(hand)s cards and cannot exchange %(count)s", name=name, hand=hand, count=count), hand=hand)
    if player == deal.taker and state.opts.keep_trumpcard and count > deal.n:
        raise RuleViolation("MOUSEL-OPT-KEEP-TRUMPCARD",
                            M("%(name)s must keep the turned-up %(trump_card)s, so can exchange at most %(n)s", name=name, trump_card=deal.trump_card, n=deal.n))
    available = deal.stock + (deal.pile if state.opts.reshuffle else 0)
    if count > available:
        where = (M("%(stock)s left in the stock and %(pile)s to reshuffle", stock=deal.stock, pile=deal.pile)
                 if state.opts.reshuffle else M("%(stock)s left in the stock", stock=deal.stock))
        raise RuleViolation("MOUSEL-EXCH-5", M("%(name)s asks for %(count)s cards but there are only %(where)s; stand pat, exchange fewer or fold", name=name, count=count, where=where), stock=deal.stock)
    stock, pile, reshuffles = deal.stock, deal.pile, deal.reshuffles
    if count > stock:  # MOUSEL-OPT-RESHUFFLE: the pile becomes the new stock
        stock, pile, reshuffles = stock + pile, 0, reshuffles + 1
    reach = deal.trump_reach
    if count and _draws_from_taker_throws(state, deal, count):
        reach += (player,)
    new = evolve(deal, stock=stock - count, pile=pile + count, reshuffles=reshuffles,
                  decisions=deal.decisions + ((player, count),), trump_reach=reach)
    return _with_deal(state, _after_decision(new))


def _draws_from_taker_throws(state: MouselState, deal: Deal, count: int) -> bool:
    """May the player who now draws ``count`` cards draw the turned-up card?

    Only the taker holds it, and he decides first, so if he threw it away it lies in the pile
    that the first reshuffle makes into a stock — and in no later one, since everyone throws away
    before drawing and so never throws a card drawn from it. Whoever draws from that stock before
    it runs out may hold the card; the stock runs out before the pile is reshuffled again."""
    if state.opts.keep_trumpcard or not any(s == deal.taker and n for s, n in deal.decisions):
        return False
    if deal.reshuffles == 0:
        return count > deal.stock  # this draw runs the stock out and reshuffles the taker's throws
    return deal.reshuffles == 1 and deal.stock > 0


def on_fold(state: MouselState, event: Mapping[str, Any]) -> MouselState:
    player = player_field(event, len(state.players))
    deal = _need_deal(state, ("exchange",), "MOUSEL-EXCH-1", lambda: M("folding"))
    _check_decision_turn(state, deal, player)
    name = state.players[player]
    if player == deal.taker:
        raise RuleViolation("MOUSEL-EXCH-2", M("%(name)s took the trump card and can never fold", name=name))
    if player == deal.must_play:
        others = [s for s in deal.ring if s not in (deal.taker, player)]
        folded = set(deal.folded)
        if all(s in folded for s in others):
            rule = "MOUSEL-OPT-LAST-IN-ORDER" if state.opts.last_in_order else "MOUSEL-EXCH-3"
            raise RuleViolation(rule, M("everyone else has folded, so %(name)s must play against the taker", name=name))
    new = evolve(deal, decisions=deal.decisions + ((player, None),))
    return _with_deal(state, _after_decision(new))


def _after_decision(deal: Deal) -> Deal:
    if len(deal.decisions) < len(deal.order):
        return deal
    return evolve(deal, phase="discard")


def on_discard(state: MouselState, event: Mapping[str, Any]) -> MouselState:
    player = player_field(event, len(state.players))
    deal = _need_deal(state, ("discard",), "MOUSEL-EXCH-6", lambda: M("the taker's extra discard"))
    if player != deal.taker:
        assert deal.taker is not None
        raise RuleViolation("MOUSEL-EXCH-6", M("only the taker (%(player)s) throws away one more card", player=state.players[deal.taker]), to_act=deal.taker)
    assert deal.taker is not None
    folded = set(deal.folded)
    active = tuple(s for s in sorted(deal.ring) if s not in folded)
    count = len(state.players)
    play = Play(active=active, leader=deal.taker, won=(0,) * count, failed=(frozenset(),) * count)
    new = evolve(deal, phase="play", pile=deal.pile + 1)
    return _with(state, deal=new, play=play, scored=())
