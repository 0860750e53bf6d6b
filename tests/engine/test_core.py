"""The core every game shares: field readers, evolve, the proposal type, dispatch, the registry."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import pytest

from scorekeeper.cards import Card
from scorekeeper.engine import RULES
from scorekeeper.engine.core import (
    Alias,
    Dispatch,
    MalformedEvent,
    Proposal,
    Registry,
    bool_field,
    card_field,
    cards_field,
    evolve,
    player_field,
    quick_init,
    seat_list_field,
    suit_field,
)


@dataclass(frozen=True, slots=True)
class _Point:
    x: int
    y: int


def test_evolve_copies_and_refuses_unknown_fields() -> None:
    p = _Point(1, 2)
    q = evolve(p, y=5)
    assert (p, q) == (_Point(1, 2), _Point(1, 5))
    with pytest.raises(TypeError, match="no field 'z'"):
        evolve(p, z=1)


@dataclass(frozen=True)
class _Plain:
    a: int
    b: tuple[int, ...]
    c: str = "c"
    d: tuple[int, ...] = ()


@quick_init
@dataclass(frozen=True)
class _Quick:
    a: int
    b: tuple[int, ...]
    c: str = "c"
    d: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class _PlainSlots:
    a: int
    b: tuple[int, ...]
    c: str = "c"
    d: tuple[int, ...] = ()


@quick_init
@dataclass(frozen=True, slots=True)
class _QuickSlots:
    a: int
    b: tuple[int, ...]
    c: str = "c"
    d: tuple[int, ...] = ()


def _fields(obj: object) -> dict[str, Any]:
    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}  # type: ignore[arg-type]


@pytest.mark.parametrize(("quick", "plain"), [(_Quick, _Plain), (_QuickSlots, _PlainSlots)])
def test_quick_init_makes_what_the_dataclass_makes(quick: type[Any], plain: type[Any]) -> None:
    """Same arguments, defaults and fields as the dataclass's own ``__init__`` (a dict of exactly
    the fields, or the slots); still frozen, and a missing or unknown field is a TypeError."""
    cases: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
        ((1, (2,)), {}), ((1, (2,), "x"), {"d": (4,)}), ((), {"b": (), "a": 0, "c": ""})]
    for args, kwargs in cases:
        made, reference = quick(*args, **kwargs), plain(*args, **kwargs)
        assert _fields(made) == _fields(reference)
        assert repr(made).removeprefix(quick.__name__) == repr(reference).removeprefix(plain.__name__)
        assert made == quick(*args, **kwargs) and hash(made) == hash(quick(*args, **kwargs))
        assert evolve(made, c="y") == quick(**{**_fields(made), "c": "y"})
        if "__slots__" not in quick.__dict__:
            assert list(vars(made)) == list(vars(reference))
        with pytest.raises(TypeError, match="has no field 'z'"):
            evolve(made, c="y", z=1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        quick(1, ()).a = 2
    with pytest.raises(TypeError, match="unexpected keyword argument 'e'"):
        quick(1, (), e=1)
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'b'"):
        quick(1)


def test_quick_init_refuses_what_it_would_get_wrong() -> None:
    @dataclass(frozen=True)
    class Factory:
        a: list[int] = field(default_factory=list)

    @dataclass(frozen=True)
    class Post:
        a: int

        def __post_init__(self) -> None: ...

    @dataclass(frozen=True)
    class NoInit:
        a: int = field(default=0, init=False)

    @dataclass(frozen=True, slots=True)
    class Inherits(_PlainSlots):  # the inherited fields' slots belong to the base
        e: int = 0

    class NotADataclass:
        a: int = 0

    @dataclass(frozen=True)
    class Shadows:  # a field named like the setter the generated __init__ calls
        _set: int

    for cls in (Factory, Post, NoInit, Inherits, NotADataclass, Shadows):
        with pytest.raises(TypeError):
            quick_init(cls)


def test_player_field() -> None:
    assert player_field({"player": 2}, 3) == 2
    with pytest.raises(MalformedEvent, match="there is no player 3; seats are 0 to 2"):
        player_field({"player": 3}, 3)
    with pytest.raises(MalformedEvent, match="whole number"):
        player_field({"player": True}, 3)
    with pytest.raises(MalformedEvent, match="needs 'player'"):
        player_field({}, 3)


def test_bool_field() -> None:
    assert bool_field({}, "void") is False
    assert bool_field({"void": True}, "void") is True
    with pytest.raises(MalformedEvent, match="'void' must be true or false"):
        bool_field({"void": 1}, "void")
    with pytest.raises(MalformedEvent):
        bool_field({}, "knock", None)


def test_suit_field_reads_the_first_key_given() -> None:
    assert suit_field({"trump": " h"}, "suit", "trump") == "H"
    assert suit_field({}, "suit") is None
    with pytest.raises(MalformedEvent, match="suit letter"):
        suit_field({"suit": 3}, "suit")


def test_card_readers() -> None:
    assert card_field({"card": "QH"}, "card") == Card("Q", "H")
    assert cards_field({"cards": "QH 10S"}, "cards") == [Card("Q", "H"), Card("10", "S")]
    with pytest.raises(MalformedEvent, match="a card such as 'OH'"):
        card_field({"card": 5}, "card", "german")
    with pytest.raises(MalformedEvent, match="list of cards"):
        cards_field({}, "cards")


def test_seat_list_field() -> None:
    assert seat_list_field({"folded": [2, 0]}, "folded", 3) == (0, 2)
    assert seat_list_field({}, "folded", 3) == ()
    assert seat_list_field({"home": [1, 0, 1]}, "home", 3, repeats=True) == (0, 1)
    for bad, words in (([0, 0], "twice"), ([3], "outside"), ("0", "list of seat")):
        with pytest.raises(MalformedEvent, match=words):
            seat_list_field({"folded": bad}, "folded", 3)


def test_proposal_json_shows_what_the_game_set() -> None:
    revoke = Proposal(1, 2, "revoke", "MOUSEL-POT-8", "m", trick=3, card=Card("Q", "H"),
                      evidence=Card("2", "H"), evidence_trick=5, data={"led_suit": "H"})
    assert revoke.to_json() == {"id": 1, "player": 2, "kind": "revoke", "rule": "MOUSEL-POT-8", "message": "m",
                                "status": "pending", "trick": 3, "card": "QH", "evidence": "2H",
                                "evidence_trick": 5, "led_suit": "H"}
    misar = evolve(Proposal(4, 0, "misär", "KASINO-MIS-5", "m", deal=2, evidence={"table": ["3H"]}),
                   status="dismissed")
    assert misar.to_json() == {"id": 4, "player": 0, "kind": "misär", "rule": "KASINO-MIS-5", "message": "m",
                               "status": "dismissed", "deal": 2, "evidence": {"table": ["3H"]}}
    assert not misar.pending


def _double(state: int, event: Any) -> int:
    return state * 2


def _add(state: int, event: Any) -> int:
    return state + int(event["n"])


def test_dispatch_routes_by_mode_and_rewrites_aliases() -> None:
    table = Dispatch[int]("Test", {"double": _double, "confirm": _add}, {"add": _add},
                          aliases={"confirm_old": Alias("confirm", {"id": "n"})})
    handler, event = table.route({"type": "double"}, "adjudicate")
    assert handler(3, event) == 6
    handler, event = table.route({"type": "confirm_old", "id": 4}, "adjudicate")
    assert event == {"type": "confirm", "n": 4} and handler(1, event) == 5
    with pytest.raises(MalformedEvent, match="Test in tally mode has no 'double' event \\(events: add\\)"):
        table.route({"type": "double"}, "tally")
    with pytest.raises(MalformedEvent, match="needs a 'type'"):
        table.route({}, "tally")
    with pytest.raises(MalformedEvent, match="an event must be an object"):
        table.route([], "tally")


def test_registry_is_a_read_only_mapping_in_form_order() -> None:
    assert list(RULES) == ["scorepad", "kasino", "muggins", "mulatschak", "mousel", "mulle"]
    assert RULES["mulle"].name
    with pytest.raises(KeyError):
        RULES["chess"]
    with pytest.raises(ValueError, match="two games"):
        Registry(RULES["mulle"], RULES["mulle"])


def test_replay_folds_apply_with_the_collector_held_and_given_back() -> None:
    import gc

    from scorekeeper.engine import RULES
    from scorekeeper.engine.core import RuleViolation, replay

    rules = RULES["scorepad"]
    events = [{"type": "points", "side": i % 2, "points": i} for i in range(1, 8)]
    seen: list[bool] = []

    class Watching:
        def apply(self, state: object, event: object) -> object:
            seen.append(gc.isenabled())
            return rules.apply(state, event)  # type: ignore[arg-type]

    expected = rules.new(["A", "B"], {})
    for event in events:
        expected = rules.apply(expected, event)
    assert gc.isenabled()
    assert replay(Watching(), rules.new(["A", "B"], {}), events) == expected  # type: ignore[arg-type]
    assert seen == [False] * len(events) and gc.isenabled()
    with pytest.raises((RuleViolation, MalformedEvent)):
        replay(rules, rules.new(["A", "B"], {}), [*events, {"type": "points", "side": 5, "points": 1}])
    assert gc.isenabled()


def test_every_game_refuses_an_option_it_has_not_with_the_platforms_rule() -> None:
    """The rule books name no rule for set-up input: an option a game does not have, or a value an
    option with no rule of its own does not take, is TABLE-OPTION-1 (docs/api.md), in every game."""
    from scorekeeper.engine import RULES
    from scorekeeper.engine.base import SetupError
    from scorekeeper.engine.core.protocol import OPTION_RULE

    assert OPTION_RULE == "TABLE-OPTION-1"
    for game, rules in RULES.items():
        players = ["Anna", "Bo", "Cai", "Di"][:max(rules.min_players, 3)]
        with pytest.raises(SetupError) as refused:
            rules.new(players, {"no_such_option": True})
        assert refused.value.rule == OPTION_RULE, game
    kasino = RULES["kasino"]
    with pytest.raises(SetupError) as refused:
        kasino.new(["Anna", "Bo"], {"variant": "nope"})
    assert refused.value.rule == OPTION_RULE
