"""Mousel: a Rams-family pot game (rules/mousel.md). Antes, a turned-up trump, exchanges or
folds, tricks, and a pot shared in proportion to tricks with penalties into the next pot.

The session is open-ended, so the state is a token ledger (:mod:`scorekeeper.engine.ledger`)
plus, while a deal is on, a :class:`Deal`. Hands are hidden: the engine counts cards (stock,
hand sizes) and checks every card it is shown; follow-suit is audited retroactively
(rules README §4) and a proven revoke becomes a *proposal* the table confirms or dismisses.

Adjudicate-mode events: ``deal``, ``look``, ``turn_up``, ``take``, ``refuse``, ``exchange``,
``fold``, ``discard``, ``play``, ``confirm``, ``dismiss``, ``leave``, ``end_session``
(``confirm_revoke``/``dismiss_revoke`` with ``id`` are aliases: :mod:`.vocabulary`).
Tally mode: ``deal_result``, ``leave``, ``end_session``.
See docs/api.md, section Mousel.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any, ClassVar, Literal, TypeVar

from scorekeeper.cards import Card, parse_card
from scorekeeper.engine.base import (
    JSON,
    BaseRules,
    Event,
    MalformedEvent,
    Mode,
    OptionSpec,
    Outcome,
    RuleViolation,
    Scored,
    SetupError,
    common_json,
    int_field,
)
from scorekeeper.engine.ledger import POT, Book, Entry, Transfer, settle_up
from scorekeeper.engine.messages import M, Msg, Suit
from scorekeeper.engine.tricks import Obligations, RankOrder, audit_revokes, trick_winner
from scorekeeper.engine.vocabulary import canonical

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

ADJUDICATE_EVENTS = frozenset({
    "deal", "look", "turn_up", "take", "refuse", "exchange", "fold", "discard", "play",
    "confirm", "dismiss", "leave", "end_session",
})
TALLY_EVENTS = frozenset({"deal_result", "leave", "end_session"})


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


@dataclass(frozen=True, slots=True)
class Trick:
    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int

    def to_json(self) -> JSON:
        return {"leader": self.leader, "cards": [{"player": p, "card": str(c)} for p, c in self.plays],
                "winner": self.winner}


@dataclass(frozen=True, slots=True)
class Proposal:
    """A proven breach found from later plays; the table confirms or dismisses it."""

    id: int
    player: int
    rule: str
    kind: Literal["revoke", "trumpcard"]
    trick: int  # 1-based
    card: Card
    evidence: Card | None
    evidence_trick: int | None
    led_suit: str | None
    message: str
    status: Literal["pending", "confirmed", "dismissed"] = "pending"

    def to_json(self) -> JSON:
        return {
            "id": self.id, "player": self.player, "rule": self.rule, "kind": self.kind,
            "trick": self.trick, "card": str(self.card),
            "evidence": None if self.evidence is None else str(self.evidence),
            "evidence_trick": self.evidence_trick, "led_suit": self.led_suit,
            "message": self.message, "status": self.status,
        }


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
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
    # seats besides the taker that may hold the turned-up card: they drew from a stock into
    # which the taker's thrown-away cards had been reshuffled
    trump_reach: tuple[int, ...] = ()

    @property
    def n(self) -> int:
        return len(self.ring)

    @property
    def folded(self) -> tuple[int, ...]:
        return tuple(seat for seat, count in self.decisions if count is None)

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


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
class MouselState:
    # Few fields on purpose: a card played rebuilds this object and ``play`` only (see ``_evolve``).
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

_T = TypeVar("_T")
_SHAPES: dict[type, tuple[Callable[[Any], tuple[Any, ...]], dict[str, int]]] = {}


def _evolve(obj: _T, **changes: Any) -> _T:
    """``dataclasses.replace`` for our frozen dataclasses, about five times faster.

    A whole session is replayed from its events on a cold cache (DESIGN §1), a card per event,
    and ``replace`` was most of that time. Same contract: a new object, the old one untouched.
    """
    cls = type(obj)
    shape = _SHAPES.get(cls)
    if shape is None:
        names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
        shape = _SHAPES[cls] = (attrgetter(*names), {name: i for i, name in enumerate(names)})
    getter, index = shape
    values = list(getter(obj))
    for name, value in changes.items():
        values[index[name]] = value
    return cls(*values)


_STATE_FIELDS = frozenset({"players", "opts", "mode", "session", "deal", "play", "scored"})


def _with(state: MouselState, **changes: Any) -> MouselState:
    """The state with ``changes``; session fields (``book``, ``status``, …) go to the session."""
    if changes.keys() <= _STATE_FIELDS:  # the common case: a card, a decision
        return _evolve(state, **changes)
    own = {k: v for k, v in changes.items() if k in _STATE_FIELDS}
    own["session"] = _evolve(state.session, **{k: v for k, v in changes.items() if k not in _STATE_FIELDS})
    return _evolve(state, **own)


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


_CARD_CACHE: dict[tuple[str, bool], Card] = {}


def _card(event: Mapping[str, Any], opts: Opts, key: str = "card") -> Card:
    """The event's card, read once per spelling; a card outside the pack in use is MOUSEL-COMP-1."""
    text = event.get(key)
    if text is None:
        raise MalformedEvent(M("the event needs %(key)s", key=repr(key)), event)
    if isinstance(text, str):
        hit = _CARD_CACHE.get((text, opts.pack52))
        if hit is not None:
            return hit
    card = parse_card(text, "french")
    ranks = RANKS_52 if opts.pack52 else RANKS_32
    if card.rank not in ranks:
        raise RuleViolation("MOUSEL-COMP-1", M("%(card)s is not in the 52-card pack", card=card) if opts.pack52
                            else M("%(card)s is not in the 32-card pack (7 to Ace)", card=card), card=str(card))
    if isinstance(text, str) and len(_CARD_CACHE) < 4096:
        _CARD_CACHE[(text, opts.pack52)] = card
    return card


def _player(event: Mapping[str, Any], count: int) -> int:
    value = event.get("player")
    if type(value) is int and 0 <= value < count:
        return value
    return int_field(event, "player", minimum=0, maximum=count - 1)


def _bool(event: Mapping[str, Any], key: str) -> bool:
    value = event.get(key, False)
    if not isinstance(value, bool):
        raise MalformedEvent(M("%(key)s must be true or false, not %(value)s", key=repr(key), value=repr(value)), event)
    return value


def _seat_list(event: Mapping[str, Any], key: str, count: int) -> tuple[int, ...]:
    value = event.get(key, [])
    if not isinstance(value, list) or any(isinstance(v, bool) or not isinstance(v, int) for v in value):
        raise MalformedEvent(M("%(key)s must be a list of seat numbers", key=repr(key)), event)
    if any(not 0 <= v < count for v in value):
        raise MalformedEvent(M("%(key)s names a seat outside 0..%(value)s", key=repr(key), value=count - 1), event)
    if len(set(value)) != len(value):
        raise MalformedEvent(M("%(key)s names a seat twice", key=repr(key)), event)
    return tuple(sorted(value))


