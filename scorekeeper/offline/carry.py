"""A phone's copy saved by an older build, opened by this one: nothing lost.

The phone keeps its whole SQLite database in IndexedDB (``phone.py``), and ``create_all`` never
adds a column to a table that exists. So the database carries a mark of the schema that wrote it
(SQLite's ``user_version``, inside the bytes the phone stores); when the mark differs, the old
database is read with plain SQL and each table is carried over into a fresh one — its rows copied
column by column (a column this build added takes its default) and its log replayed through the
engine before it counts as carried. A table that cannot be carried is kept whole
(``marks.keep``) and shown on the phone's home page, never dropped.
"""

from __future__ import annotations

import base64
import functools
import json
import sqlite3
import zlib
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, insert
from sqlalchemy.dialects import sqlite
from sqlalchemy.schema import CreateTable

from scorekeeper import phone_marks as marks
from scorekeeper.extensions import db

# The event store's tables, parents first; each row belongs to one table (``id`` or ``table_id``).
STORE = ("tables", "seats", "events")


@functools.cache  # the tables are this build's: compiling their DDL again at every start was 10 % of one
def schema_mark() -> int:
    """A number for this build's schema (0 is an unmarked copy: every build before the mark)."""
    ddl = [str(CreateTable(table).compile(dialect=sqlite.dialect())).strip() for table in db.metadata.sorted_tables]
    return zlib.crc32("\n".join([*ddl, *marks.DDL]).encode()) & 0x7FFFFFFF or 1


def mark_of(connection: sqlite3.Connection) -> int:
    """The copy's schema mark; -1 for bytes SQLite cannot read (carried over, i.e. kept whole)."""
    try:
        return int(connection.execute("PRAGMA user_version").fetchone()[0])
    except sqlite3.DatabaseError:
        return -1


def set_mark(connection: sqlite3.Connection) -> None:
    connection.execute(f"PRAGMA user_version = {schema_mark():d}")


def _names(old: sqlite3.Connection) -> set[str]:
    return {row[0] for row in old.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _typed(name: str, row: dict[str, Any]) -> dict[str, Any]:
    """An old row's values as this build's columns take them; columns it no longer has are dropped."""
    values = {}
    for column in db.metadata.tables[name].columns:
        if column.name not in row:
            continue  # new in this build: its default
        value = row[column.name]
        if isinstance(value, str) and isinstance(column.type, JSON):
            value = json.loads(value)
        elif isinstance(value, str) and isinstance(column.type, DateTime):
            value = datetime.fromisoformat(value)
        values[column.name] = value
    return values


def carry_over(old: sqlite3.Connection) -> list[str]:
    """Carry every table of ``old`` into the app's (fresh) database; the ids of the tables kept."""
    from scorekeeper import service

    old.row_factory = sqlite3.Row
    kept: list[str] = []
    try:
        names = _names(old)
        tables = old.execute("SELECT * FROM tables").fetchall() if "tables" in names else []
    except sqlite3.DatabaseError as exc:
        # Not a database this SQLite can read: the bytes are kept as they were, for download.
        whole = old.serialize()
        copy_id = f"copy-{zlib.crc32(whole):08x}"
        marks.keep(copy_id, "?", [], f"{type(exc).__name__}: {exc}",
                   {"database_base64": base64.b64encode(whole).decode()})
        db.session.commit()
        return [copy_id]
    for table_row in tables:
        table_id = table_row["id"]
        rows = {"tables": [dict(table_row)]}
        for name in STORE[1:]:
            rows[name] = [dict(r) for r in old.execute(f"SELECT * FROM {name} WHERE table_id = ?", (table_id,))] \
                if name in names else []
        try:
            for name in STORE:
                if rows[name]:  # one executemany a table: a long log is thousands of rows
                    db.session.execute(insert(db.metadata.tables[name]), [_typed(name, row) for row in rows[name]])
            service.snapshot(service.get_table(table_id))  # the log replays through this engine
        except Exception as exc:  # noqa: BLE001 - whatever stops it, the table is kept, not lost
            db.session.rollback()
            service.cache.clear()
            service.facts_cache.clear()
            players = [seat.get("name") for seat in rows["seats"]]
            marks.keep(table_id, table_row["game"] if "game" in table_row.keys() else "?", players,
                       f"{type(exc).__name__}: {exc}"[:500], rows)
            kept.append(table_id)
        db.session.commit()
    if "phone_moved" in names:
        for table_id, url in old.execute("SELECT table_id, url FROM phone_moved"):
            marks.mark_moved(table_id, url)
    if "phone_origin" in names:
        for table_id, origin in old.execute("SELECT table_id, origin FROM phone_origin"):
            marks.set_origin(table_id, origin)
    if "phone_kept" in names:
        for row in old.execute("SELECT * FROM phone_kept").fetchall():
            keep = dict(row)
            marks.keep(keep["table_id"], keep.get("game"), json.loads(keep.get("players") or "[]"),
                       str(keep.get("reason")), json.loads(keep.get("rows") or "{}"))
    db.session.commit()
    return kept
