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
    ``audit_revokes(plays_of_deal, trump, obligations, holding=None, *, seats=None) -> list[Revoke]`` — the
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
    ``seats`` limits the audit to those seats' plays (their revokes are the same as in the full audit).
    ``hand_at(plays_of_deal, player, trick_index, holding=()) -> list[Card]`` — that partial
    hand (``trick_index`` 0-based).

Messages: ``Breach.describe(player, pack)`` and ``Revoke.describe(pack)`` give messages such as
"Anna must follow Schelle: played Eichel-Neuner but later played Schellen-König (trick 4)".
Games map ``kind`` to their own rule ids.
"""

from __future__ import annotations

from scorekeeper.engine.tricks.follow import Breach, check_play, legal_cards
from scorekeeper.engine.tricks.order import (
    BreachKind,
    Obligations,
    RankOrder,
    beats,
    suit_of,
    trick_winner,
    winning_index,
)
from scorekeeper.engine.tricks.revoke import Revoke, audit_revokes, hand_at

__all__ = [
    "Breach", "BreachKind", "Obligations", "RankOrder", "Revoke", "audit_revokes", "beats",
    "check_play", "hand_at", "legal_cards", "suit_of", "trick_winner", "winning_index",
]