# --- Settlement (shared by both modes) --------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _Split:
    shares: tuple[int, ...]
    due: tuple[int, ...]
    leftover: int


def split_pot(pot: int, n: int, taker: int, active: Sequence[int], tricks: Sequence[int],
              revokers: Sequence[int] = (), *, round_largest: bool = False,
              penalties: bool = True) -> _Split:
    """Shares and penalties due for one deal (MOUSEL-POT-1…8); pure, per seat of the table.

    ``active`` are the seats that played, ``tricks`` is per seat (Σ over ``active`` = ``n``).
    """
    seats = len(tricks)
    exact = [pot * tricks[s] for s in range(seats)]
    shares = [exact[s] // n if s in active else 0 for s in range(seats)]
    if round_largest:
        # MOUSEL-OPT-ROUND-LARGEST: hand the remainder out by largest fraction, ties to the
        # taker and then clockwise from him.
        spare = pot - sum(shares)
        ring = _rotate(sorted(active), taker)
        ranked = sorted(ring, key=lambda s: (-(exact[s] % n), ring.index(s)))
        for s in ranked[:spare]:
            if exact[s] % n:
                shares[s] += 1
    for s in revokers:  # MOUSEL-POT-8: the offender's share stays in the pot
        shares[s] = 0
    due = [0] * seats
    if penalties:
        for s in active:
            if s in revokers:
                due[s] = 2 * pot if s == taker else pot
            elif s == taker:
                due[s] = 2 * pot if tricks[s] == 0 else pot if tricks[s] == 1 else 0
            elif tricks[s] == 0:
                due[s] = pot
    return _Split(tuple(shares), tuple(due), pot - sum(shares))


def _penalty_rule(seat: int, taker: int | None, revokers: Sequence[int]) -> str:
    if seat in revokers:
        return "MOUSEL-POT-8"
    return "MOUSEL-POT-4" if seat == taker else "MOUSEL-POT-5"


# --- The rules --------------------------------------------------------------------------------

class Mousel(BaseRules):
    id: ClassVar[str] = "mousel"
    name: ClassVar[str] = "Mousel"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 7
    player_rule: ClassVar[str | None] = "MOUSEL-COMP-3"
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("52", False, "MOUSEL-OPT-52", "Full 52-card pack (needed for 6 or 7 players)"),
        OptionSpec("last_in_order", False, "MOUSEL-OPT-LAST-IN-ORDER",
                   "The player who must play is the taker's right-hand neighbour; no deferred turn"),
        OptionSpec("reshuffle", False, "MOUSEL-OPT-RESHUFFLE",
                   "Reshuffle the thrown-away cards when the stock runs out during exchanges"),
        OptionSpec("keep_trumpcard", False, "MOUSEL-OPT-KEEP-TRUMPCARD",
                   "The taker may not throw away the turned-up trump card"),
        OptionSpec("dealer_must_take", False, "MOUSEL-OPT-DEALER-MUST-TAKE",
                   "The dealer must accept the last card of the stock (no void deals)"),
        OptionSpec("round_largest", False, "MOUSEL-OPT-ROUND-LARGEST",
                   "Uneven shares: remainders by largest fraction instead of carried over"),
        OptionSpec("bust", False, "MOUSEL-OPT-BUST", "A player who cannot pay in full is out"),
        OptionSpec("stack", 20, "MOUSEL-OPT-BUST", "Tokens each player brings (with the bust rule)",
                   kind="int", minimum=1, maximum=100_000),
        OptionSpec("end_refund", False, "MOUSEL-OPT-END-REFUND",
                   "At the end the pot goes back to whoever paid the last penalties"),
        OptionSpec("end_lastdeal", False, "MOUSEL-OPT-END-LASTDEAL",
                   "The last deal is announced and played without penalties"),
    )

    # ---- set-up

    def new(self, players: Sequence[str], options: Mapping[str, Any], mode: Mode = "adjudicate") -> MouselState:
        self.check_players(players)
        if options.get("teams") if isinstance(options, Mapping) else False:
            raise SetupError("MOUSEL-COMP-3", M("Mousel has no partnerships"))
        raw = self.parse_options(options, len(players))
        opts = Opts(pack52=raw["52"], last_in_order=raw["last_in_order"], reshuffle=raw["reshuffle"],
                    keep_trumpcard=raw["keep_trumpcard"], dealer_must_take=raw["dealer_must_take"],
                    round_largest=raw["round_largest"], bust=raw["bust"], stack=raw["stack"],
                    end_refund=raw["end_refund"], end_lastdeal=raw["end_lastdeal"])
        n = len(players)
        if n * n + 1 > opts.pack_size:
            raise SetupError("MOUSEL-COMP-3",
                             M("%(n)s players need %(value)s cards plus a turn-up; the 32-card pack has 32 (use the 52-card pack option for 6 or 7 players)", n=n, value=n * n), players=n)
        if mode not in ("adjudicate", "tally"):
            raise SetupError(None, M("unknown mode %(mode)s", mode=repr(mode)))
        book = Book.opening(n)
        seated: Status = "in"
        status: tuple[Status, ...] = (seated,) * n
        session = Session(book, status, history=((0, 0, book.balances),), pot_payers=(0,) * n)
        return MouselState(tuple(players), opts, mode, session)

    # ---- events

    def apply(self, state: MouselState, event: Mapping[str, Any]) -> MouselState:
        if type(event) is not dict and not isinstance(event, Mapping):
            raise MalformedEvent(M("an event must be an object"), event)
        event = canonical(self.id, event)
        kind = event.get("type")
        allowed = ADJUDICATE_EVENTS if state.mode == "adjudicate" else TALLY_EVENTS
        if not isinstance(kind, str) or kind not in allowed:
            raise MalformedEvent(M("Mousel in %(mode)s mode has no %(kind)s event (events: %(value)s)", mode=state.mode, kind=repr(kind), value=', '.join(sorted(allowed))), event)
        if state.end is not None:
            raise RuleViolation("MOUSEL-END-2", M("the session has ended; undo to reopen it"))
        handler = _HANDLERS[kind]
        return handler(state, event)

    def outcome(self, state: MouselState) -> Outcome | None:
        if state.end is None:
            return None
        return Outcome(_leaders(state), M("the session has ended; best balance wins"), "MOUSEL-END-2")

    def hints(self, state: MouselState) -> list[Event]:
        return _hints(state)

    def to_json(self, state: MouselState) -> JSON:
        return _to_json(state)

    def describe(self, event: Mapping[str, Any], players: Sequence[str]) -> str:
        return _describe(canonical(self.id, event), players)


