"""Engine messages as data: a template and its parameters, rendered in the reader's language.

The engine never builds a finished sentence. A refusal, a capture's arithmetic, a history line is
a :class:`Msg`: an English template with ``%(name)s`` slots (the template is also the gettext
msgid; ``pybabel extract -k M`` collects every ``M("…")`` of the engine into the catalogs) and
the values of the slots: cards, seats, numbers, nested messages. The web layer looks the template
up in the reader's catalog and fills the slots in that language: a card as "Q♥" / "hjärter dam" /
"Herz-Dame", a seat as the player's name.

A ``Msg`` *is* its English rendering (it subclasses ``str``), so everything that read messages as
text — ``RuleViolation.message``, JSON fields, logs, tests — keeps working unchanged.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.cards import Card, Pack, card_text, suit_text

__all__ = ["Join", "M", "Msg", "Param", "Seat", "Side", "Suit", "TableNames", "cards", "isolate", "render"]

Translate = Callable[[str], str]

_FSI, _PDI = "\u2068", "\u2069"


def isolate(name: str) -> str:
    """``name`` set apart from the sentence around it when it holds right-to-left letters: without
    the isolates "سارة takes 3♥" reorders the words after the name in a left-to-right sentence."""
    if name.startswith(_FSI) and name.endswith(_PDI):
        return name
    if any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in name):
        return f"{_FSI}{name}{_PDI}"
    return name


@dataclass(frozen=True, slots=True)
class Seat:
    """A player, by seat. Rendered as the player's name; without names as "player N" (the seat)."""

    index: int | None


@dataclass(frozen=True, slots=True)
class Side:
    """A scoring side by index. Rendered as its players ("Anna & Cilla") where the reader's names
    know the table's sides (:class:`TableNames`); else as "side N" (N the index)."""

    index: int


class TableNames(tuple[str, ...]):
    """The seats' names, also knowing each side's label (a player, or partners joined), so that a
    message can name a side the way the score sheet heads its column."""

    sides: tuple[str, ...]

    def __new__(cls, players: Iterable[str], sides: Iterable[str]) -> TableNames:
        self = super().__new__(cls, players)
        self.sides = tuple(sides)
        return self


@dataclass(frozen=True, slots=True)
class Suit:
    """A suit by its letter, named in the reader's language (the German pack by its own names)."""

    letter: str


# Conjunctions are grammar, not game terms: a small fixed table rather than catalog entries.
_WORDS = {
    "en": {"or": " or ", "and": " and "},
    "sv": {"or": " eller ", "and": " och "},
    "de": {"or": " oder ", "and": " und "},
}


@dataclass(frozen=True, slots=True)
class Join:
    """Several values shown as one: cards ``" "``-separated, numbers joined by "or", reasons by "; "."""

    items: tuple[Any, ...]
    sep: str = " "  # "or" and "and" are localized; anything else is used as it stands

    def render(self, lang: str, names: Sequence[str] | None, translate: Translate | None, pack: Pack) -> str:
        words = _WORDS.get(lang, _WORDS["en"])
        sep = words.get(self.sep, self.sep)
        if lang != "en" and self.sep in (" ", "+"):
            # "4♥ 9♦" and "3♥+5♠" read well with symbols; spelled-out names need the room.
            sep = ", " if self.sep == " " else " + "
        return sep.join(_render(item, lang, names, translate, pack) for item in self.items)


Param = Any  # int | str | Card | Seat | Join | Msg


def cards(items: Iterable[Card], sep: str = " ") -> Join:
    return Join(tuple(items), sep)


def _render(value: Param, lang: str, names: Sequence[str] | None, translate: Translate | None,
            pack: Pack) -> str:
    if isinstance(value, Msg):
        return value.render(lang, names, translate)
    if isinstance(value, Card):
        return card_text(value, lang, pack)
    if isinstance(value, Seat):
        if value.index is None:
            return Msg("nobody").render(lang, names, translate)
        if names is not None and 0 <= value.index < len(names):
            return isolate(names[value.index])
        return f"player {value.index}"
    if isinstance(value, Side):
        sides = getattr(names, "sides", None)
        if sides is not None and 0 <= value.index < len(sides):
            return isolate(sides[value.index])
        return M("side %(side)s", side=str(value.index)).render(lang, names, translate)
    if isinstance(value, Join):
        return value.render(lang, names, translate, pack)
    if isinstance(value, Suit):
        return suit_text(value.letter, lang, pack)
    return str(value)


