"""Muggins: every rule id, test vector and worked example of rules/muggins.md."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from scorekeeper.cards import Card, NotationError, parse_card, parse_cards
from scorekeeper.engine import RULES
from scorekeeper.engine.base import MalformedEvent, RuleViolation, SetupError
from scorekeeper.engine.muggins import (
    DEAL_TABLE,
    Hand,
    Muggins,
    MugginsState,
    Place,
    correct_places,
    fits,
    placements_for,
)

RULES_ = Muggins()
NAMES = ["A", "B", "C", "D", "E", "F", "G"]
OWN: dict[str, Any] = {"pile": "own"}


def mug(i: int) -> dict[str, Any]:
    return {"pile": "muggins", "index": i}


def disc(p: int) -> dict[str, Any]:
    return {"pile": "discard", "player": p}


def turn(card: str, to: dict[str, Any], player: int | None = None, **extra: Any) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "turn", "card": card, "to": to, **extra}
    if player is not None:
        event["player"] = player
    return event


def started(players: int = 3, muggins: list[str] | None = None, **options: Any) -> MugginsState:
    state = RULES_.new(NAMES[:players], options)
    cards = muggins or ["5H", "9C", "KD", "2S", "7D"][: DEAL_TABLE[players][0]]
    return RULES_.apply(state, {"type": "setup", "muggins": cards})


def position(muggins: Sequence[Sequence[str] | str], hands: Sequence[tuple[Sequence[str | None] | int, list[str]]],
             to_act: int = 0, **options: Any) -> MugginsState:
    """A mid-game table built directly: each hand is (draw pile top first, "?"/None = unseen or a
    count of unseen cards; discard pile bottom first)."""
    state = RULES_.new(NAMES[:len(hands)], options)
    piles = tuple(tuple(parse_cards([p] if isinstance(p, str) else p)) for p in muggins)
    built = []
    for draw, discard in hands:
        slots = (None,) * draw if isinstance(draw, int) else tuple(
            None if c in (None, "?") else parse_card(c) for c in draw)
        built.append(Hand(draw=slots, discard=tuple(parse_cards(discard))))
    return replace(state, phase="play", muggins=piles, hands=tuple(built), to_act=to_act)


def total(state: MugginsState) -> int:
    return int(RULES_.to_json(state)["cards_total"])


def raises(state: MugginsState, event: dict[str, Any], rule: str) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        RULES_.apply(state, event)
    assert info.value.rule == rule, info.value
    return info.value


# --- Registry, set-up, components ------------------------------------------------------------


def test_registered() -> None:
    assert RULES["muggins"].id == "muggins"
    assert isinstance(RULES["muggins"], Muggins)


@pytest.mark.parametrize("players", [2, 8])
def test_comp_2_player_counts(players: int) -> None:
    """MUGGINS-COMP-2 / AMB-9: only 3 to 7 players."""
    with pytest.raises(SetupError) as info:
        RULES_.new(NAMES[:2] if players == 2 else NAMES + ["H"], {})
    assert info.value.rule == "MUGGINS-COMP-2"


def test_comp_2_no_teams() -> None:
    with pytest.raises(SetupError) as info:
        RULES_.new(NAMES[:4], {"teams": [[0, 2], [1, 3]]})
    assert info.value.rule == "MUGGINS-COMP-2"


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_deal_1_and_2_table(players: int) -> None:
    """MUGGINS-DEAL-1/2: piles and cards per player, all 52 cards out."""
    piles, each = DEAL_TABLE[players]
    cards = [str(c) for c in parse_cards("5H 9C KD 2S 7D")][:piles]
    state = RULES_.apply(RULES_.new(NAMES[:players], {}), {"type": "setup", "muggins": cards})
    data = RULES_.to_json(state)
    assert len(data["muggins"]) == piles
    assert [p["draw"] for p in data["players"]] == [each] * players
    assert piles + players * each == 52 == data["cards_total"]
    assert data["unseen"] == 52 - piles


def test_deal_1_wrong_number_of_muggins_cards() -> None:
    state = RULES_.new(NAMES[:5], {})
    err = raises(state, {"type": "setup", "muggins": ["5H", "9C", "KD"]}, "MUGGINS-DEAL-1")
    assert err.facts == {"expected": 2, "got": 3}


def test_deal_1_turn_before_setup_and_setup_twice() -> None:
    fresh = RULES_.new(NAMES[:3], {})
    raises(fresh, turn("4H", OWN), "MUGGINS-DEAL-1")
    raises(fresh, {"type": "stop"}, "MUGGINS-DEAL-1")
    raises(started(), {"type": "setup", "muggins": ["5H", "9C", "KD", "2S"]}, "MUGGINS-DEAL-1")


def test_comp_1_duplicate_muggins_card() -> None:
    raises(RULES_.new(NAMES[:3], {}), {"type": "setup", "muggins": ["5H", "9C", "5h", "2S"]}, "MUGGINS-COMP-1")


def test_comp_1_card_seen_twice() -> None:
    """A card already lying face up cannot be turned again."""
    state = started()
    raises(state, turn("9C", OWN), "MUGGINS-COMP-1")          # it is a muggins card
    state = RULES_.apply(state, turn("7H", OWN))                 # A starts a discard pile
    err = raises(state, turn("7H", OWN), "MUGGINS-COMP-1")       # B cannot turn A's 7♥
    assert err.facts["where"] == "discard" and err.facts["seat"] == 0


def test_comp_1_ranks_and_fit_rule() -> None:
    """MUGGINS-COMP-1 / FIT-1: ranks 1..13, one up or down, no wrap."""
    c = parse_card
    assert fits(c("4H"), c("5S")) and fits(c("4H"), c("3S"))
    assert not fits(c("AH"), c("KS")) and not fits(c("KH"), c("AS"))
    assert fits(c("2H"), c("AS")) and fits(c("QH"), c("KS")) and fits(c("QH"), c("JS"))
    assert not fits(c("7H"), c("9S")) and not fits(c("7H"), c("7S"))


def test_deal_3_forehand_starts() -> None:
    state = RULES_.apply(RULES_.new(NAMES[:4], {}), {"type": "setup", "muggins": ["5H", "9C", "KD", "2S"],
                                                     "dealer": 1})
    assert RULES_.to_json(state)["to_act"] == 2 == RULES_.to_json(state)["forehand"]
    err = raises(state, turn("7H", OWN, player=1), "MUGGINS-DEAL-3")
    assert err.facts["to_act"] == 2
    assert started().to_act == 0  # default dealer: the last seat, so seat 0 is forehand


def test_bad_options_and_mode() -> None:
    with pytest.raises(SetupError) as info:
        RULES_.new(NAMES[:3], {"neighbour_only": True, "any_opponent": True})
    assert info.value.rule == "MUGGINS-OPT-ANY-OPPONENT"
    with pytest.raises(SetupError) as info:
        RULES_.new(NAMES[:3], {"coach": "yes"})
    assert info.value.rule == "MUGGINS-OPT-COACH"
    with pytest.raises(SetupError):
        RULES_.new(NAMES[:3], {"nonsense": True})
    with pytest.raises(SetupError):
        RULES_.new(NAMES[:3], {}, "sometimes")  # type: ignore[arg-type]


# --- Malformed events and notation -----------------------------------------------------------


@pytest.mark.parametrize("event", [
    {"type": "deal"},
    {"card": "4H"},
    {"type": "turn", "to": OWN},
    {"type": "turn", "card": 4, "to": OWN},
    {"type": "turn", "card": "4H"},
    {"type": "turn", "card": "4H", "to": {"pile": "table"}},
    {"type": "turn", "card": "4H", "to": {"pile": "muggins"}},
    {"type": "turn", "card": "4H", "to": {"pile": "muggins", "index": -1}},
    {"type": "turn", "card": "4H", "to": "own"},
    {"type": "turn", "card": "4H", "to": OWN, "player": "A"},
    {"type": "result", "winner": 0},
])
def test_malformed(event: dict[str, Any]) -> None:
    with pytest.raises(MalformedEvent):
        RULES_.apply(started(), event)


def test_bad_notation_propagates() -> None:
    with pytest.raises(NotationError):
        RULES_.apply(started(), turn("11X", OWN))
    with pytest.raises(NotationError):
        RULES_.apply(RULES_.new(NAMES[:3], {}), {"type": "setup", "muggins": ["5H", "ZZ", "KD", "2S"]})
    with pytest.raises(MalformedEvent):
        RULES_.apply(RULES_.new(NAMES[:3], {}), {"type": "setup", "muggins": 5})


def test_comp_3_no_such_pile() -> None:
    state = started()
    raises(state, turn("4H", mug(4)), "MUGGINS-COMP-3")
    raises(state, turn("4H", disc(3)), "MUGGINS-COMP-3")


# --- Fit and priority -----------------------------------------------------------------------


def misfit(state: MugginsState, event: dict[str, Any]) -> MugginsState:
    """Apply a placement where the card does not fit and check it was called as a muggins."""
    after = RULES_.apply(state, event)
    call = after.last_muggins
    assert call is not None and call.n == len(after.history) and not call.fitted
    data = RULES_.to_json(after)["last_muggins"]
    assert data["fits"] is False and data["fit_rule"] == "MUGGINS-FIT-1" and data["rule"] == "MUGGINS-PEN-1"
    assert total(after) == total(state)
    return after


def test_fit_1_misfit_is_a_muggins() -> None:
    """MUGGINS-FIT-1 with MUGGINS-PEN-1: a card put where it does not fit breaks the priority too;
    it is penalised (PEN-2), moved to a correct place and the turn ends (PEN-3)."""
    state = started()  # muggins 5H 9C KD 2S; A to act, nobody has a discard pile
    after = misfit(state, turn("9H", mug(0)))                  # 9 on 5: four apart; it fits nowhere
    call = after.last_muggins
    assert call is not None and call.placed == Place("muggins", 0)
    assert str(call.placed_on) == "5H" and [p.to_json() for p in call.correct] == [OWN]
    assert call.moved_to is not None and call.moved_to.kind == "own" and call.turn_ended
    assert [str(c) for c in after.hands[0].discard] == ["9H"] and [str(p[-1]) for p in after.muggins][0] == "5H"
    assert call.givers == (1, 2) and after.hands[0].cards == 16 - 1 + 1 + 2 and after.to_act == 1
    data = RULES_.to_json(after)
    assert "does not fit on muggins pile 1 (5♥)" in data["last_muggins"]["explanation"]
    assert data["placements"][-1]["onto"] == "5H" and data["placements"][-1]["final"] == OWN


def test_fit_1_no_wrap_is_a_muggins() -> None:
    """An Ace on a King does not fit (no wrap-around); the Ace belonged on the 2."""
    after = misfit(started(), turn("AH", mug(2)))
    call = after.last_muggins
    assert call is not None and call.moved_to is not None and call.moved_to.to_json() == mug(3)
    assert [str(p[-1]) for p in after.muggins] == ["5H", "9C", "KD", "AH"] and after.to_act == 1


def test_fit_1_on_a_missing_discard_pile_is_a_muggins() -> None:
    after = misfit(started(), turn("4H", disc(1)))             # B has no discard pile yet
    call = after.last_muggins
    assert call is not None and call.placed_on is None and call.moved_to is not None
    assert call.moved_to.to_json() == mug(0) and after.hands[1].discard == ()
    assert "there is none" in call.reason


def test_fit_1_on_a_discard_pile_is_a_muggins() -> None:
    state = RULES_.apply(started(), turn("7H", OWN))           # A: [7H]; B to act
    after = misfit(state, turn("10H", disc(0)))                # 10 on A's 7; it belonged on the 9
    assert after.last_muggins is not None and after.last_muggins.moved_to == after.last_muggins.correct[0]
    assert [str(c) for c in after.hands[0].discard] == ["7H"] and str(after.muggins[1][-1]) == "10H"


def test_fit_1_card_fitting_nowhere() -> None:
    """Special case: when the card fits no muggins pile and not the left pile, the own pile is the
    correct place, whatever its top; anywhere else is a muggins and the card goes to the own pile."""
    state = position(["KS", "2S"], [(["7C", "?"], ["JD"]), (3, ["4D"]), (3, [])])
    assert [p["to"] for p in placements_for(state, "7C")] == [OWN]
    right = RULES_.apply(state, turn("7C", OWN))
    assert right.last_muggins is None and right.to_act == 1
    assert [str(c) for c in right.hands[0].discard] == ["JD", "7C"]
    for wrong in (mug(0), mug(1), disc(1), disc(2)):
        after = misfit(state, turn("7C", wrong))
        assert after.last_muggins is not None and after.last_muggins.moved_to is not None
        assert after.last_muggins.moved_to.kind == "own" and after.to_act == 1
        assert [str(c) for c in after.hands[0].discard] == ["JD", "7C"]


def test_play_2_own_pile_starts_a_pile_and_ends_turn() -> None:
    """MUGGINS-PLAY-2 step 3 and MUGGINS-PLAY-4."""
    state = RULES_.apply(started(), turn("7H", OWN, player=0))
    assert state.to_act == 1 and [str(c) for c in state.hands[0].discard] == ["7H"]
    assert state.hands[0].cards == 16 and len(state.hands[0].draw) == 15


def test_play_3_carries_on_after_success() -> None:
    """MUGGINS-PLAY-3 / AMB-1: after a muggins or left-pile placement the same player turns again."""
    state = RULES_.apply(started(), turn("4H", mug(0)))
    assert state.to_act == 0
    err = raises(state, turn("7H", OWN, player=1), "MUGGINS-PLAY-3")
    assert err.facts == {"to_act": 0, "player": 1}


def test_play_4_turn_passes_clockwise() -> None:
    state = RULES_.apply(started(), turn("7H", OWN))
    raises(state, turn("8D", OWN, player=2), "MUGGINS-PLAY-4")
    state = RULES_.apply(state, turn("JD", OWN, player=1))
    state = RULES_.apply(state, turn("3C", OWN, player=2))
    assert state.to_act == 0


def test_play_5_own_discard_never_played() -> None:
    state = RULES_.apply(started(), turn("7H", OWN))
    state = RULES_.apply(state, turn("JD", OWN))
    state = RULES_.apply(state, turn("3C", OWN))
    err = raises(state, turn("7H", OWN), "MUGGINS-PLAY-5")
    assert err.facts == {"card": "7H"}


def test_play_1_turns_the_top_card() -> None:
    """A known card further down the draw pile is not the top card."""
    state = position(["5H"], [(["?", "JD"], []), ([], ["8C"]), (3, [])])
    raises(state, turn("JD", OWN), "MUGGINS-PLAY-1")


def test_play_6_cards_on_your_pile_are_yours() -> None:
    state = RULES_.apply(started(3, ["KS", "KC", "KH", "KD"]), turn("7H", OWN))  # A: 15 + [7H]
    state = RULES_.apply(state, turn("8H", disc(0)))               # B plays on A
    assert state.hands[0].cards == 17 and state.hands[1].cards == 15
    assert total(state) == 52


def test_play_7_and_amb_4_turning_over() -> None:
    """The empty draw pile is replaced only when a card is needed; then in placement order."""
    state = position(["5H", "10C", "JD", "2S"], [(1, []), (["6D"], ["4C", "9S"]), (2, [])], to_act=1)
    state = RULES_.apply(state, turn("6D", mug(0)))                # last draw card; B carries on
    assert state.to_act == 1 and state.hands[1].draw == () and len(state.hands[1].discard) == 2
    data = RULES_.to_json(state)
    assert data["turns_over_first"] and data["next_card"] == "4C"
    err = raises(state, turn("9S", mug(1)), "MUGGINS-PLAY-7")      # the 9 is at the bottom now
    assert err.facts == {"expected": "4C", "card": "9S"}
    state = RULES_.apply(state, turn("4C", OWN))                   # 4 on 6? no: nothing fits → own
    assert [str(c) for c in state.hands[1].draw] == ["9S"] and state.history[-1].turned_over


# --- Test vectors ---------------------------------------------------------------------------

TV: list[tuple[str, str, list[str], str | None, list[dict[str, Any]]]] = [
    ("MUGGINS-TV-1", "4C", ["3S", "9S", "KS"], "5D", [mug(0)]),
    ("MUGGINS-TV-2", "AC", ["KS", "5S"], "2D", [disc(1)]),
    ("MUGGINS-TV-3", "KC", ["AS", "QS"], None, [mug(1)]),
    ("MUGGINS-TV-4", "7C", ["3S", "10S", "JS"], "9D", [OWN]),
    ("MUGGINS-TV-5", "8C", ["7S", "9S"], "7D", [mug(0), mug(1)]),
    ("MUGGINS-TV-6", "6C", ["5S", "QS"], "7D", [mug(0)]),
    ("MUGGINS-TV-7", "2C", ["AS", "10S"], None, [mug(0)]),
]


def tv_table(card: str, tops: list[str], left: str | None) -> MugginsState:
    return position(tops, [([card, "?"], []), (4, [left] if left else []), (4, [])])


@pytest.mark.parametrize(("tv", "card", "tops", "left", "required"), TV, ids=[t[0] for t in TV])
def test_vectors(tv: str, card: str, tops: list[str], left: str | None, required: list[dict[str, Any]]) -> None:
    state = tv_table(card, tops, left)
    options = placements_for(state, card)
    assert [p["to"] for p in options if p["correct"]] == required
    assert RULES_.to_json(state)["places_by_rank"][parse_card(card).rank] == required
    for place in required:  # every required place is accepted without a muggins
        after = RULES_.apply(state, turn(card, place))
        assert after.last_muggins is None and not RULES_.to_json(after)["muggins_called"]
    for wrong in (p["to"] for p in options if not p["correct"]):  # every other fitting place is a muggins
        after = RULES_.apply(state, turn(card, wrong))
        assert after.last_muggins is not None and after.last_muggins.correct[0].to_json() == required[0]


def test_tv_6_left_pile_is_a_breach() -> None:
    """MUGGINS-TV-6: 6 on the left 7 while muggins 5 fits → Muggins!"""
    state = tv_table("6C", ["5S", "QS"], "7D")
    after = RULES_.apply(state, turn("6C", disc(1)))
    call = RULES_.to_json(after)["last_muggins"]
    assert call["rule"] == "MUGGINS-PEN-1" and call["card"] == "6C"
    assert call["placed"] == disc(1) and call["placed_on"] == "7D"
    assert call["should"] == [mug(0)] and call["moved_to"] == mug(0)
    assert call["penalty_cards"] == 2 and call["givers"] == [1, 2]
    assert "Muggins!" in call["explanation"] and "muggins pile 1" in call["explanation"]


def test_tv_3_and_7_misfits_are_muggins() -> None:
    """MUGGINS-TV-3/7 the other way round: a King on the Ace, a 2 on the 10 do not fit → muggins."""
    king = misfit(tv_table("KC", ["AS", "QS"], None), turn("KC", mug(0)))
    assert [str(p[-1]) for p in king.muggins] == ["AS", "KC"]
    two = misfit(tv_table("2C", ["AS", "10S"], None), turn("2C", mug(1)))
    assert [str(p[-1]) for p in two.muggins] == ["2C", "10S"]


def test_vectors_every_place_but_the_required_is_a_muggins() -> None:
    """Whatever the test vector, every place except the required ones is a muggins, fitting or not."""
    for _tv, card, tops, left, required in TV:
        state = tv_table(card, tops, left)
        places = [mug(i) for i in range(len(tops))] + [disc(1), disc(2), OWN]
        for place in places:
            after = RULES_.apply(state, turn(card, place))
            assert (after.last_muggins is None) == (place in required), (card, place)


# --- Worked examples ------------------------------------------------------------------------


EX1 = [(0, "4H", mug(0)), (0, "10H", mug(1)), (0, "7H", OWN),
       (1, "QH", mug(2)), (1, "8H", disc(0)), (1, "3H", mug(3)), (1, "JH", mug(1)), (1, "6H", OWN),
       (2, "9H", disc(0)), (2, "5C", mug(0)), (2, "2C", mug(3)), (2, "AC", mug(3)), (2, "KC", mug(2)),
       (2, "7C", OWN)]


def test_ex_1_several_cards_in_one_turn() -> None:
    state = started(3, ["5S", "9S", "KS", "2D"])
    to_act = []
    for player, card, to in EX1:
        state = RULES_.apply(state, turn(card, to, player=player))
        assert state.last_muggins is None
        to_act.append(state.to_act)
    assert to_act == [0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 0]
    data = RULES_.to_json(state)
    assert [m["top"] for m in data["muggins"]] == ["5C", "JH", "KC", "AC"]
    # The spec's sum reads 4 + 2 + 3 + 4; the piles really hold 3 + 3 + 3 + 4, still 13 cards.
    assert [m["count"] for m in data["muggins"]] == [3, 3, 3, 4] and sum(m["count"] for m in data["muggins"]) == 13
    assert [p["discard_cards"] for p in data["players"]] == [["7H", "8H", "9H"], ["6H"], ["7C"]]
    assert [(p["draw"], p["discard"], p["cards"]) for p in data["players"]] == [(13, 3, 16), (11, 1, 12), (10, 1, 11)]
    assert data["cards_total"] == 52
    assert len(data["placements"]) == 14 and data["placements"][4]["onto"] == "7H"


def test_ex_1_step_5_with_neighbour_only() -> None:
    """With MUGGINS-OPT-NEIGHBOUR-ONLY, B's 8 goes on B's own pile and B's turn ends."""
    state = started(3, ["5S", "9S", "KS", "2D"], neighbour_only=True)
    for player, card, to in EX1[:4]:
        state = RULES_.apply(state, turn(card, to, player=player))
    assert [p["to"] for p in placements_for(state, "8H") if p["correct"]] == [OWN]
    after = RULES_.apply(state, turn("8H", OWN))
    assert after.to_act == 2 and after.last_muggins is None
    punished = RULES_.apply(state, turn("8H", disc(0)))  # A's pile is not the neighbour's
    assert punished.last_muggins is not None and punished.last_muggins.correct[0].kind == "own"


