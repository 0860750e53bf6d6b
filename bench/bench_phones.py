"""Thousands of open phones on one server, three servers, and a restart (issue 23).

The server runs as users get it: ``gunicorn --config python:scorekeeper.gunicorn_conf`` (the gevent
worker, the stream cap and the open-file limit of ``scorekeeper/server.py``), on SQLite unless
``--postgres``. Only table creation's rate limit is raised, to open the tables quickly. The phones
are asyncio clients in several processes (one descriptor per phone; a process may hold 20,000 here)
that behave like EventSource: reconnect after the server's ``retry``, back off with jitter after a
503. They connect from 127.0.0.2, 127.0.0.3 … (500 phones an address), under the per-address cap.

    python bench/bench_phones.py                       # 2,500 tables x 4 = 10,000 phones, SQLite
    python bench/bench_phones.py --tables 4000         # as many as the machine allows
    python bench/bench_phones.py --servers 3 --tables 3750 --postgres   # 3 x 5,000, one PostgreSQL

Prints: phones held and refused, memory per phone, a move's reach (p50/p95 from the POST to every
phone of its table), write latency with none and with all open, CPU while idle (pings), and the
restart: phones back, errors, moves written meanwhile delivered.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import multiprocessing as mp
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from tests.phones import Phone, hold, summary  # noqa: E402
from tests.servers import Server, migrate  # noqa: E402

PER_ADDRESS = 500
TICK = os.sysconf("SC_CLK_TCK")


# --- the phones, in processes of their own ---------------------------------------------------------


def crowd_process(host: str, ports: list[int], specs: list[tuple[str, str, str, int]], conn) -> None:  # noqa: ANN001
    """Holds its phones until told to stop; answers ``status`` and ``arrivals`` on the pipe."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    phones = [(Phone(path, table, address), ports[server]) for path, table, address, server in specs]

    async def main() -> None:
        stop = asyncio.Event()
        tasks = []
        for i, (phone, port) in enumerate(phones):
            tasks.append(asyncio.ensure_future(hold(phone, host, port, stop)))
            if i % 200 == 199:
                await asyncio.sleep(0.01)  # a crowd arriving, not one SYN flood
        loop = asyncio.get_running_loop()
        while True:
            command, arg = await loop.run_in_executor(None, conn.recv)
            if command == "status":
                got = summary([p for p, _ in phones])
                opens = [p.last_open for p, _ in phones if p.last_open]
                got["last_open"] = max(opens) if opens else 0.0
                conn.send(got)
            elif command == "arrivals":  # {table: seq} -> [(table, time or None)]
                conn.send([(p.table, p.arrivals.get(arg[p.table])) for p, _ in phones if p.table in arg])
            elif command == "stop":
                stop.set()
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
                conn.send("stopped")
                return

    asyncio.run(main())


class Crowds:
    def __init__(self, host: str, ports: list[int], specs: list[tuple[str, str, str, int]], processes: int) -> None:
        self.pipes = []
        self.procs = []
        ctx = mp.get_context("fork")
        for k in range(processes):
            mine, theirs = ctx.Pipe()
            proc = ctx.Process(target=crowd_process, args=(host, ports, specs[k::processes], theirs), daemon=True)
            proc.start()
            self.pipes.append(mine)
            self.procs.append(proc)

    def ask(self, command: str, arg: object = None) -> list:
        for pipe in self.pipes:
            pipe.send((command, arg))
        return [pipe.recv() for pipe in self.pipes]

    def status(self) -> dict[str, float]:
        total: dict[str, float] = {}
        for part in self.ask("status"):
            for k, v in part.items():
                total[k] = max(total.get(k, 0), v) if k == "last_open" else total.get(k, 0) + v
        return total

    def wait_connected(self, want: int, timeout: float) -> tuple[float, dict[str, float]]:
        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout:
            status = self.status()
            if status["connected"] >= want:
                return time.monotonic() - t0, status
            time.sleep(0.5)
        return float("nan"), self.status()

    def stop(self) -> None:
        self.ask("stop")
        for proc in self.procs:
            proc.join(10)


