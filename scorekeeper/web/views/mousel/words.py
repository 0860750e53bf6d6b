"""How the Mousel screens name cards, suits, token counts and the pack."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.engine.mousel import RANKS_32, RANKS_52, SUITS


def card_word(code: str | None) -> str:
    from scorekeeper.web import card_label

    return card_label(code) if code else "?"


def suit_word(suit: str | None) -> str:
    from scorekeeper.web import suit_label

    return suit_label(suit) if suit else "?"


def token_count(value: float) -> str:
    """A token count: whole numbers as such, a fraction (after a leave or a bust) to 2 places."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def ranks(state: Mapping[str, Any]) -> tuple[str, ...]:
    """The pack in use, high to low: 7–A, or 2–A with the 52-card option."""
    return RANKS_52 if state["options"]["52"] else RANKS_32


def pack_codes(state: Mapping[str, Any]) -> list[str]:
    return [r + s for s in SUITS for r in ranks(state)]
