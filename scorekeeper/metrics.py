"""What the operator watches (``/metrics``, Prometheus text format): open and refused event
streams, moves written and how long a write took, tables in use.

The write path and the event streams call the plain functions below; nothing here needs Flask.

prometheus_client is imported on first use, never when this module is imported: gunicorn's master
imports this module for its hooks before it knows whether the workers will share a
``PROMETHEUS_MULTIPROC_DIR``, and prometheus_client chooses single- or multi-process values once,
when it is first imported. A master that imported it too early would hand every forked worker
the single-process kind, and each worker would then count only for itself.
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import json
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
# A table counts as active while a phone holds its stream open, and for this long after its last
# move or its last stream closed.
ACTIVE_MINUTES = float(os.environ.get("METRICS_ACTIVE_MINUTES", "15"))
# The reasons a stream is refused (label values of scorekeeper_streams_refused_total).
CAP = "cap"
PER_ADDRESS = "per-address"
# Each worker's tables in use, for the one answering the scrape (multi-process mode only).
_ACTIVE_FILE = "scorekeeper_active_{pid}.json"
_HEADER_BYTES = 8  # prometheus_client's counter files begin with how much of them is used, padded to 8
# A worker rewrites its file at most this often, however many streams open meanwhile.
FLUSH_SECONDS = 1.0


def multiproc_dir() -> str | None:
    return os.environ.get(MULTIPROC_ENV) or None


class _Instruments:
    def __init__(self) -> None:
        from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, values

        if multiproc_dir() and not getattr(values.ValueClass, "_multiprocess", False):
            # prometheus_client was imported before the shared directory was set (a test runner, a
            # preloading server): count into the directory all the same, as the other workers do.
            values.ValueClass = values.get_value_class()  # type: ignore[no-untyped-call]
        self.registry = CollectorRegistry(auto_describe=True)
        self.streams_open = Gauge(
            "scorekeeper_streams_open", "Live event streams open now (phones following a table)",
            multiprocess_mode="livesum", registry=self.registry)
        self.streams_refused = Counter(
            "scorekeeper_streams_refused", "Live event streams refused (503 with Retry-After), by reason: "
            "cap (the server's stream cap) or per-address (one address's cap)", ["reason"], registry=self.registry)
        self.moves_written = Counter(
            "scorekeeper_moves_written", "Events written to tables (moves and undos), by game", ["game"],
            registry=self.registry)
        self.write_seconds = Histogram(
            "scorekeeper_move_write_seconds", "Time to write a move: its engine check and the database "
            "transaction, from the service call to the commit", registry=self.registry,
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0))
        for reason in (CAP, PER_ADDRESS):
            self.streams_refused.labels(reason)  # both series exist (at 0) from the first scrape
        self.registry.register(_TablesActive())
        # Per game, its counter: labels() checks and looks up on every call, and this is the write path.
        self.by_game: dict[str, Any] = {}

    def game(self, game: str) -> Any:
        child = self.by_game.get(game)
        if child is None:
            child = self.by_game[game] = self.moves_written.labels(game)
        return child


_made: _Instruments | None = None
_making = threading.Lock()
# The shared directory as it was when this process made its instruments (they count into it):
# read once, because the environment is slow to read (7 µs a call on a busy machine).
_shared_dir: str | None = None


def ready() -> None:
    """Make the instruments now (each worker, when its app is built), so a fresh worker's open
    streams read 0 rather than nothing until its first phone arrives."""
    _instruments()


def _instruments() -> _Instruments:
    global _made, _shared_dir
    made = _made
    if made is None:
        with _making:
            if _made is None:
                _shared_dir = multiproc_dir()
                _made = _Instruments()
            made = _made
    return made


# --- Tables in use ---------------------------------------------------------------------------

_lock = threading.Lock()
_streams: dict[str, int] = {}  # table -> streams open in this process
_touched: dict[str, float] = {}  # table -> when (time.time()) it last had a move or a stream here
_flush_timer: threading.Timer | None = None
_pruned = 0.0


def _cutoff(now: float) -> float:
    return now - ACTIVE_MINUTES * 60


def _prune(now: float) -> None:
    """Forget tables idle past the window (under ``_lock``): the dict stays the size of what is active."""
    global _pruned
    _pruned = now
    cutoff = _cutoff(now)
    for table_id in [t for t, at in _touched.items() if at < cutoff and t not in _streams]:
        del _touched[table_id]


def _touch(table_id: str) -> None:
    now = time.time()
    with _lock:
        _touched[table_id] = now
        if now - _pruned > 60:
            _prune(now)
    _changed()


def _local_active(now: float) -> dict[str, float | None]:
    """This process's tables in use: when each was last active, None while a stream is open."""
    with _lock:
        _prune(now)
        active: dict[str, float | None] = dict(_touched)
        active.update((t, None) for t in _streams)
    return active


