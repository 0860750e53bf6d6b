"""A table's state: its events replayed through its game, and the cache of replayed states."""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select

from scorekeeper.engine import RULES
from scorekeeper.engine.core import replay as fold
from scorekeeper.extensions import db
from scorekeeper.localize import localize
from scorekeeper.models import Event, Table
from scorekeeper.service.facts import TableFacts

logger = logging.getLogger(__name__)


# --- Snapshots and their cache --------------------------------------------------------------


@dataclass(frozen=True)
class Snapshot:
    """The state at ``seq`` and the stack of effective events (seq, payload) that produced it."""

    seq: int
    state: Any
    effective: tuple[tuple[int, dict[str, Any]], ...] = field(default=())


class SnapshotCache:
    """Per-process LRU keyed by ``(table_id, head_seq)``; a new seq is a new key, so no invalidation.
    It also knows the newest state of each table it holds, which a write starts from."""

    def __init__(self, size: int = 512) -> None:
        self._size = size
        self._items: OrderedDict[tuple[str, int], Snapshot] = OrderedDict()
        self._newest: dict[str, int] = {}
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: tuple[str, int]) -> Snapshot | None:
        with self._lock:
            snap = self._items.get(key)
            if snap is not None:
                self._items.move_to_end(key)
                self.hits += 1
            else:
                self.misses += 1
            return snap

    def latest(self, table_id: str) -> Snapshot | None:
        """The newest state of ``table_id`` this process has seen, if still held (it may be behind
        a write of another process: whoever writes after it checks the head in the database)."""
        with self._lock:
            seq = self._newest.get(table_id)
            return None if seq is None else self._items.get((table_id, seq))

    def put(self, key: tuple[str, int], snap: Snapshot) -> None:
        table_id, seq = key
        with self._lock:
            self._items[key] = snap
            self._items.move_to_end(key)
            if seq > self._newest.get(table_id, -1):
                self._newest[table_id] = seq
            while len(self._items) > self._size:
                (old_table, old_seq), _ = self._items.popitem(last=False)
                if self._newest.get(old_table) == old_seq:
                    del self._newest[old_table]

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._newest.clear()

    def forget(self, table_id: str) -> None:
        """Drop every state of a deleted table (names and moves are not kept in memory either)."""
        with self._lock:
            for key in [key for key in self._items if key[0] == table_id]:
                del self._items[key]
            self._newest.pop(table_id, None)


cache = SnapshotCache()


# Table options the platform keeps for itself, never shown to the engine (which refuses unknown keys):
# ``review_after_deal`` holds the post-deal review of a deal until that deal is over.
PLATFORM_OPTIONS = ("review_after_deal",)


def engine_options(options: Any) -> Any:
    """``options`` without the platform's own keys (anything that is not a dict is the engine's to refuse)."""
    if not isinstance(options, dict) or not any(key in options for key in PLATFORM_OPTIONS):
        return options
    return {k: v for k, v in options.items() if k not in PLATFORM_OPTIONS}


def rules_for(table: Table | TableFacts) -> Any:
    return RULES[table.game]


def new_state(table: Table | TableFacts) -> Any:
    return rules_for(table).new(table.players, engine_options(table.options or {}), table.mode)


def effective_events(rows: Sequence[tuple[int, dict[str, Any]]]) -> list[tuple[int, dict[str, Any]]]:
    """Undo retracts the latest effective event; what is left is what the engine folds over."""
    stack: list[tuple[int, dict[str, Any]]] = []
    for seq, payload in rows:
        if payload.get("type") == "undo":
            if stack:
                stack.pop()
        else:
            stack.append((seq, payload))
    return stack


def replay(table: Table | TableFacts, effective: Sequence[tuple[int, dict[str, Any]]]) -> Any:
    return fold(rules_for(table), new_state(table), [payload for _seq, payload in effective])


Rows = Callable[[str, int], Sequence[tuple[int, dict[str, Any]]]]


def _rows(table_id: str, upto: int) -> Sequence[tuple[int, dict[str, Any]]]:
    return db.session.execute(  # type: ignore[no-any-return]
        select(Event.seq, Event.payload).where(Event.table_id == table_id, Event.seq <= upto).order_by(Event.seq)
    ).all()


def snapshot(table: Table | TableFacts, head: int | None = None, rows: Rows = _rows) -> Snapshot:
    """The state at ``head`` (the table's own head unless given), from the cache or replayed from
    the log as ``rows`` reads it (the session's connection unless a writer passes its own)."""
    seq = table.head_seq if head is None else head  # type: ignore[union-attr]
    key = (table.id, seq)
    snap = cache.get(key)
    if snap is not None:
        return snap
    effective = effective_events([(s, payload) for s, payload in rows(table.id, seq)])
    snap = Snapshot(seq, replay(table, effective), tuple(effective))
    cache.put(key, snap)
    return snap


def state_json(table: Table | TableFacts, snap: Snapshot | None = None) -> dict[str, Any]:
    snap = snap or snapshot(table)
    return localize(dict(rules_for(table).to_json(snap.state)), table.players)  # type: ignore[no-any-return]