# --- Handlers: between deals -----------------------------------------------------------------

def _no_deal(state: MouselState, what: Msg) -> None:
    if state.deal is not None:
        raise RuleViolation("MOUSEL-END-2", M("%(what)s only between deals; deal %(number)s is on", what=what, number=state.deal.number))


def _start(state: MouselState, event: Mapping[str, Any]) -> tuple[int, bool]:
    """Checks shared by ``deal`` and ``deal_result``: the dealer and the last-deal flag."""
    count = len(state.players)
    expected = state.next_dealer
    if "dealer" in event and event["dealer"] is not None:
        dealer = int_field(event, "dealer", minimum=0, maximum=count - 1)
        if expected is not None and dealer != expected:
            raise RuleViolation("MOUSEL-DEAL-3",
                                M("the deal passes clockwise: %(player)s deals, not %(player2)s", player=state.players[expected], player2=state.players[dealer]), expected=expected, dealer=dealer)
        if state.status[dealer] != "in":
            raise RuleViolation("MOUSEL-DEAL-3", M("%(player)s is no longer at the table", player=state.players[dealer]))
    else:
        dealer = expected if expected is not None else state.seated[0]
    last = _bool(event, "last")
    if last and not state.opts.end_lastdeal:
        raise RuleViolation("MOUSEL-OPT-END-LASTDEAL",
                            M("announcing a last deal is a house rule this table does not play"))
    return dealer, last


def _antes(state: MouselState, number: int, ring: Sequence[int]) -> Book:
    return state.book.post(Entry(number, "ante", seat, POT, 1, "MOUSEL-DEAL-1", "ante") for seat in ring)


def _on_deal(state: MouselState, event: Mapping[str, Any]) -> MouselState:
    _no_deal(state, M("a new deal starts"))
    dealer, last = _start(state, event)
    ring = _seat_ring(state.status, dealer)
    number = state.deals + 1
    book = _antes(state, number, ring)
    n = len(ring)
    deal = Deal(number=number, dealer=dealer, ring=ring, pot=book.pot, last=last, phase="turn_up",
                stock=state.opts.pack_size - n * n)
    scored = tuple(Scored(seat, -1, "ante", "MOUSEL-DEAL-1") for seat in ring)
    return _with(state, book=book, deal=deal, play=None, deals=number, next_dealer=dealer,
                 last_announced=state.last_announced or last, scored=scored)


def _on_leave(state: MouselState, event: Mapping[str, Any]) -> MouselState:
    player = _player(event, len(state.players))
    _no_deal(state, M("a player leaves"))
    if state.status[player] != "in":
        raise RuleViolation("MOUSEL-POT-3", M("%(player)s has already left", player=state.players[player]))
    if len(state.seated) <= 2:
        raise RuleViolation("MOUSEL-COMP-3", M("Mousel needs at least two players; end the session instead"))
    status = tuple("left" if i == player else s for i, s in enumerate(state.status))
    next_dealer = state.next_dealer
    if next_dealer == player:  # the deal passes on to the next player still at the table
        next_dealer = _next_seated(status, player)
    return _with(state, status=status, next_dealer=next_dealer, scored=())


def _on_end(state: MouselState, event: Mapping[str, Any]) -> MouselState:
    _no_deal(state, M("the session stops"))
    return _finish(state, state.deals)


def _finish(state: MouselState, number: int) -> MouselState:
    """MOUSEL-END-2: the pot is split (or refunded), standings and a settle-up are drawn."""
    count = len(state.players)
    pot = state.pot
    entries: list[Entry] = []
    paid = [0] * count
    if state.opts.end_refund and sum(state.pot_payers) > 0:
        total = sum(state.pot_payers)
        for seat, amount in enumerate(state.pot_payers):
            back = pot * amount // total
            if back:
                paid[seat] += back
                entries.append(Entry(number, "end_refund", POT, seat, back, "MOUSEL-OPT-END-REFUND",
                                     M("refund of the last penalties")))
    rest = pot - sum(paid)
    seated = state.seated or tuple(range(count))
    each = rest // len(seated)
    if each:
        for seat in seated:
            paid[seat] += each
            entries.append(Entry(number, "end_split", POT, seat, each, "MOUSEL-END-2", M("end-of-session split")))
    book = state.book.post(entries)
    standings = tuple(sorted(enumerate(book.balances), key=lambda pb: (-pb[1], pb[0])))
    transfers = tuple(settle_up(list(book.balances) + [book.pot]))
    report = EndReport(tuple(paid), book.pot, standings, transfers)
    scored = tuple(Scored(seat, amount, "end split", "MOUSEL-END-2") for seat, amount in enumerate(paid) if amount)
    return _with(state, book=book, end=report, deal=None, play=None, scored=scored)


# --- Handlers: the turn-up --------------------------------------------------------------------

def _need_deal(state: MouselState, phases: tuple[str, ...], rule: str, what: Msg) -> Deal:
    deal = state.deal
    if deal is None or deal.phase not in phases:
        now = state.phase.replace("_", " ")
        raise RuleViolation(rule, M("%(what)s is not possible now (phase: %(now)s)", what=what, now=now), phase=state.phase)
    return deal


def _on_look(state: MouselState, event: Mapping[str, Any]) -> MouselState:
    player = _player(event, len(state.players))
    deal = _need_deal(state, ("turn_up", "offer"), "MOUSEL-TRUMP-1", M("looking at the hand"))
    if player != deal.dealer:
        raise RuleViolation("MOUSEL-TRUMP-1", M("only the dealer's look matters: the others look at once"))
    if deal.looked:
        raise RuleViolation("MOUSEL-TRUMP-1", M("the dealer has already looked at his hand"))
    if deal.phase == "turn_up":
        raise RuleViolation("MOUSEL-TRUMP-1", M("no card is on offer yet: the dealer looks at his hand only once a card is turned up"))
    return _with_deal(state, _evolve(deal, looked=True, looked_by_event=True, blind=False))


def _on_turn_up(state: MouselState, event: Mapping[str, Any]) -> MouselState:
    deal = state.deal
    if deal is not None and deal.phase == "offer":
        raise RuleViolation("MOUSEL-TRUMP-5", M("%(turned)s is still on offer; a new card is turned only when everyone has refused it", turned=deal.turned))
    deal = _need_deal(state, ("turn_up",), "MOUSEL-TRUMP-1", M("turning up a card"))
    card = _card(event, state.opts)
    if card in deal.set_aside:
        raise RuleViolation("MOUSEL-COMP-1", M("%(card)s was already turned up and set aside", card=card), card=str(card))
    # stock > 0 here: an empty stock ends the deal as void when the last card is refused
    blind = not deal.looked
    offer = deal.ring
    new = _evolve(deal, phase="offer", stock=deal.stock - 1, turns=deal.turns + 1, turned=card,
                  blind=blind, offer=offer)
    return _with_deal(state, new)


