"""Cards as small value objects; every notation is parsed and formatted here and nowhere else.

Two packs exist: the French pack (Mulle, Kasino, Mousel, Muggins) and the German pack
(Mulatschak). The same letter means different things in each (``S`` is spades in one and
Schelle in the other), so parsing always names the pack.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

Pack = Literal["french", "german"]

FRENCH_RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
FRENCH_SUITS: tuple[str, ...] = ("S", "H", "D", "C")
GERMAN_RANKS: tuple[str, ...] = ("A", "K", "O", "U", "10", "9", "8", "7", "6")
GERMAN_SUITS: tuple[str, ...] = ("H", "S", "L", "E")
WELI = "W"

SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
# German suits have no symbol of their own; the French equivalents (Schelle = diamonds,
# Laub = spades, Eichel = clubs) are accepted on input only.
_GERMAN_FROM_SYMBOL = {"♥": "H", "♦": "S", "♠": "L", "♣": "E"}
_FRENCH_FROM_SYMBOL = {sym: letter for letter, sym in SUIT_SYMBOLS.items()}
# No "1": README §3.1 writes the ace A (Swedish E), and a 1 is as likely a ten missing its zero.
_FRENCH_RANK_ALIASES = {"T": "10", "E": "A", "KN": "J", "D": "Q"}
_GERMAN_RANK_ALIASES = {"S": "A", "D": "A", "SAU": "A"}


class NotationError(ValueError):
    """A card (or list of cards) that cannot be read; not a rules violation.

    ``reason`` is English; ``template`` and ``values`` let a screen say it in the reader's
    language (the template is a gettext msgid: ``pybabel extract -k N_``)."""

    def __init__(self, text: str, pack: Pack, template: str = "", **values: str) -> None:
        self.text = text
        self.pack = pack
        if not template:
            template, values = N_("cannot read %(text)s as a card of the %(pack)s pack"), {
                "text": repr(text), "pack": pack}
        self.template = template
        self.values = values
        self.reason = template % values if values else template
        super().__init__(self.reason)


def N_(text: str) -> str:  # noqa: N802 - the gettext marker: translated where it is shown
    return text


_CARDS: dict[tuple[str, str], Card] = {}


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card. ``rank`` and ``suit`` are canonical upper-case letters (``suit`` is empty for the Weli).

    There is one ``Card`` object per rank and suit (``Card("Q", "H") is Card("Q", "H")``), so
    equality and hashing are the interpreter's identity checks: the engines compare and hash
    cards millions of times (a replay, a capture search), and field-wise ``__eq__``/``__hash__``
    written in Python were a fifth of a Mulatschak replay. Order is by rank text, then suit.
    """

    rank: str
    suit: str

    def __new__(cls, rank: str, suit: str) -> Card:
        key = (rank, suit)
        card = _CARDS.get(key)
        if card is None:
            card = object.__new__(cls)
            object.__setattr__(card, "rank", rank)
            object.__setattr__(card, "suit", suit)
            _CARDS[key] = card  # every card interned, or identity would not be equality
        return card

    def __reduce__(self) -> tuple[type[Card], tuple[str, str]]:
        return Card, (self.rank, self.suit)

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def _key(self) -> tuple[str, str]:
        return (self.rank, self.suit)

    def __lt__(self, other: Card) -> bool:
        return self._key() < other._key() if isinstance(other, Card) else NotImplemented

    def __le__(self, other: Card) -> bool:
        return self._key() <= other._key() if isinstance(other, Card) else NotImplemented

    def __gt__(self, other: Card) -> bool:
        return self._key() > other._key() if isinstance(other, Card) else NotImplemented

    def __ge__(self, other: Card) -> bool:
        return self._key() >= other._key() if isinstance(other, Card) else NotImplemented

    def __str__(self) -> str:
        return WELI if self.rank == WELI else f"{self.rank}{self.suit}"

    @property
    def code(self) -> str:
        return str(self)

    @property
    def is_weli(self) -> bool:
        return self.rank == WELI

    def pretty(self) -> str:
        """Rank and French suit symbol, e.g. ``10♦``; German cards keep their letters."""
        if self.is_weli:
            return "Weli"
        return f"{self.rank}{SUIT_SYMBOLS.get(self.suit, self.suit)}"

    @classmethod
    def parse(cls, text: str, pack: Pack = "french") -> Card:
        return parse_card(text, pack)


def _french(rank: str, suit: str) -> Card | None:
    rank = _FRENCH_RANK_ALIASES.get(rank, rank)
    suit = _FRENCH_FROM_SYMBOL.get(suit, suit)
    if rank in FRENCH_RANKS and suit in FRENCH_SUITS:
        return Card(rank, suit)
    return None


def _german(rank: str, suit: str) -> Card | None:
    rank = _GERMAN_RANK_ALIASES.get(rank, rank)
    suit = _GERMAN_FROM_SYMBOL.get(suit, suit)
    if rank in GERMAN_RANKS and suit in GERMAN_SUITS:
        return Card(rank, suit)
    return None


