"""Deleting a table on request (what a holder of its write capability may do at any time), and
erasing many at once (the expiry sweeps of tables and circles)."""

from __future__ import annotations

from sqlalchemy import delete, select, text

from scorekeeper import metrics
from scorekeeper.extensions import db
from scorekeeper.live import CHANNEL, broker
from scorekeeper.models import Event, Outcome, Seat, Table
from scorekeeper.service.facts import facts_cache
from scorekeeper.service.snapshots import cache


def delete_table(table: Table) -> None:
    """Erase a table at once, asked by a holder of its write capability: its names (seats) and
    every event go from the database in one transaction, and every phone following it is told
    (``event: deleted`` on its stream). Its tokens then open nothing (404)."""
    table_id = table.id
    circle_id = table.circle_id
    session = db.session
    postgres = session.get_bind().dialect.name == "postgresql"
    if postgres:
        # Writers of this table queue on its row (store.py): one in flight finishes first, and its
        # event goes with the rest; the ones behind find no table.
        session.execute(select(Table.id).where(Table.id == table_id).with_for_update())
    session.execute(delete(Event).where(Event.table_id == table_id))
    session.execute(delete(Seat).where(Seat.table_id == table_id))
    session.execute(delete(Table).where(Table.id == table_id))
    if postgres:  # the other workers' phones; inside the transaction, so only a deletion that happened is told
        session.execute(text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": f"{table_id}:deleted"})
    session.commit()
    facts_cache.forget(table_id)
    cache.forget(table_id)
    broker.deleted(table_id)
    metrics.table_deleted(table_id)
    if circle_id is not None:  # its standings drop the table
        from scorekeeper.service.circle_news import announce

        announce(circle_id)


def erase_tables(ids: list[str]) -> None:
    """Every trace of the tables, in chunks a query's parameters hold: outcomes, events, seats,
    rows (the expiry sweeps; no phone is told, none has touched them for weeks). The caller commits."""
    for chunk in range(0, len(ids), 500):
        part = ids[chunk:chunk + 500]
        db.session.execute(delete(Outcome).where(Outcome.table_id.in_(part)))
        db.session.execute(delete(Event).where(Event.table_id.in_(part)))
        db.session.execute(delete(Seat).where(Seat.table_id.in_(part)))
        db.session.execute(delete(Table).where(Table.id.in_(part)))
