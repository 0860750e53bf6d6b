"""Listing every legal capture of a played card: kind vectors as unions of valid groups, spelt out
as captures on demand (see ``_Listing``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from math import prod
from threading import Lock
from typing import TYPE_CHECKING, Literal, TypeVar

from scorekeeper.cards import Card
from scorekeeper.engine.fishing.grouping import Grouping, _group_text
from scorekeeper.engine.fishing.search import (
    _assign_values,
    _groups_by_first,
    _Packing,
    _sized_groups_by_first,
)

if TYPE_CHECKING:
    from scorekeeper.engine.fishing.schemes import ValueScheme, _Parts

# --- Listing captures ----------------------------------------------------------------------------


def _table_groups(played: Card, cards: Sequence[Card], packing: _Packing, v: int,
                  scheme: ValueScheme) -> list[list[int]]:
    by_first = _groups_by_first([scheme.table_values(c) for c in cards], packing, v, scheme.max_value)
    if scheme.rank_match:
        for i, card in enumerate(cards):
            single = packing.unit(i)
            if card.rank == played.rank and single not in by_first[i]:
                by_first[i].insert(0, single)
    return by_first


def _unions(packing: _Packing, by_first: Sequence[Sequence[tuple[int, int]]],
            reach: int) -> tuple[dict[int, int], dict[int, int]]:
    """Every union of groups (``by_first``: (size, packed) by first slot, smallest first) that
    fits the table and holds at most ``reach`` cards, each with its last group (the smaller union
    is the union less that group), and the size of each.

    Slot by slot (here: kind by kind), the groups whose lowest card sits in that slot are added
    to every union found so far. Each union is legal in its own right, and unions reached by
    different partitions merge, so the work grows with the number of unions, not of partitions.
    Every union is built from smaller ones, so the cap on size loses nothing below it.
    """
    parents: dict[int, int] = {0: 0}
    sizes: dict[int, int] = {0: 0}
    room, guard = packing.full | packing.guard, packing.guard
    width, mask = packing.width, packing.mask
    for slot, groups in enumerate(by_first):
        if not groups:
            continue
        cap = packing.caps[slot]
        shift = width * slot
        work = list(parents)
        for base in work:
            if (base >> shift) & mask >= cap:
                continue
            size = sizes[base]
            for extra, group in groups:
                if size + extra > reach:
                    break
                union = base + group
                if union in parents or (room - union) & guard != guard:
                    continue
                parents[union] = group  # the smaller union is union - group
                sizes[union] = size + extra
                work.append(union)
    del parents[0], sizes[0]
    return parents, sizes


_Capture = tuple[tuple[Card, ...], Grouping]
# One group of a listed grouping: order (biggest first, then by card), cards, counted, rank-match, text.
_Piece = tuple[tuple[int, tuple[int, ...]], tuple[Card, ...], tuple[int, ...], bool, str]
_RUN_ENTRIES = 256  # entries per lookup table over a run of fields (spelling keys, weighing vectors)
_SPELL_BY_TABLE = 48  # captures in one size before spelling by lookup tables pays for building them
_FIRST_REACH = 2  # the first search of a table covers captures of up to this many cards


_PICK_ENTRIES = 1 << 8  # combined values of a run of kinds whose picks are looked up at once
_SPELL_HALVES = 1 << 15  # halves of keys remembered per listing before starting afresh (memory)
_T = TypeVar("_T")


class _Memo(dict[int, _T]):
    """A dict that works a missing entry out (``make``) and keeps it."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[int], _T]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: int) -> _T:
        value = self[key] = self.make(key)
        return value


def _runs(caps: Sequence[int], most: int = _RUN_ENTRIES) -> list[tuple[int, int]]:
    """Consecutive fields [start, end) whose combined values stay within ``most``."""
    runs: list[tuple[int, int]] = []
    start = 0
    while start < len(caps):
        end, entries = start + 1, caps[start] + 1
        while end < len(caps) and entries * (caps[end] + 1) <= most:
            entries *= caps[end] + 1
            end += 1
        runs.append((start, end))
        start = end
    return runs