def _changed() -> None:
    """Multi-process mode: write this worker's tables in use for whichever process answers the
    scrape, soon (a burst of a thousand reconnecting phones costs one write)."""
    global _flush_timer
    if _shared_dir is None or _flush_timer is not None:
        return
    with _lock:
        if _flush_timer is not None:
            return
        timer = _flush_timer = threading.Timer(FLUSH_SECONDS, flush)
    timer.daemon = True
    timer.start()


def flush() -> None:
    """Write this process's tables in use into the multi-process directory now."""
    global _flush_timer
    with _lock:
        _flush_timer = None
    path = multiproc_dir()
    if path is None:
        return
    target = Path(path) / _ACTIVE_FILE.format(pid=os.getpid())
    with contextlib.suppress(OSError):  # the directory went away (a test, an operator): nothing to tell
        with tempfile.NamedTemporaryFile("w", dir=path, prefix=".active-", delete=False) as out:
            json.dump(_local_active(time.time()), out)
        os.replace(out.name, target)  # the reader never sees half a file


def _files_active(path: str) -> Iterator[tuple[str, float | None]]:
    mine = _ACTIVE_FILE.format(pid=os.getpid())
    for file in Path(path).glob(_ACTIVE_FILE.format(pid="*")):
        if file.name == mine:
            continue  # this process answers from memory, which is newer
        with contextlib.suppress(OSError, ValueError):  # a worker gone meanwhile: its tables went with it
            yield from json.loads(file.read_text()).items()


def _newer(a: float | None, b: float | None) -> float | None:
    """Of two last-active times, the later; None (a stream open now) is later than any."""
    return None if a is None or b is None else max(a, b)


def tables_active(now: float | None = None) -> int:
    """Tables with an open stream, or a move or stream within ``ACTIVE_MINUTES``, in every process
    of this server (one table counted once, whichever workers its phones are on)."""
    now = time.time() if now is None else now
    seen = _local_active(now)
    path = multiproc_dir()
    if path is not None:
        for table_id, at in _files_active(path):
            seen[table_id] = _newer(at, seen[table_id]) if table_id in seen else at
    cutoff = _cutoff(now)
    return sum(1 for at in seen.values() if at is None or at >= cutoff)


class _TablesActive:
    """Collector: the count is worked out when scraped, not kept as a gauge (the window moves)."""

    def describe(self) -> list[Any]:
        return []

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import GaugeMetricFamily

        yield GaugeMetricFamily(
            "scorekeeper_tables_active",
            f"Tables with a live stream open, or a move or stream in the last {ACTIVE_MINUTES:g} minutes",
            value=tables_active())


# --- Instrumentation points ------------------------------------------------------------------

# Off in the app on a phone (offline/phone.py): nobody scrapes it, and prometheus_client's import
# and counters were memory in its snapshot and work in every move.
_counting = True


def set_counting(on: bool) -> None:
    """Whether the instrumentation points below count (the phone's app switches them off)."""
    global _counting
    _counting = on


def stream_opened(table_id: str) -> None:
    if not _counting:
        return
    _instruments().streams_open.inc()
    with _lock:
        _streams[table_id] = _streams.get(table_id, 0) + 1
    _changed()


def stream_closed(table_id: str) -> None:
    if not _counting:
        return
    _instruments().streams_open.dec()
    now = time.time()
    with _lock:
        left = _streams.get(table_id, 0) - 1
        if left > 0:
            _streams[table_id] = left
        else:
            _streams.pop(table_id, None)
            _touched[table_id] = now  # active for the window after its last phone left
    _changed()


def stream_refused(reason: str) -> None:
    """A stream answered 503: ``CAP`` (the server's cap) or ``PER_ADDRESS``."""
    if not _counting:
        return
    _instruments().streams_refused.labels(reason).inc()


