"""Every game's events and states as schema models (pydantic): the event contract written once.

The API checks each event's shape against its game's models before the engine sees it, and the
OpenAPI document (``/api/v1/openapi.json``) is generated from the same models. The engine keeps
every rule check (422 with the rule id) and the reading of cards; a shape error is 400
``malformed_event``, as it was when only the engine looked.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import ModuleType
from typing import Annotated, Any, Union

from pydantic import Field, TypeAdapter, ValidationError

from scorekeeper.engine.base import MalformedEvent
from scorekeeper.schemas import kasino, mousel, muggins, mulatschak, mulle, scorepad
from scorekeeper.schemas.common import Event, State

GAMES: Mapping[str, ModuleType] = {"scorepad": scorepad, "mulle": mulle, "kasino": kasino,
                                   "mulatschak": mulatschak, "mousel": mousel, "muggins": muggins}
REF = "#/components/schemas/{model}"


@cache
def event_models(game: str) -> dict[str, type[Event]]:
    """The game's event models by their ``type``."""
    return {model.model_fields["type"].annotation.__args__[0]: model
            for model in GAMES[game].EVENTS}


def state_model(game: str) -> type[State]:
    return GAMES[game].STATE  # type: ignore[no-any-return]


def check_event(game: str, event: Mapping[str, Any]) -> None:
    """Raise :class:`MalformedEvent` unless ``event`` has the shape of one of the game's events."""
    if game not in GAMES:
        return
    models = event_models(game)
    kind = event.get("type")
    model = models.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise MalformedEvent(f"{game} has no {kind!r} event (events: {', '.join(sorted(models))})", event)
    try:
        model.model_validate(event)
    except ValidationError as exc:
        raise MalformedEvent(_message(exc), event) from None


_TYPE_WORDS = {"int_type": "a whole number", "string_type": "text", "bool_type": "true or false",
               "list_type": "a list", "dict_type": "an object", "model_type": "an object",
               "model_attributes_type": "an object", "greater_than_equal": "at least 0"}


def _message(exc: ValidationError) -> str:
    error = exc.errors(include_url=False)[0]
    path = ".".join(str(part) for part in error["loc"] if isinstance(part, int) or "[" not in str(part)
                    and part not in {"str", "int", "bool", "list", "dict", "none"})
    if error["type"] == "missing":
        return f"the event needs {path!r}"
    wanted = _TYPE_WORDS.get(error["type"])
    if wanted:
        return f"{path!r} must be {wanted}, not {error['input']!r}"
    return f"{path!r}: {error['msg']}"


@cache
def components() -> dict[str, Any]:
    """OpenAPI component schemas: every event type of every game, one ``<Game>Event`` union per game
    (discriminated on ``type``) and one ``<Game>State`` per game."""
    schemas: dict[str, Any] = {}
    for game, module in GAMES.items():
        union: Any = Annotated[Union[tuple(module.EVENTS)], Field(discriminator="type")]  # noqa: UP007
        if len(module.EVENTS) == 1:
            union = module.EVENTS[0]
        events = TypeAdapter(union).json_schema(ref_template=REF)
        schemas.update(events.pop("$defs", {}))
        name = game.title()
        if len(module.EVENTS) == 1:
            schemas[module.EVENTS[0].__name__] = events
            events = {"oneOf": [{"$ref": REF.format(model=module.EVENTS[0].__name__)}]}
        schemas[f"{name}Event"] = {"title": f"{name}Event", "description": f"Any {game} event.", **events}
        state = module.STATE.model_json_schema(ref_template=REF, mode="serialization")
        schemas.update(state.pop("$defs", {}))
        schemas[module.STATE.__name__] = state
    return schemas


def event_type_count() -> int:
    """How many event types the document describes (aliases not counted)."""
    return sum(1 for module in GAMES.values() for model in module.EVENTS
               if not (model.model_config.get("json_schema_extra") or {}).get("deprecated"))


__all__ = ["GAMES", "check_event", "components", "event_models", "event_type_count", "state_model"]