class _Listing:
    """Every legal capture of one played card from one table, produced in the documented order.

    Legality depends only on how many cards of each *kind* are taken, so the search runs over
    kind vectors (``_unions`` on the kind packing, once per played value): ``vectors`` are the
    legal ones, each with the first value that makes it and, through ``parents``, a partition.
    The captures of one kind vector are all the ways of picking that many cards of each kind
    from the table's distinct cards and copies, so they are counted by a product and spelled
    out only when listed. The search stops at ``reach`` cards and is rerun further only when a
    caller needs bigger captures: a 30-card table can have half a million kind vectors, and a
    screen that shows the first few dozen captures needs only the small ones.

    A capture is handled as a *key*: its count of each distinct table card (slot), the lowest
    card in the top field, above the index of its kind vector. Within one size, key order is the
    documented order reversed (more of a lower card comes first), so one sort of plain ints
    orders a size, and the index travels with the key.
    """

    def __init__(self, played: Card, values: tuple[int, ...], table: Sequence[Card],
                 scheme: ValueScheme) -> None:
        """``values`` are the played card's, ``table`` comes sorted by card_sort_key. (Cards hash
        slowly, so slots go by index.)"""
        self.scheme = scheme
        counts = Counter(table)
        self.slots = slots = list(counts)
        self.copies = copies = list(counts.values())
        self.total = len(table)
        self.values = values
        # Kinds as _kinds_of has them: biggest first, a rank-match kind after its plain twin.
        slot_kinds = [(scheme.table_values(card), scheme.rank_match and card.rank == played.rank)
                      for card in slots]
        self.kinds = sorted(set(slot_kinds), key=lambda k: (-min(k[0]), -max(k[0]), k[1], k[0]))
        number = {kind: k for k, kind in enumerate(self.kinds)}
        self.slot_kind = [number[kind] for kind in slot_kinds]
        members: list[list[int]] = [[] for _ in self.kinds]
        for i, k in enumerate(self.slot_kind):
            members[k].append(i)
        self.members = members  # the slots of each kind, in card order
        self.packing = _Packing([sum(copies[i] for i in slots_of) for slots_of in members])
        # Room for any kind vector's index, so keys never need re-spelling when the search grows.
        self.index_bits = prod(cap + 1 for cap in self.packing.caps).bit_length()
        self.width = max(1, max(copies, default=1).bit_length())
        top = len(slots) - 1
        self.slot_shift = [self.width * (top - i) + self.index_bits for i in range(len(slots))]
        self.picks = [self._picks(slots_of) for slots_of in members]
        self.vectors: list[int] = []
        self.value_at: list[int] = []  # per vector: index into values of the first value making it
        self.index_of: dict[int, int] = {}
        self.parents: list[dict[int, int]] = []
        self.by_size: dict[int, list[int]] = {}
        self.reach = 0
        self.lock = Lock()
        self.group_kinds: dict[int, list[tuple[int, int]]] = {}
        self.spellers: list[tuple[int, int, dict[int, tuple[Card, ...]]]] | None = None
        self.pickers: list[tuple[int, int, _Memo[list[int]]]] | None = None
        self.groups: list[list[list[tuple[int, int]]] | None] = []
        self.halves: tuple[_Memo[tuple[Card, ...]], int, _Memo[tuple[Card, ...]], int] | None = None
        self.weighers: list[tuple[int, int, dict[int, int]]] | None = None
        self.kind_of_card: dict[Card, int] | None = None
        self.plans: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
        self.pieces: dict[tuple[int, int, tuple[int, ...]], _Piece] = {}
        self.kind_slots = [[(i, self.slot_shift[i]) for i in slots_of] for slots_of in members]

    def _picks(self, slots_of: Sequence[int]) -> list[list[int]]:
        """picks[n] = the keys of every way to take n cards of one kind (its cards and copies)."""
        if len(slots_of) == 1:  # the usual kind: one card, perhaps with its twin
            step = 1 << self.slot_shift[slots_of[0]]
            return [[n * step] for n in range(self.copies[slots_of[0]] + 1)]
        picks: list[list[int]] = [[0]]
        for i in slots_of:
            step, copies = 1 << self.slot_shift[i], self.copies[i]
            grown: list[list[int]] = [[] for _ in range(len(picks) + copies)]
            for n, keys in enumerate(picks):
                for extra in range(copies + 1):
                    grown[n + extra] += [key + extra * step for key in keys]
            picks = grown
        return picks

    def kind_of(self, card: Card) -> int:
        found = self.kind_of_card
        if found is None:
            found = self.kind_of_card = dict(zip(self.slots, self.slot_kind, strict=True))
        return found[card]

    # -- the kind-vector search -------------------------------------------------------------------

    def reaching(self, size: int) -> _Listing:
        """Make sure every legal kind vector of up to ``size`` cards is known."""
        if size > self.reach:
            with self.lock:
                if size > self.reach:
                    # Doubling keeps the reruns to a small multiple of the last one.
                    self._search(min(self.total, max(size, 2 * self.reach, _FIRST_REACH)))
        return self

    def _groups(self, vi: int, v: int) -> list[list[tuple[int, int]]]:
        """The valid groups for v by first kind (sized), worked out once: the search may rerun."""
        while len(self.groups) <= vi:
            self.groups.append(None)
        by_first = self.groups[vi]
        if by_first is None:
            by_first = _sized_groups_by_first([kind[0] for kind in self.kinds], self.packing, v,
                                              self.scheme.max_value)
            for k, kind in enumerate(self.kinds):
                single = (1, self.packing.unit(k))
                if kind[1] and single not in by_first[k]:
                    by_first[k].insert(0, single)  # the rank-match single (MULLE-CAP-3(b))
            self.groups[vi] = by_first
        return by_first

    def _search(self, reach: int) -> None:
        parents: list[dict[int, int]] = []
        first: dict[int, tuple[int, int]] = {}  # vector: (value index, size)
        for vi, v in enumerate(self.values):
            by_first = self._groups(vi, v)
            found, sizes = _unions(self.packing, by_first, reach) if any(by_first) else ({}, {})
            parents.append(found)
            for vector, size in sizes.items():
                first.setdefault(vector, (vi, size))
        by_size: dict[int, list[int]] = {}
        for vector, (vi, size) in first.items():
            index = self.index_of.get(vector)
            if index is None:
                index = self.index_of[vector] = len(self.vectors)
                self.vectors.append(vector)
                self.value_at.append(vi)
            by_size.setdefault(size, []).append(index)
        # Published last: a reader sees the old search or all of the new one.
        self.parents, self.by_size, self.reach = parents, by_size, reach

    def _group_kinds(self, group: int) -> list[tuple[int, int]]:
        """(kind, how many) for each kind a packed group or vector takes."""
        found = self.group_kinds.get(group)
        if found is None:
            found = [(k, n) for k, n in enumerate(self.packing.counts(group)) if n]
            if len(self.group_kinds) < 4096:
                self.group_kinds[group] = found
        return found

    # -- counting ---------------------------------------------------------------------------------

    def alone_mask(self, alone: Card | None) -> int:
        if alone is None or alone not in self.slots:
            return 0
        return ((1 << self.width) - 1) << self.slot_shift[self.slots.index(alone)]

    def count(self, alone: Card | None, at_most: int | None) -> int:
        """How many captures (without those holding ``alone`` and more), stopping at ``at_most``."""
        mask = self.alone_mask(alone)
        kind = self.kind_of(alone) if alone is not None and mask else 0
        with_alone = [sum(1 for key in keys if key & mask) for keys in self.picks[kind]] if mask else []
        shift, field = self.packing.width * kind, self.packing.mask
        if at_most is None:
            self.reaching(self.total)
        weigh = self.weigh if len(self.vectors) > _RUN_ENTRIES else self._weigh_slowly
        found = 0
        for size in range(1, self.total + 1):
            self.reaching(size)
            for index in self.by_size.get(size, ()):
                vector = self.vectors[index]
                ways = weigh(vector)
                if mask and size > 1:
                    n = (vector >> shift) & field
                    if n:
                        ways -= ways // len(self.picks[kind][n]) * with_alone[n]
                found += ways
            if at_most is not None and found >= at_most:
                return at_most
        return found

    def _weigh_slowly(self, vector: int) -> int:
        ways = 1
        for k, n in self._group_kinds(vector):
            ways *= len(self.picks[k][n])
        return ways

    def weigh(self, vector: int) -> int:
        """How many captures spell a kind vector: each kind's ways of picking its count, multiplied."""
        weighers = self.weighers
        if weighers is None:
            weighers = self.weighers = []
            width = self.packing.width
            for start, end in _runs(self.packing.caps):
                table = {0: 1}
                for k in range(start, end):
                    place = width * (k - start)
                    table = {bits + (n << place): ways * len(self.picks[k][n])
                             for bits, ways in table.items() for n in range(self.packing.caps[k] + 1)}
                weighers.append((width * start, (1 << (width * (end - start))) - 1, table))
        ways = 1
        for shift, mask, table in weighers:
            ways *= table[(vector >> shift) & mask]
        return ways

    def maximal(self, by: Literal["inclusion", "count"]) -> set[int]:
        """The kind vectors no legal one strictly contains (or the biggest ones). A capture is
        maximal exactly when its kind vector is: a bigger legal vector can always be filled by
        adding cards of the same kinds, still lying on the table."""
        self.reaching(self.total)
        if not self.by_size:
            return set()
        if by == "count":
            return set(self.by_size[max(self.by_size)])
        minus = self.packing.minus
        maxima: list[int] = []
        for size in sorted(self.by_size, reverse=True):
            for index in self.by_size[size]:
                vector = self.vectors[index]
                if not any(minus(big, vector) is not None for big in maxima):
                    maxima.append(vector)
        return {self.index_of[vector] for vector in maxima}

    # -- listing ----------------------------------------------------------------------------------

    def captures(self, keep: set[int] | None = None, alone: Card | None = None) -> Iterator[_Capture]:
        """The captures in the documented order (size, then cards); ``keep`` limits the kind
        vectors, ``alone`` leaves out the captures holding that card with others."""
        for chunk in self.chunks(keep, alone):
            yield from chunk

    def chunks(self, keep: set[int] | None = None, alone: Card | None = None,
               limit: int | None = None) -> Iterator[list[_Capture]]:
        """``captures`` a list per size, and only the first ``limit`` in all: a list is built in
        one comprehension, far cheaper per capture than a generator's steps."""
        mask = self.alone_mask(alone)
        low = (1 << self.index_bits) - 1
        values, value_at, deferred = self.values, self.value_at, Grouping._deferred
        keys_of = self._keys
        left = limit
        if limit is None:
            self.reaching(self.total)  # at once: growing the search step by step redoes it
        for size in range(1, self.total + 1):
            if left is not None and left <= 0:
                return
            self.reaching(size)
            keyed: list[int] = []
            for index in self.by_size.get(size, ()):
                if keep is None or index in keep:
                    keyed += keys_of(index)
            if mask and size > 1:
                keyed = [key for key in keyed if not key & mask]
            if not keyed:
                continue
            keyed.sort(reverse=True)
            if left is not None:
                del keyed[left:]
                left -= len(keyed)
            high, high_shift, low_cards, low_mask = self._spelling()
            shift = self.index_bits
            yield [(high[key >> high_shift] + low_cards[(key >> shift) & low_mask],
                    deferred(values[value_at[key & low]], self, key)) for key in keyed]

    def _keys(self, index: int) -> list[int]:
        """The keys of every capture spelling kind vector ``index``: a product over runs of kinds,
        each run's picks looked up at once (a kind's picks: its cards and copies)."""
        vector = self.vectors[index]
        keys = [index]
        for shift, mask, table in self._pickers():
            part = table[(vector >> shift) & mask]
            if len(part) > 1:
                keys = [key + pick for key in keys for pick in part]
            elif part[0]:
                pick = part[0]
                keys = [key + pick for key in keys]
        return keys

    def _pickers(self) -> list[tuple[int, int, _Memo[list[int]]]]:
        pickers = self.pickers
        if pickers is None:
            pickers = []
            # The closures hold what they read, not the listing: a listing the cache lets go of
            # must go at once, not wait, cycles and all, for the collector's full pass.
            width, caps, mask, all_picks = self.packing.width, self.packing.caps, self.packing.mask, self.picks
            for start, end in _runs(caps, _PICK_ENTRIES):
                def make(bits: int, start: int = start, end: int = end) -> list[int]:
                    sums = [0]
                    for k in range(start, end):
                        n = (bits >> (width * (k - start))) & mask
                        if n:
                            sums = [total + pick for total in sums for pick in all_picks[k][n]]
                    return sums
                pickers.append((width * start, (1 << (width * (end - start))) - 1, _Memo(make)))
            self.pickers = pickers
        return pickers

    def _spelling(self) -> tuple[_Memo[tuple[Card, ...]], int, _Memo[tuple[Card, ...]], int]:
        """A key's cards as two halves, each looked up (and worked out when first met): the
        captures of a table share a few thousand halves."""
        spelling = self.halves
        if spelling is None or len(spelling[0]) + len(spelling[2]) > _SPELL_HALVES:
            width, slots = self.width, self.slots
            split = len(slots) // 2
            field = (1 << width) - 1

            def cards_of(bits: int, start: int, end: int) -> tuple[Card, ...]:
                cards: tuple[Card, ...] = ()
                for i in range(start, end):
                    n = (bits >> (width * (end - 1 - i))) & field
                    if n:
                        cards += (slots[i],) * n
                return cards

            spelling = self.halves = (
                _Memo(lambda bits: cards_of(bits, 0, split)), width * (len(slots) - split) + self.index_bits,
                _Memo(lambda bits: cards_of(bits, split, len(slots))), (1 << (width * (len(slots) - split))) - 1)
        return spelling

    def _spell_slowly(self, key: int) -> tuple[Card, ...]:
        width_mask = (1 << self.width) - 1
        cards: tuple[Card, ...] = ()
        for shift, card in zip(self.slot_shift, self.slots, strict=True):
            n = (key >> shift) & width_mask
            if n:
                cards += (card,) * n
        return cards

    def spell(self, key: int) -> tuple[Card, ...]:
        """The cards of a key, lowest first, a run of slots per table lookup."""
        spellers = self.spellers
        if spellers is None:
            spellers = self.spellers = []
            width, slots, copies = self.width, self.slots, self.copies
            for start, end in _runs(copies):
                table: dict[int, tuple[Card, ...]] = {0: ()}
                for i in range(start, end):
                    place, card = width * (end - 1 - i), slots[i]
                    table = {bits + (n << place): cards + (card,) * n
                             for bits, cards in table.items() for n in range(copies[i] + 1)}
                spellers.append((self.slot_shift[end - 1], (1 << (width * (end - start))) - 1, table))
        cards: tuple[Card, ...] = ()
        for shift, mask, table in spellers:
            cards += table[(key >> shift) & mask]
        return cards

    def parts(self, key: int) -> tuple[_Parts, tuple[str, ...]]:
        """The grouping of one listed capture: its kind vector's partition, dealt the capture's
        cards (as slots; cards of one kind are interchangeable, so any dealing is valid). Each
        group is built once and shared: the captures of a table reuse the same few hundred."""
        index = key & ((1 << self.index_bits) - 1)
        vi = self.value_at[index]
        field = (1 << self.width) - 1
        pools: dict[int, list[int]] = {}
        for k, _ in self._group_kinds(self.vectors[index]):
            pool: list[int] = []
            for i, shift in self.kind_slots[k]:
                pool += (i,) * ((key >> shift) & field)
            pools[k] = pool
        pieces = self.pieces
        made: list[_Piece] = []
        for group, kinds in self._plan(index):
            dealt = (vi, group, tuple([pools[k].pop() for k in kinds]))
            piece = pieces.get(dealt)
            if piece is None:
                piece = self._piece(vi, group, kinds, dealt[2])
                if len(pieces) < 65536:
                    pieces[dealt] = piece
            made.append(piece)
        made.sort()  # biggest group first, then by card
        return ((tuple([piece[1] for piece in made]), tuple([piece[2] for piece in made]),
                 tuple([piece[3] for piece in made])), tuple([piece[4] for piece in made]))

    def _plan(self, index: int) -> list[tuple[int, tuple[int, ...]]]:
        """The groups of a kind vector's partition: (packed group, the kind of each card)."""
        plan = self.plans.get(index)
        if plan is None:
            parents = self.parents[self.value_at[index]]
            plan = []
            union = self.vectors[index]
            while union:
                group = parents[union]
                union -= group
                plan.append((group, tuple(k for k, n in self._group_kinds(group) for _ in range(n))))
            if len(self.plans) < 65536:
                self.plans[index] = plan
        return plan

    def _piece(self, vi: int, group: int, kinds: tuple[int, ...], slots: tuple[int, ...]) -> _Piece:
        """One group of a grouping: (order, cards, values counted, rank-match), cards in order. A
        rank-match single counts its first value, as ``find_grouping`` has it."""
        v = self.values[vi]
        options = [self.kinds[k][0] for k in kinds]
        if len(kinds) == 1 and v not in options[0]:
            counted, ranked = options[0][:1], True
        else:
            counted, ranked = _assign_values(options, v), False
        pairs = sorted(zip(slots, counted, strict=True))
        order = tuple(i for i, _ in pairs)
        cards, values = tuple(self.slots[i] for i in order), tuple(x for _, x in pairs)
        return (-len(order), order), cards, values, ranked, _group_text(cards, values, ranked, v)
