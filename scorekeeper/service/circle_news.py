"""A circle's news: its expiry clock moved on, and its pages told to redraw (live)."""

from __future__ import annotations

import time

from sqlalchemy import text, update

from scorekeeper.extensions import db
from scorekeeper.models import Circle, utcnow


def touched(circle_id: str) -> None:
    """A table of the circle moved on: the circle's expiry counts from now. The caller commits."""
    db.session.execute(update(Circle).where(Circle.id == circle_id).values(updated_at=utcnow()))


def channel(circle_id: str) -> str:
    """The live channel of a circle in the table broker (no table id holds a colon)."""
    return f"circle:{circle_id}"


def announce(circle_id: str) -> None:
    """The circle's pages redraw: a table was added, opened, finished or deleted. Milliseconds
    as the stream's seq keep it rising across workers without a counter of their own."""
    from scorekeeper.live import CHANNEL, broker

    key, seq = channel(circle_id), int(time.time() * 1000)
    if db.engine.dialect.name == "postgresql":
        db.session.execute(text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": f"{key}:{seq}"})
        db.session.commit()
    broker.publish(key, seq)