def ex2_table(**options: Any) -> MugginsState:
    # A B C D; muggins tops 6 9 Q 3; A's pile top 8; D holds 9 + 2 and is to act.
    return position([["4S", "5S", "6S"], ["10S", "9H"], ["JS", "QH"], ["2S", "3H"]],
                    [(8, ["AD", "8D"]), (11, []), (11, []), (["7C"] + ["?"] * 8, ["KC", "KD"])],
                    to_act=3, **options)


def test_ex_2_muggins_penalty() -> None:
    state = ex2_table()
    assert total(state) == 52
    before = [h.cards for h in state.hands]
    after = RULES_.apply(state, turn("7C", disc(0), player=3))
    data = RULES_.to_json(after)
    call = data["last_muggins"]
    assert data["muggins_called"] and call["givers"] == [0, 1, 2] and call["penalty_cards"] == 3
    assert [m["top"] for m in data["muggins"]] == ["7C", "9H", "QH", "3H"]
    assert data["players"][0]["discard_top"] == "8D"
    assert (data["players"][3]["draw"], data["players"][3]["discard"], data["players"][3]["cards"]) == (11, 2, 13)
    assert [h.cards for h in after.hands[:3]] == [b - 1 for b in before[:3]]
    assert data["to_act"] == 0 and call["turn_ended"]          # MUGGINS-PEN-3
    assert data["cards_total"] == 52
    assert [s.what for s in after.scored] == ["muggins"] and after.scored[0].rule == "MUGGINS-PEN-2"


