"""Random legal Mulle games, played card by card through the engine, and the invariants they keep.

``random_game`` is also what ``bench/bench_mulle_replay.py`` replays.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.cards import Card, french_pack
from scorekeeper.engine.base import RuleViolation
from scorekeeper.engine.capture import find_grouping, legal_captures
from scorekeeper.engine.mulle import PACK_SIZE, TARGET, Mulle, MulleState

RULES = Mulle()
PACK: list[Card] = sorted(french_pack(2).elements())


def choose_capture(state: MulleState, card: Card, rng: random.Random) -> list[Card]:
    """A random legal capture (or a trail). Big tables only offer one- and two-card captures,
    which keeps the playout quick while still exercising sums and sweeps."""
    table = list(state.table)
    if not table or rng.random() < 0.2:
        return []
    options: list[tuple[Card, ...]]
    if len(table) <= 10:
        options = [taken for taken, _ in legal_captures(card, table, state.scheme)]
    else:
        candidates = {(c,) for c in table} | {tuple(sorted(p)) for p in combinations(table, 2)}
        options = [c for c in candidates if find_grouping(card, c, state.scheme) is not None]
    if state.mulle_alone:
        options = [c for c in options if card not in c or len(c) == 1]
    if not options:
        return []
    options.sort()
    return list(rng.choice(options))


def random_deal_events(state: MulleState, rng: random.Random, first: bool) -> tuple[list[dict[str, Any]], list[list[list[Card]]]]:
    """The deal event and, per round, each player's hand (a fresh shuffle of the two packs)."""
    deck = PACK[:]
    rng.shuffle(deck)
    size = state.table_size
    event: dict[str, Any] = {"type": "deal", "table": [str(c) for c in deck[:size]]}
    if first:
        event["dealer"] = rng.randrange(state.n)
    elif rng.random() < 0.5:
        event["dealer"] = state.next_dealer
    position = size
    rounds: list[list[list[Card]]] = []
    for hand_size in state.rounds:
        hands = []
        for _ in range(state.n):
            hands.append(deck[position:position + hand_size])
            position += hand_size
        rounds.append(hands)
    assert position == PACK_SIZE
    return [event], rounds


class Game:
    """A whole game: every event applied, every state kept."""

    def __init__(self, n: int, options: Mapping[str, Any], rng: random.Random, max_deals: int = 40) -> None:
        self.events: list[dict[str, Any]] = []
        self.states: list[MulleState] = [RULES.new([f"P{i}" for i in range(n)], options)]
        deals = 0
        while not self.state.over and deals < max_deals:
            deals += 1
            self.play_deal(rng, first=deals == 1)

    @property
    def state(self) -> MulleState:
        return self.states[-1]

    def apply(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        self.states.append(RULES.apply(self.state, event))

    def play_deal(self, rng: random.Random, first: bool) -> None:
        deal, rounds = random_deal_events(self.state, rng, first)
        self.apply(deal[0])
        for hands in rounds:
            for _ in range(sum(len(h) for h in hands)):
                if self.state.over:
                    return
                player = self.state.to_act
                assert player is not None
                hand = hands[player]
                card = hand.pop(rng.randrange(len(hand)))
                taken = choose_capture(self.state, card, rng)
                self.apply({"type": "play", "player": player, "card": str(card),
                            "capture": [str(c) for c in taken]})


def random_game(n: int, options: Mapping[str, Any], seed: int, max_deals: int = 40) -> Game:
    return Game(n, options, random.Random(seed), max_deals)


SETUPS = [
    (2, {}), (3, {}), (4, {}), (4, {"teams": [[0, 2], [1, 3]]}),
    (2, {"strict_value": True}), (3, {"no_last_sweep": True}), (4, {"mulle_alone": True}),
    (4, {"teams": [[0, 2], [1, 3]], "strict_value": True, "no_last_sweep": True, "mulle_alone": True}),
]


def check_invariants(game: Game) -> None:
    sides = game.state.sides.count
    running = [0] * sides
    reached = False
    for before, after, event in zip(game.states[:-1], game.states[1:], game.events, strict=True):
        assert not before.over, "an event was accepted after the game ended"
        for fact in after.scored:
            running[fact.side] += fact.points
            assert fact.points > 0 and fact.rule is not None
        assert list(after.scores) == running, "scored facts must add up to the scores"
        for side in range(sides):
            assert after.previous[side] <= after.scores[side]
        assert max(before.scores) < TARGET
        if max(after.scores) >= TARGET:
            reached = True
            assert after.over and after.scores[after.winner or 0] >= TARGET
            assert sum(1 for s in after.scores if s >= TARGET) == 1
        else:
            assert not after.over
        if event["type"] == "play" and after.phase == "deal":
            check_deal_end(after)
        if event["type"] == "play":
            seen = Counter(after.seen)
            assert all(count <= 2 for count in seen.values())
            in_piles = sum(after.piles)
            if after.phase == "play":
                assert in_piles + len(after.table) == sum(seen.values())
    assert reached == game.state.over
    if game.state.over:
        with pytest.raises(RuleViolation) as exc:
            RULES.apply(game.state, {"type": "play", "player": 0, "card": "5C"})
        assert exc.value.rule == "MULLE-END-3"


def check_deal_end(state: MulleState) -> None:
    """All 104 cards played: every card seen twice, the piles (plus unclaimed leftovers) hold 104."""
    assert sum(state.seen.values()) == PACK_SIZE
    assert all(count == 2 for count in state.seen.values())
    assert sum(state.piles) + len(state.table) == PACK_SIZE
    assert sum(state.spades) + sum(1 for c in state.table if c.suit == "S") == 26
    record = state.history[-1]
    assert record.finished and state.deal_end == record
    assert sum(record.points) == sum(state.deal_points)
    # 14 for point cards + last capture + spades + sweeps + 3 per mulle, when someone captured
    expected = 14 + 1 + (1 if record.most_spades is not None else 0) + sum(record.sweeps) + 3 * sum(record.mulles)
    if record.last_capturer is not None:
        assert sum(record.points) == expected


@pytest.mark.parametrize(("n", "options"), SETUPS)
@settings(max_examples=15)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_games_keep_the_invariants(n: int, options: dict[str, Any], seed: int) -> None:
    game = random_game(n, options, seed)
    check_invariants(game)
    assert game.state.over


@pytest.mark.parametrize(("n", "plays"), [(2, 50), (3, 33), (4, 25)])
def test_plays_per_player_per_deal(n: int, plays: int) -> None:
    """MULLE-DEAL-6/7 (and MULLE-EX-4): each player plays the same number of cards; the dealer
    makes the last play of the deal."""
    rng = random.Random(n)
    game = Game(n, {}, rng, max_deals=0)
    game.play_deal(rng, first=True)
    deal_events = [e for e in game.events if e["type"] == "play"]
    if game.state.over:
        pytest.skip("the game ended inside the deal")
    per_player = Counter(e["player"] for e in deal_events)
    assert set(per_player.values()) == {plays}
    assert deal_events[-1]["player"] == game.states[1].dealer
    assert len(deal_events) + game.states[1].table_size == PACK_SIZE
