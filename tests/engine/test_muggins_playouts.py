"""Muggins: random legal playouts against an independent model of the physical table.

The model holds the real (shuffled) cards, feeds the engine what a table would enter, decides the
correct places with its own reading of MUGGINS-PLAY-2 and checks after every event that the
engine's piles match the table, that all 52 cards are accounted for, that "Muggins!" is called
exactly when the card was put somewhere MUGGINS-PLAY-2 does not allow (a better place, or a place
where it does not fit at all), and that the game ends with a winner or a stalemate.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine.base import RuleViolation
from scorekeeper.engine.muggins import Muggins, MugginsState

RULES = Muggins()
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
PACK = [r + s for s in "SHDC" for r in RANKS]
PILES = {3: 4, 4: 4, 5: 2, 6: 4, 7: 3}
MAX_EVENTS = 1500

Place = tuple[str, int]  # ("muggins", i) / ("discard", seat) / ("own", seat)


def value(card: str) -> int:
    return RANKS.index(card[:-1]) + 1


def fit(card: str, top: str) -> bool:
    return abs(value(card) - value(top)) == 1


def as_event(place: Place) -> dict[str, Any]:
    kind, index = place
    if kind == "muggins":
        return {"pile": "muggins", "index": index}
    if kind == "discard":
        return {"pile": "discard", "player": index}
    return {"pile": "own"}


class Table:
    """The physical cards: draw piles top first, discard and muggins piles bottom first."""

    def __init__(self, players: int, deck: list[str], options: dict[str, bool]) -> None:
        piles = PILES[players]
        each = (52 - piles) // players
        self.n = players
        self.options = options
        self.muggins = [[deck[i]] for i in range(piles)]
        self.draw = [deck[piles + p * each: piles + (p + 1) * each] for p in range(players)]
        self.discard: list[list[str]] = [[] for _ in range(players)]

    def cards(self, p: int) -> int:
        return len(self.draw[p]) + len(self.discard[p])

    def take(self, p: int) -> str:
        if not self.draw[p]:
            self.draw[p], self.discard[p] = self.discard[p], []
        return self.draw[p].pop(0)

    def left_target(self, p: int, card: str) -> int | None:
        others = [(p + k) % self.n for k in range(1, self.n)]
        if self.options.get("neighbour_only"):
            nxt = next((q for q in others if self.cards(q) > 0), None)
            return nxt if nxt is not None and self.discard[nxt] else None
        if self.options.get("any_opponent"):
            return next((q for q in others if self.discard[q] and fit(card, self.discard[q][-1])), None)
        return next((q for q in others if self.discard[q]), None)

    def correct(self, p: int, card: str) -> list[Place]:
        centre: list[Place] = [("muggins", i) for i, pile in enumerate(self.muggins) if fit(card, pile[-1])]
        if centre:
            return centre
        q = self.left_target(p, card)
        if q is not None and fit(card, self.discard[q][-1]):
            return [("discard", q)]
        return [("own", p)]

    def fitting(self, p: int, card: str) -> list[Place]:
        places: list[Place] = [("muggins", i) for i, pile in enumerate(self.muggins) if fit(card, pile[-1])]
        places += [("discard", q) for q in range(self.n) if q != p and self.discard[q]
                   and fit(card, self.discard[q][-1])]
        return places + [("own", p)]

    def anywhere(self, p: int) -> list[Place]:
        """Every place a card can be put down, fitting or not (other players' empty spots too)."""
        places: list[Place] = [("muggins", i) for i in range(len(self.muggins))]
        places += [("discard", q) for q in range(self.n) if q != p]
        return places + [("own", p)]

    def fits_at(self, card: str, place: Place) -> bool:
        kind, index = place
        if kind == "own":
            return True  # step 3 takes any card
        pile = self.muggins[index] if kind == "muggins" else self.discard[index]
        return bool(pile) and fit(card, pile[-1])

    def put(self, card: str, place: Place) -> None:
        kind, index = place
        (self.muggins[index] if kind == "muggins" else self.discard[index]).append(card)

    def penalty(self, offender: int) -> None:
        for k in range(1, self.n):
            giver = (offender + k) % self.n
            if self.cards(giver) > 0:
                self.draw[offender].append(self.take(giver))

    def total(self) -> int:
        return sum(map(len, self.muggins)) + sum(self.cards(p) for p in range(self.n))


def check_matches(state: MugginsState, data: dict[str, Any], table: Table) -> None:
    assert data["cards_total"] == 52 == table.total()
    assert [m["cards"] for m in data["muggins"]] == table.muggins
    for p, seat in enumerate(data["players"]):
        assert seat["discard_cards"] == table.discard[p]
        assert seat["draw"] == len(table.draw[p])
        for slot, real in zip(state.hands[p].draw, table.draw[p], strict=True):
            assert slot is None or str(slot) == real  # what the engine knows is true
    seen = [c for m in data["muggins"] for c in m["cards"]] + [c for s in data["players"] for c in s["discard_cards"]]
    assert len(seen) == len(set(seen))


def playout(players: int, deck: list[str], options: dict[str, bool], rnd: random.Random,
            wrong_rate: float) -> MugginsState:
    table = Table(players, deck, options)
    state = RULES.new([f"P{i}" for i in range(players)], options)
    state = RULES.apply(state, {"type": "setup", "muggins": [pile[0] for pile in table.muggins],
                                "dealer": players - 1})
    check_matches(state, RULES.to_json(state), table)
    events = 0
    data = RULES.to_json(state)
    while not state.over:
        if events >= MAX_EVENTS:
            state = RULES.apply(state, {"type": "stop"})
            break
        p = state.to_act
        assert p is not None and table.cards(p) > 0
        card = table.take(p)
        correct = table.correct(p, card)
        assert [as_event(c) for c in correct] == data["places_by_rank"][card[:-1]]
        to = rnd.choice(correct)
        if rnd.random() < wrong_rate:  # a slip: half of them where the card fits, half anywhere at all
            to = rnd.choice(table.fitting(p, card) if rnd.random() < 0.5 else table.anywhere(p))
        breach = to not in correct
        fitted = table.fits_at(card, to)
        assert fitted or breach  # a correct place always fits
        event: dict[str, Any] = {"type": "turn", "player": p, "card": card, "to": as_event(to)}
        if breach and options.get("coach"):
            with pytest.raises(RuleViolation) as info:
                RULES.apply(state, event)
            assert info.value.rule == ("MUGGINS-PLAY-2" if fitted else "MUGGINS-FIT-1")
            to, breach, fitted = rnd.choice(correct), False, True
            event["to"] = as_event(to)
        final = to
        moved = breach and not (options.get("play_stands") and fitted)
        if moved:
            final = rnd.choice(correct)
            event["moved_to"] = as_event(final)
        before = state
        state = RULES.apply(state, event)
        events += 1
        table.put(card, final)
        if breach:
            table.penalty(p)
        data = RULES.to_json(state)
        called = state.last_muggins is not None and state.last_muggins.n == len(state.history)
        assert called == breach == data["muggins_called"]
        if called:
            assert data["last_muggins"]["fits"] is fitted
        check_matches(state, data, table)
        check_turn(before, state, table, p, final, moved)
    return finish_checks(state, table)


def check_turn(before: MugginsState, state: MugginsState, table: Table, p: int, final: Place,
               moved: bool) -> None:
    if state.over:
        return
    passes = final[0] == "own" or before.options.one_card or moved or table.cards(p) == 0
    if not passes:
        assert state.to_act == p
        return
    out = {q for g in state.placings for q in g}
    expected = next((p + k) % table.n for k in range(1, table.n + 1)
                    if (p + k) % table.n not in out and table.cards((p + k) % table.n) > 0)
    assert state.to_act == expected


def finish_checks(state: MugginsState, table: Table) -> MugginsState:
    outcome = RULES.outcome(state)
    assert outcome is not None and state.over
    winners = state.placings[0]
    if state.stalemate is None:
        assert outcome.rule == "MUGGINS-END-1"
        assert all(table.cards(q) == 0 for q in winners)
        if not state.options.placings:  # the winners are exactly the players left with no cards
            assert set(winners) == {q for q in range(table.n) if table.cards(q) == 0}
        if not state.options.placings and not state.history[-1].muggins:
            assert winners == (state.history[-1].player,)  # the mover placed the last card
    else:
        assert outcome.rule == "MUGGINS-END-2"
        counts = state.stalemate.cards
        left = [q for q in range(table.n) if q not in {x for g in state.placings[:-1] for x in g}
                or q in winners]
        if not state.options.placings:
            fewest = min(counts[q] for q in left)
            assert set(winners) == {q for q in left if counts[q] == fewest}
    if state.options.placings:
        assert sorted(q for g in state.placings for q in g) == list(range(table.n))
    json_winner = RULES.to_json(state)["winner"]
    assert json_winner == (winners[0] if len(winners) == 1 else list(winners))
    return state


options_strategy = st.fixed_dictionaries({
    "one_card": st.booleans(),
    "step2": st.sampled_from(["default", "neighbour_only", "any_opponent"]),
    "play_stands": st.booleans(),
    "coach": st.booleans(),
    "placings": st.booleans(),
})


def to_options(raw: dict[str, Any]) -> dict[str, bool]:
    options = {k: v for k, v in raw.items() if k != "step2"}
    if raw["step2"] != "default":
        options[raw["step2"]] = True
    return options


@settings(max_examples=40)
@given(players=st.integers(3, 7), deck=st.permutations(PACK), seed=st.integers(0, 2**32 - 1),
       raw=options_strategy, wrong_rate=st.sampled_from([0.0, 0.1, 0.3]))
def test_random_playouts(players: int, deck: list[str], seed: int, raw: dict[str, Any], wrong_rate: float) -> None:
    playout(players, deck, to_options(raw), random.Random(seed), wrong_rate)


@settings(max_examples=15)
@given(players=st.integers(3, 7), deck=st.permutations(PACK), seed=st.integers(0, 2**32 - 1))
def test_random_playouts_default_rules_without_mistakes(players: int, deck: list[str], seed: int) -> None:
    state = playout(players, deck, {}, random.Random(seed), 0.0)
    assert state.last_muggins is None
    assert state.stalemate is not None or isinstance(state.winner, int)
