"""The capture solver shared by the fishing games (Mulle, Kasino): may a card take these cards?

Public API (everything a game engine needs; cards are :class:`scorekeeper.cards.Card`):

``ValueScheme``
    How cards count. ``played_values(card)`` / ``table_values(card)`` give the values a card may
    take as the played card / as a table card; ``rank_match`` allows a single table card of the
    played card's rank whatever the value (MULLE-CAP-3(b)); ``max_value`` caps every sum (16).
    Ready-made: ``MULLE_SCHEME`` (rank-match on), ``mulle_scheme(strict_value)``,
    ``KASINO_SCHEME`` (standard), ``kasino_scheme(variant)`` with variant ``"standard"``,
    ``"fixed"`` (KASINO-VAR-FIXED) or ``"handtable"`` (KASINO-VAR-HANDTABLE).

``Grouping``
    Why a capture is legal: the played card's single ``value`` and the partition ``groups`` of the
    taken cards (``counted`` = the value each card counted for, ``rank_matched`` = per group,
    True for a rank-match single). ``describe()`` → ``"3♥+5♠ = 8, 8♦"``;
    ``summary(played)`` → ``"8♣ as 8 takes 3♥+5♠ = 8, 8♦"``; ``to_json()``.

``find_grouping(played, taken, scheme) -> Grouping | None``
    The capture check (MULLE-CAP-4 / KASINO-CAP-4). ``taken`` is a multiset (copies of a card may
    repeat). ``None`` = illegal; an empty ``taken`` is a trail and also gives ``None`` (callers
    handle trails themselves). It does NOT check that the cards lie on the table.

``explain_failure(played, taken, scheme) -> str``
    Plain arithmetic saying why ``find_grouping`` refused (for the dispute desk).

``legal_captures(played, table, scheme, *, limit=None, alone=None) -> list[tuple[tuple[Card, ...], Grouping]]``
    Every distinct legal capture (as a sorted multiset of table cards; copies are
    interchangeable, so each multiset appears once), each with one grouping. Sorted by size, then
    by card (``card_sort_key``, compared card by card). Trails are not listed. ``limit`` = only
    the first ``limit`` in that order, at a cost that follows what is returned: a crowded table
    can have tens of thousands, a 30-card one millions. ``alone`` = a card that may only be taken
    on its own (MULLE-OPT-MULLE-ALONE's twin): captures holding it with others are left out.

``count_captures(played, table, scheme, *, alone=None, at_most=None) -> int``
    How many ``legal_captures`` would list, without listing them; ``at_most`` stops the count
    there (returning ``at_most``: "at least that many"), for tables too crowded to count fully.

``maximal_captures(played, table, scheme, by="inclusion") -> list[...]``
    The captures no other legal capture of this card strictly contains (KASINO-MIS-2), or with
    ``by="count"`` those with the most cards (KASINO-OPT-MISAR-MAXCOUNT). Empty if the card can
    take nothing.

``can_capture(played, table, scheme) -> bool``; ``is_sweep_value(table, v, scheme) -> bool``;
``sweep_values(table, scheme) -> frozenset[int]`` (every v for which the whole table is a legal
capture by value, KASINO-MIS-4); ``can_sweep(played, table, scheme) -> bool``.

``legal_with_mixed_values(played, taken, scheme) -> bool``: legal if the played card could count
a different value per group. True on a refused capture means the one-value rule (CAP-1) refused it.

``card_sort_key(card)`` orders cards by rank value then suit, the order used in every result.

The check works on *kinds*: cards with the same value set (and the same rank-match standing)
are interchangeable for legality, so the search runs over a multiset of a dozen or so kinds,
packed into one int, memoised on the remaining multiset. Every group sums to at most 16 and
every card counts at least 1, so groups are small and the search stays shallow even on a
30-card table. What depends only on the scheme and the played card (each card's field, every
group making each value) is built once per scheme (``_claim_tables``). Listing works on kinds too: it finds the legal *kind vectors* (how many cards of
each kind) as unions of valid groups (``_unions``), smallest first and only as far as the
caller needs, then spells each one out as the captures that pick that many cards of each kind;
groupings are worked out when first read (see ``_Listing``).
"""

from __future__ import annotations

import gc
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from math import prod
from threading import Lock
from typing import Any, Literal, TypeVar

