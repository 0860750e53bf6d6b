"""Card faces and the card pickers' cells as HTML, made here rather than in Jinja macros and kept
per language.

A move's answer draws a whole pack of cells (the composer's chooser: 13 ranks, 52 cards), and on a
phone keeping a table alone the app runs under Pyodide, where each macro call with its escaping
costs about what the whole cell costs here. A cell depends only on its card, its count, whether it
is ticked and the language, so most are found in the cache (issue 27: a move's verdict within
150 ms on a mid-range phone). The markup is the macros' markup (templates/_cards.html), the same
hooks (``data-card``, ``data-rank``), without the whitespace between tags (a few hundred text
nodes fewer for the phone to parse; the cells are flex and grid items, where it never showed, and
the spoken count starts with its own space).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from functools import lru_cache
from typing import Any

from markupsafe import Markup, escape

from scorekeeper.cards import (
    GERMAN_SUIT_NAMES,
    SUIT_SYMBOLS,
    card_name,
    parse_card,
    rank_face,
    rank_name,
)
from scorekeeper.localize import gettext as _
from scorekeeper.localize import language

_GERMAN_FACE_RANK = {"A": "Sau"}


def german_face(code: str) -> Markup:
    """German cards show their rank (the ace as "Sau") over the suit's name with a coloured pip,
    never a French symbol; the Weli says so. The card's face gives the spoken name."""
    if code == "W":
        rank, suit = "W", "Weli"
    else:
        rank = _GERMAN_FACE_RANK.get(code[:-1], code[:-1])
        suit = GERMAN_SUIT_NAMES.get(code[-1], code[-1])
    return Markup('<span class="gface"><span class="g-rank">{}</span><span class="g-suit">{}</span></span>').format(
        rank, suit)


def spoken_card(code: str, pack: str, lang: str) -> str:
    """The name a screen reader speaks for a card."""
    kind = "german" if pack == "german" else "french"
    try:
        card = parse_card(code, kind)
    except ValueError:
        return code
    return card_name(card, lang, kind)


def card(code: str, pack: str = "french", cls: str = "") -> Markup:
    """A card's face: its rank and suit symbol (German cards: rank over suit name), its spoken name."""
    return _card(code, pack, cls, language())


@lru_cache(maxsize=2048)
def _card(code: str, pack: str, cls: str, lang: str) -> Markup:
    german = pack == "german"
    suit = "" if code == "W" else code[-1]
    rank = code if code == "W" else code[:-1]
    colour = f"g-{suit}" if german else ("red" if suit in "HD" else "black")
    face = german_face(code) if german else escape(rank_face(rank, lang) + SUIT_SYMBOLS.get(suit, suit))
    return Markup('<span class="cardface {} {}" role="img" aria-label="{}">{}</span>').format(
        cls, colour, spoken_card(code, pack, lang), face)


def _left(unseen: Any, code: str) -> int:
    return int(unseen.get(code, 0)) if isinstance(unseen, Mapping) else 1


@lru_cache(maxsize=1024)
def _unseen_words(left: int, lang: str) -> str:
    return _("%(n)s unseen", n=left)


def _gone(left: int) -> str:
    return " gone" if left == 0 else ""


def _state(left: int, ticked: bool) -> Markup:
    """A cell's radio: disabled when none of it is unseen (crossed out), else checked if ticked."""
    return Markup(" disabled" if left == 0 else (" checked" if ticked else ""))


@lru_cache(maxsize=4096)
def _pick(name: str, code: str, pack: str, left: int, counted: bool, ticked: bool, kind: str,
          required: bool, lang: str) -> Markup:
    # The count is drawn from ``data-left`` (CSS ``::after``) and spoken in the radio's own name,
    # the name its label gave it before (the card, then "2 unseen"): two elements a card fewer,
    # of the chooser's 52, for the phone to parse, insert and style on every move.
    spoken = (Markup(' aria-label="{} {}"').format(spoken_card(code, pack, lang), _unseen_words(left, lang))
              if counted else "")
    return Markup(
        '<label class="pick{gone}" data-card="{code}"{count}>'
        '<input type="{kind}" name="{name}" value="{code}"{state}{required}{spoken}>{face}</label>').format(
        gone=_gone(left), code=code, kind=kind, name=name, state=_state(left, ticked),
        required=Markup(" required" if required else ""), face=_card(code, pack, "", lang),
        count=Markup(' data-left="×{}"').format(left) if counted else "", spoken=spoken)


