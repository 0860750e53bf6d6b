"""Which cards a hand may play to a trick, and the duty a card outside them breaks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorekeeper.cards import Card, Pack
from scorekeeper.engine.messages import M, Msg, Seat, Suit
from scorekeeper.engine.tricks.order import (
    BreachKind,
    Obligations,
    RankOrder,
    _is_trump,
    beats,
    suit_of,
    winning_index,
)


@dataclass(frozen=True, slots=True)
class Breach:
    """Why ``card`` may not be played: ``witness`` (from the hand) should have gone instead."""

    kind: BreachKind
    card: Card
    witness: Card
    led_suit: str
    best: Card

    def describe(self, player: int, pack: Pack = "french") -> Msg:
        if self.kind == "follow":
            msg = M("%(player)s must follow %(suit)s: played %(card)s while holding %(witness)s",
                    player=Seat(player), suit=Suit(self.led_suit), card=self.card, witness=self.witness)
        elif self.kind == "trump":
            msg = M("%(player)s cannot follow %(suit)s and must trump: played %(card)s while holding %(witness)s",
                    player=Seat(player), suit=Suit(self.led_suit), card=self.card, witness=self.witness)
        else:
            msg = M("%(player)s must beat %(best)s: played %(card)s while holding %(witness)s",
                    player=Seat(player), best=self.best, card=self.card, witness=self.witness)
        return _in(pack, msg)


def _in(pack: Pack, msg: Msg) -> Msg:
    """``msg`` with its cards named as ``pack`` names them."""
    return msg if pack == msg.pack else Msg(msg.template, msg.params, pack)


def _allowed(hand: Sequence[Card], trick: Sequence[Card], trump: str | None,
             ob: Obligations) -> tuple[list[Card], BreachKind | None]:
    """The legal cards and the duty that selected them (None: free choice)."""
    if not trick:
        return list(hand), None
    order = ob.order
    led = suit_of(trick[0], trump, order)
    best = trick[winning_index(trick, trump, order)]
    follow = [c for c in hand if suit_of(c, trump, order) == led]
    if follow and ob.must_follow:
        if ob.must_head and suit_of(best, trump, order) == led:
            heads = [c for c in follow if beats(c, best, led, trump, order)]
            if heads:
                return heads, "head"
        return follow, "follow"
    if follow or trump is None or not ob.must_trump:
        return list(hand), None
    trumps = [c for c in hand if _is_trump(c, trump, order)]
    if not trumps:
        return list(hand), None
    if ob.must_head:
        heads = [c for c in trumps if beats(c, best, led, trump, order)]
        if heads:
            return heads, "head"
    return trumps, "trump"


def legal_cards(hand: Sequence[Card], trick_so_far: Sequence[Card], trump: str | None,
                obligations: Obligations) -> list[Card]:
    """The cards of ``hand`` that may be played next (hand order kept)."""
    return _allowed(hand, trick_so_far, trump, obligations)[0]


def check_play(hand: Sequence[Card], trick_so_far: Sequence[Card], card: Card, trump: str | None,
               obligations: Obligations) -> Breach | None:
    """None if ``card`` (which must be in ``hand``) is legal, else the first duty it breaks."""
    allowed, duty = _allowed(hand, trick_so_far, trump, obligations)
    if card in allowed or duty is None:
        return None
    order = obligations.order
    led = suit_of(trick_so_far[0], trump, order)
    best = trick_so_far[winning_index(trick_so_far, trump, order)]
    kind: BreachKind = duty
    if duty == "head":
        # A card outside the suit led (or outside trumps when void) broke the plainer duty.
        if suit_of(card, trump, order) != suit_of(allowed[0], trump, order):
            kind = "follow" if suit_of(allowed[0], trump, order) == led else "trump"
    witness = _best_witness(allowed, kind, card, led, best, trump, order)
    return Breach(kind, card, witness, led, best)


def _best_witness(allowed: Sequence[Card], kind: BreachKind, card: Card, led: str, best: Card,
                  trump: str | None, order: RankOrder) -> Card:
    """The first allowed card, preferring one that shows the broken duty most plainly."""
    if kind == "head":
        beating = [c for c in allowed if beats(c, best, led, trump, order)]
        return beating[0] if beating else allowed[0]
    return allowed[0]