from scorekeeper.cards import Card
from scorekeeper.engine.messages import Join, M, Msg

__all__ = [
    "KASINO_SCHEME", "MULLE_SCHEME", "Grouping", "ValueScheme", "can_capture", "can_sweep",
    "card_sort_key", "count_captures", "explain_failure", "face_value", "find_grouping", "is_sweep_value",
    "kasino_scheme", "legal_captures", "legal_with_mixed_values", "maximal_captures", "mulle_scheme", "sweep_values",
]

_FACE = {"A": 1, "J": 11, "Q": 12, "K": 13}
_SUIT_ORDER = {"S": 0, "H": 1, "D": 2, "C": 3}


def face_value(card: Card) -> int:
    """The plain value: A 1, 2–10 face, J 11, Q 12, K 13."""
    return _FACE.get(card.rank) or int(card.rank)


def card_sort_key(card: Card) -> tuple[int, int]:
    return face_value(card), _SUIT_ORDER.get(card.suit, 9)


def _is_ace(card: Card) -> bool:
    return card.rank == "A"


def _is_lillan(card: Card) -> bool:
    return card.rank == "2" and card.suit == "S"


def _is_storan(card: Card) -> bool:
    return card.rank == "10" and card.suit == "D"


@dataclass(frozen=True, slots=True)
class ValueScheme:
    """How cards take values. The three dual cards (Aces, 2♠, 10♦) are configurable per side."""

    name: str = "standard"
    rank_match: bool = False
    max_value: int = 16
    ace_played: tuple[int, ...] = (1, 14)
    ace_table: tuple[int, ...] = (1, 14)
    lillan_played: tuple[int, ...] = (2, 15)
    lillan_table: tuple[int, ...] = (2, 15)
    storan_played: tuple[int, ...] = (10, 16)
    storan_table: tuple[int, ...] = (10, 16)

    def played_values(self, card: Card) -> tuple[int, ...]:
        if _is_ace(card):
            return self.ace_played
        if _is_lillan(card):
            return self.lillan_played
        if _is_storan(card):
            return self.storan_played
        return (face_value(card),)

    def table_values(self, card: Card) -> tuple[int, ...]:
        if _is_ace(card):
            return self.ace_table
        if _is_lillan(card):
            return self.lillan_table
        if _is_storan(card):
            return self.storan_table
        return (face_value(card),)


MULLE_SCHEME = ValueScheme(name="mulle", rank_match=True)
KASINO_SCHEME = ValueScheme(name="standard")

KasinoVariant = Literal["standard", "fixed", "handtable"]


# One object per scheme: the claim check keeps its tables per scheme object.
_MULLE_STRICT = ValueScheme(name="mulle-strict", rank_match=False)
_KASINO_FIXED = ValueScheme(name="fixed", lillan_played=(2,), lillan_table=(2,), storan_played=(10,),
                            storan_table=(10,))
_KASINO_HANDTABLE = ValueScheme(name="handtable", ace_played=(14,), ace_table=(1,), lillan_played=(15,),
                                lillan_table=(2,), storan_played=(16,), storan_table=(10,))


def mulle_scheme(strict_value: bool = False) -> ValueScheme:
    """MULLE-COMP-3; ``strict_value`` = MULLE-OPT-STRICT-VALUE (no rank-match beyond value)."""
    return _MULLE_STRICT if strict_value else MULLE_SCHEME


def kasino_scheme(variant: str = "standard") -> ValueScheme:
    """KASINO-COMP-3 and the value variants of kasino.md §4.3."""
    if variant == "standard":
        return KASINO_SCHEME
    if variant == "fixed":
        return _KASINO_FIXED
    if variant == "handtable":
        return _KASINO_HANDTABLE
    raise ValueError(f"unknown Kasino value scheme {variant!r} (standard, fixed, handtable)")


# --- Groupings -----------------------------------------------------------------------------------


_Parts = tuple[tuple[tuple[Card, ...], ...], tuple[tuple[int, ...], ...], tuple[bool, ...]]


