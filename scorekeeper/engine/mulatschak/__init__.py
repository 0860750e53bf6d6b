"""Mulatschak (Salzburg rules): every phase of a deal, the sheet from 21 down to 0, and tally mode.

Spec: rules/mulatschak.md. One event per thing said or done at the table (docs/api.md, section Mulatschak).
Hands are hidden: the engine knows a card's whereabouts only when it is played, shown (a collapse,
a face-up exchange card, the kept Weli, the Sau or the seven shown for an exchange) or when a
player enters their hand. Follow/trump/beat duties are checked live against an entered hand and
otherwise retroactively (rules README §4): a proven revoke becomes a proposal the table confirms
or dismisses, and a confirmed one is scored by MULAT-SCORE-9.
"""

from __future__ import annotations

from scorekeeper.engine.mulatschak.rules import Mulatschak
from scorekeeper.engine.mulatschak.scoring import deal_changes, stay_home_cost
from scorekeeper.engine.mulatschak.state import (
    BID_LIMIT,
    BREACH_RULES,
    HIGH_RANKS,
    ORDER,
    START,
    STAY_LIMIT,
    SUIT_NAMES,
    SUITS,
    WELI,
    Call,
    Deal,
    Exchange,
    M,
    MulState,
    Opts,
    Phase,
    Row,
    doubling_causes,
)
from scorekeeper.engine.mulatschak.tally import resume

__all__ = ["BID_LIMIT", "BREACH_RULES", "Call", "Deal", "Exchange", "HIGH_RANKS", "M", "MulState", "Mulatschak", "ORDER", "Opts", "Phase", "Row", "START", "STAY_LIMIT", "SUITS", "SUIT_NAMES", "WELI", "deal_changes", "doubling_causes", "resume", "stay_home_cost"]