def _on_take(state: MouselState, event: Mapping[str, Any]) -> MouselState:
    player = _player(event, len(state.players))
    deal = _need_deal(state, ("offer",), "MOUSEL-TRUMP-1", M("taking the turned card"))
    _check_offer_turn(state, deal, player, taking=True)
    assert deal.turned is not None
    taker = player
    o_seat, order = _decision_order(deal.ring, deal.dealer, taker, state.opts.last_in_order)
    new = _evolve(deal, phase="exchange", taker=taker, trump_card=deal.turned, turned=None, blind=False,
                  offer=(), must_play=o_seat, order=order,
                  looked=deal.looked or player == deal.dealer)
    return _with_deal(state, new)


def _check_offer_turn(state: MouselState, deal: Deal, player: int, *, taking: bool) -> None:
    names = state.players
    if player not in deal.ring:
        raise RuleViolation("MOUSEL-TRUMP-3", M("%(name)s is not in this deal", name=names[player]))
    if deal.blind and player == deal.dealer:
        return
    head = deal.offer[0]
    if player == head:
        if player == deal.dealer and not taking and _last_card(state, deal):
            raise RuleViolation("MOUSEL-OPT-DEALER-MUST-TAKE",
                                M("%(turned)s is the last card of the stock: the dealer must accept it", turned=deal.turned))
        return
    if player == deal.dealer:
        if deal.turns > 1:
            raise RuleViolation("MOUSEL-TRUMP-5",
                                M("the dealer has looked, so he may take %(turned)s only after everyone else has refused it; it is %(name)s's turn", turned=deal.turned, name=names[head]), to_act=head)
        if deal.looked_by_event:
            raise RuleViolation("MOUSEL-TRUMP-2",
                                M("the dealer has looked at his hand, so he may not take %(turned)s at once; it is offered round first (%(name)s's turn)", turned=deal.turned, name=names[head]), to_act=head)
        raise RuleViolation("MOUSEL-TRUMP-4",
                            M("the dealer passed on taking %(turned)s blind; he decides again only after everyone else has refused (%(name)s's turn)", turned=deal.turned, name=names[head]), to_act=head)
    raise RuleViolation("MOUSEL-TRUMP-3",
                        M("%(turned)s is offered clockwise: it is %(name)s's turn, not %(name2)s's", turned=deal.turned, name=names[head], name2=names[player]),
                        to_act=head)


def _last_card(state: MouselState, deal: Deal) -> bool:
    return state.opts.dealer_must_take and deal.stock == 0


def _on_refuse(state: MouselState, event: Mapping[str, Any]) -> MouselState:
    player = _player(event, len(state.players))
    deal = _need_deal(state, ("offer",), "MOUSEL-TRUMP-1", M("refusing the turned card"))
    _check_offer_turn(state, deal, player, taking=False)
    turned = deal.turned
    assert turned is not None
    if deal.blind:
        # The dealer passes on the blind take (by saying so, or by letting the offer go round).
        new = _evolve(deal, blind=False)
        if player == deal.dealer:
            return _with_deal(state, new)
        deal = new
    offer = deal.offer[1:]
    if offer:
        return _with_deal(state, _evolve(deal, offer=offer))
    set_aside = deal.set_aside + (turned,)
    if deal.stock == 0:
        return _void(state, _evolve(deal, set_aside=set_aside, turned=None, offer=()))
    new = _evolve(deal, phase="turn_up", turned=None, offer=(), set_aside=set_aside, looked=True)
    return _with_deal(state, new)


def _decision_order(ring: tuple[int, ...], dealer: int, taker: int,
                    last_in_order: bool) -> tuple[int, tuple[int, ...]]:
    """O (MOUSEL-EXCH-3) and the order of exchanges: clockwise from the taker, O last (EXCH-4)."""
    clockwise = _rotate(ring, taker)
    if last_in_order:
        return clockwise[-1], clockwise
    o_seat = dealer if taker != dealer else ring[-2]
    return o_seat, tuple(s for s in clockwise if s != o_seat) + (o_seat,)


def _void(state: MouselState, deal: Deal) -> MouselState:
    """MOUSEL-TRUMP-7: nobody took a card; the pot carries over whole."""
    count = len(state.players)
    entry = Entry(deal.number, "carry", POT, POT, deal.pot, "MOUSEL-TRUMP-7", "void deal: the pot carries over")
    book = state.book.post((entry,))
    row = dict(deal=deal.number, dealer=deal.dealer, pot=deal.pot, hand_size=deal.n, void=True,
               taker=None, seats=tuple(sorted(deal.ring)), folded=(), tricks=(0,) * count,
               shares=(0,) * count, penalties=(0,) * count, penalties_due=(0,) * count,
               revokers=(), leftover=deal.pot, last=deal.last)
    return _after_deal(state, deal, book, row, state.pot_payers, (), state.play)


def _after_deal(state: MouselState, deal: Deal, book: Book, row: dict[str, Any], pot_payers: tuple[int, ...],
                scored: tuple[Scored, ...], play: Play | None) -> MouselState:
    """Close the deal: bust players out (MOUSEL-OPT-BUST), the sheet row, the next dealer."""
    status = state.status
    if state.opts.bust:
        status = tuple("bust" if s == "in" and state.opts.stack + book.balances[i] <= 0 else s
                       for i, s in enumerate(status))
    busted = tuple(i for i in range(len(status)) if status[i] == "bust" and state.status[i] == "in")
    seated_after = sum(1 for s in status if s == "in")
    settlement = Settlement(**row, busted=busted, next_pot=book.pot + seated_after)
    history = state.history + ((deal.number, book.pot, book.balances),)
    # ``play`` stays until the next deal so the screens can still show the last tricks
    new = _with(state, book=book, deal=None, play=play, status=status, sheet=state.sheet + (settlement,),
                history=history, next_dealer=_next_seated(status, deal.dealer), pot_payers=pot_payers,
                scored=scored)
    if seated_after < 2 or (deal.last and state.opts.end_lastdeal):
        ended = _finish(new, deal.number)
        return _with(ended, scored=scored + ended.scored)
    return new


# --- Handlers: exchanges and the taker's discard ----------------------------------------------

