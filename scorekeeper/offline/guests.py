"""The hut's guests at a table this phone keeps: each a phone of its own to the app (issue 39).

A guest's requests reach this phone's app relayed by the host's page (``static/hut.js``), which
names the guest (``X-Hut-Guest``: a secret the guest made, bound to its data channel at pairing)
and the table it was invited to. The service worker (``templates/sw.js``) hands both to
``phone.handle``, which answers the request with that guest's own session cookie instead of the
phone's: so a guest is asked who it is, holds a seat of its own (another phone's seat only after
asking, ``web/tables.py``), and its moves are entered by its seat. The cookies are kept here and
stored with the database, so a guest that pairs again — or a host whose worker started again —
finds the guest in its seat.

Being paired is the guest's invitation: its session is given the table's write capability, as
the join link gives it on the server, and nothing else of this phone — a guest's request for any
other address is refused.
"""

from __future__ import annotations

import json
import re
from typing import Any

# What the WSGI environ names the invited table by: set by phone.handle only, never from a header.
TABLE_KEY = "scorekeeper.hut_table"
# A guest's id: hut.js makes 16 random bytes, base64url (or a channel's own, the same shape).
_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")
_TABLE = re.compile(r"[A-Za-z0-9_-]{1,16}")
# The guests remembered, the most recent last: a hut holds a few phones; an old guest's cookie
# beyond these is forgotten (it is asked who it is again).
KEPT = 64


def valid(guest: Any, table: Any) -> bool:
    return isinstance(guest, str) and isinstance(table, str) and bool(_ID.fullmatch(guest)) \
        and bool(_TABLE.fullmatch(table))


def loaded(saved: Any) -> dict[str, str]:
    """The guests' cookies as the store kept them (a JSON object, or nothing from an older build)."""
    try:
        found = json.loads(saved) if isinstance(saved, str) and saved else {}
    except ValueError:
        return {}
    if not isinstance(found, dict):
        return {}
    return {k: v for k, v in found.items() if isinstance(k, str) and _ID.fullmatch(k) and isinstance(v, str) and v}


def saved(cookies: dict[str, str]) -> str:
    return json.dumps(cookies, separators=(",", ":")) if cookies else ""


def remember(cookies: dict[str, str], guest: str, cookie: str) -> None:
    cookies.pop(guest, None)
    if cookie:
        cookies[guest] = cookie
    while len(cookies) > KEPT:
        cookies.pop(next(iter(cookies)))


def admit(app: Any) -> None:
    """Every request of a guest: only its table's pages, and at them the capability to play."""
    from flask import abort, request

    from scorekeeper import service
    from scorekeeper.service import TableError
    from scorekeeper.web import access

    @app.before_request
    def _guest() -> None:
        table_id = request.environ.get(TABLE_KEY)
        if table_id is None:
            return
        if (request.view_args or {}).get("table_id") != table_id:
            abort(403)
        try:
            table = service.get_table(table_id)
        except TableError:
            abort(404)
        if access.cap_of(table) is None:  # a guest's first request, or after the host made new codes
            access.grant(table, "write")
