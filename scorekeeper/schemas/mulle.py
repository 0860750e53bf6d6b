"""Tomelilla Mulle (docs/api.md, "Tomelilla Mulle")."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from scorekeeper.schemas.common import Card, Cards, Count, Event, Scored, Seat, State, Text


class MulleDeal(Event):
    """Start a deal with its face-up table cards (4, or 5 with three players)."""

    type: Literal["deal"]
    dealer: Seat | None = Field(None, description="required for the first deal; afterwards the old forehand")
    table: Cards | None = Field(None, description="the face-up cards (adjudicate mode; tally mode sends none)")


class MullePlay(Event):
    """One card: a capture (`capture` lists the table cards taken, a multiset) or a trail."""

    type: Literal["play"]
    player: Seat
    card: Card
    capture: Cards | None = Field(None, description="empty or absent: a trail")


class MulleTally(Event):
    """Tally mode: one scoring fact pegged at once."""

    type: Literal["tally"]
    what: Text = Field(description="ace, two_of_spades, ten_of_diamonds, tabbe, mulle, last_capture, most_spades "
                                   "(aliases sweep, lillan, storan, spades)")
    side: Count | None = Field(None, description="the side (team with partnerships); or give `player`")
    player: Seat | None = None
    count: Count = Field(1, ge=1, le=8, description="how many (1–8)")


class MullePile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    cards: int
    spades: int


class MulleState(State):
    mode: Literal["adjudicate", "tally"]
    phase: Literal["deal", "play", "tally", "over"]
    target: int
    players: list[str]
    sides: list[list[int]]
    options: dict[str, bool]
    previous_scores: list[int] = Field(description="the back peg: each side's score before its latest points")
    deal: int
    dealer: int | None
    next_dealer: int | None = Field(description="set between deals")
    forehand: int | None
    round: int | None
    rounds_total: int
    is_last_round: bool
    hand_size: int | None
    played_this_round: list[int]
    cards_in_hand: list[int]
    table: list[str]
    table_size: int
    unseen: dict[str, int] | None = Field(description="every card → copies not yet seen this deal (0, 1, 2)")
    cards_left: int
    piles: list[MullePile] = Field(description="per side: cards captured and spades among them, this deal")
    deal_points: list[int]
    sweeps: list[int]
    mulles: list[int]
    last_capturer: int | None
    last_move: dict[str, Any] | None = Field(description="the latest play with its grouping: player, card, capture, "
                                                         "kind, value, grouping, groups, sweep, mulle, points, describe")
    deal_end: dict[str, Any] | None = Field(description="summary of the deal just finished (a history row)")
    history: list[dict[str, Any]] = Field(description="one row per deal: deal, dealer, finished, points, scores, "
                                                      "sweeps, mulles, piles, spades, last_capture, leftovers, "
                                                      "leftovers_to, most_spades, spades_counted")
    scored: list[Scored]


EVENTS = (MulleDeal, MullePlay, MulleTally)
STATE = MulleState
