"""The capture check against a small optimised reference, on the same positions in one run.

Issue 16: ``find_grouping`` within 2× of the reference (``bench/capture_reference.py``) at p50
and p99, for every value scheme. Ratios, not absolute times, are the figures that count on a
shared machine, so both run here, on the same 2,000 fixed positions, in alternating blocks
(which one goes first alternates too) so that machine noise hits both.

A position: a table of 4–30 cards from one or two packs (as the deal has it), a played card and
a proposed capture from that table — built group by group to be legal in about half of the
positions, a random handful of the table's cards in the others. Per position each side's time
is the best of ``--repeat`` runs; p50/p90/p99 are over the positions. Printed per scheme:

* ``check``: ``find_grouping(played, taken, scheme)`` (the grouping it returns is worked out when
  read) against ``ReferenceCheck.check`` (legal or not);
* ``+ grouping``: the same, reading the grouping's groups of cards on a legal capture, against
  the reference dealing the taken cards into its groups;
* ``2–5 taken``: the small captures alone (the common case at a table);
* ``15–30 taken`` / ``15–30 refused``: ``--big`` more positions per scheme (issue 24), claims of
  15–30 table cards — a random handful, or a legal claim with a card or two added or one
  swapped — nearly all impossible: the tail the cheap necessary conditions must cut;
* agreement: positions where both say the same (must be all).

Ratios are of the percentiles (project p99 ÷ reference p99); "per position" is the p99 and the
largest of the ratio taken claim by claim, the stricter reading.

    .venv/bin/python bench/bench_capture_ratio.py            # about 2 minutes
    .venv/bin/python bench/bench_capture_ratio.py --quick    # 500 + 150 positions, 2 repeats
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from capture_reference import ReferenceCheck  # noqa: E402

from scorekeeper.cards import Card, french_pack  # noqa: E402
from scorekeeper.engine.capture import (  # noqa: E402
    KASINO_SCHEME,
    MULLE_SCHEME,
    ValueScheme,
    find_grouping,
    kasino_scheme,
    mulle_scheme,
)

SCHEMES = [MULLE_SCHEME, mulle_scheme(True), KASINO_SCHEME, kasino_scheme("fixed"), kasino_scheme("handtable")]
Position = tuple[Card, tuple[Card, ...]]


def legal_claim(rng: random.Random, played: Card, table: Sequence[Card], scheme: ValueScheme) -> list[Card]:
    """Groups of table cards that each make one value of ``played`` (or rank-match it)."""
    values = [v for v in scheme.played_values(played) if 0 < v <= scheme.max_value]
    v = rng.choice(values)
    left = list(table)
    rng.shuffle(left)
    claim: list[Card] = []
    wanted = rng.randint(1, 6)
    for _ in range(40):
        if len(claim) >= wanted * 2 or not left:
            break
        group: list[Card] = []
        total = 0
        for card in list(left):
            if scheme.rank_match and card.rank == played.rank and not group and rng.random() < 0.5:
                group, total = [card], v
                break
            options = [x for x in scheme.table_values(card) if total + x <= v]
            if options:
                group.append(card)
                total += rng.choice(options)
                if total == v:
                    break
        if total == v and group:
            claim += group
            for card in group:
                left.remove(card)
        rng.shuffle(left)
    return claim


def positions(seed: int, count: int, scheme: ValueScheme) -> list[Position]:
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        pack = list(french_pack(rng.choice((1, 2))).elements())
        rng.shuffle(pack)
        size = rng.randint(4, 30)
        table, played = pack[:size], pack[size]
        if rng.random() < 0.5:
            taken = legal_claim(rng, played, table, scheme)
        else:
            taken = rng.sample(table, rng.randint(2, min(size, rng.choice((5, 8, 12, 30)))))
        if len(taken) >= 2:
            out.append((played, tuple(taken)))
    return out


def big_positions(seed: int, count: int, scheme: ValueScheme) -> list[Position]:
    """Claims of 15–30 table cards, nearly all impossible (issue 24): a random handful of the
    table, or a legal claim with a card or two added or one swapped (its totals often still
    divide, so only the search can refuse it)."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        pack = list(french_pack(rng.choice((1, 2))).elements())
        rng.shuffle(pack)
        size = rng.randint(15, 30)
        table, played = pack[:size], pack[size]
        roll = rng.random()
        if roll < 0.4:
            taken = rng.sample(table, rng.randint(15, size))
        else:
            taken = legal_claim(rng, played, table, scheme)
            left = list(table)
            for card in taken:
                left.remove(card)
            if not left:
                continue
            if roll < 0.7:
                taken += rng.sample(left, min(len(left), rng.randint(1, 2)))
            else:
                taken = taken[:-1] + [rng.choice(left)]
        if 15 <= len(taken) <= 30:
            out.append((played, tuple(taken)))
    return out


