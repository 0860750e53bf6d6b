"""Card notation: parsed in one place, every accepted form, clear errors naming the input."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.cards import (
    FRENCH_RANKS,
    FRENCH_SUITS,
    Card,
    NotationError,
    Pack,
    card_name,
    french_pack,
    german_pack,
    parse_card,
    parse_cards,
)


@pytest.mark.parametrize("text, code", [
    ("10D", "10D"), ("td", "10D"), ("T♦", "10D"), ("10♦", "10D"), ("♦10", "10D"), ("as", "AS"),
    ("hE", "AH"), ("s7", "7S"), ("cE", "AC"), ("sK", "KS"), ("d4", "4D"), ("c8", "8C"), ("sD", "QS"),
    ("hKn", "JH"), ("QC", "QC"), ("2♠", "2S"), (" 5 c ", "5C"), ("DD", "QD"), ("dK", "KD"),
])
def test_french_notation(text: str, code: str) -> None:
    assert str(parse_card(text)) == code


@pytest.mark.parametrize("text, code", [("OS", "OS"), ("AH", "AH"), ("10L", "10L"), ("W", "W"),
                                        ("weli", "W"), ("UE", "UE"), ("7♥", "7H")])
def test_german_notation(text: str, code: str) -> None:
    assert str(parse_card(text, "german")) == code


@pytest.mark.parametrize("text", ["", "11D", "ZZ", "1", "10X", "W", "AH5", "♠"])
def test_bad_notation_names_the_input(text: str) -> None:
    with pytest.raises(NotationError) as exc:
        parse_card(text)
    assert exc.value.text == text


@pytest.mark.parametrize("text, pack, suit", [
    ("1H", "french", "H"), ("1h", "french", "H"), ("h1", "french", "H"), ("1♥", "french", "H"),
    ("♠1", "french", "S"), ("1 C", "french", "C"), ("1H", "german", "H"), ("1L", "german", "L"),
    ("e1", "german", "E"),
])
def test_rank_1_is_refused_with_a_hint(text: str, pack: Pack, suit: str) -> None:
    """README §3.1 names A (Swedish E) for the ace; a 1 may as well be a ten missing its zero."""
    with pytest.raises(NotationError) as exc:
        parse_card(text, pack)
    assert exc.value.text == text
    assert f"did you mean A{suit} or 10{suit}?" in exc.value.reason


def test_non_text_is_a_notation_error() -> None:
    with pytest.raises(NotationError):
        parse_card(5)  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        parse_cards(5)  # type: ignore[arg-type]


def test_lists_and_text() -> None:
    assert [str(c) for c in parse_cards("5D, 9s ♥K")] == ["5D", "9S", "KH"]
    assert [str(c) for c in parse_cards(["ac", "2S"])] == ["AC", "2S"]


def test_packs() -> None:
    assert sum(french_pack(2).values()) == 104 and set(french_pack(2).values()) == {2}
    assert sum(german_pack().values()) == 33 and german_pack()[Card("W", "")] == 1
    assert sum(german_pack(with_sixes=True).values()) == 36


def test_spoken_names_in_three_languages() -> None:
    five = Card("5", "C")
    assert card_name(five, "en") == "five of clubs"
    assert card_name(five, "sv") == "klöver femma"  # the noun players say
    assert card_name(five, "de") == "Kreuz Fünf"
    assert card_name(Card("O", "S"), "en", "german") == "Schelle-Ober"


@given(st.sampled_from(FRENCH_RANKS), st.sampled_from(FRENCH_SUITS))
def test_canonical_form_round_trips(rank: str, suit: str) -> None:
    card = Card(rank, suit)
    assert parse_card(str(card)) == card
    assert parse_card(str(card).lower()) == card
    assert parse_card(card.pretty()) == card
