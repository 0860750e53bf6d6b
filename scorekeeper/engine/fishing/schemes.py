"""How cards count in the fishing games: value schemes and the card order of every result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from scorekeeper.cards import Card

_FACE = {"A": 1, "J": 11, "Q": 12, "K": 13}
SUIT_ORDER = {"S": 0, "H": 1, "D": 2, "C": 3}


def face_value(card: Card) -> int:
    """The plain value: A 1, 2–10 face, J 11, Q 12, K 13."""
    return _FACE.get(card.rank) or int(card.rank)


def card_sort_key(card: Card) -> tuple[int, int]:
    return face_value(card), SUIT_ORDER.get(card.suit, 9)


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


# Every scheme a table can be given (the rules' options choose among them).
SCHEMES = (MULLE_SCHEME, _MULLE_STRICT, KASINO_SCHEME, _KASINO_FIXED, _KASINO_HANDTABLE)


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


def capture_values(played: Card, scheme: ValueScheme) -> tuple[int, ...]:
    """The values ``played`` may count when capturing: those within the scheme's range."""
    return tuple(v for v in scheme.played_values(played) if 0 < v <= scheme.max_value)
