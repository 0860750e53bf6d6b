"""Platform figures of the table server: write latency and throughput, live-update delay, first-load bytes.

Serves the app the way ``make serve`` does — gunicorn, one gthread worker (32 threads), SQLite in a
temporary folder, static files precompressed by WhiteNoise — on a free port of 127.0.0.1, then:

* **writes**: 20 client threads, each on its own score-pad table over its own keep-alive
  connection, ``POST /api/v1/tables/<id>/events``. Run twice: *saturated* (each client posts again
  as soon as it has the answer: the throughput, and the latency of a server kept 100 % busy) and
  *paced* (each client posts twice a second at a random phase, 40 req/s in all — ten times a busy
  evening's rate — the latency a phone sees when the server is not the bottleneck). The trivial
  ``GET /healthz`` is run saturated the same way, so the write throughput can be given as a ratio.
* **live update**: the time from sending a POST on one connection to reading its
  ``data: {"table": …, "seq": n}`` line on an open event stream (another connection); quiet, with
  the 20 paced writers running, and with the 20 writers saturating the server.
* **first load**: the bytes a phone downloads to open a table page (``Accept-Encoding: gzip, br``):
  the page and everything it references (CSS, JS, icons, manifest, the QR images), counted as
  response headers plus the body as transferred (compressed, without chunk framing).

Figures are printed beside their targets (PASS/MISS); nothing is asserted. The clients run in this
process and share the machine's cores with the server, as a phone's radio time is not modelled.
Everything stays on 127.0.0.1; every loop is bounded in count and time.

    .venv/bin/python bench/bench_platform.py            # about a minute on 2 cores
    .venv/bin/python bench/bench_platform.py --quick    # fewer samples, for a smoke run
    .venv/bin/python bench/bench_platform.py --profile  # also split a write's server time into its stages
    .venv/bin/python bench/bench_platform.py --profile-only  # only that split (~10 s)
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / ".venv" / "bin" if (ROOT / ".venv" / "bin" / "gunicorn").exists() else Path(sys.executable).parent
HOST = "127.0.0.1"

TARGETS = {
    "post_median_ms": 10.0,
    "post_p99_ms": 40.0,
    "live_p95_ms": 250.0,
    "first_load_kb": 50.0,
}


# --- the server ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    port: int
    env: dict[str, str]
    workdir: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def log(self) -> Path:
        return self.workdir / "gunicorn.log"

    def mark(self) -> int:
        return self.log.stat().st_size

    def cpu(self) -> float:
        """CPU seconds (user + system) of gunicorn's master and workers so far, from /proc."""
        if self.process is None:
            return 0.0
        pids, total = [self.process.pid], 0.0
        while pids:
            pid = pids.pop()
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
                for task in Path(f"/proc/{pid}/task").iterdir():
                    pids += [int(c) for c in (task / "children").read_text().split()]
            except OSError:
                continue
        return total

    def server_times(self, since: int, request: str) -> list[float]:
        """Seconds the server spent on each logged request starting with ``request`` (e.g. "POST /api/")
        since the mark: from reading the request to the last byte written, the client's time excluded."""
        with open(self.log, "rb") as fh:
            fh.seek(since)
            lines = fh.read().decode(errors="replace").splitlines()
        return [int(line.rsplit(" ", 1)[1]) / 1e6 for line in lines
                if f'"{request}' in line and line.rsplit(" ", 1)[1].isdigit()]


COMPRESSIBLE = {".css", ".js", ".svg", ".json", ".html", ".txt", ".webmanifest"}


def static_is_current() -> bool:
    """True when static/dist (hashed copies, `make assets`) matches static/ and every text file
    there has fresh .gz and .br siblings — then nothing is rebuilt under a server that may be
    reading those files."""
    import hashlib

    static = ROOT / "static"
    dist = static / "dist"
    if (ROOT / "scorekeeper" / "assets.py").exists():
        try:
            manifest = json.loads((dist / "manifest.json").read_text())
        except (OSError, ValueError):
            return False
        for path in static.rglob("*"):
            if path.is_dir() or dist in path.parents or path.suffix in {".gz", ".br"}:
                continue
            hashed = manifest.get(path.relative_to(static).as_posix(), "")
            digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
            if digest not in hashed or not (static / hashed).exists():
                return False
    for path in static.rglob("*"):
        if path.suffix in COMPRESSIBLE and not path.name.endswith(".map"):
            for sibling in (path.with_name(path.name + ".gz"), path.with_name(path.name + ".br")):
                if not sibling.exists() or sibling.stat().st_mtime < path.stat().st_mtime:
                    return False
    return True


