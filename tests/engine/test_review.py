"""The post-deal review (engine/analysis/review.py): scripted deals list exactly the planted missed chances,
and on random deals every "better" move is one the engine accepts."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine import RULES
from scorekeeper.engine.analysis.review import Review, ReviewLine, review, review_deals
from scorekeeper.engine.mulatschak import START
from tests.engine import test_mousel as TS
from tests.engine import test_mulatschak as TM
from tests.engine.test_kasino_playouts import Sim as KasinoTable
from tests.engine.test_mousel_playouts import simulate_session
from tests.engine.test_mulatschak_playouts import Table as MulatschakTable
from tests.engine.test_mulle_playout import random_game as mulle_random_game

Event = dict[str, Any]


def deal(table: str, dealer: int = 1) -> Event:
    return {"type": "deal", "dealer": dealer, "table": table.split()}


def play(player: int, card: str, capture: str = "") -> Event:
    return {"type": "play", "player": player, "card": card, "capture": capture.split()}


def reviewed(game: str, players: int, events: list[Event], options: dict[str, Any] | None = None,
             deal_no: int | None = None) -> Review:
    names = [f"P{i}" for i in range(players)]
    return review(game, names, options or {}, "adjudicate", list(enumerate(events, start=1)), deal_no)


def summary(lines: tuple[ReviewLine, ...]) -> list[tuple[int, int, str, str, int, str]]:
    return [(line.seq, line.player, line.card, line.what, line.gain, line.rule) for line in lines]


# --- Mulle --------------------------------------------------------------------------------------

# Two players, P1 deals, P0 leads. Planted: #2 a missed mulle (the issue's example), #4 a capture
# that left the table for P1's 5H to sweep (trailing the K would not have), #12 a trail while
# P0 held 7S (played at #14, the same round) that swept 7C + AH+6S, #14 a missed Ace, #15 a
# missed sweep. Every other move was the best the cards known to be held allowed.
MULLE_SCRIPT = [
    deal("10D 6C 4H 9S"),
    play(0, "10D", "10D 6C"),      # 2: took 10D+6C (+4); the twin 10D alone was a mulle (+7)
    play(1, "5C"),                 # 3
    play(0, "KD", "4H 9S"),        # 4: left 5C, and P1's 5H sweeps it
    play(1, "5H", "5C"),           # 5: sweep
    play(0, "2S"),                 # 6
    play(1, "AD"),                 # 7
    play(0, "3D", "2S AD"),        # 8: sweep with lillan and an Ace
    play(1, "7C"),                 # 9
    play(0, "AH"),                 # 10
    play(1, "6S"),                 # 11
    play(0, "9D"),                 # 12: trailed, while 7S (played at #14) took 7C + AH+6S: a sweep
    play(1, "2H"),                 # 13
    play(0, "7S", "7C"),           # 14: 7C alone; 7C + AH+6S was one more point (the Ace)
    play(1, "9C", "9D"),           # 15: 9D alone; 9D + AH+6S+2H swept the table
]


def test_mulle_issue_example_one_line() -> None:
    result = reviewed("mulle", 2, MULLE_SCRIPT[:2])
    [line] = result.lines
    assert line.to_json() | {"facts": {}} == {
        "seq": 2, "deal": 1, "player": 0, "card": "10D", "played": MULLE_SCRIPT[1],
        "better": {"type": "play", "player": 0, "card": "10D", "capture": ["10D"]},
        "gain": 3, "rule": "MULLE-SCORE-3", "what": "mulle", "facts": {}}
    assert result.deal == 1 and not result.over


def test_mulle_scripted_deal_lists_exactly_the_planted_chances() -> None:
    result = reviewed("mulle", 2, MULLE_SCRIPT)
    assert summary(result.lines) == [
        (2, 0, "10D", "mulle", 3, "MULLE-SCORE-3"),
        (4, 0, "KD", "left_sweep", 1, "MULLE-SCORE-2"),
        (12, 0, "9D", "sweep", 2, "MULLE-SCORE-2"),
        (14, 0, "7S", "points", 1, "MULLE-SCORE-1"),
        (15, 1, "9C", "sweep", 2, "MULLE-SCORE-2"),
    ]
    left = result.lines[1]
    assert left.better["capture"] == [] and left.facts["sweeper"] == "5H"
    held = result.lines[2]
    assert held.better["card"] == "7S" and sorted(held.better["capture"]) == ["6S", "7C", "AH"]
    assert held.facts["held"] == "7S" and held.facts["held_seq"] == 14
    assert sorted(result.lines[3].better["capture"]) == ["6S", "7C", "AH"]
    assert sorted(result.lines[4].better["capture"]) == ["2H", "6S", "9D", "AH"]


def test_mulle_a_held_twin_counts_only_if_its_mulle_was_lost() -> None:
    # P0 played 9C while holding 5C (played at #4, the same round) with the twin 5C on the table.
    lost = [deal("5C 2H 4D 9S"), play(0, "9C", "9S"), play(1, "5H", "5C"), play(0, "5C")]
    [line] = reviewed("mulle", 2, lost).lines
    assert (line.seq, line.card, line.what, line.gain, line.rule) == (2, "9C", "mulle", 3, "MULLE-SCORE-3")
    assert line.better == {"type": "play", "player": 0, "card": "5C", "capture": ["5C"]}
    assert line.facts["held_seq"] == 4
    made_later = [deal("5C 2H 4D 9S"), play(0, "9C", "9S"), play(1, "KH"), play(0, "5C", "5C")]
    assert reviewed("mulle", 2, made_later).lines == ()


def test_mulle_best_moves_give_no_line() -> None:
    best = [deal("10D 6C 4H 9S"), play(0, "10D", "10D"), play(1, "KC", "4H 9S")]
    assert reviewed("mulle", 2, best).lines == ()


def test_mulle_mulle_alone_option_is_respected() -> None:
    # Under MULLE-OPT-MULLE-ALONE the twin cannot go with other cards: the sweep 5C+5C+(2H+3D)…
    # is refused, so the review offers only what the house rule allows.
    events = [deal("5C 2H 3D 9S"), play(0, "5C", "2H 3D")]
    plain = reviewed("mulle", 2, events)
    alone = reviewed("mulle", 2, events, {"mulle_alone": True})
    assert summary(plain.lines) == [(2, 0, "5C", "mulle", 3, "MULLE-SCORE-3")]
    assert plain.lines[0].better["capture"] == ["5C"]
    assert summary(alone.lines) == [(2, 0, "5C", "mulle", 3, "MULLE-SCORE-3")]
    assert alone.lines[0].better["capture"] == ["5C"]


# --- Kasino -------------------------------------------------------------------------------------


def test_kasino_scripted_deal_lists_the_missed_sweep_and_point_card() -> None:
    events = [{"type": "deal", "dealer": 1, "table": ["AH", "5C", "6C", "9S"]},
              play(0, "6D", "6C"),       # 2: 6C alone; 6C and 5C+AH (= 6) took the Ace too (+1)
              play(1, "KS"),             # 3: nothing to take
              play(0, "9C", "9S")]       # 4: all a 9 could take
    result = reviewed("kasino", 2, events)
    assert summary(result.lines) == [(2, 0, "6D", "points", 1, "KASINO-SCORE-1")]
    assert sorted(result.lines[0].better["capture"]) == ["5C", "6C", "AH"]
    sweep = [{"type": "deal", "dealer": 1, "table": ["4H", "5C", "QD", "3S"]},
             play(0, "9D", "4H 5C")]     # 9D could not take QD+3S… but 4H+5C is all of 9's
    assert reviewed("kasino", 2, sweep).lines == ()
    missed = [{"type": "deal", "dealer": 1, "table": ["4H", "5C", "6D", "3S"]},
              play(0, "9D", "4H 5C")]    # 6D+3S = 9 too: the whole table was a tabbe
    assert summary(reviewed("kasino", 2, missed).lines) == [(2, 0, "9D", "sweep", 1, "KASINO-SCORE-1")]


def test_kasino_left_sweep_only_when_the_alternative_is_allowed() -> None:
    # P0's 8C took 5C+3D and left 4S+9D for P1's KH to sweep. Trailing the 8C would have left no
    # sweep — unless the house rule obliges a card that can capture to capture.
    events = [{"type": "deal", "dealer": 1, "table": ["5C", "3D", "4S", "9D"]}, play(0, "8C", "5C 3D"),
              play(1, "KH", "4S 9D")]
    [line] = reviewed("kasino", 2, events).lines
    assert (line.seq, line.what, line.gain, line.rule) == (2, "left_sweep", 1, "KASINO-SCORE-1")
    assert line.better["capture"] == [] and line.facts["sweeper"] == "KH"
    assert reviewed("kasino", 2, events, {"must_capture": True}).lines == ()


def test_kasino_misar_prefers_fewer_points_among_allowed_captures() -> None:
    # Misär: 3S must take a maximal set; {AD, 2S} and {AD, 2H} both are; lillan costs a point.
    events = [{"type": "deal", "dealer": 1, "table": ["2S", "QD", "AD", "2H"]}, play(0, "3S", "AD 2S")]
    result = reviewed("kasino", 2, events, {"variant": "misar"})
    assert summary(result.lines) == [(2, 0, "3S", "fewer_points", 1, "KASINO-MIS-2")]
    assert sorted(result.lines[0].better["capture"]) == ["2H", "AD"]
    chose_well = [events[0], play(0, "3S", "AD 2H")]
    assert reviewed("kasino", 2, chose_well, {"variant": "misar"}).lines == ()


# --- Muggins ------------------------------------------------------------------------------------


def test_muggins_review_lists_each_breach_with_its_place_and_cost() -> None:
    rules = RULES["muggins"]
    state = rules.new(["A", "B", "C"], {})
    events: list[Event] = [{"type": "setup", "muggins": ["5H", "9C", "KD", "2S"]}]
    state = rules.apply(state, events[0])
    mover = state.to_act
    events.append({"type": "turn", "player": mover, "card": "7D", "to": {"pile": "own"}})   # fits nothing: fine
    nxt = (mover + 1) % 3
    events.append({"type": "turn", "player": nxt, "card": "6C", "to": {"pile": "own"}})     # 6 fits 5H: muggins
    result = reviewed("muggins", 3, events)
    [line] = result.lines
    assert (line.seq, line.player, line.card, line.what, line.rule, line.gain) == (3, nxt, "6C", "muggins",
                                                                                   "MUGGINS-PEN-1", 2)
    assert line.better["to"] == {"pile": "muggins", "index": 0}


# --- Mulatschak and Mousel: revokes ---------------------------------------------------------------


def recorded(module: Any, build: Callable[[], Any]) -> list[Event]:
    """The events a test module's scripted table applies, in order."""
    events: list[Event] = []
    original = module.R.apply

    def keep(state: Any, event: Event) -> Any:
        out = original(state, event)
        events.append(dict(event))
        return out

    module.R.apply = keep
    try:
        build()
    finally:
        module.R.apply = original
    return events


