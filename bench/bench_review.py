"""Time the post-deal review (``scorekeeper.engine.analysis.review``) and print the figures. Asserts nothing.

Targets (issue 15): the review of one whole 104-card Mulle deal ≤ 100 ms; the review of a
20-deal Mulatschak session is measured too: one deal of it (the API's call, which replays the
whole log) and every deal of it in one pass (``review_deals``). The games are the random legal playouts of the engine tests (Mulle:
``tests/engine/test_mulle_playout.py``; Mulatschak: the real-card simulator behind
``bench/bench_mulatschak.py``), generated once; only ``review`` is timed. It replays the table's
log, then lists captures at every play (the capture solver's cached listing, maximal captures
only) and audits every deal's tricks.

    .venv/bin/python bench/bench_review.py            # about a minute
    .venv/bin/python bench/bench_review.py --quick    # small counts, a smoke run
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_mulatschak import whole_game  # noqa: E402
from scorekeeper.engine.analysis.review import review, review_deals  # noqa: E402
from tests.engine.test_mulle_playout import random_game  # noqa: E402

MULLE_TARGET_MS = 100.0


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def mulle_deals(count: int) -> list[tuple[int, list[tuple[int, dict[str, Any]]]]]:
    """``count`` whole first deals (104 cards each) of random 2-, 3- and 4-player games."""
    deals = []
    seed = 0
    while len(deals) < count:
        seed += 1
        n = 2 + seed % 3
        game = random_game(n, {}, seed, max_deals=1)
        events = game.events
        plays = sum(1 for e in events if e["type"] == "play")
        if plays == 104 - game.states[0].table_size:
            deals.append((n, list(enumerate(events, start=1))))
    return deals


def timed(run: Any, repeats: int) -> list[float]:
    """Wall times in ms; the garbage collector runs between the runs, not inside them (a
    collection of the solver's caches would land on whichever run it interrupts)."""
    run()  # warm-up: a running server has its caches warm
    out = []
    for _ in range(repeats):
        gc.collect()
        gc.disable()
        try:
            start, start_cpu = time.perf_counter(), time.process_time()
            run()
            out.append((time.perf_counter() - start) * 1000)
            CPU.append((time.process_time() - start_cpu) * 1000)
        finally:
            gc.enable()
    return out


CPU: list[float] = []  # the process's own CPU time of each timed run (honest on a busy machine)


def cpu_since(mark: int) -> str:
    return f"CPU median {statistics.median(CPU[mark:]):.1f} ms"


def replay_session(players: list[str], pairs: list[tuple[int, dict[str, Any]]]) -> None:
    from scorekeeper.engine import RULES

    rules = RULES["mulatschak"]
    state = rules.new(players, {}, "adjudicate")
    for _, event in pairs:
        state = rules.apply(state, event)


def every_deal(players: list[str], pairs: list[tuple[int, dict[str, Any]]], deals: tuple[int, ...]) -> None:
    for deal in deals:
        review("mulatschak", players, {}, "adjudicate", pairs, deal)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    count, repeats = (4, 3) if args.quick else (20, 10)
    times: list[float] = []
    lines = 0
    mark = len(CPU)
    for n, events in mulle_deals(count):
        players = [f"P{i}" for i in range(n)]
        result = review("mulle", players, {}, "adjudicate", events, 1)
        lines += len(result.lines)
        times += timed(partial(review, "mulle", players, {}, "adjudicate", events, 1), repeats)
    p50, p99 = statistics.median(times), pct(times, 0.99)
    verdict = "PASS" if p99 <= MULLE_TARGET_MS else "MISS"
    print(f"Mulle, one whole 104-card deal ({count} deals, 2-4 players, {lines} lines found): "
          f"p50 {p50:.1f} ms, p99 {p99:.1f} ms (target <= {MULLE_TARGET_MS:.0f} ms: {verdict}); {cpu_since(mark)}")
    sessions = 2 if args.quick else 5
    m_times: list[float] = []
    r_times: list[float] = []
    s_times: list[float] = []
    m_cpu: list[float] = []
    s_cpu: list[float] = []
    m_lines = 0
    for seed in range(1, sessions + 1):
        events, sheet, _ = whole_game(4, seed)
        pairs = list(enumerate(events, start=1))
        players = [f"P{i}" for i in range(4)]
        deals = review("mulatschak", players, {}, "adjudicate", pairs).deals

        one = partial(review, "mulatschak", players, {}, "adjudicate", pairs, deals[-1])
        replay_only = partial(replay_session, players, pairs)
        whole = partial(every_deal, players, pairs, deals)
        m_lines += sum(len(review("mulatschak", players, {}, "adjudicate", pairs, d).lines) for d in deals)
        mark = len(CPU)
        m_times += timed(one, repeats)
        m_cpu += CPU[mark:]
        r_times += timed(replay_only, repeats)
        mark = len(CPU)
        s_times += timed(partial(review_deals, "mulatschak", players, {}, "adjudicate", pairs), repeats)
        s_cpu += CPU[mark:]
        if seed == 1:
            every = timed(whole, max(1, repeats // 5))
            print(f"Mulatschak session of {len(deals)} deals, every deal reviewed by its own call: "
                  f"median {statistics.median(every):.0f} ms")
    print(f"Mulatschak, review of one deal of a 20+ deal session ({sessions} sessions, 4 players, "
          f"{m_lines} revoke lines in all): p50 {statistics.median(m_times):.1f} ms, p99 {pct(m_times, 0.99):.1f} ms; "
          f"CPU median {statistics.median(m_cpu):.1f} ms; replaying the session's log alone: p50 "
          f"{statistics.median(r_times):.1f} ms")
    print(f"Mulatschak, review of a whole 20+ deal session, every deal in one pass (review_deals, {sessions} "
          f"sessions): p50 {statistics.median(s_times):.1f} ms, p99 {pct(s_times, 0.99):.1f} ms; "
          f"CPU median {statistics.median(s_cpu):.1f} ms")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