# --- the server side ---------------------------------------------------------------------------------


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat[stat.rindex(")") + 2:].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def rss_kb(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total


def cpu_seconds(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        raw = Path(f"/proc/{pid}/stat").read_text()
        fields = raw[raw.rindex(")") + 2:].split()
        total += int(fields[11]) + int(fields[12])
    return total / TICK


def workers(servers: list[Server]) -> list[int]:
    return [pid for s in servers for pid in children(s.proc.pid)]


def post_move(server: Server, table: dict, conn_cache: dict) -> tuple[int, float, float]:
    """(seq, t0, seconds) of one move through ``server``."""
    conn = conn_cache.get(server.port)
    if conn is None:
        conn = conn_cache[server.port] = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
    body = json.dumps({"type": "points", "side": 0, "points": 1})
    t0 = time.monotonic()
    conn.request("POST", f"/api/v1/tables/{table['id']}/events", body=body,
                 headers={"Content-Type": "application/json", "Authorization": f"Bearer {table['write_token']}"})
    response = conn.getresponse()
    data = json.loads(response.read())
    took = time.monotonic() - t0
    if response.status != 201:
        raise RuntimeError(f"move refused: {response.status} {data}")
    return data["seq"], t0, took


def quantiles(values: list[float]) -> str:
    if not values:
        return "n/a"
    ordered = sorted(values)
    p = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000  # noqa: E731
    return f"p50 {p(0.50):.1f} ms, p95 {p(0.95):.1f} ms, max {ordered[-1] * 1000:.1f} ms (n={len(values)})"


def close_all(conns: dict) -> None:
    """A kept-alive connection would hold a worker's graceful shutdown until its keep-alive ends."""
    for conn in conns.values():
        conn.close()


def writes(servers: list[Server], tables: list[dict], count: int) -> list[float]:
    conns: dict = {}
    took = [post_move(servers[i % len(servers)], random.choice(tables), conns)[2] for i in range(count)]
    close_all(conns)
    return took


def reach(crowds: Crowds, servers: list[Server], tables: list[dict], moved: int, phones_per_table: int,
          settle: float = 3.0) -> tuple[list[float], int, int]:
    """Move ``moved`` tables (one POST each, through the servers in turn) and return every phone's
    delay from its table's POST, with how many phones heard and how many should have."""
    conns: dict = {}
    chosen = random.sample(tables, moved)
    t0s = {}
    seqs = {}
    for i, table in enumerate(chosen):
        seq, t0, _ = post_move(servers[i % len(servers)], table, conns)
        t0s[table["id"]], seqs[table["id"]] = t0, seq
        time.sleep(0.01)
    close_all(conns)
    time.sleep(settle)
    delays = []
    heard = 0
    for part in crowds.ask("arrivals", seqs):
        for table_id, at in part:
            if at is not None:
                heard += 1
                delays.append(at - t0s[table_id])
    return delays, heard, moved * phones_per_table


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=2500)
    parser.add_argument("--phones-per-table", type=int, default=4)
    parser.add_argument("--servers", type=int, default=1, help="server processes on their own ports (needs --postgres for more than 1)")
    parser.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL (bench_load's) instead of SQLite")
    parser.add_argument("--clients", type=int, default=0, help="client processes (default: one per 2,500 phones)")
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--idle", type=float, default=30.0, help="seconds of idle CPU measurement")
    parser.add_argument("--no-restart", action="store_true")
    args = parser.parse_args()
    if args.servers > 1 and not args.postgres:
        parser.error("several servers share live updates only through PostgreSQL: add --postgres")

    pg = None
    tmp = Path(tempfile.mkdtemp(prefix="scorekeeper-phones-"))
    if args.postgres:
        from bench_load import Postgres

        pg = Postgres()
        url = pg.url
    else:
        url = f"sqlite:///{tmp / 'phones.sqlite'}"
    migrate(url)
    env = {"RATE_LIMIT_CREATE": "1000000 per minute", "RATE_LIMIT_EVENTS": "1000000 per minute",
           "WEB_CONCURRENCY": "1"}
    servers = [Server(url, **env) for _ in range(args.servers)]
    try:
        return run(args, servers, pg)
    finally:
        for server in servers:
            server.stop()
        if pg is not None:
            pg.stop()


def run(args: argparse.Namespace, servers: list[Server], pg: object) -> int:
    n_phones = args.tables * args.phones_per_table
    print(f"# bench_phones: {args.tables} tables x {args.phones_per_table} = {n_phones} phones on "
          f"{len(servers)} server(s), {'PostgreSQL' if pg else 'SQLite'}, {os.cpu_count()} cores")
    for line in Path(f"/proc/{servers[0].proc.pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            print(f"  server's open-file limit: {line.split()[3]} soft / {line.split()[4]} hard")
    t0 = time.monotonic()
    tables = []
    for i in range(args.tables):
        status, table = servers[i % len(servers)].request("POST", "/api/v1/tables", {"game": "scorepad", "players": ["A", "B", "C", "D"]})
        assert status == 201, table
        tables.append(table)
    print(f"  opened {len(tables)} tables in {time.monotonic() - t0:.1f} s")

    before = writes(servers, tables, args.moves)
    print(f"  write, no phones open:      {quantiles(before)}")
    pids = workers(servers)
    rss0 = rss_kb(pids)

    specs = []
    for i, table in enumerate(tables):
        for k in range(args.phones_per_table):
            n = len(specs)
            address = f"127.0.{2 + n // PER_ADDRESS // 250}.{2 + (n // PER_ADDRESS) % 250}"
            server = (i * args.phones_per_table + k) % len(servers)
            specs.append((f"/api/v1/tables/{table['id']}/stream?token={table['read_token']}", table["id"], address, server))
    clients = args.clients or max(1, -(-n_phones // 2500))
    crowds = Crowds("127.0.0.1", [s.port for s in servers], specs, clients)
    try:
        took, status = crowds.wait_connected(n_phones, 300)
        print(f"  phones held: {int(status['connected'])} of {n_phones} in {took:.1f} s "
              f"({clients} client processes); refused (503) {int(status['refused'])}, failed {int(status['failed'])}")
        time.sleep(2)
        rss1 = rss_kb(pids)
        print(f"  server memory: {rss0 / 1024:.0f} MB -> {rss1 / 1024:.0f} MB: "
              f"{(rss1 - rss0) / max(1, status['connected']):.1f} kB per open phone")

        delays, heard, expected = reach(crowds, servers, tables, min(args.moves, len(tables)), args.phones_per_table)
        print(f"  a move reaches its table's phones: heard {heard} of {expected}; {quantiles(delays)}")
        after = writes(servers, tables, args.moves)
        print(f"  write, all phones open:     {quantiles(after)}  "
              f"(p50 ratio {statistics.median(after) / statistics.median(before):.2f}x)")

        cpu0 = cpu_seconds(pids)
        time.sleep(args.idle)
        cpu1 = cpu_seconds(pids)
        print(f"  idle with {int(status['connected'])} open (a ping every 15 s each): "
              f"{100 * (cpu1 - cpu0) / args.idle:.1f} % of a core")
        status = crowds.status()
        print(f"  still held after idling: {int(status['connected'])}, resets {int(status['resets'])}")

        if not args.no_restart:
            restart(args, crowds, servers, tables, n_phones)
    finally:
        crowds.stop()
    return 0


def restart(args: argparse.Namespace, crowds: Crowds, servers: list[Server], tables: list[dict], n_phones: int) -> None:
    """A deploy: every server stopped (SIGTERM) and started again on its port while the phones wait."""
    before = crowds.status()
    t0 = time.monotonic()
    for server in servers:
        server.stop()
    stopped = time.monotonic() - t0
    down = crowds.status()
    for server in servers:
        server.start(timeout=60)
    restarted = time.monotonic()
    # Moves written while the phones come back: each must reach every phone of its table.
    conns: dict = {}
    chosen = random.sample(tables, min(100, len(tables)))
    seqs = {}
    meanwhile = []
    dropped = 0
    for i, table in enumerate(chosen):
        for _attempt in range(3):
            try:
                seq, _, took = post_move(servers[i % len(servers)], table, conns)
                break
            except (OSError, http.client.HTTPException):  # counted: a phone would send it again
                dropped += 1
                conns.pop(servers[i % len(servers)].port, None)
        else:
            raise RuntimeError("a move after the restart failed three times")
        seqs[table["id"]] = seq
        meanwhile.append(took)
    close_all(conns)
    took, status = crowds.wait_connected(n_phones, 120)
    back = status["last_open"] - restarted
    time.sleep(2)
    heard = sum(at is not None for part in crowds.ask("arrivals", seqs) for _, at in part)
    print(f"  restart: streams ended {stopped:.1f} s after SIGTERM ({int(down['connected'])} still open then); "
          f"{int(status['connected'])} of {n_phones} back {back:.1f} s after the new server was up; "
          f"503s {int(status['refused'] - before['refused'])}, failed connections {int(status['failed'] - before['failed'])}, "
          f"resets {int(status['resets'] - before['resets'])}; moves written meanwhile heard by "
          f"{heard} of {len(seqs) * args.phones_per_table} phones")
    print(f"  restart: a write while the phones come back: {quantiles(meanwhile)}; "
          f"{dropped} dropped without an answer (sent again)")


if __name__ == "__main__":
    raise SystemExit(main())