def _check_decision_turn(state: MouselState, deal: Deal, player: int) -> None:
    expected = deal.order[len(deal.decisions)]
    if player == expected:
        return
    names = state.players
    if player not in deal.ring:
        raise RuleViolation("MOUSEL-EXCH-1", M("%(name)s is not in this deal", name=names[player]))
    if any(seat == player for seat, _ in deal.decisions):
        raise RuleViolation("MOUSEL-EXCH-1", M("%(name)s has already decided", name=names[player]), to_act=expected)
    if player == deal.must_play and not state.opts.last_in_order:
        raise RuleViolation("MOUSEL-EXCH-4",
                            M("%(name)s may not fold and so decides last; it is %(name2)s's turn", name=names[player], name2=names[expected]),
                            to_act=expected)
    raise RuleViolation("MOUSEL-EXCH-1",
                        M("decisions go clockwise from the taker: it is %(name)s's turn, not %(name2)s's", name=names[expected], name2=names[player]),
                        to_act=expected)


def _on_exchange(state: MouselState, event: Mapping[str, Any]) -> MouselState:
    player = _player(event, len(state.players))
    count = int_field(event, "count", minimum=0)
    deal = _need_deal(state, ("exchange",), "MOUSEL-EXCH-1", M("exchanging cards"))
    _check_decision_turn(state, deal, player)
    name = state.players[player]
    hand = deal.n + 1 if player == deal.taker else deal.n
    if count > hand:
        rule = "MOUSEL-EXCH-2" if player == deal.taker else "MOUSEL-EXCH-1"
        raise RuleViolation(rule, M("%(name)s holds %(hand)s cards and cannot exchange %(count)s", name=name, hand=hand, count=count), hand=hand)
    if player == deal.taker and state.opts.keep_trumpcard and count > deal.n:
        raise RuleViolation("MOUSEL-OPT-KEEP-TRUMPCARD",
                            M("%(name)s must keep the turned-up %(trump_card)s, so can exchange at most %(n)s", name=name, trump_card=deal.trump_card, n=deal.n))
    available = deal.stock + (deal.pile if state.opts.reshuffle else 0)
    if count > available:
        where = (M("%(stock)s left in the stock and %(pile)s to reshuffle", stock=deal.stock, pile=deal.pile)
                 if state.opts.reshuffle else M("%(stock)s left in the stock", stock=deal.stock))
        raise RuleViolation("MOUSEL-EXCH-5", M("%(name)s asks for %(count)s cards but there are only %(where)s; stand pat, exchange fewer or fold", name=name, count=count, where=where), stock=deal.stock)
    stock, pile, reshuffles = deal.stock, deal.pile, deal.reshuffles
    if count > stock:  # MOUSEL-OPT-RESHUFFLE: the pile becomes the new stock
        stock, pile, reshuffles = stock + pile, 0, reshuffles + 1
    reach = deal.trump_reach
    if count and (reach or (count > deal.stock and _taker_threw(state, deal))):
        reach += (player,)
    new = _evolve(deal, stock=stock - count, pile=pile + count, reshuffles=reshuffles,
                  decisions=deal.decisions + ((player, count),), trump_reach=reach)
    return _with_deal(state, _after_decision(new))


def _taker_threw(state: MouselState, deal: Deal) -> bool:
    """Could the turned-up card be in the pile? The taker decides first; only he ever held it."""
    if state.opts.keep_trumpcard:
        return False
    return any(seat == deal.taker and count for seat, count in deal.decisions)


def _on_fold(state: MouselState, event: Mapping[str, Any]) -> MouselState:
    player = _player(event, len(state.players))
    deal = _need_deal(state, ("exchange",), "MOUSEL-EXCH-1", M("folding"))
    _check_decision_turn(state, deal, player)
    name = state.players[player]
    if player == deal.taker:
        raise RuleViolation("MOUSEL-EXCH-2", M("%(name)s took the trump card and can never fold", name=name))
    if player == deal.must_play:
        others = [s for s in deal.ring if s not in (deal.taker, player)]
        folded = set(deal.folded)
        if all(s in folded for s in others):
            rule = "MOUSEL-OPT-LAST-IN-ORDER" if state.opts.last_in_order else "MOUSEL-EXCH-3"
            raise RuleViolation(rule, M("everyone else has folded, so %(name)s must play against the taker", name=name))
    new = _evolve(deal, decisions=deal.decisions + ((player, None),))
    return _with_deal(state, _after_decision(new))


def _after_decision(deal: Deal) -> Deal:
    if len(deal.decisions) < len(deal.order):
        return deal
    return _evolve(deal, phase="discard")


def _on_discard(state: MouselState, event: Mapping[str, Any]) -> MouselState:
    player = _player(event, len(state.players))
    deal = _need_deal(state, ("discard",), "MOUSEL-EXCH-6", M("the taker's extra discard"))
    if player != deal.taker:
        assert deal.taker is not None
        raise RuleViolation("MOUSEL-EXCH-6", M("only the taker (%(player)s) throws away one more card", player=state.players[deal.taker]), to_act=deal.taker)
    assert deal.taker is not None
    folded = set(deal.folded)
    active = tuple(s for s in sorted(deal.ring) if s not in folded)
    count = len(state.players)
    play = Play(active=active, leader=deal.taker, won=(0,) * count, failed=(frozenset(),) * count)
    new = _evolve(deal, phase="play", pile=deal.pile + 1)
    return _with(state, deal=new, play=play, scored=())


# --- Handlers: tricks -------------------------------------------------------------------------

def _on_play(state: MouselState, event: Mapping[str, Any]) -> MouselState:
    player = _player(event, len(state.players))
    deal, play = state.deal, state.play
    if deal is not None and deal.phase == "review":
        raise RuleViolation("MOUSEL-POT-8", M("all %(n)s tricks are played; confirm or dismiss the revoke proposals first", n=deal.n))
    if deal is None or deal.phase != "play" or play is None:
        raise RuleViolation("MOUSEL-EXCH-6", M("no card is played before everyone has decided and the taker has thrown away his extra card (phase: %(phase)s)", phase=state.phase))
    card = _card(event, state.opts)
    if player not in play.active:
        raise RuleViolation("MOUSEL-EXCH-7", M("%(player)s is not playing this deal", player=state.players[player]))
    expected = play.to_act
    if player != expected:
        raise RuleViolation("MOUSEL-PLAY-1", M("it is %(player)s's turn to play, not %(player2)s's", player=state.players[expected], player2=state.players[player]), to_act=expected)
    _check_unseen(state, deal, play, player, card)
    taker, trump_card = deal.taker, deal.trump_card
    assert taker is not None and trump_card is not None
    current = play.current + ((player, card),)
    failed = play.failed
    if play.current:
        led = play.current[0][1].suit
        if card.suit != led and led not in failed[player]:
            failed = tuple(f | {led} if i == player else f for i, f in enumerate(failed))
    tricks, won, leader = play.tricks, play.won, play.leader
    if len(current) == len(play.active):
        winner = trick_winner([c for _, c in current], leader, trump_card.suit, state.opts.order, play.active)
        tricks = tricks + (Trick(leader, current, winner),)
        won = won[:winner] + (won[winner] + 1,) + won[winner + 1:]
        leader, current = winner, ()
    new = Play(play.active, leader, current, tricks, won, play.seen | {card}, failed, play.proposals)
    if card.suit in play.failed[player]:
        new = _evolve(new, proposals=_revoke_proposals(state, trump_card.suit, new))
    if state.opts.keep_trumpcard and player == taker and card != trump_card:
        new = _check_trumpcard_kept(state, deal, new, card)
    if len(tricks) < deal.n:
        # the hot path of a replay: build the state directly rather than through ``_with``
        return MouselState(state.players, state.opts, state.mode, state.session, deal, new)
    if any(p.status == "pending" for p in new.proposals):
        return _with(state, deal=_evolve(deal, phase="review"), play=new, scored=())
    return _settle(state, deal, new)


