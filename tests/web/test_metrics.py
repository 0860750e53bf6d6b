"""``/metrics``: hidden unless configured, counts what happened, and adds up across worker processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from prometheus_client.parser import text_string_to_metric_families

from scorekeeper import metrics
from tests.web.conftest import make_app

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "metrics-secret-123"


def sample(text: str, name: str, default: float | None = None, **labels: str) -> float:
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()):
                return float(s.value)
    if default is not None:
        return default
    raise AssertionError(f"no sample {name} {labels} in:\n{text}")


def scrape(client: Any) -> str:
    response = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200, response.status_code
    assert response.content_type.startswith("text/plain; version=")
    return str(response.get_data(as_text=True))


@pytest.fixture
def metered(tmp_path: Path) -> Flask:
    return make_app(f"sqlite:///{tmp_path / 'metrics.sqlite'}", METRICS_TOKEN=TOKEN)


def _table(client: Any, game: str = "scorepad") -> dict[str, Any]:
    made = client.post("/api/v1/tables", json={"game": game, "players": ["Anna", "Bo"]})
    assert made.status_code == 201
    return dict(made.json)


def test_metrics_answer_404_unless_a_token_is_configured(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    assert client.get("/metrics").status_code == 404
    assert client.get("/metrics", headers={"Authorization": "Bearer anything"}).status_code == 404
    assert client.get("/metrics?token=").status_code == 404


def test_metrics_want_the_token(metered: Flask) -> None:
    client = metered.test_client()
    missing = client.get("/metrics")
    assert missing.status_code == 401 and missing.headers["WWW-Authenticate"].startswith("Bearer")
    assert client.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 403
    assert client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}x"}).status_code == 403
    assert "scorekeeper_streams_open" not in client.get("/metrics", headers={"Authorization": "Bearer x"}).get_data(as_text=True)
    assert client.get(f"/metrics?token={TOKEN}").status_code == 401  # not in an address: the access log keeps those
    assert "scorekeeper_tables_active" in scrape(client)


def test_a_move_is_counted_with_its_latency_and_makes_its_table_active(metered: Flask) -> None:
    client = metered.test_client()
    table = _table(client)
    before = scrape(client)
    written = client.post(f"/api/v1/tables/{table['id']}/events", json={"type": "points", "side": 0, "points": 3},
                          headers={"Authorization": f"Bearer {table['write_token']}"})
    assert written.status_code == 201
    client.post(f"/api/v1/tables/{table['id']}/undo", headers={"Authorization": f"Bearer {table['write_token']}"})
    after = scrape(client)
    assert sample(after, "scorekeeper_moves_written_total", game="scorepad") == sample(
        before, "scorekeeper_moves_written_total", 0, game="scorepad") + 2  # the move and its undo
    assert sample(after, "scorekeeper_move_write_seconds_count") == sample(before, "scorekeeper_move_write_seconds_count") + 2
    assert sample(after, "scorekeeper_move_write_seconds_sum") > sample(before, "scorekeeper_move_write_seconds_sum")
    assert sample(after, "scorekeeper_tables_active") == sample(before, "scorekeeper_tables_active") + 1
    # A refused move (a read token) is not a move written.
    client.post(f"/api/v1/tables/{table['id']}/events", json={"type": "points", "side": 0, "points": 3},
                headers={"Authorization": f"Bearer {table['read_token']}"})
    assert sample(scrape(client), "scorekeeper_move_write_seconds_count") == sample(after, "scorekeeper_move_write_seconds_count")


def test_moves_are_counted_by_game(metered: Flask) -> None:
    client = metered.test_client()
    table = _table(client)
    client.post(f"/api/v1/tables/{table['id']}/events", json={"type": "points", "side": 1, "points": 1},
                headers={"Authorization": f"Bearer {table['write_token']}"})
    before = sample(scrape(client), "scorekeeper_moves_written_total", game="scorepad")
    client.post(f"/api/v1/tables/{table['id']}/events", json={"type": "points", "side": 1, "points": 1},
                headers={"Authorization": f"Bearer {table['write_token']}"})
    assert sample(scrape(client), "scorekeeper_moves_written_total", game="scorepad") == before + 1


def test_streams_open_refused_and_closed_are_counted(metered: Flask) -> None:
    from scorekeeper.web.api import open_streams

    client = metered.test_client()
    table = _table(client)
    url = f"/api/v1/tables/{table['id']}/stream?token={table['read_token']}"
    metered.config.update(SSE_MAX_STREAMS=open_streams() + 1, SSE_PING_SECONDS=0.05, SSE_MAX_SECONDS=5)
    before = scrape(client)
    active = sample(before, "scorekeeper_tables_active")
    first = client.get(url, buffered=False)
    assert first.status_code == 200
    during = scrape(client)
    assert sample(during, "scorekeeper_streams_open") == sample(before, "scorekeeper_streams_open") + 1
    assert sample(during, "scorekeeper_tables_active") == active + 1  # a table nobody has moved on yet
    assert client.get(url).status_code == 503
    refused = scrape(client)
    assert sample(refused, "scorekeeper_streams_refused_total", reason="cap") == sample(
        before, "scorekeeper_streams_refused_total", reason="cap") + 1
    assert sample(refused, "scorekeeper_streams_refused_total", reason="per-address") == sample(
        before, "scorekeeper_streams_refused_total", reason="per-address")
    first.close()
    closed = scrape(client)
    assert sample(closed, "scorekeeper_streams_open") == sample(before, "scorekeeper_streams_open")
    assert sample(closed, "scorekeeper_tables_active") == active + 1  # still within the window


def test_tables_active_forgets_a_table_after_the_window() -> None:
    import time

    metrics.stream_opened("window-test")
    metrics.stream_closed("window-test")
    now = time.time()
    count = metrics.tables_active(now)
    later = now + metrics.ACTIVE_MINUTES * 60 + 1
    assert metrics.tables_active(later) <= count - 1


# --- Several worker processes ----------------------------------------------------------------

# The module alone, not the app: a worker process needs only what it counts (and starts in a tenth of the time).
LOAD = f"""
import importlib.util
spec = importlib.util.spec_from_file_location("metrics", {str(ROOT / "scorekeeper" / "metrics.py")!r})
metrics = importlib.util.module_from_spec(spec)
spec.loader.exec_module(metrics)
"""

WORKER = LOAD + """
import json, sys
streams, moves, tables = json.loads(sys.argv[1])
for table in tables:
    metrics.stream_opened(table)
