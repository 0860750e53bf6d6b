"""Score pad rules, one test per rule id, and a random-entry property test."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.engine.base import MalformedEvent, RuleViolation, SetupError
from scorekeeper.engine.scorepad import ScorePad

PAD = ScorePad()


def points(side: int, n: int, note: str = "") -> dict:
    return {"type": "points", "side": side, "points": n, "note": note}


def test_setup_1_player_count() -> None:
    with pytest.raises(SetupError) as exc:
        PAD.new(["solo"], {})
    assert exc.value.rule == "SCOREPAD-SETUP-1"
    with pytest.raises(SetupError) as exc:
        PAD.new([str(i) for i in range(9)], {})
    assert exc.value.rule == "SCOREPAD-SETUP-1"


def test_setup_2_teams_partition_the_seats() -> None:
    state = PAD.new(list("ABCD"), {"teams": [[1, 3], [0, 2]]})
    assert state.scores == (0, 0) and state.sides.teams == ((0, 2), (1, 3))
    for teams in ([[0, 1], [1, 2, 3]], [[0, 1, 2, 3]], [[0, 1], [2]], [[0, "1"], [2, 3]]):
        with pytest.raises(SetupError) as exc:
            PAD.new(list("ABCD"), {"teams": teams})
        assert exc.value.rule == "SCOREPAD-SETUP-2"


def test_setup_3_start_and_target() -> None:
    with pytest.raises(SetupError) as exc:
        PAD.new(["A", "B"], {"start": 3, "target": 3})
    assert exc.value.rule == "SCOREPAD-SETUP-3"
    with pytest.raises(SetupError) as exc:
        PAD.new(["A", "B"], {"target": "x"})
    assert exc.value.rule == "SCOREPAD-SETUP-3"
    assert PAD.new(["A", "B"], {"start": 21, "target": 0}).counts_down


def test_play_1_unknown_side() -> None:
    with pytest.raises(RuleViolation) as exc:
        PAD.apply(PAD.new(["A", "B"], {}), points(2, 1))
    assert exc.value.rule == "SCOREPAD-PLAY-1"


def test_play_2_points_add_and_rounds_close_when_a_side_repeats() -> None:
    state = PAD.new(["A", "B"], {})
    for side, n in [(0, 3), (1, 4), (1, 2), (0, -1)]:
        state = PAD.apply(state, points(side, n))
    assert state.scores == (2, 6)
    assert [e.round for e in state.entries] == [1, 1, 2, 2]
    assert state.scored[0].rule == "SCOREPAD-PLAY-2" and state.scored[0].points == -1
    rows = PAD.to_json(state)["rounds"]
    assert rows[1]["points"] == [-1, 2] and rows[1]["totals"] == [2, 6]


def test_end_1_reaching_the_target_wins_both_directions() -> None:
    up = PAD.apply(PAD.new(["A", "B"], {"target": 16}), points(1, 17))
    assert up.winner == 1 and PAD.outcome(up).rule == "SCOREPAD-END-1"
    down = PAD.apply(PAD.new(["A", "B"], {"start": 21, "target": 0}), points(0, -21))
    assert down.winner == 0 and PAD.to_json(down)["over"] is True


def test_end_2_no_points_after_the_end() -> None:
    state = PAD.apply(PAD.new(["A", "B"], {"target": 1}), points(0, 1))
    with pytest.raises(RuleViolation) as exc:
        PAD.apply(state, points(1, 1))
    assert exc.value.rule == "SCOREPAD-END-2"


def test_malformed_events() -> None:
    state = PAD.new(["A", "B"], {})
    for bad in ({"type": "dance"}, {"type": "points", "side": 0}, {"type": "points", "side": 0, "points": "1"},
                {"type": "points", "side": True, "points": 1}):
        with pytest.raises(MalformedEvent):
            PAD.apply(state, bad)


def test_apply_never_mutates_its_input() -> None:
    state = PAD.new(["A", "B"], {})
    after = PAD.apply(state, points(0, 5))
    assert state.scores == (0, 0) and after.scores == (5, 0) and state.entries == ()


@given(st.lists(st.tuples(st.integers(0, 2), st.integers(-20, 20)), max_size=60), st.integers(1, 200))
def test_scores_are_the_sum_of_entries_and_the_first_to_target_wins(entries, target) -> None:
    state = PAD.new(["A", "B", "C"], {"target": target})
    expected = [0, 0, 0]
    winner = None
    for side, n in entries:
        if winner is not None:
            with pytest.raises(RuleViolation):
                PAD.apply(state, points(side, n))
            break
        state = PAD.apply(state, points(side, n))
        expected[side] += n
        if expected[side] >= target:
            winner = side
        assert list(state.scores) == expected
        assert sum(s.points for e in [state] for s in e.scored) == n
    assert state.winner == winner


def test_evolve_copies_a_frozen_state_with_changes() -> None:
    from scorekeeper.engine.base import evolve

    state = PAD.apply(PAD.new(["A", "B"], {}), points(0, 5))
    after = evolve(state, scores=(7, 1))
    assert after.scores == (7, 1) and after.entries == state.entries and state.scores == (5, 0)
    assert after == __import__("dataclasses").replace(state, scores=(7, 1))
    with pytest.raises(TypeError):
        evolve(state, nonsense=1)
    with pytest.raises(AttributeError):
        after.scores = (0, 0)  # type: ignore[misc]


@given(st.lists(st.integers(min_value=0, max_value=3), max_size=40))
def test_a_round_closes_exactly_when_a_side_repeats_in_it(sides: list[int]) -> None:
    """The round of each entry, against the paper-pad rule read over the whole pad."""
    state = PAD.new(["A", "B", "C", "D"], {"target": 10_000})
    for side in sides:
        state = PAD.apply(state, {"type": "points", "side": side, "points": 1})
    expected: list[int] = []
    for side in sides:
        current = expected[-1] if expected else 1
        in_round = [s for s, r in zip(sides, expected, strict=False) if r == current]
        expected.append(current + 1 if side in in_round else current)
    assert [e.round for e in state.entries] == expected


def test_the_rounds_and_totals_marked_plain_render_as_plain_lists_would() -> None:
    """A score pad marks its rounds and running totals ``Plain`` (no message inside), so rendering
    passes them by; the rendered JSON is the same as if every list had been walked."""
    from scorekeeper.engine.messages import Plain, render

    def unmarked(value):
        if isinstance(value, dict):
            return {k: unmarked(v) for k, v in value.items()}
        if isinstance(value, list):
            return [unmarked(v) for v in value]
        return value

    rules = PAD
    state = rules.new(["Anna", "Bo", "Cilla"], {"target": 100}, "adjudicate")
    for n in range(12):
        state = rules.apply(state, {"type": "points", "side": n % 3, "points": n, "note": f"hand {n}" if n % 2 else ""})
    data = dict(rules.to_json(state))
    assert isinstance(data["rounds"], Plain) and isinstance(data["history"], Plain)
    names = ["Anna", "Bo", "Cilla"]
    assert render(data, "sv", names, lambda t: t) == render(unmarked(data), "sv", names, lambda t: t)
