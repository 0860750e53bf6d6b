"""The listing API: ``legal_captures``, ``count_captures``, ``maximal_captures`` and the sweep checks."""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Iterator, Sequence
from threading import Lock
from typing import Literal, overload

from scorekeeper.cards import Card
from scorekeeper.engine.core.replay import (
    collector_paused as collector_paused,  # the old home's name
)
from scorekeeper.engine.fishing.claims import find_grouping
from scorekeeper.engine.fishing.listing import Capture, Listing, table_groups
from scorekeeper.engine.fishing.pack import FRENCH_ORDER, PLACE
from scorekeeper.engine.fishing.packing import Packing, shift_or
from scorekeeper.engine.fishing.schemes import ValueScheme, capture_values, card_sort_key
from scorekeeper.engine.fishing.search import solve_kinds

_CACHE_SIZE = 32  # listings kept: every card of the pack on two tables (15 listings per table)
_CACHE_VECTORS = 200_000  # and no more kind vectors than this in all (~200 bytes each)
_cache: OrderedDict[tuple[object, ...], Listing] = OrderedDict()
_cache_lock = Lock()


def _listing_of(played: Card, table: Sequence[Card], scheme: ValueScheme, store: bool = True) -> Listing:
    """The listing of ``played`` on ``table``. The played card matters only through its values and
    (with rank-match) its rank, so e.g. 7♣ and 7♥ share one. The last few are kept: a screen
    asks about every card of a hand on one table, then about one card's captures. A new listing
    made with ``store`` false is not kept (a sweep over the whole pack would push out the
    screens' listings, and freeing a big one it pushed out cost more than its own search)."""
    # The table goes into the key as card places (ints hash fast; cards do not, and the cache
    # hashes its keys again whenever it is walked).
    ordered: Sequence[Card] | None = None
    try:
        places: tuple[object, ...] = tuple(sorted([PLACE[card.rank][card.suit] for card in table]))
    except KeyError:  # not a French card
        places = ordered = tuple(sorted(table, key=card_sort_key))
    values = capture_values(played, scheme)
    key = (scheme, played.rank if scheme.rank_match else None, values, places)
    with _cache_lock:
        found = _cache.get(key)
        if found is not None:
            _cache.move_to_end(key)
            return found
    if ordered is None:
        ordered = [FRENCH_ORDER[place] for place in places if isinstance(place, int)]
    found = Listing(played, values, ordered, scheme, places)
    if not store:
        return found
    with _cache_lock:
        _cache[key] = found
        # Listings grow after they are stored, so the weight is checked on every new one.
        weight = sum(len(listing.vectors) for listing in _cache.values())
        while len(_cache) > 1 and (len(_cache) > _CACHE_SIZE or weight > _CACHE_VECTORS):
            weight -= len(_cache.popitem(last=False)[1].vectors)
    return found


class Captures(Sequence["Capture"]):
    """The legal captures of one played card, as :func:`legal_captures` lists them: a read-only
    sequence of ``(cards, grouping)`` pairs in the documented order.

    A crowded table has tens of thousands of captures and a caller reads few of them, so the
    listing is kept as one int per capture and a pair is spelled out when it is read (by index,
    slice or iteration; a slice is a list). Equal to a list or tuple of the same pairs; not
    hashable, as a list is not."""

    __slots__ = ("_listing", "_keys")
    _BATCH = 512  # pairs spelled at once while iterating

    def __init__(self, listing: Listing | None, keys: list[int]) -> None:
        self._listing = listing
        self._keys = keys

    def __len__(self) -> int:
        return len(self._keys)

    @overload
    def __getitem__(self, index: int) -> Capture: ...
    @overload
    def __getitem__(self, index: slice) -> list[Capture]: ...

    def __getitem__(self, index: int | slice) -> Capture | list[Capture]:
        if isinstance(index, slice):
            keys = self._keys[index]
            return self._listing.spelled(keys) if self._listing is not None and keys else []
        key = self._keys[index]  # IndexError as a list gives it
        assert self._listing is not None
        return self._listing.spelled((key,))[0]

    def __iter__(self) -> Iterator[Capture]:
        keys, listing, step = self._keys, self._listing, self._BATCH
        if listing is None:
            return
        for start in range(0, len(keys), step):
            yield from listing.spelled(keys[start:start + step])

    def taken(self) -> list[tuple[Card, ...]]:
        """The cards of every capture, without their groupings (what a hint needs)."""
        return self._listing.taken(self._keys) if self._listing is not None else []

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Captures) and other._listing is self._listing:
            return other._keys == self._keys
        if not isinstance(other, (list, tuple, Captures)):
            return NotImplemented
        return len(other) == len(self) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Captures({list(self)!r})"


_NONE = Captures(None, [])


