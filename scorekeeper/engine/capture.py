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

``legal_captures(played, table, scheme) -> list[tuple[tuple[Card, ...], Grouping]]``
    Every distinct legal capture (as a sorted multiset of table cards; copies are
    interchangeable, so each multiset appears once), each with one grouping. Sorted by size, then
    by card. Trails are not listed.

``count_captures(played, table, scheme) -> int``
    How many there are, without building groupings (crowded tables can have tens of thousands).

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
30-card table. Listing builds the unions of valid groups slot by slot (see ``_unions``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any, Literal

from scorekeeper.cards import Card

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


def mulle_scheme(strict_value: bool = False) -> ValueScheme:
    """MULLE-COMP-3; ``strict_value`` = MULLE-OPT-STRICT-VALUE (no rank-match beyond value)."""
    return ValueScheme(name="mulle-strict", rank_match=False) if strict_value else MULLE_SCHEME


def kasino_scheme(variant: str = "standard") -> ValueScheme:
    """KASINO-COMP-3 and the value variants of kasino.md §4.3."""
    if variant == "standard":
        return KASINO_SCHEME
    if variant == "fixed":
        return ValueScheme(name="fixed", lillan_played=(2,), lillan_table=(2,),
                           storan_played=(10,), storan_table=(10,))
    if variant == "handtable":
        return ValueScheme(name="handtable", ace_played=(14,), ace_table=(1,), lillan_played=(15,),
                           lillan_table=(2,), storan_played=(16,), storan_table=(10,))
    raise ValueError(f"unknown Kasino value scheme {variant!r} (standard, fixed, handtable)")


# --- Groupings -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Grouping:
    """A partition proving a capture legal: every group makes ``value`` (or is a rank-match)."""

    value: int
    groups: tuple[tuple[Card, ...], ...]
    counted: tuple[tuple[int, ...], ...] = ()
    rank_matched: tuple[bool, ...] = ()

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for group in self.groups for card in group)

    def _group_text(self, index: int) -> str:
        group = self.groups[index]
        values = self.counted[index] if index < len(self.counted) else tuple(0 for _ in group)
        if index < len(self.rank_matched) and self.rank_matched[index]:
            return f"{group[0].pretty()} (same rank)"
        if len(group) == 1:
            card = group[0]
            return card.pretty() if values[0] in (0, face_value(card)) else f"{card.pretty()}({values[0]})"
        parts = [card.pretty() if value in (0, face_value(card)) else f"{card.pretty()}({value})"
                 for card, value in zip(group, values, strict=True)]
        return f"{'+'.join(parts)} = {self.value}"

    def describe(self) -> str:
        return ", ".join(self._group_text(i) for i in range(len(self.groups)))

    def summary(self, played: Card) -> str:
        return f"{played.pretty()} as {self.value} takes {self.describe()}"

    def to_json(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "groups": [[str(card) for card in group] for group in self.groups],
            "describe": self.describe(),
        }


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
    first slot, smallest groups first. Partial sums above v are dropped, so the walk never grows
    a group past v."""
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
    return [[packed for _, packed in sorted(groups, key=lambda sp: sp[0])] for groups in sized]


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


def _solve_kinds(played: Card, taken: Sequence[Card], scheme: ValueScheme, v: int) -> Grouping | None:
    kinds, pools = _kinds_of(played, taken, scheme)
    packing = _Packing([len(pool) for pool in pools])
    values = [k[0] for k in kinds]
    by_first = _groups_by_first(values, packing, v, scheme.max_value)
    for i, (kind, group_list) in enumerate(zip(kinds, by_first, strict=True)):
        single = packing.unit(i)
        if kind[1] and single not in group_list:
            group_list.insert(0, single)
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
    return _make_grouping(v, groups, scheme)


def _make_grouping(v: int, groups: Sequence[Sequence[Card]], scheme: ValueScheme) -> Grouping:
    made: list[tuple[tuple[Card, ...], tuple[int, ...], bool]] = []
    for group in groups:
        cards = tuple(sorted(group, key=card_sort_key))
        if len(cards) == 1 and v not in scheme.table_values(cards[0]):
            made.append((cards, (scheme.table_values(cards[0])[0],), True))
        else:
            made.append((cards, _assign(cards, v, scheme), False))
    made.sort(key=lambda m: (-len(m[0]), [card_sort_key(c) for c in m[0]]))
    return Grouping(v, tuple(m[0] for m in made), tuple(m[1] for m in made), tuple(m[2] for m in made))


def _assign(cards: Sequence[Card], v: int, scheme: ValueScheme) -> tuple[int, ...]:
    """Values for the cards of one sum-group totalling v (the group is known to be valid)."""
    def go(i: int, left: int) -> tuple[int, ...] | None:
        if i == len(cards):
            return () if left == 0 else None
        for value in scheme.table_values(cards[i]):
            if value <= left:
                rest = go(i + 1, left - value)
                if rest is not None:
                    return (value, *rest)
        return None

    found = go(0, v)
    if found is None:  # pragma: no cover - the solver only hands over valid groups
        raise AssertionError(f"no values for {cards} making {v}")
    return found


def _played_values(played: Card, scheme: ValueScheme) -> tuple[int, ...]:
    return tuple(v for v in scheme.played_values(played) if 0 < v <= scheme.max_value)


def find_grouping(played: Card, taken: Sequence[Card], scheme: ValueScheme) -> Grouping | None:
    """A grouping proving ``played`` may take exactly ``taken`` (a multiset), or None if it may not."""
    if not taken:
        return None
    if len(taken) == 1:
        return _single(played, taken[0], scheme)
    for v in _played_values(played, scheme):
        found = _solve_kinds(played, taken, scheme, v)
        if found is not None:
            return found
    return None


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


def _values_text(values: tuple[int, ...]) -> str:
    return " or ".join(str(v) for v in values)


def _fits_some_group(card: Card, others: Sequence[Card], played: Card, v: int, scheme: ValueScheme) -> bool:
    if scheme.rank_match and card.rank == played.rank:
        return True
    limit = (1 << (min(v, scheme.max_value) + 1)) - 1
    bits = _bits_add(1, scheme.table_values(card), limit)
    for other in others:
        bits |= _bits_add(bits, scheme.table_values(other), limit)
    return bool(bits >> v & 1)


def explain_failure(played: Card, taken: Sequence[Card], scheme: ValueScheme) -> str:
    """Why ``played`` cannot take ``taken``, in the arithmetic a player can check at the table."""
    if not taken:
        return "nothing was taken: that is a trail, not a capture"
    cards = sorted(taken, key=card_sort_key)
    names = " ".join(c.pretty() for c in cards)
    hv = _played_values(played, scheme)
    head = f"{played.pretty()} counts {_values_text(hv)}"
    if len(cards) == 1:
        card = cards[0]
        return (f"{head}; {card.pretty()} counts {_values_text(scheme.table_values(card))}, "
                f"so it cannot be taken" + ("" if scheme.rank_match else " (matching is by value only)"))
    reasons: list[str] = []
    for v in hv:
        loners = [card for i, card in enumerate(cards)
                  if not _fits_some_group(card, cards[:i] + cards[i + 1:], played, v, scheme)]
        if loners:
            listed = ", ".join(c.pretty() for c in loners)
            verb = "is" if len(loners) == 1 else "are"
            reasons.append(f"as {v}: {listed} {verb} in no group of the taken cards that makes {v}")
        else:
            lo, hi = _total_range(cards, scheme)
            reasons.append(
                f"as {v}: every card fits some group making {v}, but the cards ({names}, total "
                f"{lo if lo == hi else f'{lo}–{hi}'}) cannot all be split into separate groups of {v} "
                f"at once; a card would have to count twice")
    if len(hv) > 1 and legal_with_mixed_values(played, cards, scheme):
        reasons.append(f"the played card takes one value for the whole capture, so it cannot make "
                       f"{' and '.join(str(v) for v in hv)} at the same time")
    return f"{head}. " + "; ".join(reasons)


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


def _unions(packing: _Packing, by_first: Sequence[Sequence[int]]) -> dict[int, tuple[int, int]]:
    """Every union of groups that fits the table, each with a parent pointer (smaller union, group).

    Slot by slot, the groups whose lowest card sits in that slot are added to every union found
    so far. Each union is a legal capture in its own right, and unions reached by different
    partitions merge, so the work grows with the number of captures, not of partitions.
    """
    seen: dict[int, tuple[int, int]] = {0: (0, 0)}
    full = packing.full
    guard = packing.guard
    for slot, groups in enumerate(by_first):
        if not groups:
            continue
        cap = packing.caps[slot]
        width = packing.width
        mask = packing.mask
        shift = width * slot
        work = list(seen)
        for base in work:
            if (base >> shift) & mask >= cap:
                continue
            for group in groups:
                union = base + group
                if union in seen or ((full | guard) - union) & guard != guard:
                    continue
                seen[union] = (base, group)
                work.append(union)
    del seen[0]
    return seen


def _slots(packing: _Packing, packed: int) -> tuple[int, ...]:
    out: list[int] = []
    for i, count in enumerate(packing.counts(packed)):
        out.extend([i] * count)
    return tuple(out)


_Piece = tuple[tuple[int, ...], tuple[Card, ...], tuple[int, ...], bool]  # slots, cards, counted, rank-match


def _piece(packing: _Packing, cards: Sequence[Card], group: int, v: int, scheme: ValueScheme) -> _Piece:
    slots = _slots(packing, group)
    members = tuple(cards[i] for i in slots)
    if len(members) == 1 and v not in scheme.table_values(members[0]):
        return slots, members, (scheme.table_values(members[0])[0],), True
    return slots, members, _assign(members, v, scheme), False


def _piece_order(piece: _Piece) -> tuple[int, tuple[int, ...]]:
    return -len(piece[0]), piece[0]


def legal_captures(played: Card, table: Sequence[Card],
                   scheme: ValueScheme) -> list[tuple[tuple[Card, ...], Grouping]]:
    """Every distinct non-empty legal capture of ``played`` from ``table``, with a grouping each.

    A capture is a multiset: with two 5♣ on the table, "one 5♣" is listed once. The count can
    run to tens of thousands on a crowded table; :func:`count_captures` is cheaper when only the
    number matters.
    """
    return [(cards, grouping) for _, cards, grouping in _listing(played, table, scheme)]


def _listing(played: Card, table: Sequence[Card],
             scheme: ValueScheme) -> list[tuple[int, tuple[Card, ...], Grouping]]:
    if not table:
        return []
    counts = Counter(table)
    cards = sorted(counts, key=card_sort_key)
    packing = _Packing([counts[c] for c in cards])
    found: dict[int, tuple[tuple[int, ...], Grouping]] = {}
    for v in _played_values(played, scheme):
        by_first = _table_groups(played, cards, packing, v, scheme)
        if not any(by_first):
            continue
        parents = _unions(packing, by_first)
        # Each distinct group is described once; a union is then a handful of lookups.
        described = {group: _piece(packing, cards, group, v, scheme)
                     for group in {group for _, group in parents.values()}}
        groups = sorted(described, key=lambda g: _piece_order(described[g]))
        rank = {g: i for i, g in enumerate(groups)}
        pieces = [described[g] for g in groups]
        members: dict[int, tuple[int, ...]] = {0: ()}
        for union, (base, group) in parents.items():
            members[union] = members[base] + (rank[group],)
        for union in parents:
            if union in found:
                continue
            chosen = [pieces[i] for i in sorted(members[union])]
            slots, group_cards, counted, ranked = zip(*chosen, strict=True)
            found[union] = (tuple(sorted(chain.from_iterable(slots))),
                            Grouping(v, group_cards, counted, ranked))
    ordered = sorted(found.items(), key=lambda item: (len(item[1][0]), item[1][0]))
    pick = cards.__getitem__
    return [(union, tuple(map(pick, slots)), grouping) for union, (slots, grouping) in ordered]


def count_captures(played: Card, table: Sequence[Card], scheme: ValueScheme) -> int:
    """How many distinct legal captures ``played`` has (without building the groupings)."""
    if not table:
        return 0
    counts = Counter(table)
    cards = sorted(counts, key=card_sort_key)
    packing = _Packing([counts[c] for c in cards])
    unions: set[int] = set()
    for v in _played_values(played, scheme):
        by_first = _table_groups(played, cards, packing, v, scheme)
        if any(by_first):
            unions.update(_unions(packing, by_first))
    return len(unions)


def maximal_captures(played: Card, table: Sequence[Card], scheme: ValueScheme,
                     by: Literal["inclusion", "count"] = "inclusion"
                     ) -> list[tuple[tuple[Card, ...], Grouping]]:
    """The captures of ``played`` not strictly inside another legal capture of it (KASINO-MIS-2),
    or with ``by="count"`` the ones with the most cards (KASINO-OPT-MISAR-MAXCOUNT)."""
    listing = _listing(played, table, scheme)
    if not listing:
        return []
    if by == "count":
        most = max(len(cards) for _, cards, _ in listing)
        return [(cards, g) for _, cards, g in listing if len(cards) == most]
    counts = Counter(table)
    packing = _Packing([counts[c] for c in sorted(counts, key=card_sort_key)])
    # Largest first: anything inside a legal capture is inside a maximal one, so comparing
    # against the maxima found so far is enough.
    maxima: list[int] = []
    keep: list[tuple[tuple[Card, ...], Grouping]] = []
    for union, cards, grouping in sorted(listing, key=lambda item: -len(item[1])):
        if any(packing.minus(big, union) is not None for big in maxima):
            continue
        maxima.append(union)
        keep.append((cards, grouping))
    keep.sort(key=lambda item: (len(item[0]), [card_sort_key(c) for c in item[0]]))
    return keep


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
