"""The gunicorn worker: gevent's, which ends the open event streams as soon as shutdown begins.

gunicorn's gevent worker stops accepting on SIGTERM and then waits ``graceful_timeout`` for open
connections; an event stream never finishes by itself, so without this every deploy would hold
the phones until the timeout and then cut them. Waking the streams lets each end with a clean
last chunk, and the phones reconnect (after their jittered ``retry``) to the next server.
"""

from __future__ import annotations

from typing import Any

import gevent
from gunicorn.workers.ggevent import GeventWorker


def _close_streams() -> None:
    from scorekeeper.live import broker

    broker.close()


class StreamWorker(GeventWorker):
    def handle_exit(self, sig: int, frame: Any) -> None:
        # A signal handler must not block: the streams are woken from a greenlet of their own.
        gevent.spawn(_close_streams)
        super().handle_exit(sig, frame)

    def handle_quit(self, sig: int, frame: Any) -> None:
        gevent.spawn(_close_streams)
        super().handle_quit(sig, frame)
