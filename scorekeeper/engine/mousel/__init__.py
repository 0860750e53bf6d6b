"""Mousel: a Rams-family pot game (rules/mousel.md). Antes, a turned-up trump, exchanges or
folds, tricks, and a pot shared in proportion to tricks with penalties into the next pot.

The session is open-ended, so the state is a token ledger (:mod:`scorekeeper.engine.ledger`)
plus, while a deal is on, a :class:`Deal`. Hands are hidden: the engine counts cards (stock,
hand sizes) and checks every card it is shown; follow-suit is audited retroactively
(rules README §4) and a proven revoke becomes a *proposal* the table confirms or dismisses.

Adjudicate-mode events: ``deal``, ``look``, ``turn_up``, ``take``, ``refuse``, ``exchange``,
``fold``, ``discard``, ``play``, ``confirm``, ``dismiss``, ``leave``, ``end_session``
(``confirm_revoke``/``dismiss_revoke`` with ``id`` are aliases: :mod:`..vocabulary`).
Tally mode: ``deal_result``, ``leave``, ``end_session``.
See docs/api.md, section Mousel.
"""

from __future__ import annotations

from scorekeeper.engine.mousel.rules import Mousel
from scorekeeper.engine.mousel.scoring import split_pot
from scorekeeper.engine.mousel.state import (
    OBLIGATIONS_32,
    OBLIGATIONS_52,
    ORDER_32,
    ORDER_52,
    RANKS_32,
    RANKS_52,
    SUITS,
    Deal,
    EndReport,
    MouselState,
    Opts,
    Play,
    Settlement,
    Trick,
)

__all__ = ["Deal", "EndReport", "Mousel", "MouselState", "OBLIGATIONS_32", "OBLIGATIONS_52", "ORDER_32", "ORDER_52", "Opts", "Play", "RANKS_32", "RANKS_52", "SUITS", "Settlement", "Trick", "split_pot"]
