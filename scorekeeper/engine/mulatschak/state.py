"""Mulatschak's state: constants, options, the calls, exchanges and tricks of a deal, the sheet."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import compress
from typing import Any, Literal

from scorekeeper.cards import GERMAN_SUIT_NAMES, Card
from scorekeeper.engine.core import (
    JSON,
    Mode,
    Proposal,
    Scored,
    evolve,
)
from scorekeeper.engine.messages import Msg
from scorekeeper.engine.tricks import (
    BreachKind,
    Obligations,
    RankOrder,
    suit_of,
    trick_winner,
)

START = 21
SUITS = ("H", "S", "L", "E")
SUIT_NAMES = GERMAN_SUIT_NAMES
WELI = Card("W", "")
HIGH_RANKS = frozenset({"A", "K", "O", "U", "W"})
ORDER = RankOrder(plain=("A", "K", "O", "U", "10", "9", "8", "7", "6"),
                  trump=("A", "W", "K", "O", "U", "10", "9", "8", "7", "6"),
                  always_trump=frozenset({WELI}))
BID_LIMIT = 5        # MULAT-BID-7: at or below this score a player may only pass
STAY_LIMIT = 3       # MULAT-STAY-3 / MULAT-EXCH-1
BREACH_RULES: dict[BreachKind, str] = {"follow": "MULAT-PLAY-3", "trump": "MULAT-PLAY-4", "head": "MULAT-PLAY-5"}
_REVOKE = {"type": "revoke"}  # a proposal's JSON has always said what it is about

Phase = Literal["cut", "bidding", "trump", "stay", "exchange", "play", "review", "tally", "over"]
Plays = tuple[tuple[tuple[int, Card], ...], ...]


def M(template: str, **params: Any) -> Msg:  # noqa: N802 - the engine's message marker (pybabel -k M)
    """A Mulatschak message: the cards in it are named the German pack's way."""
    return Msg(template, params, "german")


# --- value objects ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Opts:
    pack36: bool = False
    no_stichzwang: bool = False
    muli_breaker: bool = False
    stayhome_flat: bool = False
    stayhome_free: bool = False
    allpass_redeal: bool = False
    collapse_optional: bool = False
    collapse_cap: bool = False
    no_knock: bool = False
    exch_limit: int = 5
    reshuffle: bool = False
    hold_muli: bool = False
    weli_weak: bool = False

    @property
    def pack_size(self) -> int:
        return 36 if self.pack36 else 33

    @property
    def duties(self) -> Obligations:
        return _DUTIES[not self.no_stichzwang]


@dataclass(frozen=True, slots=True)
class Call:
    """One thing said in the bidding: ``bid`` n, ``pass``, ``hold`` (mit mir) or ``muli`` out of turn."""

    player: int
    call: str
    tricks: int = 0

    def to_json(self) -> JSON:
        return {"player": self.player, "call": self.call, "tricks": self.tricks}


