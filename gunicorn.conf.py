"""gunicorn settings for the Procfile and `make serve`.

Every open score sheet holds one event stream, and under the gthread worker each stream holds a
thread. A table of 4–8 phones, so THREADS=64 serves about 8–15 tables per worker; raise
WEB_THREADS (threads are cheap: ~100 KB each) or WEB_CONCURRENCY (workers) for a club or a
tournament. Streams end by themselves after 10 minutes and the phones reconnect, and a ping every
15 s finds dead phones, so threads of vanished clients come back.
"""

import os

bind = f"0.0.0.0:{os.environ.get('PORT', '5000')}"
# SQLite has no cross-process live updates (no LISTEN/NOTIFY): one worker unless PostgreSQL is used.
_postgres = os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql"))
workers = int(os.environ.get("WEB_CONCURRENCY", "2" if _postgres else "1"))
worker_class = "gthread"
threads = int(os.environ.get("WEB_THREADS", "64"))
# Keep threads free for moves: event streams may take all but a quarter of them (at least 4).
os.environ.setdefault("SSE_MAX_STREAMS", str(max(1, threads - max(4, threads // 4))))
graceful_timeout = 3  # open streams must not hold a shutdown for 30 s
timeout = 60
keepalive = 5
accesslog = "-"
control_socket_disable = True  # two gunicorns on one machine must not clash (gunicorn 27)


def worker_exit(server, worker):  # noqa: ARG001 - gunicorn's hook signature
    from scorekeeper.live import broker

    broker.close()
