"""Where a table's cards sit in a listing's keys: the slots and kinds, each kind's picks, and
spelling and weighing keys — shared by the listings of every card played on one table."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from math import prod
from threading import Lock
from typing import TypeVar

from scorekeeper.cards import Card
from scorekeeper.engine.fishing.packing import Packing

RUN_ENTRIES = 256  # entries per lookup table over a run of fields (spelling keys, weighing vectors)
_PICK_ENTRIES = 1 << 8  # combined values of a run of kinds whose picks are looked up at once
_SPELL_HALVES = 1 << 15  # halves of keys remembered per table before starting afresh (memory)
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


def _runs(caps: Sequence[int], most: int = RUN_ENTRIES) -> list[tuple[int, int]]:
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


def _kind_picks(slots_of: Sequence[int], slot_shift: Sequence[int], copies: Sequence[int]) -> list[list[int]]:
    """picks[n] = the keys of every way to take n cards of one kind (its cards and copies)."""
    if len(slots_of) == 1:  # the usual kind: one card, perhaps with its twin
        step = 1 << slot_shift[slots_of[0]]
        return [[n * step] for n in range(copies[slots_of[0]] + 1)]
    picks: list[list[int]] = [[0]]
    for i in slots_of:
        step, count = 1 << slot_shift[i], copies[i]
        grown: list[list[int]] = [[] for _ in range(len(picks) + count)]
        for n, keys in enumerate(picks):
            for extra in range(count + 1):
                grown[n + extra] += [key + extra * step for key in keys]
        picks = grown
    return picks


class Layout:
    """Where each of a table's distinct cards (slots) and kinds sits in a key, and what is worked
    out from that alone (each kind's picks, spelling a key's cards, weighing a vector): the same
    for every card played on the table unless rank-matching splits a kind, so the listings of
    a hand's cards on one table share it."""

    def __init__(self, slots: list[Card], copies: list[int], slot_kind: list[int], kinds: int) -> None:
        self.slots, self.copies, self.slot_kind = slots, copies, slot_kind
        self.total = sum(copies)
        members: list[list[int]] = [[] for _ in range(kinds)]
        for i, k in enumerate(slot_kind):
            members[k].append(i)
        self.members = members  # the slots of each kind, in card order
        self.packing = Packing([sum(copies[i] for i in slots_of) for slots_of in members])
        # Room for any kind vector's index, so keys never need re-spelling when the search grows.
        self.index_bits = prod(cap + 1 for cap in self.packing.caps).bit_length()
        self.width = max(1, max(copies, default=1).bit_length())
        top = len(slots) - 1
        self.slot_shift = slot_shift = [self.width * (top - i) + self.index_bits for i in range(len(slots))]
        # Worked out per kind when first needed: a screen's first captures touch a few kinds.
        self.picks: _Memo[list[list[int]]] = _Memo(lambda k: _kind_picks(members[k], slot_shift, copies))
        self.kind_slots = [[(i, slot_shift[i]) for i in slots_of] for slots_of in members]
        self.group_kinds: dict[int, list[tuple[int, int]]] = {}
        self.pickers: list[tuple[int, int, _Memo[list[int]]]] | None = None
        self.halves: tuple[_Memo[tuple[Card, ...]], int, _Memo[tuple[Card, ...]], int] | None = None
        self.weighers: list[tuple[int, int, dict[int, int]]] | None = None
        self.kind_of_card: dict[Card, int] | None = None

    def kind_of(self, card: Card) -> int:
        found = self.kind_of_card
        if found is None:
            found = self.kind_of_card = dict(zip(self.slots, self.slot_kind, strict=True))
        return found[card]

    def group_kinds_of(self, group: int) -> list[tuple[int, int]]:
        """(kind, how many) for each kind a packed group or vector takes."""
        found = self.group_kinds.get(group)
        if found is None:
            found = [(k, n) for k, n in enumerate(self.packing.counts(group)) if n]
            if len(self.group_kinds) < 4096:
                self.group_kinds[group] = found
        return found

    def alone_mask(self, alone: Card | None) -> int:
        if alone is None or alone not in self.slots:
            return 0
        return ((1 << self.width) - 1) << self.slot_shift[self.slots.index(alone)]

    def weigh_slowly(self, vector: int) -> int:
        ways = 1
        for k, n in self.group_kinds_of(vector):
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

    def pickers_of_runs(self) -> list[tuple[int, int, _Memo[list[int]]]]:
        pickers = self.pickers
        if pickers is None:
            pickers = []
            # The closures hold what they read, not the layout: a layout the cache lets go of
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

    def spelling(self) -> tuple[_Memo[tuple[Card, ...]], int, _Memo[tuple[Card, ...]], int]:
        """A key's cards as two halves, each looked up (and worked out when first met): the
        captures of a table share a few thousand halves."""
        spelling = self.halves
        if spelling is None or len(spelling[0]) + len(spelling[2]) > _SPELL_HALVES:
            width, slots = self.width, self.slots
            split = len(slots) // 2
            field = (1 << width) - 1

            def cards_of(bits: int, end: int) -> tuple[Card, ...]:
                # Field by field from the lowest set bit (the half's last card): a capture has a
                # few cards, a half of a 30-card table fifteen fields.
                cards: tuple[Card, ...] = ()
                while bits:
                    place = ((bits & -bits).bit_length() - 1) // width
                    cards = (slots[end - 1 - place],) * ((bits >> (width * place)) & field) + cards
                    bits &= ~(field << (width * place))
                return cards

            spelling = self.halves = (
                _Memo(lambda bits: cards_of(bits, split)), width * (len(slots) - split) + self.index_bits,
                _Memo(lambda bits: cards_of(bits, len(slots))), (1 << (width * (len(slots) - split))) - 1)
        return spelling


_LAYOUTS = 8  # tables whose layouts are kept (a screen asks about one table at a time)
_layouts: OrderedDict[tuple[object, ...], Layout] = OrderedDict()
_layouts_lock = Lock()


def shared_layout(places: tuple[object, ...] | None, slots: list[Card], copies: list[int], slot_kind: list[int],
            kinds: int) -> Layout:
    if places is None:
        return Layout(slots, copies, slot_kind, kinds)
    key = (places, tuple(slot_kind))
    with _layouts_lock:
        found = _layouts.get(key)
        if found is not None:
            _layouts.move_to_end(key)
            return found
    found = Layout(slots, copies, slot_kind, kinds)
    with _layouts_lock:
        _layouts[key] = found
        while len(_layouts) > _LAYOUTS:
            _layouts.popitem(last=False)
    return found