@dataclass(frozen=True, slots=True)
class Exchange:
    player: int
    kind: str          # normal | sight | bridge | sau | seven | trump (the delayed-trump exchange)
    thrown: int        # cards of the hand given up (what MULAT-OPT-EXCH-LIMIT counts)
    drawn: int         # stock cards used
    face_up: tuple[Card, ...] = ()
    kept: bool | None = None
    served: bool = True

    def to_json(self) -> JSON:
        return {"player": self.player, "kind": self.kind, "thrown": self.thrown, "drawn": self.drawn,
                "face_up": [str(c) for c in self.face_up], "kept": self.kept, "served": self.served}


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the sheet: a scored deal (or a thrown-in one, all zeros)."""

    deal: int
    dealer: int
    declarer: int | None
    bid: int
    forced: bool
    trump: str | None
    causes: tuple[str, ...]
    home: tuple[int, ...]
    tricks: tuple[int | None, ...]
    revokes: tuple[int, ...]
    breaker: int | None
    changes: tuple[int, ...]
    totals: tuple[int, ...]
    note: str = ""

    @property
    def multiplier(self) -> int:
        return 1 << len(self.causes)

    @property
    def made(self) -> bool | None:
        if self.declarer is None:
            return None
        took = self.tricks[self.declarer] or 0
        return took >= self.bid and self.declarer not in self.revokes

    def to_json(self) -> JSON:
        return {"deal": self.deal, "dealer": self.dealer, "declarer": self.declarer, "bid": self.bid,
                "muli": self.bid == 5, "forced": self.forced, "trump": self.trump,
                "multiplier": self.multiplier, "causes": list(self.causes), "home": list(self.home),
                "tricks": list(self.tricks), "revokes": list(self.revokes), "breaker": self.breaker,
                "made": self.made, "changes": list(self.changes), "totals": list(self.totals),
                "note": self.note}


_PLAYING = frozenset({"declarer", "play"})
# Follow suit, trump when void, and (unless no_stichzwang) beat the card winning: made once.
_DUTIES = {head: Obligations(ORDER, must_follow=True, must_trump=True, must_head=head) for head in (True, False)}


@dataclass(frozen=True)  # no slots: evolve copies it as one dict
class Deal:
    number: int
    dealer: int
    players: int
    collapses: int                     # collapse factors carried into this deal (MULAT-SCORE-2)
    stock: int
    phase: Phase = "cut"
    to_act: int | None = None
    cut: str | None = None             # "cut" | "knock" once done
    weli_to: int | None = None
    calls: tuple[Call, ...] = ()
    high: int = 0
    high_bidder: int | None = None
    passed: tuple[int, ...] = ()
    duel: tuple[int, int] | None = None  # (dealer, displaced bidder)
    declarer: int | None = None
    contract: int = 0
    forced: bool = False
    muli_out_of_turn: bool = False
    trump: str | None = None
    decisions: tuple[str | None, ...] = ()   # per seat: declarer | play | home | None
    stay_order: tuple[int, ...] = ()
    discards: int = 0
    reserved: int = 0                  # stock cards held back for announced Bridges
    exchanges: tuple[Exchange, ...] = ()
    exch_queue: tuple[int, ...] = ()
    bridge_queue: tuple[int, ...] = ()
    tricks: Plays = ()
    leader: int | None = None
    owners: tuple[tuple[Card, int], ...] = ()   # seen cards: holder (or who threw it away); -1 out of play
    # seen cards a reshuffle put back into play: who may hold them now (their last holder, and
    # every player who drew from the new stock); a later owner above overrides
    reach: tuple[tuple[Card, tuple[int, ...]], ...] = ()
    hands: tuple[tuple[Card, ...] | None, ...] = ()  # entered hands, as entered

    # -- derived facts --
    @property
    def forehand(self) -> int:
        return (self.dealer + 1) % self.players

    @property
    def cutter(self) -> int:
        return (self.dealer - 1) % self.players

    @property
    def muli(self) -> bool:
        return self.contract == 5

    @property
    def active(self) -> tuple[int, ...]:
        return tuple(compress(range(self.players), map(_PLAYING.__contains__, self.decisions)))

    @property
    def causes(self) -> tuple[str, ...]:
        return doubling_causes(self.trump, self.collapses, self.cut == "knock")

    def owner(self, card: Card) -> int | None:
        for seen, holder in self.owners:
            if seen == card:
                return holder
        return None

    def with_owner(self, card: Card, holder: int) -> Deal:
        rest = tuple((c, h) for c, h in self.owners if c != card)
        return evolve(self, owners=rest + ((card, holder),))

    def played_by(self, player: int) -> list[Card]:
        return [card for trick in self.tricks for seat, card in trick if seat == player]

    def all_played(self) -> list[Card]:
        return [card for trick in self.tricks for _, card in trick]

    def current_hand(self, player: int) -> list[Card] | None:
        entered = self.hands[player] if self.hands else None
        if entered is None:
            return None
        played = self.played_by(player)
        return [c for c in entered if c not in played]

    def tricks_won(self) -> list[int]:
        won = [0] * self.players
        size = len(self.active)
        for index, trick in enumerate(self.tricks):
            if len(trick) == size:
                won[self.trick_winner(index)] += 1
        return won

    def trick_winner(self, index: int) -> int:
        trick = self.tricks[index]
        return trick_winner([c for _, c in trick], trick[0][0], self.trump, ORDER, seats=self.active)


@dataclass(frozen=True)  # no slots: evolve copies it as one dict
class MulState:
    players: tuple[str, ...]
    opts: Opts
    mode: Mode
    scores: tuple[int, ...]
    dealer: int
    deal: Deal | None = None
    sheet: tuple[Row, ...] = ()
    proposals: tuple[Proposal, ...] = ()
    next_id: int = 1
    winner: tuple[int, ...] = ()
    scored: tuple[Scored, ...] = ()

    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def over(self) -> bool:
        return bool(self.winner)


# --- pure helpers ----------------------------------------------------------------------------


def doubling_causes(trump: str | None, collapses: int, knocked: bool) -> tuple[str, ...]:
    """What doubles a deal (MULAT-SCORE-2), in the sheet's order: Herz trumps, each collapse, a knock."""
    causes: list[str] = []
    if trump == "H":
        causes.append("hearts")
    causes.extend(["collapse"] * collapses)
    if knocked:
        causes.append("knock")
    return tuple(causes)


def _clockwise(start: int, n: int) -> list[int]:
    return [(start + k) % n for k in range(n)]


def _is_trump(card: Card, trump: str) -> bool:
    return suit_of(card, trump, ORDER) == trump


# --- state-building helpers -------------------------------------------------------------------


def _fresh_deal(state: MulState, number: int, dealer: int, collapses: int) -> Deal:
    n = state.n
    return Deal(number=number, dealer=dealer, players=n, collapses=collapses,
                stock=state.opts.pack_size - 5 * n, to_act=(dealer - 1) % n, hands=(None,) * n,
                decisions=(None,) * n)


def _deal(state: MulState) -> Deal:
    assert state.deal is not None
    return state.deal
