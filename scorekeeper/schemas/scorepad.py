"""Score pad: points per side (docs/api.md, "Score pad")."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from scorekeeper.engine.scorepad import MAX_POINTS
from scorekeeper.schemas.common import Count, Event, State, Text


class ScorepadPoints(Event):
    """Points to a side (negative to take off), with an optional note (≤ 200 characters)."""

    type: Literal["points"]
    side: Count = Field(ge=0, description="the side index (a team with `teams`)")
    points: Count = Field(ge=-MAX_POINTS, le=MAX_POINTS)
    note: Text = Field("", max_length=200)


class ScorepadRound(BaseModel):
    model_config = ConfigDict(extra="forbid")

    round: int
    points: list[int | None]
    notes: list[str]
    totals: list[int]


class ScorepadState(State):
    start: int
    target: int
    direction: Literal["up", "down"]
    sides: list[list[int]] = Field(description="seats per side")
    rounds: list[ScorepadRound] = Field(description="a round closes when a side is written a second time")
    history: list[list[int]] = Field(description="the totals after each entry")


EVENTS = (ScorepadPoints,)
STATE = ScorepadState
