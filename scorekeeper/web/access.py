"""Who may do what at a table: a capability per table kept in the signed session cookie.

Opening the join link (write token) or watch link (read token) stores the capability; the token
itself never stays in the address bar. The seat a phone took is kept beside it, and the seat
row remembers which phone holds it (a random phone id in the same cookie), so a second phone
taking that seat is asked first and the first phone learns it lost the seat.
"""

from __future__ import annotations

import secrets
from typing import Any

from flask import current_app, request, session

from scorekeeper import service
from scorekeeper.extensions import db
from scorekeeper.models import Table
from scorekeeper.phone_marks import moved_to

# A browser drops a cookie over 4 KB, and with it every table the phone had joined; an entry
# takes about 50 bytes, so the cookie keeps the tables this phone used last.
REMEMBERED_TABLES = 40


def _tables() -> dict[str, Any]:
    return dict(session.get("tables") or {})


def _used(entry: Any) -> int:
    used = entry.get("n") if isinstance(entry, dict) else None
    return used if isinstance(used, int) else 0


def _by_use(tables: dict[str, Any]) -> list[str]:
    """Table ids, most recently used first (the cookie's JSON sorts its keys, so order is kept in ``n``)."""
    return sorted(tables, key=lambda table_id: _used(tables[table_id]), reverse=True)


def _remember(table_id: str, entry: dict[str, Any]) -> None:
    """Store ``entry`` as the most recently used table, forgetting the least recently used ones."""
    tables = _tables()
    entry["n"] = max((_used(e) for e in tables.values()), default=0) + 1
    tables[table_id] = entry
    session["tables"] = {key: tables[key] for key in _by_use(tables)[:REMEMBERED_TABLES]}


def grant(table: Table, cap: str, owner: bool = False) -> None:
    entry = dict(_tables().get(table.id) or {})
    if entry.get("g", 0) != table.codes and not entry.get("own"):
        entry.pop("cap", None)  # what an older code gave is gone (new codes), this link decides
    # A watch link never downgrades a phone that already joined.
    if not (cap == "read" and entry.get("cap") == "write"):
        entry["cap"] = cap
    entry["g"] = table.codes
    if owner:
        entry["own"] = True
    _remember(table.id, entry)
    session.permanent = True


def _current(table: Table, entry: dict[str, Any]) -> str | None:
    """The capability the cookie holds, if the codes it came from still stand. After new codes a
    phone keeps writing only while it sits in a seat; any other phone that opened an old code
    (a photo of the QR code, a watcher) has nothing until it opens a new one."""
    cap = entry.get("cap")
    if cap not in ("read", "write") or entry.get("own") or entry.get("g", 0) == table.codes:
        return cap if cap in ("read", "write") else None
    if cap == "write" and not isinstance(table, Table):  # a stream's facts: the seats are in the row
        table = service.get_table(table.id)
    if cap == "write" and seat_of(table) is not None:
        entry = dict(entry, g=table.codes)
        _remember(table.id, entry)
        return "write"
    return None


def is_owner(table: Table) -> bool:
    """Whether this phone opened the table (its cookie holds the owner capability). A table opened
    before owners were kept has none: any phone that may write stands in (SECURITY.md)."""
    entry = _tables().get(table.id) or {}
    if cap_of(table) != "write":  # e.g. a phone's copy of a table it moved to the server: read-only
        return False
    return table.owner_token is None or bool(entry.get("own"))


def cap_of(table: Table) -> str | None:
    entry = _tables().get(table.id) or {}
    cap = _current(table, entry)
    if cap == "write" and current_app.config.get("PHONE") and moved_to(table.id):
        return "read"  # moved to the server: the phone's copy would diverge from it
    if cap in ("read", "write"):
        return str(cap)
    # A page takes its capability from the cookie the join or watch link stored, or a bearer
    # header; never from the address, which logs and browser histories keep.
    token = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    return service.capability(table, token or None)


def phone_id() -> str:
    """This phone's id, made on first use and kept in its session cookie."""
    phone = session.get("phone")
    if not isinstance(phone, str) or not phone:
        phone = session["phone"] = secrets.token_hex(8)
    return phone


def _claimed(table: Table) -> int | None:
    """The seat this phone's cookie says it took (still to be checked against the seat's holder)."""
    entry = _tables().get(table.id) or {}
    seat = entry.get("seat")
    return seat if isinstance(seat, int) and 0 <= seat < len(table.seats) else None


def seat_of(table: Table) -> int | None:
    seat = _claimed(table)
    if seat is None:
        return None
    holder = table.seats[seat].holder
    # A seat nobody holds (taken before holders were kept) still belongs to the phone that says so.
    return seat if holder is None or holder == session.get("phone") else None


def lost_seat(table: Table) -> int | None:
    """The seat this phone sat in until another phone took it over, if that happened."""
    seat = _claimed(table)
    return seat if seat is not None and seat_of(table) is None else None


def holder_elsewhere(table: Table, seat: int) -> bool:
    """Whether another phone sits in ``seat`` now."""
    holder = table.seats[seat].holder
    return holder is not None and holder != session.get("phone")


def seated(table: Table) -> list[bool]:
    """Per seat, whether some phone sits in it."""
    return [s.holder is not None for s in table.seats]


def take_seat(table: Table, seat: int | None) -> bool:
    """Sit this phone in ``seat`` (None: stand up). True when another phone lost the seat to it."""
    mine = phone_id()
    took_over = seat is not None and holder_elsewhere(table, seat)
    for s in table.seats:
        if s.holder == mine and s.index != seat:
            s.holder = None
    if seat is not None:
        table.seats[seat].holder = mine
    db.session.commit()
    entry = dict(_tables().get(table.id) or {})
    if seat is None:
        entry.pop("seat", None)
    else:
        entry["seat"] = seat
    _remember(table.id, entry)
    return took_over


def forget(table_id: str) -> None:
    """This phone no longer remembers ``table_id`` (it deleted or left it)."""
    tables = _tables()
    if tables.pop(table_id, None) is not None:
        session["tables"] = tables


def known_tables() -> list[str]:
    """The tables this phone remembers, most recently used first."""
    return _by_use(_tables())
