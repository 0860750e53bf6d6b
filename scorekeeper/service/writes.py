"""Appending an event or an undo with optimistic concurrency: one writer per table, never a lost or doubled move."""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm.attributes import set_committed_value

from scorekeeper import metrics
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
from scorekeeper.service.snapshots import (
    Head,
    Snapshot,
    cache,
    judged_replay,
    rules_for,
    snapshot,
    state_json,
    written_head,
)
from scorekeeper.service.stored import Verdict
from scorekeeper.service.tables import NOT_TEXT, loaded_table

logger = logging.getLogger(__name__)


# --- Writing ---------------------------------------------------------------------------------


class Recorded:
    """A written move: its seq, the points it scored and the table's state after it. The state
    (the engine's messages in the reader's language) is worked out when asked for: the API sends
    it, while a page draws its sheet from the same snapshot and never reads it here."""

    __slots__ = ("seq", "scored", "_facts", "_snap", "_state")

    def __init__(self, seq: int, scored: list[dict[str, Any]], facts: TableFacts, snap: Snapshot) -> None:
        self.seq, self.scored, self._facts, self._snap = seq, scored, facts, snap
        self._state: dict[str, Any] | None = None

    @property
    def state(self) -> dict[str, Any]:
        if self._state is None:
            self._state = state_json(self._facts, self._snap)
        return self._state


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


def _conflict(facts: TableFacts, snap: Snapshot) -> TableError:
    """409: the sheet moved past the seq the phone expected; the answer carries the fresh one."""
    return TableError(409, "stale", tr("the sheet has moved on to seq %(seq)s; here is the fresh one", seq=snap.seq),
                      seq=snap.seq, state=state_json(facts, snap))


def _gone(facts: TableFacts) -> TableError:
    facts_cache.forget(facts.id)  # expired since this process last saw it
    return TableError(404, "not_found", tr("there is no table %(table)s", table=repr(facts.id)))


def _release_session() -> None:
    """End the request's session transaction before a write takes a connection of its own, so no
    phone ever holds two: thirty phones each holding one of the pool's connections while
    waiting for a second left none for the phones in front of them, and every write stalled
    until the pool's 30 s timeout (500). Nothing is pending here: views commit what they change
    before they record a move. With nothing pending the read is committed without expiring what
    it loaded, so the sheet drawn after the write finds the table in the session (reading it
    again was a fifth of a phone move's Python); ``_write`` then moves its head, or has it read
    afresh."""
    if db.session.registry.has():
        session = db.session()
        if session.in_transaction():
            if session.new or session.dirty or session.deleted:
                session.rollback()
                return
            keep, session.expire_on_commit = session.expire_on_commit, False
            try:
                session.commit()
            finally:
                session.expire_on_commit = keep


def _loaded_at(table_id: str, seq: int | None) -> None:
    """The session's table after a write: at its new head ``seq`` (the row's other columns are
    as read; ``updated_at``, written too, is read again if asked), or, when nothing was written
    (a refusal, a lost race, a 409: the table may have moved meanwhile), read afresh."""
    table = loaded_table(table_id)
    if table is None:
        return
    if seq is None:
        db.session.expire(table)
        return
    set_committed_value(table, "head_seq", seq)
    db.session.expire(table, ["updated_at"])


Effective = tuple[tuple[int, dict[str, Any]], ...]
# A move worked out: the payload to append, the state after it, the effective stack and the verdicts on stored moves.
Step = Callable[[TableFacts, Snapshot], tuple[dict[str, Any], Any, Effective, tuple[Verdict, ...]]]


@dataclass(frozen=True)
class _Written:
    seq: int
    state: Any
    facts: TableFacts


