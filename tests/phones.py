"""Phones that hold a table's event stream open, thousands to a process (asyncio), the way a
browser's EventSource does: they reconnect after the server's ``retry`` when a stream ends or the
server is gone, back off (with jitter, as the app's sse.js does) after a 503, and note when each
move reached them. Used by the stream tests and by bench/bench_phones.py."""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field


@dataclass
class Phone:
    path: str                      # /api/v1/tables/<id>/stream?token=…
    table: str
    address: str = "127.0.0.1"     # the source address this phone connects from
    headers: dict[str, str] = field(default_factory=dict)
    retry_ms: int = 1000
    connected: bool = False
    opened: int = 0                # streams opened (200)
    refused: int = 0               # 503 answers
    failed: int = 0                # connections refused or reset, other statuses
    resets: int = 0                # streams that ended without a clean end
    first_open: float | None = None
    last_open: float | None = None
    arrivals: dict[int, float] = field(default_factory=dict)  # seq -> time.monotonic() first heard


async def hold(phone: Phone, host: str, port: int, stop: asyncio.Event, *, backoff_ms: int = 500) -> None:
    attempt = 0
    while not stop.is_set():
        writer = None
        clean = False
        try:
            reader, writer = await asyncio.open_connection(host, port, local_addr=(phone.address, 0), limit=2 ** 16)
            extra = "".join(f"{k}: {v}\r\n" for k, v in phone.headers.items())
            # HTTP/1.0: the stream is delimited by the connection's end, no chunking to undo.
            writer.write(f"GET {phone.path} HTTP/1.0\r\nHost: {host}\r\nAccept: text/event-stream\r\n{extra}\r\n".encode())
            status = int((await reader.readline()).split()[1])
            while await reader.readline() not in (b"\r\n", b"\n", b""):
                pass  # headers; an EventSource ignores Retry-After, so do the phones
            if status == 503:
                phone.refused += 1
                attempt = min(attempt + 1, 8)
                # sse.js: a failed EventSource is opened again after n*500 ms (n doubling), jittered.
                await _sleep(stop, (2 ** attempt) * backoff_ms / 1000 * (0.5 + random.random()))
                continue
            if status != 200:
                phone.failed += 1
                await _sleep(stop, 1.0)
                continue
            attempt = 0
            phone.opened += 1
            phone.connected = True
            now = time.monotonic()
            phone.first_open = phone.first_open or now
            phone.last_open = now
            while True:
                line = await reader.readline()
                if not line:
                    clean = True
                    break
                if line.startswith(b"retry:"):
                    phone.retry_ms = int(line[6:].strip())
                elif line.startswith(b"data:"):
                    seq = json.loads(line[5:])["seq"]
                    phone.arrivals.setdefault(seq, time.monotonic())
        except (OSError, ValueError, IndexError, asyncio.IncompleteReadError):
            phone.failed += 1
        finally:
            if phone.connected and not clean:
                phone.resets += 1
            phone.connected = False
            if writer is not None:
                writer.close()
        await _sleep(stop, phone.retry_ms / 1000)


async def _sleep(stop: asyncio.Event, seconds: float) -> None:
    try:
        await asyncio.wait_for(stop.wait(), seconds)
    except TimeoutError:
        pass


def summary(phones: list[Phone]) -> dict[str, int]:
    return {"connected": sum(p.connected for p in phones), "opened": sum(p.opened for p in phones),
            "refused": sum(p.refused for p in phones), "failed": sum(p.failed for p in phones),
            "resets": sum(p.resets for p in phones)}


class Crowd:
    """Phones held by an event loop in a thread of this process (for the tests)."""

    def __init__(self, host: str, port: int) -> None:
        import threading

        self.host, self.port = host, port
        self.phones: list[Phone] = []
        self.tasks: list[asyncio.Task[None]] = []  # the loop keeps only weak references to tasks
        self.loop = asyncio.new_event_loop()
        self.stop_event: asyncio.Event | None = None
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.stop_event = self._call(self._make_event)

    @staticmethod
    async def _make_event() -> asyncio.Event:
        return asyncio.Event()

    def _call(self, coro_fn, *args):  # type: ignore[no-untyped-def]
        return asyncio.run_coroutine_threadsafe(coro_fn(*args), self.loop).result(30)

    def add(self, phones: list[Phone]) -> None:
        async def start() -> None:
            assert self.stop_event is not None
            for phone in phones:
                self.tasks.append(asyncio.ensure_future(hold(phone, self.host, self.port, self.stop_event)))

        self.phones.extend(phones)
        self._call(start)

    def wait(self, condition, timeout: float = 30) -> bool:  # type: ignore[no-untyped-def]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if condition():
                return True
            time.sleep(0.05)
        return condition()

    def close(self) -> None:
        async def stop() -> None:
            assert self.stop_event is not None
            self.stop_event.set()
            for task in self.tasks:
                task.cancel()
            await asyncio.gather(*self.tasks, return_exceptions=True)

        self._call(stop)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
