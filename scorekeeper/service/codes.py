"""New join and watch codes for a table, asked by its owner: how a leaked QR code is revoked."""

from __future__ import annotations

import secrets

from scorekeeper.extensions import db
from scorekeeper.models import Table
from scorekeeper.service.facts import forget_everywhere


def new_codes(table: Table) -> Table:
    """New join and watch codes: the old QR codes and links open nothing from now on, and a phone
    that opened them keeps its access only while it holds a seat (web/access.py). The owner
    capability stays, so the owner can do this again."""
    table.write_token = secrets.token_urlsafe(24)
    table.read_token = secrets.token_urlsafe(24)
    table.codes = (table.codes or 0) + 1
    forget_everywhere(table.id, db.session)
    db.session.commit()
    return table
