"""Replay a 50-deal Mousel session from its events and print how long it takes.

Target: ≤ 10 ms for the adjudicate-mode replay of a 4-player session (every card entered).
The session is a random legal playout (tests/engine/test_mousel_playouts.py), generated once;
only the fold of ``apply`` over the recorded events is timed. Prints figures; asserts nothing.

    .venv/bin/python bench/bench_mousel_replay.py
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.engine.mousel import Mousel  # noqa: E402
from tests.engine.test_mousel_playouts import simulate_session  # noqa: E402

RULES = Mousel()


def replay(players: list[str], options: dict[str, Any], mode: str, events: list[dict[str, Any]]) -> Any:
    state = RULES.new(players, options, mode)  # type: ignore[arg-type]
    for event in events:
        state = RULES.apply(state, event)
    return state


def measure(label: str, players: int, options: dict[str, Any], mode: str, repeats: int = 30) -> None:
    final, events = simulate_session(players, 50, options, seed=2024, mode=mode)
    names = list(final.players)
    replay(names, options, mode, events)  # warm the card cache as a running server would be
    times, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        state = replay(names, options, mode, events)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    assert RULES.to_json(state) == RULES.to_json(final)
    start = time.perf_counter()
    RULES.to_json(state)
    json_ms = (time.perf_counter() - start) * 1000
    best, median = min(times) * 1000, statistics.median(times) * 1000
    per_event = median * 1000 / len(events)
    cpu_median = statistics.median(cpu) * 1000
    print(f"{label:<36} {len(final.sheet):>3} deals {len(events):>5} events  wall median {median:6.2f} ms  "
          f"best {best:6.2f} ms  cpu median {cpu_median:6.2f} ms  {per_event:5.1f} µs/event  "
          f"to_json {json_ms:5.2f} ms")


def quiet_estimate(players: int, options: dict[str, Any], mode: str, tries: int = 9) -> float:
    """Σ over events of the fastest of ``tries`` applications: what an idle core would take.

    On a busy machine the wall time of a whole replay mostly measures the neighbours; the best
    time of each single step is far less disturbed.
    """
    final, events = simulate_session(players, 50, options, seed=2024, mode=mode)
    state = RULES.new(list(final.players), options, mode)  # type: ignore[arg-type]
    total = 0
    for event in events:
        best = None
        for _ in range(tries):
            start = time.perf_counter_ns()
            after = RULES.apply(state, event)
            took = time.perf_counter_ns() - start
            best = took if best is None else min(best, took)
        total += best or 0
        state = after
    return total / 1e6


def calibrate() -> float:
    """A fixed pure-Python loop, so figures from a busy machine can be read in proportion."""
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        total = 0
        for i in range(200_000):
            total += i & 7
        best = min(best, time.perf_counter() - start)
    return best * 1000


def main() -> None:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {load:.2f}, "
          f"reference loop {calibrate():.2f} ms")
    measure("adjudicate, 4 players", 4, {}, "adjudicate")
    measure("adjudicate, 5 players, all options", 5,
            {"reshuffle": True, "keep_trumpcard": True, "round_largest": True, "end_refund": True},
            "adjudicate")
    measure("adjudicate, 7 players, 52 cards", 7, {"52": True}, "adjudicate")
    measure("tally, 4 players", 4, {}, "tally")
    print(f"sum of per-event best times (idle-core estimate): adjudicate 4 players "
          f"{quiet_estimate(4, {}, 'adjudicate'):.2f} ms, 7 players/52 cards "
          f"{quiet_estimate(7, {'52': True}, 'adjudicate'):.2f} ms")


if __name__ == "__main__":
    main()
