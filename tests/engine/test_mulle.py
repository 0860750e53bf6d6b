"""Tomelilla Mulle: every rule id the engine enforces, every MULLE-TV-* and MULLE-EX-*, tally mode."""

from __future__ import annotations

import dataclasses
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.cards import Card, NotationError, french_pack, parse_card, parse_cards
from scorekeeper.engine import RULES
from scorekeeper.engine.base import MalformedEvent, RuleViolation, SetupError
from scorekeeper.engine.mulle import HINT_LIMIT, Mulle, MulleState, move_points

R = Mulle()
TEAMS = {"teams": [[0, 2], [1, 3]]}


# --- helpers ---------------------------------------------------------------------------------

def new(n: int = 2, mode: str = "adjudicate", **options: Any) -> MulleState:
    return R.new([f"P{i}" for i in range(n)], options, mode)  # type: ignore[arg-type]


def dealt(n: int = 2, dealer: int = 1, table: str | None = None, **options: Any) -> MulleState:
    size = 5 if n == 3 else 4
    cards = table or " ".join(["5D", "9C", "KH", "AC", "7H"][:size])
    return R.apply(new(n, **options), {"type": "deal", "dealer": dealer, "table": cards.split()})


def play(state: MulleState, card: str, capture: str = "", player: int | None = None) -> MulleState:
    who = state.to_act if player is None else player
    return R.apply(state, {"type": "play", "player": who, "card": card, "capture": capture.split()})


def points(state: MulleState) -> int:
    return sum(fact.points for fact in state.scored)


def rule_of(state: MulleState, event: dict[str, Any]) -> str | None:
    with pytest.raises(RuleViolation) as exc:
        R.apply(state, event)
    return exc.value.rule


def seen_all_but(*unplayed: str) -> dict[Card, int]:
    """Every card seen twice except one copy of each card named (still in someone's hand)."""
    seen = dict(french_pack(2))
    for text in unplayed:
        seen[parse_card(text)] -= 1
    return seen


def at(table: str, n: int = 2, scores: tuple[int, ...] | None = None, **options: Any) -> MulleState:
    """Mid-deal, first round, forehand to act, the given cards face up."""
    state = dealt(n, dealer=n - 1, **options)
    cards = tuple(parse_cards(table)) if table else ()
    changes: dict[str, Any] = {"table": cards, "seen": dict(Counter(cards))}
    if scores is not None:
        changes["scores"] = scores
        changes["previous"] = scores
    return dataclasses.replace(state, **changes)


def before_last_play(n: int, table: str, *, unplayed: str, plays_left: int = 1, dealer: int = 1,
                     **changes: Any) -> MulleState:
    """The final round, ``plays_left`` cards still to play (the hands hold ``unplayed``)."""
    base = dealt(n, dealer=dealer, **changes.pop("options", {}))
    round_total = n * base.rounds[-1]
    state = dataclasses.replace(
        base, round_no=len(base.rounds), plays_in_round=round_total - plays_left,
        table=tuple(parse_cards(table)), seen=seen_all_but(*unplayed.split()), **changes)
    return state


# --- set-up (MULLE-COMP-2, options) ----------------------------------------------------------

@pytest.mark.parametrize("n", [1, 5])
def test_player_count(n: int) -> None:
    with pytest.raises(SetupError) as exc:
        new(n)
    assert exc.value.rule == "MULLE-COMP-2"


@pytest.mark.parametrize(("n", "teams"), [(4, [[0, 1], [2, 3]]), (3, [[0, 2], [1]]),
                                           (4, [[0], [1], [2, 3]])])
def test_partnerships_sit_opposite(n: int, teams: list[list[int]]) -> None:
    with pytest.raises(SetupError) as exc:
        new(n, teams=teams)
    assert exc.value.rule == "MULLE-COMP-2"


def test_options_are_checked() -> None:
    with pytest.raises(SetupError) as exc:
        new(2, strict_value="yes")
    assert exc.value.rule == "MULLE-OPT-STRICT-VALUE"
    with pytest.raises(SetupError):
        new(2, bogus=True)
    assert {spec.key for spec in Mulle.option_specs} == {"strict_value", "no_last_sweep", "mulle_alone"}


def test_registered() -> None:
    assert isinstance(RULES["mulle"], Mulle)


