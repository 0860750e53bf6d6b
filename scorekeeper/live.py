"""Publish/subscribe of "table T moved to seq S".

In one process a condition variable per table wakes the open event streams. With PostgreSQL the
writer also sends ``pg_notify`` inside its transaction and one listener thread per worker feeds
the same broker, so a phone on worker 1 hears a move written through worker 2.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any


class Broker:
    """Heads and seat changes per table, and the streams waiting on them.

    A table's condition lives only while a stream waits on it, so a server that has seen a hundred
    thousand tables keeps conditions for the few hundred with a phone open.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._conditions: dict[str, threading.Condition] = {}
        self._waiting: dict[str, int] = {}  # per table, streams inside wait()
        self._heads: dict[str, int] = {}
        self._seatings: dict[str, int] = {}  # per table, how often a phone changed seats
        self._seat_notes: dict[str, None] = {}  # seat changes counted already (local and via NOTIFY)
        self._deleted: dict[str, None] = {}  # tables deleted lately, oldest first (their streams end)
        self._closed = False

    def publish(self, table_id: str, seq: int) -> None:
        with self._lock:
            self._heads[table_id] = max(seq, self._heads.get(table_id, 0))
            cond = self._conditions.get(table_id)  # none: no stream of this table is waiting
            if cond is not None:
                cond.notify_all()

    def reseat(self, table_id: str, note: str | None = None) -> None:
        """A phone took or left a seat: the phones' pages show who sits where (not a move).

        ``note`` names the change, so hearing it twice (from this worker and back through
        PostgreSQL's NOTIFY) counts it once."""
        with self._lock:
            if note is not None:
                if note in self._seat_notes:
                    return
                self._seat_notes[note] = None
                if len(self._seat_notes) > 4096:
                    del self._seat_notes[next(iter(self._seat_notes))]
            self._seatings[table_id] = self._seatings.get(table_id, 0) + 1
            cond = self._conditions.get(table_id)
            if cond is not None:
                cond.notify_all()

    def deleted(self, table_id: str) -> None:
        """The table was deleted: its streams say so and end."""
        with self._lock:
            self._deleted[table_id] = None
            while len(self._deleted) > 10_000:  # only streams open at that moment need to know
                del self._deleted[next(iter(self._deleted))]
            cond = self._conditions.get(table_id)
            if cond is not None:
                cond.notify_all()

    def head(self, table_id: str) -> int:
        with self._lock:
            return self._heads.get(table_id, 0)

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
            cond = self._conditions.get(table_id)
            if cond is None:
                cond = self._conditions[table_id] = threading.Condition(self._lock)
            self._waiting[table_id] = self._waiting.get(table_id, 0) + 1
            try:
                cond.wait_for(lambda: self._closed or self._heads.get(table_id, 0) > after or table_id in self._deleted
                              or (seatings is not None and self._seatings.get(table_id, 0) != seatings), timeout)
            finally:
                left = self._waiting[table_id] - 1
                if left:
                    self._waiting[table_id] = left
                else:
                    del self._waiting[table_id]
                    del self._conditions[table_id]
            head = self._heads.get(table_id, 0)
            return head if head > after else None

    def watched(self) -> list[str]:
        """The tables (and circles' channels) with a stream waiting now."""
        with self._lock:
            return list(self._waiting)

    def waiting(self) -> int:
        """Streams waiting now, over all tables."""
        with self._lock:
            return sum(self._waiting.values())

    def conditions(self) -> int:
        with self._lock:
            return len(self._conditions)

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


def sse_message(seq: int, table_id: str) -> bytes:
    return f"id: {seq}\nevent: message\ndata: {{\"table\": \"{table_id}\", \"seq\": {seq}}}\n\n".encode()


def deleted_message(table_id: str) -> bytes:
    return f"event: deleted\ndata: {{\"table\": \"{table_id}\"}}\n\n".encode()


