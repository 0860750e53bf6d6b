"""Replay Mulatschak games and audit finished deals for revokes; print the figures. Asserts nothing.

Targets (issue): replaying a whole game of 20 deals from its events ≤ 10 ms (4 players,
adjudicate mode, every card played); the retroactive revoke audit of one finished deal
(``tricks.audit_revokes`` with Mulatschak's duties: follow, trump, beat) p99 ≤ 1 ms.

The games come from the real-card simulator of ``tests/engine/test_mulatschak_playouts.py``
(``Table``: a shuffled pack, cut or knock, 3 + 2 dealt, weak hands declared, bidding, trumps,
staying home, every kind of exchange, five tricks; now and then a hand entered, a deliberate
revoke, proposals confirmed or dismissed), recorded event by event. A random playout usually
ends within a few deals, so a deal that would end the game before deal 20 is played again
from the same position with fresh cards (a bounded number of times); from deal 20 on the game
runs to its natural end. Every deal is still a legal deal from real cards; the seed fixes it all.

1. ``replay`` — fold ``Mulatschak.apply`` over the recorded events from ``Mulatschak.new``: wall
   time p50/p99 over the runs, the median CPU time (the process's own, which stays honest when
   the machine is busy), µs per event, the sum of each event's best of 5 (an idle-core
   estimate) and the mean per kind of event; 4 players, then 2 and 6.
2. ``audit`` — ``audit_revokes`` once on the 5 tricks of each finished deal (≥ 1000 deals),
   then as the engine does it: once after every play of the deal.
3. ``tally`` — the same games entered as tally mode's one ``deal_result`` per row.

    .venv/bin/python bench/bench_mulatschak.py             # about a minute
    .venv/bin/python bench/bench_mulatschak.py --quick     # small counts, a smoke run
    .venv/bin/python bench/bench_mulatschak.py --profile   # then cProfile of the 4-player replay
"""

from __future__ import annotations

import argparse
import copy
import cProfile
import gc
import os
import pstats
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.cards import Card, parse_card  # noqa: E402
from scorekeeper.engine.mulatschak import START, Mulatschak, MulState, Opts  # noqa: E402
from scorekeeper.engine.tricks import Obligations, audit_revokes  # noqa: E402
from tests.engine.test_mulatschak_playouts import Table, as_tally_event  # noqa: E402

RULES = Mulatschak()
MIN_DEALS = 20
MAX_DEALS = 150          # a game still going after this many deals is cut off (never seen)
RETRIES_PER_DEAL = 60    # fresh cards for a deal that would end the game too early
REPLAY_TARGET_MS = 10.0
AUDIT_TARGET_MS = 1.0

Events = list[dict[str, Any]]
Plays = tuple[tuple[tuple[int, Card], ...], ...]


class RecordingTable(Table):
    """The test's simulated table, keeping every event the engine accepted."""

    def __init__(self, rnd: random.Random, n: int) -> None:
        super().__init__(rnd, n, {}, [START] * n, dealer=0)   # the same state as ``new``
        self.events: Events = []

    def send(self, event: dict[str, Any]) -> None:
        super().send(event)          # raises on a refused event (a deliberate illegal card)
        self.events.append(dict(event))


def whole_game(n: int, seed: int, min_deals: int = MIN_DEALS) -> tuple[Events, list[Any], int]:
    """Events and sheet of a whole game of at least ``min_deals`` deals; also the deals dealt again."""
    master = random.Random(seed)
    table = RecordingTable(random.Random(master.getrandbits(64)), n)
    retried = 0
    while not table.js()["over"] and len(table.js()["sheet"]) < MAX_DEALS:
        rows = len(table.js()["sheet"])
        snapshot = copy.deepcopy(table) if rows + 1 < min_deals else None
        for attempt in range(RETRIES_PER_DEAL + 1):
            last = attempt == RETRIES_PER_DEAL
            try:
                table.play_deal()
            except AssertionError:       # 30 weak-hand collapses in a row: deal again
                if snapshot is None or last:
                    raise
            else:
                if snapshot is None or not table.js()["over"] or last:
                    break
            assert snapshot is not None
            retried += 1
            table = copy.deepcopy(snapshot)
            table.rnd = random.Random(master.getrandbits(64))
    return table.events, table.js()["sheet"], retried


