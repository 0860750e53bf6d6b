"""Refusals as the web layer answers them: the error type, its HTTP status and code, the limits."""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any

from scorekeeper.engine.base import MalformedEvent, NotationError, RuleViolation, SetupError
from scorekeeper.engine.core.protocol import OPTION_RULE
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


# The platform's own rule ids (docs/api.md): an event that fits the OpenAPI document, which takes
# every game's events and cannot know the table's position, but that this table cannot take.
TABLE_GAME_RULE = "TABLE-EVENT-1"  # this table's game and mode take no such event
TABLE_POSITION_RULE = "TABLE-EVENT-2"  # the position needs another field or value than the event holds
TABLE_NAMES_RULE = "TABLE-NAMES-1"  # players' names equal once case and invisible characters are ignored
TABLE_OPTION_RULE = OPTION_RULE  # an option the game has not, or a value it takes not (the engine reads options)
CIRCLE_TABLE_RULE = "CIRCLE-TABLE-1"  # the table a circle is asked to keep is not there


def _any_pack_reads(text: str) -> bool:
    """Whether ``text`` is a card in some pack's notation (the document's patterns): one of
    another pack at this table is this table's refusal, a string that is no card anywhere is not."""
    try:
        from scorekeeper.schemas.common import FRENCH_CARD, GERMAN_CARD  # pydantic: not on a phone
    except ImportError:
        return True
    return isinstance(text, str) and any(re.match(p, text.strip()) for p in (FRENCH_CARD, GERMAN_CARD))


def from_engine(exc: Exception, names: Sequence[str] | None = None, *, fitted: bool = False,
                **extra: Any) -> TableError:
    """The engine's refusal as the service's, its message in the reader's language with the
    players named (``names``: the table's players, seat by seat). ``fitted``: the event already
    fits the document's schema, so what the engine cannot read in it is this position's refusal
    (422 ``TABLE-EVENT-2``), not a malformed body (400)."""
    if fitted and isinstance(exc, NotationError) and not _any_pack_reads(exc.text):
        fitted = False  # no pack's notation at all ('1H'): bad notation, 400 as the contract says
    if fitted and isinstance(exc, (NotationError, MalformedEvent, *ENGINE_SLIPS)):
        err = from_engine(exc, names, **extra)
        return TableError(422, "illegal_move", err.message, TABLE_POSITION_RULE, **extra)
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