def _check_unseen(state: MouselState, deal: Deal, play: Play, player: int, card: Card) -> None:
    if card in play.seen:
        raise RuleViolation("MOUSEL-COMP-1", M("%(card)s has already been played this deal", card=card), card=str(card))
    if card in deal.set_aside:
        raise RuleViolation("MOUSEL-COMP-1", M("%(card)s was turned up, refused and set aside; it is out of play", card=card),
                            card=str(card))
    # The turn-up card can reach another hand only through a reshuffle of thrown-away cards.
    if card == deal.trump_card and player != deal.taker and player not in deal.trump_reach:
        assert deal.taker is not None
        raise RuleViolation("MOUSEL-COMP-1", M("%(card)s is the turned-up card that %(player)s took", card=card, player=state.players[deal.taker]),
                            card=str(card))


def _revoke_proposals(state: MouselState, trump: str, play: Play) -> tuple[Proposal, ...]:
    """New proposals for every revoke the cards so far prove (MOUSEL-PLAY-2, README §4)."""
    plays = [t.plays for t in play.tricks]
    if play.current:
        plays.append(play.current)
    known = {(p.player, p.trick) for p in play.proposals if p.kind == "revoke"}
    out = list(play.proposals)
    for revoke in audit_revokes(plays, trump, state.opts.obligations):
        if (revoke.player, revoke.trick) in known:
            continue
        message = M("%(player)s must follow %(suit)s: played %(card)s at trick %(trick)s but later played "
                    "%(evidence)s (trick %(evidence_trick)s)", player=state.players[revoke.player],
                    suit=Suit(revoke.led_suit), card=revoke.card, trick=revoke.trick, evidence=revoke.evidence,
                    evidence_trick=str(revoke.evidence_trick))
        out.append(Proposal(len(out) + 1, revoke.player, "MOUSEL-PLAY-2", "revoke", revoke.trick, revoke.card,
                            revoke.evidence, revoke.evidence_trick, revoke.led_suit, message))
        known.add((revoke.player, revoke.trick))
    return tuple(out)


def _check_trumpcard_kept(state: MouselState, deal: Deal, play: Play, card: Card) -> Play:
    """MOUSEL-OPT-KEEP-TRUMPCARD: a taker whose last card is not the turned-up one threw it away."""
    taker = deal.taker
    played = [c for t in play.tricks for p, c in t.plays if p == taker] + [c for p, c in play.current if p == taker]
    if len(played) < deal.n or deal.trump_card in played:
        return play
    assert taker is not None
    trick = len(play.tricks) + (1 if play.current else 0)
    message = M("%(player)s played his last card %(card)s at trick %(trick)s without ever playing the turned-up "
                "%(trump_card)s, so he threw it away", player=state.players[taker], card=card, trick=trick,
                trump_card=deal.trump_card)
    proposal = Proposal(len(play.proposals) + 1, taker, "MOUSEL-OPT-KEEP-TRUMPCARD", "trumpcard", trick, card,
                        deal.trump_card, None, None, message)
    return _evolve(play, proposals=play.proposals + (proposal,))


def _on_verdict(state: MouselState, event: Mapping[str, Any]) -> MouselState:
    ident = int_field(event, "proposal", minimum=1)
    deal, play = state.deal, state.play
    if deal is None or play is None or deal.phase not in ("play", "review"):
        raise RuleViolation("MOUSEL-POT-8", M("there is no revoke to decide now"))
    match = [p for p in play.proposals if p.id == ident]
    if not match:
        raise RuleViolation("MOUSEL-POT-8", M("there is no proposal #%(ident)s in this deal", ident=ident))
    proposal = match[0]
    if proposal.status != "pending":
        raise RuleViolation("MOUSEL-POT-8", M("proposal #%(ident)s was already %(status)s", ident=ident, status=proposal.status))
    status: Literal["confirmed", "dismissed"] = "confirmed" if event["type"] == "confirm" else "dismissed"
    proposals = tuple(_evolve(p, status=status) if p.id == ident else p for p in play.proposals)
    new = _evolve(play, proposals=proposals)
    if deal.phase == "review" and not any(p.status == "pending" for p in proposals):
        return _settle(state, deal, new)
    return _with(state, play=new, scored=())


# --- Settlement -------------------------------------------------------------------------------

def _settle(state: MouselState, deal: Deal, play: Play) -> MouselState:
    revokers = tuple(sorted({p.player for p in play.proposals if p.status == "confirmed"}))
    return _settle_tricks(state, deal, play.active, deal.folded, play.won, revokers, play)


def _settle_tricks(state: MouselState, deal: Deal, active: tuple[int, ...], folded: tuple[int, ...],
                   tricks: tuple[int, ...], revokers: tuple[int, ...], play: Play | None = None) -> MouselState:
    assert deal.taker is not None
    opts = state.opts
    pot, n, taker, number = deal.pot, deal.n, deal.taker, deal.number
    no_penalties = deal.last and opts.end_lastdeal
    split = split_pot(pot, n, taker, active, tricks, revokers, round_largest=opts.round_largest,
                      penalties=not no_penalties)
    entries = [Entry(number, "share", POT, s, split.shares[s], "MOUSEL-POT-1",
                     M("%(tricks)s of %(n)s tricks", tricks=tricks[s], n=n)) for s in active if split.shares[s]]
    balances = list(state.book.balances)
    for s in active:
        balances[s] += split.shares[s]
    paid = [0] * len(tricks)
    for s in active:
        due = split.due[s]
        if not due:
            continue
        amount = due
        if opts.bust:  # MOUSEL-OPT-BUST: pay what you have and leave
            amount = min(due, max(opts.stack + balances[s], 0))
        paid[s] = amount
        if amount:
            rule = _penalty_rule(s, taker, revokers)
            note = M("revoke") if s in revokers else (M("1 trick") if tricks[s] == 1 else
                                                       M("%(tricks)s tricks", tricks=tricks[s]))
            entries.append(Entry(number, "penalty", s, POT, amount, rule, note))
    if split.leftover:
        rule = "MOUSEL-POT-8" if revokers and any(tricks[s] for s in revokers) else "MOUSEL-POT-3"
        entries.append(Entry(number, "carry", POT, POT, split.leftover, rule, M("left in the pot for the next deal")))
    book = state.book.post(entries)
    row = dict(deal=number, dealer=deal.dealer, pot=pot, hand_size=n, void=False, taker=taker,
               seats=tuple(sorted(deal.ring)), folded=folded, tricks=tricks, shares=split.shares,
               penalties=tuple(paid), penalties_due=split.due, revokers=revokers,
               leftover=split.leftover, last=deal.last)
    scored = tuple(Scored(s, split.shares[s], "share", "MOUSEL-POT-1", M("%(tricks)s tricks", tricks=tricks[s]))
                   for s in active if split.shares[s])
    scored += tuple(Scored(s, -paid[s], "penalty", _penalty_rule(s, taker, revokers))
                    for s in active if paid[s])
    return _after_deal(state, deal, book, row, tuple(paid), scored, play)