def best_times(call: Callable[[Card, tuple[Card, ...]], object], cases: Sequence[Position]) -> list[int]:
    out = []
    clock = time.perf_counter_ns
    for played, taken in cases:
        start = clock()
        call(played, taken)
        out.append(clock() - start)
    return out


def pick(ordered: Sequence[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(scheme: ValueScheme, count: int, big: int, repeat: int, block: int) -> list[tuple[str, float, float]]:
    cases = positions(16, count, scheme) + big_positions(24, big, scheme)
    ref = ReferenceCheck(scheme)

    def ours(played: Card, taken: tuple[Card, ...]) -> object:
        return find_grouping(played, taken, scheme)

    def ours_shown(played: Card, taken: tuple[Card, ...]) -> object:
        found = find_grouping(played, taken, scheme)
        if found is not None:
            return found.groups
        return found

    def theirs(played: Card, taken: tuple[Card, ...]) -> object:
        return ref.check(played, taken)

    def theirs_shown(played: Card, taken: tuple[Card, ...]) -> object:
        return ref.check(played, taken, grouping=True)

    verdicts = [(ours(p, t) is not None, theirs(p, t) is not None) for p, t in cases]  # and warm both
    agree = sum(a == b for a, b in verdicts)
    legal = sum(b for _, b in verdicts)
    pairs = {"check": (ours, theirs), "+ grouping": (ours_shown, theirs_shown)}
    best: dict[tuple[str, int], list[int]] = {}
    gc.collect()
    gc.disable()
    try:
        for r in range(repeat):
            for start in range(0, len(cases), block):
                chunk = cases[start:start + block]
                for label, (a, b) in pairs.items():
                    order = ((0, a), (1, b)) if (start // block + r) % 2 == 0 else ((1, b), (0, a))
                    for side, call in order:
                        times = best_times(call, chunk)
                        got = best.setdefault((label, side), [0] * len(cases))
                        for i, t in enumerate(times):
                            j = start + i
                            got[j] = t if r == 0 else min(got[j], t)
    finally:
        gc.enable()
    small = [i for i, (_, t) in enumerate(cases) if len(t) <= 5]
    large = [i for i, (_, t) in enumerate(cases) if len(t) >= 15]
    refused = [i for i in large if not verdicts[i][1]]
    rows: list[tuple[str, float, float]] = []
    print(f"{scheme.name}: {len(cases)} positions, {legal} legal, agreement {agree}/{len(cases)}"
          f"{'' if agree == len(cases) else '  <-- DISAGREEMENT'}")
    for label in pairs:
        subsets = ((label, range(len(cases))), (f"{label}, 2–5 taken", small),
                   (f"{label}, 15–30 taken", large), (f"{label}, 15–30 refused", refused))
        for subset_label, subset in subsets:
            if not subset:
                continue
            a = sorted(best[(label, 0)][i] / 1000 for i in subset)
            b = sorted(best[(label, 1)][i] / 1000 for i in subset)
            r50, r99 = pick(a, 0.5) / pick(b, 0.5), pick(a, 0.99) / pick(b, 0.99)
            # and position by position: the claims where the project lags the reference most
            each = sorted(best[(label, 0)][i] / max(1, best[(label, 1)][i]) for i in subset)
            verdict = "PASS" if r50 <= 2 and r99 <= 2 else "MISS"
            print(f"  {subset_label:<28} n={len(a):>5}  project p50 {pick(a, .5):7.1f} p90 {pick(a, .9):7.1f} "
                  f"p99 {pick(a, .99):8.1f} µs | reference p50 {pick(b, .5):6.1f} p90 {pick(b, .9):7.1f} "
                  f"p99 {pick(b, .99):8.1f} µs | ratio p50 {r50:4.2f} p99 {r99:4.2f} {verdict}"
                  f" | per position p99 {pick(each, .99):4.2f} max {each[-1]:5.2f}")
            rows.append((f"{scheme.name} {subset_label}", r50, r99))
    return rows


def load() -> str:
    return f"{os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else "n/a"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="500 positions, 2 repeats")
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--big", type=int, default=500, help="claims of 15–30 cards added per scheme")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--scheme", action="append", help="only these scheme names")
    args = parser.parse_args()
    count, big, repeat = (500, 150, 2) if args.quick else (args.count, args.big, args.repeat)
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {load()}; "
          f"best of {repeat} per position, blocks of 50 alternating")
    rows = []
    for scheme in SCHEMES:
        if args.scheme and scheme.name not in args.scheme:
            continue
        rows += run(scheme, count, big, repeat, 50)
    worst50 = max(rows, key=lambda r: r[1])
    worst99 = max(rows, key=lambda r: r[2])
    print(f"worst ratio p50 {worst50[1]:.2f} ({worst50[0]}), p99 {worst99[2]:.2f} ({worst99[0]}); target ≤ 2")
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
