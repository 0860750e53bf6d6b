"""How the Kasino screens name cards, scoring categories and the cards still unseen."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.localize import gettext as _
from scorekeeper.localize import language
from scorekeeper.web.views.fishing import pretty


def cards_text(codes: Sequence[str]) -> str:
    # "4♥ 9♦" with symbols; spelled-out names ("hjärter fyra, ruter nia") need commas.
    return (" " if language() == "en" else ", ").join(pretty(c) for c in codes)


def picker_counts(state: Mapping[str, Any]) -> dict[str, int]:
    """The picker's unseen counts: in Dragkasino a drawn card that was entered is "seen", but the
    player who drew it may still play it, so it stays tappable for them."""
    unseen = dict(state["unseen"])
    mover = state["to_act"]
    if state["known_hands"] and mover is not None:
        for code in state["known_hands"][mover]:
            unseen[code] = 1
    return unseen


def category_name(what: str) -> str:
    """A scoring item in words (the engine's ``what``)."""
    names = {
        "most_cards": _("Most cards"), "most_spades": _("Most spades"), "storan": _("Storan (10♦)"),
        "lillan": _("Lillan (2♠)"), "aces": _("Aces"), "tabbes": _("Tabbes"), "sistan": _("Sistan (last capture)"),
        "penalty": _("Penalty"), "penalty void": _("Penalty taken back"), "claim": _("Claim"),
    }
    return names.get(what, what)
