"""Appending an event or an undo with optimistic concurrency: one writer per table, never a lost or doubled move."""

from __future__ import annotations

import contextlib
import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scorekeeper.engine.base import RuleViolation
from scorekeeper.extensions import db
from scorekeeper.localize import localize, tr
from scorekeeper.models import Table
from scorekeeper.service import store
from scorekeeper.service.errors import (
    ENGINE_SLIPS,
    MAX_EVENT_BYTES,
    TableError,
    bad_request,
    from_engine,
)
from scorekeeper.service.facts import TableFacts, facts_cache, facts_of, table_facts
from scorekeeper.service.snapshots import Snapshot, cache, replay, rules_for, snapshot, state_json
from scorekeeper.service.tables import NOT_TEXT

logger = logging.getLogger(__name__)


# --- Writing ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Recorded:
    seq: int
    scored: list[dict[str, Any]]
    state: dict[str, Any]


def check_event(event: Any) -> dict[str, Any]:
    if not isinstance(event, dict):
        raise TableError(400, "malformed_event", tr("an event must be a JSON object"))
    kind = event.get("type")
    if not isinstance(kind, str) or not kind or len(kind) > 32:
        raise TableError(400, "malformed_event", tr("an event needs a 'type'"))
    if kind == "undo":
        raise TableError(400, "malformed_event", tr("undo has its own call: POST …/undo"))
    if len(json.dumps(event)) > MAX_EVENT_BYTES:
        raise TableError(400, "malformed_event", tr("an event may hold at most %(n)s bytes", n=MAX_EVENT_BYTES))
    if _holds_non_text(event):
        raise TableError(400, "malformed_event", tr("an event's text may not hold NUL or lone surrogate characters"))
    return event


def _holds_non_text(value: Any) -> bool:
    stack = [value]
    while stack:  # a loop, not recursion: the nesting was bounded when the JSON was read, but need not be
        item = stack.pop()
        if isinstance(item, str):
            if NOT_TEXT.search(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _conflict(facts: TableFacts, w: store.Writer, head: int) -> TableError:
    """409: the sheet moved past the seq the phone expected; the answer carries the fresh one."""
    snap = snapshot(facts, head, w.rows)
    return TableError(409, "stale", tr("the sheet has moved on to seq %(seq)s; here is the fresh one", seq=head),
                      seq=head, state=state_json(facts, snap))


# SQLite has one writer at a time; its busy handler makes colliding writers sleep in steps of
# up to 100 ms. Queueing this process's writers on a lock instead keeps the tail short.
_sqlite_writer = threading.Lock()


@contextlib.contextmanager
def _writer_lock() -> Any:
    """SQLite: this process's writers one at a time. PostgreSQL: none here; writers of one
    table queue on its row (``FOR UPDATE``, store.py) — racing the conditional update alone, one
    of thirty phones at once could lose twenty races in a row and be told the table was busy."""
    if db.engine.dialect.name != "sqlite":
        yield
        return
    with _sqlite_writer:
        yield


def _release_session() -> None:
    """End the request's session transaction before a write takes its own connection, so no
    phone ever holds two: thirty phones each holding one of the pool's connections while
    waiting for a second (or for the writer's turn) left the writer in front of them none, and
    every write stalled until the pool's 30 s timeout (500). Nothing is pending here: views
    commit what they change before they record a move."""
    if db.session.registry.has():
        session = db.session()
        if session.in_transaction():
            session.rollback()


Step = Callable[[TableFacts, Snapshot], tuple[dict[str, Any], Any, tuple[tuple[int, dict[str, Any]], ...]]]


@dataclass(frozen=True)
class _Written:
    seq: int
    state: Any
    facts: TableFacts


def _write(table: Table | TableFacts | str, step: Step, author: int | None,
           expected_seq: int | None = None) -> _Written:
    """Append what ``step`` derives from the state at the table's head, retrying on a lost race
    (or answering 409 when the caller named the seq it expected)."""
    facts = table_facts(table) if isinstance(table, str) else facts_of(table)
    _release_session()
    with _writer_lock(), store.writer() as w:
        for _attempt in range(20):
            head = w.head(facts.id)
            if head is None:  # expired since this process last saw it
                facts_cache.forget(facts.id)
                raise TableError(404, "not_found", tr("there is no table %(table)s", table=repr(facts.id)))
            if expected_seq is not None and expected_seq != head:
                raise _conflict(facts, w, head)
            snap = snapshot(facts, head, w.rows)
            payload, state, effective = step(facts, snap)
            if w.append(facts.id, head, payload, author):
                cache.put((facts.id, head + 1), Snapshot(head + 1, state, effective))
                _announce(facts.id, head + 1)
                return _Written(head + 1, state, facts)
            if expected_seq is not None:
                raise _conflict(facts, w, w.head(facts.id) or head)
    raise TableError(503, "busy", tr("the table is too busy right now; try again"))


def record(table: Table | TableFacts | str, event: Any, expected_seq: Any = None, author: int | None = None) -> Recorded:
    """Append one event. Without ``expected_seq`` a lost race is retried on the fresh state;
    with it, the caller is told the sheet moved (409)."""
    payload = check_event(event)
    if expected_seq is not None and (isinstance(expected_seq, bool) or not isinstance(expected_seq, int)):
        raise bad_request(tr("expected_seq must be a whole number"))

    def step(current: TableFacts, snap: Snapshot) -> tuple[dict[str, Any], Any, tuple[tuple[int, dict[str, Any]], ...]]:
        try:
            state = rules_for(current).apply(snap.state, payload)
        except (RuleViolation, *ENGINE_SLIPS) as exc:
            raise from_engine(exc, current.players, seq=snap.seq) from exc
        return payload, state, snap.effective + ((snap.seq + 1, payload),)

    done = _write(table, step, author, expected_seq)
    players = done.facts.players
    return Recorded(done.seq, localize([s.to_json() for s in getattr(done.state, "scored", ())], players),
                    state_json(done.facts, Snapshot(done.seq, done.state)))


def undo(table: Table | TableFacts | str, author: int | None = None, expected_seq: int | None = None) -> Recorded:
    def step(current: TableFacts, snap: Snapshot) -> tuple[dict[str, Any], Any, tuple[tuple[int, dict[str, Any]], ...]]:
        if not snap.effective:
            raise TableError(409, "nothing_to_undo", tr("there is nothing to undo"), seq=snap.seq)
        effective = snap.effective[:-1]
        return {"type": "undo", "undoes": snap.effective[-1][0]}, replay(current, effective), effective

    done = _write(table, step, author, expected_seq)
    return Recorded(done.seq, [], state_json(done.facts, Snapshot(done.seq, done.state)))


def _announce(table_id: str, seq: int) -> None:
    from scorekeeper.live import broker

    broker.publish(table_id, seq)
