"""How fast the shared capture solver answers. Prints figures; asserts nothing.

Targets (issue): checking a claimed capture p99 ≤ 1 ms on 30-card tables rich in dual-valued
cards; listing every legal capture ≤ 20 ms on a 20-card table.

* ``check`` — ``find_grouping`` on claims drawn from 30-card two-pack tables where half the
  cards are Aces, 2♠ or 10♦: random sub-multisets (mostly illegal, the slow exhaustive case) and
  big legal claims built group by group (up to a 30-card sweep).
* ``list`` — ``legal_captures`` on random 20-card tables, plain and dual-rich (10 duals): every
  capture, then the first 60 (``limit=60``, what a screen shows), then ``count_captures``. The
  time of a full listing grows with the number of captures found (tens of thousands on some
  tables), so the distribution of that number is printed too.
* ``crowded`` — the screens' calls on dual-rich 16-, 20- and 30-card tables: the first 60
  captures, ``count_captures(at_most=10_000)``, and Mulle's ``hints(state)`` (trail and up to
  60 captures for each of the 52 cards) and ``hints_for(state, card, limit=40)``.

Every figure is wall time and includes the garbage collector's passes, which a listing of tens
of thousands of results triggers; the load average is printed before and after.

    .venv/bin/python bench/bench_capture.py
"""

from __future__ import annotations

import dataclasses
import gc
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.cards import Card, french_pack  # noqa: E402
from scorekeeper.engine.capture import (  # noqa: E402
    KASINO_SCHEME,
    MULLE_SCHEME,
    ValueScheme,
    count_captures,
    find_grouping,
    legal_captures,
)
from scorekeeper.engine.mulle import Mulle, MulleState  # noqa: E402

PACK: list[Card] = sorted(french_pack(2).elements())
ONE_PACK: list[Card] = sorted(french_pack(1).elements())
DUALS = [c for c in PACK if c.rank == "A" or str(c) in {"2S", "10D"}]
PLAIN = [c for c in PACK if c not in DUALS]


