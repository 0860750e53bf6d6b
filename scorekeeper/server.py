"""gunicorn, sized for event streams: the settings ``make run``, ``make serve`` and the Procfile share.

Every open score sheet holds one event stream, and under the gthread worker each stream holds a
thread. A table of 4–8 phones, so THREADS=64 serves about 8–15 tables per worker; raise
WEB_THREADS (threads are cheap: ~100 KB each) or WEB_CONCURRENCY (workers) for a club or a
tournament. Streams end by themselves after 10 minutes and the phones reconnect, and a ping every
15 s finds dead phones, so threads of vanished clients come back.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from scorekeeper import metrics


def worker_exit(server: Any, worker: Any) -> None:  # noqa: ARG001 - gunicorn's hook signature
    from scorekeeper.live import broker

    broker.close()


def settings(environ: Mapping[str, str] = os.environ, host: str = "0.0.0.0", port: int | None = None) -> dict[str, Any]:
    """gunicorn's settings by name. Sets ``SSE_MAX_STREAMS`` in the environment for the app."""
    port = port if port is not None else int(environ.get("PORT", "5000"))
    # SQLite has no cross-process live updates (no LISTEN/NOTIFY): one worker unless PostgreSQL is used.
    postgres = environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql"))
    threads = int(environ.get("WEB_THREADS", "64"))
    # Keep threads free for moves: event streams may take all but a quarter of them (at least 4).
    os.environ.setdefault("SSE_MAX_STREAMS", str(max(1, threads - max(4, threads // 4))))
    return {
        "bind": f"{host}:{port}",
        "workers": int(environ.get("WEB_CONCURRENCY", "2" if postgres else "1")),
        "worker_class": "gthread",
        "threads": threads,
        "graceful_timeout": 3,  # open streams must not hold a shutdown for 30 s
        "timeout": 60,
        "keepalive": 5,
        "accesslog": "-",
        "control_socket_disable": True,  # two gunicorns on one machine must not clash (gunicorn 27)
        "worker_exit": worker_exit,
        # /metrics across workers: a shared PROMETHEUS_MULTIPROC_DIR, METRICS_BIND, dead workers' streams dropped
        "when_ready": metrics.when_ready,
        "child_exit": metrics.child_exit,
    }


def serve(host: str, port: int) -> None:
    """Serve ``create_app()`` under gunicorn in this process (``python -m scorekeeper``)."""
    from gunicorn.app.base import BaseApplication

    class Server(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            for name, value in settings(host=host, port=port).items():
                if name in self.cfg.settings:
                    self.cfg.set(name, value)

        def load(self) -> Any:
            # Each worker builds its own app: the PostgreSQL listener thread would not survive a fork.
            from scorekeeper import create_app

            return create_app()

    Server().run()