def parse_card(text: str, pack: Pack = "french") -> Card:
    """Read one card in any accepted notation: ``10D``, ``td``, ``10♦``, ``♦10``, Swedish ``hE``/``s7``/``cKn``,
    German ``OS``, ``W``."""
    # A replay reads the same few dozen spellings thousands of times: remember what they mean.
    found = _parsed.get((text, pack)) if isinstance(text, str) else None
    if found is None:
        found = _parse_card(text, pack)
        if len(_parsed) < 4096:
            _parsed[(text, pack)] = found
    return found


_parsed: dict[tuple[str, str], Card] = {}


def _parse_card(text: str, pack: Pack) -> Card:
    if not isinstance(text, str):
        raise NotationError(repr(text), pack, N_("a card must be written as text, not %(value)s"), value=repr(text))
    raw = text.strip().replace(" ", "").replace("-", "")
    up = raw.upper()
    if not up:
        raise NotationError(text, pack, N_("empty card"))
    if pack == "german" and up in {"W", "WELI"}:
        return Card(WELI, "")
    build = _french if pack == "french" else _german
    candidates: list[tuple[str, str]] = []
    # Rank first (canonical), then suit first (the Swedish seed's form).
    for i in range(1, len(up)):
        candidates.append((up[:i], up[i:]))
    for i in range(1, len(up)):
        candidates.append((up[i:], up[:i]))
    for rank, suit in candidates:
        card = build(rank, suit)
        if card is not None:
            return card
    ace_or_ten = _suit_beside_a_one(up, pack)
    if ace_or_ten is not None:
        raise NotationError(text, pack, N_("cannot read %(given)s: 1 is not a rank; did you mean %(ace)s or %(ten)s?"),
                            given=repr(text), ace=f"A{ace_or_ten}", ten=f"10{ace_or_ten}")
    raise NotationError(text, pack)


def _suit_beside_a_one(up: str, pack: Pack) -> str | None:
    """The suit of ``1H`` / ``h1`` / ``1♥``, which is an ace or a ten: the error suggests both."""
    if up.startswith("1"):
        rest = up[1:]
    elif up.endswith("1"):
        rest = up[:-1]
    else:
        return None
    symbols, suits = (_FRENCH_FROM_SYMBOL, FRENCH_SUITS) if pack == "french" else (_GERMAN_FROM_SYMBOL, GERMAN_SUITS)
    suit = symbols.get(rest, rest)
    return suit if suit in suits else None


def parse_cards(items: Iterable[str] | str, pack: Pack = "french") -> list[Card]:
    """A list of cards, from a JSON list or a text of cards separated by spaces or commas."""
    if isinstance(items, str):
        items = [part for part in re.split(r"[\s,;]+", items) if part]
    elif not isinstance(items, (list, tuple)):
        raise NotationError(repr(items), pack, N_("cards must be given as a list"))
    return [parse_card(item, pack) for item in items]


def french_pack(copies: int = 1) -> Counter[Card]:
    return Counter({Card(r, s): copies for s in FRENCH_SUITS for r in FRENCH_RANKS})


def german_pack(with_sixes: bool = False) -> Counter[Card]:
    ranks = GERMAN_RANKS if with_sixes else GERMAN_RANKS[:-1]
    pack = Counter({Card(r, s): 1 for s in GERMAN_SUITS for r in ranks})
    if not with_sixes:
        pack[Card(WELI, "")] = 1
    else:
        # With the 36-card option the Weli is the Schellen-6 itself (MULAT-OPT-PACK36).
        del pack[Card("6", "S")]
        pack[Card(WELI, "")] = 1
    return pack


# --- Names a screen reader speaks ------------------------------------------------------------

