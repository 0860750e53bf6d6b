"""A small, optimised pure-Python capture check: the yardstick of ``bench_capture_ratio.py``.

Written here, apart from the engine, from the algorithm alone (issue 16): count the taken cards
by value, precompute per target value the multisets of values that sum to it, then a depth-first
search that always covers the largest remaining value first and memoises the states that failed.

Cards with two values (Aces, 2♠, 10♦) count as one "value" each: their pair of values. With
rank-match on (Mulle), a card of the played card's rank is a value of its own that may also be
taken alone. Deliberately nothing else: no pruning table, no kinds per call, no display grouping
beyond the plain groups of cards when asked.
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
        for v in self.played[played]:
            found = self._search(counts, self._groups(rank, v))
            if found is not None:
                return (v, self._deal(taken, index, found)) if grouping else True
        return None

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
