"""Tomelilla Mulle (rules/mulle.md): two packs, captures by value or rank, points pegged at once, 61 wins.

Adjudicate mode takes the fishing-game events of DESIGN §2 (``deal`` with the face-up table
cards, ``play`` with the cards taken) and derives everything else: whose turn it is, the rounds
of five cards, the end of the deal (last capture, leftovers, most spades) and the instant win at
61. Tally mode takes only scoring facts (``tally``) and pegs them.

The engine never sees a hand. What it can check at once is what lies on the table and how often
each of the 104 cards has been seen in this deal (MULLE-COMP-1).

Modules: ``state`` (constants, the state), ``rules`` (the ``Mulle`` class and its event table),
``play`` (adjudicate mode), ``tally`` (tally mode); the capture arithmetic is
:mod:`scorekeeper.engine.fishing`.
"""

from __future__ import annotations

from scorekeeper.engine.mulle.rules import Mulle
from scorekeeper.engine.mulle.state import (
    ALL_CARDS,
    COPIES,
    HINT_LIMIT,
    LAYOUT,
    PACK_SIZE,
    PARTNERS,
    TALLY,
    TALLY_ALIASES,
    TALLY_CAPS,
    TALLY_ORDER,
    TARGET,
    DealRecord,
    LastMove,
    MulleState,
    Phase,
    move_points,
    point_value,
)

__all__ = [
    "ALL_CARDS",
    "COPIES",
    "DealRecord",
    "HINT_LIMIT",
    "LAYOUT",
    "LastMove",
    "Mulle",
    "MulleState",
    "PACK_SIZE",
    "PARTNERS",
    "Phase",
    "TALLY",
    "TALLY_ALIASES",
    "TALLY_CAPS",
    "TALLY_ORDER",
    "TARGET",
    "move_points",
    "point_value",
]
