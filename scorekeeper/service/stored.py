"""Stored moves the current rules judge otherwise, and stored entries that are no event at all.

A table's log is what its players accepted, under the rules of the version that served them.
A later version may judge a move otherwise (a rules fix), or find an entry it cannot read (an
older format, a hand edit, a truncated write). The replay then never fails: the fast fold runs
as always, and only when it is refused does the replay walk the log one move at a time, noting
for each refused move what the current rules cite:

* ``stands``: the engine carries the move out as the table accepted it (:func:`trusting`);
* ``set_aside``: the engine cannot carry it out at all; the state goes on without it;
* ``damaged``: the entry is not an event this version can read; the state goes on without it.

The log itself is never rewritten; every reader shows the note beside the move.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Text, cast, select

from scorekeeper.engine.core import (
    MalformedEvent,
    NotationError,
    RuleViolation,
    collector_paused,
    trusting,
)
from scorekeeper.engine.messages import M, Msg
from scorekeeper.extensions import db
from scorekeeper.localize import localize
from scorekeeper.models import Event
from scorekeeper.service.errors import ENGINE_SLIPS

logger = logging.getLogger(__name__)

STATUSES = ("stands", "set_aside", "damaged")


class Unreadable(str):
    """The text of a payload column that does not hold JSON (a truncated write), as it is stored."""


@dataclass(frozen=True)
class Verdict:
    """What the current rules say about the stored move at ``seq``."""

    seq: int
    status: str  # one of STATUSES
    rule: str | None
    message: Msg | str

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "status": self.status, "rule": self.rule, "message": self.message}


def verdicts_json(verdicts: Sequence[Verdict], players: Sequence[str]) -> list[dict[str, Any]]:
    """The verdicts as the API shows them, in the reader's language."""
    return localize([v.to_json() for v in verdicts], players)  # type: ignore[no-any-return]


def is_event(payload: Any) -> bool:
    """A payload shaped like an event at all: an object with a type."""
    return isinstance(payload, dict) and isinstance(payload.get("type"), str)


def damage(payload: Any, exc: BaseException | None = None) -> Msg:
    """Why an entry cannot be read, in words for the table."""
    if isinstance(payload, Unreadable):
        return M("the stored entry is not JSON (cut off after %(n)s characters?)", n=len(payload))
    if not isinstance(payload, dict):
        return M("the stored entry is not an event object")
    if not isinstance(payload.get("type"), str):
        return M("the stored entry has no event type")
    if isinstance(exc, MalformedEvent):
        return M("the stored entry cannot be read: %(why)s", why=exc.message)
    if isinstance(exc, NotationError):
        return M("the stored entry names a card this version cannot read")
    return M("the stored entry cannot be read (%(error)s)", error=type(exc).__name__)


def lenient_fold(rules: Any, state: Any, effective: Sequence[tuple[int, Any]]) -> tuple[Any, tuple[Verdict, ...]]:
    """``state`` after each stored move in turn, never failing on one; the verdicts on those the
    current rules refuse. Slower than the plain fold: it is run only once that has been refused."""
    verdicts: list[Verdict] = []
    apply = rules.apply
    with collector_paused():
        for seq, payload in effective:
            try:
                state = apply(state, payload)
                continue
            except RuleViolation as exc:
                refused = exc
            except (MalformedEvent, *ENGINE_SLIPS) as exc:
                verdicts.append(Verdict(seq, "damaged", None, damage(payload, exc)))
                continue
            try:
                with trusting():
                    state = apply(state, payload)
            except (RuleViolation, MalformedEvent, *ENGINE_SLIPS):
                status = "set_aside"
            else:
                status = "stands"
            verdicts.append(Verdict(seq, status, refused.rule, refused.message))
    return state, tuple(verdicts)


def unreadable_rows(table_id: str, upto: int | None = None) -> list[tuple[int, Any, int | None, Any]]:
    """:func:`raw_rows`, after the JSON type failed on the table's log: said in the server's log."""
    db.session.rollback()
    logger.warning("table %s holds a stored entry that is not JSON", table_id)
    return raw_rows(table_id, upto)


def load_payload(raw: Any) -> Any:
    """A payload column's value as stored text may hold it: JSON, else :class:`Unreadable`."""
    if not isinstance(raw, (str, bytes)):
        return raw
    try:
        return json.loads(raw)
    except ValueError:
        return Unreadable(raw if isinstance(raw, str) else raw.decode("utf-8", "replace"))


def raw_rows(table_id: str, upto: int | None = None) -> list[tuple[int, Any, int | None, Any]]:
    """(seq, payload, author, created_at) of a table's log, read as text and decoded one by one: the
    way round a log whose column holds text that is not JSON, which the JSON type cannot load."""
    query = select(Event.seq, cast(Event.payload, Text), Event.author, Event.created_at).where(
        Event.table_id == table_id)
    if upto is not None:
        query = query.where(Event.seq <= upto)
    rows = db.session.execute(query.order_by(Event.seq)).all()
    return [(seq, load_payload(text), author, at) for seq, text, author, at in rows]
