"""German table terms of the Mulatschak screens: suit names and colours, glossed words, card words."""

from __future__ import annotations

from flask_babel import get_locale
from markupsafe import Markup

from scorekeeper.cards import GERMAN_SUITS
from scorekeeper.localize import gettext as _

SUIT_CSS = {s: f"g-{s}" for s in GERMAN_SUITS}


def _glosses() -> dict[str, str]:
    return {
        "weiter": _("pass"),
        "mit mir": _("I hold: the dealer takes the bid"),
        "Muli": _("all five tricks"),
        "daheim bleiben": _("stay home"),
        "Packerl": _("trumps from the stock"),
        "Sau": _("ace"),
        "Weli": _("always the second-best trump"),
        "Ober": _("over-knave"),
        "Unter": _("under-knave"),
        "unter dem Hund": _("a hand with nothing above the 10: redeal"),
        "Fünf auf die Sau": _("five on the trump ace"),
        "Sechs auf den Siebener": _("six on the Schelle seven"),
    }


def _german_ui() -> bool:
    return str(get_locale() or "en").startswith("de")


def term(word: str) -> Markup:
    """A German table term, marked as German, with its translation beside it (not in German)."""
    german = Markup('<span class="mu-de" lang="de">{}</span>').format(word)
    if _german_ui():
        return german
    return Markup('{} <span class="mu-gloss">({})</span>').format(german, _glosses().get(word, ""))


def term_text(word: str) -> str:
    """The same as plain text, for aria-labels."""
    if _german_ui():
        return word
    return f"{word} ({_glosses().get(word, '')})"


def suit_info(suit: str) -> dict[str, str]:
    """A German suit by name and colour class (never by a French symbol)."""
    from scorekeeper.web import suit_label

    return {"code": suit, "name": suit_label(suit, "german"), "css": SUIT_CSS.get(suit, "")}


def maybe_suit(suit: str | None) -> dict[str, str] | None:
    return suit_info(suit) if suit else None


def _card_word(code: str) -> str:
    from scorekeeper.web import card_label

    return card_label(code, "german")