def _fill(template: str, params: Mapping[str, Param], lang: str, names: Sequence[str] | None,
          translate: Translate | None, pack: Pack) -> str:
    if not params:
        return template
    values = {key: _render(value, lang, names, translate, pack) for key, value in params.items()}
    return template % values


class Msg(str):
    """A message: ``template`` (English, the msgid) and ``params``; its ``str`` value is the English text.

    ``pack`` says how the cards in it are named (Mulatschak's German pack has its own names)."""

    template: str
    params: Mapping[str, Param]
    pack: Pack

    def __new__(cls, template: str, params: Mapping[str, Param] | None = None, pack: Pack = "french") -> Msg:
        params = dict(params or {})
        self = super().__new__(cls, _fill(template, params, "en", None, None, pack))
        self.template = template
        self.params = params
        self.pack = pack
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return Msg, (self.template, dict(self.params), self.pack)

    def render(self, lang: str = "en", names: Sequence[str] | None = None,
               translate: Translate | None = None) -> str:
        """The message in ``lang``: ``translate`` maps the English template to the reader's
        (gettext); a translation that lost a slot falls back to the English template."""
        template = translate(self.template) if translate is not None else self.template
        try:
            return _fill(template, self.params, lang, names, translate, self.pack)
        except (KeyError, ValueError, TypeError):
            return _fill(self.template, self.params, lang, names, translate, self.pack)


# Ledger notes and history lines repeat ("3 of 5 tricks"): a replay made the same message
# hundreds of times, each rendered to English on creation. Messages of plain values are kept.
_PLAIN: frozenset[type] = frozenset({int, str, bool, Card, Seat, Side, Suit, type(None)})
_MADE: dict[tuple[Any, ...], Msg] = {}


def M(template: str, **params: Param) -> Msg:  # noqa: N802 - short: it sits in every raise
    """A message of the French-pack games; ``pybabel extract -k M`` picks up the template."""
    if not params:
        key: tuple[Any, ...] = (template,)
    else:
        for value in params.values():  # a loop, not all(...): no generator made per message
            if type(value) not in _PLAIN:
                return Msg(template, params)
        key = (template, *params.items())
    made = _MADE.get(key)
    if made is None:
        made = Msg(template, params)
        if len(_MADE) < 4096:
            _MADE[key] = made
    return made


_LEAVES: frozenset[type] = frozenset({str, int, float, bool, type(None)})


class Plain(list):  # type: ignore[type-arg]
    """A list in a state's JSON that holds no message, however deep: rendering passes it by.

    A long score pad's rounds and running totals are thousands of numbers and the players' own
    notes, walked on every request only to find nothing to translate."""

    __slots__ = ()


def render(value: Any, lang: str | Callable[[], str] = "en", names: Sequence[str] | None = None,
           translate: Translate | None = None) -> Any:
    """``value`` with every message in it rendered: a ``Msg``, or JSON (dicts, lists) holding some.

    A state's JSON is mostly numbers and plain strings (a long score pad: thousands of them), and
    it is rendered on every request: leaves are passed over without a call. ``lang`` may be a
    function giving the language, asked only if a message turns up (choosing the reader's
    language is a good part of an answer that holds none)."""
    kind = type(value)
    if kind is Plain:
        return value
    if kind is dict:
        if _LEAVES.issuperset(map(type, value.values())):  # one pass in C: nothing in it to render
            return dict(value)
        return {key: item if type(item) in _LEAVES else render(item, lang, names, translate)
                for key, item in value.items()}
    if kind is list or kind is tuple:
        if _LEAVES.issuperset(map(type, value)):
            return list(value)
        return [item if type(item) in _LEAVES else render(item, lang, names, translate) for item in value]
    if kind in _LEAVES:
        return value
    if isinstance(value, Msg):
        return value.render(lang if isinstance(lang, str) else lang(), names, translate)
    if isinstance(value, dict):
        return {key: render(item, lang, names, translate) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [render(item, lang, names, translate) for item in value]
    return value
