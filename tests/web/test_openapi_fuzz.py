"""The OpenAPI document is the truth: an outside fuzzer (the schemathesis CLI: every phase,
``--checks all``, a fixed seed) against the real app under gunicorn, as ``make run`` serves it,
finds no failure and gets a 2xx from every operation the document lists.

Rate limits are switched off by configuration (an empty limit means none); the hooks in
tests/web/fuzz_hooks.py drop only the refusals the document states in words (see there).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
SEED = 24
# Per operation in the fuzzing phase (stateful: tests/web/schemathesis.toml). The coverage phase is
# not bounded by it: about 3.5 minutes in all on two shared cores, most of it coverage.
EXAMPLES = 10


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait(url: str, proc: subprocess.Popen[bytes], seconds: float = 30) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer within {seconds} s")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("fuzz")
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp / 'fuzz.sqlite'}", "SECRET_KEY": "fuzz",
           "PUBLIC_URL": f"http://127.0.0.1:{port}", "PORT": str(port), "WEB_THREADS": "8",
           # An empty limit is no limit: the fuzzer opens hundreds of tables a minute.
           "RATE_LIMIT_CREATE": "", "RATE_LIMIT_EVENTS": "", "FLASK_APP": "scorekeeper"}
    env.pop("SSE_MAX_STREAMS", None)
    subprocess.run([str(BIN / "flask"), "db", "upgrade"], cwd=ROOT, env=env, check=True, capture_output=True)
    log = (tmp / "gunicorn.log").open("wb")
    proc = subprocess.Popen([str(BIN / "gunicorn"), "--config", "gunicorn.conf.py", "--bind", f"127.0.0.1:{port}",
                             "--access-logfile", "/dev/null", "scorekeeper:create_app()"],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        _wait(f"http://127.0.0.1:{port}/api/v1/games", proc)
        yield f"http://127.0.0.1:{port}", tmp
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()


def run_schemathesis(base: str, reports: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SCHEMATHESIS_HOOKS": "tests.web.fuzz_hooks", "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [str(BIN / "schemathesis"), "--config-file", str(ROOT / "tests" / "web" / "schemathesis.toml"), "run", f"{base}/api/v1/openapi.json", "--checks", "all",
         "--phases", "examples,coverage,fuzzing,stateful", "--seed", str(SEED), "--max-examples", str(EXAMPLES),
         "--workers", "1", "--generation-database", "none",
         # NUL cannot be stored (PostgreSQL refuses it), and the API says so: 400 for NUL anywhere in a body.
         "--generation-allow-x00", "false", "--no-color", "--report", "json,ndjson",
         "--report-dir", str(reports), *extra],
        cwd=reports.parent.parent, env=env, capture_output=True, text=True, timeout=540)


def statuses(ndjson: Path) -> dict[str, Counter[int]]:
    """Every response of the run by operation (``METHOD /path``), from the NDJSON event log."""
    seen: dict[str, Counter[int]] = {}
    for line in ndjson.read_text().splitlines():
        event = json.loads(line)
        finished = event.get("ScenarioFinished")
        if not finished:
            continue
        recorder = finished["recorder"]
        for case_id, interaction in (recorder.get("interactions") or {}).items():
            case = recorder["cases"][case_id]["value"]
            response = interaction.get("response")
            if response is not None:
                label = f"{case['method']} {case['path']}"
                seen.setdefault(label, Counter())[response["status_code"]] += 1
    return seen


@pytest.mark.packaging
@pytest.mark.timeout(600)
def test_fuzzer_finds_nothing_and_reaches_every_operation(server) -> None:
    base, tmp = server
    reports = tmp / "reports"
    result = run_schemathesis(base, reports)
    (reports / "stdout.txt").write_text(result.stdout + result.stderr)
    report = json.loads(next(reports.glob("json-*.json")).read_text())
    seen = statuses(next(reports.glob("ndjson-*.ndjson")))
    document = json.loads(urllib.request.urlopen(f"{base}/api/v1/openapi.json").read())
    operations = {f"{method.upper()} {path}" for path, item in document["paths"].items() for method in item}
    reached = {op for op in operations if any(200 <= status < 300 for status in seen.get(op, {}))}
    print(f"failures {sum(f['count'] for f in report['failures'])}, errors {len(report['errors'])}, "
          f"dropped by the hooks {report['filtered']}, test cases {report['test_cases']['generated']}, "
          f"operations with a 2xx {len(reached)} of {len(operations)}")
    for op in sorted(operations):
        print(op, dict(sorted(seen.get(op, Counter()).items())))
    assert report["complete"], result.stdout[-3000:]
    assert report["operations"]["tested"] == len(operations)
    assert not report["failures"] and not report["errors"], result.stdout[-6000:]
    # Deleting a table has no link from a new table: a fuzzer following it would end every stateful
    # chain at its second step. Its 2xx is tests/web/test_delete.py's; here it is fuzzed for its refusals.
    # So has deleting a circle (tests/web/test_circles.py).
    assert reached == operations - {"DELETE /api/v1/tables/{table_id}", "DELETE /api/v1/circles/{circle_id}"}, \
        f"no 2xx for {sorted(operations - reached)}"
