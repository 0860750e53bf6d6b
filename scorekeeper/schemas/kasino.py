"""Kasino, with misär and Dragkasino as options (docs/api.md, "Kasino")."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt

from scorekeeper.schemas.common import (
    Card,
    Cards,
    Confirm,
    Dismiss,
    Event,
    Flag,
    Scored,
    Seat,
    State,
)


class KasinoDrawDealer(Event):
    """The optional cut for the first dealer: one card per seat (`null` for seats not drawing again)."""

    type: Literal["draw_dealer"]
    cards: list[Card | None]


class KasinoDeal(Event):
    """A new deal: the four face-up cards."""

    type: Literal["deal"]
    dealer: Seat | None = Field(None, description="required for the first deal unless draw_dealer found one")
    table: Cards


class KasinoPlay(Event):
    """One card: a capture (`capture` = the table cards taken) or a trail."""

    type: Literal["play"]
    player: Seat
    card: Card
    capture: Cards | None = Field(None, description="empty or absent: a trail")
    draw: Card | None = Field(None, description="Dragkasino: the card the player drew afterwards (optional)")


class KasinoConfirm(Confirm):
    """The table confirms a misär penalty proposal: +5 to that player."""


class KasinoDismiss(Dismiss):
    """The table dismisses a misär penalty proposal."""


class KasinoClaim(Event):
    """KASINO-VAR-CLAIM (option `claim`); in tally mode with the settled facts of the deal in progress."""

    type: Literal["claim"]
    player: Seat
    storan: Flag | None = None
    lillan: Flag | None = None
    aces: NonNegativeInt | None = None
    tabbes: NonNegativeInt | None = None


class KasinoMisdeal(Event):
    """KASINO-AMB-12: cancels the deal in progress; the same dealer deals again."""

    type: Literal["misdeal"]


class KasinoPile(BaseModel):
    """One pile of a finished deal; missing fields count 0 / false."""

    model_config = ConfigDict(extra="forbid", strict=True)

    cards: NonNegativeInt = 0
    spades: NonNegativeInt = 0
    storan: Flag = False
    lillan: Flag = False
    aces: NonNegativeInt = 0
    tabbes: NonNegativeInt = 0
    sistan: Flag = False


class KasinoDealResult(Event):
    """Tally mode: one deal's piles, per side (`sides`) or per player (`players`)."""

    type: Literal["deal_result"]
    sides: list[KasinoPile | None] | None = Field(None, description="one pile per side in seat order")
    players: list[KasinoPile | None] | None = Field(None, description="one pile per player (pairs_individual)")
    dealer: Seat | None = None


class KasinoPenalty(Event):
    """Tally mode, misär: +5 at once (the table already agreed)."""

    type: Literal["penalty"]
    player: Seat
    breach: Literal["KASINO-MIS-1", "KASINO-MIS-2"] = Field("KASINO-MIS-1", description="KASINO-MIS-2 with "
                                                                                                "misar_penalty_b")


class KasinoState(State):
    game: Literal["kasino"]
    mode: Literal["adjudicate", "tally"]
    variant: Literal["standard", "misar", "drag"]
    misar: bool
    drag: bool
    phase: Literal["setup", "play", "settling", "between", "over"]
    sides: list[list[int]]
    deal: int = Field(description="deal number, 1-based")
    dealer: int | None
    forehand: int | None
    next_dealer: int | None
    round: int | None = Field(description="null in Dragkasino")
    rounds_total: int | None
    is_last_round: bool
    table: list[str]
    hands: list[int | None] = Field(description="cards in each hand (null for players who are out)")
    known_hands: list[list[str]] | None = Field(description="Dragkasino: entered draws not yet played")
    stock: int | None
    unseen: dict[str, int] = Field(description="per card 1 if not yet seen this deal")
    unseen_count: int
    piles: list[dict[str, Any]] | None = Field(description="per side this deal: cards, spades, storan, lillan, "
                                                           "aces, tabbes, sistan")
    player_piles: list[dict[str, Any]] | None
    last_capture: int | None
    last_move: dict[str, Any] | None = Field(description="number, player, round, card, capture, trail, tabbe, "
                                                         "tabbe_scores, table_before, grouping, describe")
    plays: int
    summary: dict[str, Any] | None = Field(description="the last finished deal: facts, categories, points, total, "
                                                       "lost_to_ties, leftovers, leftovers_to")
    history: list[dict[str, Any]]
    active: list[int]
    eliminated: list[int]
    proposals: list[dict[str, Any]] = Field(description="pending misär proposals: id, deal, player, breach, rule, "
                                                        "points, turn, message, evidence, status")
    proposals_all: list[dict[str, Any]]
    sweep_values: list[dict[str, Any]] | None
    claimable: list[int] | None
    announce: list[str]
    dealer_draw: dict[str, Any] | None
    end: dict[str, Any] | None
    scored: list[Scored]


EVENTS = (KasinoDrawDealer, KasinoDeal, KasinoPlay, KasinoConfirm, KasinoDismiss, KasinoClaim, KasinoMisdeal,
          KasinoDealResult, KasinoPenalty)
STATE = KasinoState