def prepare_static() -> None:
    """What `make assets` does: hashed copies (where the app has them), then WhiteNoise's
    precompressed .gz/.br siblings. Skipped when already current."""
    if static_is_current():
        return
    if (ROOT / "scorekeeper" / "assets.py").exists():
        subprocess.run([str(BIN / "python"), "-m", "scorekeeper.assets"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    subprocess.run([str(BIN / "python"), "-m", "whitenoise.compress", "-q", "static"], cwd=ROOT, check=True)


@contextmanager
def serve(threads: int = 32, app_spec: str = "scorekeeper:create_app()") -> Iterator[Server]:
    """gunicorn on a free loopback port with a throwaway SQLite file; stopped (SIGTERM) on exit."""
    workdir = Path(tempfile.mkdtemp(prefix="scorekeeper-bench-"))
    port = free_port()
    env = {**os.environ,
           "DATABASE_URL": f"sqlite:///{workdir / 'bench.sqlite'}",
           "PUBLIC_URL": f"http://{HOST}:{port}",
           "SECRET_KEY": "bench-" + os.urandom(8).hex(),
           "FLASK_APP": "scorekeeper",
           # Every client here is 127.0.0.1: lift the per-address limits so they measure the limiter's
           # cost, not its refusals (the defaults allow 5 new tables and 600 events a minute).
           "RATE_LIMIT_CREATE": "100000 per minute",
           "RATE_LIMIT_EVENTS": "1000000 per minute"}
    env.pop("WEB_CONCURRENCY", None)
    server = Server(port, env, workdir)
    try:
        prepare_static()
        subprocess.run([str(BIN / "python"), "-m", "babel.messages.frontend", "-q", "compile",
                        "-d", "scorekeeper/translations"], cwd=ROOT, check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run([str(BIN / "flask"), "--app", "scorekeeper", "db", "upgrade"], cwd=ROOT, env=env,
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        log = open(workdir / "gunicorn.log", "wb")  # noqa: SIM115 - closed with the process below
        server.process = subprocess.Popen(
            # The production settings (gunicorn.conf.py: gthread, keep-alive 5 s, access log), with
            # one worker of `threads` threads on the loopback port.
            [str(BIN / "gunicorn"), "--config", "gunicorn.conf.py", "-k", "gthread", "--threads", str(threads),
             "-w", "1", "--no-control-socket", "--graceful-timeout", "3", "-b", f"{HOST}:{port}",
             "--access-logformat", '%(h)s %(t)s "%(r)s" %(s)s %(b)s %(D)s',  # D: µs in the server
             app_spec],
            cwd=ROOT, env=env, stdout=log, stderr=log)
        deadline = time.monotonic() + 30
        while True:
            try:
                status, _, _ = Client(port).get("/healthz")
                if status == 200:
                    break
            except OSError:
                pass
            if server.process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"gunicorn did not come up; see {workdir / 'gunicorn.log'}:\n"
                                 + (workdir / "gunicorn.log").read_text(errors="replace")[-2000:])
            time.sleep(0.1)
        yield server
    finally:
        if server.process is not None and server.process.poll() is None:
            server.process.send_signal(signal.SIGTERM)
            try:
                server.process.wait(10)
            except subprocess.TimeoutExpired:
                server.process.kill()
                server.process.wait(5)
        shutil.rmtree(workdir, ignore_errors=True)


# --- a keep-alive HTTP client ----------------------------------------------------------------


class Client:
    """One keep-alive connection; reconnects (and counts it) when the server closed an idle one."""

    def __init__(self, port: int, timeout: float = 10.0) -> None:
        self.port = port
        self.timeout = timeout
        self.conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
        self.reconnects = 0

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, http.client.HTTPResponse, bytes]:
        for attempt in range(2):
            try:
                self.conn.request(method, path, body=body, headers=headers or {})
                resp = self.conn.getresponse()
                data = resp.read()
                return resp.status, resp, data
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.conn.close()
                self.conn = http.client.HTTPConnection(HOST, self.port, timeout=self.timeout)
                self.reconnects += 1
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, http.client.HTTPResponse, bytes]:
        return self.request("GET", path, headers=headers)

    def post_json(self, path: str, payload: Any, token: str | None = None) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        status, _, data = self.request("POST", path, json.dumps(payload).encode(), headers)
        return status, json.loads(data) if data else None

    def close(self) -> None:
        self.conn.close()


@dataclass
class BenchTable:
    id: str
    write_token: str
    read_token: str


def open_table(client: Client, players: int = 2) -> BenchTable:
    status, body = client.post_json("/api/v1/tables", {
        "game": "scorepad", "players": [f"P{i}" for i in range(players)], "options": {"target": 10_000}})
    if status != 201:
        raise SystemExit(f"could not open a table: {status} {body}")
    return BenchTable(body["id"], body["write_token"], body["read_token"])


def post_points(client: Client, table: BenchTable, side: int = 0, points: int = 5) -> int:
    status, body = client.post_json(f"/api/v1/tables/{table.id}/events",
                                    {"type": "points", "side": side, "points": points}, table.write_token)
    if status != 201:
        raise RuntimeError(f"POST events answered {status}: {body}")
    return int(body["seq"])


# --- statistics --------------------------------------------------------------------------------


def pct(values: list[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(p / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def verdict(value: float, limit: float) -> str:
    return "PASS" if value <= limit else "MISS"


@dataclass
class Load:
    label: str
    latencies: list[float] = field(default_factory=list)  # seconds
    wall: float = 0.0
    errors: int = 0
    reconnects: int = 0
    server: list[float] = field(default_factory=list)  # seconds inside gunicorn, from its access log
    cpu: float = 0.0  # gunicorn's CPU seconds per request (warm-up included), from /proc

    @property
    def count(self) -> int:
        return len(self.latencies)

    @property
    def rate(self) -> float:
        return self.count / self.wall if self.wall else float("nan")

    def ms(self, p: float) -> float:
        return pct(self.latencies, p) * 1000

    def line(self) -> str:
        return (f"  {self.label:<34} {self.count:>5} req in {self.wall:5.2f} s = {self.rate:7.1f} req/s   "
                f"median {self.ms(50):6.2f} ms  p95 {self.ms(95):6.2f} ms  p99 {self.ms(99):6.2f} ms"
                + (f"\n  {'':<34} in the server: median {pct(self.server, 50) * 1000:6.2f} ms  "
                   f"p95 {pct(self.server, 95) * 1000:6.2f} ms  p99 {pct(self.server, 99) * 1000:6.2f} ms"
                   if self.server else "")
                + (f"  errors {self.errors}" if self.errors else "")
                + (f"  reconnects {self.reconnects}" if self.reconnects else ""))


def run_clients(label: str, port: int, work: list[Callable[[Client], None]], per_client: int,
                max_seconds: float, interval: float | None = None, warmup: int = 5,
                stop: threading.Event | None = None) -> Load:
    """One thread and one keep-alive connection per entry of ``work``; each calls its function
    ``per_client`` times (after ``warmup`` unmeasured calls), back to back when ``interval`` is None
    (closed loop), else on a fixed schedule of one call per ``interval`` seconds from a random phase.
    Stops early at ``max_seconds`` or when ``stop`` is set."""
    load = Load(label)
    lock = threading.Lock()
    barrier = threading.Barrier(len(work) + 1)
    start_at: list[float] = []

    def worker(fn: Callable[[Client], None]) -> None:
        client = Client(port)
        mine: list[float] = []
        errors = 0
        try:
            for _ in range(warmup):
                fn(client)
        except Exception:  # noqa: BLE001 - counted below
            errors += 1
        barrier.wait()
        begin = start_at[0]
        deadline = begin + max_seconds
        next_at = begin + (random.random() * interval if interval else 0.0)
        for _ in range(per_client):
            if interval:
                delay = next_at - time.perf_counter()
                if delay > 0:
                    time.sleep(delay)
                next_at += interval
            if time.perf_counter() > deadline or (stop is not None and stop.is_set()):
                break
            t0 = time.perf_counter()
            try:
                fn(client)
            except Exception:  # noqa: BLE001 - a benchmark counts failures, it does not stop on them
                errors += 1
                continue
            mine.append(time.perf_counter() - t0)
        with lock:
            load.latencies.extend(mine)
            load.errors += errors
            load.reconnects += client.reconnects
        client.close()

    threads = [threading.Thread(target=worker, args=(fn,), daemon=True) for fn in work]
    for t in threads:
        t.start()
    start_at.append(time.perf_counter())
    barrier.wait()
    begin = start_at[0]
    for t in threads:
        t.join(max_seconds + 30)
    load.wall = time.perf_counter() - begin
    return load


# --- 1. writes ---------------------------------------------------------------------------------


def writers(port: int, tables: list[BenchTable]) -> list[Callable[[Client], None]]:
    def make(table: BenchTable, side: int) -> Callable[[Client], None]:
        def write(client: Client) -> None:
            post_points(client, table, side, 5)

        return write

    return [make(t, i % 2) for i, t in enumerate(tables)]


def healthz(client: Client) -> None:
    status, _, _ = client.get("/healthz")
    if status != 200:
        raise RuntimeError(f"/healthz answered {status}")


def measured(load: Load, logged: list[float]) -> list[float]:
    """The server's times of the measured requests: the log's last ones (the warm-up came first)."""
    return logged[-load.count:] if load.count else []


def pooled(label: str, loads: list[Load]) -> Load:
    """Several blocks of the same load as one: latencies together, walls and CPU added up."""
    total = Load(label)
    for load in loads:
        total.latencies += load.latencies
        total.server += load.server
        total.wall += load.wall
        total.errors += load.errors
        total.reconnects += load.reconnects
    counted = sum(load.count for load in loads)
    total.cpu = sum(load.cpu * load.count for load in loads) / counted if counted else 0.0
    return total


def bench_writes(server: Server, clients: int, per_client: int, paced_per_client: int,
                 max_seconds: float, rounds: int = 3) -> tuple[dict[str, Load], list[float]]:
    """Saturated ``GET /healthz`` and saturated writes in alternating blocks (``rounds`` of each),
    so a machine that speeds up or slows down meanwhile hits both sides of the ratio alike; then
    the paced writers. Returns the loads (the blocks pooled) and each round's throughput ratio."""
    setup = Client(server.port)
    health_blocks: list[Load] = []
    write_blocks: list[Load] = []
    for _ in range(rounds):
        # Fresh tables per block, so each block starts on short sheets (a long evening has ~50 entries).
        tables = [open_table(setup) for _ in range(clients)]
        mark, cpu = server.mark(), server.cpu()
        health = run_clients("", server.port, [healthz] * clients, per_client, max_seconds)
        logged = server.server_times(mark, "GET /healthz")
        health.cpu = (server.cpu() - cpu) / max(1, len(logged))
        health.server = measured(health, logged)
        health_blocks.append(health)
        mark, cpu = server.mark(), server.cpu()
        write = run_clients("", server.port, writers(server.port, tables), per_client, max_seconds)
        logged = server.server_times(mark, "POST /api/v1/tables/")
        write.cpu = (server.cpu() - cpu) / max(1, len(logged))
        write.server = measured(write, logged)
        write_blocks.append(write)
    results = {"health": pooled(f"GET /healthz, {clients} saturating", health_blocks),
               "saturated": pooled(f"POST events, {clients} saturating", write_blocks)}
    ratios = [w.rate / h.rate for h, w in zip(health_blocks, write_blocks, strict=True) if h.rate]
    tables = [open_table(setup) for _ in range(clients)]
    mark = server.mark()
    results["paced"] = run_clients(f"POST events, {clients} x 2/s paced", server.port,
                                   writers(server.port, tables), paced_per_client, max_seconds,
                                   interval=0.5)
    results["paced"].server = measured(results["paced"], server.server_times(mark, "POST /api/v1/tables/"))
    setup.close()
    return results, ratios


# --- 2. live update ---------------------------------------------------------------------------


class StreamReader:
    """Reads an open event stream line by line and timestamps each ``data:`` seq as it arrives."""

    def __init__(self, port: int, table: BenchTable) -> None:
        self.conn = http.client.HTTPConnection(HOST, port, timeout=30)
        self.conn.request("GET", f"/api/v1/tables/{table.id}/stream?token={table.read_token}",
                          headers={"Accept": "text/event-stream", "Accept-Encoding": "gzip, br"})
        self.resp = self.conn.getresponse()
        if self.resp.status != 200 or not self.resp.getheader("Content-Type", "").startswith("text/event-stream"):
            raise SystemExit(f"the stream answered {self.resp.status} {self.resp.getheader('Content-Type')}")
        self.encoding = self.resp.getheader("Content-Encoding")
        self.arrived: dict[int, float] = {}
        self.cond = threading.Condition()
        self.closed = False
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            while True:
                line = self.resp.readline()
                if not line:
                    break
                now = time.perf_counter()
                if line.startswith(b"data:"):
                    seq = int(json.loads(line[5:])["seq"])
                    with self.cond:
                        self.arrived.setdefault(seq, now)
                        self.cond.notify_all()
        except Exception:  # noqa: BLE001 - close() from the other thread ends the read any way it can
            pass
        finally:
            with self.cond:
                self.closed = True
                self.cond.notify_all()

    def wait_for(self, seq: int, timeout: float) -> float | None:
        with self.cond:
            self.cond.wait_for(lambda: seq in self.arrived or self.closed, timeout)
            return self.arrived.get(seq)

    def close(self) -> None:
        try:
            self.conn.sock.shutdown(socket.SHUT_RDWR)  # type: ignore[union-attr]
        except OSError:
            pass
        self.conn.close()
        self.thread.join(5)


@dataclass
class Live:
    label: str
    delays: list[float] = field(default_factory=list)
    post_times: list[float] = field(default_factory=list)
    before_response: int = 0
    lost: int = 0

    def ms(self, p: float) -> float:
        return pct(self.delays, p) * 1000

    def line(self) -> str:
        return (f"  {self.label:<34} {len(self.delays):>4} samples  p50 {self.ms(50):6.2f} ms  "
                f"p95 {self.ms(95):6.2f} ms  max {self.ms(100):6.2f} ms   "
                f"(POST answer p50 {pct(self.post_times, 50) * 1000:5.2f} ms; message before the answer "
                f"{self.before_response}/{len(self.delays)})" + (f"  lost {self.lost}" if self.lost else ""))


def measure_live(label: str, server: Server, samples: int, max_seconds: float) -> Live:
    setup = Client(server.port)
    table = open_table(setup)
    reader = StreamReader(server.port, table)
    live = Live(label)
    try:
        if reader.wait_for(0, 10) is None:
            raise SystemExit("the stream did not send the head message")
        writer = Client(server.port)
        post_points(writer, table)  # warm the connection and the table's cache entry
        reader.wait_for(1, 10)
        deadline = time.monotonic() + max_seconds
        for _ in range(samples):
            if time.monotonic() > deadline:
                break
            t0 = time.perf_counter()
            seq = post_points(writer, table)
            t1 = time.perf_counter()
            got = reader.wait_for(seq, 5)
            if got is None:
                live.lost += 1
                continue
            live.delays.append(got - t0)
            live.post_times.append(t1 - t0)
            live.before_response += got < t1
            time.sleep(random.uniform(0.01, 0.04))
        writer.close()
    finally:
        reader.close()
        setup.close()
    return live


def _background(box: list[Load], port: int, tables: list[BenchTable], seconds: float,
                interval: float | None, stop: threading.Event) -> None:
    box.append(run_clients("background", port, writers(port, tables), 10_000, seconds,
                           interval=interval, stop=stop))


def bench_live(server: Server, samples: int, clients: int, max_seconds: float) -> list[Live]:
    results = [measure_live("quiet server", server, samples, max_seconds)]
    for mode, interval in (("paced", 0.5), ("saturating", None)):
        setup = Client(server.port)
        tables = [open_table(setup) for _ in range(clients)]
        setup.close()
        stop = threading.Event()
        box: list[Load] = []
        background = threading.Thread(target=_background, daemon=True,
                                      args=(box, server.port, tables, max_seconds + 15, interval, stop))
        background.start()
        time.sleep(1.0)  # let the writers get going
        live = measure_live(f"with {clients} writers {mode}", server, samples, max_seconds)
        stop.set()
        background.join(max_seconds + 45)
        if box:
            live.label += f" ({box[0].rate:.0f} req/s)"
        results.append(live)
    return results


# --- 3. first load -----------------------------------------------------------------------------


class Refs(HTMLParser):
    """Every resource a browser fetches while loading the page (not links to other pages)."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "link" and a.get("href"):
            self.found.append((a.get("rel", "link"), a["href"]))
        elif tag == "script" and a.get("src"):
            self.found.append(("script", a["src"]))
        elif tag == "img" and a.get("src"):
            # A lazy image out of sight (the QR codes of a folded invite) is not part of the load.
            self.found.append(("lazy img" if a.get("loading") == "lazy" else "img", a["src"]))
        elif tag == "source" and a.get("srcset"):
            self.found.append(("source", a["srcset"].split()[0]))


def wire_size(resp: http.client.HTTPResponse, body: bytes) -> tuple[int, int]:
    """(header bytes, body bytes as transferred): status line + header lines + blank line; the body
    still compressed as it came, chunk framing left out."""
    head = len(f"HTTP/1.1 {resp.status} {resp.reason}\r\n".encode())
    head += sum(len(f"{k}: {v}\r\n".encode("latin-1")) for k, v in resp.getheaders()) + 2
    return head, len(body)


@dataclass
class Fetched:
    what: str
    path: str
    status: int
    encoding: str
    header_bytes: int
    body_bytes: int
    note: str = ""

    @property
    def total(self) -> int:
        return self.header_bytes + self.body_bytes


def bench_first_load(server: Server, events: int) -> tuple[list[Fetched], list[Fetched], list[Fetched]]:
    """The page after following the QR link, then its resources; reported apart: what is fetched
    after the load event (a manifest icon, the service worker) and what the service worker's install
    caches in the background (the offline shell: home page, rule books)."""
    setup = Client(server.port)
    table = open_table(setup, players=4)
    for i in range(events):
        post_points(setup, table, i % 4, random.choice((1, 2, 5, 10)))
    setup.close()

    phone = Client(server.port)
    accept = {"Accept-Encoding": "gzip, br", "Accept": "text/html,*/*",
              "User-Agent": "Mozilla/5.0 (Linux; Android 14; Pixel 7) bench", "Accept-Language": "en"}
    status, resp, body = phone.get(f"/t/{table.id}/k/{table.write_token}", accept)
    cookie = (resp.getheader("Set-Cookie") or "").split(";", 1)[0]
    location = urlsplit(resp.getheader("Location") or "").path
    if status not in (302, 303) or not cookie or not location:
        raise SystemExit(f"the join link answered {status} (Location {location!r}, cookie {bool(cookie)})")
    headers = {**accept, "Cookie": cookie}
    got: list[Fetched] = []

    def fetch(what: str, path: str, note: str = "") -> bytes:
        try:
            status, resp, body = phone.get(path, headers)
        except (OSError, http.client.HTTPException) as exc:  # e.g. static/dist rebuilt under the server
            got.append(Fetched(what, path, 0, "-", 0, 0, f"FAILED: {exc!r}"))
            return b""
        h, b = wire_size(resp, body)
        got.append(Fetched(what, path, status, resp.getheader("Content-Encoding") or "-", h, b, note))
        return body

    status_join = Fetched("join link (302)", f"/t/{table.id}/k/…", status, "-", *wire_size(resp, body))
    page = fetch("page", location)
    page_text = decode(page, got[-1].encoding).decode()
    refs = Refs()
    refs.feed(page_text)
    seen: set[str] = set()
    deferred: list[str] = []
    manifest_path = None
    for kind, href in refs.found:
        path = urlsplit(href).path
        if not path.startswith("/") or path in seen:
            continue
        seen.add(path)
        if kind == "apple-touch-icon":
            continue  # iOS only; Chrome on Android does not fetch it
        if kind == "lazy img":
            deferred.append(path)
            continue
        body = fetch(kind, path)
        if kind == "manifest":
            manifest_path = path
            manifest_body = body
    core = [status_join, *got]

    later: list[Fetched] = []
    got.clear()
    if manifest_path:
        enc = next(f.encoding for f in core if f.path == manifest_path)
        text = decode(manifest_body, enc)
        icons = json.loads(text).get("icons", [])
        # Chrome downloads one manifest icon (the best fit, 192 px on a phone) to check installability.
        if icons:
            fetch("manifest icon", urlsplit(icons[0]["src"]).path, "installability check")
    for path in deferred:
        fetch("lazy img", path, "in the folded invite: only when it is opened")
    sw = fetch("service worker", "/sw.js", "registered by app.js after load")
    sw_text = decode(sw, got[-1].encoding).decode()
    later = list(got)
    got.clear()
    # Installing, the worker caches its shell; files this load already fetched come from the HTTP cache.
    already = {f.path for f in core + later}
    start = sw_text.find("const SHELL = ")
    shell = json.loads(sw_text[start + len("const SHELL = "):sw_text.index(";\n", start)]) if start >= 0 else []
    for path in shell:
        if urlsplit(path).path not in already:
            fetch("sw install", path)
    install = list(got)
    phone.close()
    return core, later, install


def decode(body: bytes, encoding: str) -> bytes:
    import gzip

    import brotli  # type: ignore[import-untyped]

    return {"br": brotli.decompress, "gzip": gzip.decompress}.get(encoding, lambda b: b)(body)


def print_load(rows: list[Fetched]) -> int:
    total = 0
    for f in rows:
        total += f.total
        print(f"    {f.what:<20} {f.path[:46]:<46} {f.status:>3} {f.encoding:>5} "
              f"{f.header_bytes:>5} + {f.body_bytes:>6} = {f.total:>6} B" + (f"   ({f.note})" if f.note else ""))
    return total


# --- profiling ---------------------------------------------------------------------------------


class Stages:
    """Wall time per named stage of a request, each stage's own (the stages it calls are taken
    out), so the stages and "the rest" add up to the request. No profiler's per-call overhead:
    only the few functions named are timed, a couple of microseconds each."""

    def __init__(self) -> None:
        self.own: dict[str, float] = {}
        self._children: list[float] = []

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            self._children.append(0.0)
            try:
                return fn(*args, **kwargs)
            finally:
                spent = time.perf_counter() - t0
                inner = self._children.pop()
                self.own[name] = self.own.get(name, 0.0) + spent - inner
                if self._children:
                    self._children[-1] += spent

        return timed


def profile_post(count: int) -> None:
    """Where a write's server time goes, in-process (no network, one thread): ``POST …/events``
    on score pads of 0–100 entries as in the benchmark above, against ``GET /healthz``, each
    request split into the stages that make it up (the request's parsing, the session cookie,
    the rate limit, the token, the shape check, the locale, the engine, the SQL, the state's
    JSON, its serialisation, the after-request headers, Flask and Werkzeug around them)."""
    import io

    sys.path.insert(0, str(ROOT))
    from scorekeeper import create_app, service
    from scorekeeper.engine import RULES
    from scorekeeper.extensions import db
    from scorekeeper.ratelimit import _Bound
    from scorekeeper.service import store, writes
    from scorekeeper.web import api, json_input, json_output

    workdir = Path(tempfile.mkdtemp(prefix="scorekeeper-prof-"))
    try:
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{workdir / 'p.sqlite'}", "SECRET_KEY": "p",
                          "PUBLIC_URL": "http://127.0.0.1:1", "RATE_LIMIT_EVENTS": "1000000 per minute",
                          "RATE_LIMIT_CREATE": "1000000 per minute"})
        with app.app_context():
            db.create_all()
        client = app.test_client()

        def new_table() -> dict[str, Any]:
            return client.post("/api/v1/tables", json={"game": "scorepad", "players": ["A", "B"],
                                                       "options": {"target": 10_000}}).get_json()  # type: ignore[no-any-return]

        stages = Stages()
        pad = RULES["scorepad"]
        babel = app.extensions["babel"]
        timed = [  # (owner, attribute, stage)
            (_Bound, "check", "rate limit"), (api, "_writer", "token: the table's facts"),
            (json_input, "loads", "request body: JSON"), (api, "_check_shape", "event shape (pydantic)"),
            (babel, "locale_selector", "locale"), (type(pad), "apply", "engine: apply"),
            (store.Writer, "append", "SQL: claim, insert, commit"), (writes, "state_json", "state JSON (to_json, messages)"),
            (json_output.AppJSONProvider, "response", "answer: JSON bytes"),
            (type(app.session_interface), "open_session", "session cookie"),
            (type(app.session_interface), "save_session", "session cookie"),
            (writes, "_announce", "live: publish"),
            (writes, "check_event", "event shape (pydantic)"), (writes, "record", "service: record, write (the rest)"),
            (writes, "localize", "scored facts' messages"), (service, "record", "service: record, write (the rest)"),
            (writes, "_write_sqlite", "service: the write under the lock (the rest)"),
        ]
        saved = [(owner, attr, getattr(owner, attr)) for owner, attr, _ in timed]
        for (owner, attr, name), (_, _, original) in zip(timed, saved, strict=True):
            setattr(owner, attr, stages.wrap(name, original))
        app.view_functions["api.post_event"] = stages.wrap("API view (the rest)", app.view_functions["api.post_event"])
        after = app.after_request_funcs.setdefault(None, [])
        after[:] = [stages.wrap("after-request headers", f) for f in after]
        whole = stages.wrap("Flask, Werkzeug, WhiteNoise (the rest)", app.wsgi_app)

        def call(method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None) -> str:
            environ = {"REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": "", "SERVER_NAME": HOST,
                       "SERVER_PORT": "80", "SERVER_PROTOCOL": "HTTP/1.1", "wsgi.url_scheme": "http",
                       "wsgi.input": io.BytesIO(body), "wsgi.errors": sys.stderr, "wsgi.multithread": True,
                       "wsgi.multiprocess": False, "wsgi.run_once": False, "REMOTE_ADDR": HOST,
                       "CONTENT_LENGTH": str(len(body)), "HTTP_HOST": HOST, "HTTP_ACCEPT_LANGUAGE": "sv,en;q=0.8"}
            for key, value in (headers or {}).items():
                environ["CONTENT_TYPE" if key == "Content-Type" else "HTTP_" + key.upper().replace("-", "_")] = value
            status: list[str] = []
            b"".join(whole(environ, lambda s, h, e=None: status.append(s)))
            return status[0]

        body = json.dumps({"type": "points", "side": 0, "points": 5}).encode()
        spare = [new_table() for _ in range(2 * (count // 100 + 1))]  # made before the stages are counted
        for label, run in (("GET /healthz", lambda t: call("GET", "/healthz")),
                           ("POST …/events", lambda t: call("POST", f"/api/v1/tables/{t['id']}/events", body, {
                               "Content-Type": "application/json", "Authorization": f"Bearer {t['write_token']}"}))):
            table = spare.pop()
            for _ in range(5):
                run(table)
            table = spare.pop()
            stages.own.clear()
            t0 = time.perf_counter()
            for n in range(count):
                if n and n % 100 == 0:  # sheets of 0-100 entries, as in the benchmark
                    table = spare.pop()
                run(table)
            total = (time.perf_counter() - t0) / count
            print(f"\nIn-process {label}: {total * 1e6:.0f} µs a request over {count} (one thread, no network)")
            for name, spent in sorted(stages.own.items(), key=lambda item: -item[1]):
                print(f"  {name:<42} {spent / count * 1e6:7.1f} µs  {spent / count / total * 100:5.1f} %")
        for owner, attr, original in saved:
            setattr(owner, attr, original)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


# --- main --------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--per-client", type=int, default=100, help="measured requests per saturating client")
    parser.add_argument("--paced", type=int, default=20, help="measured requests per paced client (2/s)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating blocks of healthz and writes")
    parser.add_argument("--live-samples", type=int, default=150)
    parser.add_argument("--quick", action="store_true", help="small counts, for a smoke run")
    parser.add_argument("--profile", action="store_true",
                        help="also split a write's server time (in-process) into its stages")
    parser.add_argument("--profile-only", action="store_true", help="only the in-process split of a write")
    parser.add_argument("--prepare-static", action="store_true",
                        help="only build the hashed, precompressed static files (as `make assets`) and exit")
    args = parser.parse_args(argv)
    if args.prepare_static:
        prepare_static()
        return 0
    if args.profile_only:
        profile_post(1000)
        return 0
    if args.quick:
        args.per_client, args.paced, args.live_samples = 20, 6, 30
    max_seconds = 60.0

    print(f"scorekeeper platform benchmark — {time.strftime('%Y-%m-%d %H:%M')}, Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} cores; gunicorn gthread, 1 worker x 32 threads, SQLite (WAL); clients in this process")
    print("load average before: {:.2f} {:.2f} {:.2f} (other work on the machine skews the tails)".format(*os.getloadavg()))
    with serve() as server:
        print(f"server {server.base}\n")

        print("1. Writes: POST /api/v1/tables/<id>/events, one score-pad table per client")
        loads, ratios = bench_writes(server, args.clients, args.per_client, args.paced, max_seconds, args.rounds)
        for key in ("health", "saturated", "paced"):
            print(loads[key].line())
        sat, paced, health = loads["saturated"], loads["paced"], loads["health"]
        print(f"  write throughput {sat.rate:.0f} req/s = {sat.rate / health.rate:.2f} x GET /healthz "
              f"({health.rate:.0f} req/s), same {args.clients} clients, {args.rounds} alternating blocks of each")
        print("  ratio per round: " + ", ".join(f"{r:.2f}" for r in ratios)
              + f"  (target >= 0.5: {'PASS' if sat.rate / health.rate >= 0.5 else 'MISS'})")
        if sat.cpu and health.cpu:
            # The server is one process bound by its GIL: saturated, its throughput is 1 / CPU per
            # request, so this ratio is what the throughputs show on an idle machine.
            print(f"  server CPU per request: POST {sat.cpu * 1000:.2f} ms, GET /healthz {health.cpu * 1000:.2f} ms"
                  f" -> CPU-bound throughput ratio {health.cpu / sat.cpu:.2f} (steady under other work)")
        for load in (paced, sat):
            kind = "paced" if load is paced else "saturated"
            print(f"  target POST median <= {TARGETS['post_median_ms']:.0f} ms ({kind}): {load.ms(50):6.2f} ms  "
                  f"{verdict(load.ms(50), TARGETS['post_median_ms'])}")
            print(f"  target POST p99    <= {TARGETS['post_p99_ms']:.0f} ms ({kind}): {load.ms(99):6.2f} ms  "
                  f"{verdict(load.ms(99), TARGETS['post_p99_ms'])}")

        print("\n2. Live update: POST on one connection -> its 'data:' line on an open event stream")
        lives = bench_live(server, args.live_samples, args.clients, max_seconds)
        for live in lives:
            print(live.line())
        for live in lives:
            print(f"  target live p95 <= {TARGETS['live_p95_ms']:.0f} ms ({live.label}): {live.ms(95):6.2f} ms  "
                  f"{verdict(live.ms(95), TARGETS['live_p95_ms'])}")

        print("\n3. First load of a table page (Accept-Encoding: gzip, br; 4 players, 12 entries on the sheet)")
        print("   bytes = response headers + body as transferred (compressed, chunk framing not counted)")
        core, later, install = bench_first_load(server, events=12)
        total = print_load(core)
        kb = total / 1000
        print(f"    {'total first load':<75} {total:>6} B = {kb:.1f} kB")
        print("   fetched after the load event (not counted above):")
        after = print_load(later)
        print(f"    {'after load':<75} {after:>6} B = {after / 1000:.1f} kB")
        print("   cached by the service worker's install, in the background, once per phone (not counted above):")
        shell = print_load(install)
        print(f"    {'service worker install':<75} {shell:>6} B = {shell / 1000:.1f} kB")
        failed = [f for f in core if not 200 <= f.status < 400]
        print(f"  target first load <= {TARGETS['first_load_kb']:.0f} kB: {kb:6.1f} kB  "
              + (f"INCOMPLETE ({len(failed)} fetches failed)" if failed else verdict(kb, TARGETS['first_load_kb'])))
        log = server.log.read_text(errors="replace").splitlines()
        access = [line for line in log if '"' in line and " HTTP/1." in line]
        other = [line for line in log if line not in access and "[INFO]" not in line]
        statuses = sorted({line.rsplit('" ', 1)[1].split()[0] for line in access if '" ' in line})
        print(f"\nserver: {len(access)} requests logged, statuses {', '.join(statuses)}")
        if other:
            print("gunicorn log, other than access lines (tail):\n" + "\n".join(other[-20:]))
    print("load average after: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    if args.profile:
        profile_post(1000)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
