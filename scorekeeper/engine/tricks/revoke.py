"""The revoke audit: plays of a deal that later plays prove illegal."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from scorekeeper.cards import Card, Pack
from scorekeeper.engine.messages import M, Msg, Seat, Suit
from scorekeeper.engine.tricks.follow import Breach, _in, check_play
from scorekeeper.engine.tricks.order import BreachKind, Obligations, _is_trump, beats, suit_of


@dataclass(frozen=True, slots=True)
class Revoke:
    """A proven illegal play; ``trick`` and ``evidence_trick`` are 1-based."""

    player: int
    trick: int
    card: Card
    kind: BreachKind
    evidence: Card
    evidence_trick: int | None
    led_suit: str

    def describe(self, pack: Pack = "french") -> Msg:
        suit = Suit(self.led_suit)
        duty = {"follow": M("must follow %(suit)s", suit=suit),
                "trump": M("cannot follow %(suit)s and must trump", suit=suit),
                "head": M("must beat the card winning the trick")}[self.kind]
        where = (M("later played %(card)s (trick %(trick)s)", card=self.evidence, trick=self.evidence_trick)
                 if self.evidence_trick else M("still holds %(card)s", card=self.evidence))
        return _in(pack, M("%(player)s %(duty)s: played %(card)s at trick %(trick)s but %(where)s",
                           player=Seat(self.player), duty=_in(pack, duty), card=self.card, trick=self.trick,
                           where=_in(pack, where)))


Plays = Sequence[Sequence[tuple[int, Card]]]


def hand_at(plays_of_deal: Plays, player: int, trick_index: int, holding: Sequence[Card] = ()) -> list[Card]:
    """The part of ``player``'s hand at trick ``trick_index`` (0-based) that play has revealed."""
    played = [card for trick in plays_of_deal[trick_index:] for seat, card in trick if seat == player]
    return played + [card for card in holding if card not in played]


def _trick_of(plays_of_deal: Plays, player: int, card: Card, start: int) -> int | None:
    for index in range(start, len(plays_of_deal)):
        if any(seat == player and c == card for seat, c in plays_of_deal[index]):
            return index + 1
    return None


def audit_revokes(plays_of_deal: Plays, trump: str | None, obligations: Obligations,
                  holding: Mapping[int, Sequence[Card]] | None = None, *,
                  seats: Collection[int] | None = None) -> list[Revoke]:
    """Every revoke that the cards played so far prove, in trick order then play order; with
    ``seats``, only the plays of those seats are audited (each play is judged on its own, so the
    result is the full audit's revokes of those seats)."""
    holding = holding or {}
    found: list[Revoke] = []
    for index, trick in enumerate(plays_of_deal):
        for position, (seat, card) in enumerate(trick):
            if seats is not None and seat not in seats:
                continue
            before = [c for _, c in trick[:position]]
            hand = hand_at(plays_of_deal, seat, index, holding.get(seat, ()))
            breach = check_play(hand, before, card, trump, obligations)
            if breach is None:
                continue
            witness = _later_witness(hand, breach, card, trump, obligations)
            found.append(Revoke(seat, index + 1, card, breach.kind, witness,
                                _trick_of(plays_of_deal, seat, witness, index + 1), breach.led_suit))
    return found


def _later_witness(hand: Iterable[Card], breach: Breach, card: Card, trump: str | None,
                   ob: Obligations) -> Card:
    """A card other than the one played that proves the breach (the played card is not evidence)."""
    order = ob.order
    for candidate in hand:
        if candidate == card:
            continue
        if breach.kind == "follow" and suit_of(candidate, trump, order) == breach.led_suit:
            return candidate
        if breach.kind == "trump" and _is_trump(candidate, trump, order):
            return candidate
        if breach.kind == "head" and beats(candidate, breach.best, breach.led_suit, trump, order) and \
                suit_of(candidate, trump, order) == suit_of(breach.witness, trump, order):
            return candidate
    return breach.witness
