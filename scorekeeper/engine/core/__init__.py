"""What every game shares: the Rules protocol, errors that carry a rule id, event field readers,
one ``evolve``, one proposal type, one dispatch, the registry. Imports no game."""

from __future__ import annotations

from scorekeeper.engine.core.dispatch import Alias, Dispatch, Handler, canonical
from scorekeeper.engine.core.errors import MalformedEvent, NotationError, RuleViolation, SetupError
from scorekeeper.engine.core.evolve import evolve, quick_init
from scorekeeper.engine.core.fields import (
    bool_field,
    card_field,
    cards_field,
    int_field,
    player_field,
    seat_list_field,
    str_field,
    suit_field,
)
from scorekeeper.engine.core.lenience import overrule, trusting
from scorekeeper.engine.core.proposal import Proposal
from scorekeeper.engine.core.protocol import (
    JSON,
    MODES,
    BaseRules,
    Event,
    GameState,
    Mode,
    OptionSpec,
    Outcome,
    Rules,
    Scored,
    Sides,
    common_json,
)
from scorekeeper.engine.core.registry import Registry
from scorekeeper.engine.core.replay import collector_paused, replay
from scorekeeper.engine.messages import M, Msg

__all__ = [
    "JSON", "MODES", "Alias", "BaseRules", "Dispatch", "Event", "GameState", "Handler", "M", "MalformedEvent", "Mode",
    "Msg", "NotationError", "OptionSpec", "Outcome", "Proposal", "Registry", "RuleViolation", "Rules", "Scored",
    "SetupError", "Sides", "bool_field", "canonical", "card_field", "cards_field", "collector_paused", "common_json",
    "evolve", "overrule", "quick_init", "replay", "trusting",
    "int_field", "player_field", "seat_list_field", "str_field", "suit_field",
]