def players(n: int) -> list[str]:
    return [f"P{i}" for i in range(n)]


def replay(n: int, events: Events, mode: str = "adjudicate") -> MulState:
    apply = RULES.apply
    state = RULES.new(players(n), {}, mode)  # type: ignore[arg-type]
    for event in events:
        state = apply(state, event)
    return state


def finished_deals(n: int, events: Events) -> list[tuple[Plays, str]]:
    """The five tricks (seat, card) and the trump suit of every deal played to the end."""
    out: list[tuple[Plays, str]] = []
    state = RULES.new(players(n), {})
    for event in events:
        deal = state.deal
        if event["type"] == "play" and deal is not None and deal.trump is not None:
            seat, card = int(event["player"]), parse_card(event["card"], "german")
            active = len(deal.active)
            if deal.tricks and len(deal.tricks[-1]) < active:
                tricks: Plays = deal.tricks[:-1] + (deal.tricks[-1] + ((seat, card),),)
            else:
                tricks = deal.tricks + (((seat, card),),)
            if len(tricks) == 5 and len(tricks[-1]) == active:
                out.append((tricks, deal.trump))
        state = RULES.apply(state, event)
    return out


# --- figures ---------------------------------------------------------------------------------


def pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def verdict(value: float, limit: float) -> str:
    return "PASS" if value <= limit else "MISS"


def loadavg() -> str:
    return "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"


def timed_runs(run: Callable[[], object], runs: int) -> tuple[list[float], list[float]]:
    """Wall and CPU time of each run, in ms (one warm-up run first)."""
    run()
    gc.collect()
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        run()
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return wall, cpu


def per_event(n: int, events: Events, mode: str, tries: int) -> tuple[float, dict[str, list[float]]]:
    """Sum of each event's best of ``tries`` (ms) and every event's best by type (µs)."""
    state = RULES.new(players(n), {}, mode)  # type: ignore[arg-type]
    total = 0.0
    by_type: dict[str, list[float]] = defaultdict(list)
    for event in events:
        best = float("inf")
        for _ in range(tries):
            start = time.perf_counter()
            after = RULES.apply(state, event)
            best = min(best, time.perf_counter() - start)
        total += best
        by_type[event["type"]].append(best * 1e6)
        state = after
    return total * 1000, by_type


def measure_replay(label: str, n: int, events: Events, deals: int, runs: int, mode: str = "adjudicate",
                   target: float | None = None) -> dict[str, float]:
    wall, cpu = timed_runs(lambda: replay(n, events, mode), runs)
    p50, p99 = pct(wall, 0.5), pct(wall, 0.99)
    cpu50 = statistics.median(cpu)
    idle, by_type = per_event(n, events, mode, tries=5)
    line = (f"  {label:<26} {deals:>3} deals {len(events):>5} events  p50 {p50:6.2f} ms  p99 {p99:6.2f} ms  "
            f"CPU p50 {cpu50:6.2f} ms  {p50 / deals:4.2f} ms/deal  {p50 * 1000 / len(events):5.1f} µs/event  "
            f"per-event best sum {idle:6.2f} ms")
    if target is not None:
        line += f"   target ≤ {target:g} ms: p50 {verdict(p50, target)}, p99 {verdict(p99, target)}"
    print(line)
    kinds = sorted(by_type.items(), key=lambda item: -sum(item[1]))
    print("      by event (count × mean best µs = share of the sum): " + ", ".join(
        f"{kind} {len(v)}×{statistics.fmean(v):.0f}={sum(v) / 1000 / idle:.0%}" for kind, v in kinds[:6]))
    return {"p50": p50, "p99": p99, "cpu": cpu50, "idle": idle}