def ex3_table(tops: list[str]) -> MugginsState:
    return position(tops, [(5, ["8H"]), ([], ["4C", "9C"]), (5, [])], to_act=1)


def test_ex_3_turning_over_and_winning() -> None:
    state = ex3_table(["5S", "10S", "JS", "2S"])
    state = RULES_.apply(state, turn("4C", mug(0), player=1))
    assert state.history[-1].turned_over and state.to_act == 1
    state = RULES_.apply(state, turn("9C", mug(1), player=1))
    data = RULES_.to_json(state)
    assert data["over"] and data["winner"] == 1 and data["scores"] == [0, 1, 0]
    outcome = RULES_.outcome(state)
    assert outcome is not None and outcome.rule == "MUGGINS-END-1" and outcome.winner == 1
    assert [s.what for s in state.scored] == ["win"]


def test_ex_3_variant_no_fit() -> None:
    state = ex3_table(["6S", "10S", "JS", "2S"])
    state = RULES_.apply(state, turn("4C", OWN, player=1))     # A's 8 does not fit either
    assert state.to_act == 2
    assert [str(c) for c in state.hands[1].draw] == ["9C"] and [str(c) for c in state.hands[1].discard] == ["4C"]


# --- Muggins in detail ----------------------------------------------------------------------


def test_pen_1_own_pile_when_left_fits() -> None:
    state = tv_table("AC", ["KS", "5S"], "2D")
    after = RULES_.apply(state, turn("AC", OWN))
    call = after.last_muggins
    assert call is not None and call.placed.kind == "own" and call.moved_to is not None
    assert call.moved_to.kind == "discard" and call.moved_to.index == 1
    assert [str(c) for c in after.hands[1].discard] == ["2D", "AC"] and after.hands[0].discard == ()