def rich_table(rng: random.Random, size: int) -> list[Card]:
    duals = rng.sample(DUALS, min(len(DUALS), size // 2))
    return duals + rng.sample(PLAIN, size - len(duals))


def legal_claim(rng: random.Random, played: Card, scheme: ValueScheme, size: int) -> list[Card]:
    """Groups that each make one value of ``played``, drawn from the two packs until ``size`` cards."""
    v = rng.choice(scheme.played_values(played))
    left = Counter2(PACK)
    claim: list[Card] = []
    for _ in range(2000):
        if len(claim) >= size:
            break
        group: list[Card] = []
        total = 0
        while total < v:
            card = rng.choice(DUALS if rng.random() < 0.4 else PLAIN)
            values = [x for x in scheme.table_values(card) if total + x <= v]
            if not values or not left.take(card):
                break
            group.append(card)
            total += rng.choice(values)
        if total == v and len(claim) + len(group) <= size:
            claim.extend(group)
        else:
            left.give_back(group)
    return claim


class Counter2:
    """Copies still available (two packs)."""

    def __init__(self, cards: Sequence[Card]) -> None:
        self.left: dict[Card, int] = {}
        for card in cards:
            self.left[card] = self.left.get(card, 0) + 1

    def take(self, card: Card) -> bool:
        if self.left.get(card, 0) <= 0:
            return False
        self.left[card] -= 1
        return True

    def give_back(self, cards: Sequence[Card]) -> None:
        for card in cards:
            self.left[card] += 1


def timed_check(played: Card, taken: Sequence[Card], scheme: ValueScheme) -> tuple[float, bool]:
    start = time.perf_counter()
    found = find_grouping(played, taken, scheme)
    return time.perf_counter() - start, found is not None


def percentiles(label: str, times: list[float], extra: str = "") -> None:
    ordered = sorted(times)

    def pick(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    print(f"  {label:<44} n={len(ordered):>5}  p50 {pick(0.5):7.3f} ms  p90 {pick(0.9):7.3f} ms  "
          f"p99 {pick(0.99):8.3f} ms  max {ordered[-1] * 1000:8.3f} ms {extra}")


def bench_check(rng: random.Random, scheme: ValueScheme, rounds: int = 3000) -> None:
    print(f"check a claimed capture ({scheme.name}), 30-card dual-rich tables:")
    random_times: list[float] = []
    legal_times: list[float] = []
    accepted = 0
    for _ in range(rounds):
        table = rich_table(rng, 30)
        played = rng.choice(PACK)
        taken = rng.sample(table, rng.randint(1, 30))
        random_times.append(timed_check(played, taken, scheme)[0])
        claim = legal_claim(rng, played, scheme, rng.randint(2, 30))
        elapsed, ok = timed_check(played, claim, scheme)
        accepted += ok
        legal_times.append(elapsed)
    all_times = random_times + legal_times
    percentiles("random sub-multisets (mostly illegal)", random_times)
    percentiles("legal claims of 2..30 cards", legal_times, f"(accepted {accepted}/{rounds})")
    percentiles("all claims", all_times)


def timed(call: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    result = call(*args, **kwargs)
    return time.perf_counter() - start, result


def distribution(counts: list[int]) -> str:
    ordered = sorted(counts)

    def pick(q: float) -> int:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    over = ", ".join(f"> {n:,}: {sum(1 for c in counts if c > n) / len(counts) * 100:.0f}%"
                     for n in (1_000, 10_000, 50_000))
    return (f"p10 {pick(0.1):,}  p50 {pick(0.5):,}  p90 {pick(0.9):,}  p99 {pick(0.99):,}  "
            f"max {ordered[-1]:,};  tables with {over}")


# Each kind of call gets its own pass over the tables: the solver keeps its last 32 listings,
# and more tables than that keep every figure a first call on its table.

def bench_list(rng: random.Random, scheme: ValueScheme, rounds: int = 200) -> None:
    print(f"list every legal capture ({scheme.name}), 20-card tables (targets: p90 ≤ 20 ms, p99 ≤ 100 ms):")
    for label, make in (("one or two packs, 20 cards", lambda: plain_table(rng, 20)),
                        ("dual-rich 20 cards (10 duals)", lambda: rich_table(rng, 20))):
        cases = [(rng.choice(PACK), make()) for _ in range(rounds)]
        times, swept, counts, read = [], [], [], []
        for played, table in cases:
            elapsed, captures = timed(legal_captures, played, table, scheme)
            times.append(elapsed)
            counts.append(len(captures))
            # A collector's pass over what the listing made is paid by the caller: counted.
            start = time.perf_counter()
            gc.collect(0)
            swept.append(elapsed + time.perf_counter() - start)
            # The listing spells a pair when it is read: a caller reading every one pays this.
            start = time.perf_counter()
            for _ in captures:
                pass
            read.append(swept[-1] + time.perf_counter() - start)
            del captures
        firsts = [timed(legal_captures, played, table, scheme, limit=60)[0] for played, table in cases]
        count_times = [timed(count_captures, played, table, scheme)[0] for played, table in cases]
        per_capture = sum(swept) / max(1, sum(counts)) * 1e6
        within = sum(1 for t in swept if t <= 0.020) / len(times) * 100
        print(f"  {label}:")
        percentiles("  every capture", times)
        percentiles("  … and the collector's pass after it", swept,
                    f"{per_capture:.2f} µs/capture; {within:.0f}% ≤ 20 ms")
        percentiles("  … and every pair read once", read,
                    f"{sum(read) / max(1, sum(counts)) * 1e6:.2f} µs/capture")
        percentiles("  the first 60 (limit=60)", firsts)
        percentiles("  count_captures", count_times)
        print(f"    captures per table: {distribution(counts)}")


def plain_table(rng: random.Random, size: int) -> list[Card]:
    """``size`` cards dealt from one or two shuffled packs."""
    return rng.sample(PACK if rng.random() < 0.5 else ONE_PACK, size)


def mulle_state(table: Sequence[Card]) -> MulleState:
    """A 2-player Mulle deal in play with ``table`` on the table (and seen)."""
    rules = Mulle()
    state = rules.apply(rules.new(["A", "B"], {}),
                        {"type": "deal", "dealer": 1, "table": ["5D", "9C", "KH", "AC"]})
    return dataclasses.replace(state, table=tuple(table), seen=dict(Counter(table)))


def bench_crowded(rng: random.Random, rounds: int = 60) -> None:
    print("the screens' calls on crowded dual-rich tables (mulle):")
    rules = Mulle()
    for size, rich in ((16, True), (20, True), (30, True), (30, False)):
        cases = [(rng.choice(PACK), rich_table(rng, size) if rich else plain_table(rng, size))
                 for _ in range(rounds)]
        states = [mulle_state(table) for _, table in cases]
        cards = [rng.choice([c for c in PACK if state.unseen(c) > 0]) for state in states]
        print(f"  {size} cards{', dual-rich' if rich else ', one or two packs'}:")
        percentiles("  legal_captures(limit=60)",
                    [timed(legal_captures, p, t, MULLE_SCHEME, limit=60)[0] for p, t in cases])
        percentiles("  count_captures(at_most=10_000)",
                    [timed(count_captures, p, t, MULLE_SCHEME, at_most=10_000)[0] for p, t in cases])
        percentiles("  Mulle.hints(state): 52 cards (target p50 ≤ 5 ms)",
                    [timed(rules.hints, state)[0] for state in states])
        percentiles("  Mulle.hints_for(state, card, limit=40)",
                    [timed(rules.hints_for, state, card, limit=40)[0] for state, card in zip(states, cards, strict=True)])
        percentiles("  Mulle.hint_count(state, card, at_most=10k)",
                    [timed(rules.hint_count, state, card, at_most=10_000)[0]
                     for state, card in zip(states, cards, strict=True)])


def load() -> str:
    return f"{os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else "n/a"


def main() -> None:
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {load()}")
    only = set(sys.argv[1:]) or {"check", "list", "crowded"}  # e.g. `bench_capture.py list crowded`
    rng = random.Random(2024)
    if "check" in only:
        bench_check(rng, MULLE_SCHEME)
        bench_check(rng, KASINO_SCHEME, rounds=1000)
    if "list" in only:
        bench_list(random.Random(2025), MULLE_SCHEME)
    if "crowded" in only:
        bench_crowded(random.Random(2026))
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