def test_teams_score_together() -> None:
    """MULLE-SCORE-10 / MULLE-AMB-5: a partner's points go to the team total."""
    state = at("5D 9C", n=4, teams=[[0, 2], [1, 3]])
    state = play(state, "5C", "5D")  # player 0, team 0
    assert state.scores == (0, 0)
    state = play(state, "9H", "9C")  # player 1 sweeps: team 1
    assert state.scores == (0, 1)
    state = play(state, "AS")
    state = play(state, "AH", "AS")  # player 3, team 1: sweep + two Aces
    assert state.scores == (0, 4)
    assert R.to_json(state)["scores"] == [0, 4]


# --- dealing (MULLE-DEAL-*) ------------------------------------------------------------------

def test_first_deal_needs_a_dealer() -> None:
    with pytest.raises(MalformedEvent):
        R.apply(new(2), {"type": "deal", "table": ["5D", "9C", "KH", "AC"]})


@pytest.mark.parametrize(("n", "size"), [(2, 4), (3, 5), (4, 4)])
def test_table_size(n: int, size: int) -> None:
    """MULLE-DEAL-3: 4 table cards, 5 with three players."""
    cards = ["5D", "9C", "KH", "AC", "7H", "8H"]
    assert rule_of(new(n), {"type": "deal", "dealer": 0, "table": cards[:size + 1]}) == "MULLE-DEAL-3"
    assert rule_of(new(n), {"type": "deal", "dealer": 0, "table": cards[:size - 1]}) == "MULLE-DEAL-3"
    state = R.apply(new(n), {"type": "deal", "dealer": 0, "table": cards[:size]})
    assert len(state.table) == size and state.to_act == 1 % n


def test_play_before_deal() -> None:
    assert rule_of(new(2), {"type": "play", "player": 1, "card": "5C"}) == "MULLE-DEAL-3"


def test_deal_during_play() -> None:
    assert rule_of(dealt(2), {"type": "deal", "table": ["5H", "9S", "KD", "AD"]}) == "MULLE-TURN-7"


def test_deal_passes_to_forehand() -> None:
    """MULLE-DEAL-1 / MULLE-END-2: the old forehand deals next; naming anyone else is refused."""
    state = before_last_play(2, "3H", unplayed="3C", dealer=1)
    state = play(state, "3C", "3H")
    assert state.phase == "deal" and state.next_dealer == 0
    assert rule_of(state, {"type": "deal", "dealer": 1, "table": ["5H", "9S", "KD", "AD"]}) == "MULLE-DEAL-1"
    again = R.apply(state, {"type": "deal", "table": ["5H", "9S", "KD", "AD"]})
    assert again.dealer == 0 and again.to_act == 1 and again.deal_no == 2
    assert again.scores == state.scores and again.deal_points == (0, 0)
    named = R.apply(state, {"type": "deal", "dealer": 0, "table": ["5H", "9S", "KD", "AD"]})
    assert named.dealer == 0


@pytest.mark.parametrize(("n", "rounds", "last"), [(2, 10, 5), (3, 7, 3), (4, 5, 5)])
def test_rounds_and_last_round(n: int, rounds: int, last: int) -> None:
    """MULLE-DEAL-4..8: five cards a round, three in the last with three players; the final
    round is announced."""
    state = dealt(n, dealer=0)
    data = R.to_json(state)
    assert (data["round"], data["rounds_total"], data["is_last_round"], data["hand_size"]) == (1, rounds, False, 5)
    state = dataclasses.replace(state, round_no=rounds)
    data = R.to_json(state)
    assert data["is_last_round"] and data["hand_size"] == last
    assert data["cards_in_hand"] == [last] * n


def test_round_rolls_over_and_forehand_leads() -> None:
    """MULLE-DEAL-7: every round starts with forehand; the dealer plays last."""
    state = dealt(2, dealer=1, table="2H 3H 4H 6H")
    order = []
    for card in ["7C", "8C", "9C", "JC", "QC", "7D", "8D", "9D", "JD", "QD"]:
        order.append(state.to_act)
        state = play(state, card)
    assert order == [0, 1] * 5
    assert state.round_no == 2 and state.plays_in_round == 0 and state.to_act == 0
    assert R.to_json(state)["played_this_round"] == [0, 0]


