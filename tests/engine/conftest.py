"""Every engine test doubles as a check of the API's schema models (scorekeeper/schemas): each event
the engine accepts must fit its game's event model, and each state it shows its state model. The
models validate requests at the API boundary, so one that refuses what the engine accepts would
break a client; one that misses a state field would leave the OpenAPI document incomplete."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from scorekeeper.engine import RULES
from scorekeeper.engine.base import MalformedEvent
from scorekeeper.schemas import check_event, state_model


@pytest.fixture(autouse=True)
def every_event_and_state_fits_its_schema(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for game, rules in RULES.items():
        cls = type(rules)
        apply, to_json, model = cls.apply, cls.to_json, state_model(game)

        def checked_apply(self: Any, state: Any, event: Any, _apply: Any = apply, _game: str = game) -> Any:
            new = _apply(self, state, event)
            if type(event) is dict:
                try:
                    check_event(_game, event)
                except MalformedEvent as exc:
                    raise AssertionError(f"the engine accepts {event!r}, its schema refuses it: {exc.message}") from None
            return new

        def checked_json(self: Any, state: Any, _to_json: Any = to_json, _model: Any = model) -> Any:
            out = _to_json(self, state)
            _model.model_validate(out)
            return out

        monkeypatch.setattr(cls, "apply", checked_apply)
        monkeypatch.setattr(cls, "to_json", checked_json)
    yield