def test_pen_1_not_the_nearest_pile() -> None:
    """Only the nearest non-empty pile to the left may be used (MUGGINS-AMB-2)."""
    state = position(["KS"], [(["7C", "?"], []), (3, ["2D"]), (3, ["8D"])])
    after = RULES_.apply(state, turn("7C", disc(2)))           # fits C's 8, but B is nearer
    assert after.last_muggins is not None and after.last_muggins.correct[0].kind == "own"
    assert [str(c) for c in after.hands[0].discard] == ["7C"] and [str(c) for c in after.hands[2].discard] == ["8D"]


def test_amb_2_skips_players_without_pile() -> None:
    state = position(["KS"], [(["7C", "?"], []), (3, []), (3, ["8D"])])
    assert [p["to"] for p in placements_for(state, "7C")] == [disc(2), OWN]
    assert placements_for(state, "7C")[1]["correct"] is False


def test_pen_2_giver_turns_over_and_order() -> None:
    """MUGGINS-PEN-2 / AMB-5: a giver without a draw pile turns the discard pile over first; the
    penalty cards go under the offender's draw pile clockwise from the offender's left."""
    state = position(["5S", "QS"], [(["6C", "?"], []), ([], ["JD", "7D"]), (["3H", "?"], [])])
    after = RULES_.apply(state, turn("6C", disc(1)))
    assert after.last_muggins is not None and after.last_muggins.givers == (1, 2)
    # The 6 went to the muggins 5; B turned [J, 7] over and gave the J; C gave the 3.
    assert [str(c) if c else "?" for c in after.hands[0].draw] == ["?", "JD", "3H"]
    assert [str(c) for c in after.hands[1].draw] == ["7D"] and after.hands[1].discard == ()
    assert total(after) == total(state)