# --- Tally mode -------------------------------------------------------------------------------

def _on_deal_result(state: MouselState, event: Mapping[str, Any]) -> MouselState:
    count = len(state.players)
    dealer, last = _start(state, event)
    ring = _seat_ring(state.status, dealer)
    n = len(ring)
    void = _bool(event, "void")
    folded = _seat_list(event, "folded", count)
    revokers = _seat_list(event, "revokes", count)
    names = state.players
    number = state.deals + 1
    if void:
        if event.get("taker") is not None or folded or revokers or any(event.get("tricks") or []):
            raise RuleViolation("MOUSEL-TRUMP-7", M("a void deal has no taker, folds or tricks"))
        if state.opts.dealer_must_take:
            raise RuleViolation("MOUSEL-OPT-DEALER-MUST-TAKE", M("the dealer must take the last card: no void deals"))
        book = _antes(state, number, ring)
        deal = Deal(number=number, dealer=dealer, ring=ring, pot=book.pot, last=last, phase="turn_up", stock=0)
        started = _with(state, book=book, deals=number, last_announced=state.last_announced or last)
        return _void(started, deal)
    taker = int_field(event, "taker", minimum=0, maximum=count - 1)
    tricks_raw = event.get("tricks")
    if (not isinstance(tricks_raw, list) or len(tricks_raw) != count
            or any(isinstance(t, bool) or not isinstance(t, int) or t < 0 for t in tricks_raw)):
        raise MalformedEvent(M("'tricks' must list %(count)s whole numbers ≥ 0, one per seat", count=count), event)
    tricks = tuple(int(t) for t in tricks_raw)
    if taker not in ring:
        raise RuleViolation("MOUSEL-TRUMP-6", M("%(name)s is not at the table", name=names[taker]))
    outside = [s for s in folded if s not in ring]
    if outside:
        raise RuleViolation("MOUSEL-EXCH-1", M("%(name)s is not in this deal", name=names[outside[0]]))
    if taker in folded:
        raise RuleViolation("MOUSEL-EXCH-2", M("%(name)s took the trump card and can never fold", name=names[taker]))
    if all(s in folded for s in ring if s != taker):
        rule = "MOUSEL-OPT-LAST-IN-ORDER" if state.opts.last_in_order else "MOUSEL-EXCH-3"
        raise RuleViolation(rule, M("the taker needs at least one opponent: someone must play"))
    active = tuple(s for s in sorted(ring) if s not in folded)
    idle = [s for s in range(count) if s not in active and tricks[s]]
    if idle:
        raise RuleViolation("MOUSEL-EXCH-7", M("%(name)s did not play this deal and cannot win tricks", name=names[idle[0]]))
    if sum(tricks) != n:
        raise RuleViolation("MOUSEL-EXCH-6", M("%(n)s players hold %(n)s cards each, so there are %(n)s tricks, not %(value)s", n=n, value=sum(tricks)), tricks=sum(tricks), expected=n)
    bad = [s for s in revokers if s not in active]
    if bad:
        raise RuleViolation("MOUSEL-POT-8", M("%(name)s did not play, so cannot have revoked", name=names[bad[0]]))
    book = _antes(state, number, ring)
    deal = Deal(number=number, dealer=dealer, ring=ring, pot=book.pot, last=last, phase="review", stock=0,
                taker=taker)
    started = _with(state, book=book, deals=number, last_announced=state.last_announced or last)
    return _settle_tricks(started, deal, active, folded, tricks, revokers)


_HANDLERS: dict[str, Callable[[MouselState, Mapping[str, Any]], MouselState]] = {
    "deal": _on_deal, "look": _on_look, "turn_up": _on_turn_up, "take": _on_take, "refuse": _on_refuse,
    "exchange": _on_exchange, "fold": _on_fold, "discard": _on_discard, "play": _on_play,
    "confirm": _on_verdict, "dismiss": _on_verdict, "leave": _on_leave,
    "end_session": _on_end, "deal_result": _on_deal_result,
}


# --- Views ------------------------------------------------------------------------------------

def _leaders(state: MouselState) -> int | list[int] | None:
    balances = state.balances
    best = max(balances)
    top = [i for i, b in enumerate(balances) if b == best]
    return top[0] if len(top) == 1 else top


def _hints(state: MouselState) -> list[Event]:
    if state.end is not None:
        return []
    deal = state.deal
    if deal is None:
        first: Event = {"type": "deal" if state.mode == "adjudicate" else "deal_result"}
        if state.next_dealer is not None:
            first["dealer"] = state.next_dealer
        return [first, {"type": "end_session"}]
    player = deal.to_act()
    if deal.phase == "turn_up":
        return []
    if deal.phase == "offer":
        out: list[Event] = [{"type": "take", "player": player}]
        if not (player == deal.dealer and not deal.blind and _last_card(state, deal)):
            out.append({"type": "refuse", "player": player})
        if deal.blind:
            out.append({"type": "look", "player": deal.dealer})
        return out
    if deal.phase == "exchange":
        assert player is not None
        hand = deal.n + 1 if player == deal.taker else deal.n
        if player == deal.taker and state.opts.keep_trumpcard:
            hand = deal.n
        most = min(hand, deal.stock + (deal.pile if state.opts.reshuffle else 0))
        moves: list[Event] = [{"type": "exchange", "player": player, "count": k} for k in range(most + 1)]
        if player != deal.taker:
            others = [s for s in deal.ring if s not in (deal.taker, player)]
            if player != deal.must_play or not all(s in set(deal.folded) for s in others):
                moves.append({"type": "fold", "player": player})
        return moves
    if deal.phase == "discard":
        return [{"type": "discard", "player": deal.taker}]
    pending = [p.id for p in state.play.proposals if p.status == "pending"] if state.play is not None else []
    return [{"type": "confirm", "proposal": i} for i in pending] + [{"type": "dismiss", "proposal": i} for i in pending]


