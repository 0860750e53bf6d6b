"""Whose card wins a trick: the rank order of a game, suits with trumps, the winner."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from scorekeeper.cards import Card

BreachKind = Literal["follow", "trump", "head"]


@dataclass(frozen=True, slots=True)
class RankOrder:
    """Rank orders, high to low, and the cards that are trumps whatever the trump suit is."""

    plain: tuple[str, ...]
    trump: tuple[str, ...] = ()
    always_trump: frozenset[Card] = field(default_factory=frozenset)

    def trump_ranks(self) -> tuple[str, ...]:
        return self.trump or self.plain

    def power(self, card: Card, is_trump: bool) -> int:
        """Higher is stronger; only comparable between cards of the same (effective) suit."""
        ranks = self.trump_ranks() if is_trump else self.plain
        try:
            return len(ranks) - ranks.index(card.rank)
        except ValueError:
            raise ValueError(f"{card} has no rank in this game's order {ranks}") from None


@dataclass(frozen=True, slots=True)
class Obligations:
    """A game's duties towards the trick (see the module docstring)."""

    order: RankOrder
    must_follow: bool = True
    must_trump: bool = False
    must_head: bool = False


def suit_of(card: Card, trump: str | None, order: RankOrder) -> str:
    always = order.always_trump
    if always and card in always:
        return trump if trump is not None else card.suit
    return card.suit


def _is_trump(card: Card, trump: str | None, order: RankOrder) -> bool:
    return trump is not None and suit_of(card, trump, order) == trump


def beats(a: Card, b: Card, led_suit: str, trump: str | None, order: RankOrder) -> bool:
    """True when ``a`` takes the trick from ``b`` (the card currently winning)."""
    a_suit, b_suit = suit_of(a, trump, order), suit_of(b, trump, order)
    if trump is not None:
        a_trump, b_trump = a_suit == trump, b_suit == trump
        if a_trump and b_trump:
            return order.power(a, True) > order.power(b, True)
        if a_trump or b_trump:
            return a_trump
    if a_suit != led_suit:
        return False
    if b_suit != led_suit:
        return True
    return order.power(a, False) > order.power(b, False)


def winning_index(cards: Sequence[Card], trump: str | None, order: RankOrder) -> int:
    """The position of the card that wins: ``beats`` applied along the trick, as one ranking —
    a trump by its trump power, then a card of the led suit by its power, anything else never
    (a replay settles a trick per four cards; a call per comparison was most of it)."""
    if not cards:
        raise ValueError("an empty trick has no winner")
    plain, trumps = _powers(order)
    led = suit_of(cards[0], trump, order)
    best, best_key = 0, 0
    for i, card in enumerate(cards):
        suit = suit_of(card, trump, order)
        try:
            if trump is not None and suit == trump:
                key = trumps[card.rank]
            elif suit == led:
                key = plain[card.rank]
            else:
                continue
        except KeyError:
            order.power(card, trump is not None and suit == trump)  # raises, naming the order
            raise
        if key > best_key:  # strictly: of two equal cards the first played wins, as with beats
            best, best_key = i, key
    return best


_POWERS: dict[int, tuple[RankOrder, dict[str, int], dict[str, int]]] = {}


def _powers(order: RankOrder) -> tuple[dict[str, int], dict[str, int]]:
    """Each rank's power, plain (1 and up) and as a trump (above every plain power), per order
    (kept by identity: hashing an order costs more than the lookups it saves)."""
    found = _POWERS.get(id(order))
    if found is None or found[0] is not order:
        plain = {rank: len(order.plain) - i for i, rank in enumerate(order.plain)}
        ranks = order.trump_ranks()
        trumps = {rank: len(order.plain) + len(ranks) - i for i, rank in enumerate(ranks)}
        if len(_POWERS) >= 64:
            _POWERS.clear()
        found = _POWERS[id(order)] = (order, plain, trumps)
    return found[1], found[2]


def trick_winner(cards: Sequence[Card], leader: int, trump: str | None, order: RankOrder,
                 seats: Sequence[int] | None = None) -> int:
    """The seat whose card wins; seats follow clockwise from ``leader`` among ``seats``."""
    ring = list(seats) if seats is not None else list(range(len(cards)))
    if leader not in ring:
        raise ValueError(f"the leader {leader} does not take part in the trick")
    start = ring.index(leader)
    played_by = [ring[(start + i) % len(ring)] for i in range(len(cards))]
    return played_by[winning_index(cards, trump, order)]


