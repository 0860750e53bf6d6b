"""How fast the shared capture solver answers. Prints figures; asserts nothing.

Targets (issue): checking a claimed capture p99 ≤ 1 ms on 30-card tables rich in dual-valued
cards; listing every legal capture ≤ 20 ms on a 20-card table.

* ``check`` — ``find_grouping`` on claims drawn from 30-card two-pack tables where half the
  cards are Aces, 2♠ or 10♦: random sub-multisets (mostly illegal, the slow exhaustive case) and
  big legal claims built group by group (up to a 30-card sweep).
* ``list`` — ``legal_captures`` on random 20-card tables, plain and dual-rich. The time grows
  with the number of captures found (tens of thousands on some tables), so the count is printed
  beside the time.

    .venv/bin/python bench/bench_capture.py
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

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

PACK: list[Card] = sorted(french_pack(2).elements())
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


def bench_list(rng: random.Random, scheme: ValueScheme, rounds: int = 200) -> None:
    print(f"list every legal capture ({scheme.name}), 20-card tables:")
    for label, rich in (("random 20 cards", False), ("dual-rich 20 cards (10 duals)", True)):
        times, counts = [], []
        for _ in range(rounds):
            table = rich_table(rng, 20) if rich else rng.sample(PACK, 20)
            played = rng.choice(PACK)
            start = time.perf_counter()
            captures = legal_captures(played, table, scheme)
            times.append(time.perf_counter() - start)
            counts.append(len(captures))
        per_capture = sum(times) / max(1, sum(counts)) * 1e6
        within = sum(1 for t in times if t <= 0.020) / len(times) * 100
        percentiles(label, times, f"captures p50 {statistics.median(counts):.0f} max {max(counts)}; "
                    f"{per_capture:.1f} µs/capture; {within:.0f}% ≤ 20 ms")
    table = rng.sample(PACK, 20)
    played = rng.choice(PACK)
    start = time.perf_counter()
    n = count_captures(played, table, scheme)
    print(f"  count_captures on one random table: {n} captures in {(time.perf_counter() - start) * 1000:.2f} ms")


def main() -> None:
    rng = random.Random(2024)
    bench_check(rng, MULLE_SCHEME)
    bench_check(rng, KASINO_SCHEME, rounds=1000)
    bench_list(rng, MULLE_SCHEME)


if __name__ == "__main__":
    main()