def _decision_json(deal: Deal, count: int) -> list[JSON | None]:
    out: list[JSON | None] = [None] * count
    for seat, exchanged in deal.decisions:
        out[seat] = {"fold": True} if exchanged is None else {"exchange": exchanged}
    return out


def _deal_json(state: MouselState, deal: Deal) -> JSON:
    count = len(state.players)
    play = state.play
    folded = deal.folded
    active = list(play.active) if play is not None else [s for s in sorted(deal.ring) if s not in folded]
    hands = [0] * count
    for s in deal.ring:
        if s in folded:
            continue
        hands[s] = deal.n + (1 if s == deal.taker and deal.phase in ("exchange", "discard") else 0)
    if play is not None:
        for s in play.active:
            played = sum(1 for t in play.tricks for p, _ in t.plays if p == s)
            played += sum(1 for p, _ in play.current if p == s)
            hands[s] = deal.n - played
    return {
        "number": deal.number, "dealer": deal.dealer, "seats": sorted(deal.ring), "hand_size": deal.n,
        "last": deal.last, "stock": deal.stock, "dealer_looked": deal.looked,
        "turned": None if deal.turned is None else str(deal.turned),
        "offered_to": deal.to_act() if deal.phase == "offer" else None,
        "blind_take": deal.phase == "offer" and deal.blind,
        "set_aside": [str(c) for c in deal.set_aside],
        "trump": None if deal.trump_card is None else deal.trump_card.suit,
        "trump_card": None if deal.trump_card is None else str(deal.trump_card),
        "taker": deal.taker, "must_play": deal.must_play, "decision_order": list(deal.order),
        "decisions": _decision_json(deal, count), "folded": list(folded), "active": active,
        "reshuffles": deal.reshuffles, "hands": hands,
        "tricks": [] if play is None else [t.to_json() for t in play.tricks],
        "current_trick": [] if play is None else [{"player": p, "card": str(c)} for p, c in play.current],
        "leader": None if play is None else play.leader,
        "tricks_won": [0] * count if play is None else list(play.won),
    }


def _to_json(state: MouselState) -> JSON:
    count = len(state.players)
    deal = state.deal
    data = common_json(state.balances, state.over, _leaders(state) if state.over else None, state.to_act())
    pot_now = state.pot
    proposals = state.play.proposals if deal is not None and state.play is not None else ()
    hand_size = deal.n if deal is not None else len(state.seated)
    data.update(
        game="mousel", mode=state.mode, phase=state.phase,
        options={"52": state.opts.pack52, "last_in_order": state.opts.last_in_order,
                 "reshuffle": state.opts.reshuffle, "keep_trumpcard": state.opts.keep_trumpcard,
                 "dealer_must_take": state.opts.dealer_must_take, "round_largest": state.opts.round_largest,
                 "bust": state.opts.bust, "stack": state.opts.stack, "end_refund": state.opts.end_refund,
                 "end_lastdeal": state.opts.end_lastdeal},
        players=list(state.players), status=list(state.status),
        balances=list(state.balances), pot=pot_now,
        value_per_trick=_per_trick(deal.pot if deal is not None else pot_now + len(state.seated), hand_size),
        holdings=[state.opts.stack + b for b in state.balances] if state.opts.bust else None,
        deals_played=state.deals, dealer=None if deal is None else deal.dealer,
        next_dealer=state.next_dealer if deal is None else _next_seated(state.status, deal.dealer),
        deal=None if deal is None else _deal_json(state, deal),
        proposals=[p.to_json() for p in proposals],
        pending_revokes=[p.to_json() for p in proposals if p.status == "pending"],
        last_tricks=[t.to_json() for t in state.play.tricks] if deal is None and state.play is not None else [],
        settlements=[row.to_json() for row in state.sheet],
        ledger=[e.to_json() for e in state.book.entries],
        history=[{"deal": d, "pot": p, "balances": list(b)} for d, p, b in state.history],
        last_announced=state.last_announced,
        end=None if state.end is None else state.end.to_json(count),
    )
    return data


def _describe(event: Mapping[str, Any], players: Sequence[str]) -> Msg:
    def name(key: str) -> str:
        value = event.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(players):
            return players[value]
        return "?"
    kind = event.get("type")
    dealer = name("dealer") if "dealer" in event else M("Next dealer")
    texts: dict[str, Callable[[], Msg]] = {
        "deal": lambda: (M("%(dealer)s deals; everyone antes 1 (last deal)", dealer=dealer) if event.get("last")
                         else M("%(dealer)s deals; everyone antes 1", dealer=dealer)),
        "look": lambda: M("%(player)s (dealer) looks at his hand", player=name("player")),
        "turn_up": lambda: M("Turn-up: %(card)s", card=_card_or_text(event.get("card"))),
        "take": lambda: M("%(player)s takes the turned card", player=name("player")),
        "refuse": lambda: M("%(player)s refuses the turned card", player=name("player")),
        "exchange": lambda: (M("%(player)s stands pat", player=name("player")) if event.get("count") == 0
                             else M("%(player)s exchanges %(count)s", player=name("player"),
                                    count=str(event.get("count")))),
        "fold": lambda: M("%(player)s folds", player=name("player")),
        "discard": lambda: M("%(player)s throws away one more card", player=name("player")),
        "play": lambda: M("%(player)s plays %(card)s", player=name("player"), card=_card_or_text(event.get("card"))),
        "confirm": lambda: M("Revoke #%(id)s confirmed", id=str(event.get("proposal"))),
        "dismiss": lambda: M("Revoke #%(id)s dismissed", id=str(event.get("proposal"))),
        "leave": lambda: M("%(player)s leaves the table", player=name("player")),
        "end_session": lambda: M("The session ends; the pot is split"),
        "deal_result": lambda: (M("Void deal: the pot carries over") if event.get("void")
                                else M("%(taker)s took trumps; tricks %(tricks)s", taker=name("taker"),
                                       tricks=str(event.get("tricks")))),
    }
    make = texts.get(kind) if isinstance(kind, str) else None
    return make() if make is not None else Msg("%(kind)s", {"kind": str(kind)})


def _card_or_text(text: Any) -> Card | str:
    """A card of the event as its name; text that is not a card as entered."""
    try:
        return parse_card(str(text), "french")
    except ValueError:
        return str(text)


__all__ = ["Deal", "EndReport", "Mousel", "MouselState", "Opts", "Play", "Proposal", "Settlement", "Trick",
           "settle_up", "split_pot"]
