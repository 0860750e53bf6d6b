"""Listing every legal capture of a played card: kind vectors as unions of valid groups, spelt out
as captures on demand (see ``Listing``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from threading import Lock
from typing import Literal

from scorekeeper.cards import Card
from scorekeeper.engine.fishing.grouping import Grouping, Parts, assign_values, group_text
from scorekeeper.engine.fishing.layout import RUN_ENTRIES, shared_layout
from scorekeeper.engine.fishing.pack import card_info
from scorekeeper.engine.fishing.packing import Packing, groups_by_first, sized_groups_by_first
from scorekeeper.engine.fishing.schemes import ValueScheme

# --- Listing captures ----------------------------------------------------------------------------


def table_groups(played: Card, cards: Sequence[Card], packing: Packing, v: int,
                  scheme: ValueScheme) -> list[list[int]]:
    by_first = groups_by_first([scheme.table_values(c) for c in cards], packing, v, scheme.max_value)
    if scheme.rank_match:
        for i, card in enumerate(cards):
            single = packing.unit(i)
            if card.rank == played.rank and single not in by_first[i]:
                by_first[i].insert(0, single)
    return by_first


def _unions(packing: Packing, by_first: Sequence[Sequence[tuple[int, int]]],
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


Capture = tuple[tuple[Card, ...], Grouping]
# One group of a listed grouping: order (biggest first, then by card), cards, counted, rank-match, text.
_Piece = tuple[tuple[int, tuple[int, ...]], tuple[Card, ...], tuple[int, ...], bool, str]
_FIRST_REACH = 3  # the first search of a table covers captures of up to this many cards
_STEP_REACH = 4  # up to this many cards the search grows a card at a time, then doubles


def _next_reach(reach: int) -> int:
    """How far to search next after ``reach``. A screen's first captures have two to four cards,
    and a search for four costs several times one for three on a crowded table, so the reach
    grows a card at a time there; past it, doubling keeps the reruns to a small multiple of the
    last search."""
    if reach < _FIRST_REACH:
        return _FIRST_REACH
    return reach + 1 if reach < _STEP_REACH else 2 * reach


class Listing:
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
                 scheme: ValueScheme, places: tuple[object, ...] | None = None) -> None:
        """``values`` are the played card's, ``table`` comes sorted by card_sort_key and
        ``places`` names it (the layout of its cards is shared by the listings of every card
        played on it). Slots go by index: keys are ints."""
        self.scheme = scheme
        self.values = values
        counts = Counter(table)
        slots = list(counts)
        # Kinds as kinds_of has them: biggest first, a rank-match kind after its plain twin.
        try:  # the scheme's values of each French card, looked up (a call each was 1 µs)
            info = card_info(scheme)
            slot_values = [info[card.rank][card.suit][1] for card in slots]
        except KeyError:
            slot_values = [scheme.table_values(card) for card in slots]
        rank_match, rank = scheme.rank_match, played.rank
        slot_kinds = [(values_of, rank_match and card.rank == rank) for values_of, card in zip(slot_values, slots, strict=True)]
        self.kinds = sorted(set(slot_kinds), key=lambda k: (-min(k[0]), -max(k[0]), k[1], k[0]))
        number = {kind: k for k, kind in enumerate(self.kinds)}
        slot_kind = [number[kind] for kind in slot_kinds]
        layout = shared_layout(places, slots, list(counts.values()), slot_kind, len(self.kinds))
        self.layout = layout
        self.slots, self.copies, self.total = layout.slots, layout.copies, layout.total
        self.slot_kind, self.members, self.packing = layout.slot_kind, layout.members, layout.packing
        self.index_bits, self.width, self.slot_shift = layout.index_bits, layout.width, layout.slot_shift
        self.picks, self.kind_slots = layout.picks, layout.kind_slots
        self.vectors: list[int] = []
        self.value_at: list[int] = []  # per vector: index into values of the first value making it
        self.index_of: dict[int, int] = {}
        self.parents: list[dict[int, int]] = []
        self.by_size: dict[int, list[int]] = {}
        self.reach = 0
        self.lock = Lock()
        self.groups: list[tuple[int, list[list[tuple[int, int]]]] | None] = []  # (reach, groups)
        self.plans: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
        self.pieces: dict[tuple[int, int, tuple[int, ...]], _Piece] = {}

    # -- the kind-vector search -------------------------------------------------------------------

    def reaching(self, size: int) -> Listing:
        """Make sure every legal kind vector of up to ``size`` cards is known."""
        if size > self.reach:
            with self.lock:
                if size > self.reach:
                    self._search(min(self.total, max(size, _next_reach(self.reach))))
        return self

    def _groups(self, vi: int, v: int, reach: int) -> list[list[tuple[int, int]]]:
        """The valid groups for v of up to ``reach`` cards by first kind (sized), kept for the
        search's reruns. A screen's first captures need groups of two or three cards, and on a
        30-card table walking every group of up to 14 cards was most of a listing's time."""
        while len(self.groups) <= vi:
            self.groups.append(None)
        found = self.groups[vi]
        if found is not None and found[0] >= reach:
            return found[1]
        most = min(max(reach, _STEP_REACH), self.total)  # small groups are cheap: once for the first reaches
        by_first = sized_groups_by_first([kind[0] for kind in self.kinds], self.packing, v,
                                          self.scheme.max_value, most)
        for k, kind in enumerate(self.kinds):
            single = (1, self.packing.unit(k))
            if kind[1] and single not in by_first[k]:
                by_first[k].insert(0, single)  # the rank-match single (MULLE-CAP-3(b))
        self.groups[vi] = (most, by_first)
        return by_first

    def _search(self, reach: int) -> None:
        parents: list[dict[int, int]] = []
        first: dict[int, tuple[int, int]] = {}  # vector: (value index, size)
        for vi, v in enumerate(self.values):
            by_first = self._groups(vi, v, reach)
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

    # -- counting ---------------------------------------------------------------------------------

    def count(self, alone: Card | None, at_most: int | None) -> int:
        """How many captures (without those holding ``alone`` and more), stopping at ``at_most``."""
        mask = self.layout.alone_mask(alone)
        kind = self.layout.kind_of(alone) if alone is not None and mask else 0
        with_alone = [sum(1 for key in keys if key & mask) for keys in self.picks[kind]] if mask else []
        shift, field = self.packing.width * kind, self.packing.mask
        if at_most is None:
            self.reaching(self.total)
        weigh = self.layout.weigh if len(self.vectors) > RUN_ENTRIES else self.layout.weigh_slowly
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

    def keys(self, keep: set[int] | None = None, alone: Card | None = None,
             limit: int | None = None) -> list[int]:
        """The keys of the captures in the documented order (size, then cards); ``keep`` limits
        the kind vectors, ``alone`` leaves out the captures holding that card with others, and
        only the first ``limit`` are made. Keys are plain ints: a listing of tens of thousands
        costs a product and a sort, and a capture is spelled (``spelled``) only when read."""
        mask = self.layout.alone_mask(alone)
        keys_of = self._keys
        left = limit
        ordered: list[int] = []
        if limit is None:
            self.reaching(self.total)  # at once: growing the search step by step redoes it
        for size in range(1, self.total + 1):
            if left is not None and left <= 0:
                break
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
            ordered += keyed
        return ordered

    def spelled(self, keys: Sequence[int]) -> list[Capture]:
        """The captures of ``keys``: cards and grouping (worked out when first read), in one
        comprehension, far cheaper per capture than a generator's steps."""
        high, high_shift, low_cards, low_mask = self.layout.spelling()
        shift, low = self.index_bits, (1 << self.index_bits) - 1
        values, value_at, deferred = self.values, self.value_at, Grouping.deferred
        return [(high[key >> high_shift] + low_cards[(key >> shift) & low_mask],
                 deferred(values[value_at[key & low]], self, key)) for key in keys]

    def taken(self, keys: Sequence[int]) -> list[tuple[Card, ...]]:
        """The cards alone of the captures of ``keys``."""
        high, high_shift, low_cards, low_mask = self.layout.spelling()
        shift = self.index_bits
        return [high[key >> high_shift] + low_cards[(key >> shift) & low_mask] for key in keys]

    def _keys(self, index: int) -> list[int]:
        """The keys of every capture spelling kind vector ``index``: a product over runs of kinds,
        each run's picks looked up at once (a kind's picks: its cards and copies)."""
        vector = self.vectors[index]
        keys = [index]
        for shift, mask, table in self.layout.pickers_of_runs():
            part = table[(vector >> shift) & mask]
            if len(part) > 1:
                keys = [key + pick for key in keys for pick in part]
            elif part[0]:
                pick = part[0]
                keys = [key + pick for key in keys]
        return keys

    def parts(self, key: int) -> tuple[Parts, tuple[str, ...]]:
        """The grouping of one listed capture: its kind vector's partition, dealt the capture's
        cards (as slots; cards of one kind are interchangeable, so any dealing is valid). Each
        group is built once and shared: the captures of a table reuse the same few hundred."""
        index = key & ((1 << self.index_bits) - 1)
        vi = self.value_at[index]
        field = (1 << self.width) - 1
        pools: dict[int, list[int]] = {}
        for k, _ in self.layout.group_kinds_of(self.vectors[index]):
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
                plan.append((group, tuple(k for k, n in self.layout.group_kinds_of(group) for _ in range(n))))
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
            counted, ranked = assign_values(options, v), False
        pairs = sorted(zip(slots, counted, strict=True))
        order = tuple(i for i, _ in pairs)
        cards, values = tuple(self.slots[i] for i in order), tuple(x for _, x in pairs)
        return (-len(order), order), cards, values, ranked, group_text(cards, values, ranked, v)
