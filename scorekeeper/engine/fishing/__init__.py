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

``legal_captures(played, table, scheme, *, limit=None, alone=None) -> Captures``
    A read-only sequence of ``(cards, grouping)`` pairs, each spelled out when read (a listing
    is one int per capture until then; ``Captures.taken()`` gives the cards alone, and it equals
    a list of the same pairs). Every distinct legal capture (as a sorted multiset of table cards; copies are
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
groupings are worked out when first read (see ``Listing``).

Modules, by concept, each importing only those before it (an import-linter contract keeps
them free of circles): ``schemes`` (how cards count), ``pack`` (the French pack in card order),
``packing`` (multisets packed into an int, and the groups making a value), ``grouping`` (the
proof a check hands out), ``search`` (the partition search over kinds), ``claims``
(``find_grouping`` on per-scheme tables), ``explain`` (refusal texts), ``layout`` (a table's
slots and keys), ``listing`` (kind vectors spelt out as captures), ``captures`` (the listing API).
"""

from __future__ import annotations

from scorekeeper.engine.fishing.captures import (
    Captures,
    can_capture,
    can_sweep,
    collector_paused,
    count_captures,
    is_sweep_value,
    legal_captures,
    maximal_captures,
    sweep_values,
)
from scorekeeper.engine.fishing.claims import find_grouping, legal_with_mixed_values
from scorekeeper.engine.fishing.explain import explain_failure
from scorekeeper.engine.fishing.grouping import Grouping
from scorekeeper.engine.fishing.schemes import (
    KASINO_SCHEME,
    MULLE_SCHEME,
    ValueScheme,
    card_sort_key,
    face_value,
    kasino_scheme,
    mulle_scheme,
)

__all__ = [
    "KASINO_SCHEME",
    "MULLE_SCHEME",
    "Captures",
    "Grouping",
    "ValueScheme",
    "can_capture",
    "can_sweep",
    "card_sort_key",
    "collector_paused",
    "count_captures",
    "explain_failure",
    "face_value",
    "find_grouping",
    "is_sweep_value",
    "kasino_scheme",
    "legal_captures",
    "legal_with_mixed_values",
    "maximal_captures",
    "mulle_scheme",
    "sweep_values",
]