@pytest.mark.parametrize(("verdict", "status"), [("confirm", "confirmed"), ("dismiss", "dismissed")])
def test_mulatschak_review_lists_the_proven_revoke_and_its_cost(verdict: str, status: str) -> None:
    events = recorded(TM, lambda: TM.run(TM.to_play(), *TM.tricks(*TM.REVOKE_DEAL),
                                         {"type": verdict, "proposal": 1}))
    result = reviewed("mulatschak", 4, events)
    [line] = result.lines
    assert (line.player, line.card, line.rule, line.what) == (2, "AE", "MULAT-PLAY-3", "revoke")
    assert line.better == {"type": "play", "player": 2, "card": "KS"}
    # Scored as a failed opponent (+5) instead of −5 for five tricks: the revoke costs 10.
    assert line.gain == 10 and line.facts["status"] == status and line.facts["trick"] == 1
    assert line.facts["won_by"] == 2 and line.facts["would_win"] == 2
    assert events[line.seq - 1] == line.played and result.over


def test_mulatschak_clean_deal_has_no_lines() -> None:
    clean = [[(1, "9S"), (2, "KS"), (3, "7S"), (0, "8S")]]
    events = recorded(TM, lambda: TM.run(TM.to_play(), *TM.tricks(*clean)))
    assert reviewed("mulatschak", 4, events).lines == ()


