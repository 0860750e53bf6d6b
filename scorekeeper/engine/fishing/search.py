"""The partition search over card *kinds* packed into one int: may these cards split into groups of v?"""

from __future__ import annotations

from collections.abc import Sequence

from scorekeeper.cards import Card
from scorekeeper.engine.fishing.grouping import Grouping, Parts, assign_values
from scorekeeper.engine.fishing.packing import Packing, Spread, add_totals, groups_by_first
from scorekeeper.engine.fishing.schemes import ValueScheme, card_sort_key

# --- The partition search (claimed captures) -------------------------------------------------

Kind = tuple[tuple[int, ...], bool]  # (values the card may take, may be taken by rank-match)


def kinds_of(played: Card, cards: Sequence[Card], scheme: ValueScheme) -> tuple[list[Kind], list[list[Card]]]:
    """Distinct kinds (biggest card first: it has the fewest partners) and the cards of each."""
    by_kind: dict[Kind, list[Card]] = {}
    for card in sorted(cards, key=card_sort_key):
        kind = (scheme.table_values(card), scheme.rank_match and card.rank == played.rank)
        by_kind.setdefault(kind, []).append(card)
    kinds = sorted(by_kind, key=lambda k: (-min(k[0]), -max(k[0]), k[1]))
    return kinds, [by_kind[k] for k in kinds]


class _Totals:
    """A necessary condition on a multiset: some choice of values must make the cards that do
    not stand alone total a multiple of v. Rank-match cards may stand alone (they count 0)."""

    def __init__(self, kinds: Sequence[Kind], packing: Packing, v: int) -> None:
        self.mask = packing.mask
        top = max(packing.caps, default=0)
        self.spreads: list[Spread] = []  # rows[c] = bitset of the sums c cards of kind k can make
        for k, (values, alone) in enumerate(kinds):
            options = ((0,) if alone else ()) + values
            row = [1]
            for _ in range(top):
                bits = 0
                for x in options:
                    bits |= row[-1] << x
                row.append(bits)
            self.spreads.append((packing.width * k, 0, row))
        most = sum(max(values) * cap for (values, _), cap in zip(kinds, packing.caps, strict=True))
        self.multiples = sum(1 << t for t in range(0, most + 1, v))

    def possible(self, state: int) -> bool:
        return bool(add_totals(1, state, self.mask, self.spreads) & self.multiples)


_PRUNE_AFTER = 48  # states visited before each new state is also checked against _Totals


def partition(packing: Packing, by_first: Sequence[Sequence[int]], start: int,
               totals: _Totals | None = None) -> list[int] | None:
    """Groups (packed) that exactly cover ``start``, or None. Memoised on the remaining multiset.

    Easy cases finish in a few dozen steps; a long search starts checking each state's totals,
    which cuts the hopeless branches of a big refused claim short.
    """
    failed: set[int] = set()
    minus = packing.minus
    lowest = packing.lowest
    visits = 0

    def solve(state: int) -> list[int] | None:
        nonlocal visits
        if not state:
            return []
        if state in failed:
            return None
        visits += 1
        if totals is not None and visits > _PRUNE_AFTER and not totals.possible(state):
            failed.add(state)
            return None
        for group in by_first[lowest(state)]:
            rest = minus(state, group)
            if rest is not None:
                found = solve(rest)
                if found is not None:
                    found.append(group)
                    return found
        failed.add(state)
        return None

    if totals is not None and not totals.possible(start):
        return None
    return solve(start)


def kind_groups(kinds: Sequence[Kind], packing: Packing, v: int, cap: int) -> list[list[int]]:
    """The groups valid for v filed under their first kind: the sum-groups, and a rank-match
    single (MULLE-CAP-3(b)) first for a kind that may be taken by rank."""
    by_first = groups_by_first([kind[0] for kind in kinds], packing, v, cap)
    for i, (kind, group_list) in enumerate(zip(kinds, by_first, strict=True)):
        single = packing.unit(i)
        if kind[1] and single not in group_list:
            group_list.insert(0, single)
    return by_first


def solve_kinds(played: Card, taken: Sequence[Card], scheme: ValueScheme, v: int) -> Grouping | None:
    kinds, pools = kinds_of(played, taken, scheme)
    packing = Packing([len(pool) for pool in pools])
    by_first = kind_groups(kinds, packing, v, scheme.max_value)
    solution = partition(packing, by_first, packing.full, _Totals(kinds, packing, v))
    if solution is None:
        return None
    pools = [list(pool) for pool in pools]
    groups: list[list[Card]] = []
    for packed in reversed(solution):
        cards: list[Card] = []
        for i, count in enumerate(packing.counts(packed)):
            for _ in range(count):
                cards.append(pools[i].pop())
        groups.append(cards)
    return Grouping(v, *_grouping_parts(v, groups, scheme))


def _grouping_parts(v: int, groups: Sequence[Sequence[Card]], scheme: ValueScheme) -> Parts:
    """Groups in display order (biggest first, then by card), with the value each card counted."""
    made: list[tuple[tuple[Card, ...], tuple[int, ...], bool]] = []
    for group in groups:
        cards = tuple(sorted(group, key=card_sort_key))
        if len(cards) == 1 and v not in scheme.table_values(cards[0]):
            made.append((cards, (scheme.table_values(cards[0])[0],), True))
        else:
            made.append((cards, _assign(cards, v, scheme), False))
    made.sort(key=lambda m: (-len(m[0]), [card_sort_key(c) for c in m[0]]))
    return tuple(m[0] for m in made), tuple(m[1] for m in made), tuple(m[2] for m in made)


def _assign(cards: Sequence[Card], v: int, scheme: ValueScheme) -> tuple[int, ...]:
    """Values for the cards of one sum-group totalling v (the group is known to be valid)."""
    return assign_values([scheme.table_values(card) for card in cards], v)