def move_written(game: str, seconds: float, table_id: str) -> None:
    """A move (or undo) committed after ``seconds``."""
    if not _counting:
        return
    made = _instruments()
    made.game(game).inc()
    made.write_seconds.observe(seconds)
    _touch(table_id)


def table_deleted(table_id: str) -> None:
    if not _counting:
        return
    with _lock:
        _touched.pop(table_id, None)
    _changed()


# --- Exposition ------------------------------------------------------------------------------


def exposition() -> tuple[bytes, str]:
    """The metrics in Prometheus' text format, and its content type. In multi-process mode every
    worker's (and every dead worker's counters), from the shared directory."""
    from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

    return generate_latest(registry()), CONTENT_TYPE_LATEST


def registry() -> Any:
    path = multiproc_dir()
    if path is None:
        return _instruments().registry
    # Not this process's instruments: gunicorn's master serves METRICS_BIND from here and must
    # not make any (its workers would inherit them).
    from prometheus_client import CollectorRegistry
    from prometheus_client.multiprocess import MultiProcessCollector

    folder = path

    class Shared(MultiProcessCollector):
        def collect(self) -> Any:
            files = [f for f in glob.glob(os.path.join(folder, "*.db")) if _begun(f)]
            return self.merge(files, accumulate=True)  # type: ignore[no-untyped-call]

    shared = CollectorRegistry()
    Shared(shared, path=path)  # type: ignore[no-untyped-call]
    shared.register(_TablesActive())
    return shared


def _begun(file: str) -> bool:
    """Whether a worker's counter file has its header yet. prometheus_client creates the file empty
    and sizes it a moment later; a scrape in that moment (a worker starting) must not fail on it. A
    file without a header holds no counts. One gone meanwhile (child_exit) holds none either."""
    try:
        return os.path.getsize(file) >= _HEADER_BYTES
    except OSError:
        return False


# --- gunicorn hooks (scorekeeper/server.py puts them in its settings) ------------------------


def prepare_multiproc_dir() -> str:
    """The directory the workers share their counts in, emptied of a previous run's (whose
    counters would otherwise carry on); a fresh temporary one unless ``PROMETHEUS_MULTIPROC_DIR`` is set."""
    path = multiproc_dir()
    if path is None:
        path = os.environ[MULTIPROC_ENV] = tempfile.mkdtemp(prefix="scorekeeper-metrics-")
        atexit.register(_remove_if_mine, path, os.getpid())
    folder = Path(path)
    folder.mkdir(parents=True, exist_ok=True)
    for stale in [*folder.glob("*.db"), *folder.glob(_ACTIVE_FILE.format(pid="*"))]:
        stale.unlink(missing_ok=True)
    return path


def _remove_if_mine(path: str, owner: int) -> None:
    """At exit of the master that made the directory; forked workers inherit this hook and must not."""
    if os.getpid() == owner:
        shutil.rmtree(path, ignore_errors=True)


def parse_bind(bind: str) -> tuple[str, int]:
    host, _, port = bind.rpartition(":")
    if not port.isdigit():
        raise ValueError(f"METRICS_BIND must be host:port (e.g. 127.0.0.1:9100), not {bind!r}")
    return host.strip("[]") or "0.0.0.0", int(port)


def when_ready(server: Any) -> None:
    """gunicorn's ``when_ready`` (in the master, before the first worker is forked).

    Several workers, or ``METRICS_BIND``: the workers count into one shared directory (multi-process
    mode, set up here so every forked worker inherits it). ``METRICS_BIND`` is then served by this
    master from that directory: one address for the whole server, whichever worker counted.
    """
    bind = os.environ.get("METRICS_BIND", "").strip()
    several = int(getattr(server, "num_workers", 1) or 1) > 1
    if not bind and not (several and os.environ.get("METRICS_TOKEN")):
        return
    prepare_multiproc_dir()
    if bind:
        from prometheus_client import start_http_server

        host, port = parse_bind(bind)
        start_http_server(port, addr=host, registry=registry())


def child_exit(server: Any, worker: Any) -> None:  # noqa: ARG001 - gunicorn's hook signature
    """gunicorn's ``child_exit`` (in the master): a dead worker's open streams no longer count."""
    path = multiproc_dir()
    if path is None:
        return
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid, path)  # type: ignore[no-untyped-call]
    (Path(path) / _ACTIVE_FILE.format(pid=worker.pid)).unlink(missing_ok=True)
