"""gunicorn, sized for event streams: the settings ``make run``, ``make serve`` and the Procfile share.

Every open score sheet holds one event stream. Under gunicorn's gevent worker a stream costs a
connection (a socket and a greenlet, measured at about 23 kB: bench/bench_phones.py), not a
thread, so one worker holds thousands of phones while a move is handled beside them at once. The
limits are the open-file limit (one descriptor per phone; raised here to the hard limit) and
memory; the stream cap keeps a share of the worker's connections for moves, whatever the phones
do. Streams end by themselves after ``SSE_MAX_SECONDS`` and the phones reconnect (``retry`` with
jitter, so a restart does not bring every phone back in the same second), and a ping every
``SSE_PING_SECONDS`` finds dead phones.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from scorekeeper import metrics

# Descriptors a worker keeps for itself beside its phones: the database, the PostgreSQL listener,
# log files, the listening socket.
FILE_RESERVE = 256
# What an open stream costs a worker (greenlet, socket buffers, the WSGI environ), rounded up from
# bench/bench_phones.py's figure; the default stream cap keeps SSE_MEMORY_MB for them.
STREAM_KB = 32


def raise_open_file_limit(resource_module: Any = None) -> int:
    """The soft open-file limit raised to the hard one (each phone is a descriptor); returns it."""
    try:
        resource = resource_module or __import__("resource")
    except ImportError:  # not on POSIX
        return 1024
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    return 1 << 20 if soft == resource.RLIM_INFINITY else int(soft)


def stream_cap(connections: int, memory_mb: int) -> int:
    """Open streams a worker takes before answering 503: a tenth of its connections (at least 64)
    stay free for moves and page loads, and the streams fit ``memory_mb``."""
    reserve = max(64, connections // 10)
    return max(1, min(connections - reserve, memory_mb * 1024 // STREAM_KB))


def settings(environ: Mapping[str, str] = os.environ, host: str = "0.0.0.0", port: int | None = None) -> dict[str, Any]:
    """gunicorn's settings by name. Sets ``SSE_MAX_STREAMS`` in the environment for the app."""
    port = port if port is not None else int(environ.get("PORT", "5000"))
    # SQLite has no cross-process live updates (no LISTEN/NOTIFY): one worker unless PostgreSQL is used.
    postgres = environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql"))
    files = raise_open_file_limit()
    workers = int(environ.get("WEB_CONCURRENCY", "2" if postgres else "1"))
    connections = int(environ.get("WEB_CONNECTIONS") or max(64, files - FILE_RESERVE))
    memory_mb = int(environ.get("SSE_MEMORY_MB", "1024"))
    os.environ.setdefault("SSE_MAX_STREAMS", str(stream_cap(connections, memory_mb)))
    return {
        "bind": environ.get("BIND") or f"{host}:{port}",
        "workers": workers,
        "worker_class": "scorekeeper.worker.StreamWorker",
        "worker_connections": connections,
        "backlog": 4096,  # a restart brings thousands of phones back within seconds
        "graceful_timeout": 5,  # streams end at once on shutdown; a move in flight gets 5 s
        "timeout": 60,
        "keepalive": 5,
        "accesslog": environ.get("ACCESS_LOG", "-") or None,
        # Tokens redacted in the access and error logs, whatever access_log_format says (scorekeeper/redact.py)
        "logger_class": "scorekeeper.server_log.RedactingLogger",
        "control_socket_disable": True,  # two gunicorns on one machine must not clash (gunicorn 27)
        # /metrics across workers: a shared PROMETHEUS_MULTIPROC_DIR, METRICS_BIND, dead workers' streams dropped
        "when_ready": metrics.when_ready,
        "child_exit": metrics.child_exit,
    }


def gunicorn_argv(python: str, host: str, port: int) -> list[str]:
    """The command ``python -m scorekeeper`` becomes: gunicorn in a fresh interpreter, so the gevent
    worker patches the standard library before any of the app is imported."""
    return [python, "-m", "gunicorn", "--config", "python:scorekeeper.gunicorn_conf",
            "--bind", f"{host}:{port}", "scorekeeper:create_app()"]


def serve(host: str, port: int) -> None:
    """Replace this process with gunicorn serving ``create_app()`` (``python -m scorekeeper``)."""
    import sys

    argv = gunicorn_argv(sys.executable, host, port)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(argv[0], argv)
