"""gunicorn's settings (scorekeeper/server.py) and the broker's bookkeeping for many phones."""

from __future__ import annotations

import threading
import time

from scorekeeper.live import Broker, deliver, retry_ms, seats_payload, stream
from scorekeeper.server import FILE_RESERVE, gunicorn_argv, settings, stream_cap


def test_the_server_is_gevents_worker_sized_by_open_files(monkeypatch) -> None:
    monkeypatch.delenv("SSE_MAX_STREAMS", raising=False)
    got = settings({"PORT": "5111"})
    assert got["worker_class"] == "scorekeeper.worker.StreamWorker"
    assert got["bind"] == "0.0.0.0:5111" and got["workers"] == 1
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert soft == hard  # raised to the hard limit: each phone is a descriptor
    assert got["worker_connections"] == soft - FILE_RESERVE
    import os

    assert int(os.environ["SSE_MAX_STREAMS"]) == stream_cap(got["worker_connections"], 1024)
    assert settings({"DATABASE_URL": "postgresql://x/y", "WEB_CONNECTIONS": "500"})["workers"] == 2


def test_the_stream_cap_keeps_connections_for_moves_and_fits_memory() -> None:
    assert stream_cap(20_000, 4096) == 18_000            # a tenth kept for moves and pages
    assert stream_cap(1_000, 4096) == 900
    assert stream_cap(200, 4096) == 136                  # at least 64 kept
    assert stream_cap(100_000, 1024) == 1024 * 1024 // 32  # memory first


def test_make_run_execs_gunicorn_with_the_packaged_config() -> None:
    argv = gunicorn_argv("/py", "0.0.0.0", 5000)
    assert argv[:3] == ["/py", "-m", "gunicorn"]
    assert "python:scorekeeper.gunicorn_conf" in argv and "0.0.0.0:5000" in argv


def test_a_stream_tells_its_phone_a_jittered_retry() -> None:
    assert retry_ms(1000, 4000, lambda: 0.0) == 1000
    assert retry_ms(1000, 4000, lambda: 0.999) == 4996
    first = next(stream("t", 0, source=Broker(), retry_ms=3210))
    assert first == b"retry: 3210\n\n"


def test_a_crowd_that_came_together_does_not_rotate_together() -> None:
    def ends_after(draw: float) -> float:
        broker = Broker()
        t0 = time.monotonic()
        for _ in stream("t", 0, ping_every=0.05, max_seconds=0.5, source=broker, spread=lambda: draw):
            pass
        return time.monotonic() - t0

    assert ends_after(0.0) > 0.45 and ends_after(1.0) < 0.45  # up to a fifth earlier


def test_a_tables_condition_lives_only_while_a_stream_waits() -> None:
    broker = Broker()
    waiting = threading.Thread(target=broker.wait, args=("t", 0, 5))
    waiting.start()
    deadline = time.monotonic() + 2
    while broker.waiting() == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert broker.conditions() == 1
    broker.publish("t", 1)
    waiting.join(2)
    assert broker.conditions() == 0 and broker.waiting() == 0
    for n in range(100):  # tables moved with nobody watching leave nothing behind
        broker.publish(f"x{n}", 1)
        broker.reseat(f"x{n}")
    assert broker.conditions() == 0


def test_a_seat_change_heard_twice_counts_once() -> None:
    broker = Broker()
    broker.reseat("t", "n1")
    deliver(broker, seats_payload("t", "n1"))  # the same change back through NOTIFY
    assert broker.seatings("t") == 1
    deliver(broker, seats_payload("t", "n2"))
    assert broker.seatings("t") == 2
    deliver(broker, "t:7")
    assert broker.wait("t", 0, 0.01) == 7


def test_a_stream_ended_by_a_shutdown_spreads_its_phones_reconnect() -> None:
    broker = Broker()
    messages = stream("t", 0, ping_every=10, max_seconds=10, source=broker, retry_ms=1000,
                      restart_ms=15000, spread=lambda: 0.5)
    assert next(messages) == b"retry: 1000\n\n"
    next(messages)  # the head
    broker.close()
    assert list(messages) == [b"retry: 8500\n\n"]
    rotated = list(stream("t", 0, ping_every=0.01, max_seconds=0.05, source=Broker(), restart_ms=15000))
    assert not any(m.startswith(b"retry") for m in rotated[1:])  # a rotation keeps the short retry
