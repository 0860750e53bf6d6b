"""The dispute desk for the trick games (Mousel, Mulatschak): one trick judged card by card.

A position is what the table argues about: the trump, the cards of one trick in play order
(who played what), and optionally cards each player is later known to hold (played in a
later trick, or shown). The desk answers, for every card, whether it was legal (follow suit,
trump when void, beat the trick, per the game and its house rules) and with what evidence,
and who wins the trick and why (the ranking used, the Weli).

Hidden hands: a card is *proven* illegal only when a card the player is known to hold shows
the duty it broke (rules README §4) — the same partial-hand reasoning as the retroactive audit
of :mod:`scorekeeper.engine.tricks`, so the desk and the tables never disagree. A card with no
such evidence is legal as far as the cards shown prove.

Verdicts carry a ``kind`` and ``facts`` (cards as strings, suits as letters) so the web layer
renders the sentence in the reader's language; ``describe()`` gives the English one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from scorekeeper.cards import Card, Pack, parse_card
from scorekeeper.engine.base import MalformedEvent, RuleViolation
from scorekeeper.engine.messages import M, Msg, Seat
from scorekeeper.engine.mousel import ORDER_32, ORDER_52
from scorekeeper.engine.mousel import SUITS as MOUSEL_SUITS
from scorekeeper.engine.mulatschak import BREACH_RULES, ORDER, SUITS
from scorekeeper.engine.tricks import (
    Obligations,
    RankOrder,
    beats,
    check_play,
    suit_of,
    winning_index,
)

__all__ = ["CardVerdict", "DeskError", "TrickGame", "TrickVerdict", "judge_trick", "judge_trick_json",
           "parse_position", "trick_game"]

VerdictKind = Literal["lead", "followed", "trumped", "discarded", "revoke"]


class DeskError(RuleViolation):
    """A position that cannot occur under the rules (a card twice, a trick too long): HTTP 422."""


@dataclass(frozen=True, slots=True)
class TrickGame:
    """What the desk needs of a trick game: its pack, ranking, duties and rule ids."""

    id: str
    pack: Pack
    suits: tuple[str, ...]
    order: RankOrder
    duties: Obligations
    max_players: int
    lead_rule: str
    win_rule: str
    breach_rules: Mapping[str, str]
    free_rule: str           # void and not trumping (or trumping when not obliged)
    trump_rule: str          # void and trumping
    follow_rule: str
    comp_rule: str           # a card seen twice
    ranking_rule: str
    # Later cards are evidence of the hand a seat held at this trick (rules README section 4),
    # so they can only be a seat's that played to it: the revoke they would prove is this rule's.
    evidence_rule: str
    hidden_ranks: frozenset[str] = frozenset()  # ranks of the order that this pack leaves out

    def parse(self, text: Any, where: str) -> Card:
        if not isinstance(text, str):
            raise MalformedEvent(M("%(where)s must be a card such as %(example)s", where=where, example="OS" if self.pack == "german" else "9S"))
        return parse_card(text, self.pack)


def trick_game(game: str, options: Mapping[str, Any] | None = None) -> TrickGame:
    """The desk's view of ``game`` under ``options`` (the table's house rules)."""
    options = options or {}
    if game == "mousel":
        pack52 = _flag(options, "pack52") or _flag(options, "52")  # the desk's name, or the table's
        order = ORDER_52 if pack52 else ORDER_32
        return TrickGame("mousel", "french", MOUSEL_SUITS, order,
                         Obligations(order, must_follow=True, must_trump=False, must_head=False),
                         7 if pack52 else 5, "MOUSEL-PLAY-1", "MOUSEL-PLAY-4", {"follow": "MOUSEL-PLAY-2"},
                         "MOUSEL-PLAY-3", "MOUSEL-PLAY-3", "MOUSEL-PLAY-2", "MOUSEL-COMP-1",
                         "MOUSEL-PLAY-4", "MOUSEL-PLAY-5")
    if game == "mulatschak":
        duties = Obligations(ORDER, must_follow=True, must_trump=True, must_head=not _flag(options, "no_stichzwang"))
        return TrickGame("mulatschak", "german", SUITS, ORDER, duties, 6, "MULAT-PLAY-1", "MULAT-PLAY-7",
                         {str(k): v for k, v in BREACH_RULES.items()}, "MULAT-PLAY-6", "MULAT-PLAY-4", "MULAT-PLAY-3", "MULAT-COMP-1",
                         "MULAT-COMP-2", "MULAT-SCORE-9", frozenset() if _flag(options, "pack36") else frozenset({"6"}))
    raise MalformedEvent(M("%(game)s is not a trick game (mousel, mulatschak)", game=repr(game)))


def _flag(options: Mapping[str, Any], key: str) -> bool:
    value = options.get(key, False)
    if not isinstance(value, bool):
        raise MalformedEvent(M("option %(key)s must be true or false, not %(value)s", key=repr(key), value=repr(value)))
    return value


@dataclass(frozen=True, slots=True)
class CardVerdict:
    player: int
    card: Card
    legal: bool
    rule: str
    kind: VerdictKind
    evidence: tuple[Card, ...] = ()
    breach: str | None = None        # follow | trump | head, for a revoke
    led_suit: str | None = None
    beating: Card | None = None      # the card winning the trick when this one was played

    def facts(self) -> dict[str, Any]:
        return {"player": self.player, "card": str(self.card), "led": self.led_suit,
                "evidence": ", ".join(str(c) for c in self.evidence),
                "best": None if self.beating is None else str(self.beating)}

    def describe(self) -> str:
        p, c = f"player {self.player}", str(self.card)
        if self.kind == "lead":
            return f"{p} leads {c}: any card may be led"
        if self.kind == "followed":
            return f"{p} followed {self.led_suit} with {c}"
        if self.kind == "trumped":
            return f"{p} could not follow {self.led_suit} and trumped with {c}"
        if self.kind == "discarded":
            return f"{p} could not follow {self.led_suit} and threw {c}"
        held = ", ".join(str(e) for e in self.evidence)
        if self.breach == "follow":
            return f"{p} had to follow {self.led_suit}: played {c} but held {held}"
        if self.breach == "trump":
            return f"{p} could not follow {self.led_suit} and had to trump: played {c} but held {held}"
        return f"{p} had to beat {self.beating}: played {c} but held {held}"

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "card": str(self.card), "legal": self.legal, "rule": self.rule,
                "kind": self.kind, "breach": self.breach, "led_suit": self.led_suit,
                "evidence": [str(c) for c in self.evidence], "text": self.describe()}


@dataclass(frozen=True, slots=True)
class TrickVerdict:
    game: str
    trump: str | None
    winner: int | None               # None while the trick is not judged (no cards)
    winning_card: Card | None
    rule: str
    by_trump: bool
    weli: bool                       # the Weli was in the trick (Mulatschak)
    ranking: tuple[str, ...]
    ranking_rule: str
    led_suit: str | None
    verdicts: tuple[CardVerdict, ...] = field(default_factory=tuple)

    def describe(self) -> str:
        if self.winner is None or self.winning_card is None:
            return "no card played"
        how = "the highest trump" if self.by_trump else f"the highest card of the suit led ({self.led_suit})"
        return (f"player {self.winner} wins with {self.winning_card}: {how} wins; ranking "
                f"{' > '.join(self.ranking)}")

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "trump": self.trump, "winner": self.winner,
                "winning_card": None if self.winning_card is None else str(self.winning_card),
                "rule": self.rule, "by_trump": self.by_trump, "weli": self.weli,
                "ranking": list(self.ranking), "ranking_rule": self.ranking_rule, "led_suit": self.led_suit,
                "text": self.describe(), "verdicts": [v.to_json() for v in self.verdicts]}


def _plays(raw: Any, game: TrickGame, what: str) -> list[tuple[int, Card]]:
    if not isinstance(raw, list):
        raise MalformedEvent(M("%(what)s must be a list of {\"player\": n, \"card\": \"…\"}", what=repr(what)))
    out: list[tuple[int, Card]] = []
    for index, item in enumerate(raw):
        if not isinstance(item, dict):
            raise MalformedEvent(M("%(where)s must be an object {\"player\": n, \"card\": \"…\"}", where=f"{what}[{index}]"))
        player = item.get("player")
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < game.max_players:
            raise MalformedEvent(M("%(where)s must be a seat number 0…%(last)s", where=f"{what}[{index}].player", last=game.max_players - 1))
        out.append((player, game.parse(item.get("card"), f"{what}[{index}].card")))
    return out


def parse_position(game: TrickGame, body: Mapping[str, Any]) -> tuple[str | None, list[tuple[int, Card]],
                                                                      list[tuple[int, Card]]]:
    """``(trump, trick, later)`` from the desk's JSON, checked for shape and for possibility."""
    trump = body.get("trump")
    if trump is not None and (not isinstance(trump, str) or trump.upper() not in game.suits):
        raise MalformedEvent(M("'trump' must be one of %(suits)s (or null), not %(value)s", suits=", ".join(game.suits), value=repr(trump)))
    trump = trump.upper() if isinstance(trump, str) else None
    if game.id == "mulatschak" and trump is None:
        raise MalformedEvent(M("a Mulatschak deal always has a trump suit: send 'trump'"))
    trick = _plays(body.get("trick"), game, "trick")
    later = _plays(body.get("later", []), game, "later")
    if not trick:
        raise MalformedEvent(M("'trick' needs at least the card led"))
    seats = [p for p, _ in trick]
    if len(set(seats)) != len(seats):
        raise DeskError(game.lead_rule, M("each player plays one card to a trick; a seat appears twice in the trick"))
    if len(trick) > game.max_players:
        raise DeskError(game.lead_rule, M("a trick has at most %(n)s cards", n=game.max_players))
    cards = [c for _, c in trick] + [c for _, c in later]
    for card in cards:
        if cards.count(card) > 1:
            raise DeskError(game.comp_rule, _for_pack(M("%(card)s appears twice; the pack holds one", card=card),
                                                      game.pack), card=str(card))
        if (card.rank not in game.order.plain or card.rank in game.hidden_ranks) and \
                card not in game.order.always_trump:
            raise DeskError(game.comp_rule, _for_pack(M("%(card)s is not in this pack", card=card), game.pack),
                            card=str(card))
    strangers = sorted({p for p, _ in later} - set(seats))
    if strangers:
        raise DeskError(game.evidence_rule,
                        M("'later' names %(seat)s, who has no card in the trick", seat=Seat(strangers[0])))
    return trump, trick, later


