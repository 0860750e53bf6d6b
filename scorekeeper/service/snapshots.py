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
from scorekeeper.engine.core import MalformedEvent, RuleViolation
from scorekeeper.engine.core import replay as fold
from scorekeeper.extensions import db
from scorekeeper.localize import localize
from scorekeeper.models import Event, Table
from scorekeeper.service.errors import ENGINE_SLIPS
from scorekeeper.service.facts import TableFacts
from scorekeeper.service.options import engine_options
from scorekeeper.service.stored import Verdict, lenient_fold, unreadable_rows, verdicts_json

logger = logging.getLogger(__name__)


# --- Snapshots and their cache --------------------------------------------------------------


@dataclass(frozen=True)
class Head:
    """The event at a snapshot's seq as this process wrote it, so a page's last-move line needs
    no read of it: who wrote it, its payload and, for an undo, the payload it took back."""

    author: int | None
    payload: dict[str, Any]
    undone: dict[str, Any] | None = None


@dataclass(frozen=True)
class Snapshot:
    """The state at ``seq`` and the stack of effective events (seq, payload) that produced it;
    ``verdicts``: the stored moves among them the current rules judge otherwise (stored.py);
    ``head``: the event at ``seq`` when this process wrote it (else None: read it)."""

    seq: int
    state: Any
    effective: tuple[tuple[int, dict[str, Any]], ...] = field(default=())
    verdicts: tuple[Verdict, ...] = field(default=())
    head: Head | None = None


def written_head(author: int | None, payload: dict[str, Any], before: Snapshot) -> Head:
    """The head a write leaves: ``payload`` by ``author`` on top of ``before``."""
    undone = None
    if payload.get("type") == "undo":
        undone = next((p for s, p in reversed(before.effective) if s == payload.get("undoes")), None)
    return Head(author, payload, undone)


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


def rules_for(table: Table | TableFacts) -> Any:
    return RULES[table.game]


def new_state(table: Table | TableFacts) -> Any:
    return rules_for(table).new(table.players, engine_options(table.options or {}), table.mode)


def effective_events(rows: Sequence[tuple[int, dict[str, Any]]]) -> list[tuple[int, dict[str, Any]]]:
    """Undo retracts the latest effective event; what is left is what the engine folds over."""
    stack: list[tuple[int, dict[str, Any]]] = []
    for seq, payload in rows:
        if isinstance(payload, dict) and payload.get("type") == "undo":
            if stack:
                stack.pop()
        else:
            stack.append((seq, payload))
    return stack


def replay(table: Table | TableFacts, effective: Sequence[tuple[int, dict[str, Any]]]) -> Any:
    return judged_replay(table, effective)[0]


# What a stored move can meet in a newer engine: a stricter rule, or a shape it no longer reads.
REFUSALS = (RuleViolation, MalformedEvent, *ENGINE_SLIPS)


def judged_replay(table: Table | TableFacts,
                  effective: Sequence[tuple[int, dict[str, Any]]]) -> tuple[Any, tuple[Verdict, ...]]:
    """The state after ``effective``, and the verdicts on the stored moves the current rules
    refuse. The plain fold first: a log the rules accept costs no more than it always did."""
    rules, start = rules_for(table), new_state(table)
    try:
        return fold(rules, start, [payload for _seq, payload in effective]), ()
    except REFUSALS:
        return lenient_fold(rules, start, effective)


Rows = Callable[[str, int], Sequence[tuple[int, dict[str, Any]]]]


def _rows(table_id: str, upto: int) -> Sequence[tuple[int, dict[str, Any]]]:
    try:
        return db.session.execute(  # type: ignore[no-any-return]
            select(Event.seq, Event.payload).where(Event.table_id == table_id, Event.seq <= upto).order_by(Event.seq)
        ).all()
    except ValueError:  # a payload that is not JSON (a truncated write)
        return [(seq, payload) for seq, payload, _by, _at in unreadable_rows(table_id, upto)]


def snapshot(table: Table | TableFacts, head: int | None = None, rows: Rows = _rows) -> Snapshot:
    """The state at ``head`` (the table's own head unless given), from the cache or replayed from
    the log as ``rows`` reads it (the session's connection unless a writer passes its own)."""
    seq = table.head_seq if head is None else head  # type: ignore[union-attr]
    key = (table.id, seq)
    snap = cache.get(key)
    if snap is not None:
        return snap
    effective = effective_events([(s, payload) for s, payload in rows(table.id, seq)])
    state, verdicts = judged_replay(table, effective)
    snap = Snapshot(seq, state, tuple(effective), verdicts)
    cache.put(key, snap)
    return snap


def state_json(table: Table | TableFacts, snap: Snapshot | None = None) -> dict[str, Any]:
    snap = snap or snapshot(table)
    return localize(dict(rules_for(table).to_json(snap.state)), table.players)  # type: ignore[no-any-return]


def stored_moves(table: Table | TableFacts, snap: Snapshot | None = None) -> list[dict[str, Any]]:
    """The stored moves the current rules judge otherwise, each once, in the reader's language."""
    snap = snap or snapshot(table)
    return verdicts_json(snap.verdicts, table.players) if snap.verdicts else []