# --- turns and card conservation -------------------------------------------------------------

def test_turn_order() -> None:
    state = dealt(2, dealer=1)
    assert rule_of(state, {"type": "play", "player": 1, "card": "5C"}) == "MULLE-TURN-1"


def test_third_copy_on_the_table() -> None:
    assert rule_of(new(2), {"type": "deal", "dealer": 0, "table": ["5C", "5C", "5C", "AD"]}) == "MULLE-COMP-1"


def test_third_copy_played() -> None:
    """MULLE-COMP-1: both 5♣ lie on the table, so nobody can hold a third."""
    state = at("5C 5C 9D")
    with pytest.raises(RuleViolation) as exc:
        play(state, "5C", "5C")
    assert exc.value.rule == "MULLE-COMP-1" and "on the table" in exc.value.message


def test_card_seen_twice_already() -> None:
    state = at("9D")
    state = play(state, "5C")
    state = play(state, "5C", "5C")  # the mulle: both copies now seen
    assert rule_of(state, {"type": "play", "player": state.to_act, "card": "5C"}) == "MULLE-COMP-1"


def test_capture_must_lie_on_the_table() -> None:
    state = at("5D 9C")
    with pytest.raises(RuleViolation) as exc:
        play(state, "5C", "5S")
    assert exc.value.rule == "MULLE-TURN-2" and "5♠ is not on the table" in exc.value.message
    with pytest.raises(RuleViolation) as exc:
        play(state, "10H", "5D 5D")
    assert exc.value.rule == "MULLE-TURN-2"


def test_malformed_events() -> None:
    state = dealt(2)
    events: list[dict[str, Any]] = [
        {"type": "bid"}, {"type": "play", "card": "5C"}, {"type": "play", "player": 0},
        {"type": "play", "player": 0, "card": "5C", "capture": 5},
        {"type": "play", "player": 7, "card": "5C"}, {"type": "tally", "side": 0, "what": "ace"},
    ]
    for event in events:
        with pytest.raises(MalformedEvent):
            R.apply(state, event)
    with pytest.raises(NotationError):
        R.apply(state, {"type": "play", "player": 0, "card": "ZZ"})
    with pytest.raises(NotationError):
        R.apply(state, {"type": "play", "player": 0, "card": "5C", "capture": ["5X"]})
    with pytest.raises(MalformedEvent):
        R.apply(new(2), {"type": "deal", "dealer": 0})


def test_refused_event_leaves_state_alone() -> None:
    state = at("5S 5D 3H")
    snapshot = R.to_json(state)
    with pytest.raises(RuleViolation):
        play(state, "8C", "5S 5D 3H")
    assert R.to_json(state) == snapshot


# --- MULLE-TV-* through the engine ---------------------------------------------------------------

def test_tv1_trail_to_set_up_a_mulle() -> None:
    state = play(at("5D"), "5C")
    assert points(state) == 0 and [str(c) for c in state.table] == ["5D", "5C"]
    assert state.last_move is not None and state.last_move.taken == ()


@pytest.mark.parametrize(("tv", "table", "card", "taken", "pts", "sweep", "mulle"), [
    ("MULLE-TV-2", "5D 5C", "5C", "5C", 3, False, True),
    ("MULLE-TV-3", "5D 5C", "5C", "5D 5C", 1, True, False),
    ("MULLE-TV-4", "5C", "5C", "5C", 4, True, True),
    ("MULLE-TV-5", "AH", "AH", "AH", 6, True, True),
    ("MULLE-TV-6", "KS AC", "AH", "KS AC", 3, True, False),
    ("MULLE-TV-7", "5S 5D 3H", "8C", "3H 5S", 0, False, False),
    ("MULLE-TV-9", "2H 9C 6D", "2S", "2H 9C 6D", 2, True, False),
    ("MULLE-TV-10", "10H 8C 8D", "10D", "10H 8C 8D", 3, True, False),
    ("MULLE-TV-11", "10D 6C", "10D", "10D", 7, False, True),
    ("MULLE-TV-12", "10D 6C", "10D", "10D 6C", 5, True, False),
    ("MULLE-TV-13", "AS AD", "2S", "AS AD", 4, True, False),
    ("MULLE-TV-14", "2S AH", "10D", "2S AH", 5, True, False),
    ("MULLE-TV-16", "AC KS 9D 5C", "AH", "AC KS 9D 5C", 3, True, False),
    ("MULLE-TV-17", "AS QD 6C 7C KC", "KH", "AS QD 6C 7C KC", 2, True, False),
])
def test_vectors_scored(tv: str, table: str, card: str, taken: str, pts: int, sweep: bool, mulle: bool) -> None:
    state = play(at(table), card, taken)
    assert points(state) == pts, tv
    assert state.last_move is not None
    assert (state.last_move.sweep, state.last_move.mulle) == (sweep, mulle), tv
    assert state.scores[0] == pts
    rules = {fact.rule for fact in state.scored}
    assert ("MULLE-SCORE-2" in rules) == sweep and ("MULLE-SCORE-3" in rules) == mulle


