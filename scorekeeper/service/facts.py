"""What never changes about a table once it is open, kept per process so a write need not read it.

A table's game, mode, options, players and tokens are written when it is opened and never again
(seats change holders, not names). A write authorises its token and replays from these facts; the
head it appends after is still read inside the write's transaction, and a table that has gone
(expired) is found there and forgotten.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from sqlalchemy import text

from scorekeeper.live import CHANNEL, recoded, relistened
from scorekeeper.models import Table
from scorekeeper.service.tables import get_table


@dataclass(frozen=True)
class TableFacts:
    """A table's fixed facts; stands in for the ``Table`` row wherever only these are read."""

    id: str
    game: str
    mode: str
    options: dict[str, Any]
    players: tuple[str, ...]
    write_token: str
    read_token: str
    owner_token: str | None = None
    codes: int = 0


class FactsCache:
    """Per-process LRU of :class:`TableFacts` by table id."""

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._items: OrderedDict[str, TableFacts] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, table_id: str) -> TableFacts | None:
        with self._lock:
            facts = self._items.get(table_id)
            if facts is not None:
                self._items.move_to_end(table_id)
            return facts

    def put(self, facts: TableFacts) -> None:
        with self._lock:
            self._items[facts.id] = facts
            self._items.move_to_end(facts.id)
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def forget(self, table_id: str) -> None:
        with self._lock:
            self._items.pop(table_id, None)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


facts_cache = FactsCache()
# Another worker made new codes for a table (PostgreSQL's NOTIFY): its old tokens open nothing here either.
recoded.append(facts_cache.forget)
# Its listener was away and may have missed such news: every table's tokens are read afresh.
relistened.append(facts_cache.clear)


def forget_everywhere(table_id: str, session: Any) -> None:
    """New codes for ``table_id``: this process forgets its facts now; on PostgreSQL every other
    worker is told inside the transaction, so only codes that were made anew are announced."""
    facts_cache.forget(table_id)
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": f"{table_id}:codes"})


def facts_of(table: Table | TableFacts) -> TableFacts:
    """The facts of a loaded table (kept for the next write), or the facts themselves."""
    if isinstance(table, TableFacts):
        return table
    facts = TableFacts(table.id, table.game, table.mode, dict(table.options or {}), tuple(table.players),
                       table.write_token, table.read_token, table.owner_token, table.codes or 0)
    facts_cache.put(facts)
    return facts


def table_facts(table_id: str) -> TableFacts:
    """The facts of ``table_id``: from this process's cache, else read once (404 when there is no such table)."""
    facts = facts_cache.get(table_id) if isinstance(table_id, str) else None
    if facts is not None:
        return facts
    return facts_of(get_table(table_id))