def head_message(seq: int, table_id: str) -> bytes:
    """The keep-alive of a phone's page: the head it should show. An announcement its page lost
    (a redraw in flight, a tab asleep) is made good at the next one; ``message`` would redraw."""
    return f"event: head\ndata: {{\"table\": \"{table_id}\", \"seq\": {seq}}}\n\n".encode()


def seats_message(seq: int, table_id: str, seatings: int) -> bytes:
    return f"event: message\ndata: {{\"table\": \"{table_id}\", \"seq\": {seq}, \"seats\": {seatings}}}\n\n".encode()


def stream(table_id: str, head: int, *, ping_every: float = 15.0, max_seconds: float = 600.0,
           source: Broker | None = None, seats: bool = False, retry_ms: int = 1000,
           restart_ms: int = 0, spread: Callable[[], float] = random.random) -> Iterator[bytes]:
    """One SSE message per new seq, starting with the current head so a reconnecting phone catches up.

    The stream ends by itself after ``max_seconds`` (less up to a fifth, drawn by ``spread``, so
    phones that came together do not all reconnect together) and the browser reconnects after
    ``retry_ms``, which frees the connection of a phone that went to sleep without closing it. The
    first ping comes after half to all of ``ping_every``, for the same reason. With ``seats`` (the
    phones' own stream, not the JSON API's) a change of who sits where is announced too, so a
    phone whose seat was taken over hears it at once, and its keep-alive names the head
    (``head_message``) where the API's is a comment. When the server shuts down (a deploy) the
    stream's last words are a new ``retry`` of ``retry_ms`` plus up to ``restart_ms``: every phone
    of the server reconnects at once otherwise, and ten thousand phones need seconds to be spread
    over. Bytes, so the response passes them
    straight to the socket (a wrapping generator would cost every open phone ~3 kB).
    """
    source = source or broker
    source.seen(table_id, head)
    seatings = source.seatings(table_id) if seats else None
    deadline = time.monotonic() + max_seconds * (1 - spread() / 5)
    yield f"retry: {retry_ms}\n\n".encode()
    yield sse_message(head, table_id)
    last = head
    pause = ping_every * (0.5 + spread() / 2)
    while not source.closed:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        new = source.wait(table_id, last, min(pause, left), seatings)
        pause = ping_every
        if source.is_deleted(table_id):
            yield deleted_message(table_id)
            return
        if seatings is not None and source.seatings(table_id) != seatings:
            seatings = source.seatings(table_id)
            yield seats_message(last, table_id, seatings)
            if new is None:
                continue
        if new is None:
            if not source.closed and time.monotonic() < deadline:
                yield head_message(last, table_id) if seats else b": ping\n\n"
            continue
        for seq in range(last + 1, new + 1):
            yield sse_message(seq, table_id)
        last = new
    if source.closed and restart_ms:
        yield f"retry: {retry_ms + int(restart_ms * spread())}\n\n".encode()


def changes(key: str, *, ping_every: float = 15.0, max_seconds: float = 600.0, retry_ms: int = 1000,
            source: Broker | None = None, heads: bool = False) -> Iterator[bytes]:
    """A circle's stream: one message whenever something of it changed (its seq is a time, so
    the steps between are not walked as a table's moves are), ``deleted`` when it is gone.

    With ``heads`` (the page's stream, not the API's) it opens with ``event: head`` naming the
    newest change this worker heard, and its keep-alives name it too: a page that slept through a
    change, or reconnected after one, sees that its standings are older and fetches them."""
    source = source or broker
    deadline = time.monotonic() + max_seconds * (1 - random.random() / 5)
    last = source.head(key)
    yield f"retry: {retry_ms}\n\n".encode()
    if heads:
        yield _circle_head(key, last)
    while not source.closed and time.monotonic() < deadline:
        new = source.wait(key, last, min(ping_every, max(0.0, deadline - time.monotonic())))
        if source.is_deleted(key):
            yield f"event: deleted\ndata: {{\"circle\": \"{key}\"}}\n\n".encode()
            return
        if new is None:
            yield _circle_head(key, last) if heads else b": ping\n\n"
            continue
        last = new
        yield f"event: message\ndata: {{\"circle\": \"{key}\", \"seq\": {new}}}\n\n".encode()


