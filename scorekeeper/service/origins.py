"""A table carried from a phone is put on the server once (issue 39, the hut).

Every phone at a hut keeps a copy of the table's log, and any of them, back online, may put it on
the server. A phone's export carries the table's ``origin``: a secret drawn by the phone that
opened it (phone_marks.origin_of) and carried with every copy, never shown in an address. The
first import of an origin makes the table; a later one finds it: if its log goes further along the
same moves, the rest is appended (each move checked by the engine as a live one is); if it holds
no more, nothing changes; if the two logs part, it is refused (409) and nothing changes.

The origin is a bearer secret of every copy (a guest's, a downloaded file): a later import is
answered with the table's watch code only, never its join code, and once the owner made new codes
(``tables.codes``) an origin opens nothing (403), so a copy is no way round a revocation."""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.localize import tr
from scorekeeper.models import Table
from scorekeeper.service.errors import TableError
from scorekeeper.service.log import _log, replayed
from scorekeeper.service.writes import record, undo

ORIGIN = re.compile(r"[A-Za-z0-9_-]{16,64}")


def origin_of(data: Any) -> str | None:
    """The export's origin, if it carries one of the form a phone gives (else it makes a new table)."""
    origin = data.get("origin") if isinstance(data, dict) else None
    return origin if isinstance(origin, str) and ORIGIN.fullmatch(origin) else None


def _same(payload: Any) -> Any:
    # An undo's ``undoes`` is the seq it retracts: the same log numbers it the same, so only its kind counts.
    return {"type": "undo"} if isinstance(payload, dict) and payload.get("type") == "undo" else payload


def imported_before(data: Any, *, fitted: bool = False) -> Table | None:
    """The table an export of this origin made already, brought up to this export; None if the
    origin is new (or absent). The export is checked whole first (as an import is), so a refused
    one changes nothing."""
    origin = origin_of(data)
    if origin is None:
        return None
    table = db.session.execute(select(Table).where(Table.origin == origin)).scalar_one_or_none()
    if table is None:
        return None
    if table.codes:
        # The owner made new codes to shut someone out: a copy carried from before is no way back in.
        raise TableError(403, "forbidden", tr("this table's codes were made anew: scan its new join code"))
    _game, _names, _mode, _options, payloads, _state = replayed(data, fitted=fitted)
    stored = [_same(row.payload) for row in _log(table)]
    given = [_same(payload) for payload, _author in payloads]
    if table.game != data.get("game") or given[:len(stored)] != stored[:len(given)]:
        raise TableError(409, "diverged", tr("this table is on the server already, with other moves than this copy's"))
    for payload, author in payloads[len(stored):]:
        if payload["type"] == "undo":
            undo(table, author)
        else:
            record(table, payload, author=author, fitted=fitted)
    db.session.refresh(table)
    return table


def where(origin: Any) -> Table:
    """The table a copy of this origin was put on the server as (a guest's copy learns where its
    table went, issue 39): 404 when none was, 403 once the owner made new codes, as an import."""
    if not isinstance(origin, str) or not ORIGIN.fullmatch(origin):
        raise TableError(400, "bad_request", tr("'origin' must be a table's origin as a phone exports it, not %(given)s",
                                                given=repr(origin)[:80]))
    table = db.session.execute(select(Table).where(Table.origin == origin)).scalar_one_or_none()
    if table is None:
        raise TableError(404, "not_found", tr("this copy's table is not on the server"))
    if table.codes:
        raise TableError(403, "forbidden", tr("this table's codes were made anew: scan its new join code"))
    return table
