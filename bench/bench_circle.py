"""A circle of 500 finished tables: the server time of its page and of its API answer. Prints
figures; asserts nothing.

Target (issue 38): ≤ 50 ms p95 for ``GET /c/<id>`` and ``GET /api/v1/circles/<id>`` with 500
finished tables. The tables are played to the end through the API (a mix of the golden tally
logs: Muggins, Kasino, Mulatschak, Mousel), so each outcome is stored as a real game leaves it;
the standings are then counted from the stored outcomes on every request (none is cached).

Server time is the WSGI call measured in-process (Flask's test client: no socket, no client
parsing), on a throwaway SQLite file. The load average is printed before and after.

    .venv/bin/python bench/bench_circle.py            # 500 tables, 200 requests each (~1 minute)
    .venv/bin/python bench/bench_circle.py --tables 100 --requests 50
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper import create_app  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402

LOGS = Path(__file__).resolve().parent.parent / "tests" / "golden" / "logs"
MIX = ["17-muggins-tally-4p-plain", "09-kasino-tally-3p-variant_misar", "12-mulatschak-tally-4p-plain",
       "15-mousel-tally-5p-plain"]
MEMBERS = ["Anna", "Bo", "Cilla", "Dag", "P0", "P1", "P2", "P3", "P4", "A", "B", "C", "D"]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}")
    folder = tempfile.mkdtemp(prefix="bench-circle-")
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite", "SECRET_KEY": "bench",
                      "PUBLIC_URL": "http://127.0.0.1:5000", "TESTING_NO_LISTENER": True,
                      "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False})
    with app.app_context():
        db.create_all()
    client = app.test_client()
    circle = client.post("/api/v1/circles", json={"name": "Bench", "members": MEMBERS}).get_json()
    bearer = {"Authorization": f"Bearer {circle['write_token']}"}
    logs = [json.loads((LOGS / f"{name}.json").read_text()) for name in MIX]
    started = time.perf_counter()
    for n in range(args.tables):
        log = logs[n % len(logs)]
        table = client.post("/api/v1/tables", headers=bearer, json={
            "game": log["game"], "players": log["players"], "mode": log["mode"], "options": log["options"],
            "circle": circle["id"]}).get_json()
        for entry in log["events"]:
            event = entry["event"]
            path = "undo" if event["type"] == "undo" else "events"
            r = client.post(f"/api/v1/tables/{table['id']}/{path}", json=None if path == "undo" else event,
                            headers={"Authorization": f"Bearer {table['write_token']}"})
            assert r.status_code in (200, 201), r.get_json()
    print(f"built {args.tables} finished tables through the API in {time.perf_counter() - started:.1f} s")
    phone = app.test_client()
    phone.get(f"/c/{circle['id']}/k/{circle['read_token']}")
    reader = {"Authorization": f"Bearer {circle['read_token']}"}
    checks = phone.get(f"/c/{circle['id']}").get_data(as_text=True).count("data-member=")
    answer = client.get(f"/api/v1/circles/{circle['id']}", headers=reader).get_json()
    print(f"page rows: {checks}; API tables: {len(answer['tables'])}, "
          f"games: {sorted(answer['standings'])}")
    for name, call in (("page  GET /c/<id>", lambda: phone.get(f"/c/{circle['id']}")),
                       ("API   GET /api/v1/circles/<id>", lambda: client.get(f"/api/v1/circles/{circle['id']}",
                                                                              headers=reader))):
        times = []
        for _ in range(args.requests):
            t0 = time.perf_counter()
            response = call()
            times.append((time.perf_counter() - t0) * 1000)
            assert response.status_code == 200
        p50, p95 = statistics.median(times), percentile(times, 0.95)
        verdict = "PASS" if p95 <= 50 else "MISS"
        print(f"{name:34} p50 {p50:6.1f} ms  p95 {p95:6.1f} ms  (target p95 ≤ 50 ms: {verdict})  "
              f"[{len(response.get_data())} bytes]")
    # The first view after a table finished (or any move) counts afresh from the stored outcomes:
    # the views are kept per process, keyed by the circle's tables as one aggregate query reads them.
    from scorekeeper.service.standings import views

    times = []
    for _ in range(args.requests // 4 or 1):
        views.clear()
        t0 = time.perf_counter()
        assert client.get(f"/api/v1/circles/{circle['id']}", headers=reader).status_code == 200
        times.append((time.perf_counter() - t0) * 1000)
    print(f"{'API, counted afresh (first view)':34} p50 {statistics.median(times):6.1f} ms  "
          f"p95 {percentile(times, 0.95):6.1f} ms")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
