"""Mousel's state: options, the deal and its tricks, the session's ledger; small helpers that move it on."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from scorekeeper.cards import Card, parse_card
from scorekeeper.engine.core import (
    JSON,
    MalformedEvent,
    Mode,
    Proposal,
    RuleViolation,
    Scored,
    evolve,
    quick_init,
)
from scorekeeper.engine.messages import M, Msg
from scorekeeper.engine.tricks import Obligations, RankOrder
from scorekeeper.engine.tricks.ledger import Book, Transfer

RANKS_32: tuple[str, ...] = ("A", "K", "Q", "J", "10", "9", "8", "7")
RANKS_52: tuple[str, ...] = RANKS_32 + ("6", "5", "4", "3", "2")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
ORDER_32 = RankOrder(RANKS_32)
ORDER_52 = RankOrder(RANKS_52)
# MOUSEL-PLAY-2/3 (AMB-9): follow suit; trumping and heading are optional.
OBLIGATIONS_32 = Obligations(ORDER_32, must_follow=True, must_trump=False, must_head=False)
OBLIGATIONS_52 = Obligations(ORDER_52, must_follow=True, must_trump=False, must_head=False)

Phase = Literal["turn_up", "offer", "exchange", "discard", "play", "review"]
Status = Literal["in", "left", "bust"]


def phase_name(phase: str) -> Msg:
    """A phase as a refusal names it to the players ("not possible now (phase: …)"): in their
    words, never the id ("turn_up"), which would stand in English inside Swedish and German."""
    names = {
        "turn_up": M("turning up the trump card"),
        "offer": M("the turned-up card is being offered round"),
        "exchange": M("exchanging cards"),
        "discard": M("the taker throws away his extra card"),
        "play": M("playing the tricks"),
        "review": M("settling the revoke proposals"),
        "between_deals": M("between deals"),
        "ended": M("the session is over"),
    }
    return names.get(phase, M("another step of the deal"))

# --- State ------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Opts:
    pack52: bool = False
    last_in_order: bool = False
    reshuffle: bool = False
    keep_trumpcard: bool = False
    dealer_must_take: bool = False
    round_largest: bool = False
    bust: bool = False
    stack: int = 20
    end_refund: bool = False
    end_lastdeal: bool = False

    @property
    def pack_size(self) -> int:
        return 52 if self.pack52 else 32

    @property
    def order(self) -> RankOrder:
        return ORDER_52 if self.pack52 else ORDER_32

    @property
    def obligations(self) -> Obligations:
        return OBLIGATIONS_52 if self.pack52 else OBLIGATIONS_32


@quick_init  # one a trick
@dataclass(frozen=True, slots=True)
class Trick:
    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int

    def to_json(self) -> JSON:
        return {"leader": self.leader, "cards": [{"player": p, "card": str(c)} for p, c in self.plays],
                "winner": self.winner}


@quick_init  # a card played makes one: its dict set at once, not a field at a time
@dataclass(frozen=True)
class Play:
    """The trick-play part of a deal; small because it changes with every card."""

    active: tuple[int, ...]  # seats in play, in seat order
    leader: int
    current: tuple[tuple[int, Card], ...] = ()
    tricks: tuple[Trick, ...] = ()
    won: tuple[int, ...] = ()  # per seat of the table
    seen: frozenset[Card] = frozenset()
    # per seat: suits it has failed to follow, so the audit runs only when it can find something
    failed: tuple[frozenset[str], ...] = ()
    proposals: tuple[Proposal, ...] = ()

    @property
    def to_act(self) -> int:
        if not self.current:
            return self.leader
        return _after(self.active, self.current[-1][0])


@quick_init
@dataclass(frozen=True)  # no slots: evolve copies it as one dict
class Deal:
    number: int
    dealer: int
    ring: tuple[int, ...]  # seats taking part, clockwise from the dealer's left (dealer last)
    pot: int  # P: antes plus what was carried over; nothing moves until the settlement
    last: bool
    phase: Phase
    stock: int
    looked: bool = False  # the dealer has looked at his hand
    looked_by_event: bool = False
    turns: int = 0  # cards turned up this deal
    turned: Card | None = None
    blind: bool = False  # the dealer may still take the turned card at once (TRUMP-2)
    offer: tuple[int, ...] = ()  # seats still to be asked, in order
    set_aside: tuple[Card, ...] = ()
    taker: int | None = None
    trump_card: Card | None = None
    must_play: int | None = None  # O of MOUSEL-EXCH-3
    order: tuple[int, ...] = ()  # decision order for exchanges
    decisions: tuple[tuple[int, int | None], ...] = ()  # (seat, cards exchanged or None = folded)
    pile: int = 0  # cards thrown away and not yet reshuffled
    reshuffles: int = 0
    # seats besides the taker that may hold the turned-up card: they drew from the stock the
    # taker's thrown-away cards were reshuffled into, before that stock ran out
    trump_reach: tuple[int, ...] = ()

    @property
    def n(self) -> int:
        return len(self.ring)

    @property
    def folded(self) -> tuple[int, ...]:
        return tuple(seat for seat, count in self.decisions if count is None)

    def may_hold_trump_card(self, seat: int) -> bool:
        """Can ``seat`` hold the turned-up card? The taker, unless he threw away his whole hand
        (he decides first, so he can never draw it back), and the seats of ``trump_reach``."""
        if seat in self.trump_reach:
            return True
        if seat != self.taker:
            return False
        return not any(s == seat and count == self.n + 1 for s, count in self.decisions)

    def to_act(self) -> int | None:
        if self.phase == "turn_up":
            return self.dealer
        if self.phase == "offer":
            return self.dealer if self.blind else self.offer[0]
        if self.phase == "exchange":
            return self.order[len(self.decisions)]
        if self.phase == "discard":
            return self.taker
        return None


@quick_init
@dataclass(frozen=True)
class Settlement:
    """One row of the per-deal sheet."""

    deal: int
    dealer: int
    pot: int
    hand_size: int
    void: bool
    taker: int | None
    seats: tuple[int, ...]
    folded: tuple[int, ...]
    tricks: tuple[int, ...]  # per seat of the table
    shares: tuple[int, ...]
    penalties: tuple[int, ...]  # actually paid
    penalties_due: tuple[int, ...]
    revokers: tuple[int, ...]
    leftover: int
    next_pot: int  # leftover + penalties + the next antes
    busted: tuple[int, ...]
    last: bool

    def to_json(self) -> JSON:
        return {
            "deal": self.deal, "dealer": self.dealer, "pot": self.pot, "hand_size": self.hand_size,
            "value_per_trick": _per_trick(self.pot, self.hand_size), "void": self.void,
            "taker": self.taker, "seats": list(self.seats), "folded": list(self.folded),
            "tricks": list(self.tricks), "shares": list(self.shares), "penalties": list(self.penalties),
            "penalties_due": list(self.penalties_due), "revokers": list(self.revokers),
            "leftover": self.leftover, "next_pot": self.next_pot, "busted": list(self.busted),
            "last": self.last,
        }


@dataclass(frozen=True, slots=True)
class EndReport:
    split: tuple[int, ...]  # tokens each player received from the pot at the end
    unallocated: int
    standings: tuple[tuple[int, int], ...]  # (player, balance), best first
    transfers: tuple[Transfer, ...]  # party len(players) is the pot (unallocated tokens)

    def to_json(self, players: int) -> JSON:
        def party(p: int) -> int | str:
            return "pot" if p == players else p
        return {
            "split": list(self.split), "unallocated": self.unallocated,
            "standings": [{"player": p, "balance": b} for p, b in self.standings],
            "settle_up": [{"from": party(t.payer), "to": party(t.payee), "amount": t.amount}
                          for t in self.transfers],
        }


@quick_init
@dataclass(frozen=True)  # no slots: evolve copies it as one dict
class Session:
    """What outlives a deal: the ledger, who is still at the table, the sheet."""

    book: Book
    status: tuple[Status, ...]
    next_dealer: int | None = None  # None until the first deal names (or defaults) one
    deals: int = 0  # deals started, void ones included
    sheet: tuple[Settlement, ...] = ()
    history: tuple[tuple[int, int, tuple[int, ...]], ...] = ()  # (deal, pot, balances)
    pot_payers: tuple[int, ...] = ()  # penalties now in the pot, per seat (MOUSEL-OPT-END-REFUND)
    last_announced: bool = False
    end: EndReport | None = None


@quick_init  # a replay makes one per event
@dataclass(frozen=True)  # no slots: evolve copies it as one dict
class MouselState:
    # Few fields on purpose: a card played rebuilds this object and ``play`` only.
    players: tuple[str, ...]
    opts: Opts
    mode: Mode
    session: Session
    deal: Deal | None = None
    # The tricks of the deal on (kept after it, until the next deal, for the screens).
    play: Play | None = None
    scored: tuple[Scored, ...] = ()

    @property
    def book(self) -> Book:
        return self.session.book

    @property
    def status(self) -> tuple[Status, ...]:
        return self.session.status

    @property
    def next_dealer(self) -> int | None:
        return self.session.next_dealer

    @property
    def deals(self) -> int:
        return self.session.deals

    @property
    def sheet(self) -> tuple[Settlement, ...]:
        return self.session.sheet

    @property
    def history(self) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
        return self.session.history

    @property
    def pot_payers(self) -> tuple[int, ...]:
        return self.session.pot_payers

    @property
    def last_announced(self) -> bool:
        return self.session.last_announced

    @property
    def end(self) -> EndReport | None:
        return self.session.end

    @property
    def over(self) -> bool:
        return self.end is not None

    @property
    def seated(self) -> tuple[int, ...]:
        return tuple(i for i, s in enumerate(self.status) if s == "in")

    @property
    def balances(self) -> tuple[int, ...]:
        return self.book.balances

    @property
    def pot(self) -> int:
        return self.book.pot

    @property
    def phase(self) -> str:
        if self.end is not None:
            return "ended"
        if self.deal is None:
            return "between_deals"
        return self.deal.phase

    def to_act(self) -> int | None:
        if self.end is not None:
            return None
        if self.deal is None:
            return self.next_dealer if self.mode == "adjudicate" else None
        if self.deal.phase == "play" and self.play is not None:
            return self.play.to_act
        return self.deal.to_act()


# --- Small helpers ----------------------------------------------------------------------------

_STATE_FIELDS = frozenset({"players", "opts", "mode", "session", "deal", "play", "scored"})


def _with(state: MouselState, **changes: Any) -> MouselState:
    """The state with ``changes``; session fields (``book``, ``status``, …) go to the session."""
    fields = state.__dict__.copy()
    session: dict[str, Any] = {}
    for key, value in changes.items():
        (fields if key in _STATE_FIELDS else session)[key] = value
    if session:
        fields["session"] = evolve(state.session, **session)
    return MouselState(**fields)


def _with_deal(state: MouselState, deal: Deal) -> MouselState:
    """The state with the deal moved on and nothing scored: most events of a deal end here."""
    return MouselState(state.players, state.opts, state.mode, state.session, deal, state.play)


def _after(ring: Sequence[int], seat: int) -> int:
    return ring[(ring.index(seat) + 1) % len(ring)]


def _rotate(ring: Sequence[int], first: int) -> tuple[int, ...]:
    start = ring.index(first)
    return tuple(ring[start:]) + tuple(ring[:start])


def _per_trick(pot: int, n: int) -> int | float:
    if n == 0:
        return 0
    return pot // n if pot % n == 0 else round(pot / n, 2)


def _seat_ring(status: Sequence[Status], dealer: int) -> tuple[int, ...]:
    """Seated players clockwise from the dealer's left, the dealer last."""
    count = len(status)
    return tuple(s for s in ((dealer + k) % count for k in range(1, count + 1)) if status[s] == "in")


