"""Muggins verdicts an independent check of whole random games found wrong (issue 11)."""

from __future__ import annotations

from scorekeeper.engine.muggins import Muggins
from tests.engine.test_muggins import OWN, mug, position, turn

R = Muggins()


def test_end_2_repeat_of_a_position_left_mid_turn() -> None:
    """A placement on a muggins pile leaves the mover to go on: that position counts for the repeat
    test too. Here it comes round again after one placement by each player twice."""
    state = position(["5S"], [(["4H", "2H"], ["KC"]), (["2D"], ["9D"]), (["2C"], ["9C"])])
    state = R.apply(state, turn("4H", mug(0)))          # progress; player 0 goes on
    assert state.to_act == 0
    left_mid_turn = (state.muggins, state.hands)
    for card in ["2H", "2D", "2C", "KC", "9D"]:
        state = R.apply(state, turn(card, OWN))
        assert not state.over
    state = R.apply(state, turn("9C", OWN))
    assert state.stalemate is not None and state.stalemate.reason == "repeat"
    assert (state.muggins, tuple(h.draw for h in state.hands), tuple(h.discard for h in state.hands)) == \
        (left_mid_turn[0], tuple(h.draw for h in left_mid_turn[1]), tuple(h.discard for h in left_mid_turn[1]))
