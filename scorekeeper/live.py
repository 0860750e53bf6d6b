"""Publish/subscribe of "table T moved to seq S".

In one process a condition variable per table wakes the open event streams. With PostgreSQL the
writer also sends ``pg_notify`` inside its transaction and one listener thread per worker feeds
the same broker, so a phone on worker 1 hears a move written through worker 2.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator


class Broker:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._conditions: dict[str, threading.Condition] = {}
        self._heads: dict[str, int] = {}
        self._seatings: dict[str, int] = {}  # per table, how often a phone changed seats
        self._deleted: dict[str, None] = {}  # tables deleted lately, oldest first (their streams end)
        self._closed = False

    def _condition(self, table_id: str) -> threading.Condition:
        cond = self._conditions.get(table_id)
        if cond is None:
            cond = self._conditions.setdefault(table_id, threading.Condition(self._lock))
        return cond

    def publish(self, table_id: str, seq: int) -> None:
        with self._lock:
            self._heads[table_id] = max(seq, self._heads.get(table_id, 0))
            cond = self._conditions.get(table_id)  # none yet: no stream of this table is waiting
            if cond is not None:
                cond.notify_all()

    def reseat(self, table_id: str) -> None:
        """A phone took or left a seat: the phones' pages show who sits where (not a move)."""
        with self._lock:
            self._seatings[table_id] = self._seatings.get(table_id, 0) + 1
            self._condition(table_id).notify_all()

    def deleted(self, table_id: str) -> None:
        """The table was deleted: its streams say so and end."""
        with self._lock:
            self._deleted[table_id] = None
            while len(self._deleted) > 10_000:  # only streams open at that moment need to know
                del self._deleted[next(iter(self._deleted))]
            cond = self._conditions.get(table_id)
            if cond is not None:
                cond.notify_all()

    def is_deleted(self, table_id: str) -> bool:
        return table_id in self._deleted

    def seatings(self, table_id: str) -> int:
        with self._lock:
            return self._seatings.get(table_id, 0)

    def seen(self, table_id: str, seq: int) -> None:
        """Record a head read from the database, so undo (which can lower nothing) stays monotonic."""
        with self._lock:
            if seq > self._heads.get(table_id, 0):
                self._heads[table_id] = seq

    def wait(self, table_id: str, after: int, timeout: float, seatings: int | None = None) -> int | None:
        """The newest seq above ``after``, or None when ``timeout`` passes first (time for a ping)
        or, when ``seatings`` is given, when the seats changed since that count."""
        with self._lock:
            cond = self._condition(table_id)
            cond.wait_for(lambda: self._closed or self._heads.get(table_id, 0) > after or table_id in self._deleted
                          or (seatings is not None and self._seatings.get(table_id, 0) != seatings), timeout)
            head = self._heads.get(table_id, 0)
            return head if head > after else None

    def close(self) -> None:
        """Wake every stream so it can end (graceful shutdown)."""
        with self._lock:
            self._closed = True
            for cond in self._conditions.values():
                cond.notify_all()

    @property
    def closed(self) -> bool:
        return self._closed


broker = Broker()


def sse_message(seq: int, table_id: str) -> str:
    return f"id: {seq}\nevent: message\ndata: {{\"table\": \"{table_id}\", \"seq\": {seq}}}\n\n"


def deleted_message(table_id: str) -> str:
    return f"event: deleted\ndata: {{\"table\": \"{table_id}\"}}\n\n"


def seats_message(seq: int, table_id: str, seatings: int) -> str:
    return f"event: message\ndata: {{\"table\": \"{table_id}\", \"seq\": {seq}, \"seats\": {seatings}}}\n\n"


def stream(table_id: str, head: int, *, ping_every: float = 15.0, max_seconds: float = 600.0,
           source: Broker | None = None, seats: bool = False) -> Iterator[str]:
    """One SSE message per new seq, starting with the current head so a reconnecting phone catches up.

    The stream ends by itself after ``max_seconds``; the browser reconnects (``retry``), which frees
    the worker thread of a phone that went to sleep without closing its connection. With ``seats``
    (the phones' own stream, not the JSON API's) a change of who sits where is announced too, so a
    phone whose seat was taken over hears it at once.
    """
    import time

    source = source or broker
    source.seen(table_id, head)
    seatings = source.seatings(table_id) if seats else None
    deadline = time.monotonic() + max_seconds
    yield "retry: 1000\n\n"
    yield sse_message(head, table_id)
    last = head
    while time.monotonic() < deadline and not source.closed:
        new = source.wait(table_id, last, ping_every, seatings)
        if source.is_deleted(table_id):
            yield deleted_message(table_id)
            return
        if seatings is not None and source.seatings(table_id) != seatings:
            seatings = source.seatings(table_id)
            yield seats_message(last, table_id, seatings)
            if new is None:
                continue
        if new is None:
            yield ": ping\n\n"
            continue
        for seq in range(last + 1, new + 1):
            yield sse_message(seq, table_id)
        last = new


# --- PostgreSQL fan-out across workers --------------------------------------------------------

# A write sends pg_notify on it inside its own transaction (service/store.py), so a rolled-back
# write is never announced.
CHANNEL = "table_events"


_listener_started: set[str] = set()
_listener_lock = threading.Lock()


def start_pg_listener(dsn: str, target: Broker | None = None) -> threading.Thread | None:
    """One listening thread per worker process; it feeds the in-process broker."""
    target = target or broker
    with _listener_lock:
        if dsn in _listener_started:
            return None
        _listener_started.add(dsn)

    def run() -> None:
        import time

        import psycopg

        while not target.closed:
            try:
                with psycopg.connect(dsn, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    while not target.closed:
                        for note in conn.notifies(timeout=5):
                            table_id, _, seq = note.payload.rpartition(":")
                            if seq.isdigit():
                                target.publish(table_id, int(seq))
                            elif seq == "deleted":
                                target.deleted(table_id)
            except Exception:  # noqa: BLE001 - a dropped connection must not end live updates
                time.sleep(1)

    thread = threading.Thread(target=run, name="pg-listener", daemon=True)
    thread.start()
    return thread
