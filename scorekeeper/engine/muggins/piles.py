"""Pure helpers on the piles and the hands: where a card fits, whose turn is next, penalties,
finishing, stalemate, and the JSON of placements and calls (read by the rules object and the screens)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Literal

from scorekeeper.cards import Card, parse_card
from scorekeeper.engine.base import (
    JSON,
    Scored,
)
from scorekeeper.engine.messages import M, Msg
from scorekeeper.engine.muggins.state import STALEMATE_TURNOVERS, Place, Stalemate, fits, rank_value

if TYPE_CHECKING:
    from scorekeeper.engine.muggins.state import (
        Hand,
        MugginsCall,
        MugginsOptions,
        MugginsState,
        Placement,
        Slot,
    )

# --- Pure helpers on piles -------------------------------------------------------------------


def _next_seat(seat: int, n: int, k: int = 1) -> int:
    return (seat + k) % n


def _step2_seat(hands: Sequence[Hand], mover: int, card: Card, options: MugginsOptions) -> int | None:
    """The one discard pile step 2 of MUGGINS-PLAY-2 may use (whether or not the card fits it)."""
    n = len(hands)
    others = [_next_seat(mover, n, k) for k in range(1, n)]
    if options.neighbour_only:
        # MUGGINS-OPT-NEIGHBOUR-ONLY: the player directly to the left; players who are out have
        # left the circle, so the next one still holding cards counts as "directly to the left".
        left = next((q for q in others if hands[q].cards > 0), None)
        return left if left is not None and hands[left].discard else None
    if options.any_opponent:
        # MUGGINS-OPT-ANY-OPPONENT: any pile the card fits, the nearest one to the left.
        return next((q for q in others if hands[q].discard and fits(card, hands[q].discard[-1])), None)
    # MUGGINS-AMB-2: the nearest non-empty pile clockwise, and that pile only.
    return next((q for q in others if hands[q].discard), None)


def correct_places(muggins: Sequence[Sequence[Card]], hands: Sequence[Hand], mover: int, card: Card,
                   options: MugginsOptions) -> tuple[Place, ...]:
    """Every place MUGGINS-PLAY-2 allows for ``card`` turned by ``mover`` (all equally good)."""
    centre = tuple(Place("muggins", i) for i, pile in enumerate(muggins) if fits(card, pile[-1]))
    if centre:
        return centre  # MUGGINS-AMB-7: any fitting muggins pile is a free choice
    left = _step2_seat(hands, mover, card, options)
    if left is not None and fits(card, hands[left].discard[-1]):
        return (Place("discard", left),)
    return (Place("own", mover),)


def _fitting_places(muggins: Sequence[Sequence[Card]], hands: Sequence[Hand], mover: int,
                    card: Card) -> list[Place]:
    """Every place the card physically fits, in priority order (muggins, discards clockwise, own)."""
    n = len(hands)
    places = [Place("muggins", i) for i, pile in enumerate(muggins) if fits(card, pile[-1])]
    for k in range(1, n):
        q = _next_seat(mover, n, k)
        if hands[q].discard and fits(card, hands[q].discard[-1]):
            places.append(Place("discard", q))
    places.append(Place("own", mover))
    return places


def _known_locations(state: MugginsState) -> dict[Card, tuple[str, int]]:
    """Where every card seen so far lies: ("muggins", pile) / ("discard", seat) / ("draw", seat)."""
    where: dict[Card, tuple[str, int]] = {}
    for i, pile in enumerate(state.muggins):
        for card in pile:
            where[card] = ("muggins", i)
    for seat, hand in enumerate(state.hands):
        for card in hand.discard:
            where[card] = ("discard", seat)
        for slot in hand.draw:
            if slot is not None:
                where[slot] = ("draw", seat)
    return where


def _position_key(state: MugginsState) -> str | None:
    """The whole table in order, for the repeat test of MUGGINS-END-2; None while any draw pile
    still holds an unseen card (such a position can never come round again unchanged)."""
    parts = [str(state.to_act)]
    parts.append(";".join(",".join(str(c) for c in pile) for pile in state.muggins))
    for hand in state.hands:
        if any(slot is None for slot in hand.draw):
            return None
        parts.append(",".join(str(c) for c in hand.draw if c is not None) + "/"
                     + ",".join(str(c) for c in hand.discard))
    return "|".join(parts)


def _ordinal(k: int) -> Msg:
    return {1: M("1st"), 2: M("2nd"), 3: M("3rd")}.get(k) or M("%(k)sth", k=k)


# --- Module-level helpers used by the rules object and the screens ---------------------------


def _card_order(card: Card) -> tuple[int, str]:
    return rank_value(card), card.suit


def _hands_after_turnover(state: MugginsState, mover: int) -> list[Hand]:
    """The hands as the mover sees them when turning the next card (own pile turned over if empty)."""
    hands = list(state.hands)
    if not hands[mover].draw:
        hands[mover] = hands[mover].turned_over()
    return hands


def placements_for(state: MugginsState, card: Card | str, player: int | None = None) -> list[JSON]:
    """Every place ``card`` may be put by ``player`` (default: the player to act), best first.

    Each entry is ``{"to": <place>, "top": <card or None>, "correct": bool}``. The correct places
    (MUGGINS-PLAY-2) come first; the rest physically fit (MUGGINS-FIT-1) but would be a muggins,
    so they are listed only when breaches are accepted (not under MUGGINS-OPT-COACH).
    """
    if isinstance(card, str):
        card = parse_card(card, "french")
    mover = state.to_act if player is None else player
    if mover is None or not state.muggins:
        return []
    hands = _hands_after_turnover(state, mover)
    correct = correct_places(state.muggins, hands, mover, card, state.options)
    others = [p for p in _fitting_places(state.muggins, hands, mover, card) if p not in correct]
    if state.options.coach:
        others = []

    def top(place: Place) -> str | None:
        if place.kind == "muggins":
            return str(state.muggins[place.index][-1])
        if place.kind == "discard":
            return str(hands[place.index].discard[-1])
        return None

    return ([{"to": p.to_json(), "top": top(p), "correct": True} for p in correct]
            + [{"to": p.to_json(), "top": top(p), "correct": False} for p in others])


def _collect_penalty(hands: list[Hand], offender: int, finished: frozenset[int]) -> tuple[tuple[int, ...], list[Slot]]:
    """MUGGINS-PEN-2 / AMB-5: every other player still holding cards gives the top of their draw
    pile (turning their discard pile over first if they must), clockwise from the offender's left;
    the offender puts them under their own draw pile."""
    n = len(hands)
    givers: list[int] = []
    gathered: list[Slot] = []
    for k in range(1, n):
        giver = _next_seat(offender, n, k)
        hand = hands[giver]
        if giver in finished or hand.cards == 0:
            continue
        if not hand.draw:
            hand = hand.turned_over()
        gathered.append(hand.draw[0])
        hands[giver] = replace(hand, draw=hand.draw[1:])
        givers.append(giver)
    hands[offender] = replace(hands[offender], draw=hands[offender].draw + tuple(gathered))
    return tuple(givers), gathered


def _next_active(state: MugginsState, seat: int) -> int | None:
    n = len(state.players)
    for k in range(1, n + 1):
        q = _next_seat(seat, n, k)
        if state.active(q):
            return q
    return None


def _record_finish(state: MugginsState, newly_out: tuple[int, ...],
                   scored: list[Scored]) -> tuple[MugginsState, bool]:
    """MUGGINS-END-1: players with no cards left are placed together; without MUGGINS-OPT-PLACINGS
    the game stops at the first of them."""
    placings = state.placings + (newly_out,)
    k = len(placings)
    for p in newly_out:
        scored.append(Scored(p, 1 if k == 1 else 0, "win" if k == 1 else "placed", "MUGGINS-END-1",
                             M("%(player)s has no cards left: %(ordinal)s place", player=state.players[p],
                               ordinal=_ordinal(k))))
    state = replace(state, placings=placings)
    if not state.options.placings:
        return state, True
    remaining = tuple(p for p in range(len(state.players)) if p not in state.finished)
    if len(remaining) <= 1:
        if remaining:
            scored.append(Scored(remaining[0], 0, "placed", "MUGGINS-OPT-PLACINGS",
                                 M("%(player)s is last: %(ordinal)s place", player=state.players[remaining[0]],
                                   ordinal=_ordinal(k + 1))))
            state = replace(state, placings=state.placings + (remaining,))
        return state, True
    return state, False


def _check_stalemate(state: MugginsState, progress: bool, turn_passed: bool,
                     scored: list[Scored]) -> MugginsState:
    """MUGGINS-END-2: a repeated position, or every player turning their pile over twice, since
    the last card went on a muggins pile or another player's pile (or a penalty moved cards)."""
    hands = state.hands
    if progress:
        hands = tuple(replace(h, turnovers=0) for h in hands)
        state = replace(state, hands=hands, seen_positions=())
    # A progress placement that leaves the mover to go on is a position of its own (mid-turn).
    if turn_passed or progress:
        key = _position_key(state)
        if key is not None:
            if key in state.seen_positions:
                new = _declare_stalemate(state, "repeat", scored)
                return replace(new, scored=tuple(scored))
            state = replace(state, seen_positions=state.seen_positions + (key,))
    if not progress:
        playing = [h for p, h in enumerate(hands) if state.active(p)]
        if playing and all(h.turnovers >= STALEMATE_TURNOVERS for h in playing):
            new = _declare_stalemate(state, "turned_over_twice", scored)
            return replace(new, scored=tuple(scored))
    return replace(state, scored=tuple(scored))


