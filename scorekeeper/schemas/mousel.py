"""Mousel: the pot and the token ledger (docs/api.md, "Mousel")."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field, StrictInt

from scorekeeper.schemas.common import (
    Card,
    Confirm,
    Count,
    Dismiss,
    Event,
    Flag,
    Seat,
    Seats,
    State,
)


class _ByPlayer(Event):
    player: Seat


class MouselDeal(Event):
    """A new deal: every seated player antes 1 and the dealer deals."""

    type: Literal["deal"]
    dealer: Seat | None = Field(None, description="seat 0 on the first deal, then the next player clockwise")
    last: Flag = Field(False, description="announce the last deal (option end_lastdeal)")


class MouselLook(_ByPlayer):
    """The dealer looks at his hand before deciding (he may then not take blind)."""

    type: Literal["look"]


class MouselTurnUp(Event):
    """The dealer turns the top stock card."""

    type: Literal["turn_up"]
    card: Card


class MouselTake(_ByPlayer):
    """The player offered the card accepts it: its suit is trumps."""

    type: Literal["take"]


class MouselRefuse(_ByPlayer):
    """The player offered the card refuses it."""

    type: Literal["refuse"]


class MouselExchange(_ByPlayer):
    """Throw away `count` cards and draw as many; 0 is standing pat."""

    type: Literal["exchange"]
    count: Count


class MouselFold(_ByPlayer):
    """Drop out of the deal."""

    type: Literal["fold"]


class MouselDiscard(_ByPlayer):
    """The taker throws away his extra card; play begins."""

    type: Literal["discard"]


class MouselPlay(_ByPlayer):
    """A card to the current trick."""

    type: Literal["play"]
    card: Card


class MouselConfirm(Confirm):
    """The table upholds a revoke proposal (MOUSEL-POT-8 applies to the offender)."""


class MouselDismiss(Dismiss):
    """The table dismisses a revoke proposal."""


class MouselConfirmRevoke(Event):
    """Alias of `confirm` (its `id` is `proposal`), kept for older clients and stored tables."""

    model_config = ConfigDict(json_schema_extra={"deprecated": True})
    type: Literal["confirm_revoke"]
    id: StrictInt


class MouselDismissRevoke(Event):
    """Alias of `dismiss` (its `id` is `proposal`), kept for older clients and stored tables."""

    model_config = ConfigDict(json_schema_extra={"deprecated": True})
    type: Literal["dismiss_revoke"]
    id: StrictInt


class MouselLeave(_ByPlayer):
    """Between deals, a player leaves; his balance stays on the sheet."""

    type: Literal["leave"]


class MouselEndSession(Event):
    """Between deals, the players stop: the pot is split and a settle-up drawn."""

    type: Literal["end_session"]


class MouselDealResult(Event):
    """Tally mode: one whole deal (or a void one)."""

    type: Literal["deal_result"]
    taker: Seat | None = None
    tricks: list[Count | None] | None = Field(None, description="one entry per seat, adding up to N")
    folded: Seats | None = None
    revokes: Seats | None = None
    dealer: Seat | None = None
    void: Flag = False
    last: Flag = False


class MouselState(State):
    scores: list[int] = Field(description="token balances (start at 0, may go negative)")
    game: Literal["mousel"]
    mode: Literal["adjudicate", "tally"]
    phase: str = Field(description="between_deals, turn_up, offer, exchange, discard, play, review, ended")
    options: dict[str, Any]
    players: list[str]
    status: list[Literal["in", "left", "bust"]]
    balances: list[int]
    pot: int
    value_per_trick: float = Field(description="P / N for the deal on (or the next)")
    holdings: list[int] | None = Field(description="with bust: stack + balance per seat")
    deals_played: int
    dealer: int | None
    next_dealer: int | None
    deal: dict[str, Any] | None = Field(description="the deal in progress: number, dealer, seats, hand_size, last, "
                                                    "stock, turned, offered_to, trump, taker, decisions, tricks, …")
    proposals: list[dict[str, Any]] = Field(description="every proposal of the deal: id, player, rule, kind, trick, "
                                                        "card, evidence, evidence_trick, led_suit, message, status")
    pending_revokes: list[dict[str, Any]]
    last_tricks: list[dict[str, Any]]
    settlements: list[dict[str, Any]] = Field(description="one row per deal")
    ledger: list[dict[str, Any]] = Field(description="every token movement: deal, kind, from, to, amount, rule, note")
    history: list[dict[str, Any]] = Field(description="the pot and balances after each deal, from deal 0")
    last_announced: bool
    end: dict[str, Any] | None = Field(description="after end_session: split, unallocated, standings, settle_up")


EVENTS = (MouselDeal, MouselLook, MouselTurnUp, MouselTake, MouselRefuse, MouselExchange, MouselFold, MouselDiscard,
          MouselPlay, MouselConfirm, MouselDismiss, MouselLeave, MouselEndSession, MouselDealResult,
          MouselConfirmRevoke, MouselDismissRevoke)
STATE = MouselState
