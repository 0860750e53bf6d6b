"""The shared trick primitives, exercised with Mulatschak's and a piquet pack's rank orders."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from scorekeeper.cards import Card, german_pack, parse_cards
from scorekeeper.engine.tricks import (
    Obligations,
    RankOrder,
    audit_revokes,
    beats,
    check_play,
    hand_at,
    legal_cards,
    suit_of,
    trick_winner,
    winning_index,
)

WELI = Card("W", "")
MULAT = RankOrder(plain=("A", "K", "O", "U", "10", "9", "8", "7", "6"),
                  trump=("A", "W", "K", "O", "U", "10", "9", "8", "7", "6"),
                  always_trump=frozenset({WELI}))
MULAT_DUTIES = Obligations(MULAT, must_trump=True, must_head=True)
PIQUET = RankOrder(plain=("A", "K", "Q", "J", "10", "9", "8", "7"))
PIQUET_DUTIES = Obligations(PIQUET)


def g(text: str) -> list[Card]:
    return parse_cards(text, "german") if text else []


def f(text: str) -> list[Card]:
    return parse_cards(text, "french") if text else []


def test_weli_belongs_to_trump_only() -> None:
    assert suit_of(WELI, "H", MULAT) == "H"
    assert suit_of(WELI, "L", MULAT) == "L"
    assert suit_of(Card("9", "S"), "L", MULAT) == "S"
    assert suit_of(WELI, None, MULAT) == ""


def test_beats_orders() -> None:
    # The Weli sits between the trump Sau and the trump König.
    assert beats(WELI, g("KH")[0], "H", "H", MULAT)
    assert not beats(WELI, g("AH")[0], "H", "H", MULAT)
    # A plain card of another suit never beats; any trump beats a plain card.
    assert not beats(g("AE")[0], g("7S")[0], "S", "L", MULAT)
    assert beats(g("7L")[0], g("AS")[0], "S", "L", MULAT)
    assert beats(g("7S")[0], g("AE")[0], "S", "L", MULAT)
    assert not beats(g("7S")[0], g("8S")[0], "S", "L", MULAT)
    # Without trumps only the suit led counts.
    assert beats(f("KS")[0], f("QS")[0], "S", None, PIQUET)
    assert not beats(f("AH")[0], f("7S")[0], "S", None, PIQUET)


def test_unknown_rank_is_an_error() -> None:
    with pytest.raises(ValueError):
        beats(Card("2", "S"), Card("7", "S"), "S", None, PIQUET)


def test_trick_winner_seats_skip_players_sitting_out() -> None:
    cards = g("AS KE 8L 10S")
    assert winning_index(cards, "L", MULAT) == 2
    assert trick_winner(cards, 0, "L", MULAT) == 2
    assert trick_winner(cards, 2, "L", MULAT) == 0  # seats 2, 3, 0, 1
    # Seats 0, 2, 3 play; 1 stays home. Leader 3 → 3, 0, 2.
    assert trick_winner(g("9E AE KE"), 3, "H", MULAT, seats=[0, 2, 3]) == 0
    with pytest.raises(ValueError):
        trick_winner(g("9E"), 1, "H", MULAT, seats=[0, 2])
    with pytest.raises(ValueError):
        winning_index([], "H", MULAT)


@pytest.mark.parametrize("trump, trick, hand, legal", [
    ("L", "AS", "KE 9H 7E", "KE 9H 7E"),
    ("L", "AS KE", "8L AE", "8L"),
    ("L", "AS KE 8L", "10L 10S", "10S"),
    ("H", "OH", "9S 8E", "9S 8E"),
    ("H", "OH 9S", "AH 7H", "AH"),
    ("H", "OH 9S AH", "W KL 9L", "W"),
    ("E", "9S", "KS 7S AE", "KS"),
    ("E", "KH UE", "OE 8E AL", "OE"),
    ("E", "KH OE", "8E AL", "8E"),
    ("S", "W", "AS 7S KH", "AS"),
    ("H", "10S", "W 8S", "8S"),
    ("L", "10S", "W 8H", "W"),
    ("E", "", "KS 7S", "KS 7S"),
])
def test_legal_cards_mulatschak_duties(trump: str, trick: str, hand: str, legal: str) -> None:
    assert legal_cards(g(hand), g(trick), trump, MULAT_DUTIES) == g(legal)


def test_no_head_duty_keeps_follow_only() -> None:
    duties = Obligations(MULAT, must_trump=True, must_head=False)
    assert legal_cards(g("KS 7S AE"), g("9S"), "E", duties) == g("KS 7S")
    # Still must trump, but any trump will do.
    assert legal_cards(g("OE 8E AL"), g("KH UE"), "E", duties) == g("OE 8E")


def test_optional_trumping_piquet() -> None:
    assert legal_cards(f("7S AH 9D"), f("KS"), "H", PIQUET_DUTIES) == f("7S")
    assert legal_cards(f("AH 9D"), f("KS"), "H", PIQUET_DUTIES) == f("AH 9D")
    assert legal_cards(f("7H AC"), f("8H"), "H", PIQUET_DUTIES) == f("7H")


def test_check_play_names_the_broken_duty_and_a_witness() -> None:
    follow = check_play(g("9E KS"), g("9S"), g("9E")[0], "E", MULAT_DUTIES)
    assert follow is not None and follow.kind == "follow" and follow.witness == g("KS")[0]
    assert "must follow Schelle: played Eichel-Neuner while holding Schellen-König" in follow.describe(2, "german")
    trump = check_play(g("AL 8E"), g("KH OE"), g("AL")[0], "E", MULAT_DUTIES)
    assert trump is not None and trump.kind == "trump" and trump.witness == g("8E")[0]
    assert "must trump" in trump.describe(1, "german")
    head = check_play(g("7S KS"), g("9S"), g("7S")[0], "E", MULAT_DUTIES)
    assert head is not None and head.kind == "head" and head.witness == g("KS")[0]
    assert "must beat Schellen-Neuner" in head.describe(0, "german")
    # Holding a trump that beats, playing a plain card: the trump duty is the one broken.
    assert check_play(g("AL OE"), g("KH UE"), g("AL")[0], "E", MULAT_DUTIES).kind == "trump"  # type: ignore[union-attr]
    # Holding a heading card of the suit led, throwing off: the follow duty is the one broken.
    assert check_play(g("AL KS"), g("9S"), g("AL")[0], "E", MULAT_DUTIES).kind == "follow"  # type: ignore[union-attr]
    assert check_play(g("KS 7S"), g("9S"), g("KS")[0], "E", MULAT_DUTIES) is None
    assert check_play(g("KS 7S"), [], g("7S")[0], "E", MULAT_DUTIES) is None


def test_audit_finds_revoke_with_later_evidence() -> None:
    # Trump L. Trick 1: P0 leads AS, P1 throws 9E although P1 plays KS at trick 2.
    plays = [[(0, g("AS")[0]), (1, g("9E")[0])], [(0, g("7H")[0]), (1, g("KS")[0])]]
    found = audit_revokes(plays, "L", MULAT_DUTIES)
    assert len(found) == 1
    revoke = found[0]
    assert (revoke.player, revoke.trick, str(revoke.card), revoke.kind) == (1, 1, "9E", "follow")
    assert (str(revoke.evidence), revoke.evidence_trick) == ("KS", 2)
    assert "played Eichel-Neuner at trick 1 but later played Schellen-König (trick 2)" in revoke.describe("german")


def test_audit_uses_cards_still_held() -> None:
    plays = [[(0, g("AS")[0]), (1, g("9E")[0])]]
    assert audit_revokes(plays, "L", MULAT_DUTIES) == []
    found = audit_revokes(plays, "L", MULAT_DUTIES, holding={1: g("8L 10S")})
    assert [(r.kind, str(r.evidence), r.evidence_trick) for r in found] == [("follow", "10S", None)]
    assert "still holds Schellen-Zehner" in found[0].describe("german")
    assert hand_at(plays, 1, 0, g("8L")) == g("9E 8L")


def test_audit_head_and_trump_kinds() -> None:
    # Trump E. P1 ducks with 7S while playing KS later (Stichzwang); P2 throws AL though it trumps later.
    plays = [[(0, g("9S")[0]), (1, g("7S")[0]), (2, g("AL")[0])],
             [(0, g("8H")[0]), (1, g("KS")[0]), (2, g("8E")[0])]]
    kinds = [(r.player, r.kind, str(r.evidence)) for r in audit_revokes(plays, "E", MULAT_DUTIES)]
    assert kinds == [(1, "head", "KS"), (2, "trump", "8E")]
    assert audit_revokes(plays, "E", Obligations(MULAT)) == []


def _deal_hands(seed: list[Card], players: int) -> list[list[Card]]:
    return [seed[i * 5:(i + 1) * 5] for i in range(players)]


@given(st.permutations(sorted(german_pack())), st.integers(2, 6), st.sampled_from("HSLE"),
       st.randoms(use_true_random=False))
def test_legal_playouts_never_audit_as_revokes(pack: list[Card], players: int, trump: str, rnd: random.Random) -> None:
    """A deal played only with legal cards is never flagged; the hand at each trick is exactly the
    cards still to be played."""
    hands = _deal_hands(pack, players)
    leader = 0
    plays: list[list[tuple[int, Card]]] = []
    for _ in range(5):
        trick: list[tuple[int, Card]] = []
        for k in range(players):
            seat = (leader + k) % players
            options = legal_cards(hands[seat], [c for _, c in trick], trump, MULAT_DUTIES)
            assert options, "some card is always legal"
            card = rnd.choice(options)
            hands[seat].remove(card)
            trick.append((seat, card))
        plays.append(trick)
        leader = trick_winner([c for _, c in trick], leader, trump, MULAT, seats=range(players))
    assert audit_revokes(plays, trump, MULAT_DUTIES) == []
    assert all(not h for h in hands)


@given(st.permutations(sorted(german_pack())), st.sampled_from("HSLE"), st.randoms(use_true_random=False))
def test_any_illegal_play_is_caught_after_the_deal(pack: list[Card], trump: str, rnd: random.Random) -> None:
    """Play three hands where one seat plays at random; every illegal card it chose is audited."""
    hands = _deal_hands(pack, 3)
    leader = 0
    plays: list[list[tuple[int, Card]]] = []
    illegal: list[int] = []
    for number in range(1, 6):
        trick: list[tuple[int, Card]] = []
        for k in range(3):
            seat = (leader + k) % 3
            options = legal_cards(hands[seat], [c for _, c in trick], trump, MULAT_DUTIES)
            card = rnd.choice(hands[seat]) if seat == 1 else rnd.choice(options)
            if card not in options:
                illegal.append(number)
            hands[seat].remove(card)
            trick.append((seat, card))
        plays.append(trick)
        leader = trick_winner([c for _, c in trick], leader, trump, MULAT)
    found = audit_revokes(plays, trump, MULAT_DUTIES)
    assert [r.trick for r in found] == illegal
    assert all(r.player == 1 and r.evidence_trick is not None and r.evidence_trick > r.trick for r in found)


@given(st.permutations(sorted(german_pack())), st.sampled_from("HSLE"), st.randoms(use_true_random=False),
       st.sets(st.integers(0, 3)))
def test_auditing_some_seats_finds_the_full_audits_revokes_of_those_seats(
        pack: list[Card], trump: str, rnd: random.Random, seats: set[int]) -> None:
    """Every seat plays at random (many revokes of every kind); ``seats`` keeps the full audit's
    revokes of those seats, in the same order, and nothing else."""
    hands = _deal_hands(pack, 4)
    plays = []
    for number in range(rnd.randint(1, 5)):
        trick = [(seat, hands[seat].pop(rnd.randrange(len(hands[seat])))) for seat in range(4)]
        plays.append(trick[: rnd.randint(1, 4)] if number == 4 else trick)
    full = audit_revokes(plays, trump, MULAT_DUTIES)
    assert audit_revokes(plays, trump, MULAT_DUTIES, seats=seats) == [r for r in full if r.player in seats]


@given(st.permutations(sorted(german_pack())), st.integers(1, 7), st.sampled_from(["H", "S", "L", "E", None]),
       st.booleans())
def test_the_winner_is_the_card_that_beats_every_other(pack: list[Card], size: int, trump: str | None,
                                                        german: bool) -> None:
    """winning_index ranks the trick at once; it must name the card ``beats`` leaves on top when
    each card in turn challenges the one winning so far (Weli, trumps, the led suit, discards)."""
    if german:
        # A Mulatschak deal always has a trump suit (the desk refuses one without, 400): with none,
        # the Weli has no rank at all, and which of the two raises first is not the contract.
        assume(trump is not None)
        order, cards = MULAT, pack[:size]
    else:
        order = PIQUET
        cards = [Card(c.rank if c.rank not in ("O", "U", "W", "6") else "Q", {"H": "H", "S": "S", "L": "C", "E": "D"}.get(c.suit, "S"))
                 for c in pack[:size]]
        trump = {"H": "H", "S": "S", "L": "C", "E": "D"}.get(trump) if trump else None  # type: ignore[arg-type]
    cards = [*cards, *cards[1:2]]  # a repeated card (two packs): the first played of the two wins
    led = suit_of(cards[0], trump, order)
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], led, trump, order):
            best = i
    assert winning_index(cards, trump, order) == best
