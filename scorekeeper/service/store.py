"""The write path's statements on the database driver itself, without the ORM.

Through the ORM, finding a table and appending an event cost about 1.8 ms of Python per write
(statement building, cache keys, the unit of work, result processing), against about 0.1 ms for
the same four statements on the driver (bench/README.md, issue 16). So a write runs exactly
these statements here, written once per dialect, and every value crosses over through the column
type's own converters, so a row written here reads back through the ORM exactly as one the ORM
wrote. Everything else (opening tables, seats, history, imports, reading pages) stays on the ORM.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from scorekeeper.extensions import db
from scorekeeper.live import CHANNEL
from scorekeeper.models import Event, utcnow
from scorekeeper.service.stored import load_payload

Convert = Callable[[Any], Any]


def _same(value: Any) -> Any:
    return value


@dataclass(frozen=True)
class Statements:
    """The statements of a write for one dialect, and the converters of the columns they carry."""

    head: str
    events: str
    claim: str
    insert: str
    notify: str | None
    payload_in: Convert
    payload_out: Convert
    stamp_in: Convert
    integrity: tuple[type[BaseException], ...]  # a lost race: the driver's own exception classes


def _statements(dialect: Any) -> Statements:
    p = "?" if dialect.paramstyle == "qmark" else "%s"
    postgres = dialect.name == "postgresql"
    events = Event.__table__.c
    payload = events.payload.type.dialect_impl(dialect)
    stamp = events.created_at.type.dialect_impl(dialect)  # tables.updated_at is the same DateTime
    dbapi = dialect.dbapi
    return Statements(
        # PostgreSQL: writers of one table queue on its row, then read the head; SQLite: this
        # process's writers already queue on a lock (writes.py), and SQLite has one writer anyway.
        head=f"SELECT head_seq FROM tables WHERE id = {p}" + (" FOR UPDATE" if postgres else ""),
        events=f"SELECT seq, payload FROM events WHERE table_id = {p} AND seq <= {p} ORDER BY seq",
        # Guarded by the head it read: a writer of another process that got there first makes it claim nothing.
        claim=f"UPDATE tables SET head_seq = {p}, updated_at = {p} WHERE id = {p} AND head_seq = {p}",
        insert=(f"INSERT INTO events (table_id, seq, type, payload, author, created_at) "
                f"VALUES ({p}, {p}, {p}, {p}, {p}, {p})"),
        # Inside the transaction: a rolled-back write is never announced to the other workers.
        notify=f"SELECT pg_notify({p}, {p})" if postgres else None,
        payload_in=payload.bind_processor(dialect) or _same,
        payload_out=payload.result_processor(dialect, None) or _same,
        stamp_in=stamp.bind_processor(dialect) or _same,
        integrity=(dbapi.IntegrityError, dbapi.OperationalError),
    )


# Per engine's dialect (tests open many apps in one process); written once, read on every write.
_made: weakref.WeakKeyDictionary[Any, Statements] = weakref.WeakKeyDictionary()


def statements(dialect: Any) -> Statements:
    made = _made.get(dialect)
    if made is None:
        made = _made[dialect] = _statements(dialect)
    return made


class Writer:
    """A driver connection (pooled, or the one SQLite's writers share): read a table's head and
    log, append an event in one transaction."""

    def __init__(self, connection: Any, sql: Statements) -> None:
        self._connection = connection
        self._cursor = connection.cursor()
        self._sql = sql

    def head(self, table_id: str) -> int | None:
        self._cursor.execute(self._sql.head, (table_id,))
        row = self._cursor.fetchone()
        return None if row is None else int(row[0])

    def rows(self, table_id: str, upto: int) -> list[tuple[int, dict[str, Any]]]:
        self._cursor.execute(self._sql.events, (table_id, upto))
        load, fetched = self._sql.payload_out, self._cursor.fetchall()
        try:
            return [(int(seq), load(payload)) for seq, payload in fetched]
        except ValueError:  # a payload that is not JSON (a truncated write): the rest still reads
            return [(int(seq), load_payload(payload)) for seq, payload in fetched]

    def append(self, table_id: str, head: int, payload: dict[str, Any], author: int | None) -> bool:
        """Claim ``head + 1`` for ``payload`` and commit; False (rolled back) when another writer
        moved the table first."""
        sql, seq, now = self._sql, head + 1, self._sql.stamp_in(utcnow())
        try:
            self._cursor.execute(sql.claim, (seq, now, table_id, head))
            if self._cursor.rowcount != 1:
                self._connection.rollback()
                return False
            self._cursor.execute(sql.insert, (table_id, seq, payload["type"], sql.payload_in(payload), author, now))
            if sql.notify:
                self._cursor.execute(sql.notify, (CHANNEL, f"{table_id}:{seq}"))
            self._connection.commit()
        except sql.integrity:
            self._connection.rollback()
            return False
        except BaseException:
            # Never leave SQLite's write lock held by the connection this process keeps for writing.
            self._connection.rollback()
            raise
        return True


@contextmanager
def pooled() -> Iterator[Writer]:
    """A pooled connection for one write or read. Closing it hands it back to the pool, which
    rolls back whatever was not committed (a refused move, a lost race)."""
    engine = db.engine
    connection = engine.raw_connection()
    try:
        yield Writer(connection, statements(engine.dialect))
    finally:
        connection.close()


_sqlite_writers: weakref.WeakKeyDictionary[Any, Writer] = weakref.WeakKeyDictionary()
_opening = threading.Lock()


def sqlite_writer() -> Writer | None:
    """SQLite: the connection this process writes on, kept for good — its writers take turns on a
    lock anyway (writes.py), so each write skips the pool's checkout, reset and return. None for a
    database only one connection can see (``:memory:``): there every write uses the pool."""
    engine = db.engine
    writer = _sqlite_writers.get(engine)
    if writer is None:
        if engine.url.database in (None, "", ":memory:"):
            return None
        with _opening:
            writer = _sqlite_writers.get(engine)
            if writer is None:
                writer = _sqlite_writers[engine] = Writer(engine.raw_connection(), statements(engine.dialect))
    return writer
