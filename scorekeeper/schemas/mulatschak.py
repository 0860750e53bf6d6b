"""Mulatschak: the sheet from 21 down to 0 (docs/api.md, "Mulatschak"). Cards use the German
notation: "AH" Herz-Sau, "OS" Schellen-Ober, "10L", "UE", "W" for the Weli."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from scorekeeper.schemas.common import (
    Confirm,
    Count,
    Dismiss,
    Event,
    Flag,
    Seat,
    Seats,
    State,
    Text,
)
from scorekeeper.schemas.common import GermanCard as Card  # the German pack: 'OS', '10L', 'W'
from scorekeeper.schemas.common import GermanCards as Cards


class _ByPlayer(Event):
    player: Seat


class MulatschakDealer(_ByPlayer):
    """Who deals first (default seat 0); only before anything else has happened."""

    type: Literal["dealer"]


class MulatschakCut(_ByPlayer):
    """The player on the dealer's right cuts; `weli`: the bottom card of the lifted part was the Weli."""

    type: Literal["cut"]
    weli: Flag = False


class MulatschakKnock(_ByPlayer):
    """Knocks instead of cutting: the deal counts double."""

    type: Literal["knock"]
    weli: Flag = False


class MulatschakCollapse(_ByPlayer):
    """"Unter dem Hund": shows a hand with no U, O, K, A or Weli."""

    type: Literal["collapse"]
    cards: Cards


class MulatschakHand(_ByPlayer):
    """Optional: the cards this player holds now; from then on their plays are checked live."""

    type: Literal["hand"]
    cards: Cards


class MulatschakBid(_ByPlayer):
    """A bid of 1–5 tricks (5 = Muli); 0 is a pass."""

    type: Literal["bid"]
    tricks: Count


class MulatschakPass(_ByPlayer):
    """"Weiter"; in the duel it means giving up."""

    type: Literal["pass"]


class MulatschakHold(_ByPlayer):
    """The dealer's "mit mir": takes the high bid at the same number."""

    type: Literal["hold"]


class MulatschakMuli(_ByPlayer):
    """Muli called out of turn straight after the deal; `together_with` called at the same moment."""

    type: Literal["muli"]
    together_with: Seats = Field(default_factory=list, description="absent: nobody (the engine refuses null)")


class MulatschakTrump(_ByPlayer):
    """The declarer names trumps (H, S, L, E); a delayed trump (Packerl) gives `face_up` cards instead."""

    type: Literal["trump"]
    suit: Text | None = Field(None, description="H, S, L or E")
    delayed: Flag = False
    face_up: Cards | None = None


class MulatschakJoin(_ByPlayer):
    """Plays along."""

    type: Literal["join"]


class MulatschakStayHome(_ByPlayer):
    """Stays home."""

    type: Literal["stay_home"]


class MulatschakExchange(_ByPlayer):
    """An exchange: plain (`count` 0–5), on sight (`card`, `keep`), `bridge`, `sau` or `seven`."""

    type: Literal["exchange"]
    kind: Literal["normal", "sight", "bridge", "sau", "seven"] = Field("normal", description="the kind of exchange")
    count: Count | None = None
    card: Card | None = None
    keep: Flag | None = None


class MulatschakBridgeCards(_ByPlayer):
    """The Bridge is served: 5 face down plus these face up."""

    type: Literal["bridge_cards"]
    face_up: Cards


class MulatschakPlay(_ByPlayer):
    """One card to the current trick."""

    type: Literal["play"]
    card: Card


class MulatschakConfirm(Confirm):
    """The table agrees that a proposal is a revoke (MULAT-SCORE-9)."""


class MulatschakDismiss(Dismiss):
    """The table rejects a revoke proposal."""


class MulatschakDealResult(Event):
    """Tally mode: the facts of one deal."""

    type: Literal["deal_result"]
    declarer: Seat | None = None
    bid: Count | None = None
    trump: Text | None = None
    home: Seats | None = None
    tricks: list[Count | None] | None = Field(None, description="per seat, null (or 0) for players at home")
    causes: list[Text] = Field(default_factory=list, description="knock, collapse (hearts follows from trump)")
    revokes: Seats | None = None
    forced: Flag = False
    breaker: Seat | None = None
    thrown_in: Flag = False


class MulatschakState(State):
    mode: Literal["adjudicate", "tally"]
    phase: str = Field(description="cut, bidding, trump, stay, exchange, play, review, over; tally: tally")
    dealer: int = Field(description="who deals the current or next deal")
    start: int
    limits: dict[str, int] = Field(description='{"bid": 5, "stay": 3}')
    sheet: list[dict[str, Any]] = Field(description="one row per deal: deal, dealer, declarer, bid, muli, forced, "
                                                    "trump, multiplier, causes, home, tricks, revokes, breaker, "
                                                    "made, changes, totals, note")
    proposals: list[dict[str, Any]] = Field(description="revokes found in the current deal: id, type, deal, player, "
                                                        "trick, card, kind, rule, evidence, evidence_trick, message, "
                                                        "status")
    deal: dict[str, Any] | None = Field(description="the deal in progress (adjudicate mode; null in tally)")


EVENTS = (MulatschakDealer, MulatschakCut, MulatschakKnock, MulatschakCollapse, MulatschakHand, MulatschakBid,
          MulatschakPass, MulatschakHold, MulatschakMuli, MulatschakTrump, MulatschakJoin, MulatschakStayHome,
          MulatschakExchange, MulatschakBridgeCards, MulatschakPlay, MulatschakConfirm, MulatschakDismiss,
          MulatschakDealResult)
STATE = MulatschakState
