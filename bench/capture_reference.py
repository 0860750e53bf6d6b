"""A small, optimised pure-Python capture check: the yardstick of ``bench_capture_ratio.py``.

Written here, apart from the engine, from the algorithm alone (issue 16): count the taken cards
by value, precompute per target value the multisets of values that sum to it, then a depth-first
search that always covers the largest remaining value first and memoises the states that failed.

Cards with two values (Aces, 2♠, 10♦) count as one "value" each: their pair of values. With
rank-match on (Mulle), a card of the played card's rank is a value of its own that may also be
taken alone. Before the search, cheap necessary conditions (issue 24): every card must fit some group of the
value, and some total of the taken cards must be a multiple of it. Deliberately nothing else: no
pruning inside the search, no kinds per call, no display grouping beyond the plain groups of
cards when asked.
"""

from __future__ import annotations

from collections.abc import Sequence

from scorekeeper.cards import FRENCH_RANKS, FRENCH_SUITS, Card
from scorekeeper.engine.capture import ValueScheme

_CAP = 16  # a group never holds more than 16 cards (each counts at least 1, a sum is at most 16)


class ReferenceCheck:
    """May ``played`` take exactly ``taken``? One instance per value scheme; tables built lazily."""

    def __init__(self, scheme: ValueScheme) -> None:
        self.scheme = scheme
        cards = [Card(r, s) for r in FRENCH_RANKS for s in FRENCH_SUITS]
        plain = sorted({scheme.table_values(c) for c in cards}, key=lambda vs: (max(vs), min(vs)))
        self.plain = plain
        self.played: dict[Card, tuple[int, ...]] = {
            c: tuple(v for v in scheme.played_values(c) if 0 < v <= scheme.max_value) for c in cards}
        self.index: dict[tuple[str, str | None], dict[Card, int]] = {}
        self.tables: dict[tuple[str | None, int], list[list[tuple[tuple[int, int], ...]]]] = {}
        self.values_of: dict[str | None, list[tuple[tuple[int, ...], bool]]] = {}
        self.sums: dict[tuple[str | None, int, int], int] = {}  # totals `count` cards of a kind can make
        self.multiples: dict[int, int] = {}

    def _kinds(self, rank: str | None) -> list[tuple[tuple[int, ...], bool]]:
        """The values in search order: largest last (it is covered first). A rank-matched value
        sits just above its plain twin."""
        found = self.values_of.get(rank)
        if found is None:
            kinds = [(vs, False) for vs in self.plain]
            if rank is not None:
                ranked = {self.scheme.table_values(Card(rank, s)) for s in FRENCH_SUITS}
                kinds += [(vs, True) for vs in ranked]
            kinds.sort(key=lambda k: (max(k[0]), min(k[0]), k[1]))
            found = self.values_of[rank] = kinds
        return found

    def _card_index(self, rank: str | None) -> dict[Card, int]:
        found = self.index.get(("", rank))
        if found is None:
            kinds = self._kinds(rank)
            found = {}
            for r in FRENCH_RANKS:
                for s in FRENCH_SUITS:
                    card = Card(r, s)
                    found[card] = kinds.index((self.scheme.table_values(card), r == rank))
            self.index[("", rank)] = found
        return found

    def _groups(self, rank: str | None, v: int) -> list[list[tuple[tuple[int, int], ...]]]:
        """groups[k] = every multiset of values summing to v whose largest value is k, as
        ((value index, count), ...), smallest first; a rank-matched value alone as well."""
        key = (rank, v)
        found = self.tables.get(key)
        if found is not None:
            return found
        kinds = self._kinds(rank)
        found = [[] for _ in kinds]

        def grow(top: int, k: int, sums: frozenset[int], chosen: list[tuple[int, int]]) -> None:
            if v in sums and chosen:
                found[top].append(tuple(chosen))
            for j in range(k - 1, -1, -1):
                s = sums
                for n in range(1, _CAP + 1):
                    s = frozenset(a + x for a in s for x in kinds[j][0] if a + x <= v)
                    if not s:
                        break
                    chosen.append((j, n))
                    grow(top, j, s, chosen)
                    chosen.pop()

        for top, (values, ranked) in enumerate(kinds):
            s: frozenset[int] = frozenset({0})
            for n in range(1, _CAP + 1):
                s = frozenset(a + x for a in s for x in values if a + x <= v)
                if not s:
                    break
                grow(top, top, s, [(top, n)])
            if ranked and ((top, 1),) not in found[top]:
                found[top].insert(0, ((top, 1),))
        for groups in found:
            groups.sort(key=lambda g: sum(n for _, n in g))
        self.tables[key] = found
        return found

    def check(self, played: Card, taken: Sequence[Card], grouping: bool = False) -> object:
        """True if legal (with ``grouping``: the value and the taken cards dealt into its groups),
        else None."""
        if not taken:
            return None
        rank = played.rank if self.scheme.rank_match else None
        index = self._card_index(rank)
        counts = [0] * len(self._kinds(rank))
        for card in taken:
            counts[index[card]] += 1
        totals = self._totals(rank, counts)
        for v in self.played[played]:
            if not self._may_split(rank, counts, totals, v):
                continue
            found = self._search(counts, self._groups(rank, v))
            if found is not None:
                return (v, self._deal(taken, index, found)) if grouping else True
        return None

    def _totals(self, rank: str | None, counts: list[int]) -> int:
        """Every total the taken cards can make (bit t set: total t), a rank-matched card also
        counting 0 (it may be taken alone)."""
        kinds = self._kinds(rank)
        bits = 1
        for k, count in enumerate(counts):
            if not count:
                continue
            values, ranked = kinds[k]
            key = (rank, k, count)
            sums = self.sums.get(key)
            if sums is None:
                sums = 1
                for _ in range(count):
                    sums = _shift_or(sums, ((0,) if ranked else ()) + values)
                self.sums[key] = sums
            if sums & (sums - 1):
                bits = _shift_or(bits, tuple(t for t in range(sums.bit_length()) if sums >> t & 1))
            else:
                bits <<= sums.bit_length() - 1
        return bits

    def _may_split(self, rank: str | None, counts: list[int], totals: int, v: int) -> bool:
        """Cheap necessary conditions before the search: every card fits some group of v (its
        value is at most v, or it may be taken alone), and some total is a multiple of v."""
        kinds = self._kinds(rank)
        for k, count in enumerate(counts):
            if count and not kinds[k][1] and min(kinds[k][0]) > v:
                return False
        multiples = self.multiples.get(v)
        if multiples is None:
            multiples = self.multiples[v] = sum(1 << t for t in range(0, 64 * 16 + 1, v))
        return bool(totals & multiples)

    @staticmethod
    def _deal(taken: Sequence[Card], index: dict[Card, int], groups: list[tuple[tuple[int, int], ...]]) -> list[list[Card]]:
        pools: dict[int, list[Card]] = {}
        for card in taken:
            pools.setdefault(index[card], []).append(card)
        return [[pools[k].pop() for k, n in group for _ in range(n)] for group in groups]

    @staticmethod
    def _search(counts: list[int], groups: list[list[tuple[tuple[int, int], ...]]]) -> list[tuple[tuple[int, int], ...]] | None:
        failed: set[tuple[int, ...]] = set()
        chosen: list[tuple[tuple[int, int], ...]] = []
        top = len(counts) - 1

        def solve(top: int) -> bool:
            while top >= 0 and not counts[top]:
                top -= 1
            if top < 0:
                return True
            state = tuple(counts[: top + 1])
            if state in failed:
                return False
            for group in groups[top]:
                for k, n in group:
                    if counts[k] < n:
                        break
                else:
                    for k, n in group:
                        counts[k] -= n
                    chosen.append(group)
                    ok = solve(top)
                    for k, n in group:
                        counts[k] += n
                    if ok:
                        return True
                    chosen.pop()
            failed.add(state)
            return False

        return list(chosen) if solve(top) else None


def _shift_or(bits: int, shifts: Sequence[int]) -> int:
    out = 0
    for x in shifts:
        out |= bits << x
    return out
