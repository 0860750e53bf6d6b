"""What the fishing games' screens (Mulle, Kasino) share: the hint card asked about, card words,
lists in a sentence and the side labels. The game modules build their own views on top."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask import request

from scorekeeper.cards import NotationError, parse_card
from scorekeeper.localize import card_words
from scorekeeper.localize import gettext as _


def hint_arg() -> str:
    """The card asked about: tapped in the grid or typed beside it. The picker sends both fields,
    the grid's first, so the last non-empty value is the one the player gave."""
    if request.method != "GET":
        return ""
    filled = [v.strip() for v in request.args.getlist("hint") if v.strip()]
    return filled[-1] if filled else ""


def hints_asked() -> bool:
    """The hints box opened with no card yet (``?hints=1``): its picker is drawn only then."""
    return request.method == "GET" and request.args.get("hints") == "1"


def hint_card(text: str) -> tuple[str | None, str]:
    """The asked-about card's code, or None and why not (the same words in every fishing game)."""
    try:
        return str(parse_card(text)), ""
    except NotationError:
        return None, _("“%(text)s” is not a card. Tap it in the grid or type it like 7H or 10♦.", text=text)


def pretty(code: str | None) -> str:
    return card_words(code)  # "10♦" in English, "ruter tia" / "Karo-Zehn" in a sentence


def join(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return _("%(first)s and %(last)s", first=", ".join(items[:-1]), last=items[-1])


def side_labels(state: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """A side is a player or a partnership (KASINO-VAR-PAIRS, MULLE-COMP-2): the engine's ``sides``."""
    return [" & ".join(names[p] for p in team) for team in state["sides"]]