class Grouping:
    """A partition proving a capture legal: every group makes ``value`` (or is a rank-match).

    Immutable, compared and hashed by its four fields (as a frozen dataclass would be). A listing
    hands out groupings that work their groups out on first use, because the screens read only a
    few of the thousands a crowded table has; that is invisible to callers.
    """

    __slots__ = ("_value", "_parts", "_listing", "_key", "_texts")

    def __init__(self, value: int, groups: tuple[tuple[Card, ...], ...],
                 counted: tuple[tuple[int, ...], ...] = (), rank_matched: tuple[bool, ...] = ()) -> None:
        self._value = value
        self._parts: _Parts | None = (groups, counted, rank_matched)
        self._listing: _Listing | _Claim | None = None
        self._key = 0
        self._texts: tuple[str, ...] | None = None

    @classmethod
    def _deferred(cls, value: int, listing: _Listing | _Claim, key: int) -> Grouping:
        """The grouping of the capture ``key`` of ``listing`` (or of a claim found, ``key`` its
        value), worked out on first use."""
        made = cls.__new__(cls)
        made._value = value
        made._parts = None
        made._listing = listing
        made._key = key
        made._texts = None
        return made

    def _resolve(self) -> _Parts:
        parts = self._parts
        if parts is None:
            listing = self._listing
            if listing is None:  # another thread has just resolved it: _parts is set first
                assert self._parts is not None
                return self._parts
            parts, self._texts = listing.parts(self._key)
            self._parts = parts
            self._listing = None
        return parts

    @property
    def value(self) -> int:
        return self._value

    @property
    def groups(self) -> tuple[tuple[Card, ...], ...]:
        return self._resolve()[0]

    @property
    def counted(self) -> tuple[tuple[int, ...], ...]:
        return self._resolve()[1]

    @property
    def rank_matched(self) -> tuple[bool, ...]:
        return self._resolve()[2]

    def _fields(self) -> tuple[int, tuple[tuple[Card, ...], ...], tuple[tuple[int, ...], ...], tuple[bool, ...]]:
        return (self._value, *self._resolve())

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Grouping)
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        groups, counted, ranked = self._resolve()
        return f"Grouping(value={self._value!r}, groups={groups!r}, counted={counted!r}, rank_matched={ranked!r})"

    def __reduce__(self) -> tuple[type[Grouping], tuple[int, tuple[tuple[Card, ...], ...],
                                                        tuple[tuple[int, ...], ...], tuple[bool, ...]]]:
        return Grouping, self._fields()

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for group in self.groups for card in group)

    def describe(self) -> Msg:
        groups, counted, ranked = self._resolve()
        if self._texts is not None:  # a listing's groups come with their text
            return Msg("%(groups)s", {"groups": Join(self._texts, ", ")})
        return Msg("%(groups)s", {"groups": Join(tuple(
            _group_text(group, counted[i] if i < len(counted) else (0,) * len(group),
                        i < len(ranked) and ranked[i], self._value)
            for i, group in enumerate(groups)), ", ")})

    def summary(self, played: Card) -> Msg:
        return M("%(played)s as %(value)s takes %(groups)s", played=played, value=self.value,
                 groups=self.describe())

    def to_json(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "groups": [[str(card) for card in group] for group in self.groups],
            "describe": self.describe(),
        }


def _counted(card: Card, x: int) -> Card | Msg:
    return card if x in (0, face_value(card)) else Msg("%(card)s(%(value)s)", {"card": card, "value": x})


def _group_text(group: tuple[Card, ...], values: tuple[int, ...], ranked: bool, value: int) -> Msg:
    """One group as a player would say it: "3♥+5♠ = 8", "A♠(14)", "2♥ (same rank)"."""
    if ranked:
        return M("%(card)s (same rank)", card=group[0])
    if len(group) == 1:
        return Msg("%(card)s", {"card": _counted(group[0], values[0])})
    parts = tuple(_counted(card, x) for card, x in zip(group, values, strict=True))
    return Msg("%(cards)s = %(value)s", {"cards": Join(parts, "+"), "value": value})


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
                           cap: int) -> list[list[tuple[int, int]]]:
    """``_groups_by_first`` with each group's size: (size, packed). Partial sums above v are
    dropped, so the walk never grows a group past v."""
    limit = (1 << (min(v, cap) + 1)) - 1
    target = 1 << v
    n = len(values)
    caps = packing.caps
    width = packing.width
    sized: list[list[tuple[int, int]]] = [[] for _ in range(n)]

    def walk(j: int, bits: int, packed: int, size: int, out: list[tuple[int, int]]) -> None:
        if bits & target:
            out.append((size, packed))
        for k in range(j, n):
            step = 1 << (width * k)
            b = bits
            p = packed
            for extra in range(1, caps[k] + 1):
                b = _bits_add(b, values[k], limit)
                if not b:
                    break
                p += step
                walk(k + 1, b, p, size + extra, out)

    for first in range(n):
        b = 1
        p = 0
        for count in range(1, caps[first] + 1):
            b = _bits_add(b, values[first], limit)
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


