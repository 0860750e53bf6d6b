"""Muggins: every card placed checked (docs/api.md, "Muggins")."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt

from scorekeeper.schemas.common import Card, Cards, Event, Seat, State


class MugginsPlace(BaseModel):
    """A pile: `{"pile": "muggins", "index": i}`, `{"pile": "discard", "player": q}` or `{"pile": "own"}`.
    Extra keys are ignored, so the places the state lists can be sent back as they are."""

    model_config = ConfigDict(extra="allow", strict=True)

    pile: Literal["muggins", "discard", "own"]
    index: StrictInt | None = Field(None, description="muggins pile, 0-based")
    player: StrictInt | None = Field(None, description="whose discard pile")


class MugginsSetup(Event):
    """Lays out the face-up muggins cards, left to right."""

    type: Literal["setup"]
    muggins: Cards
    dealer: Seat | None = Field(None, description="default: the last seat, so seat 0 starts")


class MugginsTurn(Event):
    """One card turned and placed."""

    type: Literal["turn"]
    player: Seat | None = Field(None, description="default: to_act")
    card: Card
    to: MugginsPlace
    moved_to: MugginsPlace | None = Field(None, description="after a muggins: where the offender moves the card")


class MugginsStop(Event):
    """The players agree to stop: a stalemate."""

    type: Literal["stop"]


class MugginsResult(Event):
    """Tally mode: the winner (a seat or a list for a shared win), or every placing best first."""

    type: Literal["result"]
    winner: StrictInt | list[StrictInt] | None = None
    placings: list[StrictInt | list[StrictInt]] | None = None


class MugginsState(State):
    scores: list[int] = Field(description="1 for each winner, else 0: Muggins has no points")
    mode: Literal["adjudicate", "tally"]
    phase: Literal["setup", "play", "over"]
    options: dict[str, bool]
    dealer: int | None
    forehand: int | None
    muggins: list[dict[str, Any]] = Field(description="each centre pile: index, top, count, cards (bottom first)")
    players: list[dict[str, Any]] = Field(description="seat, name, draw, discard, discard_top, discard_cards, cards, "
                                                      "draw_top, finished, place, turnovers")
    placements: list[dict[str, Any]] = Field(description="one row per card placed")
    last_muggins: dict[str, Any] | None = Field(description="the latest muggins, with its explanation")
    muggins_called: bool
    placings: list[list[int]]
    stalemate: dict[str, Any] | None
    cards_total: int
    unseen: int
    next_card: str | None
    turns_over_first: bool
    left_pile: int | None
    places_by_rank: dict[str, list[dict[str, Any]]]


EVENTS = (MugginsSetup, MugginsTurn, MugginsStop, MugginsResult)
STATE = MugginsState
