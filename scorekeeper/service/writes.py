"""Appending an event or an undo with optimistic concurrency: one writer per table, never a lost or doubled move."""

from __future__ import annotations

import contextlib
import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.attributes import set_committed_value

from scorekeeper.engine import RULES
from scorekeeper.engine.base import RuleViolation
from scorekeeper.extensions import db
from scorekeeper.localize import localize, tr
from scorekeeper.models import Event, Table, utcnow
from scorekeeper.service.errors import (
    ENGINE_SLIPS,
    MAX_EVENT_BYTES,
    TableError,
    bad_request,
    from_engine,
)
from scorekeeper.service.snapshots import Snapshot, cache, replay, rules_for, snapshot, state_json
from scorekeeper.service.tables import NOT_TEXT, get_table

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


def _conflict(table_id: str) -> TableError:
    db.session.rollback()
    table = get_table(table_id)
    return TableError(409, "stale", tr("the sheet has moved on to seq %(seq)s; here is the fresh one", seq=table.head_seq),
                      seq=table.head_seq, state=state_json(table))


def _append(table: Table, seq: int, payload: dict[str, Any], author: int | None) -> bool:
    """Claim ``seq`` for ``payload``; False when another phone got there first."""
    from scorekeeper.live import notify_in_transaction

    # No session synchronisation: the table object is expired by the commit that follows and its
    # head is not read again in this request (evaluating the criteria against it cost more than SQLite).
    claimed = db.session.execute(
        update(Table).where(Table.id == table.id, Table.head_seq == seq - 1)
        .values(head_seq=seq, updated_at=utcnow()).execution_options(synchronize_session=False)
    ).rowcount
    if claimed != 1:
        db.session.rollback()
        return False
    # A Core insert: the event is never read back in this request, so the unit of work has nothing to track.
    db.session.execute(insert(Event).values(table_id=table.id, seq=seq, type=payload["type"], payload=payload,
                                            author=author, created_at=utcnow()))
    notify_in_transaction(db.session, table.id, seq)
    try:
        db.session.commit()
    except (IntegrityError, OperationalError):
        db.session.rollback()
        return False
    return True


# SQLite has one writer at a time; its busy handler makes colliding writers sleep in steps of
# up to 100 ms. Queueing this process's writers on a lock instead keeps the tail short.
_sqlite_writer = threading.Lock()


@contextlib.contextmanager
def _writer_lock() -> Any:
    """SQLite: this process's writers one at a time. A writer that has to wait gives its pooled
    connection back first: fifteen phones waiting here while holding the pool's fifteen
    connections left the writer in front of them none to retry with, and every write stalled
    until the pool's 30 s timeout (500). What it read before waiting is stale by then anyway."""
    if db.engine.dialect.name != "sqlite":
        yield
        return
    if not _sqlite_writer.acquire(blocking=False):
        db.session.rollback()  # ends the read transaction; the table's row is read again inside
        _sqlite_writer.acquire()
    try:
        yield
    finally:
        _sqlite_writer.release()


def _queue_on_row(table: Table) -> None:
    """PostgreSQL: writers of one table wait their turn on its row (``FOR UPDATE``) and then read
    the head. Racing the conditional update alone, one of thirty phones at once could lose twenty
    races in a row and be told the table was busy (503)."""
    if db.engine.dialect.name != "postgresql":
        return
    head = db.session.execute(select(Table.head_seq).where(Table.id == table.id).with_for_update()).scalar()
    if head is None:  # expired while this phone was writing
        db.session.rollback()
        raise TableError(404, "not_found", tr("there is no table %(table)s", table=repr(table.id)))
    set_committed_value(table, "head_seq", head)  # what the lock read, without another round trip


Step = Callable[[Table, Snapshot], tuple[dict[str, Any], Any, tuple[tuple[int, dict[str, Any]], ...]]]


@dataclass(frozen=True)
class _Written:
    seq: int
    state: Any
    game: str
    players: list[str]  # read before the commit, which expires the table (reading it after was a fourth query)


def _write(table: Table | str, step: Step, author: int | None, expected_seq: int | None = None) -> _Written:
    """Append what ``step`` derives from the current snapshot, retrying on a lost race
    (or answering 409 when the caller named the seq it expected)."""
    table_id = table if isinstance(table, str) else table.id
    current = table if isinstance(table, Table) else None
    with _writer_lock():
        for _attempt in range(20):
            current = current or get_table(table_id)
            _queue_on_row(current)
            if expected_seq is not None and expected_seq != current.head_seq:
                raise _conflict(table_id)
            snap = snapshot(current)
            payload, state, effective = step(current, snap)
            seq = current.head_seq + 1
            game, players = current.game, current.players
            if _append(current, seq, payload, author):
                cache.put((table_id, seq), Snapshot(seq, state, effective))
                _announce(table_id, seq)
                return _Written(seq, state, game, players)
            if expected_seq is not None:
                raise _conflict(table_id)
            db.session.expire_all()
            current = None
    raise TableError(503, "busy", tr("the table is too busy right now; try again"))


def record(table: Table | str, event: Any, expected_seq: Any = None, author: int | None = None) -> Recorded:
    """Append one event. Without ``expected_seq`` a lost race is retried on the fresh state;
    with it, the caller is told the sheet moved (409)."""
    payload = check_event(event)
    if expected_seq is not None and (isinstance(expected_seq, bool) or not isinstance(expected_seq, int)):
        raise bad_request(tr("expected_seq must be a whole number"))

    def step(current: Table, snap: Snapshot) -> tuple[dict[str, Any], Any, tuple[tuple[int, dict[str, Any]], ...]]:
        try:
            state = rules_for(current).apply(snap.state, payload)
        except (RuleViolation, *ENGINE_SLIPS) as exc:
            db.session.rollback()
            raise from_engine(exc, current.players, seq=snap.seq) from exc
        return payload, state, snap.effective + ((snap.seq + 1, payload),)

    done = _write(table, step, author, expected_seq)
    rules = RULES[done.game]
    return Recorded(done.seq, localize([s.to_json() for s in getattr(done.state, "scored", ())], done.players),
                    localize(dict(rules.to_json(done.state)), done.players))


def undo(table: Table | str, author: int | None = None, expected_seq: int | None = None) -> Recorded:
    def step(current: Table, snap: Snapshot) -> tuple[dict[str, Any], Any, tuple[tuple[int, dict[str, Any]], ...]]:
        if not snap.effective:
            db.session.rollback()
            raise TableError(409, "nothing_to_undo", tr("there is nothing to undo"), seq=snap.seq)
        effective = snap.effective[:-1]
        return {"type": "undo", "undoes": snap.effective[-1][0]}, replay(current, effective), effective

    done = _write(table, step, author, expected_seq)
    return Recorded(done.seq, [], localize(dict(RULES[done.game].to_json(done.state)), done.players))


def _announce(table_id: str, seq: int) -> None:
    from scorekeeper.live import broker

    broker.publish(table_id, seq)