def find_grouping(played: Card, taken: Sequence[Card], scheme: ValueScheme) -> Grouping | None:
    """A grouping proving ``played`` may take exactly ``taken`` (a multiset), or None if it may not.

    The grouping's groups are worked out when first read: a replay only needs the verdict."""
    if not taken:
        return None
    if len(taken) == 1:
        return _single(played, taken[0], scheme)
    # Cards hash slowly (a generated __hash__ and __eq__), so the tables go by rank, then suit.
    tables = _claim_tables(scheme).get(played.rank, _NONE).get(played.suit)
    if tables is None or len(taken) > _CLAIM_MOST:  # not a French card, or no real claim: the slow path
        return _find_slowly(played, taken, scheme)
    units, by_value = tables
    state = 0
    try:
        for card in taken:
            state += units[card.rank][card.suit]
    except KeyError:
        return _find_slowly(played, taken, scheme)
    for v, by_top in by_value:
        solution = _cover(state, by_top)
        if solution is not None:
            return Grouping._deferred(v, _Claim(taken, scheme, units, solution), v)
    return None


def _find_slowly(played: Card, taken: Sequence[Card], scheme: ValueScheme) -> Grouping | None:
    for v in _played_values(played, scheme):
        found = _solve_kinds(played, taken, scheme, v)
        if found is not None:
            return found
    return None


# --- The claim check's tables ------------------------------------------------------------------
#
# A claim is checked on its counts of each *kind* (the values a card may take, and whether it may
# be taken by rank-match), packed into one int: one _FIELD-bit field per kind of the whole pack,
# the biggest kind in the top field, so the kind to cover next is read off the int's length.
# Everything that depends only on the scheme, the played card and the value — which field each
# card adds to, and every group (multiset of kinds) making the value, filed by its biggest kind —
# is built once per scheme and played rank and kept.

_FIELD = 7  # bits per kind: a count of up to 63 and a guard bit (as _Packing lays out caps of 31)
_CLAIM_MOST = (1 << (_FIELD - 1)) - 1  # bigger claims (never a real table) take the slow path
_Units = dict[str, dict[str, int]]  # rank, suit: the card's unit in the packed counts
_ClaimTables = tuple[_Units, list[tuple[int, list[list[int]]]]]
_claim_cache: dict[int, tuple[ValueScheme, dict[str, dict[str, _ClaimTables]]]] = {}
_claim_by_value: dict[ValueScheme, dict[str, dict[str, _ClaimTables]]] = {}
_NONE: dict[str, Any] = {}
_claim_lock = Lock()


def _claim_tables(scheme: ValueScheme) -> dict[str, dict[str, _ClaimTables]]:
    """Per played card: each card's unit in the packed counts, and per value the groups by top
    field. Keyed by the scheme's identity (hashing a scheme costs more than the check)."""
    found = _claim_cache.get(id(scheme))
    if found is not None and found[0] is scheme:
        return found[1]
    with _claim_lock:
        made = _claim_by_value.get(scheme)  # an equal scheme made by another call
        if made is None:
            made = {}
            shared: dict[tuple[object, ...], _ClaimTables] = {}
            for rank in _FRENCH_RANKS:
                for suit in _SUIT_ORDER:
                    played = Card(rank, suit)
                    values = _played_values(played, scheme)
                    key = (values, rank if scheme.rank_match else None)
                    if key not in shared:
                        shared[key] = _build_claim_tables(scheme, played, values)
                    made.setdefault(rank, {})[suit] = shared[key]
            if len(_claim_by_value) >= 32:
                _claim_by_value.clear()
            _claim_by_value[scheme] = made
        if len(_claim_cache) >= 256:  # scheme objects made per call: keep the cache small
            _claim_cache.clear()
        _claim_cache[id(scheme)] = (scheme, made)
    return made