@pytest.mark.parametrize(("tv", "table", "card", "taken"), [
    ("MULLE-TV-8", "5S 5D 3H", "8C", "5S 5D 3H"),
    ("MULLE-TV-15", "8C 8D 4H", "10H", "8C 8D 4H"),
    ("MULLE-TV-18", "2S", "KH", "2S"),
])
def test_vectors_refused(tv: str, table: str, card: str, taken: str) -> None:
    with pytest.raises(RuleViolation) as exc:
        play(at(table), card, taken)
    assert exc.value.rule == "MULLE-CAP-4", tv
    assert exc.value.facts["why"]


def test_tv8_message_names_the_arithmetic() -> None:
    with pytest.raises(RuleViolation) as exc:
        play(at("5S 5D 3H"), "8C", "5S 5D 3H")
    assert "count twice" in exc.value.message


@pytest.mark.parametrize(("tv", "table", "card"), [
    ("MULLE-TV-9", "2H 9C 6D", "2S"),
    ("MULLE-TV-10", "10H 8C 8D", "10D"),
])
def test_strict_value_option(tv: str, table: str, card: str) -> None:
    """MULLE-OPT-STRICT-VALUE (MULLE-AMB-1): the rank-match needs the value too."""
    with pytest.raises(RuleViolation) as exc:
        play(at(table, strict_value=True), card, table)
    assert exc.value.rule == "MULLE-OPT-STRICT-VALUE", tv


def test_one_value_per_capture() -> None:
    """MULLE-CAP-1 (MULLE-AMB-2): 10♦ cannot be 10 for 4+6 and 16 for 9+7 in one capture."""
    with pytest.raises(RuleViolation) as exc:
        play(at("4H 6C 9D 7S"), "10D", "4H 6C 9D 7S")
    assert exc.value.rule == "MULLE-CAP-1"
    state = play(at("4H 6C 9D 7S"), "10D", "9D 7S")
    assert state.last_move is not None and state.last_move.grouping is not None
    assert state.last_move.grouping.value == 16


def test_table_cards_choose_values_freely() -> None:
    """MULLE-CAP-2: two Aces in one capture, one as 1 and one as 14."""
    state = play(at("AC AD"), "2S", "AC AD")
    assert state.last_move is not None and state.last_move.grouping is not None
    assert points(state) == 4


def test_mulle_alone_option() -> None:
    """MULLE-OPT-MULLE-ALONE (MULLE-AMB-7): the twin only on its own."""
    with pytest.raises(RuleViolation) as exc:
        play(at("5D 5C", mulle_alone=True), "5C", "5D 5C")
    assert exc.value.rule == "MULLE-OPT-MULLE-ALONE"
    assert points(play(at("5D 5C", mulle_alone=True), "5C", "5C")) == 3
    assert points(play(at("5D 5C"), "5C", "5D 5C")) == 1  # default: allowed, not a mulle


def test_trailed_point_card_scores_nothing() -> None:
    """MULLE-SCORE-1: point cards score only when captured; the played card counts too."""
    state = play(at("KH"), "10D")
    assert points(state) == 0
    state = play(at("9H 7S"), "10D", "9H 7S")
    assert [(f.what, f.points, f.rule) for f in state.scored] == [
        ("ten_of_diamonds", 2, "MULLE-SCORE-1"), ("tabbe", 1, "MULLE-SCORE-2")]


