"""The rules of every game, pure Python. ``RULES`` maps a game id to its rules object."""

from __future__ import annotations

from scorekeeper.engine.core import (
    MalformedEvent,
    NotationError,
    Registry,
    RuleViolation,
    SetupError,
)
from scorekeeper.engine.kasino import Kasino
from scorekeeper.engine.mousel import Mousel
from scorekeeper.engine.muggins import Muggins
from scorekeeper.engine.mulatschak import Mulatschak
from scorekeeper.engine.mulle import Mulle
from scorekeeper.engine.scorepad import ScorePad

# Raised with every release that judges some move otherwise than the one before; CHANGELOG.md
# lists each such change by rule id under its version. A table records the version it began under.
RULES_VERSION = 3

# The order is the order of the "new table" form.
RULES = Registry(ScorePad(), Kasino(), Muggins(), Mulatschak(), Mousel(), Mulle())

__all__ = ["RULES", "RULES_VERSION", "MalformedEvent", "NotationError", "RuleViolation", "SetupError"]
