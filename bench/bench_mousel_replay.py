"""Replay a 50-deal Mousel session from its events and print how long it takes.

Target: ≤ 10 ms for the adjudicate-mode replay of a 4-player session (every card entered).
The session is a random legal playout (tests/engine/test_mousel_playouts.py), generated once;
only the fold of ``apply`` over the recorded events is timed. Prints figures; asserts nothing.

    .venv/bin/python bench/bench_mousel_replay.py
"""

from __future__ import annotations

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
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        state = replay(names, options, mode, events)
        times.append(time.perf_counter() - start)
    assert RULES.to_json(state) == RULES.to_json(final)
    start = time.perf_counter()
    RULES.to_json(state)
    json_ms = (time.perf_counter() - start) * 1000
    best, median = min(times) * 1000, statistics.median(times) * 1000
    per_event = median * 1000 / len(events)
    print(f"{label:<38} {len(final.sheet):>3} deals {len(events):>5} events  "
          f"median {median:6.2f} ms  best {best:6.2f} ms  {per_event:5.1f} µs/event  to_json {json_ms:5.2f} ms")


def main() -> None:
    print(f"Python {sys.version.split()[0]}")
    measure("adjudicate, 4 players", 4, {}, "adjudicate")
    measure("adjudicate, 5 players, all options", 5,
            {"reshuffle": True, "keep_trumpcard": True, "round_largest": True, "end_refund": True},
            "adjudicate")
    measure("adjudicate, 7 players, 52 cards", 7, {"52": True}, "adjudicate")
    measure("tally, 4 players", 4, {}, "tally")


if __name__ == "__main__":
    main()
