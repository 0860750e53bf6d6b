"""The rules of every game, pure Python. ``RULES`` maps a game id to its rules object."""

from __future__ import annotations

from typing import Any

from scorekeeper.engine.base import MalformedEvent, NotationError, RuleViolation, SetupError
from scorekeeper.engine.kasino import Kasino
from scorekeeper.engine.mousel import Mousel
from scorekeeper.engine.muggins import Muggins
from scorekeeper.engine.mulatschak import Mulatschak
from scorekeeper.engine.mulle import Mulle
from scorekeeper.engine.scorepad import ScorePad

# Each game module adds itself here; the order is the order of the "new table" form.
RULES: dict[str, Any] = {}


def _register(rules: Any) -> None:
    RULES[rules.id] = rules


_register(ScorePad())
_register(Kasino())
_register(Muggins())
_register(Mulatschak())
_register(Mousel())
_register(Mulle())

__all__ = ["RULES", "MalformedEvent", "NotationError", "RuleViolation", "SetupError"]
