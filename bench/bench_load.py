"""Load figures (issue 7): a club evening's worth of tables, each with every phone's event stream open.

Serves the app as production does — gunicorn with ``gunicorn.conf.py``, **2 gthread workers**,
``WEB_THREADS=512``, against a **throwaway PostgreSQL** this benchmark starts itself (initdb/pg_ctl as
the ``postgres`` user in a temporary folder, a free port on 127.0.0.1, the server's default settings:
fsync and synchronous commit on) — then, from a **separate client process** (asyncio streams):

* **200 tables × 4 phones**, every phone holding ``GET /api/v1/tables/<id>/stream?token=<read>``
  open (800 streams);
* each table makes one move every 3–6 s (uniformly at random, from a random phase) from a random one
  of its phones: ``POST /api/v1/tables/<id>/events`` ``{"type": "points", …}`` with the write token
  (about 44 moves/s in all). A phone reuses its connection when it posted less than 3 s before
  (gunicorn's keep-alive is 5 s), otherwise it connects afresh, as a browser would;
* 10 s of warm-up, then 60 s measured.

Printed beside the targets (PASS/MISS): POST latency p50/p95/p99 (the client's view, connect
included; the server's own time from the access log beside it); the live-update delay from sending a
POST to its ``data:`` line arriving on each of the table's **three other** phones; errors (non-2xx,
POST failures and time-outs, streams that failed to open or dropped, updates a phone never got); the
RSS of each worker (``/proc/<pid>/status``); CPU per 1,000 moves (utime+stime of the gunicorn master
and workers over the measured window, and of PostgreSQL apart).

Beside them: the connections and threads of each worker, PostgreSQL's commits and new connections
over the window (``pg_stat_database``), the client's CPU and event-loop lag (its own share of the
latencies), and how busy the whole machine was (``/proc/stat``) — how much of it was other work.

Then **the ramp**: 400, 500, 600, 700 … tables (more threads per worker so that the stream count
alone cannot exhaust them — see ``ramp_threads``), 30 s measured each, until POST p95 passes 200 ms,
an error appears, or the time budget (5 minutes) is spent. Tables carry over from one level to the
next. Each level starts a fresh gunicorn (same PostgreSQL).

Everything stays on 127.0.0.1; every phase is bounded in time and count and the benchmark stops by
itself, stopping and removing its PostgreSQL. Nothing is asserted.

    .venv/bin/python bench/bench_load.py              # about 5 minutes (main run, then the ramp)
    .venv/bin/python bench/bench_load.py --no-ramp    # only the 200-table run (~2 minutes)
    .venv/bin/python bench/bench_load.py --quick      # 50 tables, 15 s, short ramp: a smoke run
    .venv/bin/python bench/bench_load.py --no-ramp --profile cpu   # py-spy --gil on both workers:
                                                      # where the CPU goes (perturbs the figures)
    .venv/bin/python bench/bench_load.py --no-ramp --profile wall  # py-spy --idle: where a POST's
                                                      # wall time goes, waiting included
    .venv/bin/python bench/bench_load.py --app "scorekeeper:create_app({'SQLALCHEMY_ENGINE_OPTIONS': {'pool_size': 20}})"
                                                      # try a setting without changing the app
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import glob
import json
import math
import os
import random
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / ".venv" / "bin" if (ROOT / ".venv" / "bin" / "gunicorn").exists() else Path(sys.executable).parent
HOST = "127.0.0.1"
PHONES = 4
CLK_TCK = os.sysconf("SC_CLK_TCK")

TARGETS = {
    "post_p95_ms": 50.0,
    "live_p95_ms": 300.0,
    "errors": 0,
    "rss_mb": 150.0,
    "break_post_p95_ms": 200.0,
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def pct(values: list[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(p / 100 * len(ordered))))
    return ordered[rank - 1]


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


# === the client process (asyncio) ================================================================


class Stats:
    def __init__(self) -> None:
        self.posts: list[tuple[int, int, float, float, int, int, str]] = []  # ti, phone, t0, t1, status, seq, err
        self.arrivals: dict[tuple[int, int], list[float | None]] = {}
        self.stream_open_failures = 0
        self.stream_drops: list[tuple[int, int, float, str]] = []  # ti, phone, when, why
        self.lag: list[float] = []


class Phone:
    def __init__(self, ti: int, index: int) -> None:
        self.ti = ti
        self.index = index
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.last_used = -1e9

    def drop_conn(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def read_response(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
    line = await reader.readline()
    if not line:
        raise ConnectionError("the server closed the connection")
    status = int(line.split()[1])
    headers: dict[str, str] = {}
    while True:
        h = await reader.readline()
        if h in (b"\r\n", b"\n", b""):
            break
        k, _, v = h.decode("latin-1").partition(":")
        headers[k.strip().lower()] = v.strip()
    if "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    elif headers.get("transfer-encoding", "").lower() == "chunked":
        parts = []
        while True:
            size = int((await reader.readline()).split(b";")[0], 16)
            if size == 0:
                await reader.readline()
                break
            parts.append(await reader.readexactly(size))
            await reader.readline()
        body = b"".join(parts)
    else:
        body = await reader.read()
    return status, headers, body


async def http_request(phone: Phone, port: int, method: str, path: str, payload: Any,
                       token: str | None, reuse_within: float) -> tuple[int, Any]:
    loop = asyncio.get_running_loop()
    if phone.writer is None or loop.time() - phone.last_used > reuse_within:
        phone.drop_conn()
        phone.reader, phone.writer = await asyncio.open_connection(HOST, port)
    body = json.dumps(payload).encode()
    head = (f"{method} {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n" + (f"Authorization: Bearer {token}\r\n" if token else "") + "\r\n")
    assert phone.reader is not None and phone.writer is not None
    phone.writer.write(head.encode() + body)
    try:
        status, headers, data = await read_response(phone.reader)
    except BaseException:
        phone.drop_conn()
        raise
    phone.last_used = loop.time()
    if headers.get("connection", "").lower() == "close":
        phone.drop_conn()
    try:
        parsed = json.loads(data) if data else None
    except ValueError:
        parsed = None
    return status, parsed


async def stream_phone(cfg: dict[str, Any], table: dict[str, str], ti: int, phone: int, stats: Stats,
                       ready: asyncio.Event, stopping: asyncio.Event, opened: list[int],
                       sem: asyncio.Semaphore) -> None:
    """Hold the table's event stream open; timestamp each data line; reconnect (as EventSource does,
    ``retry: 1000``) after a drop, counting it."""
    loop = asyncio.get_running_loop()
    port = cfg["port"]
    path = f"/api/v1/tables/{table['id']}/stream?token={table['read_token']}"
    first = True
    while not stopping.is_set():
        writer = None
        why = "eof"
        try:
            async with sem if first else _null():
                reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, port), 30)
                writer.write(f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nAccept: text/event-stream\r\n"
                             "Cache-Control: no-cache\r\n\r\n".encode())
                status_line = await asyncio.wait_for(reader.readline(), 60)
                if not status_line.startswith(b"HTTP/1.1 200"):
                    stats.stream_open_failures += 1
                    why = "status " + status_line.decode(errors="replace").strip()
                    raise ConnectionError(why)
                while (await reader.readline()) not in (b"\r\n", b"\n", b""):
                    pass
            while True:
                line = await reader.readline()
                if not line:
                    break
                if line.startswith(b"data: "):
                    now = loop.time()
                    seq = int(json.loads(line[6:])["seq"])
                    slot = stats.arrivals.setdefault((ti, seq), [None] * PHONES)
                    if slot[phone] is None:
                        slot[phone] = now
                    if first:
                        first = False
                        opened[0] += 1
                        if opened[0] == cfg["tables_n"] * PHONES:
                            ready.set()
                elif line == b"0\r\n":  # the last chunk: the server ended the stream
                    why = "ended"
                    break
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError) as exc:
            why = why if why != "eof" else type(exc).__name__
        finally:
            if writer is not None:
                writer.close()
        if stopping.is_set():
            return
        stats.stream_drops.append((ti, phone, loop.time(), why))
        await asyncio.sleep(1.0)


class _null:
    async def __aenter__(self) -> None:
        return None

    async def __aexit__(self, *exc: Any) -> None:
        return None


async def mover(cfg: dict[str, Any], table: dict[str, str], ti: int, phones: list[Phone], stats: Stats,
                t_moves: float, t_stop: float) -> None:
    loop = asyncio.get_running_loop()
    lo, hi = cfg["interval"]
    await asyncio.sleep(max(0.0, t_moves - loop.time()) + random.uniform(0, hi))
    path = f"/api/v1/tables/{table['id']}/events"
    while loop.time() < t_stop:
        phone = random.randrange(PHONES)
        t0 = loop.time()
        status, seq, err = 0, -1, ""
        try:
            status, body = await asyncio.wait_for(
                http_request(phones[phone], cfg["port"], "POST", path,
                             {"type": "points", "side": phone % PHONES, "points": 1},
                             table["write_token"], cfg["reuse_within"]), cfg["post_timeout"])
            if status == 201 and isinstance(body, dict):
                seq = int(body["seq"])
            else:
                err = f"status {status}"
        except TimeoutError:
            phones[phone].drop_conn()
            err = "timeout"
        except (OSError, ConnectionError, asyncio.IncompleteReadError, ValueError) as exc:
            phones[phone].drop_conn()
            err = type(exc).__name__
        t1 = loop.time()
        stats.posts.append((ti, phone, t0, t1, status, seq, err))
        await asyncio.sleep(max(0.0, t0 + random.uniform(lo, hi) - loop.time()))


async def lag_monitor(stats: Stats, stopping: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    while not stopping.is_set():
        t = loop.time()
        await asyncio.sleep(0.05)
        stats.lag.append(loop.time() - t - 0.05)


async def create_tables(cfg: dict[str, Any], have: list[dict[str, str]], want: int) -> list[dict[str, str]]:
    tables = list(have)
    queue = list(range(want - len(tables)))
    failures: list[str] = []

    async def creator() -> None:
        phone = Phone(-1, -1)
        while queue:
            queue.pop()
            status, body = await http_request(phone, cfg["port"], "POST", "/api/v1/tables",
                                              {"game": "scorepad", "players": [f"P{i}" for i in range(PHONES)],
                                               "options": {"target": 10_000}}, None, 3.0)
            if status != 201:
                failures.append(f"{status} {body}")
                return
            tables.append({"id": body["id"], "write_token": body["write_token"], "read_token": body["read_token"]})
        phone.drop_conn()

    await asyncio.gather(*(creator() for _ in range(8)))
    if failures:
        raise SystemExit(f"could not open tables: {failures[:3]}")
    return tables


def marker(text: str) -> None:
    print(text, flush=True)


async def client_main(cfg: dict[str, Any]) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    random.seed(cfg["seed"])
    t_setup = time.monotonic()
    tables = await create_tables(cfg, cfg["tables"], cfg["tables_n"])
    tables = tables[:cfg["tables_n"]]
    setup_s = time.monotonic() - t_setup
    stats = Stats()
    stopping = asyncio.Event()
    ready = asyncio.Event()
    opened = [0]
    sem = asyncio.Semaphore(64)
    t_open = time.monotonic()
    streams = [asyncio.create_task(stream_phone(cfg, t, ti, p, stats, ready, stopping, opened, sem))
               for ti, t in enumerate(tables) for p in range(PHONES)]
    try:
        await asyncio.wait_for(ready.wait(), cfg["open_timeout"])
    except TimeoutError:
        pass
    open_s = time.monotonic() - t_open
    marker(f"READY {opened[0]}")
    lagger = asyncio.create_task(lag_monitor(stats, stopping))
    t_moves = loop.time()
    t_start = t_moves + cfg["warmup"]
    t_end = t_start + cfg["seconds"]
    phones = [[Phone(ti, p) for p in range(PHONES)] for ti in range(len(tables))]
    movers = [asyncio.create_task(mover(cfg, t, ti, phones[ti], stats, t_moves, t_end))
              for ti, t in enumerate(tables)]
    await asyncio.sleep(max(0.0, t_start - loop.time()))
    marker("START")
    cpu0 = os.times()
    drops_before = len(stats.stream_drops)
    await asyncio.sleep(max(0.0, t_end - loop.time()))
    marker("END")
    cpu1 = os.times()
    drops_in_window = len(stats.stream_drops) - drops_before
    # no new moves after t_end; let the ones in flight finish (bounded) and their messages arrive
    await asyncio.wait(movers, timeout=cfg["post_timeout"] + 2)
    await asyncio.sleep(2.0)
    stopping.set()
    for task in [*movers, *streams, lagger]:
        task.cancel()
    await asyncio.gather(*movers, *streams, lagger, return_exceptions=True)
    for row in phones:
        for ph in row:
            ph.drop_conn()

    # --- figures --------------------------------------------------------------------------------
    measured = [p for p in stats.posts if t_start <= p[2] < t_end]
    ok = [p for p in measured if not p[6]]
    post_ms = [(p[3] - p[2]) * 1000 for p in ok]
    errors = collections.Counter(p[6] for p in measured if p[6])
    live_ms: list[float] = []
    before_answer = 0
    lost = 0
    for ti, poster, t0, t1, _status, seq, _err in ok:
        slot = stats.arrivals.get((ti, seq))
        for other in range(PHONES):
            if other == poster:
                continue
            got = slot[other] if slot else None
            if got is None:
                lost += 1
            else:
                live_ms.append((got - t0) * 1000)
                before_answer += got < t1
    window_drops = [d for d in stats.stream_drops if t_start <= d[2] < t_end]
    return {
        "tables": len(tables), "tables_list": tables, "setup_s": setup_s, "open_s": open_s,
        "streams_opened": opened[0], "streams_wanted": len(tables) * PHONES,
        "stream_open_failures": stats.stream_open_failures,
        "stream_drops_total": len(stats.stream_drops), "stream_drops_window": drops_in_window,
        "stream_drop_reasons": dict(collections.Counter(d[3] for d in stats.stream_drops)),
        "window_drop_reasons": dict(collections.Counter(d[3] for d in window_drops)),
        "moves": len(measured), "moves_ok": len(ok), "seconds": cfg["seconds"],
        "post_errors": dict(errors), "post_ms": post_ms, "live_ms": live_ms, "live_lost": lost,
        "live_before_answer": before_answer,
        "lag_p99_ms": pct(stats.lag, 99) * 1000, "lag_max_ms": max(stats.lag, default=0) * 1000,
        "client_cpu_s": (cpu1.user - cpu0.user) + (cpu1.system - cpu0.system),
    }


def run_client_process(cfg_path: str) -> None:
    cfg = json.loads(Path(cfg_path).read_text())
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    result = asyncio.run(client_main(cfg))
    Path(cfg["result"]).write_text(json.dumps(result))
    marker("DONE")


# === the server side: PostgreSQL, gunicorn, /proc ===================================================


def pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
                   key=lambda p: [int(x) if x.isdigit() else 0 for x in p.split("/")[4].split(".")])
    if found:
        return found[-1]
    path = shutil.which(name)
    if not path:
        raise SystemExit(f"PostgreSQL's {name} is not installed (apt-get install -y postgresql)")
    return path


class Postgres:
    """A throwaway cluster: initdb and pg_ctl as the postgres user (PostgreSQL refuses root), the
    server's default settings except ``listen_addresses=127.0.0.1``, a free port, the socket in the
    temporary folder. ``stop()`` stops it and removes the folder."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="scorekeeper-load-pg-"))
        self.data = self.dir / "data"
        self.port = free_port()
        self.started = False
        as_pg: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres")
            as_pg = ["runuser", "-u", "postgres", "--"]
        self.as_pg = as_pg
        # --no-sync only spares initdb's own final flush of the new cluster; the server runs with fsync on.
        subprocess.run([*as_pg, pg_bin("initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres",
                        "--no-sync", "-E", "UTF8"], check=True, stdout=subprocess.DEVNULL, cwd="/")
        subprocess.run([*as_pg, pg_bin("pg_ctl"), "-D", str(self.data), "-l", str(self.dir / "pg.log"), "-w",
                        "-o", f"-c listen_addresses={HOST} -p {self.port} -k {self.dir}", "start"],
                       check=True, stdout=subprocess.DEVNULL, cwd="/")
        self.started = True
        import psycopg

        with psycopg.connect(f"postgresql://postgres@{HOST}:{self.port}/postgres", autocommit=True) as conn:
            conn.execute("CREATE DATABASE scorekeeper")
            self.settings = dict(conn.execute(
                "SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', "
                "'max_connections', 'shared_buffers', 'server_version')").fetchall())
        self.url = f"postgresql://postgres@{HOST}:{self.port}/scorekeeper"

    def db_stats(self) -> tuple[int, int]:
        """(sessions opened, transactions committed) so far in the benchmark's database."""
        import psycopg

        try:
            with psycopg.connect(f"postgresql://postgres@{HOST}:{self.port}/postgres", autocommit=True) as conn:
                row = conn.execute("SELECT sessions, xact_commit FROM pg_stat_database "
                                   "WHERE datname = 'scorekeeper'").fetchone()
        except psycopg.Error:
            return 0, 0
        return (int(row[0]), int(row[1])) if row else (0, 0)

    @property
    def pid(self) -> int:
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def stop(self) -> None:
        if self.started:
            subprocess.run([*self.as_pg, pg_bin("pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop"],
                           check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd="/")
            self.started = False
        shutil.rmtree(self.dir, ignore_errors=True)


def proc_stat(pid: int) -> tuple[int, int, int, int, int]:
    """(ppid, utime, stime, cutime, cstime) in clock ticks."""
    raw = Path(f"/proc/{pid}/stat").read_text()
    fields = raw[raw.rindex(")") + 2:].split()
    return int(fields[1]), int(fields[11]), int(fields[12]), int(fields[13]), int(fields[14])


def children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if proc_stat(int(entry))[0] == pid:
                    out.append(int(entry))
            except (OSError, ValueError, IndexError):
                pass
    return sorted(out)


def cpu_seconds(pids: list[int], with_children: bool = False) -> float:
    total = 0
    for pid in pids:
        try:
            _, ut, st, cut, cst = proc_stat(pid)
        except (OSError, ValueError, IndexError):
            continue
        total += ut + st + ((cut + cst) if with_children else 0)
    return total / CLK_TCK


def status_kb(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def sockets(pid: int) -> int:
    n = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            n += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
        except OSError:
            pass
    return n


def threads_of(pid: int) -> int:
    return status_kb(pid, "Threads")


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine since boot, from /proc/stat (all cores)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    total = sum(fields[:8])  # guest time is already counted in user
    return (total - idle) / CLK_TCK, total / CLK_TCK


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


@dataclass
class Gunicorn:
    pg: Postgres
    workers: int
    threads: int
    workdir: Path
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None
    worker_pids: list[int] = field(default_factory=list)
    app: str = "scorekeeper:create_app()"

    @property
    def log(self) -> Path:
        return self.workdir / f"gunicorn-{self.port}.log"

    def start(self) -> None:
        env = {**os.environ,
               "DATABASE_URL": self.pg.url,
               "PUBLIC_URL": f"http://{HOST}:{self.port}",
               "SECRET_KEY": "load-" + os.urandom(8).hex(),
               "FLASK_APP": "scorekeeper",
               "WEB_CONCURRENCY": str(self.workers),
               "WEB_THREADS": str(self.threads),
               # every client here is 127.0.0.1: lift the per-address limits (the limiter still runs)
               "RATE_LIMIT_CREATE": "10000000 per minute",
               "RATE_LIMIT_EVENTS": "10000000 per minute"}
        log = open(self.log, "wb")  # noqa: SIM115 - closed with the process
        # gunicorn.conf.py as production uses it (gthread, keep-alive 5 s, graceful 3 s); only the bind
        # (loopback, free port), worker_connections (at least threads + 1000, so kept-alive connections
        # still fit beside the streams) and the access-log format (%(D)s: µs in the server) are overridden.
        self.proc = subprocess.Popen(
            [str(BIN / "gunicorn"), "--config", "gunicorn.conf.py", "-b", f"{HOST}:{self.port}",
             "--worker-connections", str(max(1000, self.threads + 1000)),
             "--access-logformat", '%(h)s %(t)s "%(r)s" %(s)s %(b)s %(D)s', self.app],
            cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True)
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            try:
                with socket.create_connection((HOST, self.port), timeout=2) as s:
                    s.sendall(f"GET /healthz HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n\r\n".encode())
                    if s.recv(64).startswith(b"HTTP/1.1 200"):
                        self.worker_pids = children(self.proc.pid)
                        if len(self.worker_pids) == self.workers:
                            # one request per worker is not guaranteed; give both a moment to boot
                            time.sleep(1.0)
                            return
            except OSError:
                pass
            time.sleep(0.2)
        raise SystemExit("gunicorn did not come up:\n" + self.log.read_text(errors="replace")[-3000:])

    def pids(self) -> list[int]:
        assert self.proc is not None
        return [self.proc.pid, *self.worker_pids]

    def server_ms(self, since: int) -> list[float]:
        with open(self.log, "rb") as fh:
            fh.seek(since)
            lines = fh.read().decode(errors="replace").splitlines()
        return [int(ln.rsplit(" ", 1)[1]) / 1000 for ln in lines
                if '"POST /api/v1/tables/' in ln and "/events" in ln and ln.rsplit(" ", 1)[1].isdigit()]

    def mark(self) -> int:
        return self.log.stat().st_size

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)


@dataclass
class Level:
    tables: int
    threads: int
    result: dict[str, Any]
    server_post_ms: list[float]
    cpu_server_s: float
    cpu_pg_s: float
    rss_mb: list[float]
    hwm_mb: list[float]
    conns: list[int]
    threads_live: list[int]
    load: tuple[str, str]
    machine_cores: float  # cores busy on the whole machine over the window (all processes)
    pg_sessions: int  # PostgreSQL connections opened during the window (pool churn)
    pg_commits: int
    profile: dict[int, Path] = field(default_factory=dict)

    @property
    def errors(self) -> int:
        r = self.result
        return (sum(r["post_errors"].values()) + r["stream_open_failures"] + r["stream_drops_total"]
                + r["live_lost"] + (r["streams_wanted"] - r["streams_opened"]))

    @property
    def post_p95(self) -> float:
        return pct(self.result["post_ms"], 95)

    @property
    def cpu_per_1000(self) -> float:
        moves = self.result["moves"]
        return self.cpu_server_s / moves * 1000 if moves else float("nan")


def run_level(pg: Postgres, workdir: Path, tables: int, threads: int, workers: int, seconds: float,
              warmup: float, carried: list[dict[str, str]], seed: int, profile: str | None = None,
              app: str = "scorekeeper:create_app()") -> Level:
    server = Gunicorn(pg, workers, threads, workdir, app=app)
    try:
        server.start()
    except BaseException:
        server.stop()
        raise
    base_conns = [sockets(p) for p in server.worker_pids]
    result_path = workdir / f"result-{tables}.json"
    cfg = {"port": server.port, "tables_n": tables, "tables": carried, "seconds": seconds, "warmup": warmup,
           "interval": [3.0, 6.0], "reuse_within": 3.0, "post_timeout": 10.0, "open_timeout": 90.0,
           "seed": seed, "result": str(result_path)}
    cfg_path = workdir / f"client-{tables}.json"
    cfg_path.write_text(json.dumps(cfg))
    try:
        client = subprocess.Popen([sys.executable, __file__, "--client", str(cfg_path)], cwd=ROOT,
                                  stdout=subprocess.PIPE, text=True)
    except BaseException:
        server.stop()
        raise
    spies: list[subprocess.Popen[bytes]] = []
    profiles: dict[int, Path] = {}
    cpu0 = pg0 = cpu1 = pg1 = busy0 = t_win = machine = 0.0
    db0 = db1 = (0, 0)
    rss: list[float] = []
    hwm: list[float] = []
    conns: list[int] = []
    live_threads: list[int] = []
    load0 = load1 = ""
    mark = 0
    try:
        assert client.stdout is not None
        deadline = time.monotonic() + seconds + warmup + 240
        for line in client.stdout:
            word = line.split()[0] if line.split() else ""
            if word == "READY":
                print(f"    {line.split()[1]} of {tables * PHONES} streams open", flush=True)
            elif word == "START":
                mark = server.mark()
                load0 = loadavg()
                busy0 = machine_busy()[0]
                t_win = time.monotonic()
                db0 = pg.db_stats()
                cpu0 = cpu_seconds(server.pids())
                pg0 = cpu_seconds([pg.pid], with_children=True) + cpu_seconds(children(pg.pid))
                if profile:
                    for pid in server.worker_pids:
                        out = workdir / f"pyspy-{pid}.txt"
                        profiles[pid] = out
                        spies.append(subprocess.Popen(
                            [str(BIN / "py-spy"), "record", "--pid", str(pid), "--duration", str(int(seconds)),
                             "--rate", "50", "--gil" if profile == "cpu" else "--idle", "--nonblocking",
                             "--format", "raw", "--output", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            elif word == "END":
                cpu1 = cpu_seconds(server.pids())
                pg1 = cpu_seconds([pg.pid], with_children=True) + cpu_seconds(children(pg.pid))
                load1 = loadavg()
                db1 = pg.db_stats()
                machine = (machine_busy()[0] - busy0) / (time.monotonic() - t_win)
                rss = [status_kb(p, "VmRSS") / 1024 for p in server.worker_pids]
                hwm = [status_kb(p, "VmHWM") / 1024 for p in server.worker_pids]
                conns = [sockets(p) - b for p, b in zip(server.worker_pids, base_conns, strict=True)]
                live_threads = [threads_of(p) for p in server.worker_pids]
            elif word == "DONE":
                break
            if time.monotonic() > deadline:
                break
        client.wait(30)
        for spy in spies:  # py-spy falls behind on a process of 500 threads; SIGINT makes it write what it has
            try:
                spy.wait(20)  # it was started at START for `seconds`; the client has finished after END
            except subprocess.TimeoutExpired:
                spy.send_signal(signal.SIGINT)
                spy.wait(30)
    finally:
        if client.poll() is None:
            client.kill()
            client.wait(5)
        for spy in spies:
            if spy.poll() is None:
                spy.kill()
        server.stop()
    if not result_path.exists():
        raise SystemExit(f"the client did not finish at {tables} tables; the server's log ends:\n"
                         + server.log.read_text(errors="replace")[-3000:])
    result = json.loads(result_path.read_text())
    return Level(tables, threads, result, server.server_ms(mark), cpu1 - cpu0, pg1 - pg0, rss, hwm, conns,
                 live_threads, (load0, load1), machine, db1[0] - db0[0], db1[1] - db0[1], profiles)


# === reporting ======================================================================================


def describe_errors(r: dict[str, Any]) -> str:
    parts = []
    if r["post_errors"]:
        parts.append("POST " + ", ".join(f"{k}×{v}" for k, v in r["post_errors"].items()))
    if r["streams_wanted"] != r["streams_opened"]:
        parts.append(f"streams never opened {r['streams_wanted'] - r['streams_opened']}")
    if r["stream_open_failures"]:
        parts.append(f"stream open failures {r['stream_open_failures']}")
    if r["stream_drops_total"]:
        parts.append(f"stream drops {r['stream_drops_total']} ({r['stream_drop_reasons']})")
    if r["live_lost"]:
        parts.append(f"updates never received {r['live_lost']}")
    return "; ".join(parts) or "none"


def report_main(lv: Level, workers: int) -> None:
    r = lv.result
    post = r["post_ms"]
    live = r["live_ms"]
    srv = lv.server_post_ms
    rate = r["moves"] / r["seconds"]
    print(f"\n  {lv.tables} tables × {PHONES} phones = {r['streams_opened']}/{r['streams_wanted']} streams open "
          f"(opened in {r['open_s']:.1f} s); {workers} workers × {lv.threads} threads")
    print(f"  moves measured: {r['moves']} in {r['seconds']:.0f} s = {rate:.1f} moves/s "
          f"({r['moves_ok']} answered 201); load average {lv.load[0]} → {lv.load[1]}")
    print(f"  connections per worker at the end: {lv.conns} (streams + kept-alive; live threads {lv.threads_live})")
    p95 = pct(post, 95)
    print(f"  POST events   p50 {pct(post, 50):7.1f} ms  p95 {p95:7.1f} ms  p99 {pct(post, 99):7.1f} ms  "
          f"max {max(post, default=float('nan')):7.1f} ms   target p95 ≤ {TARGETS['post_p95_ms']:.0f} ms  "
          f"{verdict(p95 <= TARGETS['post_p95_ms'])}")
    print(f"    in the server p50 {pct(srv, 50):7.1f} ms  p95 {pct(srv, 95):7.1f} ms  p99 {pct(srv, 99):7.1f} ms "
          f"({len(srv)} logged)")
    lp95 = pct(live, 95)
    print(f"  live update   p50 {pct(live, 50):7.1f} ms  p95 {lp95:7.1f} ms  p99 {pct(live, 99):7.1f} ms  "
          f"max {max(live, default=float('nan')):7.1f} ms   target p95 ≤ {TARGETS['live_p95_ms']:.0f} ms  "
          f"{verdict(lp95 <= TARGETS['live_p95_ms'])}")
    print(f"    {len(live)} deliveries to the 3 other phones; {r['live_before_answer']} arrived before the "
          f"poster had its answer")
    print(f"  errors        {lv.errors}: {describe_errors(r)}   target 0  {verdict(lv.errors == 0)}")
    worst = max(lv.rss_mb, default=float("nan"))
    print(f"  RSS per worker {', '.join(f'{m:.1f}' for m in lv.rss_mb)} MB (peak "
          f"{', '.join(f'{m:.1f}' for m in lv.hwm_mb)} MB)   target ≤ {TARGETS['rss_mb']:.0f} MB  "
          f"{verdict(max(lv.hwm_mb, default=worst) <= TARGETS['rss_mb'])}")
    print(f"  CPU per 1,000 moves: gunicorn (master + workers) {lv.cpu_per_1000:.2f} s "
          f"({lv.cpu_server_s:.1f} s over the window = {lv.cpu_server_s / r['seconds'] * 100:.0f} % of a core); "
          f"PostgreSQL {lv.cpu_pg_s / max(r['moves'], 1) * 1000:.2f} s; the client {r['client_cpu_s']:.1f} s")
    print(f"  PostgreSQL over the window: {lv.pg_commits} commits, {lv.pg_sessions} new connections "
          "(SQLAlchemy's pool: 5 kept + 10 overflow per worker; overflow connections are closed on return)")
    print(f"  client event-loop lag p99 {r['lag_p99_ms']:.1f} ms, max {r['lag_max_ms']:.1f} ms "
          "(the client's own share of the latencies)")
    ours = (lv.cpu_server_s + lv.cpu_pg_s + r["client_cpu_s"]) / r["seconds"]
    print(f"  the machine: {lv.machine_cores:.2f} of {os.cpu_count()} cores busy over the window, "
          f"{ours:.2f} of them this benchmark's (gunicorn + PostgreSQL + client), "
          f"{max(0.0, lv.machine_cores - ours):.2f} other work")


def report_ramp_line(lv: Level) -> str:
    r = lv.result
    post = r["post_ms"]
    return (f"  {lv.tables:>5} tables {r['streams_opened']:>5}/{r['streams_wanted']:<5} streams "
            f"{r['moves'] / r['seconds']:6.1f} moves/s  POST p50 {pct(post, 50):7.1f} p95 {pct(post, 95):7.1f} "
            f"p99 {pct(post, 99):7.1f} ms  (server p95 {pct(lv.server_post_ms, 95):6.1f})  live p95 "
            f"{pct(r['live_ms'], 95):7.1f} ms  errors {lv.errors:>4}  RSS {'/'.join(f'{m:.0f}' for m in lv.rss_mb)} MB  "
            f"CPU/1k {lv.cpu_per_1000:5.1f} s  gunicorn {lv.cpu_server_s / r['seconds'] * 100:3.0f} % "
            f"pg {lv.cpu_pg_s / r['seconds'] * 100:3.0f} % ({lv.pg_sessions} new conns)  client {r['client_cpu_s'] / r['seconds'] * 100:3.0f} % "
            f"(lag p99 {r['lag_p99_ms']:.0f} ms)  machine {lv.machine_cores:.2f} cores busy, other work "
            f"{max(0.0, lv.machine_cores - (lv.cpu_server_s + lv.cpu_pg_s + r['client_cpu_s']) / r['seconds']):.2f}"
            + (f"\n           errors: {describe_errors(r)}" if lv.errors else ""))


def ramp_threads(tables: int, workers: int) -> int:
    """Threads per worker for a ramp level: every stream holds one, and the workers do not split
    connections evenly (whichever worker's poller wins the accept takes it), so leave room for a
    60/40 split plus the POSTs in flight; never fewer than the main run's 512."""
    return max(512, math.ceil(tables * PHONES / workers * 1.2) + 64)


def _frame(raw: str) -> str:
    """py-spy's ``func (path/to/file.py:line)`` as ``func (package/file.py)``."""
    if " (" not in raw:
        return raw
    func, _, where = raw.partition(" (")
    path = where.rsplit(":", 1)[0].rstrip(")")
    parts = path.split("/")
    return f"{func} ({'/'.join(parts[-2:])})"


AREAS = [  # first match wins; matched against the frames of one stack
    ("POST /events: rate limit", ("post_event (web/api.py)", "scorekeeper/ratelimit.py", "limits/")),
    ("POST /events: _writer (the table's facts, the token)", ("post_event (web/api.py)", "_writer (web/api.py)")),
    ("POST /events: service.record (engine, SQL, commit)", ("post_event (web/api.py)", "record (scorekeeper/service/writes.py)")),
    ("POST /events: the rest (Flask, JSON, response)", ("post_event (web/api.py)",)),
    ("stream open (GET …/stream before the generator)", ("stream (web/api.py)",)),
    ("streams: the SSE generator and its writes", ("stream (scorekeeper/live.py)",)),
    ("request plumbing outside the view (gunicorn, Flask, WhiteNoise, limiter hooks, logging)",
     ("ThreadWorker.handle (workers/gthread.py)",)),
    ("gunicorn main loop (accept, keep-alive, poller)", ("ThreadWorker.run (workers/gthread.py)",)),
    ("pg-listener thread", ("start_pg_listener.<locals>.run (scorekeeper/live.py)",)),
    ("timer threads", ("Timer.run (",)),
    ("thread-pool workers between requests", ("_worker (futures/thread.py)",)),
]


def summarise_profile(files: dict[int, Path], wall: bool, top: int = 30) -> None:
    """Aggregate py-spy's raw (collapsed) stacks. CPU mode (``--gil``): the share of GIL-holding samples
    by area and by function. Wall mode (``--idle``): only stacks inside ``post_event``, i.e. where a
    POST's wall time goes, waiting included."""
    inclusive: collections.Counter[str] = collections.Counter()
    leaf: collections.Counter[str] = collections.Counter()
    areas: collections.Counter[str] = collections.Counter()
    total = 0
    for path in files.values():
        if not path.exists():
            continue
        for line in path.read_text(errors="replace").splitlines():
            stack, _, count = line.rpartition(" ")
            if not count.isdigit():
                continue
            n = int(count)
            frames = [_frame(f) for f in stack.split(";") if f and not f.startswith(("process ", "thread "))]
            if not frames:
                continue
            joined = ";".join(frames)
            if wall and "post_event (web/api.py)" not in joined:
                continue
            total += n
            for name in set(frames):
                inclusive[name] += n
            leaf[frames[-1]] += n
            for area, needles in AREAS:
                if all(nd in joined for nd in needles):
                    areas[area] += n
                    break
            else:
                areas["other"] += n
    if not total:
        print("  (py-spy recorded nothing)")
        return
    what = ("samples inside POST /events (all threads, waiting included: where a POST's wall time goes)"
            if wall else "GIL-holding samples (where the workers' CPU goes)")
    print(f"\n  py-spy, both workers, {total} {what}")
    print("  by area:")
    for area, n in areas.most_common():
        print(f"    {n / total * 100:5.1f} %  {area}")
    print("  by function, inclusive:")
    for name, n in inclusive.most_common(top):
        print(f"    {n / total * 100:5.1f} %  {name}")
    print("  by function, self:")
    for name, n in leaf.most_common(20):
        print(f"    {n / total * 100:5.1f} %  {name}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--client", help=argparse.SUPPRESS)
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--warmup", type=float, default=10.0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--threads", type=int, default=512)
    ap.add_argument("--no-ramp", action="store_true")
    ap.add_argument("--ramp", default="400,500,600,700,800,1000,1200",
                    help="table counts of the ramp (comma-separated)")
    ap.add_argument("--ramp-seconds", type=float, default=30.0)
    ap.add_argument("--ramp-budget", type=float, default=300.0, help="seconds for the whole ramp")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--profile", choices=["cpu", "wall"], help="py-spy both workers during the main run: "
                    "cpu = GIL-holding samples by area; wall = where a POST's wall time goes")
    ap.add_argument("--profile-out", help="copy py-spy's raw stacks into this folder")
    ap.add_argument("--app", default="scorekeeper:create_app()",
                    help="gunicorn's app spec, e.g. \"scorekeeper:create_app({'SQLALCHEMY_ENGINE_OPTIONS': "
                         "{'pool_size': 20}})\" to try a setting without changing the app")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    if args.client:
        run_client_process(args.client)
        return
    if args.quick:
        args.tables, args.seconds, args.warmup = 50, 15.0, 5.0
        args.ramp, args.ramp_seconds, args.ramp_budget = "100,200", 10.0, 90.0
    try:
        pg_bin("initdb")
    except SystemExit as exc:  # `make bench` runs every bench_*.py: skip, as the tests do, rather than fail
        print(f"bench_load.py skipped: {exc}")
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # inherited by gunicorn and the client
    subprocess.run([str(BIN / "python"), "-m", "babel.messages.frontend", "-q", "compile",
                    "-d", "scorekeeper/translations"], cwd=ROOT, check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    t_begin = time.monotonic()
    print(f"load benchmark — {os.cpu_count()} cores, load average {loadavg()}, open files {hard}", flush=True)
    workdir = Path(tempfile.mkdtemp(prefix="scorekeeper-load-"))
    pg: Postgres | None = None
    try:
        pg = Postgres()
        print(f"  PostgreSQL {pg.settings.get('server_version')} on {HOST}:{pg.port} (fsync "
              f"{pg.settings.get('fsync')}, synchronous_commit {pg.settings.get('synchronous_commit')}, "
              f"max_connections {pg.settings.get('max_connections')})", flush=True)
        subprocess.run([str(BIN / "flask"), "--app", "scorekeeper", "db", "upgrade"], cwd=ROOT,
                       env={**os.environ, "DATABASE_URL": pg.url, "SECRET_KEY": "load-migrate"}, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        print(f"\n== {args.tables} tables, {args.workers} gthread workers × {args.threads} threads, "
              f"{args.warmup:.0f} s warm-up + {args.seconds:.0f} s measured"
              + (f" — app {args.app}" if args.app != "scorekeeper:create_app()" else "")
              + (" — WITH py-spy attached (figures perturbed)" if args.profile else ""), flush=True)
        main_level = run_level(pg, workdir, args.tables, args.threads, args.workers, args.seconds, args.warmup,
                               [], args.seed, profile=args.profile, app=args.app)
        report_main(main_level, args.workers)
        if args.profile:
            summarise_profile(main_level.profile, wall=args.profile == "wall")
            if args.profile_out:
                Path(args.profile_out).mkdir(parents=True, exist_ok=True)
                for path in main_level.profile.values():
                    if path.exists():
                        shutil.copy(path, Path(args.profile_out) / f"{args.profile}-{path.name}")
        carried = main_level.result["tables_list"]

        if not args.no_ramp:
            levels = [int(x) for x in args.ramp.split(",") if x.strip()]
            print(f"\n== ramp: {args.ramp_seconds:.0f} s measured per level (3 s warm-up), budget "
                  f"{args.ramp_budget:.0f} s; stops when POST p95 > {TARGETS['break_post_p95_ms']:.0f} ms "
                  "or on errors", flush=True)
            print(report_ramp_line(main_level) + "   (the main run)", flush=True)
            t_ramp = time.monotonic()
            broke: Level | None = None
            last: Level = main_level
            good: Level = main_level
            for n in levels:
                # a level costs its measured time, ~25 s of start-up and stop, and its new tables and streams
                if time.monotonic() - t_ramp + args.ramp_seconds + 25 + n / 40 > args.ramp_budget:
                    print(f"  (time budget reached before {n} tables)")
                    break
                threads = ramp_threads(n, args.workers)
                print(f"  … {n} tables, {args.workers} × {threads} threads", flush=True)
                lv = run_level(pg, workdir, n, threads, args.workers, args.ramp_seconds, 3.0, carried,
                               args.seed + n, app=args.app)
                carried = lv.result["tables_list"]
                print(report_ramp_line(lv), flush=True)
                last = lv
                if lv.post_p95 > TARGETS["break_post_p95_ms"] or lv.errors:
                    broke = lv
                    break
                good = lv
            if broke is not None:
                why = (f"POST p95 {broke.post_p95:.0f} ms > {TARGETS['break_post_p95_ms']:.0f} ms"
                       if broke.post_p95 > TARGETS["break_post_p95_ms"] else f"{broke.errors} errors")
                print(f"\n  breaks at {broke.tables} tables ({why}); last good level {good.tables} tables "
                      f"(POST p95 {good.post_p95:.0f} ms)")
            else:
                print(f"\n  no break up to {last.tables} tables (POST p95 {last.post_p95:.0f} ms)")
    finally:
        if pg is not None:
            pg.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"\ndone in {time.monotonic() - t_begin:.0f} s; load average {loadavg()}")


if __name__ == "__main__":
    main()
