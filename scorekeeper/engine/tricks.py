"""Trick-taking primitives shared by the trick games (Mulatschak, Mousel), game-neutral.

Everything here is a pure function of cards; nothing knows about players' scores, bids or
phases. A game describes itself with two small values and passes them in:

``RankOrder(plain, trump, always_trump=frozenset())``
    ``plain``: ranks of a non-trump suit, HIGH TO LOW (``("A", "K", "Q", "J", "10", "9", "8", "7")``).
    ``trump``: ranks of the trump suit, high to low; defaults to ``plain``. Mulatschak puts the
    Weli's rank ``"W"`` second: ``("A", "W", "K", "O", "U", "10", "9", "8", "7")``.
    ``always_trump``: cards that belong to the trump suit whatever it is and to no other suit
    (Mulatschak: ``{Card("W", "")}``; Mousel: none).

``Obligations(order, must_follow=True, must_trump=False, must_head=False)``
    What a player owes the trick. ``must_follow``: play the suit led if you hold it.
    ``must_trump``: void in the suit led, play a trump if you hold one (Mulatschak Trumpfzwang;
    Mousel: False, trumping is optional). ``must_head``: among the cards the first two duties
    allow, play one that beats the card now winning if you hold one (Mulatschak Stichzwang,
    dropped by ``no_stichzwang``). Following a plain suit that has been trumped, nothing can
    beat, so any card of the suit will do.

``trump`` is a suit letter, or ``None`` for a deal without trumps.

Functions
    ``suit_of(card, trump, order) -> str`` — the suit a card belongs to for every rule
    (the trump suit for ``always_trump`` cards).
    ``beats(a, b, led_suit, trump, order) -> bool`` — does ``a`` beat ``b``, the card currently
    winning a trick whose led suit is ``led_suit``?
    ``winning_index(cards, trump, order) -> int`` — position in play order of the card winning.
    ``trick_winner(cards, leader, trump, order, seats=None) -> int`` — the SEAT that wins.
    ``cards`` are in play order, ``leader`` is the seat that led; ``seats`` lists the seats that
    take part in clockwise order (default: every seat ``0..len(cards)-1`` plays), so players
    sitting out are skipped.
    ``legal_cards(hand, trick_so_far, trump, obligations) -> list[Card]`` — the cards of
    ``hand`` that may be played to ``trick_so_far`` (cards already in it, in play order).
    ``check_play(hand, trick_so_far, card, trump, obligations) -> Breach | None`` — why a card
    is illegal: ``Breach(kind, card, witness, led_suit, best)`` with ``kind`` one of
    ``"follow" | "trump" | "head"`` and ``witness`` a card of ``hand`` that should have been
    played instead (``None`` if the card is legal). Use it for live checks when a hand is known.
    ``audit_revokes(plays_of_deal, trump, obligations, holding=None) -> list[Revoke]`` — the
    retroactive audit (rules README §4). ``plays_of_deal`` is the deal's tricks so far, each a
    sequence of ``(seat, card)`` in play order (the last one may be incomplete). ``holding``
    optionally maps a seat to cards it is known to hold still (an entered hand). The hand a seat
    held at trick k is at least the cards it plays at tricks k..now (plus ``holding``), so a
    card that is illegal against
    that partial hand is a proven revoke (legality only shrinks as a hand grows, so no false
    alarm is possible). Each ``Revoke(player, trick, card, kind, evidence, evidence_trick,
    led_suit)`` carries the offending ``card`` played at ``trick`` (1-based) and the
    ``evidence``: the card the player played at ``evidence_trick`` (1-based, later; ``None``
    when the evidence is a card in ``holding``, i.e. still in the hand) which proves they could have followed (``kind="follow"``), trumped (``"trump"``) or beaten
    (``"head"``). At most one revoke per (player, trick); ``kind`` is the first duty broken.
    ``hand_at(plays_of_deal, player, trick_index, holding=()) -> list[Card]`` — that partial
    hand (``trick_index`` 0-based).

Messages: ``Breach.describe(player, pack)`` and ``Revoke.describe(pack)`` give messages such as
"Anna must follow Schelle: played Eichel-Neuner but later played Schellen-König (trick 4)".
Games map ``kind`` to their own rule ids.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from scorekeeper.cards import Card, Pack
from scorekeeper.engine.messages import M, Msg, Seat, Suit

__all__ = [
    "Breach", "BreachKind", "Obligations", "RankOrder", "Revoke", "audit_revokes", "beats",
    "check_play", "hand_at", "legal_cards", "suit_of", "trick_winner", "winning_index",
]

BreachKind = Literal["follow", "trump", "head"]


@dataclass(frozen=True, slots=True)
class RankOrder:
    """Rank orders, high to low, and the cards that are trumps whatever the trump suit is."""

    plain: tuple[str, ...]
    trump: tuple[str, ...] = ()
    always_trump: frozenset[Card] = field(default_factory=frozenset)

    def trump_ranks(self) -> tuple[str, ...]:
        return self.trump or self.plain

    def power(self, card: Card, is_trump: bool) -> int:
        """Higher is stronger; only comparable between cards of the same (effective) suit."""
        ranks = self.trump_ranks() if is_trump else self.plain
        try:
            return len(ranks) - ranks.index(card.rank)
        except ValueError:
            raise ValueError(f"{card} has no rank in this game's order {ranks}") from None


@dataclass(frozen=True, slots=True)
class Obligations:
    """A game's duties towards the trick (see the module docstring)."""

    order: RankOrder
    must_follow: bool = True
    must_trump: bool = False
    must_head: bool = False