_FRENCH_NAMES: dict[str, tuple[dict[str, str], dict[str, str], str]] = {
    "en": (
        {"A": "ace", "J": "jack", "Q": "queen", "K": "king", "2": "two", "3": "three", "4": "four",
         "5": "five", "6": "six", "7": "seven", "8": "eight", "9": "nine", "10": "ten"},
        {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"},
        "{rank} of {suit}",
    ),
    "sv": (
        {"A": "ess", "J": "knekt", "Q": "dam", "K": "kung", "2": "tvåa", "3": "trea", "4": "fyra",
         "5": "femma", "6": "sexa", "7": "sjua", "8": "åtta", "9": "nia", "10": "tia"},
        {"S": "spader", "H": "hjärter", "D": "ruter", "C": "klöver"},
        "{suit} {rank}",
    ),
    "de": (
        {"A": "Ass", "J": "Bube", "Q": "Dame", "K": "König", "2": "Zwei", "3": "Drei", "4": "Vier",
         "5": "Fünf", "6": "Sechs", "7": "Sieben", "8": "Acht", "9": "Neun", "10": "Zehn"},
        {"S": "Pik", "H": "Herz", "D": "Karo", "C": "Kreuz"},
        "{suit} {rank}",
    ),
}

# The German table terms are used in every language (the issue asks for them), with a gloss.
_GERMAN_RANK_NAMES = {"A": "Sau", "K": "König", "O": "Ober", "U": "Unter", "10": "Zehner",
                      "9": "Neuner", "8": "Achter", "7": "Siebener", "6": "Sechser"}
GERMAN_SUIT_NAMES: dict[str, str] = {"H": "Herz", "S": "Schelle", "L": "Laub", "E": "Eichel"}  # the one place they are spelled


def card_name(card: Card, lang: str = "en", pack: Pack = "french") -> str:
    """The spoken name: ``five of clubs`` / ``klöver fem`` / ``Kreuz Fünf``."""
    if card.is_weli:
        return "Weli"
    if pack == "german":
        return f"{GERMAN_SUIT_NAMES[card.suit]}-{_GERMAN_RANK_NAMES[card.rank]}"
    ranks, suits, pattern = _FRENCH_NAMES.get(lang[:2], _FRENCH_NAMES["en"])
    return pattern.format(rank=ranks[card.rank], suit=suits[card.suit])


def rank_name(rank: str, lang: str = "en") -> str:
    """A French rank's spoken name alone: ``eight`` / ``åtta`` / ``Acht``."""
    return _FRENCH_NAMES.get(lang[:2], _FRENCH_NAMES["en"])[0].get(rank, rank)


# The letters printed in a card's corner, as the table says them: Swedish packs have Kn(ekt),
# D(am), K(ung), E(ss); German ones B(ube), D(ame), K(önig), A(ss). Codes stay J/Q/K/A.
_FRENCH_FACES: dict[str, dict[str, str]] = {"sv": {"J": "Kn", "Q": "D", "A": "E"}, "de": {"J": "B", "Q": "D"}}


def rank_face(rank: str, lang: str = "en") -> str:
    """A French rank as its corner letters in ``lang``: ``Q`` / ``D`` / ``D``; numbers as they are."""
    return _FRENCH_FACES.get(lang[:2], {}).get(rank, rank)


def suit_name(suit: str, lang: str = "en", pack: Pack = "french") -> str:
    if pack == "german":
        return GERMAN_SUIT_NAMES[suit]
    return _FRENCH_NAMES.get(lang[:2], _FRENCH_NAMES["en"])[1][suit]


# --- Names in running text (messages, verdicts, history) --------------------------------------

# What players call the cards at the table: "ruter tia", "klöver åtta"; "Karo-Zehn", "Kreuz-Acht".
# The same words as the spoken names; only German joins them with a hyphen in writing.
_RUNNING_FRENCH: dict[str, tuple[dict[str, str], dict[str, str], str]] = {
    "sv": _FRENCH_NAMES["sv"],
    "de": (*_FRENCH_NAMES["de"][:2], "{suit}-{rank}"),
}
# The German pack is named the Austrian way at every table: Herz-Sau, Schellen-Ober, Eichel-Zehner.
_RUNNING_GERMAN_SUITS = {"H": "Herz", "S": "Schellen", "L": "Laub", "E": "Eichel"}
_RUNNING_SUIT_WORDS: dict[str, dict[str, str]] = {
    "en": {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"},
    "sv": _RUNNING_FRENCH["sv"][1],
    "de": _RUNNING_FRENCH["de"][1],
}


def card_text(card: Card, lang: str = "en", pack: Pack = "french") -> str:
    """A card in a sentence: English keeps the short ``Q♥``; Swedish ``hjärter dam``, German
    ``Herz-Dame``; the German pack ``Schellen-Ober``, ``Herz-Sau``, ``Weli`` in every language."""
    if card.is_weli:
        return "Weli"
    if pack == "german":
        return f"{_RUNNING_GERMAN_SUITS[card.suit]}-{_GERMAN_RANK_NAMES[card.rank]}"
    names = _RUNNING_FRENCH.get(lang[:2])
    if names is None or card.rank not in names[0] or card.suit not in names[1]:
        return card.pretty()
    ranks, suits, pattern = names
    return pattern.format(rank=ranks[card.rank], suit=suits[card.suit])


def suit_text(suit: str, lang: str = "en", pack: Pack = "french") -> str:
    """A suit in a sentence: ``hearts`` / ``hjärter`` / ``Herz``; the German pack's own names always."""
    if pack == "german":
        return GERMAN_SUIT_NAMES[suit]
    words = _RUNNING_SUIT_WORDS.get(lang[:2], _RUNNING_SUIT_WORDS["en"])
    return words.get(suit) or GERMAN_SUIT_NAMES.get(suit, suit)


def running_languages() -> tuple[str, ...]:
    """The languages with their own card names in running text (English uses the short form)."""
    return ("en", *_RUNNING_FRENCH)
