"""Rate-limit counters kept in the worker's memory, without a timer thread per request."""

from __future__ import annotations

import threading
import time
from typing import Any

from limits.storage import MemoryStorage

SWEEP_SECONDS = 1.0


class SweptMemoryStorage(MemoryStorage):
    """``memory://`` as ``limits`` has it, but stale counters are swept inline, at most once a
    second, instead of by a ``threading.Timer`` (10 ms) started whenever the last one has run
    out: on a busy server that was a thread start — and a hand-over of the GIL to it — for
    nearly every request (the saturated write benchmark, bench/README.md). A counter is still
    expired the moment it is read past its window (``MemoryStorage.get``); the sweep only
    frees the memory of keys nobody reads any more. URI: ``swept-memory://``.
    """

    STORAGE_SCHEME = ["swept-memory"]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: Any) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self._next_sweep = 0.0
        self._sweeping = threading.Lock()

    # MemoryStorage calls ``self.__schedule_expiry()`` on every hit; this is that name, mangled.
    def _MemoryStorage__schedule_expiry(self) -> None:
        now = time.monotonic()
        if now < self._next_sweep or not self._sweeping.acquire(blocking=False):
            return
        try:
            self._next_sweep = now + SWEEP_SECONDS
            self._MemoryStorage__expire_events()  # type: ignore[attr-defined]
        finally:
            self._sweeping.release()
