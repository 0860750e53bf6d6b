"""Mulle: the issue-11 sweep for refusals citing a neighbouring rule id."""

from __future__ import annotations

from tests.engine.test_mulle import at, play, rule_of


def test_a_capture_on_the_table_a_sweep_emptied_cites_turn_6() -> None:
    """MULLE-TURN-6: after a sweep the next player can only trail (Kasino cites its TURN-5 here)."""
    state = play(at("5D 9C"), "5C", "5D")
    state = play(state, "9H", "9C")                    # a sweep: the table is empty
    assert not state.table
    event = {"type": "play", "player": state.to_act, "card": "7H", "capture": ["7S"]}
    assert rule_of(state, event) == "MULLE-TURN-6"
    assert rule_of(play(at("5D 9C"), "5C", "5D"), {**event, "player": 1}) == "MULLE-TURN-2"   # 7S not there