def test_pen_2_card_moved_before_penalty() -> None:
    """The wrong card is moved first; a giver whose pile it lands on may then turn it over."""
    state = position(["KS"], [(["7C", "?"], []), ([], ["8D"]), (2, ["6D"])])
    after = RULES_.apply(state, turn("7C", disc(2)))            # belongs on B's 8
    assert after.last_muggins is not None and after.last_muggins.moved_to is not None
    # B had no draw pile: turned [8D, 7C] over and gave the 8.
    assert [str(c) for c in after.hands[1].draw] == ["7C"]
    assert str(after.hands[0].draw[1]) == "8D"


def test_pen_3_offender_chooses_and_turn_ends() -> None:
    state = tv_table("8C", ["7S", "9S"], "7D")
    after = RULES_.apply(state, turn("8C", disc(1), moved_to=mug(1)))
    assert [str(p[-1]) for p in after.muggins] == ["7S", "8C"] and after.to_act == 1
    raises(state, turn("8C", disc(1), moved_to=OWN), "MUGGINS-PEN-3")
    default = RULES_.apply(state, turn("8C", disc(1)))
    assert [str(p[-1]) for p in default.muggins] == ["8C", "9S"]


def test_pen_4_caught_at_entry_and_pen_facts() -> None:
    state = tv_table("4C", ["3S", "9S", "KS"], "5D")
    after = RULES_.apply(state, turn("4C", OWN))
    data = RULES_.to_json(after)
    assert data["muggins_called"] and data["last_muggins"]["n"] == 1
    assert data["placements"][-1]["muggins"] and data["placements"][-1]["final"] == mug(0)
    assert data["last_muggins"]["penalty_rule"] == "MUGGINS-PEN-2"
    assert data["last_muggins"]["priority_rule"] == "MUGGINS-PLAY-2"
    # The next event keeps the record but no longer calls it.
    nxt = RULES_.apply(after, turn("KH", OWN, player=1))
    assert RULES_.to_json(nxt)["last_muggins"]["n"] == 1 and not RULES_.to_json(nxt)["muggins_called"]


