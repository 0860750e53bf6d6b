"""The broker and the event stream: one message per new seq, pings while idle, catch-up at connect."""

from __future__ import annotations

import threading
import time

from scorekeeper.live import (
    Broker,
    catch_up,
    changes,
    head_message,
    relistened,
    sse_message,
    stream,
)


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


def test_a_phones_stream_keeps_alive_with_the_head_the_apis_with_a_comment() -> None:
    """The page's keep-alive names the head, so a page that lost a move's notice fetches it then;
    it is not a ``message`` (that would redraw every sheet at every keep-alive)."""
    broker = Broker()
    page = stream("t", 2, ping_every=0.01, max_seconds=30.0, source=broker, seats=True)
    assert next(page).startswith(b"retry:")
    assert next(page) == sse_message(2, "t")
    broker.publish("t", 3)
    assert next(page) == sse_message(3, "t")
    assert next(page) == head_message(3, "t") == b'event: head\ndata: {"table": "t", "seq": 3}\n\n'
    api = stream("t", 3, ping_every=0.01, max_seconds=30.0, source=broker)
    assert [next(api) for _ in range(3)][1:] == [sse_message(3, "t"), b": ping\n\n"]


def test_a_circle_pages_stream_names_its_head_at_connect_and_keep_alive_the_apis_does_not() -> None:
    """A circle's page that slept through a change, or reconnected after one, learns the newest
    change's time from its stream and fetches its standings; the API's stream is as documented."""
    broker = Broker()
    broker.publish("circle:c", 1_700_000_000_000)
    page = changes("circle:c", ping_every=0.01, max_seconds=30.0, source=broker, heads=True)
    assert next(page).startswith(b"retry:")
    assert next(page) == b'event: head\ndata: {"circle": "circle:c", "seq": 1700000000000}\n\n'
    broker.publish("circle:c", 1_700_000_000_500)
    assert next(page) == b'event: message\ndata: {"circle": "circle:c", "seq": 1700000000500}\n\n'
    assert next(page) == b'event: head\ndata: {"circle": "circle:c", "seq": 1700000000500}\n\n'
    api = changes("circle:c", ping_every=0.01, max_seconds=30.0, source=broker)
    assert [next(api) for _ in range(2)][1:] == [b": ping\n\n"]


def _waiting(broker: Broker, key: str, after: int) -> threading.Thread:
    thread = threading.Thread(target=broker.wait, args=(key, after, 5), daemon=True)
    thread.start()
    deadline = time.monotonic() + 5
    while key not in broker.watched() and time.monotonic() < deadline:
        time.sleep(0.005)
    return thread


def test_a_listener_back_from_a_gap_reads_what_it_missed() -> None:
    """NOTIFYs sent while the listener was away are lost: at its LISTEN again, every table a stream
    waits on gets its head afresh, a table gone ends its streams, a circle's pages redraw, and what
    this process keeps of tokens is dropped. Seats are not redrawn: every phone of the worker
    would fetch its sheet at once."""
    broker = Broker()
    forgotten: list[str] = []
    relistened.append(lambda: forgotten.append("all"))
    try:
        moved, gone, circle = (_waiting(broker, "moved", 4), _waiting(broker, "gone", 1),
                               _waiting(broker, "circle:c", 1000))
        asked: list[list[str]] = []

        def heads(tables: list[str]) -> dict[str, int]:
            asked.append(sorted(tables))
            return {"moved": 6}

        catch_up(broker, heads)
        for thread in (moved, gone, circle):
            thread.join(2)
            assert not thread.is_alive()
    finally:
        relistened.pop()
    assert asked == [["gone", "moved"]]  # a circle's channel is not looked up as a table
    assert broker.head("moved") == 6 and broker.seatings("moved") == 0
    assert broker.is_deleted("gone") and not broker.is_deleted("moved")
    assert broker.head("circle:c") > 1000
    assert forgotten == ["all"]
    catch_up(Broker(), heads)  # nobody waiting: nothing to look up
    assert len(asked) == 1
