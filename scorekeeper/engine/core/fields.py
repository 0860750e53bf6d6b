"""Reading an event's fields: one reader per kind of value, each refusing a wrong shape with
:class:`MalformedEvent` naming the field. Rules about the *value* (a card outside the pack in
use, a suit that cannot be trumps) stay with the game, which cites its own rule id."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.cards import Card, Pack, parse_card, parse_cards
from scorekeeper.engine.core.errors import MalformedEvent
from scorekeeper.engine.messages import M

__all__ = ["bool_field", "card_field", "cards_field", "int_field", "player_field", "seat_list_field",
           "str_field", "suit_field"]


def int_field(event: Mapping[str, Any], key: str, *, minimum: int | None = None,
              maximum: int | None = None, default: int | None = None) -> int:
    value = event.get(key, default)
    if value is None:
        raise MalformedEvent(M("the event needs %(key)s", key=repr(key)), event)
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedEvent(M("%(key)s must be a whole number, not %(value)s", key=repr(key), value=repr(value)),
                             event)
    if minimum is not None and value < minimum:
        raise MalformedEvent(M("%(key)s must be at least %(minimum)s, not %(value)s", key=repr(key),
                               minimum=minimum, value=value), event)
    if maximum is not None and value > maximum:
        raise MalformedEvent(M("%(key)s must be at most %(maximum)s, not %(value)s", key=repr(key),
                               maximum=maximum, value=value), event)
    return value


def str_field(event: Mapping[str, Any], key: str, *, max_len: int = 200, default: str | None = None) -> str:
    value = event.get(key, default)
    if value is None:
        raise MalformedEvent(M("the event needs %(key)s", key=repr(key)), event)
    if not isinstance(value, str):
        raise MalformedEvent(M("%(key)s must be text, not %(value)s", key=repr(key), value=repr(value)), event)
    if len(value) > max_len:
        raise MalformedEvent(M("%(key)s is longer than %(max_len)s characters", key=repr(key), max_len=max_len),
                             event)
    return value


def player_field(event: Mapping[str, Any], count: int, key: str = "player") -> int:
    """A seat number 0..count-1."""
    value = event.get(key)
    if type(value) is int and 0 <= value < count:  # the common case, checked first: a replay reads thousands
        return value
    number = int_field(event, key)
    raise MalformedEvent(M("there is no player %(seat)s; seats are 0 to %(last)s", seat=number, last=count - 1),
                         event)


def bool_field(event: Mapping[str, Any], key: str, default: bool | None = False) -> bool:
    """``true`` or ``false``; ``default=None`` makes the field required."""
    value = event.get(key, default)
    if not isinstance(value, bool):
        raise MalformedEvent(M("%(key)s must be true or false, not %(value)s", key=repr(key), value=repr(value)),
                             event)
    return value


def suit_field(event: Mapping[str, Any], *keys: str) -> str | None:
    """The first of ``keys`` present, as an upper-case letter; ``None`` when none is given.
    Whether the letter is a suit of the game's pack is the game's rule to check."""
    for key in keys:
        value = event.get(key)
        if value is None:
            continue
        if not isinstance(value, str):
            raise MalformedEvent(M("%(key)s must be a suit letter, not %(value)s", key=repr(key),
                                   value=repr(value)), event)
        return value.strip().upper()
    return None


def card_field(event: Mapping[str, Any], key: str, pack: Pack = "french") -> Card:
    raw = event.get(key)
    if raw is None:
        raise MalformedEvent(M("the event needs %(key)s", key=repr(key)), event)
    if not isinstance(raw, str):
        raise MalformedEvent(M("%(key)s must be a card such as %(example)s", key=repr(key),
                               example="'OH' or 'W'" if pack == "german" else "'QH'"), event)
    return parse_card(raw, pack)


def cards_field(event: Mapping[str, Any], key: str, pack: Pack = "french") -> list[Card]:
    """A list of cards, or one string of them separated by spaces."""
    raw = event.get(key)
    if not isinstance(raw, (list, str)):
        raise MalformedEvent(M("the event needs %(key)s, a list of cards", key=repr(key)), event)
    return parse_cards(raw, pack)


def seat_list_field(event: Mapping[str, Any], key: str, count: int, *, repeats: bool = False) -> tuple[int, ...]:
    """Distinct seat numbers, sorted; missing means none. ``repeats``: a seat named twice counts
    once (a game whose sheet always read it so) instead of being refused."""
    value = event.get(key, [])
    if not isinstance(value, list) or any(isinstance(v, bool) or not isinstance(v, int) for v in value):
        raise MalformedEvent(M("%(key)s must be a list of seat numbers", key=repr(key)), event)
    if any(not 0 <= v < count for v in value):
        raise MalformedEvent(M("%(key)s names a seat outside 0..%(value)s", key=repr(key), value=count - 1), event)
    if len(set(value)) != len(value):
        if not repeats:
            raise MalformedEvent(M("%(key)s names a seat twice", key=repr(key)), event)
        value = list(set(value))
    return tuple(sorted(value))
