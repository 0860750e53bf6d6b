"""Tables of every game in every mode, played by the engine simulators of tests/engine, for sweeps
over pages: each scene is a game, a mode, the players, the options and the events of a session.

The simulators shuffle real packs and send only events a real table could send, so the phases a
session passes through are the ones players meet. Seeds are fixed: the same sessions every run.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

Event = dict[str, Any]
NAMES = ["Anna", "Bo", "Cilla", "Dieter", "Eva", "Fredrik"]


@dataclass(frozen=True)
class Scene:
    label: str
    game: str
    mode: str
    players: int
    options: dict[str, Any]
    events: list[Event]


def _mulle(players: int, options: dict[str, Any], seed: int, deals: int) -> list[Event]:
    from tests.engine.test_mulle_playout import random_game

    return random_game(players, options, seed, max_deals=deals).events


def _mulle_tally() -> list[Event]:
    events: list[Event] = [{"type": "deal", "dealer": 0}]
    for side, what in [(1, "mulle"), (0, "ace"), (1, "ten_of_diamonds"), (0, "tabbe"), (0, "two_of_spades")]:
        events.append({"type": "tally", "side": side, "what": what})
    return events


def _kasino(players: int, options: dict[str, Any], seed: int) -> list[Event]:
    from tests.engine.test_kasino_playouts import Sim

    sim = Sim(players, options, random.Random(seed))
    sim.play_game()
    return sim.events


def _kasino_tally(players: int, options: dict[str, Any], seed: int) -> list[Event]:
    from scorekeeper.engine.kasino import Kasino
    from tests.engine.test_kasino_playouts import _tally_piles

    rules, rng = Kasino(), random.Random(seed)
    state = rules.new([f"P{i}" for i in range(players)], options, "tally")
    events: list[Event] = []
    while not state.over and len(events) < 40:
        entries: list[Event | None] = [None] * players
        for p, pile in zip(state.active, _tally_piles(rng, len(state.active), state.cfg.sistan), strict=True):
            entries[p] = pile
        event = {"type": "deal_result", "sides": entries}
        state = rules.apply(state, event)
        events.append(event)
    return events


def _mousel(players: int, options: dict[str, Any], seed: int, mode: str) -> list[Event]:
    from tests.engine.test_mousel_playouts import simulate_session

    return simulate_session(players, 3, options, seed=seed, mode=mode, revoke_rate=0.15, take_rate=0.5)[1]


def _mulatschak(players: int, options: dict[str, Any], seed: int, deals: int) -> list[Event]:
    from scorekeeper.engine.mulatschak import Mulatschak
    from tests.engine import test_mulatschak_playouts as sim

    start = Mulatschak().new([f"P{i}" for i in range(players)], options)
    events: list[Event] = []

    class Recording(sim.Table):  # type: ignore[misc, name-defined]
        def send(self, event: Event) -> None:
            super().send(event)
            events.append(event)

    table = Recording(random.Random(seed), players, options, list(start.scores), start.dealer)
    for _ in range(deals):
        if table.js()["over"]:
            break
        table.play_deal()
    return events


def _mulatschak_tally(players: int, options: dict[str, Any], seed: int) -> list[Event]:
    from scorekeeper.engine.mulatschak import Opts
    from tests.engine.test_mulatschak_playouts import as_tally_event

    played = _mulatschak(players, options, seed, 3)
    from scorekeeper.engine.mulatschak import Mulatschak

    rules = Mulatschak()
    state = rules.new([f"P{i}" for i in range(players)], options)
    for event in played:
        state = rules.apply(state, event)
    return [as_tally_event(row, Opts(**options)) for row in rules.to_json(state)["sheet"]]


def _muggins(players: int, options: dict[str, Any], seed: int) -> list[Event]:
    from tests.engine import test_muggins_playouts as sim

    rng = random.Random(seed)
    deck = list(sim.PACK)
    rng.shuffle(deck)
    events: list[Event] = []
    real = sim.RULES

    class Recording:
        """The simulator's rules, keeping every event the table accepted, in order."""

        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

        def apply(self, state: Any, event: Event) -> Any:
            after = real.apply(state, event)
            events.append(event)
            return after

    sim.RULES = Recording()
    try:
        sim.playout(players, deck, options, rng, 0.15)
    finally:
        sim.RULES = real
    return events


def _scorepad() -> list[Event]:
    return [{"type": "points", "side": s, "points": p} for s, p in [(0, 12), (1, 7), (2, 30), (0, 25), (1, 40)]]


SCENES: list[tuple[str, str, str, int, dict[str, Any], Callable[[], list[Event]]]] = [
    ("mulle-2", "mulle", "adjudicate", 2, {}, lambda: _mulle(2, {}, 3, 40)),  # a whole game, to its end
    ("mulle-4-pairs", "mulle", "adjudicate", 4, {"teams": [[0, 2], [1, 3]]},
     lambda: _mulle(4, {"teams": [[0, 2], [1, 3]]}, 5, 40)),
    ("mulle-tally", "mulle", "tally", 2, {}, _mulle_tally),
    ("kasino-3", "kasino", "adjudicate", 3, {}, lambda: _kasino(3, {}, 7)),
    ("kasino-misar", "kasino", "adjudicate", 3, {"variant": "misar"}, lambda: _kasino(3, {"variant": "misar"}, 11)),
    ("kasino-drag", "kasino", "adjudicate", 2, {"variant": "drag"}, lambda: _kasino(2, {"variant": "drag"}, 13)),
    ("kasino-tally", "kasino", "tally", 3, {}, lambda: _kasino_tally(3, {}, 17)),
    ("mousel-3", "mousel", "adjudicate", 3, {}, lambda: _mousel(3, {}, 19, "adjudicate")),
    ("mousel-tally", "mousel", "tally", 4, {}, lambda: _mousel(4, {}, 23, "tally")),
    ("mulatschak-4", "mulatschak", "adjudicate", 4, {}, lambda: _mulatschak(4, {}, 29, 3)),
    ("mulatschak-tally", "mulatschak", "tally", 3, {}, lambda: _mulatschak_tally(3, {}, 31)),
    ("muggins-4", "muggins", "adjudicate", 4, {}, lambda: _muggins(4, {}, 37)),
    # Six players: the compact seats of five to seven (two rows), through the game to its end.
    ("muggins-6", "muggins", "adjudicate", 6, {}, lambda: _muggins(6, {}, 41)),
    ("muggins-tally", "muggins", "tally", 4, {}, lambda: [{"type": "result", "winner": 2}]),
    ("scorepad-3", "scorepad", "adjudicate", 3, {}, _scorepad),
]


def scenes() -> Iterator[Scene]:
    for label, game, mode, players, options, make in SCENES:
        yield Scene(label, game, mode, players, options, make())


def moment(state: Any, event: Event | None) -> tuple[Any, ...]:
    """What makes a page look different: the phase, the deal's phase, the event just entered,
    whether a trick or a proposal is open, whether the game is over."""
    deal = getattr(state, "deal", None)
    play = getattr(state, "play", None)
    trick = getattr(play, "current", None) if play is not None else getattr(deal, "trick", None)
    proposals = getattr(state, "proposals", None) or getattr(state, "pending", None)
    return (getattr(state, "phase", None), getattr(deal, "phase", None), (event or {}).get("type"),
            bool(trick), bool(proposals), bool(getattr(state, "over", False)))
