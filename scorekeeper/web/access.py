"""Who may do what at a table: a capability per table kept in the signed session cookie.

Opening the join link (write token) or watch link (read token) stores the capability; the token
itself never stays in the address bar. The seat a phone took is kept beside it.
"""

from __future__ import annotations

from typing import Any

from flask import request, session

from scorekeeper import service
from scorekeeper.models import Table


def _tables() -> dict[str, Any]:
    return dict(session.get("tables") or {})


def grant(table: Table, cap: str) -> None:
    tables = _tables()
    entry = dict(tables.get(table.id) or {})
    # A watch link never downgrades a phone that already joined.
    if not (cap == "read" and entry.get("cap") == "write"):
        entry["cap"] = cap
    tables[table.id] = entry
    session["tables"] = tables
    session.permanent = True


def cap_of(table: Table) -> str | None:
    entry = _tables().get(table.id) or {}
    cap = entry.get("cap")
    if cap in ("read", "write"):
        return str(cap)
    token = request.args.get("token") or request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    return service.capability(table, token or None)


def seat_of(table: Table) -> int | None:
    entry = _tables().get(table.id) or {}
    seat = entry.get("seat")
    return seat if isinstance(seat, int) and 0 <= seat < len(table.seats) else None


def take_seat(table: Table, seat: int | None) -> None:
    tables = _tables()
    entry = dict(tables.get(table.id) or {})
    if seat is None:
        entry.pop("seat", None)
    else:
        entry["seat"] = seat
    tables[table.id] = entry
    session["tables"] = tables


def known_tables() -> list[str]:
    return list(_tables())
