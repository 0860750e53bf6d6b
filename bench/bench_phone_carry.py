"""A phone's copy saved by an older build (issue 27, item 3): what carrying it over costs at start.

    .venv/bin/python bench/bench_phone_carry.py [--tables 20] [--events 300] [--runs 5]

Runs the phone's app (scorekeeper/offline/phone.py) here under CPython, as the service worker
runs it under Pyodide: a copy with ``--tables`` score-pad tables of ``--events`` entries each and
as many Mulle tables with a deal and a few moves, then its start timed three ways — an empty
phone, the copy as this build wrote it (its schema mark matches: opened as it is), and the same
copy unmarked with a column fewer, as an older build wrote it (carried over table by table, each
log replayed through the engine). Pyodide runs the same Python several times slower: the
difference between the last two is the figure that adds to a cached start (target ≤ 3 s) once,
until the phone's first change stores the carried copy.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.offline import carry, phone  # noqa: E402

HOST = "localhost:5000"


def build(tables: int, events: int) -> tuple[bytes, str]:
    from scorekeeper import service

    phone.open_phone(None, None, HOST)
    with phone._state["app"].app_context():
        for _ in range(tables):
            pad = service.create_table("scorepad", ["Anna", "Bo", "Cleo"])
            for i in range(events):
                service.record(pad.id, {"type": "points", "side": i % 3, "points": 1 if i % 6 < 3 else -1})
            mulle = service.create_table("mulle", ["Anna", "Bo"])
            service.record(mulle.id, {"type": "deal", "dealer": 1, "table": ["5D", "9C", "4H", "AS"]})
            for card, player in (("5C", 0), ("KH", 1)):
                service.record(mulle.id, {"type": "play", "player": player, "card": card})
    return phone.snapshot()


def older(database: bytes) -> bytes:
    old = sqlite3.connect(":memory:")
    old.deserialize(database)
    old.execute("ALTER TABLE tables DROP COLUMN rules_version")
    old.commit()
    old.execute("PRAGMA user_version = 0")
    return old.serialize()


def timed(database: bytes | None, cookie: str | None, runs: int) -> list[float]:
    from scorekeeper.service import cache, facts_cache

    times = []
    for _ in range(runs):
        cache.clear()
        facts_cache.clear()
        t0 = time.perf_counter()
        phone.open_phone(database, cookie, HOST)
        times.append((time.perf_counter() - t0) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--events", type=int, default=300)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    database, cookie = build(args.tables, args.events)
    old = older(database)
    t0 = time.perf_counter()
    for _ in range(100):
        carry.schema_mark()
    mark = (time.perf_counter() - t0) * 10
    print(f"copy: {2 * args.tables} tables ({args.tables} × {args.events} score-pad entries, "
          f"{args.tables} × 3 Mulle events), {len(database) / 1024:.0f} kB")
    print(f"schema mark, computed at every start: {mark:.2f} ms")
    rows = [("empty phone", timed(None, None, args.runs)),
            ("this build's copy (mark matches)", timed(database, cookie, args.runs)),
            ("an older build's copy (carried over)", timed(old, cookie, args.runs))]
    print(f"{'start of the phone app (CPython)':40} {'median':>9} {'max':>9}")
    for label, times in rows:
        print(f"{label:40} {statistics.median(times):7.0f} ms {max(times):7.0f} ms")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
