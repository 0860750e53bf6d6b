"""What the operator's metrics cost (issue 23 item 8): the instrumentation on the write path and
the event streams, and one scrape, in one process and in multi-process mode (several workers).

    .venv/bin/python bench/bench_metrics.py      # about 20 s

Each mode runs in a fresh process (prometheus_client chooses its kind of value on import).
Figures: microseconds per call (best of 5 rounds), a scrape's milliseconds with 2,500 tables in
use and 10,000 open streams, spread over 4 worker files in multi-process mode.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import importlib.util, json, os, sys, time
spec = importlib.util.spec_from_file_location("metrics", sys.argv[1])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
m.ready()
N = 20000

def best(fn):
    rounds = []
    for _ in range(5):
        t = time.perf_counter()
        fn()
        rounds.append((time.perf_counter() - t) / N * 1e6)
    return min(rounds)

out = {}
out["move_written_us"] = best(lambda: [m.move_written("mulle", 0.004, f"t{i % 2500}") for i in range(N)])
out["stream_open_close_us"] = best(lambda: [(m.stream_opened(f"t{i % 2500}"), m.stream_closed(f"t{i % 2500}")) for i in range(N)])
out["stream_refused_us"] = best(lambda: [m.stream_refused(m.CAP) for _ in range(N)])
for i in range(10000):
    m.stream_opened(f"t{i % 2500}")
path = m.multiproc_dir()
if path:
    m.flush()
    tables = json.load(open(os.path.join(path, f"scorekeeper_active_{os.getpid()}.json")))
    for worker in range(3):  # three more workers' files, each with the same tables (counted once)
        with open(os.path.join(path, f"scorekeeper_active_{900000 + worker}.json"), "w") as f:
            json.dump(tables, f)
t = time.perf_counter()
for _ in range(20):
    body = m.exposition()[0]
out["scrape_ms"] = (time.perf_counter() - t) / 20 * 1e3
out["scrape_bytes"] = len(body)
out["tables_active"] = m.tables_active()
print(json.dumps(out))
"""


def run(multiproc: bool) -> dict[str, float]:
    env = {k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"}
    with tempfile.TemporaryDirectory() as folder:
        if multiproc:
            env["PROMETHEUS_MULTIPROC_DIR"] = folder
        done = subprocess.run([sys.executable, "-c", CHILD, str(ROOT / "scorekeeper" / "metrics.py")],
                              env=env, check=True, capture_output=True, text=True, timeout=300)
    return dict(json.loads(done.stdout))


def main() -> None:
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    for name, multiproc in (("one process", False), ("multi-process", True)):
        f = run(multiproc)
        print(f"{name:>14}: move_written {f['move_written_us']:.1f} µs · stream opened+closed "
              f"{f['stream_open_close_us']:.1f} µs · refused {f['stream_refused_us']:.1f} µs · scrape "
              f"{f['scrape_ms']:.1f} ms ({f['scrape_bytes']} bytes, tables_active {f['tables_active']:.0f})")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
