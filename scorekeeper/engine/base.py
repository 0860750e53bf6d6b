"""The names games and the web have always imported from here; they live in :mod:`.core`."""

from __future__ import annotations

from scorekeeper.engine.core import (
    JSON,
    MODES,
    BaseRules,
    Event,
    GameState,
    MalformedEvent,
    Mode,
    NotationError,
    OptionSpec,
    Outcome,
    Rules,
    RuleViolation,
    Scored,
    SetupError,
    Sides,
    common_json,
    evolve,
    int_field,
    str_field,
)

__all__ = [
    "JSON", "MODES", "BaseRules", "Event", "GameState", "MalformedEvent", "Mode", "NotationError",
    "OptionSpec", "Outcome", "RuleViolation", "Rules", "Scored", "SetupError", "Sides",
    "common_json", "evolve", "int_field", "str_field",
]