def test_mousel_review_lists_the_proven_revoke_and_its_tokens() -> None:
    events = recorded(TS, lambda: TS.run(TS._finish_revoke_deal(TS._revoke_table()),
                                         {"type": "confirm_revoke", "id": 1}))
    result = reviewed("mousel", 4, events)
    [line] = result.lines
    assert (line.player, line.card, line.rule, line.gain) == (TS.A, "8D", "MOUSEL-PLAY-2", 5)
    assert line.better == {"type": "play", "player": TS.A, "card": "10S"}
    assert line.facts["unit"] == "tokens" and line.facts["status"] == "confirmed"


def test_mousel_clean_deal_has_no_lines() -> None:
    events = recorded(TS, lambda: TS.run(TS.new(), *TS.EX1, *TS.EX2_REST))
    assert reviewed("mousel", 4, events).lines == ()


def test_review_of_a_game_without_deals_and_tally_mode() -> None:
    assert reviewed("mulle", 2, []).deal is None
    assert review("mulle", ["a", "b"], {}, "tally", [], None).lines == ()
    assert review("scorepad", ["a", "b"], {}, "adjudicate", [], None).lines == ()


# --- random deals: the review never suggests a move the engine refuses ---------------------------


def _check_accepted(game: str, players: int, options: dict[str, Any], events: list[Event]) -> int:
    rules = RULES[game]
    states = [rules.new([f"P{i}" for i in range(players)], options, "adjudicate")]
    for event in events:
        states.append(rules.apply(states[-1], event))
    names = [f"P{i}" for i in range(players)]
    pairs = list(enumerate(events, start=1))
    found = 0
    every = review_deals(game, names, options, "adjudicate", pairs)
    for one in every:
        assert one.deal is None or one == review(game, names, options, "adjudicate", pairs, one.deal)
        for line in one.lines:
            rules.apply(states[line.seq - 1], line.better)  # raises if the engine refuses it
            # a revoke is listed even when it cost nothing (a 0-trick player pays the same)
            assert (line.gain >= 0 if line.what == "revoke" else line.gain > 0)
            assert line.played == events[line.seq - 1]
            found += 1
    return found