for table in tables[:-1] if len(tables) > 1 else []:
    metrics.stream_closed(table)
for i in range(moves):
    metrics.move_written("mulle", 0.004, tables[0])
metrics.flush()
"""

SCRAPER = LOAD + """
import sys
sys.stdout.write(metrics.exposition()[0].decode())
"""


def _run(code: str, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True, timeout=60)


class _Worker:
    def __init__(self, pid: int) -> None:
        self.pid = pid


def test_multiprocess_mode_adds_up_two_processes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shared = tmp_path / "prom"
    shared.mkdir()
    env = {**os.environ, metrics.MULTIPROC_ENV: str(shared)}
    # One process holds a stream on table A and wrote 2 moves there; the other holds B (C's stream
    # closed) and wrote 3 moves on B. The scrape runs in a third.
    one = subprocess.Popen([sys.executable, "-c", WORKER + "print(__import__('os').getpid())",
                            json.dumps([1, 2, ["A"]])], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    two = subprocess.Popen([sys.executable, "-c", WORKER + "print(__import__('os').getpid())",
                            json.dumps([1, 3, ["B", "C"]])], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    pid_one = int(one.communicate(timeout=60)[0])
    assert two.communicate(timeout=60)[0].strip() and one.returncode == 0 and two.returncode == 0
    text = _run(SCRAPER, env).stdout
    assert sample(text, "scorekeeper_moves_written_total", game="mulle") == 5
    assert sample(text, "scorekeeper_move_write_seconds_count") == 5
    assert sample(text, "scorekeeper_streams_open") == 2  # livesum: one per process
    assert sample(text, "scorekeeper_tables_active") == 3  # A and B streaming, C closed just now
    # gunicorn's master calls child_exit when a worker dies: its streams no longer count, its moves still do.
    monkeypatch.setenv(metrics.MULTIPROC_ENV, str(shared))
    metrics.child_exit(None, _Worker(pid_one))
    text = _run(SCRAPER, env).stdout
    assert sample(text, "scorekeeper_streams_open") == 1
    assert sample(text, "scorekeeper_moves_written_total", game="mulle") == 5
    assert sample(text, "scorekeeper_tables_active") == 2  # B and C; A went with its worker


def test_a_scrape_while_a_worker_starts_or_dies_still_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker's file exists empty for an instant after it opens it and before prometheus_client sizes
    it; a dead worker's live gauge file is removed by child_exit between the scrape's listing and its
    read. Either, caught by a scrape, gave METRICS_BIND a 500 ("A server error occurred") in CI."""
    shared = tmp_path / "prom"
    shared.mkdir()
    env = {**os.environ, metrics.MULTIPROC_ENV: str(shared)}
    _run(WORKER, env, json.dumps([1, 4, ["A"]]))
    (shared / "counter_999999.db").touch()  # a new worker's first instant
    (shared / "histogram_999999.db").write_bytes(b"\0\0")  # shorter than its header
    monkeypatch.setenv(metrics.MULTIPROC_ENV, str(shared))
    text = metrics.exposition()[0].decode()
    assert sample(text, "scorekeeper_moves_written_total", game="mulle") == 4
    assert sample(text, "scorekeeper_streams_open") == 1

    live = next(shared.glob("gauge_livesum_*.db"))
    real_glob = metrics.glob.glob

    def listed_then_removed(pattern: str) -> list[str]:
        found = real_glob(pattern)
        live.unlink()  # child_exit, between the listing and the read
        return found

    monkeypatch.setattr(metrics.glob, "glob", listed_then_removed)
    text = metrics.exposition()[0].decode()
    assert sample(text, "scorekeeper_moves_written_total", game="mulle") == 4