def test_grouping_reported() -> None:
    state = play(at("AC KS 9D 5C"), "AH", "AC KS 9D 5C")
    move = R.to_json(state)["last_move"]
    assert move["grouping"] == "A♣+K♠ = 14, 5♣+9♦ = 14" and move["value"] == 14
    assert move["sweep"] and not move["mulle"] and move["points"] == 3


# --- MULLE-EX-1 ----------------------------------------------------------------------------------

def test_ex1_opening_round() -> None:
    state = R.apply(new(2), {"type": "deal", "dealer": 1, "table": ["5D", "9C", "4H", "AS"]})
    script = [
        ("5C", "", (0, 0)), ("AH", "AS 9C 5D", (0, 2)), ("5C", "5C", (3, 2)), ("4C", "4H", (3, 3)),
        ("9H", "", (3, 3)), ("7S", "", (3, 3)), ("10D", "9H 7S", (6, 3)), ("2S", "", (6, 3)),
        ("KH", "", (6, 3)), ("QS", "", (6, 3)),
    ]
    for turn, (card, taken, scores) in enumerate(script):
        assert state.to_act == turn % 2
        state = play(state, card, taken)
        assert state.scores == scores, (turn + 1, card)
    # KH could not take 2S (turn 9), QS could not take 2S+KH (turn 10)
    assert rule_of(dataclasses.replace(state, plays_in_round=8, round_no=1),
                   {"type": "play", "player": 0, "card": "KD", "capture": ["2S"]}) == "MULLE-CAP-4"
    assert state.spades == (1, 1)
    assert [str(c) for c in state.table] == ["2S", "KH", "QS"]
    assert state.round_no == 2 and state.to_act == 0
    assert state.sweeps == (1, 1) and state.mulles == (1, 0)


# --- end of deal: MULLE-EX-2 and MULLE-SCORE-5..9 -------------------------------------------------

def ex2(scores: tuple[int, int], spades: tuple[int, int]) -> MulleState:
    state = before_last_play(2, "3H 6S", unplayed="9D AS", plays_left=2, dealer=1,
                             scores=scores, previous=scores, spades=spades, piles=(40, 50),
                             last_capturer=1)
    assert state.to_act == 0
    state = play(state, "9D", "3H 6S")
    return play(state, "AS")


def test_ex2_last_capture_leftovers_spade_tie() -> None:
    state = ex2((57, 55), (11, 13))
    assert state.scores == (60, 55) and not state.over
    whats = [(f.what, f.points, f.rule) for f in state.scored]
    assert whats == [("last_capture", 1, "MULLE-SCORE-5"), ("ace", 1, "MULLE-SCORE-6")]
    end = R.to_json(state)["deal_end"]
    assert end["spades"] == [13, 13] and end["most_spades"] is None and end["spades_counted"]
    assert end["leftovers"] == ["AS"] and end["leftovers_to"] == 0
    assert end["last_capture"] == {"player": 0, "side": 0}
    assert state.phase == "deal" and state.next_dealer == 0 and state.table == ()
    assert state.piles == (40 + 3 + 1, 50)


def test_ex2_variation_most_spades_wins() -> None:
    state = ex2((57, 55), (12, 12))
    assert state.scores == (61, 55) and state.over and state.winner == 0
    assert state.scored[-1].what == "most_spades" and state.scored[-1].rule == "MULLE-SCORE-7"


def test_ex2_variation_spades_never_counted() -> None:
    """MULLE-SCORE-9: at 61 after the leftovers, the spades are not counted."""
    state = ex2((58, 55), (20, 4))
    assert state.scores == (61, 55) and state.winner == 0
    assert "most_spades" not in [f.what for f in state.scored]
    assert R.outcome(state) is not None and R.outcome(state).rule == "MULLE-END-3"  # type: ignore[union-attr]


def test_win_on_last_capture_point() -> None:
    state = ex2((59, 55), (20, 4))
    assert state.scores == (61, 55)
    assert [f.what for f in state.scored] == ["last_capture"]


def test_no_capture_in_the_whole_deal() -> None:
    """MULLE-AMB-4: nobody gets the last-capture point; the leftovers score nothing."""
    state = before_last_play(2, "AH 3C", unplayed="4D", dealer=1)
    state = play(state, "4D")
    assert state.scored == () and state.phase == "deal"
    assert R.to_json(state)["deal_end"]["last_capture"] is None