@settings(max_examples=12)
@given(seed=st.integers(0, 10_000), n=st.sampled_from([2, 3, 4]),
       options=st.sampled_from([{}, {"strict_value": True}, {"mulle_alone": True}, {"no_last_sweep": True}]))
def test_random_mulle_deals_better_moves_are_legal(seed: int, n: int, options: dict[str, Any]) -> None:
    game = mulle_random_game(n, options, seed, max_deals=1)
    _check_accepted("mulle", n, options, game.events)


@settings(max_examples=8)
@given(seed=st.integers(0, 10_000), n=st.sampled_from([2, 3, 4]),
       options=st.sampled_from([{}, {"variant": "misar"}, {"variant": "drag"}, {"no_last_tabbe": True}]))
def test_random_kasino_games_better_moves_are_legal(seed: int, n: int, options: dict[str, Any]) -> None:
    table = KasinoTable(n, dict(options), random.Random(seed))
    table.play_game()
    _check_accepted("kasino", n, options, table.events)


@settings(max_examples=6)
@given(seed=st.integers(0, 10_000), n=st.sampled_from([3, 4, 5]))
def test_random_mousel_sessions_revokes_and_better_cards_are_legal(seed: int, n: int) -> None:
    _, events = simulate_session(n, 4, seed=seed, revoke_rate=0.3)
    _check_accepted("mousel", n, {}, events)


class RecordingTable(MulatschakTable):
    """The playout table of the Mulatschak tests, from ``new`` (21 each, player 0 deals), recorded."""

    def __init__(self, rnd: random.Random, n: int) -> None:
        super().__init__(rnd, n, {}, [START] * n, dealer=0)
        self.events: list[Event] = []

    def send(self, event: Event) -> None:
        super().send(event)
        self.events.append(dict(event))


@settings(max_examples=6)
@given(seed=st.integers(0, 10_000), n=st.sampled_from([3, 4]))
def test_random_mulatschak_deals_revokes_and_better_cards_are_legal(seed: int, n: int) -> None:
    table = RecordingTable(random.Random(seed), n)
    for _ in range(3):
        if table.js()["over"]:
            break
        table.play_deal()
    _check_accepted("mulatschak", n, {}, table.events)