def test_a_new_run_starts_from_zero(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shared = tmp_path / "prom"
    shared.mkdir()
    env = {**os.environ, metrics.MULTIPROC_ENV: str(shared)}
    _run(WORKER, env, json.dumps([1, 4, ["A"]]))
    assert sample(_run(SCRAPER, env).stdout, "scorekeeper_moves_written_total", game="mulle") == 4
    monkeypatch.setenv(metrics.MULTIPROC_ENV, str(shared))
    assert metrics.prepare_multiproc_dir() == str(shared)
    assert "scorekeeper_moves_written_total{" not in _run(SCRAPER, env).stdout


def test_when_ready_sets_up_a_shared_directory_only_when_metrics_are_wanted(monkeypatch: pytest.MonkeyPatch) -> None:
    class Master:
        num_workers = 2

    monkeypatch.delenv("METRICS_BIND", raising=False)
    monkeypatch.delenv("METRICS_TOKEN", raising=False)
    assert metrics.MULTIPROC_ENV not in os.environ
    try:
        metrics.when_ready(Master())
        assert metrics.MULTIPROC_ENV not in os.environ  # nobody reads the metrics: no shared files
        monkeypatch.setenv("METRICS_TOKEN", TOKEN)
        Master.num_workers = 1
        metrics.when_ready(Master())
        assert metrics.MULTIPROC_ENV not in os.environ  # one worker answers /metrics from its memory
        Master.num_workers = 2
        metrics.when_ready(Master())
        path = os.environ[metrics.MULTIPROC_ENV]
        assert Path(path).is_dir() and not list(Path(path).iterdir())
        os.rmdir(path)
    finally:
        os.environ.pop(metrics.MULTIPROC_ENV, None)  # the rest of this process counts in memory


def test_metrics_bind_is_host_and_port() -> None:
    assert metrics.parse_bind("127.0.0.1:9100") == ("127.0.0.1", 9100)
    assert metrics.parse_bind(":9100") == ("0.0.0.0", 9100)
    assert metrics.parse_bind("[::1]:9100") == ("::1", 9100)
    with pytest.raises(ValueError, match="METRICS_BIND"):
        metrics.parse_bind("9100x")


@pytest.mark.packaging
def test_gunicorn_with_two_workers_serves_one_sum_on_metrics_bind(tmp_path: Path) -> None:
    """The real server (gunicorn.conf.py): two workers, METRICS_BIND served by the master, a killed
    worker's stream dropped (child_exit), the shared directory removed when the server stops."""
    import http.client
    import signal
    import time

    from tests.servers import free_port, migrate

    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    migrate(url)
    port, metrics_port = free_port(), free_port()
    shared = tmp_path / "prom"  # given, so the test can see it; without it the master makes a temporary one
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "metrics-test", "PORT": str(port), "WEB_CONCURRENCY": "2",
           "METRICS_BIND": f"127.0.0.1:{metrics_port}", "METRICS_TOKEN": TOKEN, metrics.MULTIPROC_ENV: str(shared)}
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "scorekeeper:create_app()"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)

    def get(port_: int, path: str, headers: dict[str, str] | None = None,
            body: dict[str, Any] | None = None) -> tuple[int, str]:
        conn = http.client.HTTPConnection("127.0.0.1", port_, timeout=10)
        conn.request("POST" if body is not None else "GET", path, body=json.dumps(body) if body is not None else None,
                     headers={"Content-Type": "application/json", **(headers or {})})
        response = conn.getresponse()
        text = response.read().decode()
        conn.close()
        return response.status, text

    def bound_metrics() -> str:  # every scrape, also while workers die and start, answers
        status, text = get(metrics_port, "/metrics")
        assert status == 200, (status, text)
        return text

    def until(check: Any, seconds: float = 90) -> None:  # a busy CI machine boots a worker slowly
        deadline = time.monotonic() + seconds
        while True:
            try:
                if check():
                    return
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out: {check.__code__.co_firstlineno}")
            time.sleep(0.2)

    try:
        until(lambda: get(port, "/healthz")[0] == 200 and get(metrics_port, "/metrics")[0] == 200)
        table = json.loads(get(port, "/api/v1/tables", body={"game": "scorepad", "players": ["A", "B"]})[1])
        write = {"Authorization": f"Bearer {table['write_token']}"}
        for _ in range(6):  # the workers take turns: both count, one sum
            assert get(port, f"/api/v1/tables/{table['id']}/events", write, {"type": "points", "side": 0, "points": 1})[0] == 201
        bound = bound_metrics()
        assert sample(bound, "scorekeeper_moves_written_total", game="scorepad") == 6
        status, routed = get(port, "/metrics", {"Authorization": f"Bearer {TOKEN}"})
        assert status == 200 and sample(routed, "scorekeeper_moves_written_total", game="scorepad") == 6
        assert get(port, "/metrics")[0] == 401
        stream = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        stream.request("GET", f"/api/v1/tables/{table['id']}/stream?token={table['read_token']}")
        assert stream.getresponse().status == 200
        until(lambda: sample(bound_metrics(), "scorekeeper_streams_open") == 1)
        # Each worker tells the others its tables within FLUSH_SECONDS.
        until(lambda: sample(bound_metrics(), "scorekeeper_tables_active") == 1)
        workers = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
        assert len(workers) == 2
        for pid in workers:
            os.kill(int(pid), signal.SIGKILL)
        # The master starts two new workers; the dead ones' stream and table no longer count, their
        # moves do. The master tidies after one dead worker at a time (child_exit): the worker that
        # held the stream may be tidied before the other one, whose file still names the table.
        def gone(text: str) -> bool:
            return (sample(text, "scorekeeper_streams_open", -1) == 0
                    and sample(text, "scorekeeper_tables_active", -1) == 0)

        until(lambda: gone(bound_metrics()))
        after = bound_metrics()
        assert sample(after, "scorekeeper_moves_written_total", game="scorepad") == 6
        assert gone(after)
        stream.close()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(20)
