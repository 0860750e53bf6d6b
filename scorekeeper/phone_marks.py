"""What the phone alone notes about its tables, beside the event store: a table that moved to the
server (and where), and a table a newer build could not carry over from an older copy (kept whole).

Plain SQL tables, created on the phone's database only: the server never has them, so they are no
model and need no migration. Read only when ``config["PHONE"]`` is set. The phone's app
(``offline/``) writes them; the web layer's pages ask whether a table moved (its copy is then
read-only). So the module sits below both, and the web layer never imports the phone's app.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from flask import current_app
from sqlalchemy import text

from scorekeeper.extensions import db

DDL = (
    "CREATE TABLE IF NOT EXISTS phone_moved (table_id TEXT PRIMARY KEY, url TEXT NOT NULL, at TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS phone_kept (table_id TEXT PRIMARY KEY, game TEXT, players TEXT, "
    "reason TEXT NOT NULL, rows TEXT NOT NULL, at TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS phone_origin (table_id TEXT PRIMARY KEY, origin TEXT NOT NULL)",
)


def ensure() -> None:
    for statement in DDL:
        db.session.execute(text(statement))
    db.session.commit()


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def _looked_up() -> dict[str, str | None]:
    """The answers found so far, kept for the app's life: every move asks, and a query through the
    session was 3% of a move's Python. Only this module writes the table, on this app's one
    database, so an answer stays true until ``mark_moved`` or ``forget_moved`` changes it; a
    database opened anew (``open_phone``) starts with ``forget_all``."""
    found: dict[str, str | None] = current_app.extensions.setdefault("scorekeeper.phone_moved", {})
    return found


def forget_all() -> None:
    """The database was replaced: nothing known about it yet."""
    _looked_up().clear()


_MOVED_TO = text("SELECT url FROM phone_moved WHERE table_id = :t")  # built once: every request asks


def moved_to(table_id: str) -> str | None:
    """The server's join link of a table this phone put on the server: its copy here is read-only."""
    found = _looked_up()
    if table_id not in found:
        url = db.session.execute(_MOVED_TO, {"t": table_id}).scalar()
        found[table_id] = str(url) if url else None
    return found[table_id]


def mark_moved(table_id: str, url: str) -> None:
    db.session.execute(text("INSERT OR REPLACE INTO phone_moved (table_id, url, at) VALUES (:t, :u, :a)"),
                       {"t": table_id, "u": url, "a": _now()})
    db.session.commit()
    _looked_up()[table_id] = url


def keep(table_id: str, game: Any, players: list[Any], reason: str, rows: dict[str, Any]) -> None:
    """Keep a table this build could not carry over: every row as the older build stored it."""
    db.session.execute(
        text("INSERT OR REPLACE INTO phone_kept (table_id, game, players, reason, rows, at) "
             "VALUES (:t, :g, :p, :r, :rows, :a)"),
        {"t": table_id, "g": str(game), "p": json.dumps([str(p) for p in players], ensure_ascii=False),
         "r": reason, "rows": json.dumps(rows, ensure_ascii=False, default=str), "a": _now()})


def kept() -> list[dict[str, Any]]:
    """The tables kept from an older copy, for the phone's home page."""
    found = db.session.execute(text("SELECT table_id, game, players, reason FROM phone_kept ORDER BY at, table_id"))
    return [{"id": row[0], "game": row[1], "players": json.loads(row[2] or "[]"), "reason": row[3],
             "why": plain_reason(row[1], row[3])} for row in found]


def plain_reason(game: str | None, reason: str) -> str:
    """Why a table was kept, in the player's words. Read from the stored text (exception name and
    message), so tables kept by any build, before this wording existed, read the same way."""
    from scorekeeper.engine import RULES
    from scorekeeper.localize import gettext as _

    if reason.startswith("DatabaseError") or game in (None, "?"):
        # The line names it "a saved copy" and says it was not opened: the reason adds only why.
        return _("it is damaged")
    if game not in RULES:
        return _("this version does not know this game")  # the line names the game already
    if reason.startswith(("IntegrityError", "OperationalError", "ProgrammingError", "StatementError",
                          "DataError", "ValueError", "TypeError", "JSONDecodeError")):
        return _("it has a column this version cannot read")
    return _("its moves do not replay under this version's rules")


def forget_kept(table_id: str) -> bool:
    """Remove a kept table (the player downloaded it first); False if there is none."""
    gone = db.session.execute(text("DELETE FROM phone_kept WHERE table_id = :t"), {"t": table_id}).rowcount
    db.session.commit()
    return bool(gone)


def forget_moved(table_id: str) -> None:
    db.session.execute(text("DELETE FROM phone_moved WHERE table_id = :t"), {"t": table_id})
    _looked_up().pop(table_id, None)


def kept_rows(table_id: str) -> str | None:
    return db.session.execute(text("SELECT rows FROM phone_kept WHERE table_id = :t"), {"t": table_id}).scalar()


def origin_of(table: Any) -> str:
    """The table's identity wherever its log is carried (the hut's copies, the server's import):
    a table opened on this phone is known by a secret drawn from its owner token, which never
    leaves the phone; a table this phone keeps for another (taken over) by the one it came with.
    The server makes one table of one origin (``service.imported_before``)."""
    import base64
    import hashlib

    given = db.session.execute(text("SELECT origin FROM phone_origin WHERE table_id = :t"), {"t": table.id}).scalar()
    if given:
        return str(given)
    secret = table.owner_token or table.write_token
    return base64.urlsafe_b64encode(hashlib.sha256(f"scorekeeper-origin:{secret}".encode()).digest()).decode()[:43]


def set_origin(table_id: str, origin: str) -> None:
    db.session.execute(text("INSERT OR REPLACE INTO phone_origin (table_id, origin) VALUES (:t, :o)"),
                       {"t": table_id, "o": origin})
