"""Real servers: gunicorn processes (the project's own settings: the gevent worker) against SQLite
and a throwaway PostgreSQL.

* live updates cross workers (PostgreSQL LISTEN/NOTIFY);
* a server killed with SIGKILL in the middle of a burst loses no acknowledged event.
"""

from __future__ import annotations

import http.client
import json
import socket
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from tests.servers import Server, migrate
from tests.web.conftest import need_postgres


@pytest.fixture
def pg_url(request: pytest.FixtureRequest) -> str:
    need_postgres()
    info = request.getfixturevalue("postgresql").info
    return f"postgresql://{info.user}@{info.host}:{info.port}/{info.dbname}"


def read_sse(port: int, path: str, want: int, seen: list[int], ready: threading.Event) -> None:
    sock = socket.create_connection(("127.0.0.1", port), timeout=15)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
    buffer = b""
    ready_sent = False
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        chunk = sock.recv(4096)
        if not chunk:
            break
        buffer += chunk
        for line in buffer.split(b"\n"):
            if line.startswith(b"data: "):
                seq = json.loads(line[6:])["seq"]
                if seq not in seen:
                    seen.append(seq)
        buffer = buffer[buffer.rfind(b"\n") + 1:]
        if seen and not ready_sent:
            ready.set()
            ready_sent = True
        if want in seen:
            break
    sock.close()


@pytest.mark.postgres
def test_live_updates_cross_workers(pg_url: str) -> None:
    migrate(pg_url)
    one, two = Server(pg_url), Server(pg_url)  # two worker processes, each on its own port
    try:
        status, table = one.request("POST", "/api/v1/tables", {"game": "scorepad", "players": ["A", "B"]})
        assert status == 201
        path = f"/api/v1/tables/{table['id']}/stream?token={table['read_token']}"
        seen_one: list[int] = []
        seen_two: list[int] = []
        ready = [threading.Event(), threading.Event()]
        readers = [threading.Thread(target=read_sse, args=(one.port, path, 2, seen_one, ready[0])),
                   threading.Thread(target=read_sse, args=(two.port, path, 2, seen_two, ready[1]))]
        for r in readers:
            r.start()
        assert all(e.wait(10) for e in ready)
        assert one.request("POST", f"/api/v1/tables/{table['id']}/events",
                           {"type": "points", "side": 0, "points": 1}, table["write_token"])[0] == 201
        assert two.request("POST", f"/api/v1/tables/{table['id']}/events",
                           {"type": "points", "side": 1, "points": 1}, table["write_token"])[0] == 201
        for r in readers:
            r.join(15)
        assert seen_one == [0, 1, 2] and seen_two == [0, 1, 2]
    finally:
        one.stop()
        two.stop()


def burst_then_kill(url: str) -> tuple[Server, dict, set[int]]:
    server = Server(url)
    status, table = server.request("POST", "/api/v1/tables", {"game": "scorepad", "players": ["A", "B"],
                                                               "options": {"target": 10_000}})
    assert status == 201
    acked: set[int] = set()
    lock = threading.Lock()
    stop = threading.Event()

    def writer() -> None:
        while not stop.is_set():
            try:
                code, body = server.request("POST", f"/api/v1/tables/{table['id']}/events",
                                            {"type": "points", "side": 0, "points": 1}, table["write_token"])
            except (OSError, http.client.HTTPException, json.JSONDecodeError):
                return
            if code == 201:
                with lock:
                    acked.add(body["seq"])

    threads = [threading.Thread(target=writer) for _ in range(6)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 20
    while len(acked) < 40 and time.monotonic() < deadline:
        time.sleep(0.01)
    server.kill()  # SIGKILL in the middle of the burst
    stop.set()
    for t in threads:
        t.join(10)
    assert len(acked) >= 40
    return server, table, acked


def check_after_restart(url: str, table: dict, acked: set[int]) -> None:
    server = Server(url)
    try:
        status, log = server.request("GET", f"/api/v1/tables/{table['id']}/events", token=table["read_token"])
        assert status == 200
        stored = [e["seq"] for e in log["events"]]
        assert stored == list(range(1, len(stored) + 1))
        assert acked <= set(stored)
        status, body = server.request("GET", f"/api/v1/tables/{table['id']}", token=table["read_token"])
        assert body["state"]["scores"][0] == len(stored)
    finally:
        server.stop()


def test_sigkill_mid_burst_loses_no_acknowledged_event_sqlite(tmp_path: Path) -> None:
    db_file = tmp_path / "crash.sqlite"
    url = f"sqlite:///{db_file}"
    migrate(url)
    _, table, acked = burst_then_kill(url)
    check_after_restart(url, table, acked)
    with sqlite3.connect(db_file) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


@pytest.mark.postgres
def test_sigkill_mid_burst_loses_no_acknowledged_event_postgres(pg_url: str) -> None:
    migrate(pg_url)
    _, table, acked = burst_then_kill(pg_url)
    check_after_restart(pg_url, table, acked)
    import psycopg

    with psycopg.connect(pg_url) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS amcheck")
        for (index,) in conn.execute("SELECT c.oid::regclass::text FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
                                     "JOIN pg_am a ON a.oid = c.relam WHERE a.amname = 'btree' AND c.relnamespace = 'public'::regnamespace").fetchall():
            conn.execute("SELECT bt_index_check(%s::regclass, true)", (index,))
        dupes = conn.execute("SELECT count(*) FROM (SELECT table_id, seq FROM events GROUP BY 1, 2 HAVING count(*) > 1) d").fetchone()[0]
        assert dupes == 0
