"""The plain score pad: points per side, a target counted up to (61, 16) or down to (21 → 0)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from scorekeeper.engine.base import (
    JSON,
    BaseRules,
    Event,
    Mode,
    OptionSpec,
    Outcome,
    RuleViolation,
    Scored,
    SetupError,
    Sides,
    common_json,
    int_field,
    str_field,
)
from scorekeeper.engine.core import Dispatch
from scorekeeper.engine.messages import M, Msg, Plain, Side

MAX_POINTS = 10_000


@dataclass(frozen=True, slots=True)
class Entry:
    side: int
    points: int
    note: str
    totals: tuple[int, ...]
    round: int


@dataclass(frozen=True, slots=True)
class PadState:
    players: tuple[str, ...]
    sides: Sides
    start: int
    target: int
    mode: Mode
    scores: tuple[int, ...]
    entries: tuple[Entry, ...] = ()
    winner: int | None = None
    scored: tuple[Scored, ...] = ()

    @property
    def counts_down(self) -> bool:
        return self.target < self.start

    @property
    def over(self) -> bool:
        return self.winner is not None


class ScorePad(BaseRules):
    id: ClassVar[str] = "scorepad"
    name: ClassVar[str] = "Score pad"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    player_rule: ClassVar[str | None] = "SCOREPAD-SETUP-1"
    team_rule: ClassVar[str | None] = "SCOREPAD-SETUP-2"
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("start", 0, "SCOREPAD-SETUP-3", "Start score", kind="int", minimum=-MAX_POINTS, maximum=MAX_POINTS),
        OptionSpec("target", 61, "SCOREPAD-SETUP-3", "Target", kind="int", minimum=-MAX_POINTS, maximum=MAX_POINTS),
    )

    def new(self, players: Sequence[str], options: Mapping[str, Any], mode: Mode = "adjudicate") -> PadState:
        self.check_players(players)
        opts = self.parse_options(options, len(players))
        if opts["start"] == opts["target"]:
            raise SetupError("SCOREPAD-SETUP-3", M("the target must differ from the start score"))
        sides = self.sides(options, len(players))
        return PadState(tuple(players), sides, opts["start"], opts["target"], mode,
                        scores=(opts["start"],) * sides.count)

    def apply(self, state: PadState, event: Mapping[str, Any]) -> PadState:
        handler, event = _EVENTS.route(event, state.mode)
        return handler(state, event)

    def outcome(self, state: PadState) -> Outcome | None:
        if state.winner is None:
            return None
        names = " & ".join(state.players[p] for p in state.sides.teams[state.winner])
        return Outcome(state.winner, M("%(side)s reached %(target)s", side=names, target=state.target),
                       "SCOREPAD-END-1")

    def hints(self, state: PadState) -> list[Event]:
        return []

    def to_json(self, state: PadState) -> JSON:
        data = common_json(state.scores, state.over, state.winner, None)
        data.update(
            start=state.start,
            target=state.target,
            direction="down" if state.counts_down else "up",
            sides=[list(team) for team in state.sides.teams],
            rounds=Plain(_rounds(state)),
            history=Plain([[state.start] * state.sides.count] + [list(e.totals) for e in state.entries]),
        )
        return data

    def describe(self, event: Mapping[str, Any], players: Sequence[str]) -> Msg:
        points = f"{event.get('points'):+}"
        if event.get("note"):
            return M("%(points)s → %(side)s (%(note)s)", points=points, side=_side(event), note=str(event["note"]))
        return M("%(points)s → %(side)s", points=points, side=_side(event))


def _side(event: Mapping[str, Any]) -> Side | str:
    side = event.get("side")
    return Side(side) if isinstance(side, int) and not isinstance(side, bool) else f"side {side}"


def _round_for(entries: tuple[Entry, ...], side: int) -> int:
    """A round closes when a side is entered a second time, so the sheet reads like a paper pad."""
    if not entries:
        return 1
    current = entries[-1].round
    for entry in reversed(entries):  # the current round only: a long pad is not read again
        if entry.round != current:
            break
        if entry.side == side:
            return current + 1
    return current


def _rounds(state: PadState) -> list[JSON]:
    """The pad's rows, one per round. An entry's round is its predecessor's or the next one
    (``_round_for``), so a round's entries stand together and the row is built as they come."""
    count = state.sides.count
    rows: list[JSON] = []
    row: JSON = {}
    for entry in state.entries:
        if not rows or row["round"] != entry.round:
            row = {"round": entry.round, "points": [None] * count, "notes": [""] * count, "totals": entry.totals}
            rows.append(row)
        row["points"][entry.side] = entry.points
        row["notes"][entry.side] = entry.note
        row["totals"] = entry.totals
    for row in rows:
        row["totals"] = list(row["totals"])
    return rows


def on_points(state: PadState, event: Mapping[str, Any]) -> PadState:
    side = int_field(event, "side", minimum=0)
    points = int_field(event, "points", minimum=-MAX_POINTS, maximum=MAX_POINTS)
    note = str_field(event, "note", default="", max_len=200)
    if side >= state.sides.count:
        raise RuleViolation("SCOREPAD-PLAY-1", M("there is no side %(side)s; this table has %(count)s", side=side,
                                                 count=state.sides.count),
                            side=side)
    if state.over:
        raise RuleViolation("SCOREPAD-END-2", M("the game is over; undo the last entry to correct it"))
    scores = list(state.scores)
    scores[side] += points
    totals = tuple(scores)
    round_no = _round_for(state.entries, side)
    reached = totals[side] <= state.target if state.counts_down else totals[side] >= state.target
    return replace(
        state,
        scores=totals,
        entries=state.entries + (Entry(side, points, note, totals, round_no),),
        winner=side if reached else None,
        scored=(Scored(side, points, "points", "SCOREPAD-PLAY-2", note),),
    )


# The one event, in either mode.
_EVENTS = Dispatch[PadState]("Score pad", adjudicate={"points": on_points}, tally={"points": on_points})
