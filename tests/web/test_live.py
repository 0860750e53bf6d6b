"""The broker and the event stream: one message per new seq, pings while idle, catch-up at connect."""

from __future__ import annotations

import threading
import time

from scorekeeper.live import Broker, sse_message, stream


def test_wait_returns_newest_seq_or_none_on_timeout() -> None:
    broker = Broker()
    assert broker.wait("t", 0, 0.01) is None
    broker.publish("t", 3)
    assert broker.wait("t", 0, 0.01) == 3
    assert broker.wait("t", 3, 0.01) is None
    assert broker.wait("other", 0, 0.01) is None


def test_publish_wakes_a_waiting_stream_quickly() -> None:
    broker = Broker()
    got: list[float] = []

    def listen() -> None:
        start = time.monotonic()
        broker.wait("t", 0, 5)
        got.append(time.monotonic() - start)

    thread = threading.Thread(target=listen)
    thread.start()
    time.sleep(0.05)
    broker.publish("t", 1)
    thread.join(2)
    assert got and got[0] < 1.0


def test_stream_catches_up_every_seq_and_pings() -> None:
    broker = Broker()
    # A long life: with 0.3 s (less up to a fifth) a loaded machine reached the stream's end before its ping.
    messages = stream("t", 2, ping_every=0.01, max_seconds=30.0, source=broker)
    assert next(messages).startswith(b"retry:")
    assert next(messages) == sse_message(2, "t")
    broker.publish("t", 5)
    assert [next(messages) for _ in range(3)] == [sse_message(s, "t") for s in (3, 4, 5)]
    assert next(messages) == b": ping\n\n"


def test_stream_ends_on_close() -> None:
    broker = Broker()
    messages = list(stream("t", 0, ping_every=10, max_seconds=10, source=_closed(broker)))
    assert messages[-1] == sse_message(0, "t")


def _closed(broker: Broker) -> Broker:
    broker.close()
    return broker