def test_last_sweep_counts_by_default() -> None:
    """MULLE-AMB-3: a sweep with the very last card scores."""
    state = play(before_last_play(2, "4H", unplayed="4C"), "4C", "4H")
    assert "tabbe" in [f.what for f in state.scored]


def test_no_last_sweep_option() -> None:
    state = play(before_last_play(2, "4H", unplayed="4C", options={"no_last_sweep": True}), "4C", "4H")
    assert "tabbe" not in [f.what for f in state.scored]
    assert state.history[-1].sweeps == (0, 0)
    earlier = play(at("4H", no_last_sweep=True), "4C", "4H")  # not the last play: counts
    assert "tabbe" in [f.what for f in earlier.scored]


# --- MULLE-EX-3: the game ends in the middle of a deal ------------------------------------------

def test_ex3_win_mid_deal() -> None:
    state = play(at("AH 7C 2D", scores=(57, 60)), "AH", "AH")
    assert points(state) == 5 and state.scores == (62, 60)
    assert state.over and state.winner == 0 and state.phase == "over"
    assert R.to_json(state)["to_act"] is None
    assert rule_of(state, {"type": "play", "player": 1, "card": "9S"}) == "MULLE-END-3"
    assert rule_of(state, {"type": "deal", "table": ["5H", "9S", "KD", "AD"]}) == "MULLE-END-3"
    assert state.history[-1].finished is False
    assert R.to_json(state)["previous_scores"] == [57, 60]


# --- MULLE-EX-4: three players and partnerships ------------------------------------------------

def test_ex4_three_players() -> None:
    state = dealt(3, dealer=2)
    assert len(state.table) == 5 and state.rounds == (5,) * 6 + (3,)
    assert 5 + sum(state.rounds) * 3 == 104


def test_ex4_partnership_spade_tie() -> None:
    state = before_last_play(4, "5H", unplayed="9H", dealer=3, options=TEAMS, spades=(13, 13),
                             last_capturer=0, piles=(50, 52))
    assert state.to_act == 3
    state = play(state, "9H")
    assert [f.what for f in state.scored] == ["last_capture"]
    assert state.history[-1].most_spades is None


def test_ex4_four_individuals_spade_tie() -> None:
    state = before_last_play(4, "5H", unplayed="9H", dealer=3, spades=(7, 7, 6, 6),
                             last_capturer=2, piles=(20, 30, 25, 27))
    state = play(state, "9H")
    assert [f.what for f in state.scored] == ["last_capture"]
    assert state.scores == (0, 0, 1, 0)


def test_most_spades_strictly() -> None:
    state = before_last_play(3, "5H", unplayed="9H", dealer=2, spades=(10, 9, 7), last_capturer=1)
    state = play(state, "9H")
    assert [(f.side, f.what) for f in state.scored] == [(1, "last_capture"), (0, "most_spades")]


# --- the state a screen reads -------------------------------------------------------------------

def test_state_json() -> None:
    state = play(at("5D 9C"), "5C", "5D")
    data = R.to_json(state)
    json.dumps(data)
    for key in ["scores", "over", "winner", "to_act", "table", "dealer", "round", "rounds_total",
                "is_last_round", "played_this_round", "unseen", "previous_scores", "piles",
                "last_move", "deal_end", "history", "deal_points", "cards_left", "scored"]:
        assert key in data
    assert data["unseen"]["5C"] == 1 and data["unseen"]["5D"] == 1 and data["unseen"]["9C"] == 1
    assert data["unseen"]["KS"] == 2 and len(data["unseen"]) == 52
    assert data["piles"] == [{"cards": 2, "spades": 0}, {"cards": 0, "spades": 0}]
    assert data["played_this_round"] == [1, 0] and data["to_act"] == 1
    assert data["cards_left"] == 99


def test_previous_score_is_the_back_peg() -> None:
    """Each side's back peg is its score before its latest points (cribbage-board pegging)."""
    state = play(at("5D 9C 4H"), "5C", "5D")
    state = play(state, "9H", "9C")
    state = play(state, "4C", "4H")  # player 0 sweeps: 0 → 1
    data = R.to_json(state)
    assert data["scores"] == [1, 0] and data["previous_scores"] == [0, 0]
    state = play(state, "AS")
    state = play(state, "AH", "AS")  # player 0: sweep and two Aces, 1 → 4
    assert state.scores == (4, 0) and state.previous == (1, 0)
    state = play(state, "7D")
    state = play(state, "3C")
    state = play(state, "10C", "7D 3C")  # player 1 sweeps: 0 → 1; player 0's pegs stay
    assert state.scores == (4, 1) and R.to_json(state)["previous_scores"] == [1, 0]


