"""The rate limiter's in-memory counters: windows still expire, and no thread starts per hit."""

from __future__ import annotations

import threading
import time

import pytest

from scorekeeper import create_app
from scorekeeper.extensions import limiter
from scorekeeper.limits_storage import SweptMemoryStorage


class CountingTimer(threading.Timer):
    started = 0

    def start(self) -> None:
        CountingTimer.started += 1
        super().start()


def test_a_window_expires_when_read_past_its_end() -> None:
    storage = SweptMemoryStorage("swept-memory://")
    assert [storage.incr("k", 0.05) for _ in range(3)] == [1, 2, 3]
    time.sleep(0.08)
    assert storage.get("k") == 0
    assert storage.incr("k", 0.05) == 1


def test_hits_start_no_timer_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    storage = SweptMemoryStorage("swept-memory://")
    monkeypatch.setattr(threading, "Timer", CountingTimer)
    CountingTimer.started = 0
    for _ in range(5):
        storage.incr("k", 60)
        time.sleep(0.02)  # longer than limits' 10 ms timer: memory:// starts a new one per hit
    assert CountingTimer.started == 0
    assert storage.get("k") == 5


def test_stale_keys_are_swept_inline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("scorekeeper.limits_storage.SWEEP_SECONDS", 0.0)
    storage = SweptMemoryStorage("swept-memory://")
    storage.incr("old", 0.01)
    time.sleep(0.03)
    storage.incr("new", 60)
    assert "old" not in storage.storage and storage.get("new") == 1


def test_the_app_limits_with_the_swept_storage(tmp_path) -> None:
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'l.sqlite'}", "SECRET_KEY": "t",
                      "PUBLIC_URL": "http://127.0.0.1:1", "RATELIMIT_ENABLED": True})
    assert isinstance(limiter.storage(app), SweptMemoryStorage)
