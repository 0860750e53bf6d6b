"""The capture check (MULLE-CAP-4 / KASINO-CAP-4): ``find_grouping`` over tables built once per scheme.

A claim is checked on its counts of each *kind* (the values a card may take, and whether it may
be taken by rank-match), packed into one int: one _FIELD-bit field per kind of the whole pack,
the biggest kind in the top field, so the kind to cover next is read off the int's length.
Everything that depends only on the scheme, the played card and the value is built once per
scheme and played rank and kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from threading import Lock
from typing import Any

from scorekeeper.cards import Card
from scorekeeper.engine.fishing.grouping import Grouping, Parts, assign_values
from scorekeeper.engine.fishing.pack import FRENCH_RANKS, card_info
from scorekeeper.engine.fishing.packing import (
    Packing,
    Spread,
    add_totals,
    groups_by_first,
    shift_or,
)
from scorekeeper.engine.fishing.schemes import SUIT_ORDER, ValueScheme, capture_values
from scorekeeper.engine.fishing.search import kind_groups, kinds_of, partition, solve_kinds


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
    units, weights, shift, specials, by_value = tables
    state = 0
    try:
        for card in taken:
            state += weights[card.rank][card.suit]
    except KeyError:
        return _find_slowly(played, taken, scheme)
    # Above the kind counts, the weights sum the cards' smallest values.
    least = state >> shift
    state &= (1 << shift) - 1
    # A small claim's search is over before its totals would be worked out (-1: all pass).
    totals = add_totals(1 << least, state, _COUNT, specials) if len(taken) > _SMALL_CLAIM else -1
    for v, by_top, dead, multiples, least_of in by_value:
        # Cheap necessary conditions first: every kind taken fits some group of v, and some
        # total of the cards is a multiple of v. A claim failing them costs no search.
        if state & dead or not totals & multiples:
            continue
        solution = _cover(state, by_top, (least, specials, multiples, least_of))
        if solution is not None:
            return Grouping.deferred(v, _Claim(taken, scheme, units, solution), v)
    return None


def _find_slowly(played: Card, taken: Sequence[Card], scheme: ValueScheme) -> Grouping | None:
    for v in capture_values(played, scheme):
        found = solve_kinds(played, taken, scheme, v)
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

_FIELD = 7  # bits per kind: a count of up to 63 and a guard bit (as Packing lays out caps of 31)
_CLAIM_MOST = (1 << (_FIELD - 1)) - 1  # bigger claims (never a real table) take the slow path
_Units = dict[str, dict[str, int]]  # rank, suit: the card's unit in the packed counts
_COUNT = (1 << (_FIELD - 1)) - 1  # a field's count bits
# units; weights (units plus the card's smallest value above the counts) and that shift; the
# kinds whose cards may count other than their smallest value (packing.add_totals); per played value:
# the groups by top field, the count bits of kinds in no group, the multiples of the value.
_ClaimTables = tuple[_Units, _Units, int, list[Spread],
                     list[tuple[int, list[list[int]], int, int, dict[int, int]]]]
_claim_cache: dict[int, tuple[ValueScheme, dict[str, dict[str, _ClaimTables]]]] = {}
_claim_by_value: dict[ValueScheme, dict[str, dict[str, _ClaimTables]]] = {}
_NONE: dict[str, Any] = {}
_claim_lock = Lock()


def build_tables(schemes: Sequence[ValueScheme]) -> None:
    """Build the claim check's tables of ``schemes`` now rather than at their first claim of two
    cards or more (about 35 ms each in CPython): the phone's app builds them before its memory
    snapshot, so no start pays for them in the middle of a move (offline/phone.py)."""
    for scheme in schemes:
        _claim_tables(scheme)


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
            for rank in FRENCH_RANKS:
                for suit in SUIT_ORDER:
                    played = Card(rank, suit)
                    values = capture_values(played, scheme)
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


def _build_claim_tables(scheme: ValueScheme, played: Card, values: tuple[int, ...]) -> _ClaimTables:
    cards = [Card(rank, suit) for rank in FRENCH_RANKS for suit in SUIT_ORDER]
    kind_of = {card: (scheme.table_values(card), scheme.rank_match and card.rank == played.rank)
               for card in cards}
    # kinds_of's order (biggest first), so the search meets the groups as the slow path does.
    kinds = sorted(set(kind_of.values()), key=lambda k: (-min(k[0]), -max(k[0]), k[1]))
    top = len(kinds) - 1
    units: _Units = {}
    for card, kind in kind_of.items():
        units.setdefault(card.rank, {})[card.suit] = 1 << (_FIELD * (top - kinds.index(kind)))
    packing = Packing([31] * len(kinds))  # no group holds more than 16 cards
    assert packing.width == _FIELD
    shift = _FIELD * (top + 1)
    weights: _Units = {rank: {suit: unit + (min(kind_of[Card(rank, suit)][0]) << shift)
                              for suit, unit in by_suit.items()} for rank, by_suit in units.items()}
    specials: list[Spread] = []
    for f, (kind_values, alone) in enumerate(kinds):
        least = min(kind_values)
        offsets = sorted({x - least for x in kind_values} | ({-least} if alone else set()))
        if len(offsets) == 1:
            continue
        rows = [1]
        for _ in range(_CLAIM_MOST):
            rows.append(shift_or(rows[-1], [o - offsets[0] for o in offsets]))
        specials.append((_FIELD * (top - f), -offsets[0], rows))
    most = _CLAIM_MOST * max(max(k[0]) for k in kinds)
    by_value: list[tuple[int, list[list[int]], int, int, dict[int, int]]] = []
    smallest = [min(k[0]) for k in kinds]
    for v in values:
        by_first = kind_groups(kinds, packing, v, scheme.max_value)
        # kind_groups numbers kinds biggest first from the bottom field; here the biggest is on top.
        by_top = [[_flip(group, top) for group in by_first[top - f]] for f in range(top + 1)]
        dead = sum(_COUNT << (_FIELD * f) for f in range(top + 1) if not by_top[f])
        multiples = sum(1 << t for t in range(0, most + 1, v))
        least_of = {group: sum(((group >> (_FIELD * (top - f))) & _COUNT) * smallest[f] for f in range(top + 1))
                    for groups in by_top for group in groups}
        by_value.append((v, by_top, dead, multiples, least_of))
    return units, weights, shift, specials, by_value


def _flip(packed: int, top: int) -> int:
    """The fields of ``packed`` in reverse order (field i to field top - i)."""
    mask = (1 << _FIELD) - 1
    out = 0
    for i in range(top + 1):
        out |= ((packed >> (_FIELD * i)) & mask) << (_FIELD * (top - i))
    return out


_GUARD = sum(1 << (_FIELD * (i + 1) - 1) for i in range(40))


_SMALL_CLAIM = 6  # claims of up to this many cards skip the totals condition
_PRUNE_AFTER = 48  # dead states met before every state is also checked against its totals
_Totals = tuple[int, list[Spread], int, dict[int, int]]  # see _solve


class _Hard(Exception):
    """The plain search has met many dead states: the claim is a hard one."""


def _cover(start: int, by_top: Sequence[Sequence[int]], totals: _Totals) -> list[int] | None:
    """Groups (packed, in the order chosen) that exactly cover ``start``, or None: depth first,
    the biggest kind left covered first, memoised on the states that failed.

    A hard claim goes on with each new state's totals checked too (``_solve`` with ``totals``), keeping
    the dead states found so far: the same order, so the same groups when some are found."""
    chosen: list[int] = []
    failed: set[int] = set()
    try:
        if not _PRUNE_AFTER:  # every claim a hard one (the tests run the pruned search so)
            raise _Hard
        found = _solve(start, 0, by_top, failed, chosen, None)
    except _Hard:
        chosen.clear()
        found = _solve(start, totals[0], by_top, failed, chosen, totals)
    if found:
        chosen.reverse()
        return chosen
    return None


def _solve(state: int, least: int, by_top: Sequence[Sequence[int]], failed: set[int], chosen: list[int],
           totals: _Totals | None) -> bool:
    """Depth first, memoised on the states that failed. Without ``totals``: the plain search, which
    gives up (``_Hard``) after _PRUNE_AFTER dead states. With them (a hard claim) each new state
    whose cards can make no total divisible by the value is dropped at once (with cards of two
    values, a group that counted one the wrong way leaves such a state); ``least`` is the state's
    total of smallest values, ``least_of`` each group's."""
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
                left = 0
                if totals is not None:
                    left = least - totals[3][group]
                    if not add_totals(1 << left, rest, _COUNT, totals[1]) & totals[2]:
                        failed.add(rest)
                        continue
                if _solve(rest, left, by_top, failed, chosen, totals):
                    chosen.append(group)
                    return True
                failed.add(rest)
                if totals is None and len(failed) > _PRUNE_AFTER:
                    raise _Hard
    return False