def _write(table: Table | TableFacts | str, step: Step, author: int | None,
           expected_seq: int | None = None) -> _Written:
    """Append what ``step`` derives from the state at the table's head, retrying on a lost race
    (or answering 409 when the caller named the seq it expected)."""
    started = time.perf_counter()
    facts = table_facts(table) if isinstance(table, str) else facts_of(table)
    _release_session()
    try:
        if db.engine.dialect.name == "sqlite":
            written = _write_sqlite(facts, step, author, expected_seq)
        else:
            written = _write_queued(facts, step, author, expected_seq)
            cache.put((facts.id, written.seq),
                      Snapshot(written.seq, written.state, written.effective, written.verdicts, written.head))
    except BaseException:
        _loaded_at(facts.id, None)
        raise
    _loaded_at(facts.id, written.seq)
    _announce(facts.id, written.seq)
    if getattr(written.state, "over", False):  # the game ended (or went on past its end): keep the outcome
        from scorekeeper.service.outcomes import finished

        finished(facts, written.seq)
    metrics.move_written(facts.game, time.perf_counter() - started, facts.id)
    return _Written(written.seq, written.state, facts)


@dataclass(frozen=True)
class _Appended:
    seq: int
    state: Any
    effective: Effective
    verdicts: tuple[Verdict, ...]
    head: Head


ATTEMPTS = 20  # races a write may lose in a row before it is told the table is busy (503)
_OPTIMISTIC = 2  # races a SQLite write loses to this process's phones before it queues for good

# SQLite has one writer at a time; its busy handler makes colliding writers sleep in steps of
# up to 100 ms. Queueing this process's writers on a lock instead keeps the tail short.
_sqlite_writer = threading.Lock()


def _from_database(facts: TableFacts) -> Snapshot:
    with store.pooled() as w:
        head = w.head(facts.id)
        if head is None:
            raise _gone(facts)
        return snapshot(facts, head, w.rows)


def _write_sqlite(facts: TableFacts, step: Step, author: int | None, expected_seq: int | None) -> _Appended:
    """SQLite: the move is worked out from the newest state this process holds, and only its
    three statements (claim the next seq if the head is still that state's, insert, commit) run
    under the writers' lock: twenty phones writing at once wait there for one another, and a
    lock holder that also ran the engine, or waited for the pool, held all of them up (in a
    threaded server each of its calls into SQLite lets the other threads run first). A phone of
    this process that moved the table meanwhile is seen before writing, one of another process
    by the claim, which then claims nothing; either way the move is worked out again.

    A phone that lost ``_OPTIMISTIC`` races works its move out holding the lock: racing alone,
    one of six phones lost twenty in a row to the others and was told the table was busy (issue
    40). Holding it, only another process or a deletion can get there first."""
    writer = store.sqlite_writer()
    trust_cache = True
    for attempt in range(ATTEMPTS):
        queued = attempt >= _OPTIMISTIC
        with _sqlite_writer if queued else nullcontext():
            snap = (cache.latest(facts.id) if trust_cache else None) or _from_database(facts)
            if expected_seq is not None and expected_seq != snap.seq:
                if trust_cache:  # this process may be behind another: ask the database before refusing
                    trust_cache = False
                    continue
                raise _conflict(facts, snap)
            payload, state, effective, verdicts = step(facts, snap)
            with nullcontext() if queued else _sqlite_writer:
                newest = cache.latest(facts.id)
                if newest is not None and newest.seq > snap.seq:
                    trust_cache = True
                    continue
                if writer is None:
                    with store.pooled() as w:
                        appended = w.append(facts.id, snap.seq, payload, author)
                else:
                    appended = writer.append(facts.id, snap.seq, payload, author)
                if appended:  # under the lock, so the next writer starts from it
                    head = written_head(author, payload, snap)
                    cache.put((facts.id, snap.seq + 1), Snapshot(snap.seq + 1, state, effective, verdicts, head))
                    return _Appended(snap.seq + 1, state, effective, verdicts, head)
        trust_cache = False  # another process wrote (or the table expired): read the head afresh
    with store.pooled() as w:
        if w.head(facts.id) is None:  # the last race was lost to the table's deletion: 404, not busy
            raise _gone(facts)
    raise TableError(503, "busy", tr("the table is too busy right now; try again"))