def legal_captures(played: Card, table: Sequence[Card], scheme: ValueScheme, *,
                   limit: int | None = None, alone: Card | None = None, cache: bool = True) -> Captures:
    """Every distinct non-empty legal capture of ``played`` from ``table``, with a grouping each,
    smallest first, then by card (the order of the module docstring), as a :class:`Captures`
    sequence (each pair made when read).

    A capture is a multiset: with two 5♣ on the table, "one 5♣" is listed once. The count can
    run to tens of thousands on a crowded table, so a screen should pass ``limit`` (the first
    ``limit`` captures in that order; the cost then grows with the captures returned, not with
    all of them) and ask :func:`count_captures` for the total. ``alone`` leaves out every
    capture holding that card together with other cards (MULLE-OPT-MULLE-ALONE: the played
    card's twin may only be taken on its own). ``cache=False``: a listing not already kept is
    made for this call alone (for a sweep over many cards, which would push out the listings a
    screen keeps asking about).
    """
    if limit is not None and limit < 0:
        raise ValueError(f"limit must be at least 0, not {limit}")
    if not table or limit == 0:
        return _NONE
    listing = _listing_of(played, table, scheme, cache)
    return Captures(listing, listing.keys(alone=alone, limit=limit))


def count_captures(played: Card, table: Sequence[Card], scheme: ValueScheme, *,
                   alone: Card | None = None, at_most: int | None = None) -> int:
    """How many captures :func:`legal_captures` would list (same ``alone``), without listing them.

    Captures are counted a kind vector at a time (a product), so millions cost no more than
    thousands; but a 30-card table can have half a million kind vectors. With ``at_most`` the
    count stops, smallest captures first, once it reaches ``at_most`` and returns ``at_most``
    ("at least that many"), which keeps a crowded table as cheap as the listing's ``limit``."""
    if at_most is not None and at_most < 0:
        raise ValueError(f"at_most must be at least 0, not {at_most}")
    if not table:
        return 0
    return _listing_of(played, table, scheme).count(alone, at_most)


def maximal_captures(played: Card, table: Sequence[Card], scheme: ValueScheme,
                     by: Literal["inclusion", "count"] = "inclusion") -> list[Capture]:
    """The captures of ``played`` not strictly inside another legal capture of it (KASINO-MIS-2),
    or with ``by="count"`` the ones with the most cards (KASINO-OPT-MISAR-MAXCOUNT); listing order."""
    if not table:
        return []
    listing = _listing_of(played, table, scheme)
    return listing.spelled(listing.keys(keep=listing.maximal(by)))


def can_capture(played: Card, table: Sequence[Card], scheme: ValueScheme) -> bool:
    """Whether ``played`` can take anything at all (a single valid group suffices)."""
    if not table:
        return False
    counts = Counter(table)
    cards = sorted(counts, key=card_sort_key)
    packing = Packing([counts[c] for c in cards])
    return any(any(table_groups(played, cards, packing, v, scheme)) for v in capture_values(played, scheme))


def is_sweep_value(table: Sequence[Card], v: int, scheme: ValueScheme) -> bool:
    """Whether the whole table splits into groups that each make ``v`` (value matching only)."""
    if not table or not 0 < v <= scheme.max_value:
        return False
    by_value = ValueScheme(name=scheme.name, rank_match=False, max_value=scheme.max_value,
                           ace_played=(v,), ace_table=scheme.ace_table, lillan_played=(v,),
                           lillan_table=scheme.lillan_table, storan_played=(v,),
                           storan_table=scheme.storan_table)
    return solve_kinds(Card("A", "S"), table, by_value, v) is not None


def sweep_values(table: Sequence[Card], scheme: ValueScheme) -> frozenset[int]:
    """Every v in 1..max for which the table could be swept by value (KASINO-MIS-4 announcements).

    Asked after every play of a misar game. Two conditions every sweep value meets are checked
    for all values at once first: each card can count no more than v, and some choice of the
    cards' values totals a multiple of v. Only the values left are searched (``is_sweep_value``),
    a few of the sixteen: 0.94 -> 0.07 ms a table, a misar game's replay 0.18 times as long
    (bench/README.md)."""
    if not table:
        return frozenset()
    totals = 1  # bit t: some choice of the cards' values totals t
    least = 1  # no group of v holds a card that counts more than v
    for card in table:
        values = scheme.table_values(card)
        least = max(least, min(values))
        totals = shift_or(totals, values)
    return frozenset(v for v in range(least, scheme.max_value + 1)
                     if totals & _multiples(v, totals.bit_length()) and is_sweep_value(table, v, scheme))


def _multiples(v: int, below: int) -> int:
    """Bits v, 2v, … below ``below``."""
    return sum(1 << t for t in range(v, below, v))


def can_sweep(played: Card, table: Sequence[Card], scheme: ValueScheme) -> bool:
    """Whether ``played`` could take the whole table (KASINO-MIS-1's canSweep)."""
    return bool(table) and find_grouping(played, table, scheme) is not None