def _for_pack(message: Msg, pack: Pack) -> Msg:
    """``message`` with its cards named as ``pack`` names them (Mulatschak's German cards)."""
    return Msg(message.template, message.params, pack)


def judge_trick(game: TrickGame, trump: str | None, trick: Sequence[tuple[int, Card]],
                later: Sequence[tuple[int, Card]] = ()) -> TrickVerdict:
    """Every card's verdict and the winner of ``trick`` (see the module docstring)."""
    order = game.order
    cards = [c for _, c in trick]
    led = suit_of(cards[0], trump, order)
    verdicts: list[CardVerdict] = [CardVerdict(trick[0][0], cards[0], True, game.lead_rule, "lead")]
    for position in range(1, len(trick)):
        seat, card = trick[position]
        before = cards[:position]
        best = before[winning_index(before, trump, order)]
        known = [card] + [c for p, c in later if p == seat]
        breach = check_play(known, before, card, trump, game.duties)
        if breach is not None:
            evidence = tuple(c for c in known[1:] if _shows(c, breach.kind, led, best, trump, breach.witness, order))
            verdicts.append(CardVerdict(seat, card, False, game.breach_rules[breach.kind], "revoke",
                                        evidence or (breach.witness,), breach.kind, led, best))
            continue
        suit = suit_of(card, trump, order)
        if suit == led:
            verdicts.append(CardVerdict(seat, card, True, game.follow_rule, "followed", led_suit=led,
                                        beating=best))
        elif trump is not None and suit == trump:
            verdicts.append(CardVerdict(seat, card, True, game.trump_rule, "trumped", led_suit=led, beating=best))
        else:
            verdicts.append(CardVerdict(seat, card, True, game.free_rule, "discarded", led_suit=led, beating=best))
    win = winning_index(cards, trump, order)
    winning = cards[win]
    by_trump = trump is not None and suit_of(winning, trump, order) == trump
    ranking = [r for r in (order.trump_ranks() if by_trump else order.plain) if r not in game.hidden_ranks]
    return TrickVerdict(game.id, trump, trick[win][0], winning, game.win_rule, by_trump,
                        any(c in order.always_trump for c in cards), tuple(ranking), game.ranking_rule,
                        led, tuple(verdicts))


def _shows(candidate: Card, kind: str, led: str, best: Card, trump: str | None, witness: Card,
           order: RankOrder) -> bool:
    """Does ``candidate`` (a card the player held) prove a breach of ``kind``?"""
    if kind == "follow":
        return suit_of(candidate, trump, order) == led
    if kind == "trump":
        return trump is not None and suit_of(candidate, trump, order) == trump
    return beats(candidate, best, led, trump, order) and \
        suit_of(candidate, trump, order) == suit_of(witness, trump, order)


def judge_trick_json(game_id: str, body: Mapping[str, Any]) -> TrickVerdict:
    """The API's entry: parse ``body`` (trump, trick, later, options) and judge."""
    options = body.get("options", {})
    if not isinstance(options, dict):
        raise MalformedEvent(M("'options' must be an object"))
    game = trick_game(game_id, options)
    trump, trick, later = parse_position(game, body)
    return judge_trick(game, trump, trick, later)