class _Claim:
    """What a claim's grouping is worked out from, when first read (see Grouping._resolve)."""

    __slots__ = ("taken", "scheme", "units", "solution")

    def __init__(self, taken: Sequence[Card], scheme: ValueScheme, units: _Units,
                 solution: list[int]) -> None:
        self.taken, self.scheme, self.units, self.solution = taken, scheme, units, solution

    def parts(self, value: int) -> tuple[Parts, None]:
        """The taken cards dealt into the groups found, as the slow path deals them (each kind's
        cards in card order, the last one first) and shown as ``_grouping_parts`` has them."""
        info = card_info(self.scheme)
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
                    found = _assigned[(value, options)] = assign_values(options, value)
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


# The values a group's cards count (``assign_values``), by value and the cards' value options.
_assigned: dict[tuple[int, tuple[tuple[int, ...], ...]], tuple[int, ...]] = {}


def _single(played: Card, card: Card, scheme: ValueScheme) -> Grouping | None:
    """The common one-card capture, answered without the search (same value order as the search)."""
    table_values = scheme.table_values(card)
    ranked = scheme.rank_match and card.rank == played.rank
    for v in capture_values(played, scheme):
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
    kinds, pools = kinds_of(played, taken, scheme)
    packing = Packing([len(pool) for pool in pools])
    values = [k[0] for k in kinds]
    merged: list[list[int]] = [[] for _ in kinds]
    for v in capture_values(played, scheme):
        for i, groups in enumerate(groups_by_first(values, packing, v, scheme.max_value)):
            merged[i].extend(g for g in groups if g not in merged[i])
    for i, kind in enumerate(kinds):
        if kind[1] and packing.unit(i) not in merged[i]:
            merged[i].append(packing.unit(i))
    return partition(packing, merged, packing.full) is not None