_FRENCH_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_FRENCH_ORDER = sorted((Card(rank, suit) for rank in _FRENCH_RANKS for suit in _SUIT_ORDER), key=card_sort_key)
_PLACE: dict[str, dict[str, int]] = {}  # rank, suit: the card's place in _FRENCH_ORDER
for _place, _card in enumerate(_FRENCH_ORDER):
    _PLACE.setdefault(_card.rank, {})[_card.suit] = _place


def _build_claim_tables(scheme: ValueScheme, played: Card, values: tuple[int, ...]) -> _ClaimTables:
    cards = [Card(rank, suit) for rank in _FRENCH_RANKS for suit in _SUIT_ORDER]
    kind_of = {card: (scheme.table_values(card), scheme.rank_match and card.rank == played.rank)
               for card in cards}
    # _kinds_of's order (biggest first), so the search meets the groups as the slow path does.
    kinds = sorted(set(kind_of.values()), key=lambda k: (-min(k[0]), -max(k[0]), k[1]))
    top = len(kinds) - 1
    units: _Units = {}
    for card, kind in kind_of.items():
        units.setdefault(card.rank, {})[card.suit] = 1 << (_FIELD * (top - kinds.index(kind)))
    packing = _Packing([31] * len(kinds))  # no group holds more than 16 cards
    assert packing.width == _FIELD
    by_value: list[tuple[int, list[list[int]]]] = []
    for v in values:
        by_first = _kind_groups(kinds, packing, v, scheme.max_value)
        # _kind_groups numbers kinds biggest first from the bottom field; here the biggest is on top.
        by_top = [[_flip(group, top) for group in by_first[top - f]] for f in range(top + 1)]
        by_value.append((v, by_top))
    return units, by_value


def _flip(packed: int, top: int) -> int:
    """The fields of ``packed`` in reverse order (field i to field top - i)."""
    mask = (1 << _FIELD) - 1
    out = 0
    for i in range(top + 1):
        out |= ((packed >> (_FIELD * i)) & mask) << (_FIELD * (top - i))
    return out


_GUARD = sum(1 << (_FIELD * (i + 1) - 1) for i in range(40))


def _cover(start: int, by_top: Sequence[Sequence[int]]) -> list[int] | None:
    """Groups (packed, in the order chosen) that exactly cover ``start``, or None: depth first,
    the biggest kind left covered first, memoised on the states that failed."""
    chosen: list[int] = []
    if _solve(start, by_top, set(), chosen):
        chosen.reverse()
        return chosen
    return None


