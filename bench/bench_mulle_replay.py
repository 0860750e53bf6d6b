"""Replay Mulle tables from their events and print how long it takes. Prints figures; asserts nothing.

Target (issue): replaying one whole 104-card deal ≤ 5 ms. The deals are random legal playouts
(tests/engine/test_mulle_playout.py), generated once; only the fold of ``apply`` over the
recorded events is timed, for one deal and for a whole game to 61, per player count. Wall time
is the best of the repeats; CPU time (the process's own) is the median, which stays honest when
the machine is busy with other work.

    .venv/bin/python bench/bench_mulle_replay.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.engine.mulle import Mulle, MulleState  # noqa: E402
from tests.engine.test_mulle_playout import random_game  # noqa: E402

RULES = Mulle()


def replay(players: int, options: dict[str, Any], events: list[dict[str, Any]]) -> MulleState:
    state = RULES.new([f"P{i}" for i in range(players)], options)
    for event in events:
        state = RULES.apply(state, event)
    return state


def first_deal(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    deals = [i for i, e in enumerate(events) if e["type"] == "deal"]
    end = deals[1] if len(deals) > 1 else len(events)
    return events[:end]


def measure(label: str, players: int, options: dict[str, Any], events: list[dict[str, Any]],
            repeats: int = 40) -> None:
    final = replay(players, options, events)  # warm-up (card cache) as a running server would be
    wall, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        state = replay(players, options, events)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    assert RULES.to_json(state) == RULES.to_json(final)
    start = time.perf_counter()
    RULES.to_json(state)
    json_ms = (time.perf_counter() - start) * 1000
    best = min(wall) * 1000
    cpu_median = statistics.median(cpu) * 1000
    print(f"  {label:<34} {len(events):>4} events  best {best:6.2f} ms  median CPU {cpu_median:6.2f} ms  "
          f"({best * 1000 / len(events):5.1f} µs/event; to_json {json_ms:.2f} ms)")


def main() -> None:
    setups: list[tuple[str, int, dict[str, Any]]] = [
        ("2 players", 2, {}),
        ("3 players", 3, {}),
        ("4 players", 4, {}),
        ("2×2 partnerships", 4, {"teams": [[0, 2], [1, 3]]}),
        ("2 players, all options", 2, {"strict_value": True, "no_last_sweep": True, "mulle_alone": True}),
    ]
    print("one whole 104-card deal (target ≤ 5 ms):")
    games = {}
    for label, n, options in setups:
        seed = 11
        game = random_game(n, options, seed)
        while len(first_deal(game.events)) < 1 + 104 - RULES.new(["x"] * n, options).table_size:
            seed += 1  # a game that ended inside the first deal: take one that finished it
            game = random_game(n, options, seed)
        games[label] = (n, options, game.events)
        measure(label, n, options, first_deal(game.events))
    print("a whole game to 61:")
    for label, (n, options, events) in games.items():
        measure(label, n, options, events, repeats=10)


if __name__ == "__main__":
    main()