def _next_seated(status: Sequence[Status], seat: int) -> int:
    count = len(status)
    for k in range(1, count + 1):
        s = (seat + k) % count
        if status[s] == "in":
            return s
    return seat


# The cards read so far by spelling, per pack (32, 52): a dict each, so a card played is one lookup.
_CARD_CACHE: tuple[dict[str, Card], dict[str, Card]] = ({}, {})


def _card(event: Mapping[str, Any], opts: Opts, key: str = "card") -> Card:
    """The event's card, read once per spelling; a card outside the pack in use is MOUSEL-COMP-1."""
    text = event.get(key)
    if text is None:
        raise MalformedEvent(M("the event needs %(key)s", key=repr(key)), event)
    cache = _CARD_CACHE[opts.pack52]
    if isinstance(text, str):
        hit = cache.get(text)
        if hit is not None:
            return hit
    card = parse_card(text, "french")
    ranks = RANKS_52 if opts.pack52 else RANKS_32
    if card.rank not in ranks:
        raise RuleViolation("MOUSEL-COMP-1", M("%(card)s is not in the 52-card pack", card=card) if opts.pack52
                            else M("%(card)s is not in the 32-card pack (7 to Ace)", card=card), card=str(card))
    if isinstance(text, str) and len(cache) < 4096:
        cache[text] = card
    return card