def _solve(state: int, by_top: Sequence[Sequence[int]], failed: set[int], chosen: list[int]) -> bool:
    # A module function, not a closure: a recursive closure is a reference cycle per call.
    guard = _GUARD
    for group in by_top[(state.bit_length() - 1) // _FIELD]:
        rest = (state | guard) - group
        if rest & guard == guard:
            rest ^= guard
            if not rest:
                chosen.append(group)
                return True
            if rest not in failed:
                if _solve(rest, by_top, failed, chosen):
                    chosen.append(group)
                    return True
                failed.add(rest)
    return False


class _Claim:
    """What a claim's grouping is worked out from, when first read (see Grouping._resolve)."""

    __slots__ = ("taken", "scheme", "units", "solution")

    def __init__(self, taken: Sequence[Card], scheme: ValueScheme, units: _Units,
                 solution: list[int]) -> None:
        self.taken, self.scheme, self.units, self.solution = taken, scheme, units, solution

    def parts(self, value: int) -> tuple[_Parts, None]:
        """The taken cards dealt into the groups found, as the slow path deals them (each kind's
        cards in card order, the last one first) and shown as ``_grouping_parts`` has them."""
        info = _card_info(self.scheme)
        units = self.units
        # (order, values, card) per card, in card order.
        rows = sorted([(*info[card.rank][card.suit], card) for card in self.taken], key=_first)
        pools: dict[int, list[tuple[int, tuple[int, ...], Card]]] = {}
        for row in rows:
            card = row[2]
            pools.setdefault(units[card.rank][card.suit], []).append(row)
        made: list[tuple[tuple[int, list[int]], tuple[Card, ...], tuple[int, ...], bool]] = []
        for packed in self.solution:
            group: list[tuple[int, tuple[int, ...], Card]] = []
            split = _split.get(packed)
            if split is None:
                split = _split[packed] = _split_group(packed)
            for unit, count in split:
                pool = pools[unit]
                for _ in range(count):
                    group.append(pool.pop())
            group.sort(key=_first)
            options = tuple([row[1] for row in group])
            if len(group) == 1 and value not in options[0]:
                counted, ranked = options[0][:1], True
            else:
                found = _assigned.get((value, options))
                if found is None:
                    found = _assigned[(value, options)] = _assign_values(options, value)
                counted, ranked = found, False
            made.append(((-len(group), [row[0] for row in group]), tuple([row[2] for row in group]),
                         counted, ranked))
        made.sort(key=_first)
        return (tuple([m[1] for m in made]), tuple([m[2] for m in made]), tuple([m[3] for m in made])), None


# A packed group as (unit, count) per kind, biggest kind first; groups come from the claim
# tables, so there are a few thousand at most.
_split: dict[int, tuple[tuple[int, int], ...]] = {}


def _split_group(packed: int) -> tuple[tuple[int, int], ...]:
    mask = (1 << _FIELD) - 1
    fields = range((packed.bit_length() + _FIELD - 1) // _FIELD - 1, -1, -1)
    return tuple((1 << (_FIELD * f), (packed >> (_FIELD * f)) & mask) for f in fields
                 if (packed >> (_FIELD * f)) & mask)


def _first(row: tuple[Any, ...]) -> Any:
    return row[0]


_Info = dict[str, dict[str, tuple[int, tuple[int, ...]]]]
_info_cache: dict[int, tuple[ValueScheme, _Info]] = {}


def _card_info(scheme: ValueScheme) -> _Info:
    """Per French card (rank, suit): its place in card order, and its values as a table card."""
    found = _info_cache.get(id(scheme))
    if found is None or found[0] is not scheme:
        info: _Info = {}
        for place, card in enumerate(_FRENCH_ORDER):
            info.setdefault(card.rank, {})[card.suit] = (place, scheme.table_values(card))
        if len(_info_cache) >= 64:
            _info_cache.clear()
        found = _info_cache[id(scheme)] = (scheme, info)
    return found[1]


# The values a group's cards count (``_assign_values``), by value and the cards' value options.
_assigned: dict[tuple[int, tuple[tuple[int, ...], ...]], tuple[int, ...]] = {}


def _single(played: Card, card: Card, scheme: ValueScheme) -> Grouping | None:
    """The common one-card capture, answered without the search (same value order as the search)."""
    table_values = scheme.table_values(card)
    ranked = scheme.rank_match and card.rank == played.rank
    for v in _played_values(played, scheme):
        if v in table_values:
            return Grouping(v, ((card,),), ((v,),), (False,))
        if ranked:
            return Grouping(v, ((card,),), ((table_values[0],),), (True,))
    return None


def legal_with_mixed_values(played: Card, taken: Sequence[Card], scheme: ValueScheme) -> bool:
    """Whether ``taken`` would split into groups if the played card could count a different value
    for each group. Used only to explain a refusal by the one-value rule (MULLE-CAP-1, KASINO-CAP-1)."""
    if not taken:
        return False
    kinds, pools = _kinds_of(played, taken, scheme)
    packing = _Packing([len(pool) for pool in pools])
    values = [k[0] for k in kinds]
    merged: list[list[int]] = [[] for _ in kinds]
    for v in _played_values(played, scheme):
        for i, groups in enumerate(_groups_by_first(values, packing, v, scheme.max_value)):
            merged[i].extend(g for g in groups if g not in merged[i])
    for i, kind in enumerate(kinds):
        if kind[1] and packing.unit(i) not in merged[i]:
            merged[i].append(packing.unit(i))
    return _partition(packing, merged, packing.full) is not None


# --- Explaining a refusal ----------------------------------------------------------------------


def _values_text(values: tuple[int, ...]) -> Join:
    return Join(values, "or")


def _fits_some_group(card: Card, others: Sequence[Card], played: Card, v: int, scheme: ValueScheme) -> bool:
    if scheme.rank_match and card.rank == played.rank:
        return True
    limit = (1 << (min(v, scheme.max_value) + 1)) - 1
    bits = _bits_add(1, scheme.table_values(card), limit)
    for other in others:
        bits |= _bits_add(bits, scheme.table_values(other), limit)
    return bool(bits >> v & 1)


def explain_failure(played: Card, taken: Sequence[Card], scheme: ValueScheme) -> Msg:
    """Why ``played`` cannot take ``taken``, in the arithmetic a player can check at the table."""
    if not taken:
        return M("nothing was taken: that is a trail, not a capture")
    cards = sorted(taken, key=card_sort_key)
    names = Join(tuple(cards))
    hv = _played_values(played, scheme)
    if len(cards) == 1:
        card = cards[0]
        if scheme.rank_match:
            return M("%(played)s counts %(values)s; %(card)s counts %(card_values)s, so it cannot be taken",
                     played=played, values=_values_text(hv), card=card,
                     card_values=_values_text(scheme.table_values(card)))
        return M("%(played)s counts %(values)s; %(card)s counts %(card_values)s, so it cannot be taken "
                 "(matching is by value only)", played=played, values=_values_text(hv), card=card,
                 card_values=_values_text(scheme.table_values(card)))
    reasons: list[Msg] = []
    lo, hi = _total_range(cards, scheme)
    total = f"{lo}" if lo == hi else f"{lo}–{hi}"
    for v in hv:
        loners = [card for i, card in enumerate(cards)
                  if not _fits_some_group(card, cards[:i] + cards[i + 1:], played, v, scheme)]
        if len(loners) == len(cards):
            reason = M("no group of %(cards)s adds up to %(value)s (together they make %(total)s)",
                       cards=names, value=v, total=total)
        elif len(loners) == 1:
            reason = M("%(card)s fits in no group adding up to %(value)s", card=loners[0], value=v)
        elif loners:
            reason = M("%(cards)s fit in no group adding up to %(value)s", cards=Join(tuple(loners), "and"),
                       value=v)
        else:
            reason = M("every card fits some group adding up to %(value)s, but %(cards)s (total %(total)s) "
                       "cannot be split into separate groups of %(value)s at once: a card would have to "
                       "count twice", value=v, cards=names, total=total)
        reasons.append(M("as %(value)s, %(reason)s", value=v, reason=reason) if len(hv) > 1 else reason)
    if len(hv) > 1 and legal_with_mixed_values(played, cards, scheme):
        reasons.append(M("the played card takes one value for the whole capture, so it cannot make "
                         "%(values)s at the same time", values=Join(hv, "and")))
    return M("%(played)s counts %(values)s; %(reasons)s", played=played, values=_values_text(hv),
             reasons=Join(tuple(reasons), "; "))


def _total_range(cards: Sequence[Card], scheme: ValueScheme) -> tuple[int, int]:
    return (sum(min(scheme.table_values(c)) for c in cards), sum(max(scheme.table_values(c)) for c in cards))


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


_CACHE_SIZE = 32  # listings kept: every card of the pack on two tables (15 listings per table)
_CACHE_VECTORS = 200_000  # and no more kind vectors than this in all (~200 bytes each)
_cache: OrderedDict[tuple[object, ...], _Listing] = OrderedDict()
_cache_lock = Lock()


def _listing_of(played: Card, table: Sequence[Card], scheme: ValueScheme) -> _Listing:
    """The listing of ``played`` on ``table``. The played card matters only through its values and
    (with rank-match) its rank, so e.g. 7♣ and 7♥ share one. The last few are kept: a screen
    asks about every card of a hand on one table, then about one card's captures."""
    # The table goes into the key as card places (ints hash fast; cards do not, and the cache
    # hashes its keys again whenever it is walked).
    ordered: Sequence[Card] | None = None
    try:
        places: tuple[object, ...] = tuple(sorted([_PLACE[card.rank][card.suit] for card in table]))
    except KeyError:  # not a French card
        places = ordered = tuple(sorted(table, key=card_sort_key))
    values = _played_values(played, scheme)
    key = (scheme, played.rank if scheme.rank_match else None, values, places)
    with _cache_lock:
        found = _cache.get(key)
        if found is not None:
            _cache.move_to_end(key)
            return found
    if ordered is None:
        ordered = [_FRENCH_ORDER[place] for place in places if isinstance(place, int)]
    found = _Listing(played, values, ordered, scheme)
    with _cache_lock:
        _cache[key] = found
        # Listings grow after they are stored, so the weight is checked on every new one.
        weight = sum(len(listing.vectors) for listing in _cache.values())
        while len(_cache) > 1 and (len(_cache) > _CACHE_SIZE or weight > _CACHE_VECTORS):
            weight -= len(_cache.popitem(last=False)[1].vectors)
    return found


def legal_captures(played: Card, table: Sequence[Card], scheme: ValueScheme, *,
                   limit: int | None = None, alone: Card | None = None) -> list[_Capture]:
    """Every distinct non-empty legal capture of ``played`` from ``table``, with a grouping each,
    smallest first, then by card (the order of the module docstring).

    A capture is a multiset: with two 5♣ on the table, "one 5♣" is listed once. The count can
    run to tens of thousands on a crowded table, so a screen should pass ``limit`` (the first
    ``limit`` captures in that order; the cost then grows with the captures returned, not with
    all of them) and ask :func:`count_captures` for the total. ``alone`` leaves out every
    capture holding that card together with other cards (MULLE-OPT-MULLE-ALONE: the played
    card's twin may only be taken on its own).
    """
    if limit is not None and limit < 0:
        raise ValueError(f"limit must be at least 0, not {limit}")
    if not table or limit == 0:
        return []
    listing = _listing_of(played, table, scheme)
    if limit is not None and limit <= _SMALL_LISTING:
        return [capture for chunk in listing.chunks(alone=alone, limit=limit) for capture in chunk]
    with _collector_paused():
        return [capture for chunk in listing.chunks(alone=alone, limit=limit) for capture in chunk]


_SMALL_LISTING = 1000  # captures asked for below which holding the collector is not worth it


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Hold the cyclic garbage collector while a listing is built: tens of thousands of results
    (three tracked objects each, none in a cycle) would set off its passes over the growing list
    again and again — half the time of a big listing. Another thread that finds it held leaves
    it alone; whoever held it starts it again."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


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
                     by: Literal["inclusion", "count"] = "inclusion") -> list[_Capture]:
    """The captures of ``played`` not strictly inside another legal capture of it (KASINO-MIS-2),
    or with ``by="count"`` the ones with the most cards (KASINO-OPT-MISAR-MAXCOUNT); listing order."""
    if not table:
        return []
    listing = _listing_of(played, table, scheme)
    return list(listing.captures(keep=listing.maximal(by)))


def can_capture(played: Card, table: Sequence[Card], scheme: ValueScheme) -> bool:
    """Whether ``played`` can take anything at all (a single valid group suffices)."""
    if not table:
        return False
    counts = Counter(table)
    cards = sorted(counts, key=card_sort_key)
    packing = _Packing([counts[c] for c in cards])
    return any(any(_table_groups(played, cards, packing, v, scheme)) for v in _played_values(played, scheme))


def is_sweep_value(table: Sequence[Card], v: int, scheme: ValueScheme) -> bool:
    """Whether the whole table splits into groups that each make ``v`` (value matching only)."""
    if not table or not 0 < v <= scheme.max_value:
        return False
    by_value = ValueScheme(name=scheme.name, rank_match=False, max_value=scheme.max_value,
                           ace_played=(v,), ace_table=scheme.ace_table, lillan_played=(v,),
                           lillan_table=scheme.lillan_table, storan_played=(v,),
                           storan_table=scheme.storan_table)
    return _solve_kinds(Card("A", "S"), table, by_value, v) is not None


def sweep_values(table: Sequence[Card], scheme: ValueScheme) -> frozenset[int]:
    """Every v in 1..max for which the table could be swept by value (KASINO-MIS-4 announcements)."""
    return frozenset(v for v in range(1, scheme.max_value + 1) if is_sweep_value(table, v, scheme))


def can_sweep(played: Card, table: Sequence[Card], scheme: ValueScheme) -> bool:
    """Whether ``played`` could take the whole table (KASINO-MIS-1's canSweep)."""
    return bool(table) and find_grouping(played, table, scheme) is not None