def _write_queued(facts: TableFacts, step: Step, author: int | None, expected_seq: int | None) -> _Appended:
    """PostgreSQL: writers of one table queue on its row (``SELECT … FOR UPDATE``, store.py) and
    work the move out once they hold it; racing a conditional update alone, one of thirty phones
    at once could lose twenty races in a row and be told the table was busy. Several workers
    write at once, so nothing here relies on this process having seen the newest state."""
    with store.pooled() as w:
        for _attempt in range(ATTEMPTS):
            head = w.head(facts.id)
            if head is None:
                raise _gone(facts)
            snap = snapshot(facts, head, w.rows)
            if expected_seq is not None and expected_seq != head:
                raise _conflict(facts, snap)
            payload, state, effective, verdicts = step(facts, snap)
            if w.append(facts.id, head, payload, author):
                return _Appended(head + 1, state, effective, verdicts, written_head(author, payload, snap))
            if expected_seq is not None:
                raise _conflict(facts, snapshot(facts, w.head(facts.id) or head, w.rows))
    raise TableError(503, "busy", tr("the table is too busy right now; try again"))


def record(table: Table | TableFacts | str, event: Any, expected_seq: Any = None, author: int | None = None, *,
           fitted: bool = False) -> Recorded:
    """Append one event. Without ``expected_seq`` a lost race is retried on the fresh state;
    with it, the caller is told the sheet moved (409). ``fitted``: the event fits its game's
    schema (see :func:`from_engine`)."""
    payload = check_event(event)
    if expected_seq is not None and (isinstance(expected_seq, bool) or not isinstance(expected_seq, int)):
        raise bad_request(tr("expected_seq must be a whole number"))

    def step(current: TableFacts, snap: Snapshot) -> tuple[dict[str, Any], Any, Effective, tuple[Verdict, ...]]:
        try:
            state = rules_for(current).apply(snap.state, payload)
        except (RuleViolation, *ENGINE_SLIPS) as exc:
            raise from_engine(exc, current.players, fitted=fitted, seq=snap.seq) from exc
        return payload, state, snap.effective + ((snap.seq + 1, payload),), snap.verdicts

    done = _write(table, step, author, expected_seq)
    players = done.facts.players
    return Recorded(done.seq, localize([s.to_json() for s in getattr(done.state, "scored", ())], players),
                    done.facts, Snapshot(done.seq, done.state))


def undo(table: Table | TableFacts | str, author: int | None = None, expected_seq: int | None = None) -> Recorded:
    def step(current: TableFacts, snap: Snapshot) -> tuple[dict[str, Any], Any, Effective, tuple[Verdict, ...]]:
        if not snap.effective:
            raise TableError(409, "nothing_to_undo", tr("there is nothing to undo"), seq=snap.seq)
        effective = snap.effective[:-1]
        state, verdicts = judged_replay(current, effective)
        return {"type": "undo", "undoes": snap.effective[-1][0]}, state, effective, verdicts

    done = _write(table, step, author, expected_seq)
    return Recorded(done.seq, [], done.facts, Snapshot(done.seq, done.state))


def _announce(table_id: str, seq: int) -> None:
    from scorekeeper.live import broker

    broker.publish(table_id, seq)


def announce_seats(table_id: str) -> None:
    """Someone took or left a seat at this table: every phone redraws who sits where, on every
    worker (PostgreSQL's NOTIFY, as a move is announced) and on this one at once."""
    import secrets

    from sqlalchemy import text

    from scorekeeper.live import CHANNEL, broker, seats_payload

    note = secrets.token_hex(8)
    if db.engine.dialect.name == "postgresql":
        db.session.execute(text("SELECT pg_notify(:channel, :payload)"),
                           {"channel": CHANNEL, "payload": seats_payload(table_id, note)})
        db.session.commit()
    broker.reseat(table_id, note)