def _circle_head(key: str, seq: int) -> bytes:
    return f"event: head\ndata: {{\"circle\": \"{key}\", \"seq\": {seq}}}\n\n".encode()


def retry_ms(base: int, jitter: int, draw: Callable[[], float] = random.random) -> int:
    """The reconnect delay a stream tells its phone: ``base`` plus up to ``jitter`` ms, so ten
    thousand phones cut by a restart come back spread over seconds, not in one burst."""
    return base + int(jitter * draw())


# --- PostgreSQL fan-out across workers --------------------------------------------------------

# A write sends pg_notify on it inside its own transaction (service/store.py), so a rolled-back
# write is never announced.
CHANNEL = "table_events"


SEATS = "seats:"

# Called with a table id when another worker made new codes for it (``<table>:codes``): what this
# process keeps of the table's tokens must go (service/facts.py registers its cache).
recoded: list[Callable[[str], None]] = []
# Called when the listener (re)connects: the NOTIFYs sent while it was away are lost, so whatever
# this process keeps that they would have corrected must go (service/facts.py: every table's tokens).
relistened: list[Callable[[], None]] = []


def seats_payload(table_id: str, note: str) -> str:
    """A seat change announced to every worker: ``seats:<note>:<table>``."""
    return f"{SEATS}{note}:{table_id}"


def deliver(target: Broker, payload: str) -> None:
    """One NOTIFY payload into the broker: ``<table>:<seq>`` for a move, ``<table>:deleted`` for a
    table deleted, ``seats:…`` for a seat."""
    if payload.startswith(SEATS):
        note, _, table_id = payload[len(SEATS):].partition(":")
        if table_id:
            target.reseat(table_id, note)
        return
    table_id, _, seq = payload.rpartition(":")
    if seq.isdigit():
        target.publish(table_id, int(seq))
    elif seq == "deleted":
        target.deleted(table_id)
    elif seq == "codes":
        for forget in recoded:
            forget(table_id)


def catch_up(target: Broker, heads: Callable[[list[str]], dict[str, int]]) -> None:
    """What a listener that was away (its connection dropped, the database restarted) missed,
    worked out afresh: NOTIFY keeps nothing for a listener not connected. Each table a stream
    waits on gets its head from ``heads`` (a table it does not return is gone), so only the
    phones of tables that moved meanwhile fetch a sheet: after a database restart a worker's
    thousands of phones must not all come at once. A seat taken meanwhile shows at the table's
    next redraw. Each circle's pages redraw once (standings are cached); cached tokens are
    dropped (codes made anew)."""
    for forget in relistened:
        forget()
    keys = target.watched()
    tables = {key for key in keys if ":" not in key}  # a circle's channel holds a colon, no table id does
    found = heads(sorted(tables)) if tables else {}
    now = int(time.time() * 1000)
    for key in keys:
        if key not in tables:
            target.publish(key, now)
        elif key in found:
            target.publish(key, found[key])
        else:
            target.deleted(key)


def _heads_of(conn: Any) -> Callable[[list[str]], dict[str, int]]:
    def heads(tables: list[str]) -> dict[str, int]:
        rows = conn.execute("SELECT id, head_seq FROM tables WHERE id = ANY(%s)", (tables,)).fetchall()
        return {str(table_id): int(seq) for table_id, seq in rows}
    return heads


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
                    catch_up(target, _heads_of(conn))  # listening first: nothing falls between
                    while not target.closed:
                        for note in conn.notifies(timeout=5):
                            deliver(target, note.payload)
            except Exception:  # noqa: BLE001 - a dropped connection must not end live updates
                time.sleep(1)

    thread = threading.Thread(target=run, name="pg-listener", daemon=True)
    thread.start()
    return thread
