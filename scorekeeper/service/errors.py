"""Refusals as the web layer answers them: the error type, its HTTP status and code, the limits."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from scorekeeper.engine.base import MalformedEvent, NotationError, RuleViolation, SetupError
from scorekeeper.localize import localize, tr

logger = logging.getLogger(__name__)


MAX_NAME = 40
MAX_EVENT_BYTES = 8_000
MAX_EVENTS_PER_IMPORT = 20_000


class TableError(Exception):
    """Anything the service refuses; carries its HTTP status and the rule id where there is one."""

    def __init__(self, status: int, code: str, message: str, rule: str | None = None,
                 headers: dict[str, str] | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.headers = headers or {}  # sent beside the body (Retry-After of a 503), not in it
        self.status = status
        self.code = code
        self.message = message
        self.rule = rule
        self.extra = extra

    def to_json(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "rule": self.rule, "message": self.message}, **self.extra}


def bad_request(message: str) -> TableError:
    return TableError(400, "bad_request", message)


# An engine that trips over a strange payload (a list where a card was expected, …) must not
# take the table down: the request is refused as malformed and the bug is logged.
ENGINE_SLIPS = (TypeError, KeyError, IndexError, AttributeError, ValueError, RecursionError)


def from_engine(exc: Exception, names: Sequence[str] | None = None, **extra: Any) -> TableError:
    """The engine's refusal as the service's, its message in the reader's language with the
    players named (``names``: the table's players, seat by seat)."""
    if isinstance(exc, NotationError):
        return TableError(400, "bad_notation", tr(exc.template, **exc.values), **extra)
    if isinstance(exc, MalformedEvent):
        return TableError(400, "malformed_event", localize(exc.message, names), **extra)
    if isinstance(exc, SetupError):
        return TableError(422, "unsupported", localize(exc.message, names), exc.rule, **extra)
    if isinstance(exc, RuleViolation):
        return TableError(422, "illegal_move", localize(exc.message, names), exc.rule, **extra)
    if isinstance(exc, ENGINE_SLIPS):
        logger.exception("engine error on an event")
        return TableError(400, "malformed_event", tr("this event cannot be read (%(error)s)",
                                                     error=type(exc).__name__), **extra)
    raise exc
