"""Claiming the game at 16 during a deal (KASINO-VAR-CLAIM), in either mode."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from scorekeeper.engine.base import (
    RuleViolation,
)
from scorekeeper.engine.kasino.deal import active_player
from scorekeeper.engine.kasino.scoring import _claim_win, _claimable, _over_rule
from scorekeeper.engine.kasino.state import TARGET
from scorekeeper.engine.kasino.tally import _tally_claim_facts
from scorekeeper.engine.messages import M

if TYPE_CHECKING:
    from scorekeeper.engine.kasino.state import KasinoState

# --- claim and misdeal ---------------------------------------------------------------------------

def on_claim(s: KasinoState, event: Mapping[str, Any]) -> KasinoState:
    if not s.cfg.claim:
        raise RuleViolation("KASINO-VAR-CLAIM", M("claims are not part of this game (option claim is off)"))
    if s.phase == "over":
        raise RuleViolation(_over_rule(s), M("the game is over"))
    player = active_player(s, event)
    side = s.sides.side_of(player)
    if s.mode == "tally":
        facts = _tally_claim_facts(event)
        total = s.scores[side] + facts.settled + (facts.tabbes if s.cfg.claim_tabbe else 0)
    else:
        if s.phase != "play":
            raise RuleViolation("KASINO-VAR-CLAIM", M("a claim is made during a deal"))
        total = _claimable(s, side)
    if total < TARGET:
        raise RuleViolation("KASINO-VAR-CLAIM", M("%(player)s has only %(total)s settled points; a claim needs "
                                                  "%(target)s", player=s.players[player], total=total,
                                                  target=TARGET), claimable=total)
    return _claim_win(replace(s, scored=()), side, "KASINO-VAR-CLAIM", total)
