"""The French pack in card order: each card's place, and its values under a scheme (cached)."""

from __future__ import annotations

from scorekeeper.cards import Card
from scorekeeper.engine.fishing.schemes import SUIT_ORDER, ValueScheme, card_sort_key

FRENCH_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
FRENCH_ORDER = sorted((Card(rank, suit) for rank in FRENCH_RANKS for suit in SUIT_ORDER), key=card_sort_key)
PLACE: dict[str, dict[str, int]] = {}  # rank, suit: the card's place in FRENCH_ORDER
for _place, _card in enumerate(FRENCH_ORDER):
    PLACE.setdefault(_card.rank, {})[_card.suit] = _place


CardInfo = dict[str, dict[str, tuple[int, tuple[int, ...]]]]
_info_cache: dict[int, tuple[ValueScheme, CardInfo]] = {}


def card_info(scheme: ValueScheme) -> CardInfo:
    """Per French card (rank, suit): its place in card order, and its values as a table card."""
    found = _info_cache.get(id(scheme))
    if found is None or found[0] is not scheme:
        info: CardInfo = {}
        for place, card in enumerate(FRENCH_ORDER):
            info.setdefault(card.rank, {})[card.suit] = (place, scheme.table_values(card))
        if len(_info_cache) >= 64:
            _info_cache.clear()
        found = _info_cache[id(scheme)] = (scheme, info)
    return found[1]