def suit_of(card: Card, trump: str | None, order: RankOrder) -> str:
    always = order.always_trump
    if always:
        # Cards hash slowly; a rank outside the always-trump cards' ranks settles it at once.
        ranks = _ALWAYS_RANKS.get(always)
        if ranks is None:
            ranks = _ALWAYS_RANKS[always] = frozenset(c.rank for c in always)
        if card.rank in ranks and card in always:
            return trump if trump is not None else card.suit
    return card.suit


_ALWAYS_RANKS: dict[frozenset[Card], frozenset[str]] = {}  # a game has one or two such sets


def _is_trump(card: Card, trump: str | None, order: RankOrder) -> bool:
    return trump is not None and suit_of(card, trump, order) == trump


def beats(a: Card, b: Card, led_suit: str, trump: str | None, order: RankOrder) -> bool:
    """True when ``a`` takes the trick from ``b`` (the card currently winning)."""
    a_trump, b_trump = _is_trump(a, trump, order), _is_trump(b, trump, order)
    if a_trump and b_trump:
        return order.power(a, True) > order.power(b, True)
    if a_trump or b_trump:
        return a_trump
    a_suit, b_suit = suit_of(a, trump, order), suit_of(b, trump, order)
    if a_suit != led_suit:
        return False
    if b_suit != led_suit:
        return True
    return order.power(a, False) > order.power(b, False)


def winning_index(cards: Sequence[Card], trump: str | None, order: RankOrder) -> int:
    if not cards:
        raise ValueError("an empty trick has no winner")
    led = suit_of(cards[0], trump, order)
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], led, trump, order):
            best = i
    return best


def trick_winner(cards: Sequence[Card], leader: int, trump: str | None, order: RankOrder,
                 seats: Sequence[int] | None = None) -> int:
    """The seat whose card wins; seats follow clockwise from ``leader`` among ``seats``."""
    ring = list(seats) if seats is not None else list(range(len(cards)))
    if leader not in ring:
        raise ValueError(f"the leader {leader} does not take part in the trick")
    start = ring.index(leader)
    played_by = [ring[(start + i) % len(ring)] for i in range(len(cards))]
    return played_by[winning_index(cards, trump, order)]


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
                  holding: Mapping[int, Sequence[Card]] | None = None) -> list[Revoke]:
    """Every revoke that the cards played so far prove, in trick order then play order."""
    holding = holding or {}
    found: list[Revoke] = []
    for index, trick in enumerate(plays_of_deal):
        for position, (seat, card) in enumerate(trick):
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
