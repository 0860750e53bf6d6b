"""Mousel: every rule id, test vector (MOUSEL-TV-*) and worked example (MOUSEL-EX-*) of rules/mousel.md."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

import pytest

from scorekeeper.cards import Card, NotationError, parse_cards
from scorekeeper.engine import RULES as REGISTRY
from scorekeeper.engine.base import MalformedEvent, RuleViolation, SetupError
from scorekeeper.engine.ledger import POT, Entry, check_invariant
from scorekeeper.engine.mousel import OBLIGATIONS_32, ORDER_32, Mousel, MouselState, split_pot
from scorekeeper.engine.tricks import legal_cards, trick_winner

R = Mousel()
A, B, C, D, E = range(5)
Event = dict[str, Any]


def new(players: int = 4, mode: Any = "adjudicate", **options: Any) -> MouselState:
    return R.new("ABCDEFG"[:players], options, mode)


def run(state: MouselState, *events: Event) -> MouselState:
    for event in events:
        state = R.apply(state, event)
        assert sum(state.balances) + state.pot == 0
    return state


def refused(state: MouselState, event: Event) -> RuleViolation:
    before = R.to_json(state)
    with pytest.raises(RuleViolation) as info:
        R.apply(state, event)
    assert R.to_json(state) == before, "a refused event leaves the state untouched"
    return info.value


def deal(dealer: int | None = None, last: bool = False) -> Event:
    event: Event = {"type": "deal"}
    if dealer is not None:
        event["dealer"] = dealer
    if last:
        event["last"] = True
    return event


def turn(card: str) -> Event:
    return {"type": "turn_up", "card": card}


def take(p: int) -> Event:
    return {"type": "take", "player": p}


def refuse(*players: int) -> list[Event]:
    return [{"type": "refuse", "player": p} for p in players]


def ex(p: int, count: int) -> Event:
    return {"type": "exchange", "player": p, "count": count}


def fold(p: int) -> Event:
    return {"type": "fold", "player": p}


def discard(p: int) -> Event:
    return {"type": "discard", "player": p}


def plays(*pairs: tuple[int, str]) -> list[Event]:
    return [{"type": "play", "player": p, "card": c} for p, c in pairs]


def tally(taker: int, tricks: Iterable[int], folded: Iterable[int] = (), **extra: Any) -> Event:
    return {"type": "deal_result", "taker": taker, "tricks": list(tricks), "folded": list(folded), **extra}


# --- The worked examples, adjudicated card by card ---------------------------------------------

EX1 = [deal(D), turn("8C"), *refuse(D, A, B, C, D), turn("KS"), *refuse(A), take(B)]
EX2_REST = [ex(B, 2), fold(C), ex(A, 1), ex(D, 3), discard(B),
            *plays((B, "AS"), (D, "7S"), (A, "8S"), (B, "KS"), (D, "9S"), (A, "10S"),
                   (B, "7D"), (D, "AD"), (A, "8D"), (D, "KH"), (A, "AH"), (B, "9H"))]
EX3 = [deal(), turn("9C"), *refuse(B), take(C), ex(C, 1), ex(D, 1), fold(B), ex(A, 0), discard(C),
       *plays((C, "7H"), (D, "8H"), (A, "AH"), (A, "AD"), (C, "7D"), (D, "8D"),
              (A, "KD"), (C, "9D"), (D, "10D"), (A, "7S"), (C, "9C"), (D, "8S"))]
EX4 = [deal(), turn("7H"), *refuse(C), take(D), ex(D, 1), ex(A, 1), fold(C), ex(B, 0), discard(D),
       *plays((D, "7C"), (A, "AC"), (B, "8C"), (A, "AS"), (B, "7S"), (D, "8S"),
              (A, "9D"), (B, "AD"), (D, "10D"), (B, "KD"), (D, "JD"), (A, "QD"))]


def test_ex1_turn_up_sequence() -> None:
    """MOUSEL-EX-1 (and MOUSEL-TRUMP-1…6, MOUSEL-DEAL-2/4, MOUSEL-COMP-3)."""
    state = run(new(), *EX1)
    view = R.to_json(state)["deal"]
    assert view["set_aside"] == ["8C"]  # MOUSEL-TRUMP-5 / AMB-3
    assert view["trump"] == "S" and view["taker"] == B  # MOUSEL-TRUMP-6
    assert view["hands"] == [4, 5, 4, 4]  # B holds N+1
    assert view["stock"] == 14  # 32 - 16 dealt - 2 turned (MOUSEL-DEAL-4)
    assert view["dealer_looked"]


def test_ex2_first_deal_clean_split() -> None:
    """MOUSEL-EX-2; O decides last (MOUSEL-EXCH-4, MOUSEL-AMB-5); one extra discard (MOUSEL-AMB-14)."""
    state = run(new(), *EX1)
    assert R.to_json(state)["deal"]["decision_order"] == [B, C, A, D]  # D is O and decides last
    assert state.deal is not None and state.deal.must_play == D
    state = run(state, *EX2_REST[:4])
    assert state.deal is not None and state.deal.stock == 8
    state = run(state, *EX2_REST[4:])
    row = state.sheet[-1]
    assert row.pot == 4 and row.tricks == (1, 2, 0, 1)
    assert row.shares == (1, 2, 0, 1) and not any(row.penalties)
    assert state.balances == (0, 1, -1, 0) and state.pot == 0
    assert check_invariant(state.book)


def test_ex3_second_deal_penalties() -> None:
    """MOUSEL-EX-3; penalties are the pot before shares (MOUSEL-AMB-13); MOUSEL-POT-2 (12 = 3 × 4)."""
    state = run(new(), *EX1, *EX2_REST)
    state = run(state, *EX3[:1])
    assert state.balances == (-1, 0, -2, -1) and state.pot == 4  # after antes
    assert state.deal is not None and state.deal.dealer == A  # MOUSEL-DEAL-3
    state = run(state, *EX3[1:])
    row = state.sheet[-1]
    assert row.taker == C and row.tricks == (3, 0, 1, 0) and row.folded == (B,)
    assert row.shares == (3, 0, 1, 0)
    assert row.penalties == (0, 0, 4, 4)  # C: taker with one trick; D: no trick
    assert state.balances == (2, 0, -5, -5) and state.pot == 8
    assert row.next_pot == 12  # MOUSEL-POT-7
    rules = {e.rule for e in state.book.entries if e.deal == 2 and e.kind == "penalty"}
    assert rules == {"MOUSEL-POT-4", "MOUSEL-POT-5"}


def test_ex4_third_deal_taker_set() -> None:
    """MOUSEL-EX-4; the history feeds the chart; balances go negative (MOUSEL-END-3)."""
    state = run(new(), *EX1, *EX2_REST, *EX3)
    state = run(state, EX4[0])
    assert state.balances == (1, -1, -6, -6) and state.pot == 12
    assert R.to_json(state)["value_per_trick"] == 3
    state = run(state, *EX4[1:])
    assert state.sheet[-1].shares == (6, 6, 0, 0)
    assert state.sheet[-1].penalties == (0, 0, 0, 24)  # 2P
    assert state.balances == (7, 5, -6, -30) and state.pot == 24
    assert state.sheet[-1].next_pot == 28
    view = R.to_json(state)
    assert [h["pot"] for h in view["history"]] == [0, 0, 8, 24]
    assert view["history"][-1]["balances"] == [7, 5, -6, -30]


def test_ex5_five_players_short_stock() -> None:
    """MOUSEL-EX-5; first come, first served (MOUSEL-AMB-6); refused cards are out (MOUSEL-AMB-3)."""
    state = run(new(5), deal(A))
    assert state.deal is not None and state.deal.stock == 7
    state = run(state, turn("7C"), *refuse(A, B, C, D, E, A))
    assert state.deal is not None and state.deal.stock == 6
    state = run(state, turn("7D"), *refuse(B), take(C))
    assert state.deal is not None and state.deal.stock == 5
    assert state.deal.order == (C, D, E, B, A) and state.deal.must_play == A
    state = run(state, ex(C, 3), ex(D, 2))
    assert state.deal is not None and state.deal.stock == 0
    assert refused(state, ex(E, 1)).rule == "MOUSEL-EXCH-5"
    standing = run(state, ex(E, 0), fold(B))
    assert run(standing, fold(A)).deal is not None  # A may fold: D and E still play
    # Had D and E folded, A could not.
    lonely = run(state, fold(E), fold(B))
    lonely2 = run(new(5), deal(A), turn("7C"), *refuse(A, B), take(C), ex(C, 1), fold(D), fold(E), fold(B))
    assert refused(lonely2, fold(A)).rule == "MOUSEL-EXCH-3"
    assert run(lonely, ex(A, 0)).deal is not None


def test_ex5_with_reshuffle() -> None:
    """MOUSEL-EX-5 under MOUSEL-OPT-RESHUFFLE."""
    state = run(new(5, reshuffle=True), deal(A), turn("7C"), *refuse(A, B, C, D, E, A), turn("7D"),
                *refuse(B), take(C), ex(C, 3), ex(D, 2))
    state = run(state, ex(E, 1))  # the 5 thrown away by C and D are the new stock
    assert state.deal is not None and state.deal.stock == 4 and state.deal.reshuffles == 1
    state = run(state, ex(B, 5))  # 4 in the new stock, then E's 1 reshuffled
    assert state.deal is not None and state.deal.stock == 0 and state.deal.reshuffles == 2
    assert refused(state, ex(A, 6)).rule == "MOUSEL-EXCH-1"


def test_ex6_leftover_after_a_player_leaves() -> None:
    """MOUSEL-EX-6 and MOUSEL-TV-4 through the engine; rounding down and carrying (MOUSEL-AMB-10)."""
    state = run(new(), *EX1, *EX2_REST, *EX3, *EX4)
    state = run(state, {"type": "leave", "player": C})
    assert state.status == ("in", "in", "left", "in") and state.next_dealer == D
    assert run(state, deal()).pot == 27  # A, B and D ante onto the 24 carried
    played = run(state, deal(), turn("AH"), take(A))
    assert played.deal is not None and played.deal.n == 3 and played.deal.stock == 32 - 9 - 1
    # The hypothetical: a carried pot of 8 instead of 24.
    book = state.book.post([Entry(3, "share", POT, B, 16, "TEST", "hypothetical")])
    state = dataclasses.replace(state, session=dataclasses.replace(state.session, book=book))
    tallied = dataclasses.replace(state, mode="tally")
    after = run(tallied, tally(A, [2, 1, 0, 0], dealer=D))
    row = after.sheet[-1]
    assert row.pot == 11 and row.hand_size == 3
    assert row.shares == (7, 3, 0, 0) and row.leftover == 1  # MOUSEL-POT-3 / TV-4
    assert row.penalties == (0, 0, 0, 11)
    assert row.next_pot == 15 and after.pot == 12
    carry = [e for e in after.book.entries if e.kind == "carry"]
    assert carry[-1].amount == 1 and carry[-1].rule == "MOUSEL-POT-3"


def test_worked_examples_in_tally_mode() -> None:
    state = run(new(mode="tally"),
                tally(B, [1, 2, 0, 1], [C], dealer=D),
                tally(C, [3, 0, 1, 0], [B]),
                tally(D, [2, 2, 0, 0], [C]))
    assert state.balances == (7, 5, -6, -30) and state.pot == 24
    assert [row.dealer for row in state.sheet] == [D, A, B]


# --- Settlement vectors ---------------------------------------------------------------------------

@pytest.mark.parametrize(("tv", "n", "pot", "taker", "tricks", "folded", "shares", "penalties", "left"), [
    ("MOUSEL-TV-1", 4, 4, 0, [2, 1, 1, 0], [3], [2, 1, 1, 0], [0, 0, 0, 0], 0),
    ("MOUSEL-TV-2", 4, 4, 0, [1, 3, 0, 0], [3], [1, 3, 0, 0], [4, 0, 4, 0], 0),
    ("MOUSEL-TV-3", 4, 12, 0, [0, 2, 2, 0], [3], [0, 6, 6, 0], [24, 0, 0, 0], 0),
    ("MOUSEL-TV-4", 3, 11, 0, [2, 1, 0], [2], [7, 3, 0], [0, 0, 0], 1),
    ("MOUSEL-TV-5", 5, 5, 0, [1, 1, 1, 1, 1], [], [1, 1, 1, 1, 1], [5, 0, 0, 0, 0], 0),
    ("MOUSEL-TV-6", 2, 2, 0, [0, 2], [], [0, 2], [4, 0], 0),
])
def test_settlement_vectors(tv: str, n: int, pot: int, taker: int, tricks: list[int], folded: list[int],
                            shares: list[int], penalties: list[int], left: int) -> None:
    active = [s for s in range(n) if s not in folded]
    split = split_pot(pot, n, taker, active, tricks)
    assert list(split.shares) == shares, tv
    assert list(split.due) == penalties, tv
    assert split.leftover == left, tv


@pytest.mark.parametrize("players", [2, 4, 5])
def test_settlement_vectors_through_the_engine(players: int) -> None:
    """TV-6 (2 players), TV-1/TV-2 (4), TV-5 (5) as a first deal of a tally table."""
    cases = {2: (0, [0, 2], [], [-5, 1], 4),
             4: (0, [1, 3, 0, 0], [3], [-4, 2, -5, -1], 8),
             5: (0, [1, 1, 1, 1, 1], [], [-5, 0, 0, 0, 0], 5)}
    taker, tricks, folded, balances, pot = cases[players]
    state = run(new(players, mode="tally"), tally(taker, tricks, folded, dealer=players - 1))
    assert list(state.balances) == balances and state.pot == pot


def test_tv4_with_round_largest_option() -> None:
    """MOUSEL-OPT-ROUND-LARGEST on MOUSEL-TV-4, and its tie rule."""
    split = split_pot(11, 3, 0, [0, 1], [2, 1, 0], round_largest=True)
    assert split.shares == (7, 4, 0) and split.leftover == 0  # 1/3 vs 2/3: B's fraction is larger
    tie = split_pot(7, 2, 1, [0, 1], [1, 1], round_largest=True)
    assert tie.shares == (3, 4)  # equal fractions: the taker gets the odd token


# --- Play legality (MOUSEL-PLAY-2/3/4) -----------------------------------------------------------

def _legal(trump: str, led: str, hand: str) -> set[str]:
    return {str(c) for c in legal_cards(parse_cards(hand), parse_cards(led), trump, OBLIGATIONS_32)}


def test_tv10_must_follow() -> None:
    """MOUSEL-TV-10 (MOUSEL-PLAY-2)."""
    assert _legal("H", "KS", "7S AH 9D") == {"7S"}


def test_tv11_trumping_is_optional() -> None:
    """MOUSEL-TV-11 (MOUSEL-PLAY-3, MOUSEL-AMB-9)."""
    assert _legal("H", "KS", "AH 9D") == {"AH", "9D"}


def test_tv12_following_need_not_beat() -> None:
    """MOUSEL-TV-12 (MOUSEL-PLAY-3)."""
    assert _legal("H", "8H", "7H AC") == {"7H"}


def test_play4_trick_winner() -> None:
    """MOUSEL-PLAY-4, aces high (MOUSEL-COMP-1)."""
    cards = parse_cards("KS 7H AS")
    assert trick_winner(cards, 0, "H", ORDER_32) == 1  # the only trump wins
    # seat 2 leads KS, seat 3 throws AD, seat 0 follows with AS: the ace of the suit led wins
    assert trick_winner(parse_cards("KS AD AS"), 2, "H", ORDER_32, [0, 2, 3]) == 0
    assert trick_winner(parse_cards("10S JS"), 0, None, ORDER_32) == 1  # J above 10


# --- Trump turn-up vectors -----------------------------------------------------------------------

def test_tv20_dealer_takes_first_turn_up_blind() -> None:
    """MOUSEL-TV-20 (MOUSEL-TRUMP-2)."""
    state = run(new(), deal(D), turn("9H"), take(D))
    assert state.deal is not None and state.deal.taker == D and state.deal.phase == "exchange"
    # O is then the dealer's right-hand neighbour (MOUSEL-EXCH-3)
    assert state.deal.must_play == C and state.deal.order == (D, A, B, C)


def test_tv21_dealer_may_not_take_second_turn_up_at_once() -> None:
    """MOUSEL-TV-21 (MOUSEL-TRUMP-5)."""
    state = run(new(), deal(D), turn("9H"), *refuse(D, A, B, C, D), turn("10H"))
    assert refused(state, take(D)).rule == "MOUSEL-TRUMP-5"


def test_tv22_dealer_takes_after_everyone_refused() -> None:
    """MOUSEL-TV-22 (MOUSEL-TRUMP-4), offered clockwise (MOUSEL-AMB-2)."""
    state = run(new(), deal(D), turn("9H"), *refuse(D, A, B, C, D), turn("10H"), *refuse(A, B, C), take(D))
    assert state.deal is not None and state.deal.taker == D
    first = run(new(), deal(D), turn("9H"), *refuse(A, B, C), take(D))  # blind pass by silence
    assert first.deal is not None and first.deal.taker == D


# --- Rule ids, one by one ------------------------------------------------------------------------

def test_comp1_card_not_in_the_pack_or_seen_twice() -> None:
    state = run(new(), deal(D))
    assert refused(state, turn("2H")).rule == "MOUSEL-COMP-1"
    state = run(state, turn("8C"), *refuse(D, A, B, C, D))
    assert refused(state, turn("8C")).rule == "MOUSEL-COMP-1"
    state = run(state, turn("KS"), take(A), ex(A, 0), ex(B, 0), ex(C, 0), ex(D, 0), discard(A))
    assert refused(state, plays((A, "8C"))[0]).rule == "MOUSEL-COMP-1"  # set aside
    state = run(state, *plays((A, "AH")))
    assert refused(state, plays((B, "AH"))[0]).rule == "MOUSEL-COMP-1"  # already played
    assert refused(state, plays((B, "KS"))[0]).rule == "MOUSEL-COMP-1"  # A took it
    assert refused(state, plays((B, "6H"))[0]).rule == "MOUSEL-COMP-1"  # not in the piquet pack


def test_comp1_with_52_cards() -> None:
    state = run(new(6, **{"52": True}), deal(0), turn("2H"))
    assert state.deal is not None and state.deal.turned == Card("2", "H")
    assert state.deal.stock == 52 - 36 - 1


def test_comp2_ledger_invariant_and_entries() -> None:
    state = run(new(), *EX1, *EX2_REST, *EX3)
    kinds = {e.kind for e in state.book.entries}
    assert {"ante", "share", "penalty"} <= kinds
    assert all(e.amount > 0 for e in state.book.entries)
    assert check_invariant(state.book)
    ledger = R.to_json(state)["ledger"]
    assert ledger[0] == {"deal": 1, "kind": "ante", "from": A, "to": "pot", "amount": 1, "rule": "MOUSEL-DEAL-1",
                         "note": "ante"}


@pytest.mark.parametrize(("players", "pack52", "stock"), [
    (2, False, 28), (3, False, 23), (4, False, 16), (5, False, 7),
    (4, True, 36), (5, True, 27), (6, True, 16), (7, True, 3),
])
def test_comp3_deal2_deal4_cards_dealt_and_stock(players: int, pack52: bool, stock: int) -> None:
    """The table of MOUSEL-COMP-3: N cards each (MOUSEL-DEAL-2), the rest is the stock (MOUSEL-DEAL-4)."""
    state = run(new(players, **{"52": pack52}), deal(0))
    assert state.deal is not None and state.deal.n == players and state.deal.stock == stock
    assert R.to_json(state)["deal"]["hands"] == [players] * players


@pytest.mark.parametrize(("players", "options"), [(1, {}), (6, {}), (7, {}), (8, {"52": True})])
def test_comp3_player_counts(players: int, options: dict[str, Any]) -> None:
    with pytest.raises(SetupError) as info:
        R.new(["x"] * players, options)
    assert info.value.rule == "MOUSEL-COMP-3"


def test_comp3_seven_players_with_52_cards() -> None:
    """MOUSEL-OPT-52 / MOUSEL-AMB-1: seven players leave 3 cards of 52."""
    state = run(new(7, **{"52": True}), deal(0))
    assert state.deal is not None and state.deal.stock == 3 and state.pot == 7


def test_comp3_no_partnerships_and_leave_keeps_two() -> None:
    with pytest.raises(SetupError) as info:
        R.new(["a", "b", "c", "d"], {"teams": [[0, 2], [1, 3]]})
    assert info.value.rule == "MOUSEL-COMP-3"
    state = run(new(3), {"type": "leave", "player": 2})
    assert refused(state, {"type": "leave", "player": 1}).rule == "MOUSEL-COMP-3"


def test_unknown_option_and_bad_values() -> None:
    with pytest.raises(SetupError):
        R.new(["a", "b"], {"wild": True})
    with pytest.raises(SetupError) as info:
        R.new(["a", "b"], {"stack": 0})
    assert info.value.rule == "MOUSEL-OPT-BUST"


def test_deal1_everyone_antes() -> None:
    state = run(new(), deal(D), turn("9H"), take(D), ex(D, 0), ex(A, 0), fold(B), fold(C))
    assert state.balances == (-1, -1, -1, -1)  # folders ante too (MOUSEL-POT-6)
    antes = [e for e in state.book.entries if e.kind == "ante"]
    assert len(antes) == 4 and {e.rule for e in antes} == {"MOUSEL-DEAL-1"}


def test_deal3_the_deal_passes_clockwise() -> None:
    state = run(new(mode="tally"), tally(B, [1, 2, 0, 1], [C], dealer=D))
    assert state.next_dealer == A
    assert refused(state, tally(B, [1, 2, 0, 1], [C], dealer=C)).rule == "MOUSEL-DEAL-3"
    adj = run(new(), *EX1, *EX2_REST)
    assert refused(adj, deal(B)).rule == "MOUSEL-DEAL-3"
    assert run(adj, deal(A)).deal is not None


def test_deal3_a_leaver_cannot_deal() -> None:
    state = run(new(), {"type": "leave", "player": A})
    assert refused(state, deal(A)).rule == "MOUSEL-DEAL-3"
    assert run(state, deal()).deal is not None


def test_deal3_a_new_deal_only_between_deals() -> None:
    state = run(new(), deal(D))
    assert refused(state, deal()).rule == "MOUSEL-END-2"


def test_trump1_nothing_to_take_and_looking() -> None:
    state = run(new(), deal(D))
    assert refused(state, take(A)).rule == "MOUSEL-TRUMP-1"
    assert refused(state, {"type": "look", "player": A}).rule == "MOUSEL-TRUMP-1"
    assert refused(state, {"type": "look", "player": D}).rule == "MOUSEL-TRUMP-1"  # nothing on offer
    looked = run(state, turn("9H"), {"type": "look", "player": D})
    assert refused(looked, {"type": "look", "player": D}).rule == "MOUSEL-TRUMP-1"
    assert refused(run(new()), {"type": "look", "player": A}).rule == "MOUSEL-TRUMP-1"


def test_trump2_a_dealer_who_looked_may_not_take_at_once() -> None:
    state = run(new(), deal(D), turn("9H"), {"type": "look", "player": D})
    assert refused(state, take(D)).rule == "MOUSEL-TRUMP-2"
    assert R.to_json(state)["deal"]["blind_take"] is False


def test_trump3_offered_clockwise() -> None:
    state = run(new(), deal(D), turn("9H"))
    assert refused(state, take(B)).rule == "MOUSEL-TRUMP-3"
    state = run(state, *refuse(A))
    assert refused(state, refuse(C)[0]).rule == "MOUSEL-TRUMP-3"
    assert R.to_json(state)["deal"]["offered_to"] == B


def test_trump4_dealer_who_passed_waits() -> None:
    state = run(new(), deal(D), turn("9H"), *refuse(D))
    assert R.to_json(state)["deal"]["dealer_looked"] is False  # passing is not looking
    assert run(state, {"type": "look", "player": D}).deal is not None
    assert refused(state, take(D)).rule == "MOUSEL-TRUMP-4"
    assert refused(state, refuse(D)[0]).rule == "MOUSEL-TRUMP-4"


def test_trump5_new_card_only_after_refusal() -> None:
    state = run(new(), deal(D), turn("9H"))
    assert refused(state, turn("10H")).rule == "MOUSEL-TRUMP-5"


def test_trump7_void_deal_carries_the_pot() -> None:
    """MOUSEL-TRUMP-7 / MOUSEL-AMB-4."""
    state = run(new(5), deal(A))
    for card in ["7C", "8C", "9C", "10C", "JC", "QC", "KC"]:
        state = run(state, turn(card), *refuse(B, C, D, E, A))
    assert state.deal is None and state.sheet[-1].void
    assert state.pot == 5 and state.balances == (-1,) * 5
    assert state.book.entries[-1].kind == "carry" and state.book.entries[-1].rule == "MOUSEL-TRUMP-7"
    assert state.next_dealer == B
    state = run(state, deal())
    assert state.pot == 10 and state.deal is not None and state.deal.dealer == B
    tallied = run(new(5, mode="tally"), {"type": "deal_result", "void": True})
    assert tallied.pot == 5 and tallied.sheet[-1].void
    assert refused(tallied, {"type": "deal_result", "void": True, "taker": 1}).rule == "MOUSEL-TRUMP-7"


def test_exch1_turn_order_and_hand_size() -> None:
    state = run(new(), *EX1)
    assert refused(state, ex(C, 1)).rule == "MOUSEL-EXCH-1"
    state = run(state, ex(B, 2))
    assert refused(state, ex(B, 1)).rule == "MOUSEL-EXCH-1"  # already decided
    assert refused(state, ex(C, 5)).rule == "MOUSEL-EXCH-1"  # holds 4
    assert refused(run(new(), deal(D)), ex(A, 1)).rule == "MOUSEL-EXCH-1"  # no exchanges yet


def test_exch2_the_taker() -> None:
    """MOUSEL-EXCH-2; the taker may throw the turned-up card away (MOUSEL-AMB-7)."""
    state = run(new(), *EX1)
    assert refused(state, fold(B)).rule == "MOUSEL-EXCH-2"
    assert refused(state, ex(B, 6)).rule == "MOUSEL-EXCH-2"
    state = run(state, ex(B, 5))  # all N+1, the turned card included (AMB-7)
    assert state.deal is not None and state.deal.stock == 9


def test_exch3_o_must_play_when_the_rest_fold() -> None:
    state = run(new(), *EX1, ex(B, 0), fold(C), fold(A))
    assert refused(state, fold(D)).rule == "MOUSEL-EXCH-3"
    dealer_took = run(new(), deal(D), turn("9H"), take(D), ex(D, 0), fold(A), fold(B))
    assert refused(dealer_took, fold(C)).rule == "MOUSEL-EXCH-3"  # the dealer's right-hand neighbour
    two = run(new(2), deal(B), turn("9H"), take(A), ex(A, 0))
    assert refused(two, fold(B)).rule == "MOUSEL-EXCH-3"
    with_tally = run(new(mode="tally"))
    assert refused(with_tally, tally(A, [4, 0, 0, 0], [B, C, D])).rule == "MOUSEL-EXCH-3"


def test_exch4_o_decides_last() -> None:
    state = run(new(), deal(B), turn("9H"), *refuse(C, D), take(A))
    # clockwise from A: A, B(dealer = O), C, D; O's turn is deferred to the end
    assert state.deal is not None and state.deal.order == (A, C, D, B)
    state = run(state, ex(A, 1))
    assert refused(state, fold(B)).rule == "MOUSEL-EXCH-4"
    assert refused(state, ex(B, 1)).rule == "MOUSEL-EXCH-4"


def test_exch5_stock_limit() -> None:
    state = run(new(5), deal(A), turn("7D"), take(A))
    assert state.deal is not None and state.deal.stock == 6
    state = run(state, ex(A, 6), ex(B, 0), ex(C, 0), ex(D, 0))
    assert refused(state, ex(E, 1)).rule == "MOUSEL-EXCH-5"


def test_exch6_the_extra_discard_and_n_tricks() -> None:
    state = run(new(), *EX1, *EX2_REST[:4])
    assert refused(state, discard(A)).rule == "MOUSEL-EXCH-6"
    assert refused(state, plays((B, "AS"))[0]).rule == "MOUSEL-EXCH-6"  # no play before the discard
    state = run(state, discard(B))
    assert R.to_json(state)["deal"]["hands"] == [4, 4, 0, 4]
    tallied = run(new(mode="tally"))
    assert refused(tallied, tally(A, [2, 1, 0, 0])).rule == "MOUSEL-EXCH-6"


def test_exch7_folded_players_do_not_play() -> None:
    state = run(new(), *EX1, *EX2_REST[:5])
    assert R.to_json(state)["deal"]["active"] == [A, B, D]
    state = run(state, *plays((B, "AS"), (D, "7S"), (A, "8S")))
    assert refused(state, plays((C, "AH"))[0]).rule == "MOUSEL-EXCH-7"
    tallied = run(new(mode="tally"))
    assert refused(tallied, tally(A, [2, 1, 1, 0], [C])).rule == "MOUSEL-EXCH-7"


def test_play1_taker_leads_winner_leads_next() -> None:
    """MOUSEL-PLAY-1 / MOUSEL-AMB-8."""
    state = run(new(), *EX1, *EX2_REST[:5])
    assert refused(state, plays((A, "AH"))[0]).rule == "MOUSEL-PLAY-1"
    assert state.to_act() == B
    state = run(state, *plays((B, "7D"), (D, "AD"), (A, "8D")))
    assert state.to_act() == D  # D won with the ace
    assert refused(state, plays((B, "AS"))[0]).rule == "MOUSEL-PLAY-1"


def _revoke_table(**options: Any) -> MouselState:
    # B led spades; A (void, it seems) threw a diamond, then later played a spade: a revoke.
    return run(new(**options), *EX1, *EX2_REST[:5],
               *plays((B, "AS"), (D, "7S"), (A, "8D")),
               *plays((B, "KS"), (D, "9S"), (A, "10S")))


def test_play2_play5_revoke_found_from_later_play() -> None:
    """MOUSEL-PLAY-2 checked retroactively (MOUSEL-PLAY-5)."""
    state = _revoke_table()
    view = R.to_json(state)
    assert len(view["pending_revokes"]) == 1
    proposal = view["pending_revokes"][0]
    assert proposal["rule"] == "MOUSEL-PLAY-2" and proposal["player"] == A
    assert proposal["trick"] == 1 and proposal["card"] == "8D"
    assert proposal["evidence"] == "10S" and proposal["evidence_trick"] == 2
    assert "must follow spades" in proposal["message"]


def _finish_revoke_deal(state: MouselState) -> MouselState:
    return run(state, *plays((B, "7D"), (D, "AD"), (A, "9D"), (D, "KH"), (A, "AH"), (B, "9H")))


def test_pot8_confirmed_revoke() -> None:
    """MOUSEL-POT-8 / MOUSEL-AMB-11."""
    state = _finish_revoke_deal(_revoke_table())
    assert state.deal is not None and state.deal.phase == "review" and state.to_act() is None
    state = run(state, {"type": "confirm", "proposal": 1})
    row = state.sheet[-1]
    assert row.tricks == (1, 2, 0, 1) and row.revokers == (A,)
    assert row.shares == (0, 2, 0, 1)  # A's share stays in the pot
    assert row.penalties == (4, 0, 0, 0)  # and A pays the no-trick penalty
    assert row.leftover == 1 and state.pot == 5
    assert any(e.rule == "MOUSEL-POT-8" and e.kind == "penalty" for e in state.book.entries)


def test_pot8_dismissed_revoke_and_bad_verdicts() -> None:
    state = _revoke_table()
    assert refused(state, {"type": "dismiss", "proposal": 9}).rule == "MOUSEL-POT-8"
    state = run(state, {"type": "dismiss", "proposal": 1})
    again = refused(state, {"type": "confirm", "proposal": 1})
    assert again.rule == "MOUSEL-POT-8"
    # a whole sentence per outcome, so a Swedish or German refusal holds no English status word
    assert again.message.template == "proposal #%(ident)s was already dismissed" and "status" not in again.message.params
    state = _finish_revoke_deal(state)
    assert state.deal is None and state.sheet[-1].revokers == () and state.sheet[-1].shares == (1, 2, 0, 1)
    assert refused(state, {"type": "confirm", "proposal": 1}).rule == "MOUSEL-POT-8"


def test_revoke_verdicts_use_the_common_words_and_keep_the_old_ones_as_aliases() -> None:
    """confirm/dismiss + proposal, as in Kasino and Mulatschak; confirm_revoke/dismiss_revoke + id still work."""
    review = _finish_revoke_deal(_revoke_table())
    assert R.hints(review) == [{"type": "confirm", "proposal": 1}, {"type": "dismiss", "proposal": 1}]
    for new_words, old_words in ((("confirm", "proposal"), ("confirm_revoke", "id")),
                                 (("dismiss", "proposal"), ("dismiss_revoke", "id"))):
        now = run(review, {"type": new_words[0], new_words[1]: 1})
        old = run(review, {"type": old_words[0], old_words[1]: 1})
        assert R.to_json(old) == R.to_json(now)
        assert R.describe({"type": old_words[0], old_words[1]: 1}, ["A", "B", "C", "D"]) == \
            R.describe({"type": new_words[0], new_words[1]: 1}, ["A", "B", "C", "D"])
    assert refused(review, {"type": "confirm_revoke", "id": 9}).rule == "MOUSEL-POT-8"


def test_pot8_taker_revoke_pays_double_in_tally() -> None:
    state = run(new(mode="tally"), tally(B, [1, 2, 0, 1], [C], revokes=[B], dealer=D))
    row = state.sheet[-1]
    assert row.shares == (1, 0, 0, 1) and row.penalties == (0, 8, 0, 0) and row.leftover == 2
    assert refused(run(new(mode="tally")), tally(B, [1, 2, 0, 1], [C], revokes=[C])).rule == "MOUSEL-POT-8"


def test_pot2_pots_stay_multiples_of_n() -> None:
    state = run(new(mode="tally"), tally(B, [1, 2, 0, 1], [C]), tally(C, [3, 0, 1, 0], [B]),
                tally(D, [2, 2, 0, 0], [C]), tally(A, [0, 1, 1, 2]))
    assert all(row.pot % row.hand_size == 0 and row.leftover == 0 for row in state.sheet)


def test_pot6_folders_pay_nothing_more() -> None:
    state = run(new(mode="tally"), tally(A, [1, 0, 0, 3], [B, C]))
    assert state.balances[B] == -1 and state.balances[C] == -1


def test_end1_end2_session_end_split() -> None:
    """MOUSEL-END-1 (no end until asked), MOUSEL-END-2 / MOUSEL-AMB-12."""
    state = run(new(), *EX1, *EX2_REST, *EX3)  # pot 8 of penalties
    assert refused(run(state, deal()), {"type": "end_session"}).rule == "MOUSEL-END-2"
    assert refused(run(state, deal()), {"type": "leave", "player": B}).rule == "MOUSEL-END-2"
    state = run(state, {"type": "end_session"})
    assert state.over and state.end is not None
    assert state.end.split == (2, 2, 2, 2) and state.pot == 0
    assert state.balances == (4, 2, -3, -3)
    view = R.to_json(state)
    assert view["over"] and view["winner"] == A and view["phase"] == "ended"
    assert view["end"]["standings"][0] == {"player": A, "balance": 4}
    assert refused(state, deal()).rule == "MOUSEL-END-2"
    outcome = R.outcome(state)
    assert outcome is not None and outcome.winner == A


def test_end2_remainder_is_unallocated() -> None:
    state = run(new(3, mode="tally"), tally(A, [1, 1, 1], dealer=C))  # taker with one trick pays 3
    assert state.pot == 3
    state = run(state, {"type": "leave", "player": C}, {"type": "end_session"})
    assert state.end is not None and state.end.split == (1, 1, 0) and state.end.unallocated == 1
    assert state.pot == 1 and sum(state.balances) == -1
    assert state.balances == (-2, 1, 0)
    settle = R.to_json(state)["end"]["settle_up"]
    assert settle == [{"from": A, "to": B, "amount": 1}, {"from": A, "to": "pot", "amount": 1}]


def test_end3_balances_go_negative() -> None:
    """MOUSEL-END-3: MOUSEL-TV-6 leaves the taker at -5."""
    state = run(new(2, mode="tally"), tally(A, [0, 2], dealer=B))
    assert state.balances == (-5, 1) and state.pot == 4


def test_opt_52_needed_for_six() -> None:
    """MOUSEL-OPT-52."""
    state = run(new(6, **{"52": True}, mode="tally"), tally(0, [1, 1, 1, 1, 1, 1], dealer=5))
    assert state.pot == 6


def test_opt_last_in_order() -> None:
    state = run(new(last_in_order=True), deal(B), turn("9H"), *refuse(C, D), take(A))
    assert state.deal is not None and state.deal.order == (A, B, C, D) and state.deal.must_play == D
    state = run(state, ex(A, 0), fold(B), fold(C))
    assert refused(state, fold(D)).rule == "MOUSEL-OPT-LAST-IN-ORDER"


def test_opt_keep_trumpcard() -> None:
    state = run(new(keep_trumpcard=True), *EX1)
    assert refused(state, ex(B, 5)).rule == "MOUSEL-OPT-KEEP-TRUMPCARD"
    state = run(state, ex(B, 4), fold(C), ex(A, 0), ex(D, 0), discard(B))
    # B never plays the turned-up KS: on his last card the breach is proven
    state = run(state, *plays((B, "AS"), (D, "7S"), (A, "8S"), (B, "QS"), (D, "9S"), (A, "10S"),
                              (B, "7D"), (D, "AD"), (A, "8D"), (D, "KH"), (A, "AH"), (B, "9H")))
    view = R.to_json(state)
    assert view["phase"] == "review"
    assert view["pending_revokes"][0]["rule"] == "MOUSEL-OPT-KEEP-TRUMPCARD"
    assert view["pending_revokes"][0]["evidence"] == "KS"
    state = run(state, {"type": "confirm", "proposal": 1})
    assert state.sheet[-1].penalties[B] == 8  # the taker's no-trick penalty (POT-8 by analogy)


def test_opt_dealer_must_take() -> None:
    state = run(new(5, dealer_must_take=True), deal(A))
    for card in ["7C", "8C", "9C", "10C", "JC", "QC"]:
        state = run(state, turn(card), *refuse(B, C, D, E, A))
    state = run(state, turn("KC"), *refuse(B, C, D, E))
    assert refused(state, refuse(A)[0]).rule == "MOUSEL-OPT-DEALER-MUST-TAKE"
    assert [h for h in R.hints(state)] == [take(A)]
    state = run(state, take(A))
    assert state.deal is not None and state.deal.stock == 0
    tallied = run(new(5, mode="tally", dealer_must_take=True))
    assert refused(tallied, {"type": "deal_result", "void": True}).rule == "MOUSEL-OPT-DEALER-MUST-TAKE"


def test_opt_round_largest_in_the_engine() -> None:
    state = run(new(3, mode="tally", round_largest=True), tally(A, [1, 1, 1], dealer=C))
    state = run(state, {"type": "leave", "player": C})
    # pot 3 carried + 2 antes = 5, two players: 2 tricks, A 1 and B 1 -> 2.5 each
    state = run(state, tally(A, [1, 1, 0]))
    row = state.sheet[-1]
    assert row.pot == 5 and row.shares == (3, 2, 0) and row.leftover == 0
    plain = run(new(3, mode="tally"), tally(A, [1, 1, 1], dealer=C), {"type": "leave", "player": C},
                tally(A, [1, 1, 0]))
    assert plain.sheet[-1].shares == (2, 2, 0) and plain.sheet[-1].leftover == 1


def test_opt_bust() -> None:
    state = run(new(2, mode="tally", bust=True, stack=3), tally(A, [0, 2], dealer=B))
    # A antes 1 (2 left) and owes 2P = 4: pays his 2 and is out; the session ends with one player
    row = state.sheet[-1]
    assert row.penalties_due == (4, 0) and row.penalties == (2, 0) and row.busted == (A,)
    assert state.status[A] == "bust" and state.over
    assert state.balances[A] == -3 and sum(state.balances) + state.pot == 0
    view = R.to_json(state)
    assert view["holdings"][A] == 0


def test_opt_bust_irregular_pot_and_remainder() -> None:
    state = run(new(4, mode="tally", bust=True, stack=2), tally(A, [0, 2, 1, 1], dealer=D))
    assert state.status == ("bust", "in", "in", "in")
    assert state.sheet[-1].penalties == (1, 0, 0, 0)  # after his ante A had 1 of the 8 he owed
    assert state.pot == 1  # not a multiple of N any more (MOUSEL-POT-3)
    state = run(state, tally(B, [0, 1, 1, 1]))  # 3 players, P = 1 + 3 = 4
    row = state.sheet[-1]
    assert row.pot == 4 and row.hand_size == 3 and row.shares == (0, 1, 1, 1) and row.leftover == 1
    assert row.penalties_due == (0, 4, 0, 0) and row.penalties == (0, 3, 0, 0) and row.busted == (B,)


def test_opt_end_refund() -> None:
    state = run(new(mode="tally", end_refund=True), tally(C, [3, 0, 1, 0], [B], dealer=A))
    assert state.pot == 8
    state = run(state, {"type": "end_session"})
    assert state.end is not None and state.end.split == (0, 0, 4, 4)  # C and D paid 4 each
    refunds = [e for e in state.book.entries if e.kind == "end_refund"]
    assert [(e.target, e.amount, e.rule) for e in refunds] == [(C, 4, "MOUSEL-OPT-END-REFUND"),
                                                              (D, 4, "MOUSEL-OPT-END-REFUND")]
    assert state.balances == (2, -1, 0, -1) and state.pot == 0


def test_opt_end_lastdeal() -> None:
    assert refused(new(), deal(D, last=True)).rule == "MOUSEL-OPT-END-LASTDEAL"
    assert refused(new(mode="tally"), tally(A, [0, 2, 2, 0], last=True)).rule == "MOUSEL-OPT-END-LASTDEAL"
    state = run(new(mode="tally", end_lastdeal=True), tally(A, [0, 2, 2, 0], last=True, dealer=D))
    assert state.over and not any(state.sheet[-1].penalties)
    assert state.end is not None and state.end.unallocated == 0


# --- Protocol, malformed input, views ------------------------------------------------------------

def test_registry_and_protocol() -> None:
    assert isinstance(REGISTRY["mousel"], Mousel)
    state = new()
    view = R.to_json(state)
    for key in ("scores", "over", "winner", "to_act", "phase", "pot", "balances", "deal", "settlements", "ledger",
                "history", "pending_revokes", "value_per_trick", "status", "end"):
        assert key in view
    assert R.outcome(state) is None


@pytest.mark.parametrize("event", [
    {"type": "bid"}, {"player": 1}, {"type": "deal_result", "taker": 0}, {"type": "take"},
    {"type": "take", "player": "B"}, {"type": "take", "player": 9}, {"type": "exchange", "player": 0},
    {"type": "exchange", "player": 0, "count": -1},
])
def test_malformed_events(event: Event) -> None:
    state = run(new(), deal(D), turn("9H"))
    with pytest.raises(MalformedEvent):
        R.apply(state, event)


def test_malformed_flag() -> None:
    with pytest.raises(MalformedEvent):
        R.apply(new(), {"type": "deal", "last": "yes"})


def test_malformed_tally_events() -> None:
    state = new(mode="tally")
    for event in [tally(A, [1, 1, 1]), {"type": "deal_result", "taker": 0, "tricks": "1,1,1,1"},
                  tally(A, [1, 1, 1, 1], folded=[7]), tally(A, [1, 1, 1, 1], folded=[1, 1]),
                  {"type": "play", "player": 0, "card": "AS"}]:
        with pytest.raises(MalformedEvent):
            R.apply(state, event)


def test_unreadable_card_is_a_notation_error() -> None:
    state = run(new(), deal(D))
    with pytest.raises(NotationError):
        R.apply(state, turn("XYZ"))
    with pytest.raises(MalformedEvent):
        R.apply(state, {"type": "turn_up"})


def test_card_notation_variants() -> None:
    state = run(new(), deal(D), turn("10♥"))
    assert state.deal is not None and state.deal.turned == Card("10", "H")


def test_hints_follow_the_flow() -> None:
    state = new()
    assert R.hints(state) == [{"type": "deal"}, {"type": "end_session"}]
    state = run(state, deal(D))
    assert R.hints(state) == []                    # the turned-up card is not known in advance
    state = run(state, turn("9H"))
    assert R.hints(state) == [take(D), refuse(D)[0], {"type": "look", "player": D}]
    state = run(state, take(D))
    hints = R.hints(state)
    assert ex(D, 5) in hints and fold(D) not in hints
    state = run(state, ex(D, 0), fold(A), fold(B))
    assert fold(C) not in R.hints(state)
    state = run(state, ex(C, 0))
    assert R.hints(state) == [discard(D)]
    assert R.hints(new(mode="tally")) == [{"type": "deal_result"}, {"type": "end_session"}]


def test_describe_every_event() -> None:
    names = ["Ann", "Bo", "Cy", "Di"]
    samples = [deal(D), {"type": "look", "player": D}, turn("8C"), take(B), refuse(A)[0], ex(B, 2), ex(A, 0),
               fold(C), discard(B), plays((B, "AS"))[0], {"type": "confirm", "proposal": 1},
               {"type": "dismiss", "proposal": 1}, {"type": "leave", "player": C}, {"type": "end_session"},
               tally(B, [1, 2, 0, 1], [C]), {"type": "deal_result", "void": True}]
    lines = [R.describe(e, names) for e in samples]
    assert lines[3] == "Bo takes the turned card" and lines[6] == "Ann stands pat"
    assert all(lines) and len(set(lines)) == len(lines)


def test_state_json_during_play() -> None:
    state = run(new(), *EX1, *EX2_REST[:5], *plays((B, "AS"), (D, "7S"), (A, "8S"), (B, "KS")))
    view = R.to_json(state)
    deal_view = view["deal"]
    assert view["to_act"] == D and view["phase"] == "play"
    assert deal_view["tricks"] == [{"leader": B, "winner": B, "cards": [
        {"player": B, "card": "AS"}, {"player": D, "card": "7S"}, {"player": A, "card": "8S"}]}]
    assert deal_view["current_trick"] == [{"player": B, "card": "KS"}]
    assert deal_view["tricks_won"] == [0, 1, 0, 0] and deal_view["hands"] == [3, 2, 0, 3]
    assert deal_view["decisions"] == [{"exchange": 1}, {"exchange": 2}, {"fold": True}, {"exchange": 3}]
    assert view["scores"] == [-1, -1, -1, -1] and view["pot"] == 4 and view["value_per_trick"] == 1
    finished = run(state, *EX2_REST[9:])
    assert R.to_json(finished)["last_tricks"][-1]["winner"] == A
    assert finished.scored and {s.what for s in finished.scored} == {"share"}


def test_rule_book_covers_every_rule_the_engine_cites() -> None:
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    engine = root / "scorekeeper" / "engine"
    paths = [engine / "mousel.py"] if (engine / "mousel.py").exists() else sorted((engine / "mousel").rglob("*.py"))
    source = "".join(path.read_text(encoding="utf-8") for path in paths)
    book = (root / "scorekeeper" / "rulebook" / "mousel.md").read_text(encoding="utf-8")
    cited = set(re.findall(r'"(MOUSEL-[A-Z]+-[A-Z0-9-]+)"', source))
    listed = set(re.findall(r"^\* \*\*(MOUSEL-[A-Z0-9-]+)\*\*", book, re.MULTILINE))
    assert cited and cited <= listed


def test_pot3_leaving_twice_and_rotation_after_a_leave() -> None:
    state = run(new(mode="tally"), tally(B, [1, 2, 0, 1], [C], dealer=D))  # A deals next
    state = run(state, {"type": "leave", "player": A})
    assert refused(state, {"type": "leave", "player": A}).rule == "MOUSEL-POT-3"
    assert state.next_dealer == B and R.to_json(state)["value_per_trick"] == 1  # 3 antes, 3 tricks
    state = run(state, tally(C, [0, 1, 1, 1]))
    assert state.sheet[-1].dealer == B and state.sheet[-1].hand_size == 3


def test_the_states_are_made_and_moved_on_as_the_dataclasses_say() -> None:
    """A replay makes states, plays, deals and sheet rows through ``core.quick_init`` (one dict, not a
    setattr per field) and moves the state on through ``_with``/``_with_deal``."""
    from scorekeeper.engine.mousel.state import Deal, Play, Session, Settlement, _with, _with_deal

    for cls in (MouselState, Play, Deal, Session, Settlement):
        assert "quick_init" in (cls.__init__.__doc__ or ""), cls
    state = new()
    args = tuple(getattr(state, f.name) for f in dataclasses.fields(MouselState))
    assert MouselState(*args) == state and list(vars(MouselState(*args))) == [
        f.name for f in dataclasses.fields(MouselState)]
    play = Play(active=(0, 1, 2), leader=1, won=(0, 0, 0), failed=(frozenset(),) * 3)
    assert vars(play) == {"active": (0, 1, 2), "leader": 1, "current": (), "tricks": (), "won": (0, 0, 0),
                          "seen": frozenset(), "failed": (frozenset(),) * 3, "proposals": ()}
    moved = _with(state, deals=3, play=play)
    assert moved.session.deals == 3 and moved.play is play and state.session.deals == 0 and state.play is None
    assert moved.session == dataclasses.replace(state.session, deals=3)
    with pytest.raises(TypeError):
        _with(state, no_such_field=1)
    deal = Deal(number=1, dealer=0, ring=(1, 2, 0), pot=3, last=False, phase="turn_up", stock=23)
    assert _with_deal(moved, deal) == dataclasses.replace(moved, deal=deal, scored=())
    row: dict[str, Any] = {f.name: i for i, f in enumerate(dataclasses.fields(Settlement))}
    with pytest.raises(TypeError):
        Settlement(**{**row, "extra": 1})
    with pytest.raises(TypeError):
        Settlement(**{k: v for k, v in row.items() if k != "last"})
