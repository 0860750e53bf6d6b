"""Muggins (the Swedish children's version): a shedding game adjudicated card by card.

Nobody sees a face-down draw pile, so each one is kept as a list of *slots*: a known card or
``None`` (not seen yet). A discard pile turned over without shuffling (MUGGINS-PLAY-7) becomes a
draw pile whose order the app knows exactly, so every card later turned from it is checked
against that order. Every card that has been seen stays in a known place for the rest of the
game, which is what lets the engine refuse a card seen twice (MUGGINS-COMP-1).

A priority breach ("Muggins!") is accepted and punished the moment it is entered
(MUGGINS-PEN-4): the others pay the penalty cards, the card is moved to a correct place and the
turn ends. Putting a card where it does not fit (MUGGINS-FIT-1) is such a breach too
(MUGGINS-PEN-1). Only the learning option MUGGINS-OPT-COACH refuses breaches instead; then a
card that does not fit is refused with MUGGINS-FIT-1 and a fitting but wrong place with
MUGGINS-PLAY-2.

Modules: ``state`` (constants, value objects, the state), ``piles`` (pure helpers on piles and
hands), ``rules`` (the ``Muggins`` class and its event table), ``play`` (adjudicate mode),
``tally`` (tally mode).
"""

from __future__ import annotations

from scorekeeper.engine.muggins.piles import correct_places, placements_for
from scorekeeper.engine.muggins.rules import Muggins
from scorekeeper.engine.muggins.state import (
    DEAL_TABLE,
    PACK,
    PACK_SIZE,
    STALEMATE_TURNOVERS,
    Hand,
    MugginsCall,
    MugginsOptions,
    MugginsState,
    Phase,
    PileKind,
    Place,
    Placement,
    Slot,
    Stalemate,
    fits,
    rank_value,
)

__all__ = [
    "DEAL_TABLE",
    "Hand",
    "Muggins",
    "MugginsCall",
    "MugginsOptions",
    "MugginsState",
    "PACK",
    "PACK_SIZE",
    "Phase",
    "PileKind",
    "Place",
    "Placement",
    "STALEMATE_TURNOVERS",
    "Slot",
    "Stalemate",
    "correct_places",
    "fits",
    "placements_for",
    "rank_value",
]
