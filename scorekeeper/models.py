"""The event store: a table, its seats, and the append-only list of its events. No derived state."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorekeeper.extensions import db


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Table(db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(20))
    mode: Mapped[str] = mapped_column(String(12), default="adjudicate")
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    write_token: Mapped[str] = mapped_column(String(64), unique=True)
    read_token: Mapped[str] = mapped_column(String(64), unique=True)
    # Held by whoever opened the table: only it deletes the table or makes new codes (SECURITY.md).
    # NULL for tables opened before owners were kept: their write capability still deletes them.
    owner_token: Mapped[str | None] = mapped_column(String(64), unique=True, default=None)
    # How many times the join and watch codes were made anew; a phone's cookie remembers the
    # count it joined under, so an old code's holder that is not seated loses access.
    codes: Mapped[int] = mapped_column(default=0, server_default="0")
    head_seq: Mapped[int] = mapped_column(default=0)
    # The engine's RULES_VERSION when the table was opened (CHANGELOG.md); NULL: opened before
    # versions were recorded. A later version replays the table all the same (service/stored.py).
    rules_version: Mapped[int | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    # The circle the table is kept in (issue 38), if any: it then lives as long as the circle.
    circle_id: Mapped[str | None] = mapped_column(ForeignKey("circles.id"), default=None, index=True)
    # A table carried from a phone (issue 39): the identity its export came with, so that every
    # phone holding a copy of it puts it on the server once (service/origins.py). NULL otherwise.
    origin: Mapped[str | None] = mapped_column(String(64), unique=True, default=None)

    seats: Mapped[list[Seat]] = relationship(
        back_populates="table", order_by="Seat.index", cascade="all, delete-orphan", lazy="select"
    )

    @property
    def players(self) -> list[str]:
        return [seat.name for seat in self.seats]


class Seat(db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("table_id", "index"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    index: Mapped[int]
    name: Mapped[str] = mapped_column(String(40))
    # The phone sitting here (a random id kept in that phone's session), so a second phone taking
    # the seat is asked first and the first phone is told it lost it. Not part of the game.
    holder: Mapped[str | None] = mapped_column(String(32), default=None)

    table: Mapped[Table] = relationship(back_populates="seats")


class Event(db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "events"
    # The unique (table_id, seq) pair is what makes two simultaneous writes safe: the second
    # insert of the same seq fails and is answered with 409 or re-sequenced. Its index also serves
    # every read of a table's events (it leads with table_id), so there is no other.
    __table_args__ = (UniqueConstraint("table_id", "seq", name="uq_event_seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    seq: Mapped[int]
    type: Mapped[str] = mapped_column(String(32))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    author: Mapped[int | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Circle(db.Model):  # type: ignore[name-defined,misc]
    """Players who meet over many evenings: their tables, kept together, and the standings."""

    __tablename__ = "circles"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    write_token: Mapped[str] = mapped_column(String(64), unique=True)
    read_token: Mapped[str] = mapped_column(String(64), unique=True)
    owner_token: Mapped[str] = mapped_column(String(64), unique=True)
    # As a table's: the times the join and watch codes were made anew (a cookie remembers it).
    codes: Mapped[int] = mapped_column(default=0, server_default="0")
    # The game, options and mode of the table last opened in the circle: the form's defaults.
    last_setup: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Moved on when a table is added or opened or finishes: CIRCLE_EXPIRY_DAYS counts from it.
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)

    members: Mapped[list[Member]] = relationship(
        back_populates="circle", order_by="Member.id", cascade="all, delete-orphan", lazy="selectin"
    )


class Member(db.Model):  # type: ignore[name-defined,misc]
    """A member: the name shown, and the other names the tables may type for them ("Berra")."""

    __tablename__ = "circle_members"
    __table_args__ = (UniqueConstraint("circle_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    circle_id: Mapped[str] = mapped_column(ForeignKey("circles.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(40))
    aliases: Mapped[list[str]] = mapped_column(JSON, default=list)

    circle: Mapped[Circle] = relationship(back_populates="members")


class Outcome(db.Model):  # type: ignore[name-defined,misc]
    """A finished table's result as the standings count it, kept so a view never replays a table.

    Worked out again when the table's head moved past ``seq`` (an undo of the final move), the
    engine's RULES_VERSION is no longer ``rules_version`` (a rules fix may change a result), or
    ``data["format"]`` is older than what outcomes hold now (``service.outcomes.FORMAT``)."""

    __tablename__ = "table_outcomes"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int]
    rules_version: Mapped[int]
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    finished_at: Mapped[datetime] = mapped_column(default=utcnow)