def _declare_stalemate(state: MugginsState, reason: Literal["repeat", "turned_over_twice", "agreed"],
                       scored: list[Scored]) -> MugginsState:
    """The players still in the game are ranked by cards held, fewest first; ties share a place."""
    counts = tuple(h.cards for h in state.hands)
    remaining = sorted((p for p in range(len(state.players)) if p not in state.finished),
                       key=lambda p: counts[p])
    groups: list[tuple[int, ...]] = []
    for p in remaining:
        if groups and counts[groups[-1][0]] == counts[p]:
            groups[-1] = groups[-1] + (p,)
        else:
            groups.append((p,))
    placings = state.placings + tuple(groups)
    first_new = len(state.placings) + 1
    for k, group in enumerate(groups, start=first_new):
        for p in group:
            scored.append(Scored(p, 1 if k == 1 else 0, "win" if k == 1 else "placed", "MUGGINS-END-2",
                                 M("stalemate: %(player)s holds %(n)s card(s), %(ordinal)s place",
                                   player=state.players[p], n=counts[p], ordinal=_ordinal(k))))
    return replace(state, placings=placings, phase="over", to_act=None, stalemate=Stalemate(reason, counts))


def _placement_json(p: Placement) -> JSON:
    return {"n": p.n, "player": p.player, "card": str(p.card), "to": p.to.to_json(),
            "onto": str(p.onto) if p.onto is not None else None, "final": p.final.to_json(),
            "turned_over": p.turned_over, "muggins": p.muggins, "turn_ended": p.turn_ended}


def _call_json(state: MugginsState, call: MugginsCall | None) -> JSON | None:
    if call is None:
        return None
    return {
        "n": call.n,
        "player": call.player,
        "card": str(call.card),
        "placed": call.placed.to_json(),
        "placed_on": str(call.placed_on) if call.placed_on is not None else None,
        "should": [p.to_json() for p in call.correct],
        "moved_to": call.moved_to.to_json() if call.moved_to is not None else None,
        "fits": call.fitted,
        "rule": "MUGGINS-PEN-1",
        "fit_rule": None if call.fitted else "MUGGINS-FIT-1",
        "priority_rule": "MUGGINS-PLAY-2",
        "penalty_rule": "MUGGINS-PEN-2",
        "givers": list(call.givers),
        "penalty_cards": call.penalty_cards,
        "turn_ended": call.turn_ended,
        "explanation": M("Muggins! %(reason)s. %(n)s penalty card(s) go under %(player)s's draw pile.",
                         reason=call.reason, n=call.penalty_cards, player=state.players[call.player]),
    }
