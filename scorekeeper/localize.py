"""Engine messages in the reader's language: the request's locale, its gettext catalog, the
table's player names. The engine hands over :class:`~scorekeeper.engine.messages.Msg` values;
this is the one place they become text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import flask_babel
from flask import g, has_request_context
from flask_babel import get_locale, get_translations

from scorekeeper.cards import SUIT_SYMBOLS, Pack, card_text, parse_card, rank_face
from scorekeeper.engine.messages import render


def _reader() -> tuple[str, Any]:
    """The request's language and catalogue, found once: Flask-Babel finds them again on every
    call (three lookups of its context, the locale's name built), and a sheet asks about eighty
    times. Kept where Flask-Babel keeps its own choice (``g``); nothing forces another locale
    within a request."""
    found = g.get("_reader")
    if found is None:
        locale = get_locale()
        found = g._reader = (str(locale.language) if locale is not None else "en", get_translations())
    return found  # type: ignore[no-any-return]


def language() -> str:
    """The reader's language; English outside a request (commands, the service called from tests)."""
    return _reader()[0] if has_request_context() else "en"


def catalogue() -> Any:
    """The request's gettext catalogue (``ugettext``, ``ungettext``…)."""
    return _reader()[1]


def _translate(template: str) -> str:
    return str(_reader()[1].ugettext(template))


def localize(value: Any, names: Sequence[str] | None = None) -> Any:
    """``value`` (a message, or JSON holding messages) rendered for this request; other values as
    they are. The reader's language is chosen only if a message turns up: an answer that holds
    none (a score pad's) need not choose it at all."""
    if not has_request_context():
        return render(value, "en", names)
    chosen: list[str] = []

    def lang() -> str:
        if not chosen:
            chosen.append(language())
        return chosen[0]

    return render(value, lang, names, _translate)


def gettext(string: str, /, **variables: Any) -> str:
    """Flask-Babel's ``gettext`` with the request's catalogue found once (``_reader``): the views
    ask for hundreds of words a sheet (Mulatschak's: 370), and Flask-Babel's own lookup of its
    context each time was a third of drawing that sheet."""
    if not has_request_context():
        return str(flask_babel.gettext(string, **variables))
    text = _reader()[1].ugettext(string)
    return text % variables if variables else text  # type: ignore[no-any-return]


def ngettext(singular: str, plural: str, num: int, /, **variables: Any) -> str:
    """Flask-Babel's ``ngettext`` so (``num`` is a variable too)."""
    if not has_request_context():
        return str(flask_babel.ngettext(singular, plural, num, **variables))
    variables.setdefault("num", num)
    return _reader()[1].ungettext(singular, plural, num) % variables  # type: ignore[no-any-return]


def tr(text: str, /, **values: Any) -> str:
    """``gettext`` for the service's own refusals: the reader's language in a request, English
    outside one (a command, a test calling the service directly)."""
    if has_request_context():
        text = _translate(text)
    return text % values if values else text


def card_words(code: str | None, pack: Pack = "french") -> str:
    """A card code as a sentence names it in the reader's language: ``10♦`` / ``ruter tia`` /
    ``Karo-Zehn``; text that is not a card as it stands."""
    if not code:
        return ""
    try:
        card = parse_card(code, pack)
    except ValueError:
        return code
    return card_text(card, language(), pack)


def card_face(code: str | None) -> str:
    """A French card as its corner reads in the reader's language: ``Q♣`` / ``D♣`` / ``D♣``,
    ``J♠`` / ``Kn♠`` / ``B♠`` — the short form of lists and chips, as the card buttons print it."""
    if not code:
        return ""
    try:
        card = parse_card(code)
    except ValueError:
        return code
    if card.is_weli:
        return "Weli"
    return f"{rank_face(card.rank, language())}{SUIT_SYMBOLS.get(card.suit, card.suit)}"
