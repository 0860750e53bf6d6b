"""What every game declares and the platform reads: the Rules protocol, options, sides, outcome.

A game is a package with one class implementing :class:`Rules`. A table's state is
``replay(events)``: a fold of ``apply`` over its effective events. ``apply`` never mutates
the state it is given, so a refused event leaves the cached state exactly as it was.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Protocol, TypeVar

from scorekeeper.engine.core.errors import SetupError
from scorekeeper.engine.core.evolve import quick_init
from scorekeeper.engine.messages import M

__all__ = ["JSON", "MODES", "BaseRules", "Event", "GameState", "Mode", "OptionSpec", "Outcome", "Rules", "Scored",
           "Sides", "common_json"]

Mode = Literal["adjudicate", "tally"]
MODES: tuple[Mode, ...] = ("adjudicate", "tally")
Event = dict[str, Any]
JSON = dict[str, Any]

# An option a game does not have, or a value an option does not take, where the game's rules name
# no rule of their own: the rule books say nothing of set-up input, so this is the platform's id
# (docs/api.md). Every game's options are read here, so a table opened, imported, judged at the
# desk or kept on a phone is refused alike.
OPTION_RULE = "TABLE-OPTION-1"


@quick_init  # every scoring event makes some: the fields stored directly, not through __setattr__
@dataclass(frozen=True, slots=True)
class Scored:
    """One scoring fact produced by an event: "Mulle! +3" is ``Scored(side, 3, "mulle", "MULLE-SCORE-2")``."""

    side: int
    points: int
    what: str
    rule: str | None = None
    detail: str = ""

    def to_json(self) -> JSON:
        return {"side": self.side, "points": self.points, "what": self.what, "rule": self.rule,
                "detail": self.detail}


@dataclass(frozen=True, slots=True)
class Outcome:
    winner: int | list[int] | None
    reason: str
    rule: str | None = None


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One house rule. ``key`` is the option key of ``rules/*.md`` in API form (``strict_value``)."""

    key: str
    default: Any
    rule: str | None
    label: str
    kind: Literal["bool", "int", "choice"] = "bool"
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def coerce(self, value: Any) -> Any:
        rule = self.rule or OPTION_RULE
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            raise SetupError(rule, M("option %(key)s must be true or false, not %(value)s",
                                     key=repr(self.key), value=repr(value)))
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise SetupError(rule, M("option %(key)s must be a whole number, not %(value)s",
                                         key=repr(self.key), value=repr(value)))
            if self.minimum is not None and value < self.minimum:
                raise SetupError(rule, M("option %(key)s must be at least %(minimum)s", key=repr(self.key),
                                         minimum=self.minimum))
            if self.maximum is not None and value > self.maximum:
                raise SetupError(rule, M("option %(key)s must be at most %(maximum)s", key=repr(self.key),
                                         maximum=self.maximum))
            return value
        if value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise SetupError(rule, M("option %(key)s must be one of %(allowed)s, not %(value)s",
                                     key=repr(self.key), allowed=allowed, value=repr(value)))
        return value


class GameState(Protocol):
    """What the platform reads off any game's state."""

    scored: tuple[Scored, ...]  # the facts scored by the event that produced this state


S = TypeVar("S")


class Rules(Protocol[S]):
    id: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_specs: ClassVar[tuple[OptionSpec, ...]]

    def new(self, players: Sequence[str], options: Mapping[str, Any], mode: Mode = "adjudicate") -> S: ...
    def apply(self, state: S, event: Mapping[str, Any]) -> S: ...
    def outcome(self, state: S) -> Outcome | None: ...
    def hints(self, state: S) -> list[Event]: ...
    def to_json(self, state: S) -> JSON: ...
    def describe(self, event: Mapping[str, Any], players: Sequence[str]) -> str: ...


def common_json(scores: Sequence[int], over: bool, winner: int | list[int] | None,
                to_act: int | None) -> JSON:
    """The four fields every game's ``state`` carries (DESIGN §2)."""
    return {"scores": list(scores), "over": over, "winner": winner, "to_act": to_act}


@dataclass(frozen=True, slots=True)
class Sides:
    """Who scores together. Without partnerships every player is a side of their own."""

    teams: tuple[tuple[int, ...], ...]

    @property
    def count(self) -> int:
        return len(self.teams)

    def side_of(self, player: int) -> int:
        for index, team in enumerate(self.teams):
            if player in team:
                return index
        raise ValueError(f"player {player} sits on no side")


@dataclass
class BaseRules:
    """Shared set-up checks; a game subclasses it and declares its players and options."""

    id: ClassVar[str] = ""
    name: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    player_rule: ClassVar[str | None] = None  # rule id cited for an unsupported player count
    team_rule: ClassVar[str | None] = None
    extra: dict[str, Any] = field(default_factory=dict)

    def check_players(self, players: Sequence[str]) -> None:
        n = len(players)
        if not self.min_players <= n <= self.max_players:
            raise SetupError(
                self.player_rule,
                M("%(game)s is played by %(least)s to %(most)s players, not %(n)s", game=self.name,
                  least=self.min_players, most=self.max_players, n=n),
                players=n,
            )

    def parse_options(self, options: Mapping[str, Any], players: int) -> dict[str, Any]:
        """Defaults filled in, types checked, unknown keys refused. ``teams`` is handled by :meth:`sides`."""
        if not isinstance(options, Mapping):
            raise SetupError(None, M("options must be an object"))
        specs = {spec.key: spec for spec in self.option_specs}
        result: dict[str, Any] = {spec.key: spec.default for spec in self.option_specs}
        for key, value in options.items():
            if key == "teams":
                # null or [] is no partnership; `false`, 0 or "" were once read as none too (the
                # OpenAPI document says array or null, and a client sending them meant something else).
                if value is not None and not isinstance(value, list):
                    raise SetupError(self.team_rule or self.player_rule,
                                     M("teams must be a list of non-empty lists of seat numbers"))
                continue
            spec = specs.get(key)
            if spec is None:
                known = ", ".join(sorted(specs)) or "none"
                raise SetupError(OPTION_RULE, M("%(game)s has no option %(key)s (options: %(known)s, teams)",
                                         game=self.name, key=repr(key), known=known))
            result[key] = spec.coerce(value)
        result["teams"] = [list(team) for team in self.sides(options, players).teams] if options.get("teams") else None
        return result

    def sides(self, options: Mapping[str, Any], players: int) -> Sides:
        teams = options.get("teams") if isinstance(options, Mapping) else None
        if not teams:
            return Sides(tuple((p,) for p in range(players)))
        if not isinstance(teams, list) or not all(isinstance(t, list) and t for t in teams):
            raise SetupError(self.team_rule, M("teams must be a list of non-empty lists of seat numbers"))
        seats = [s for t in teams for s in t]
        if any(isinstance(s, bool) or not isinstance(s, int) for s in seats) or sorted(seats) != list(range(players)):
            raise SetupError(self.team_rule, M("teams must place each of the %(players)s seats exactly once",
                                               players=players))
        if len(teams) < 2:
            raise SetupError(self.team_rule, M("partnerships need at least two teams"))
        ordered = sorted((tuple(sorted(t)) for t in teams), key=lambda t: t[0])
        return Sides(tuple(ordered))

    def describe(self, event: Mapping[str, Any], players: Sequence[str]) -> str:
        parts = [str(event.get("type", "?"))]
        player = event.get("player")
        if isinstance(player, int) and 0 <= player < len(players):
            parts.append(players[player])
        for key, value in event.items():
            if key not in {"type", "player"}:
                parts.append(f"{key}={value}")
        return " ".join(parts)
