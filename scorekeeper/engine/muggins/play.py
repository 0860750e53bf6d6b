"""Adjudicate mode: the setup, a turn (turn over, place, call muggins), stopping the game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, NoReturn

from scorekeeper.cards import Card, parse_card, parse_cards
from scorekeeper.engine.base import (
    MalformedEvent,
    RuleViolation,
    Scored,
    int_field,
    str_field,
)
from scorekeeper.engine.messages import Join, M, Msg
from scorekeeper.engine.muggins.piles import (
    _check_stalemate,
    _collect_penalty,
    _declare_stalemate,
    _known_locations,
    _next_active,
    _next_seat,
    _record_finish,
    correct_places,
)
from scorekeeper.engine.muggins.state import DEAL_TABLE, Hand, MugginsCall, Place, Placement, fits

if TYPE_CHECKING:
    from scorekeeper.engine.muggins.state import MugginsState, Slot

# --- Handlers ---

def refuse_if_over(state: MugginsState) -> None:
    if not state.over:
        return
    if state.stalemate is not None:
        raise RuleViolation("MUGGINS-END-2", M("the game has ended in a stalemate; undo to correct it"))
    raise RuleViolation("MUGGINS-END-1", M("the game is over; undo the last entry to correct it"),
                        winner=state.winner)

def on_setup(state: MugginsState, event: Mapping[str, Any]) -> MugginsState:
    n = len(state.players)
    if state.phase != "setup":
        raise RuleViolation("MUGGINS-DEAL-1", M("the muggins cards are already on the table"))
    raw = event.get("muggins")
    if not isinstance(raw, (list, str)):
        raise MalformedEvent(M("'muggins' must list the face-up muggins cards"), event)
    cards = parse_cards(raw, "french")
    piles, per_player = DEAL_TABLE[n]
    if len(cards) != piles:
        raise RuleViolation("MUGGINS-DEAL-1",
                            M("%(n)s players lay out %(piles)s muggins cards, not %(given)s", n=n, piles=piles,
                              given=len(cards)),
                            expected=piles, got=len(cards))
    seen: set[Card] = set()
    for position, card in enumerate(cards, start=1):
        if card in seen:
            raise RuleViolation("MUGGINS-COMP-1",
                                M("muggins card %(position)s (%(card)s) is already on the table; the pack "
                                  "holds each card once", position=position, card=card), card=str(card))
        seen.add(card)
    dealer = int_field(event, "dealer", minimum=0, maximum=n - 1, default=state.dealer)
    forehand = _next_seat(dealer, n)
    hands = tuple(Hand(draw=(None,) * per_player) for _ in range(n))  # MUGGINS-DEAL-2
    return replace(state, phase="play", dealer=dealer, muggins=tuple((c,) for c in cards),
                   hands=hands, to_act=forehand, scored=())

def check_mover(state: MugginsState, event: Mapping[str, Any]) -> int:
    mover = state.to_act
    assert mover is not None
    if event.get("player") is None:
        return mover
    claimed = int_field(event, "player", minimum=0, maximum=len(state.players) - 1)
    if claimed == mover:
        return mover
    name = state.players[mover]
    if not state.history:
        raise RuleViolation("MUGGINS-DEAL-3", M("forehand (%(name)s, left of the dealer) starts, not %(player)s",
                                                name=name, player=state.players[claimed]),
                            to_act=mover, player=claimed)
    last = state.history[-1]
    if last.player == mover and not last.turn_ended:
        raise RuleViolation("MUGGINS-PLAY-3", M("%(name)s placed %(card)s and carries on turning cards; it is "
                                                "not %(player)s's turn", name=name, card=last.card,
                                                player=state.players[claimed]),
                            to_act=mover, player=claimed)
    raise RuleViolation("MUGGINS-PLAY-4", M("it is %(to_act)s's turn, not %(player)s's", to_act=name,
                                            player=state.players[claimed]),
                        to_act=mover, player=claimed)

def check_turned_card(state: MugginsState, mover: int, top: Slot, card: Card,
                       turned_over: bool) -> None:
    name = state.players[mover]
    if top is not None:
        if card != top:
            raise RuleViolation("MUGGINS-PLAY-7",
                                M("%(name)s's draw pile is a discard pile just turned over without shuffling; "
                                  "its top card is %(top)s, not %(card)s", name=name, top=top, card=card)
                                if turned_over else
                                M("%(name)s's draw pile is a discard pile turned over earlier without "
                                  "shuffling; its top card is %(top)s, not %(card)s", name=name, top=top,
                                  card=card),
                                expected=str(top), card=str(card))
        return
    where = _known_locations(state).get(card)
    if where is None:
        return
    kind, seat = where
    if kind == "discard" and seat == mover:
        raise RuleViolation("MUGGINS-PLAY-5", M("%(card)s lies in %(name)s's own discard pile; cards are only "
                                                "ever turned from the draw pile", card=card, name=name),
                            card=str(card))
    if kind == "draw" and seat == mover:
        raise RuleViolation("MUGGINS-PLAY-1", M("%(card)s is further down %(name)s's draw pile; turn the top "
                                                "card", card=card, name=name), card=str(card))
    place = (M("muggins pile %(n)s", n=seat + 1) if kind == "muggins" else
             M("%(name)s's discard pile", name=state.players[seat]) if kind == "discard" else
             M("%(name)s's draw pile", name=state.players[seat]))
    raise RuleViolation("MUGGINS-COMP-1", M("%(card)s is already in %(place)s; the pack holds each card once",
                                            card=card, place=place), card=str(card), where=kind, seat=seat)

def parse_place(state: MugginsState, event: Mapping[str, Any], key: str, mover: int) -> Place:
    raw = event.get(key)
    if not isinstance(raw, Mapping):
        raise MalformedEvent(M("%(key)s must be a place such as %(example)s", key=repr(key),
                               example='{"pile": "muggins", "index": 0}'), event)
    pile = raw.get("pile")
    if pile == "muggins":
        index = int_field(raw, "index", minimum=0)
        if index >= len(state.muggins):
            raise RuleViolation("MUGGINS-COMP-3", M("there are %(n)s muggins piles; pile %(index)s does not "
                                                    "exist", n=len(state.muggins), index=index + 1), index=index)
        return Place("muggins", index)
    if pile == "discard":
        seat = int_field(raw, "player", minimum=0)
        if seat >= len(state.players):
            raise RuleViolation("MUGGINS-COMP-3", M("there is no player %(seat)s; this table has %(n)s",
                                                    seat=seat, n=len(state.players)), player=seat)
        return Place("own", mover) if seat == mover else Place("discard", seat)
    if pile == "own":
        return Place("own", mover)
    raise MalformedEvent(M('%(key)s needs "pile": "muggins", "discard" or "own", not %(pile)s', key=repr(key),
                           pile=repr(pile)), event)

def describe_place(state: MugginsState, place: Place, hands: Sequence[Hand] | None = None) -> Msg:
    hands = state.hands if hands is None else hands
    if place.kind == "muggins":
        return M("muggins pile %(n)s (%(card)s)", n=place.index + 1, card=state.muggins[place.index][-1])
    if place.kind == "discard":
        top = hands[place.index].discard
        if top:
            return M("%(name)s's discard pile (%(card)s)", name=state.players[place.index], card=top[-1])
        return M("%(name)s's discard pile", name=state.players[place.index])
    return M("%(name)s's own discard pile", name=state.players[place.index])

def top_at(state: MugginsState, hands: Sequence[Hand], place: Place) -> Card | None:
    """The top card at ``place`` (None: the own pile, or a discard pile that is empty)."""
    if place.kind == "muggins":
        return state.muggins[place.index][-1]
    if place.kind == "discard":
        pile = hands[place.index].discard
        return pile[-1] if pile else None
    return None

def on_turn(state: MugginsState, event: Mapping[str, Any]) -> MugginsState:
    refuse_if_over(state)
    if state.phase == "setup":
        raise RuleViolation("MUGGINS-DEAL-1", M("lay out the muggins cards first (a 'setup' event)"))
    mover = check_mover(state, event)
    card = parse_card(str_field(event, "card", max_len=10), "french")
    hands = list(state.hands)
    hand = hands[mover]
    turned_over = not hand.draw
    if turned_over:
        hand = hand.turned_over()  # MUGGINS-PLAY-1 / PLAY-7
    check_turned_card(state, mover, hand.draw[0], card, turned_over)
    hands[mover] = replace(hand, draw=hand.draw[1:])
    to = parse_place(state, event, "to", mover)
    onto = top_at(state, hands, to)
    correct = correct_places(state.muggins, hands, mover, card, state.options)
    if to in correct:  # a correct place always fits; the own pile needs no fit (step 3)
        return place_card(state, hands, mover, card, to, onto, turned_over, None)
    # The own pile takes any card, so it is always "fitted"; elsewhere MUGGINS-FIT-1 decides.
    fitted = to.kind == "own" or (onto is not None and fits(card, onto))
    if state.options.coach:
        coach_refusal(state, hands, card, to, onto, fitted, correct)
    moved_to: Place | None = None
    # MUGGINS-OPT-PLAY-STANDS leaves the card only where it can lie (it fits there).
    if not (state.options.play_stands and fitted):
        moved_to = correct[0]
        if event.get("moved_to") is not None:
            moved_to = parse_place(state, event, "moved_to", mover)
            if moved_to not in correct:
                raise RuleViolation("MUGGINS-PEN-3", M("%(card)s must be moved to a correct place: %(places)s",
                                                       card=card, places=Join(tuple(
                                                           describe_place(state, p, hands)
                                                           for p in correct), "or")),
                                    correct=[p.to_json() for p in correct])
    return place_card(state, hands, mover, card, to, onto, turned_over, (correct, moved_to, fitted))

def coach_refusal(state: MugginsState, hands: Sequence[Hand], card: Card, to: Place,
                   onto: Card | None, fitted: bool, correct: tuple[Place, ...]) -> NoReturn:
    """MUGGINS-OPT-COACH: a breach is refused with the rule it breaks, and nothing is paid."""
    should = Join(tuple(describe_place(state, p, hands) for p in correct), "or")
    facts: dict[str, Any] = {"card": str(card), "top": None if onto is None else str(onto),
                             "correct": [p.to_json() for p in correct], "breach": "MUGGINS-PEN-1"}
    if not fitted:
        raise RuleViolation("MUGGINS-FIT-1", M("coach: %(misfit)s; it goes on %(should)s",
                                               misfit=misfit(state, hands, card, to, onto), should=should),
                            **facts)
    raise RuleViolation("MUGGINS-PLAY-2", M("coach: %(card)s must go on %(should)s, not on %(place)s", card=card,
                                            should=should, place=describe_place(state, to, hands)), **facts)

def misfit(state: MugginsState, hands: Sequence[Hand], card: Card, to: Place,
            onto: Card | None) -> Msg:
    if onto is None:
        return M("%(card)s cannot go on %(name)s's discard pile: there is none", card=card,
                 name=state.players[to.index])
    return M("%(card)s does not fit on %(place)s: a card goes one rank up or down, and Ace and King do not "
             "wrap", card=card, place=describe_place(state, to, hands))

def breach_reason(state: MugginsState, hands: Sequence[Hand], card: Card, to: Place,
                   onto: Card | None, fitted: bool, correct: tuple[Place, ...]) -> Msg:
    should = Join(tuple(describe_place(state, p, hands) for p in correct), "or")
    if not fitted:
        return M("%(misfit)s; it belonged on %(should)s", misfit=misfit(state, hands, card, to, onto),
                 should=should)
    put = describe_place(state, to, hands)
    if correct[0].kind == "muggins":
        why = M("a muggins pile comes first")
    elif correct[0].kind == "discard":
        why = M("the nearest discard pile to the left comes before any other pile")
    else:
        why = M("it fits neither a muggins pile nor the nearest discard pile to the left")
    return M("%(card)s was put on %(put)s, but it belonged on %(should)s: %(why)s", card=card, put=put,
             should=should, why=why)

def place_card(state: MugginsState, hands: list[Hand], mover: int, card: Card, to: Place,
           onto: Card | None, turned_over: bool,
           breach: tuple[tuple[Place, ...], Place | None, bool] | None) -> MugginsState:
    """``breach`` = (the correct places, where the card was moved or None if it stays, whether
    it fitted where it was put); None for a correct placement."""
    n = len(state.players)
    number = len(state.history) + 1
    final = to if breach is None or breach[1] is None else breach[1]
    # Described before anything moves, as the mover saw the table.
    reason: str = "" if breach is None else breach_reason(state, hands, card, to, onto, breach[2],
                                                            breach[0])
    muggins = list(state.muggins)
    put_card(muggins, hands, card, final)
    call: MugginsCall | None = None
    scored: list[Scored] = []
    if breach is None:
        turn_ends = final.kind == "own" or state.options.one_card
    else:
        correct, moved_to, fitted = breach
        givers, gathered = _collect_penalty(hands, mover, state.finished)  # MUGGINS-PEN-2
        stands = moved_to is None
        # MUGGINS-PEN-3 ends the turn; under PLAY-STANDS the card counts where it lies.
        turn_ends = not stands or final.kind == "own" or state.options.one_card
        call = MugginsCall(number, mover, card, to, onto, correct, moved_to, givers, len(gathered),
                           reason, turn_ends, fitted)
        scored.append(Scored(mover, 0, "muggins", "MUGGINS-PEN-2",
                             M("Muggins! %(reason)s; %(n)s penalty card(s)", reason=reason, n=len(gathered))))
    progress = breach is not None or final.kind != "own"
    placement = Placement(number, mover, card, to, onto, final, turned_over, breach is not None, turn_ends)
    new = replace(state, muggins=tuple(muggins), hands=tuple(hands), history=state.history + (placement,),
                  last_muggins=call if call is not None else state.last_muggins)
    newly_out = tuple(p for p in range(n) if p not in state.finished and new.hands[p].cards == 0)
    if newly_out:
        new, done = _record_finish(new, newly_out, scored)
        if done:
            return replace(new, phase="over", to_act=None, scored=tuple(scored))
    passes = turn_ends or mover in new.finished
    next_to_act = _next_active(new, mover) if passes else mover
    new = replace(new, to_act=next_to_act)
    return _check_stalemate(new, progress, passes, scored)

def put_card(muggins: list[tuple[Card, ...]], hands: list[Hand], card: Card, place: Place) -> None:
    if place.kind == "muggins":
        muggins[place.index] = muggins[place.index] + (card,)
    else:
        hand = hands[place.index]
        hands[place.index] = replace(hand, discard=hand.discard + (card,))

def on_stop(state: MugginsState, event: Mapping[str, Any]) -> MugginsState:
    refuse_if_over(state)
    if state.phase == "setup":
        raise RuleViolation("MUGGINS-DEAL-1", M("the game has not started; lay out the muggins cards first"))
    scored: list[Scored] = []
    return replace(_declare_stalemate(state, "agreed", scored), scored=tuple(scored))