def test_penalty_cards_known_when_giver_pile_is_known() -> None:
    state = position(["5S"], [(["6C", "?"], []), (["10D", "?"], []), (["JH", "?"], [])])
    after = RULES_.apply(state, turn("6C", OWN))
    assert [str(c) if c else "?" for c in after.hands[0].draw] == ["?", "10D", "JH"]
    raises(replace(after, to_act=0, history=after.history[:0]), turn("10D", OWN), "MUGGINS-PLAY-1")


def test_refused_event_leaves_state_intact() -> None:
    state = tv_table("6C", ["5S", "QS"], "7D")
    snapshot = RULES_.to_json(state)
    raises(state, turn("5S", mug(1)), "MUGGINS-PLAY-7")       # the next card is known: 6♣
    punished = RULES_.apply(state, turn("6C", mug(1)))
    assert punished.last_muggins is not None and RULES_.to_json(state) == snapshot
    coached = replace(state, options=replace(state.options, coach=True))
    raises(coached, turn("6C", mug(1)), "MUGGINS-FIT-1")
    assert RULES_.to_json(state) == snapshot


# --- Options --------------------------------------------------------------------------------


def test_opt_one_card() -> None:
    state = RULES_.apply(started(one_card=True), turn("4H", mug(0)))
    assert state.to_act == 1


def test_opt_any_opponent() -> None:
    state = position(["KS"], [(["7C", "?"], []), (3, ["2D"]), (3, ["8D"])], any_opponent=True)
    assert [p["to"] for p in placements_for(state, "7C") if p["correct"]] == [disc(2)]
    after = RULES_.apply(state, turn("7C", disc(2)))
    assert after.last_muggins is None and after.to_act == 0
    # Nearest fitting pile first: with two that fit, the farther one is a muggins.
    state = position(["KS"], [(["7C", "?"], []), (3, ["6D"]), (3, ["8D"])], any_opponent=True)
    assert RULES_.apply(state, turn("7C", disc(2))).last_muggins is not None


def test_opt_neighbour_only_skips_players_who_are_out() -> None:
    state = position(["KS"], [(["7C", "?"], []), (0, []), (3, ["8D"])], neighbour_only=True, placings=True)
    state = replace(state, placings=((1,),))
    assert [p["to"] for p in placements_for(state, "7C") if p["correct"]] == [disc(2)]


def test_opt_play_stands() -> None:
    state = tv_table("6C", ["5S", "QS"], "7D")
    state = replace(state, options=replace(state.options, play_stands=True))
    after = RULES_.apply(state, turn("6C", disc(1)))
    assert after.last_muggins is not None and after.last_muggins.moved_to is None
    assert str(after.hands[1].discard[-1]) == "6C" and after.to_act == 0     # stays; turn goes on
    on_own = RULES_.apply(state, turn("6C", OWN))
    assert on_own.last_muggins is not None and on_own.to_act == 1           # own pile still ends it


def test_opt_play_stands_only_where_it_fits() -> None:
    """A card that does not fit cannot stay where it was put: it is moved and the turn ends."""
    state = tv_table("6C", ["5S", "QS"], "7D")
    state = replace(state, options=replace(state.options, play_stands=True))
    after = misfit(state, turn("6C", mug(1)))
    call = after.last_muggins
    assert call is not None and call.moved_to is not None and call.moved_to.to_json() == mug(0)
    assert [str(p[-1]) for p in after.muggins] == ["6C", "QS"] and after.to_act == 1 and call.turn_ended


def test_opt_coach_refuses_without_penalty() -> None:
    state = tv_table("6C", ["5S", "QS"], "7D")
    state = replace(state, options=replace(state.options, coach=True))
    err = raises(state, turn("6C", disc(1)), "MUGGINS-PLAY-2")
    assert err.facts["correct"] == [mug(0)] and err.facts["breach"] == "MUGGINS-PEN-1"
    assert err.facts["top"] == "7D"
    assert [p["to"] for p in placements_for(state, "6C")] == [mug(0)]
    assert RULES_.apply(state, turn("6C", mug(0))).last_muggins is None