def pick(name: str, code: str, unseen: Any, chosen: Collection[str] | str, pack: str = "french",
         multi: bool = False, required: bool = False) -> Markup:
    """One card of a picker: a radio (a checkbox when ``multi``) with the card's face and how many
    of it are unseen; crossed out and disabled when none is."""
    return _pick_in(name, code, unseen, chosen, pack, multi, required, language())


def _pick_in(name: str, code: str, unseen: Any, chosen: Collection[str] | str, pack: str, multi: bool,
             required: bool, lang: str) -> Markup:
    ticked = code in chosen if (multi or not isinstance(chosen, str)) else code == chosen
    return _pick(name, code, pack, _left(unseen, code), isinstance(unseen, Mapping), ticked,
                 "checkbox" if multi else "radio", required and not multi, lang)


@lru_cache(maxsize=1024)
def _rank(name: str, rank: str, left: int, ticked: bool, lang: str) -> Markup:
    # As a card's cell: the rank's face is the label's text, its count ``data-left``; the radio's
    # name is the one its label gave it before ("5 five: 4 unseen").
    face = rank_face(rank, lang)
    return Markup(
        '<label class="rank{gone}" data-rank="{rank}" data-left="{left}">'
        '<input type="radio" name="{name}-rank" form="{name}-rank-step" value="{rank}"{state}'
        ' aria-label="{face} {spoken}: {unseen}">{face}</label>').format(
        gone=_gone(left), rank=rank, name=name, state=_state(left, ticked),
        face=face, left=left, spoken=rank_name(rank, lang), unseen=_unseen_words(left, lang))


def rank_cells(name: str, ranks: Sequence[str], suits: Sequence[str], unseen: Any, chosen_rank: str) -> Markup:
    """The chooser's first step: one radio a rank with the unseen count of all its suits."""
    lang = language()
    # Joined as plain text: every cell is markup already, and Markup.join escapes each one again.
    return Markup("".join(
        _rank(name, r, sum(_left(unseen, r + s) for s in suits), r == chosen_rank, lang) for r in ranks))


def suit_steps(name: str, ranks: Sequence[str], suits: Sequence[str], unseen: Any,
               chosen: Collection[str] | str, multi: bool = False) -> Markup:
    """The chooser's second step: for each rank, its cards (shown once the rank is tapped).

    Kept per rank: a move changes the counts of one or two ranks, so the other steps of the next
    answer are found whole (under Pyodide this step was a sixth of a move's Python)."""
    lang = language()
    suits = tuple(suits)
    counted = isinstance(unseen, Mapping)
    several = multi or not isinstance(chosen, str)
    return Markup("".join(
        _suit_step(name, r, suits, tuple(_left(unseen, r + s) for s in suits),
                   tuple((r + s in chosen) if several else (r + s == chosen) for s in suits), counted, multi, lang)
        for r in ranks))


@lru_cache(maxsize=2048)
def _suit_step(name: str, rank: str, suits: tuple[str, ...], lefts: tuple[int, ...], ticks: tuple[bool, ...],
               counted: bool, multi: bool, lang: str) -> str:
    head = Markup('<div class="suit-step" data-of="{}" role="group" aria-label="{}">').format(
        rank, rank_name(rank, lang))
    kind = "checkbox" if multi else "radio"
    cells = "".join(_pick(name, rank + s, "french", left, counted, tick, kind, False, lang)
                    for s, left, tick in zip(suits, lefts, ticks, strict=True))
    return str(head) + cells + "</div>"