def measure_audit(label: str, deals: list[tuple[Plays, str]], duties: Obligations) -> None:
    for plays, trump in deals[:50]:      # warm-up
        audit_revokes(plays, trump, duties)
    gc.collect()
    once: list[float] = []
    best: list[float] = []
    every: list[float] = []
    found = with_revoke = 0
    for plays, trump in deals:
        start = time.perf_counter()
        revokes = audit_revokes(plays, trump, duties)
        once.append((time.perf_counter() - start) * 1000)
        again = []
        for _ in range(3):
            start = time.perf_counter()
            audit_revokes(plays, trump, duties)
            again.append((time.perf_counter() - start) * 1000)
        best.append(min(again))
        found += len(revokes)
        with_revoke += bool(revokes)
        prefixes = [plays[:t - 1] + (plays[t - 1][:k],) for t in range(1, 6) for k in range(1, len(plays[t - 1]) + 1)]
        start = time.perf_counter()
        for prefix in prefixes:
            audit_revokes(prefix, trump, duties)
        every.append((time.perf_counter() - start) * 1000)
    p50, p99 = pct(once, 0.5), pct(once, 0.99)
    print(f"  {label:<26} {len(deals):>5} deals ({with_revoke} with a proven revoke, {found} revokes)  "
          f"p50 {p50 * 1000:5.0f} µs  p99 {p99 * 1000:5.0f} µs  max {max(once) * 1000:5.0f} µs   "
          f"target p99 ≤ {AUDIT_TARGET_MS:g} ms: {verdict(p99, AUDIT_TARGET_MS)}")
    print(f"  {'':<26} best of 3 more calls per deal: p50 {pct(best, 0.5) * 1000:5.0f} µs  "
          f"p99 {pct(best, 0.99) * 1000:5.0f} µs  max {max(best) * 1000:5.0f} µs")
    print(f"  {'':<26} every prefix of the deal (an audit after each play): p50 {pct(every, 0.5):.2f} ms  "
          f"p99 {pct(every, 0.99):.2f} ms per deal")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small counts, a smoke run")
    parser.add_argument("--profile", action="store_true", help="cProfile of the 4-player replay at the end")
    args = parser.parse_args()
    runs = 10 if args.quick else 60
    audit_deals = 150 if args.quick else 1000

    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs; load average before: {loadavg()}")
    started = time.perf_counter()
    games: dict[int, tuple[Events, list[Any]]] = {}
    for n in (4, 2, 6):
        events, sheet, retried = whole_game(n, seed=2026 + n)
        games[n] = (events, sheet)
        print(f"  generated a {n}-player game: {len(sheet)} deals, {len(events)} events "
              f"({retried} deal{'s' if retried != 1 else ''} dealt again so that the game lasts {MIN_DEALS})")
    pool: dict[int, list[tuple[Plays, str]]] = {}
    for n in (4, 6):
        pool[n] = finished_deals(n, games[n][0])
        seed = 100 * n
        while len(pool[n]) < audit_deals:
            seed += 1
            events, _, _ = whole_game(n, seed, min_deals=1)
            pool[n] += finished_deals(n, events)
    print(f"  generating took {time.perf_counter() - started:.1f} s")

    print(f"\n1. replay a whole game from its events ({runs} runs; target ≤ {REPLAY_TARGET_MS:g} ms for 4 players)")
    for n in (4, 2, 6):
        events, sheet = games[n]
        final = RULES.to_json(replay(n, events))
        measure_replay(f"{n} players", n, events, len(sheet), runs,
                       target=REPLAY_TARGET_MS if n == 4 else None)
        print(f"      the replay gives the simulated table's sheet: {'yes' if final['sheet'] == sheet else 'NO'}; "
              f"over {final['over']}, winner {final['winner']}, final scores {final['scores']}")

    duties = Opts().duties
    print("\n2. revoke audit of one finished deal (audit_revokes, follow + trump + beat duties; "
          f"target p99 ≤ {AUDIT_TARGET_MS:g} ms)")
    for n in (4, 6):
        measure_audit(f"{n} players", pool[n], duties)

    print(f"\n3. tally mode: the same games as one deal_result per row ({runs} runs)")
    for n in (4, 2, 6):
        _, sheet = games[n]
        tally_events = [as_tally_event(row, Opts()) for row in sheet]
        same = RULES.to_json(replay(n, tally_events, "tally"))["sheet"] == sheet
        measure_replay(f"{n} players (tally)", n, tally_events, len(sheet), runs, mode="tally")
        print(f"      same sheet as the adjudicated game: {'yes' if same else 'NO'}")

    print(f"\nload average after: {loadavg()}  (whole run {time.perf_counter() - started:.0f} s)")

    if args.profile:
        events, _ = games[4]
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(20):
            replay(4, events)
        profiler.disable()
        stats = pstats.Stats(profiler)
        stats.sort_stats("tottime").print_stats(15)
        stats.sort_stats("cumulative").print_stats(20)


if __name__ == "__main__":
    main()
