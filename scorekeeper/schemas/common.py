"""What every game's event and state models share: the base classes and the field types.

Events are checked for their *shape* here (a field of the right JSON type); what a field may
hold at this table — a seat that exists, a readable card, a legal move — stays with the engine,
which answers 400 ``bad_notation`` or 422 with the rule id as before. Extra fields are allowed, as
the engine always allowed them (``expected_seq`` travels that way).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

Seat = Annotated[StrictInt, Field(description="a seat: 0 is the first name given, then clockwise")]
Card = Annotated[StrictStr, Field(description="a card in wire notation ('10D', 'AS'; every input form of "
                                              "cards.py is read)", examples=["5C"])]
Cards = Annotated[list[Card] | StrictStr, Field(description="cards: a list, or one string of cards separated "
                                                            "by spaces")]
Seats = Annotated[list[StrictInt], Field(description="seat indexes")]
Flag = StrictBool
Count = StrictInt
Text = StrictStr
Anything = Any


class Event(BaseModel):
    """One thing said or done at the table (``type`` names it)."""

    model_config = ConfigDict(extra="allow", strict=True)

    expected_seq: StrictInt | None = Field(None, description="the seq this phone last saw: if the table has "
                                                             "moved on, 409 stale and the fresh sheet")


class State(BaseModel):
    """The four fields every game's state carries (DESIGN §2); each game adds its own."""

    model_config = ConfigDict(extra="forbid")

    scores: list[int] = Field(description="one score per side (a player, or a team), in seat order")
    over: bool
    winner: int | list[int] | None = Field(description="a side index, a list for a shared win, or null")
    to_act: int | None = Field(description="the seat expected to act next, or null")


class Scored(BaseModel):
    """One scoring fact of the latest event ("Mulle! +3")."""

    model_config = ConfigDict(extra="forbid")

    side: int
    points: int
    what: str
    rule: str | None
    detail: str


class Confirm(Event):
    """The table agrees with a pending proposal (the same words in every game)."""

    type: Literal["confirm"]
    proposal: StrictInt = Field(description="the id of a pending proposal (state.proposals)")


class Dismiss(Event):
    """The table rejects a pending proposal."""

    type: Literal["dismiss"]
    proposal: StrictInt = Field(description="the id of a pending proposal (state.proposals)")
