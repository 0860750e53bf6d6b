"""Kasino (Swedish), Kasino misär and Dragkasino, as specified in ``rules/kasino.md``.

One engine serves the three games; the variant is the option ``variant`` ("standard", "misar",
"drag"; ``drag_misar`` adds the misär rules to the draw form). Every other option is an option
id of the spec (``KASINO-OPT-SISTAN`` → ``sistan``, ``KASINO-VAR-FIXED`` → ``fixed`` …).

Adjudicate mode events (DESIGN.md §2 plus the misär and claim extras):

* ``{"type": "draw_dealer", "cards": ["KH", "5S", "KD"]}`` — optional cut for the first dealer
  (KASINO-DEAL-1); a tie asks the tied players (and only them) to draw again.
* ``{"type": "deal", "dealer": 0, "table": ["5D", "9S", "KH", "AC"]}`` — a new deal.
* ``{"type": "play", "player": 1, "card": "5C", "capture": ["5D"]}`` — a capture, or a trail when
  ``capture`` is empty/absent. Dragkasino: optional ``"draw": "7H"`` names the card drawn after the
  play (otherwise the engine just counts the stock down).
* ``{"type": "confirm", "proposal": 3}`` / ``{"type": "dismiss", "proposal": 3}`` — a misär penalty
  the engine proposed.
* ``{"type": "claim", "player": 0}`` — KASINO-VAR-CLAIM; ``{"type": "misdeal"}`` — KASINO-AMB-12.

Tally mode: ``deal_result`` (per side facts of one deal), ``penalty`` (misär +5), ``claim`` (with
the settled facts) and ``draw_dealer``.

The capture arithmetic is ``scorekeeper.engine.fishing``; this module decides what the rules do
with it (whose turn, forced captures, which hand a player held, scoring, the end of the game).

Modules: ``state`` (constants, options, the state), ``rules`` (the ``Kasino`` class and its event
table), ``deal``, ``play``, ``claim``, ``misar`` (capture duties, the forced tabbe), ``scoring``,
``tally``. A misär penalty is a :class:`scorekeeper.engine.core.Proposal` of kind ``misär``
whose ``data`` holds ``breach``, ``points`` and the 1-based ``turn``.
"""

from __future__ import annotations

from scorekeeper.engine.core import Proposal
from scorekeeper.engine.kasino.rules import Kasino
from scorekeeper.engine.kasino.scoring import score_deal
from scorekeeper.engine.kasino.state import (
    ACE_POINTS,
    HAND_SIZE,
    KNOCKOUT,
    LILLAN,
    LILLAN_POINTS,
    PACK,
    PACK_SIZE,
    PENALTY,
    PLAYS_PER_DEAL,
    STORAN,
    STORAN_POINTS,
    SWEEP_NAMES,
    TABBE_POINTS,
    TABLE_START,
    TARGET,
    VARIANTS,
    Category,
    DealerDraw,
    DealRow,
    Facts,
    KasinoState,
    Phase,
    Pile,
    Settings,
    Summary,
    Turn,
)

__all__ = [
    "ACE_POINTS",
    "LILLAN_POINTS",
    "STORAN_POINTS",
    "TABBE_POINTS",
    "Category",
    "DealRow",
    "DealerDraw",
    "Facts",
    "HAND_SIZE",
    "KNOCKOUT",
    "Kasino",
    "KasinoState",
    "LILLAN",
    "PACK",
    "PACK_SIZE",
    "PENALTY",
    "PLAYS_PER_DEAL",
    "Phase",
    "Pile",
    "Proposal",
    "STORAN",
    "SWEEP_NAMES",
    "Settings",
    "Summary",
    "TABLE_START",
    "TARGET",
    "Turn",
    "VARIANTS",
    "score_deal",
]