def test_opt_coach_refuses_a_misfit_with_the_fit_rule() -> None:
    """MUGGINS-OPT-COACH with MUGGINS-FIT-1: a card that does not fit is refused, naming the fit rule."""
    state = started(coach=True)  # muggins 5H 9C KD 2S
    err = raises(state, turn("9H", mug(0)), "MUGGINS-FIT-1")
    assert err.facts == {"card": "9H", "top": "5H", "correct": [OWN], "breach": "MUGGINS-PEN-1"}
    assert "does not fit" in str(err)
    raises(state, turn("AH", mug(2)), "MUGGINS-FIT-1")         # A on K: no wrap
    err = raises(state, turn("4H", disc(1)), "MUGGINS-FIT-1")  # B has no discard pile yet
    assert err.facts["top"] is None and err.facts["correct"] == [mug(0)]


def test_opt_placings_and_end_1_after_game() -> None:
    state = position(["5S", "10S"], [(["4C"], []), (["9C", "?"], []), (["2H", "?"], []), (["KD", "?"], [])],
                     placings=True)
    state = RULES_.apply(state, turn("4C", mug(0)))
    assert state.placings == ((0,),) and not state.over and state.to_act == 1
    assert RULES_.to_json(state)["winner"] == 0
    state = RULES_.apply(state, turn("9C", mug(1)))
    state = RULES_.apply(state, turn("JD", OWN, player=1))
    assert state.to_act == 2
    # C empties and so does D; the last one left is placed last.
    state = replace(state, hands=(Hand(), Hand(draw=(None,)), Hand(draw=(parse_card("3H"),)), Hand()),
                    placings=((0,), (3,)))
    state = RULES_.apply(state, turn("3H", mug(0)))
    assert state.over and state.placings == ((0,), (3,), (2,), (1,))
    raises(state, turn("7H", OWN), "MUGGINS-END-1")


def test_amb_5_player_without_cards_gives_nothing() -> None:
    state = position(["5S"], [(["6C", "?"], []), (0, []), (["JH", "?"], [])], placings=True)
    state = replace(state, placings=((1,),))
    after = RULES_.apply(state, turn("6C", OWN))
    assert after.last_muggins is not None and after.last_muggins.givers == (2,)


def test_end_1_giver_emptied_by_penalty_wins() -> None:
    """A player left with no cards at all has none in draw or discard: MUGGINS-END-1."""
    state = position(["5S"], [(["6C", "?"], []), (["JH"], []), (["3D", "?"], [])])
    after = RULES_.apply(state, turn("6C", OWN))
    assert after.over and after.winner == 1
    assert RULES_.outcome(after) is not None


# --- Stalemate ------------------------------------------------------------------------------


def test_end_2_position_repeats() -> None:
    state = position(["5S"], [(["2H"], []), (["2D"], []), (["2C"], [])])
    moves = 0
    while state.to_act is not None:
        hand = state.hands[state.to_act]
        card = hand.draw[0] if hand.draw else hand.discard[0]
        state = RULES_.apply(state, turn(str(card), OWN))
        moves += 1
    assert moves == 6 and state.stalemate is not None and state.stalemate.reason == "repeat"
    assert state.winner == [0, 1, 2]
    outcome = RULES_.outcome(state)
    assert outcome is not None and outcome.rule == "MUGGINS-END-2"
    raises(state, turn("2H", OWN), "MUGGINS-END-2")


def test_end_2_every_pile_turned_over_twice() -> None:
    state = position(["5S"], [(["2H", "?"], []), (["KH", "KD", "?"], []), (["8D"], [])])
    unseen = iter(["8H", "2D"])
    while state.to_act is not None:
        hand = state.hands[state.to_act]
        slot = hand.draw[0] if hand.draw else hand.discard[0]
        state = RULES_.apply(state, turn(str(slot) if slot else next(unseen), OWN))
    assert state.stalemate is not None and state.stalemate.reason == "turned_over_twice"
    assert state.winner == 2 and state.stalemate.cards == (2, 3, 1)
    assert min(h.turnovers for h in state.hands) == 2 and state.hands[1].turnovers == 2


def test_end_2_progress_resets_the_count() -> None:
    state = position(["9S"], [(["2H", "?"], []), ([], ["8C", "2C"]), (["3D"], [])], to_act=1)
    state = replace(state, hands=tuple(replace(h, turnovers=1) for h in state.hands))
    idle = RULES_.apply(replace(state, muggins=((parse_card("KS"),),)), turn("8C", OWN))
    assert [h.turnovers for h in idle.hands] == [1, 2, 1] and not idle.over
    moved = RULES_.apply(state, turn("8C", mug(0)))          # progress: the count starts again
    assert [h.turnovers for h in moved.hands] == [0, 0, 0]


def test_end_2_stop_by_agreement_shares_ties() -> None:
    state = started()
    for card, to in [("4H", mug(0)), ("7H", OWN), ("3H", mug(0)), ("JD", OWN)]:
        state = RULES_.apply(state, turn(card, to))
    state = RULES_.apply(state, {"type": "stop"})
    assert state.over and state.winner == [0, 1] and state.stalemate is not None
    assert state.stalemate.reason == "agreed" and RULES_.to_json(state)["scores"] == [1, 1, 0]
    raises(state, {"type": "stop"}, "MUGGINS-END-2")


# --- Hints, JSON, describe, tally ------------------------------------------------------------