def test_hints() -> None:
    state = at("5D 9C 4H AS")
    hints = R.hints(state)
    assert {"type": "play", "player": 0, "card": "5C", "capture": []} in hints
    assert {"type": "play", "player": 0, "card": "5C", "capture": ["AS", "4H", "5D"]} in hints
    for hint in hints[:40]:
        R.apply(state, hint)
    per_card = R.hints_for(state, "AH")
    assert {"capture": ["AS", "5D", "9C"], "value": 14, "grouping": "5♦+9♣ = 14, A♠(14)", "points": 2,
            "sweep": False, "mulle": False} in per_card
    assert R.hints_for(state, parse_card("8D")) == []
    assert R.hints(new(2)) == []


def test_hints_respect_mulle_alone() -> None:
    state = at("5D 5C", mulle_alone=True)
    captures = [h["capture"] for h in R.hints_for(state, "5C")]
    assert ["5C"] in captures and ["5D", "5C"] not in captures
    assert all(h["capture"] != ["5D", "5C"] for h in R.hints(state) if h["card"] == "5C")


def test_hints_limits_and_count_on_a_crowded_table() -> None:
    state = at("AS AH AD 2S 10D 3C 4D 5H 6S 7C 8D 9H JS QC KD 2H", mulle_alone=True)
    full = R.hints_for(state, "AH")
    assert len(full) > HINT_LIMIT
    assert R.hints_for(state, "AH", limit=7) == full[:7]
    assert R.hint_count(state, "AH") == len(full) and R.hint_count(state, "AH", at_most=5) == 5
    assert ["AH"] in [h["capture"] for h in full]
    assert all("AH" not in h["capture"] for h in full if len(h["capture"]) > 1)  # the twin goes alone
    plays = [h["capture"] for h in R.hints(state) if h["card"] == "AH" and h["capture"]]
    assert plays == [h["capture"] for h in full[:HINT_LIMIT]]
    assert R.hint_count(state, "8D") == len(R.hints_for(state, "8D")) and R.hint_count(new(2), "AH") == 0
    for hint in full[:HINT_LIMIT]:
        taken = parse_cards(hint["capture"])
        assert hint["points"] == sum(f[0] for f in move_points(parse_card("AH"), taken, state.table))


def test_describe() -> None:
    names = ["Anna", "Bo"]
    assert R.describe({"type": "play", "player": 0, "card": "5C", "capture": ["5D"]}, names) == "Anna: 5♣ takes 5♦"
    assert R.describe({"type": "play", "player": 1, "card": "5C"}, names) == "Bo trails 5♣"
    assert R.describe({"type": "deal", "dealer": 1, "table": ["5D", "9C"]}, names) == "Bo deals; table 5♦ 9♣"
    assert R.describe({"type": "tally", "side": 0, "what": "mulle"}, names) == "side 0: mulle"
    assert "play" in R.describe({"type": "play", "player": 0, "card": "zz"}, names)


# --- tally mode ------------------------------------------------------------------------------

@pytest.mark.parametrize(("what", "value", "rule"), [
    ("ace", 1, "MULLE-SCORE-1"), ("two_of_spades", 1, "MULLE-SCORE-1"), ("ten_of_diamonds", 2, "MULLE-SCORE-1"),
    ("tabbe", 1, "MULLE-SCORE-2"), ("mulle", 3, "MULLE-SCORE-3"), ("last_capture", 1, "MULLE-SCORE-5"),
    ("most_spades", 1, "MULLE-SCORE-7"), ("sweep", 1, "MULLE-SCORE-2"),
])
def test_tally_values(what: str, value: int, rule: str) -> None:
    state = R.apply(new(2, "tally"), {"type": "tally", "side": 1, "what": what})
    assert state.scores == (0, value) and state.scored[0].rule == rule


