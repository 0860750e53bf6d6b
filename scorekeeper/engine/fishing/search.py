"""The partition search over card *kinds* packed into one int: may these cards split into groups of v?"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from scorekeeper.cards import Card
from scorekeeper.engine.fishing.grouping import Grouping
from scorekeeper.engine.fishing.schemes import card_sort_key

if TYPE_CHECKING:
    from scorekeeper.engine.fishing.schemes import ValueScheme, _Parts

# --- Packed multisets ---------------------------------------------------------------------------


class _Packing:
    """A multiset over ``n`` slots packed into one int: one field per slot with a guard bit on top.

    Subtraction borrows through a guard bit exactly when some field would go negative, and an
    addition overflows a capacity exactly when ``caps - sum`` borrows, so fit tests are one
    subtraction and one AND.
    """

    def __init__(self, caps: Sequence[int]) -> None:
        self.caps = list(caps)
        self.width = max(2, max(caps, default=1).bit_length() + 2)
        self.mask = (1 << (self.width - 1)) - 1
        self.guard = sum(1 << (self.width * (i + 1) - 1) for i in range(len(caps)))
        self.full = self.pack(caps)

    def pack(self, counts: Sequence[int]) -> int:
        return sum(c << (self.width * i) for i, c in enumerate(counts))

    def unit(self, i: int, count: int = 1) -> int:
        return count << (self.width * i)

    def field(self, packed: int, i: int) -> int:
        return (packed >> (self.width * i)) & self.mask

    def minus(self, packed: int, part: int) -> int | None:
        """``packed - part`` if ``part`` fits inside ``packed``, else None."""
        guard = self.guard
        out = (packed | guard) - part
        return out ^ guard if out & guard == guard else None

    def lowest(self, packed: int) -> int:
        return ((packed & -packed).bit_length() - 1) // self.width

    def counts(self, packed: int) -> list[int]:
        return [self.field(packed, i) for i in range(len(self.caps))]


def _bits_add(bits: int, values: tuple[int, ...], limit: int) -> int:
    out = 0
    for value in values:
        out |= bits << value
    return out & limit


def _groups_by_first(values: Sequence[tuple[int, ...]], packing: _Packing, v: int,
                     cap: int) -> list[list[int]]:
    """Every sub-multiset (within ``packing.caps``) whose values can total ``v``, filed under its
    first slot, smallest groups first."""
    return [[packed for _, packed in groups] for groups in _sized_groups_by_first(values, packing, v, cap)]


def _sized_groups_by_first(values: Sequence[tuple[int, ...]], packing: _Packing, v: int,
                           cap: int, most: int | None = None) -> list[list[tuple[int, int]]]:
    """``_groups_by_first`` with each group's size: (size, packed), and only groups of at most
    ``most`` cards if given. Partial sums above v are dropped, so the walk never grows a group
    past v."""
    most = sum(packing.caps) if most is None else most
    limit = (1 << (min(v, cap) + 1)) - 1
    target = 1 << v
    n = len(values)
    caps = packing.caps
    width = packing.width
    sized: list[list[tuple[int, int]]] = [[] for _ in range(n)]

    # Each kind's values as two shifts (a single-valued kind shifts by its value twice) and any
    # further ones: the walk runs hundreds of thousands of steps on a crowded table, and a
    # function call per step was a third of its time.
    low = [kind_values[0] for kind_values in values]
    high = [kind_values[1] if len(kind_values) > 1 else kind_values[0] for kind_values in values]
    more = [kind_values[2:] for kind_values in values]

    def walk(j: int, bits: int, packed: int, size: int, out: list[tuple[int, int]]) -> None:
        if bits & target:
            out.append((size, packed))
        room = most - size
        if room <= 0:
            return
        for k in range(j, n):
            step = 1 << (width * k)
            b = bits
            p = packed
            x, y, others = low[k], high[k], more[k]
            for extra in range(1, (caps[k] if caps[k] < room else room) + 1):
                b = (((b << x) | (b << y)) | (_bits_add(b, others, limit) if others else 0)) & limit
                if not b:
                    break
                p += step
                walk(k + 1, b, p, size + extra, out)

    for first in range(n):
        b = 1
        p = 0
        x, y, others = low[first], high[first], more[first]
        for count in range(1, min(caps[first], most) + 1):
            b = (((b << x) | (b << y)) | (_bits_add(b, others, limit) if others else 0)) & limit
            if not b:
                break
            p += 1 << (width * first)
            walk(first + 1, b, p, count, sized[first])
    # Small groups first: they leave the most freedom to the rest of the search.
    for groups in sized:
        groups.sort(key=lambda sp: sp[0])
    return sized


# --- The partition search (claimed captures) -------------------------------------------------

Kind = tuple[tuple[int, ...], bool]  # (values the card may take, may be taken by rank-match)


def _kinds_of(played: Card, cards: Sequence[Card], scheme: ValueScheme) -> tuple[list[Kind], list[list[Card]]]:
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

    def __init__(self, kinds: Sequence[Kind], packing: _Packing, v: int) -> None:
        self.packing = packing
        top = max(packing.caps, default=0)
        self.rows: list[list[int]] = []  # rows[k][c] = bitset of the sums c cards of kind k can make
        for values, alone in kinds:
            options = ((0,) if alone else ()) + values
            row = [1]
            for _ in range(top):
                bits = 0
                for x in options:
                    bits |= row[-1] << x
                row.append(bits)
            self.rows.append(row)
        most = sum(max(values) * cap for (values, _), cap in zip(kinds, packing.caps, strict=True))
        self.multiples = sum(1 << t for t in range(0, most + 1, v))

    def possible(self, state: int) -> bool:
        width, mask = self.packing.width, self.packing.mask
        bits = 1
        for k, row in enumerate(self.rows):
            count = (state >> (width * k)) & mask
            if not count:
                continue
            sums = row[count]
            if not sums & (sums - 1):  # one possible sum: a plain shift
                bits <<= sums.bit_length() - 1
                continue
            out = 0
            while sums:
                low = sums & -sums
                out |= bits << (low.bit_length() - 1)
                sums ^= low
            bits = out
        return bool(bits & self.multiples)


_PRUNE_AFTER = 48  # states visited before each new state is also checked against _Totals


def _partition(packing: _Packing, by_first: Sequence[Sequence[int]], start: int,
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


def _kind_groups(kinds: Sequence[Kind], packing: _Packing, v: int, cap: int) -> list[list[int]]:
    """The groups valid for v filed under their first kind: the sum-groups, and a rank-match
    single (MULLE-CAP-3(b)) first for a kind that may be taken by rank."""
    by_first = _groups_by_first([kind[0] for kind in kinds], packing, v, cap)
    for i, (kind, group_list) in enumerate(zip(kinds, by_first, strict=True)):
        single = packing.unit(i)
        if kind[1] and single not in group_list:
            group_list.insert(0, single)
    return by_first


def _solve_kinds(played: Card, taken: Sequence[Card], scheme: ValueScheme, v: int) -> Grouping | None:
    kinds, pools = _kinds_of(played, taken, scheme)
    packing = _Packing([len(pool) for pool in pools])
    by_first = _kind_groups(kinds, packing, v, scheme.max_value)
    solution = _partition(packing, by_first, packing.full, _Totals(kinds, packing, v))
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


def _grouping_parts(v: int, groups: Sequence[Sequence[Card]], scheme: ValueScheme) -> _Parts:
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
    return _assign_values([scheme.table_values(card) for card in cards], v)


def _assign_values(options: Sequence[tuple[int, ...]], v: int) -> tuple[int, ...]:
    """One value from each of ``options`` so that they total v (known to be possible)."""
    def go(i: int, left: int) -> tuple[int, ...] | None:
        if i == len(options):
            return () if left == 0 else None
        for value in options[i]:
            if value <= left:
                rest = go(i + 1, left - value)
                if rest is not None:
                    return (value, *rest)
        return None

    found = go(0, v)
    if found is None:  # pragma: no cover - the solver only hands over valid groups
        raise AssertionError(f"no values among {options} making {v}")
    return found


def _played_values(played: Card, scheme: ValueScheme) -> tuple[int, ...]:
    return tuple(v for v in scheme.played_values(played) if 0 < v <= scheme.max_value)
