"""Muggins' state: the constants of the game, its value objects (options, places, hands, calls,
placements) and ``MugginsState``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from scorekeeper.cards import FRENCH_RANKS, FRENCH_SUITS, Card
from scorekeeper.engine.base import (
    JSON,
    Mode,
    Scored,
)

PACK_SIZE = 52
# The one pack, suit by suit, ace to king.
PACK: tuple[Card, ...] = tuple(Card(r, s) for s in FRENCH_SUITS for r in FRENCH_RANKS)
# MUGGINS-DEAL-1: players -> (muggins piles, cards per player).
DEAL_TABLE: dict[int, tuple[int, int]] = {3: (4, 16), 4: (4, 12), 5: (2, 10), 6: (4, 8), 7: (3, 7)}
STALEMATE_TURNOVERS = 2  # MUGGINS-END-2, the simpler test: every player turned over twice

Phase = Literal["setup", "play", "over"]
PileKind = Literal["muggins", "discard", "own"]
Slot = Card | None


_RANK_VALUES = {rank: i for i, rank in enumerate(FRENCH_RANKS, start=1)}


def rank_value(card: Card) -> int:
    """MUGGINS-COMP-1: A = 1 … K = 13."""
    return _RANK_VALUES[card.rank]


def fits(card: Card, top: Card) -> bool:
    """MUGGINS-FIT-1: one rank up or down, no wrap-around, suits ignored."""
    return abs(rank_value(card) - rank_value(top)) == 1


# --- Value objects ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MugginsOptions:
    one_card: bool = False
    neighbour_only: bool = False
    any_opponent: bool = False
    play_stands: bool = False
    coach: bool = False
    placings: bool = False

    def to_json(self) -> JSON:
        return {"one_card": self.one_card, "neighbour_only": self.neighbour_only,
                "any_opponent": self.any_opponent, "play_stands": self.play_stands,
                "coach": self.coach, "placings": self.placings}


@dataclass(frozen=True, slots=True, order=True)
class Place:
    """Where a card goes. ``index`` is the muggins pile (0-based) or the seat owning the discard
    pile; for ``own`` it is the mover's seat."""

    kind: PileKind
    index: int

    def to_json(self) -> JSON:
        if self.kind == "muggins":
            return {"pile": "muggins", "index": self.index}
        if self.kind == "discard":
            return {"pile": "discard", "player": self.index}
        return {"pile": "own"}


@dataclass(frozen=True, slots=True)
class Hand:
    """One player's cards. ``draw[0]`` is the top of the face-down pile; ``discard[-1]`` is the
    face-up top. ``turnovers`` counts pile turn-overs since the last real progress (END-2)."""

    draw: tuple[Slot, ...] = ()
    discard: tuple[Card, ...] = ()
    turnovers: int = 0

    @property
    def cards(self) -> int:
        return len(self.draw) + len(self.discard)

    def turned_over(self) -> Hand:
        # MUGGINS-PLAY-7: the first card placed (bottom) becomes the top of the new draw pile.
        return Hand(draw=tuple(self.discard), discard=(), turnovers=self.turnovers + 1)


@dataclass(frozen=True, slots=True)
class MugginsCall:
    """A priority breach caught at entry (MUGGINS-PEN-1), with everything the UI needs to shout."""

    n: int                          # number of the placement that was wrong
    player: int
    card: Card
    placed: Place                   # where it was put
    placed_on: Card | None          # the top it was put on
    correct: tuple[Place, ...]      # every place MUGGINS-PLAY-2 allowed
    moved_to: Place | None          # where it was moved (None: it stayed, MUGGINS-OPT-PLAY-STANDS)
    givers: tuple[int, ...]         # players who gave a penalty card, clockwise from the offender
    penalty_cards: int
    reason: str
    turn_ended: bool
    fitted: bool = True             # False: it did not even fit where it was put (MUGGINS-FIT-1)


@dataclass(frozen=True, slots=True)
class Placement:
    """One card turned and placed: the history view's row."""

    n: int
    player: int
    card: Card
    to: Place                       # where the player put it
    onto: Card | None               # the top it went onto (None: own pile or a new pile)
    final: Place                    # where it lies now (differs after a muggins correction)
    turned_over: bool               # the draw pile was empty, so the discard pile was turned first
    muggins: bool
    turn_ended: bool


@dataclass(frozen=True, slots=True)
class Stalemate:
    reason: Literal["repeat", "turned_over_twice", "agreed"]
    cards: tuple[int, ...]          # cards each player held when it was declared


@dataclass(frozen=True, slots=True)
class MugginsState:
    players: tuple[str, ...]
    options: MugginsOptions
    mode: Mode
    phase: Phase
    dealer: int = 0
    muggins: tuple[tuple[Card, ...], ...] = ()      # each pile bottom -> top
    hands: tuple[Hand, ...] = ()
    to_act: int | None = None
    history: tuple[Placement, ...] = ()
    last_muggins: MugginsCall | None = None
    placings: tuple[tuple[int, ...], ...] = ()
    stalemate: Stalemate | None = None
    seen_positions: tuple[str, ...] = ()            # positions after each placement since the last progress
    scored: tuple[Scored, ...] = ()

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def winner(self) -> int | list[int] | None:
        if not self.placings:
            return None
        first = self.placings[0]
        return first[0] if len(first) == 1 else list(first)

    @property
    def finished(self) -> frozenset[int]:
        return frozenset(p for group in self.placings for p in group)

    def active(self, seat: int) -> bool:
        return seat not in self.finished and self.hands[seat].cards > 0