def test_tally_to_61() -> None:
    state = new(2, "tally")
    for _ in range(20):
        state = R.apply(state, {"type": "tally", "side": 0, "what": "mulle"})
    assert state.scores == (60, 0) and not state.over
    state = R.apply(state, {"type": "tally", "side": 0, "what": "ten_of_diamonds"})
    assert state.scores == (62, 0) and state.over and state.winner == 0
    assert R.to_json(state)["previous_scores"] == [60, 0]
    assert rule_of(state, {"type": "tally", "side": 1, "what": "ace"}) == "MULLE-END-3"


def test_tally_events_and_teams() -> None:
    state = new(4, "tally", **TEAMS)
    state = R.apply(state, {"type": "tally", "player": 3, "what": "mulle"})
    assert state.scores == (0, 3)
    state = R.apply(state, {"type": "tally", "side": 0, "what": "ace", "count": 3})
    assert state.scores == (3, 3)
    with pytest.raises(MalformedEvent):
        R.apply(state, {"type": "tally", "side": 0, "what": "most_cards"})
    with pytest.raises(MalformedEvent):
        R.apply(state, {"type": "tally", "side": 2, "what": "ace"})
    with pytest.raises(MalformedEvent):
        R.apply(state, {"type": "play", "player": 0, "card": "5C"})


def test_tally_caps_per_marked_deal() -> None:
    """Once deals are marked, a deal holds only 8 Aces (MULLE-COMP-4), one last capture
    (MULLE-SCORE-5) and one spade point (MULLE-SCORE-7)."""
    state = R.apply(new(2, "tally"), {"type": "deal", "dealer": 0})
    state = R.apply(state, {"type": "tally", "side": 0, "what": "ace", "count": 8})
    assert rule_of(state, {"type": "tally", "side": 1, "what": "ace"}) == "MULLE-COMP-4"
    state = R.apply(state, {"type": "tally", "side": 0, "what": "last_capture"})
    assert rule_of(state, {"type": "tally", "side": 1, "what": "last_capture"}) == "MULLE-SCORE-5"
    state = R.apply(state, {"type": "tally", "side": 1, "what": "most_spades"})
    assert rule_of(state, {"type": "tally", "side": 0, "what": "most_spades"}) == "MULLE-SCORE-7"
    assert rule_of(state, {"type": "deal", "dealer": 0}) == "MULLE-DEAL-1"
    state = R.apply(state, {"type": "deal"})
    assert state.dealer == 1 and state.deal_no == 2
    state = R.apply(state, {"type": "tally", "side": 1, "what": "ace"})
    assert R.to_json(state)["history"][0]["points"] == [9, 1]
    assert R.to_json(state)["deal_points"] == [0, 1]


def test_rulebook_covers_every_rule_the_engine_cites() -> None:
    root = Path(__file__).resolve().parents[2]
    book = (root / "scorekeeper" / "rulebook" / "mulle.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\* \*\*(MULLE-[A-Z]+-[0-9A-Z-]+)\*\*", book, flags=re.MULTILINE))
    source = "".join(p.read_text() for p in sorted((root / "scorekeeper" / "engine" / "mulle").rglob("*.py")))
    cited = set(re.findall(r'"(MULLE-[A-Z]+-[0-9A-Z-]+)"', source))
    assert cited and cited <= listed
    for section in ("COMP", "DEAL", "TURN", "CAP", "SCORE", "END", "OPT", "AMB", "TV", "EX"):
        assert any(rule.startswith(f"MULLE-{section}-") for rule in listed)
    assert R.outcome(new(2)) is None


def test_hints_over_the_pack_leave_the_screens_listings_cached() -> None:
    """Mulle.hints lists some fifteen cards' captures at once: those listings are not kept, so
    the one a screen keeps asking about (and has paid for) stays in the cache."""
    from scorekeeper.engine.fishing import captures

    state = at("AS AH AD 2S 10D 3C 4D 5H 6S 7C 8D 9H JS QC KD 2H")
    R.hints_for(state, "AH")
    kept = dict(captures._cache)
    assert kept
    for _ in range(3):
        assert R.hints(at("2C 3D 4H 5S 6C 7D 8H 9S 10C JD QH KS AC 2D"))
    assert all(captures._cache.get(key) is listing for key, listing in kept.items())
    assert len(captures._cache) == len(kept)
