"""Mulatschak verdicts an independent check of whole random games found wrong (issue 11), each from
its repro, and the same kind of mistake looked for elsewhere in the game."""

from __future__ import annotations

from scorekeeper.engine.mulatschak import Mulatschak, MulState
from tests.engine.test_mulatschak import bid, home, new, pas, rule, run, trump

R = Mulatschak()


def three_players_declarer_1(suit: str) -> MulState:
    return run(new(3), bid(1, 1), pas(2), pas(0), trump(1, suit))


def test_stay_2_cited_for_staying_home_under_herz() -> None:
    s = three_players_declarer_1("H")
    assert rule(s, home(2)) == "MULAT-STAY-2"
    assert rule(s, home(0)) == "MULAT-STAY-2"


def test_stay_2_cited_for_staying_home_in_a_muli() -> None:
    s = run(new(3), {"type": "muli", "player": 1})
    assert rule(s, home(2)) == "MULAT-STAY-2"          # before trumps are named
    s = run(s, trump(1, "E"))
    assert rule(s, home(2)) == "MULAT-STAY-2"          # during play


def test_stay_1_still_cited_out_of_phase_when_staying_home_is_allowed() -> None:
    assert rule(run(new(3), bid(1, 1)), home(2)) == "MULAT-STAY-1"