def test_hints() -> None:
    state = started()
    hints = RULES_.hints(state)
    assert {"type": "turn", "player": 0, "card": "4H", "to": mug(0)} in hints
    assert all(h["card"] not in {"5H", "9C", "KD", "2S"} for h in hints)
    for hint in hints[:20]:
        assert RULES_.apply(state, hint).last_muggins is None
    known = ex3_table(["5S", "10S", "JS", "2S"])
    assert RULES_.hints(known) == [{"type": "turn", "player": 1, "card": "4C", "to": mug(0)}]
    assert RULES_.hints(RULES_.new(NAMES[:3], {})) == []


def test_correct_places_function() -> None:
    state = tv_table("8C", ["7S", "9S"], "7D")
    places = correct_places(state.muggins, state.hands, 0, Card("8", "C"), state.options)
    assert [p.to_json() for p in places] == [mug(0), mug(1)]


def test_describe() -> None:
    """The history lines: cards with suit symbols, names, places in words."""
    players = NAMES[:3]
    assert RULES_.describe(turn("6H", mug(0), player=1), players) == "B turned 6♥ and put it on muggins pile 1"
    assert RULES_.describe(turn("6H", disc(2), player=1), players) == "B turned 6♥ and put it on C's discard pile"
    assert RULES_.describe(turn("JD", OWN, player=2), players).endswith("put it on their own discard pile")
    assert RULES_.describe(turn("JD", disc(2), player=2), players).endswith("their own discard pile")
    assert RULES_.describe(turn("6H", disc(1)), players) == "Next player turned 6♥ and put it on B's discard pile"
    assert RULES_.describe(turn("8C", disc(0), player=2, moved_to=mug(1)), players) == (
        "C turned 8♣ and put it on A's discard pile (Muggins! moved to muggins pile 2)")
    assert RULES_.describe(turn("ZZ", {"pile": "table"}, player=9), players) == "? turned ZZ and put it on ?"
    assert RULES_.describe({"type": "setup", "muggins": ["5H", "9C", "KD", "2S"], "dealer": 2}, players) == (
        "Muggins cards laid out: 5♥ 9♣ K♦ 2♠; C deals, A starts")
    assert RULES_.describe({"type": "setup", "muggins": "5H 9C"}, players) == "Muggins cards laid out: 5♥ 9♣"
    assert RULES_.describe({"type": "result", "winner": 0}, players) == "Result: A won"
    assert RULES_.describe({"type": "result", "winner": [0, 2]}, players) == "Result: A and C won"
    assert RULES_.describe({"type": "result", "placings": [[2], [0, 1]]}, players) == "Result: 1. C, 2. A and B"
    assert "fewest cards" in RULES_.describe({"type": "stop"}, players)


def test_tally_mode() -> None:
    state = RULES_.new(NAMES[:4], {}, "tally")
    data = RULES_.to_json(state)
    assert data["phase"] == "play" and data["to_act"] is None and not data["over"]
    with pytest.raises(MalformedEvent):
        RULES_.apply(state, turn("4H", OWN))
    with pytest.raises(MalformedEvent):
        RULES_.apply(state, {"type": "result"})
    done = RULES_.apply(state, {"type": "result", "winner": 2})
    assert RULES_.to_json(done)["scores"] == [0, 0, 1, 0] and done.over and done.winner == 2
    raises(done, {"type": "result", "winner": 1}, "MUGGINS-END-1")
    shared = RULES_.apply(state, {"type": "result", "winner": [1, 3]})
    assert shared.winner == [1, 3] and shared.scored[0].rule == "MUGGINS-END-2"
    ranked = RULES_.apply(state, {"type": "result", "placings": [[2], [0, 1], 3]})
    assert ranked.placings == ((2,), (0, 1), (3,))
    raises(state, {"type": "result", "winner": 7}, "MUGGINS-COMP-2")
    raises(state, {"type": "result", "placings": [[1], [1]]}, "MUGGINS-END-1")


def test_state_json_fields() -> None:
    data = RULES_.to_json(started())
    for key in ("scores", "over", "winner", "to_act", "muggins", "players", "placements", "last_muggins",
                "placings", "stalemate", "next_card", "places_by_rank", "left_pile", "turns_over_first"):
        assert key in data
    assert data["players"][0] == {"seat": 0, "name": "A", "draw": 16, "discard": 0, "discard_top": None,
                                  "discard_cards": [], "cards": 16, "draw_top": None, "finished": False,
                                  "place": None, "turnovers": 0}


@pytest.mark.parametrize("key", ["one_card", "neighbour_only", "any_opponent", "play_stands", "coach",
                                 "placings"])
def test_every_option_is_declared_with_its_rule(key: str) -> None:
    rule = "MUGGINS-OPT-" + key.upper().replace("_", "-")
    assert {spec.key: spec.rule for spec in RULES_.option_specs}[key] == rule
    with pytest.raises(SetupError) as info:
        RULES_.new(NAMES[:3], {key: 1})
    assert info.value.rule == rule
    assert RULES_.to_json(RULES_.new(NAMES[:3], {key: True}))["options"][key] is True


def test_opt_placings_last_place_fact() -> None:
    state = position(["5S"], [(["4C"], []), (["KH", "?"], []), (0, [])], placings=True)
    state = replace(state, placings=((2,),))
    state = RULES_.apply(state, turn("4C", mug(0)))
    assert state.over and state.placings == ((2,), (0,), (1,))
    assert [(s.side, s.rule) for s in state.scored] == [(0, "MUGGINS-END-1"), (1, "MUGGINS-OPT-PLACINGS")]
    assert RULES_.to_json(state)["players"][1]["place"] == 3
