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
# The card notations cards.py reads, as patterns, so a client (or a fuzzer) that follows the document
# writes cards the server can read: rank then suit or suit then rank, either case, the suit letter or
# symbol, the Swedish and German rank letters; the German pack's Weli. Whether the card is in this
# table's pack, or in the hand that plays it, stays the engine's (422 with the rule).
_FRENCH = "(?:(?:10|[2-9]|[AaJjQqKkTtEeDd]|[Kk][Nn])[SsHhDdCc♠♥♦♣]|[SsHhDdCc♠♥♦♣](?:10|[2-9]|[AaJjQqKkTtEeDd]|[Kk][Nn]))"
_GERMAN = ("(?:(?:10|[6-9]|[AaKkOoUuSsDd]|[Ss][Aa][Uu])[HhSsLlEe♥♦♠♣]|[HhSsLlEe♥♦♠♣](?:10|[6-9]|[AaKkOoUuSsDd]|[Ss][Aa][Uu])"
           "|[Ww]|[Ww][Ee][Ll][Ii])")
FRENCH_CARD = f"^{_FRENCH}$"
GERMAN_CARD = f"^{_GERMAN}$"
FRENCH_CARDS = f"^\\s*(?:{_FRENCH}(?:[\\s,;]+{_FRENCH})*)?\\s*$"
GERMAN_CARDS = f"^\\s*(?:{_GERMAN}(?:[\\s,;]+{_GERMAN})*)?\\s*$"
_CARD = "a card in wire notation ('10D', 'AS'; every input form of cards.py is read)"
_CARDS = "cards: a list, or one string of cards separated by spaces"

Card = Annotated[StrictStr, Field(description=_CARD, examples=["5C"], json_schema_extra={"pattern": FRENCH_CARD})]
Cards = Annotated[list[Card] | Annotated[StrictStr, Field(json_schema_extra={"pattern": FRENCH_CARDS})],
                  Field(description=_CARDS)]
GermanCard = Annotated[StrictStr, Field(description=_CARD.replace("'10D', 'AS'", "'OS', '10L', 'W'"), examples=["OS"],
                                        json_schema_extra={"pattern": GERMAN_CARD})]
GermanCards = Annotated[list[GermanCard] | Annotated[StrictStr, Field(json_schema_extra={"pattern": GERMAN_CARDS})],
                        Field(description=_CARDS)]
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
