"""Packed multisets: counts over slots in one int, and every group of them that makes a value."""

from __future__ import annotations

from collections.abc import Sequence


class Packing:
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


def shift_or(bits: int, shifts: Sequence[int]) -> int:
    """``bits`` (bit t: total t) with one more card added that may count any of ``shifts``."""
    out = 0
    for x in shifts:
        out |= bits << x
    return out


def bits_add(bits: int, values: tuple[int, ...], limit: int) -> int:
    return shift_or(bits, values) & limit


def groups_by_first(values: Sequence[tuple[int, ...]], packing: Packing, v: int,
                     cap: int) -> list[list[int]]:
    """Every sub-multiset (within ``packing.caps``) whose values can total ``v``, filed under its
    first slot, smallest groups first."""
    return [[packed for _, packed in groups] for groups in sized_groups_by_first(values, packing, v, cap)]


def sized_groups_by_first(values: Sequence[tuple[int, ...]], packing: Packing, v: int,
                           cap: int, most: int | None = None) -> list[list[tuple[int, int]]]:
    """``groups_by_first`` with each group's size: (size, packed), and only groups of at most
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
                b = (((b << x) | (b << y)) | (bits_add(b, others, limit) if others else 0)) & limit
                if not b:
                    break
                p += step
                walk(k + 1, b, p, size + extra, out)

    for first in range(n):
        b = 1
        p = 0
        x, y, others = low[first], high[first], more[first]
        for count in range(1, min(caps[first], most) + 1):
            b = (((b << x) | (b << y)) | (bits_add(b, others, limit) if others else 0)) & limit
            if not b:
                break
            p += 1 << (width * first)
            walk(first + 1, b, p, count, sized[first])
    # Small groups first: they leave the most freedom to the rest of the search.
    for groups in sized:
        groups.sort(key=lambda sp: sp[0])
    return sized


# A kind whose count may add more than one total: (the shift of its count's field, how far its
# rows count below the totals' base, rows[count] = the totals count cards of it add, as bits).
Spread = tuple[int, int, list[int]]


def add_totals(bits: int, state: int, mask: int, spreads: Sequence[Spread]) -> int:
    """The totals ``bits`` (bit t: total t) with the cards counted in ``state``'s fields added,
    each kind by its ``spreads`` row. The one totals condition of the capture check: the claim
    tables' (claims._totals, offsets from each kind's smallest value) and the slow path's
    (search._Totals, offsets 0); the caller tests the result against the multiples of v."""
    for field, offset, rows in spreads:
        count = (state >> field) & mask
        if not count:
            continue
        sums = rows[count]
        bits >>= offset * count  # the rows count from the lowest offset (negative: taken alone)
        if not sums & (sums - 1):  # one possible sum: a plain shift
            bits <<= sums.bit_length() - 1
            continue
        bits = add_each(bits, sums)
    return bits


def add_each(bits: int, sums: int) -> int:
    """The totals ``bits`` (bit t: total t) with one more part added that may count any total in
    ``sums``, as bits: one shift per possible total, OR-ed together."""
    out = 0
    while sums:
        low = sums & -sums
        out |= bits << (low.bit_length() - 1)
        sums ^= low
    return out
