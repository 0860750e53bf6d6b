"""Mulatschak (Salzburg rules): every phase of a deal, the sheet from 21 down to 0, and tally mode.

Spec: rules/mulatschak.md. One event per thing said or done at the table (docs/api.md, section Mulatschak).
Hands are hidden: the engine knows a card's whereabouts only when it is played, shown (a collapse,
a face-up exchange card, the kept Weli, the Sau or the seven shown for an exchange) or when a
player enters their hand. Follow/trump/beat duties are checked live against an entered hand and
otherwise retroactively (rules README §4): a proven revoke becomes a proposal the table confirms
or dismisses, and a confirmed one is scored by MULAT-SCORE-9.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from scorekeeper.cards import Card, german_pack, parse_card, parse_cards
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
    evolve,
    int_field,
    str_field,
)
from scorekeeper.engine.messages import Join, Msg, Seat
from scorekeeper.engine.tricks import (
    BreachKind,
    Obligations,
    RankOrder,
    audit_revokes,
    check_play,
    hand_at,
    legal_cards,
    suit_of,
    trick_winner,
)

START = 21
SUITS = ("H", "S", "L", "E")
SUIT_NAMES = {"H": "Herz", "S": "Schelle", "L": "Laub", "E": "Eichel"}
WELI = Card("W", "")
HIGH_RANKS = frozenset({"A", "K", "O", "U", "W"})
ORDER = RankOrder(plain=("A", "K", "O", "U", "10", "9", "8", "7", "6"),
                  trump=("A", "W", "K", "O", "U", "10", "9", "8", "7", "6"),
                  always_trump=frozenset({WELI}))
BID_LIMIT = 5        # MULAT-BID-7: at or below this score a player may only pass
STAY_LIMIT = 3       # MULAT-STAY-3 / MULAT-EXCH-1
BREACH_RULES: dict[BreachKind, str] = {"follow": "MULAT-PLAY-3", "trump": "MULAT-PLAY-4", "head": "MULAT-PLAY-5"}

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
        return Obligations(ORDER, must_follow=True, must_trump=True, must_head=not self.no_stichzwang)


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
class Proposal:
    """A revoke the cards prove; the table confirms or dismisses it (MULAT-SCORE-9)."""

    id: int
    deal: int
    player: int
    trick: int
    card: Card
    kind: BreachKind
    evidence: Card
    evidence_trick: int | None
    message: str
    status: str = "pending"  # pending | confirmed | dismissed

    @property
    def rule(self) -> str:
        return BREACH_RULES[self.kind]

    def to_json(self) -> JSON:
        return {"id": self.id, "type": "revoke", "deal": self.deal, "player": self.player,
                "trick": self.trick, "card": str(self.card), "kind": self.kind, "rule": self.rule,
                "evidence": str(self.evidence), "evidence_trick": self.evidence_trick,
                "message": self.message, "status": self.status}


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


@dataclass(frozen=True, slots=True)
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
        return tuple(p for p in range(self.players) if self.decisions[p] in ("declarer", "play"))

    @property
    def causes(self) -> tuple[str, ...]:
        return _causes(self.trump, self.collapses, self.cut == "knock")

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
        for index, trick in enumerate(self.tricks):
            if len(trick) == len(self.active):
                won[self.trick_winner(index)] += 1
        return won

    def trick_winner(self, index: int) -> int:
        trick = self.tricks[index]
        return trick_winner([c for _, c in trick], trick[0][0], self.trump, ORDER, seats=self.active)


@dataclass(frozen=True, slots=True)
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


def _causes(trump: str | None, collapses: int, knocked: bool) -> tuple[str, ...]:
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


def deal_changes(opts: Opts, n: int, declarer: int, contract: int, home: Sequence[int],
                 tricks: Sequence[int], multiplier: int, revokes: Sequence[int],
                 breaker: int | None) -> list[tuple[int, str, str]]:
    """Each seat's change, with what it was for and the rule (MULAT-SCORE-3…5, MULAT-SCORE-9)."""
    m = multiplier
    out: list[tuple[int, str, str]] = []
    made = contract == 5 and tricks[declarer] == 5
    for p in range(n):
        if p in home:
            flat = 0 if opts.stayhome_free else (1 if opts.stayhome_flat else m)
            out.append((flat, "stayed home", "MULAT-SCORE-5"))
        elif p in revokes:
            penalty = 10 * m if p == declarer else 5 * m
            out.append((penalty, "revoke: scored as failed", "MULAT-SCORE-9"))
        elif contract == 5:
            if p == declarer:
                out.append((-10 * m, "Muli made", "MULAT-SCORE-4") if made
                           else (10 * m, "Muli failed", "MULAT-SCORE-4"))
            elif made:
                out.append((10 * m, "against a Muli made", "MULAT-SCORE-4"))
            elif opts.muli_breaker and p != breaker:
                out.append((0, "Muli failed, not the breaker", "MULAT-SCORE-4"))
            else:
                out.append((-10 * m, "broke the Muli" if p == breaker else "Muli failed", "MULAT-SCORE-4"))
        elif p == declarer:
            t = tricks[p]
            out.append((-t * m, M("declarer made %(tricks)s", tricks=t), "MULAT-SCORE-3") if t >= contract
                       else (10 * m, M("declarer failed (%(tricks)s < %(contract)s)", tricks=t, contract=contract),
                             "MULAT-SCORE-3"))
        else:
            t = tricks[p]
            out.append((-t * m, M("%(tricks)s tricks", tricks=t) if t != 1 else M("1 trick"), "MULAT-SCORE-3") if t
                       else (5 * m, "no trick", "MULAT-SCORE-3"))
    return out


def _winners(scores: Sequence[int]) -> tuple[int, ...]:
    """MULAT-END-1/2: anyone at or below 0 ends the game; the lowest wins, an exact tie shares."""
    low = min(scores)
    if low > 0:
        return ()
    return tuple(p for p, s in enumerate(scores) if s == low)


def _weak(cards: Sequence[Card], opts: Opts) -> bool:
    high = HIGH_RANKS - ({"W"} if opts.weli_weak else set())
    return not any(c.rank in high for c in cards)


# --- the rules -------------------------------------------------------------------------------


class Mulatschak(BaseRules):
    id: ClassVar[str] = "mulatschak"
    name: ClassVar[str] = "Mulatschak"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    player_rule: ClassVar[str | None] = "MULAT-COMP-4"
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("pack36", False, "MULAT-OPT-PACK36", "36-card pack (sixes in Herz, Laub, Eichel)"),
        OptionSpec("no_stichzwang", False, "MULAT-OPT-NO-STICHZWANG", "No duty to beat the trick"),
        OptionSpec("muli_breaker", False, "MULAT-OPT-MULI-BREAKER", "Failed Muli: only the breaker gains"),
        OptionSpec("stayhome_flat", False, "MULAT-OPT-STAYHOME-FLAT", "Staying home costs 1 even when doubled"),
        OptionSpec("stayhome_free", False, "MULAT-OPT-STAYHOME-FREE", "Staying home costs nothing"),
        OptionSpec("allpass_redeal", False, "MULAT-OPT-ALLPASS-REDEAL", "All pass: next dealer redeals"),
        OptionSpec("collapse_optional", False, "MULAT-OPT-COLLAPSE-OPTIONAL", "Declaring a weak hand is optional"),
        OptionSpec("collapse_cap", False, "MULAT-OPT-COLLAPSE-CAP", "Collapses in a row double only once"),
        OptionSpec("no_knock", False, "MULAT-OPT-NO-KNOCK", "No knocking"),
        OptionSpec("exch_limit", 5, "MULAT-OPT-EXCH-LIMIT", "Most cards one player may exchange (5 = no limit)",
                   kind="int", minimum=0, maximum=5),
        OptionSpec("reshuffle", False, "MULAT-OPT-RESHUFFLE", "Reshuffle the thrown cards when the stock runs out"),
        OptionSpec("hold_muli", False, "MULAT-OPT-HOLD-MULI", "The dealer may hold a Muli bid in turn"),
        OptionSpec("weli_weak", False, "MULAT-OPT-WELI-WEAK", "The Weli counts as low for the collapse"),
    )

    # -- set-up --------------------------------------------------------------------------------

    def new(self, players: Sequence[str], options: Mapping[str, Any], mode: Mode = "adjudicate") -> MulState:
        self.check_players(players)
        if options.get("teams") if isinstance(options, Mapping) else False:
            raise SetupError("MULAT-COMP-4", M("in Mulatschak everyone plays for themselves"))
        parsed = self.parse_options(options, len(players))
        parsed.pop("teams", None)
        opts = Opts(**parsed)
        if opts.stayhome_flat and opts.stayhome_free:
            raise SetupError("MULAT-OPT-STAYHOME-FREE", M("staying home cannot be both flat and free"))
        if mode not in ("adjudicate", "tally"):
            raise SetupError(None, M("unknown mode %(mode)s", mode=repr(mode)))
        n = len(players)
        state = MulState(tuple(players), opts, mode, (START,) * n, dealer=0)
        return state if mode == "tally" else evolve(state, deal=_fresh_deal(state, 1, 0, 0))

    # -- dispatch --------------------------------------------------------------------------------

    def apply(self, state: MulState, event: Mapping[str, Any]) -> MulState:
        if not isinstance(event, Mapping):
            raise MalformedEvent(M("an event must be an object"), event)
        kind = event.get("type")
        if not isinstance(kind, str):
            raise MalformedEvent(M("the event needs a 'type'"), event)
        handlers = _TALLY if state.mode == "tally" else _ADJUDICATE
        handler = handlers.get(kind)
        if handler is None:
            known = ", ".join(sorted(handlers))
            raise MalformedEvent(M("Mulatschak (%(mode)s) has no event %(kind)s; known: %(known)s", mode=state.mode, kind=repr(kind), known=known), event)
        if state.over:
            raise RuleViolation("MULAT-END-1", M("the game is over; undo the last entry to correct it"))
        new = handler(self, state, event)
        return new if new.scored or not state.scored else evolve(new, scored=())

    # -- dealer ----------------------------------------------------------------------------------

    def _dealer(self, state: MulState, event: Mapping[str, Any]) -> MulState:
        player = _player(state, event)
        untouched = state.deal is None or (state.deal.number == 1 and state.deal.phase == "cut"
                                            and state.deal.collapses == 0)
        if state.sheet or not untouched:
            raise RuleViolation("MULAT-DEAL-1", M("the first dealer is chosen before the first deal; after that the deal moves clockwise"))
        if state.deal is None:
            return evolve(state, dealer=player, scored=())
        return evolve(state, dealer=player, deal=_fresh_deal(state, 1, player, 0), scored=())

    # -- cut / knock -----------------------------------------------------------------------------

    def _cut(self, state: MulState, event: Mapping[str, Any]) -> MulState:
        deal = _deal(state)
        player = _player(state, event)
        knock = event.get("type") == "knock"
        weli = _bool(event, "weli", False)
        if deal.phase != "cut":
            raise RuleViolation("MULAT-DEAL-2", M("the pack has already been cut for this deal"))
        if player != deal.cutter:
            raise RuleViolation("MULAT-DEAL-2", M("%(cutter)s, on the dealer's right, cuts or knocks, not %(player)s", cutter=Seat(deal.cutter), player=Seat(player)), cutter=deal.cutter)
        if knock and state.opts.no_knock:
            raise RuleViolation("MULAT-OPT-NO-KNOCK", M("knocking is not allowed at this table"))
        new = evolve(deal, cut="knock" if knock else "cut", phase="bidding", to_act=deal.forehand)
        if weli:
            new = evolve(new, weli_to=player).with_owner(WELI, player)
        return evolve(state, deal=new, scored=())

    def _implied_cut(self, state: MulState) -> Deal:
        """Any declaration or bid before the cut is entered means the pack was cut without the Weli."""
        deal = _deal(state)
        if deal.phase == "cut":
            return evolve(deal, cut="cut", phase="bidding", to_act=deal.forehand)
        return deal

    # -- hand entry ------------------------------------------------------------------------------

    def _hand(self, state: MulState, event: Mapping[str, Any]) -> MulState:
        deal = self._implied_cut(state)
        player = _player(state, event)
        cards = _cards(event, "cards", state.opts)
        if deal.phase in ("review",):
            raise RuleViolation("MULAT-PLAY-1", M("all five tricks have been played"))
        if deal.decisions and deal.decisions[player] == "home":
            raise RuleViolation("MULAT-STAY-5", M("%(player)s stayed home and takes no part in this deal", player=Seat(player)))
        if player in deal.bridge_queue:
            raise RuleViolation("MULAT-EXCH-5", M("%(player)s threw the whole hand for a Bridge and has not been dealt the new cards yet", player=Seat(player)))
        played = deal.played_by(player)
        expected = 5 - len(played)
        if len(set(cards)) != len(cards):
            raise RuleViolation("MULAT-COMP-1", M("a card appears twice in the hand"))
        if len(cards) != expected:
            raise RuleViolation("MULAT-EXCH-8", M("%(player)s holds %(expected)s cards now, not %(n)s", player=Seat(player), expected=expected, n=len(cards)),
                                expected=expected)
        for card in cards:
            _check_unseen(deal, card, player)
        untouched = not any(e.player == player for e in deal.exchanges)
        if deal.weli_to == player and untouched and WELI not in cards and WELI not in played:
            raise RuleViolation(_weli_rule(deal), (M("%(player)s kept the Weli at the knock; it is in the hand", player=Seat(player))
                                                    if deal.cut == "knock" else
                                                    M("%(player)s kept the Weli at the cut; it is in the hand", player=Seat(player))))
        hands = list(deal.hands)
        hands[player] = tuple(cards)
        entered = set(cards)   # distinct (checked above): the same owners as with_owner card by card
        owners = tuple((c, h) for c, h in deal.owners if c not in entered) + tuple((c, player) for c in cards)
        return _refresh_proposals(state, evolve(deal, hands=tuple(hands), owners=owners))

    # -- collapse --------------------------------------------------------------------------------

    def _collapse(self, state: MulState, event: Mapping[str, Any]) -> MulState:
        deal = self._implied_cut(state)
        player = _player(state, event)
        cards = _cards(event, "cards", state.opts)
        window = (deal.phase == "bidding" and not deal.calls) or (deal.phase == "trump" and deal.muli_out_of_turn)
        if not window:
            raise RuleViolation("MULAT-DEAL-7", M("a weak hand must be declared straight after the deal, before the bidding"))
        if len(cards) != 5 or len(set(cards)) != 5:
            raise RuleViolation("MULAT-DEAL-7", M("show all five cards of the hand, not %(n)s", n=len(cards)))
        for card in cards:
            _check_unseen(deal, card, player)
        if deal.weli_to == player and WELI not in cards:
            raise RuleViolation(_weli_rule(deal), (M("%(player)s kept the Weli at the knock; it is in the hand", player=Seat(player))
                                                    if deal.cut == "knock" else
                                                    M("%(player)s kept the Weli at the cut; it is in the hand", player=Seat(player))))
        entered = deal.hands[player]
        if entered is not None and set(entered) != set(cards):
            raise RuleViolation("MULAT-DEAL-7", M("%(player)s entered a different hand before", player=Seat(player)))
        if not _weak(cards, state.opts):
            high = [str(c) for c in cards if c.rank in HIGH_RANKS]
            raise RuleViolation("MULAT-DEAL-7", M("the hand holds %(cards)s: only a hand with nothing above the 10 goes unter dem Hund",
                                                  cards=Join(tuple(c for c in cards if c.rank in HIGH_RANKS), ", ")), high=high)
        # MULAT-DEAL-1 / MULAT-AMB-5: the same dealer deals again, one more doubling factor.
        redeal = _fresh_deal(state, deal.number, deal.dealer, deal.collapses + 1)
        return evolve(state, deal=redeal, proposals=(), scored=())

    # -- bidding ---------------------------------------------------------------------------------

    def _bidding_deal(self, state: MulState, player: int) -> Deal:
        deal = self._implied_cut(state)
        if deal.phase != "bidding":
            raise RuleViolation("MULAT-BID-2", M("the bidding is over"))
        _check_no_weak_hand(state, deal)
        return deal

    def _check_turn(self, deal: Deal, player: int) -> None:
        if player == deal.to_act:
            return
        if deal.duel is not None:
            raise RuleViolation("MULAT-BID-5", M("after the hold only the dealer and %(duel)s bid on; it is %(to_act)s's turn", duel=Seat(deal.duel[1]), to_act=Seat(deal.to_act)), to_act=deal.to_act)
        if player in deal.passed:
            raise RuleViolation("MULAT-BID-3", M("%(player)s has passed and is out of the bidding", player=Seat(player)))
        raise RuleViolation("MULAT-BID-2", M("it is %(to_act)s's turn to bid, not %(player)s's", to_act=Seat(deal.to_act), player=Seat(player)),
                            to_act=deal.to_act)

    def _bid(self, state: MulState, event: Mapping[str, Any]) -> MulState:
        player = _player(state, event)
        tricks = int_field(event, "tricks")
        if tricks == 0:
            return self._pass(state, event)
        if not 1 <= tricks <= 5:
            raise RuleViolation("MULAT-BID-1", M("a bid is 1 to 5 tricks (0 to pass), not %(tricks)s", tricks=tricks))
        deal = self._bidding_deal(state, player)
        self._check_turn(deal, player)
        if state.scores[player] <= BID_LIMIT:
            raise RuleViolation("MULAT-BID-7", M("%(player)s has %(score)s points (5 or less) and may only pass", player=Seat(player), score=state.scores[player]), score=state.scores[player])
        if tricks <= deal.high:
            raise RuleViolation("MULAT-BID-3", M("a bid must be at least %(value)s (the highest so far is %(high)s)", value=deal.high + 1, high=deal.high), minimum=deal.high + 1)
        calls = deal.calls + (Call(player, "bid", tricks),)
        new = evolve(deal, calls=calls, high=tricks, high_bidder=player)
        if deal.duel is not None:
            dealer, displaced = deal.duel
            if player == dealer or (tricks == 5 and not state.opts.hold_muli):
                return self._to_trump(state, new, player, tricks)
            return evolve(state, deal=evolve(new, to_act=dealer), scored=())
        if player == deal.dealer:
            return self._to_trump(state, new, player, tricks)
        if tricks == 5:
            if not state.opts.hold_muli:
                return self._to_trump(state, new, player, tricks)
            return evolve(state, deal=evolve(new, to_act=deal.dealer), scored=())
        return evolve(state, deal=evolve(new, to_act=(player + 1) % state.n), scored=())

    def _pass(self, state: MulState, event: Mapping[str, Any]) -> MulState:
        player = _player(state, event)
        deal = self._bidding_deal(state, player)
        self._check_turn(deal, player)
        calls = deal.calls + (Call(player, "pass"),)
        new = evolve(deal, calls=calls, passed=deal.passed + (player,))
        if deal.duel is not None:
            dealer, displaced = deal.duel
            winner = dealer if player == displaced else displaced
            return self._to_trump(state, new, winner, deal.high)
        if player != deal.dealer:
            return evolve(state, deal=evolve(new, to_act=(player + 1) % state.n), scored=())
        if deal.high_bidder is not None:   # MULAT-BID-6
            return self._to_trump(state, new, deal.high_bidder, deal.high)
        return self._all_passed(state, new)

    def _all_passed(self, state: MulState, deal: Deal) -> MulState:
        deadlock = all(s <= BID_LIMIT for s in state.scores)
        if state.opts.allpass_redeal and not deadlock:
            # Thrown in: no score, no doubling; the next dealer deals. Pending collapse factors carry on.
            row = Row(deal.number, deal.dealer, None, 0, False, None, (), (), (None,) * state.n, (), None,
                      (0,) * state.n, state.scores, note="thrown in: everyone passed")
            next_dealer = (deal.dealer + 1) % state.n
            after = evolve(state, sheet=state.sheet + (row,), dealer=next_dealer)
            return evolve(after, deal=_fresh_deal(after, deal.number + 1, next_dealer, deal.collapses),
                           proposals=(), scored=(Scored(deal.dealer, 0, "thrown in", "MULAT-OPT-ALLPASS-REDEAL"),))
        return self._to_trump(state, deal, deal.dealer, 1, forced=True)

    def _hold(self, state: MulState, event: Mapping[str, Any]) -> MulState:
        player = _player(state, event)
        deal = self._bidding_deal(state, player)
        if player != deal.dealer:
            raise RuleViolation("MULAT-BID-4", M('only the dealer may hold ("mit mir")'))
        self._check_turn(deal, player)
        if state.scores[player] <= BID_LIMIT:
            raise RuleViolation("MULAT-BID-7", M("the dealer has %(score)s points (5 or less) and may only pass", score=state.scores[player]), score=state.scores[player])
        if deal.high_bidder is None or deal.high_bidder == player:
            raise RuleViolation("MULAT-BID-4", M("there is no bid to hold"))
        displaced = deal.high_bidder
        new = evolve(deal, calls=deal.calls + (Call(player, "hold", deal.high),), high_bidder=player,
                      duel=(player, displaced), to_act=displaced)
        if deal.high == 5:   # MULAT-OPT-HOLD-MULI: nobody can bid over a held Muli
            return self._to_trump(state, new, player, 5)
        return evolve(state, deal=new, scored=())

    def _muli(self, state: MulState, event: Mapping[str, Any]) -> MulState:
        player = _player(state, event)
        others = event.get("together_with", [])
        if not isinstance(others, list) or any(isinstance(o, bool) or not isinstance(o, int) for o in others):
            raise MalformedEvent(M("'together_with' must be a list of seat numbers"), event)
        deal = self._implied_cut(state)
        if deal.phase != "bidding" or deal.calls:
            raise RuleViolation("MULAT-BID-8", M("a Muli is announced out of turn only straight after the deal; now bid 5 in turn"))
        deal = self._bidding_deal(state, player)
        callers = sorted({player, *others})
        for p in callers:
            if not 0 <= p < state.n:
                raise MalformedEvent(M("there is no player %(seat)s", seat=p), event)
            if state.scores[p] <= BID_LIMIT:
                raise RuleViolation("MULAT-BID-7", M("%(p)s has %(score)s points (5 or less) and may not announce a Muli", p=Seat(p), score=state.scores[p]), player=p)
        # MULAT-AMB-18: the announcer nearest to forehand, clockwise, is heard first.
        first = min(callers, key=lambda p: (p - deal.forehand) % state.n)
        new = evolve(deal, calls=(Call(first, "muli", 5),), high=5, high_bidder=first, muli_out_of_turn=True)
        return self._to_trump(state, new, first, 5)

    def _to_trump(self, state: MulState, deal: Deal, declarer: int, contract: int,
                  forced: bool = False) -> MulState:
        new = evolve(deal, phase="trump", to_act=declarer, declarer=declarer, contract=contract,
                      forced=forced)
        return evolve(state, deal=new, scored=())

    # -- trump -----------------------------------------------------------------------------------

    def _trump(self, state: MulState, event: Mapping[str, Any]) -> MulState:
        deal = _deal(state)
        player = _player(state, event)
        if deal.phase != "trump":
            raise RuleViolation("MULAT-TRUMP-1", M("trumps are named once the bidding is over, by the declarer"))
        if player != deal.declarer:
            raise RuleViolation("MULAT-TRUMP-1", M("%(declarer)s, the declarer, names trumps", declarer=Seat(deal.declarer)))
        if deal.muli_out_of_turn:
            _check_no_weak_hand(state, deal)
        if _bool(event, "delayed", False):
            return self._delayed_trump(state, deal, player, event)
        suit = _suit(event)
        if suit is None:
            raise MalformedEvent(M("name the trump suit: 'suit' H, S, L or E (or 'delayed': true)"), event)
        return self._after_trump(state, evolve(deal, trump=suit))

    def _delayed_trump(self, state: MulState, deal: Deal, player: int, event: Mapping[str, Any]) -> MulState:
        if deal.muli:
            raise RuleViolation("MULAT-EXCH-1", M("there is no exchange in a Muli, so no delayed trump"))
        if state.scores[player] <= STAY_LIMIT:
            raise RuleViolation("MULAT-EXCH-1", M("%(player)s has %(score)s points (3 or less) and may not exchange, so cannot delay trumps", player=Seat(player), score=state.scores[player]))
        _check_limit(state, 5)
        face_up = _cards(event, "face_up", state.opts)
        if not face_up:
            raise RuleViolation("MULAT-TRUMP-2", M("give the face-up card(s) dealt after the five"))
        named = _suit(event)
        first = face_up[0]
        if first == WELI:
            if named is None:
                raise RuleViolation("MULAT-TRUMP-2", M("the Weli fixed trumps: the declarer names any suit ('suit')"))
            trump = named
        else:
            trump = first.suit
            if named is not None and named != trump:
                raise RuleViolation("MULAT-TRUMP-2", M("the face-up %(first)s makes %(suit_name)s trumps", first=first, suit_name=SUIT_NAMES[trump]))
        deal = evolve(_forget_hand(deal, player), trump=trump)
        new = _deal_face_up(state, deal, player, face_up, thrown=5, rule="MULAT-TRUMP-2", trump_first=True)
        new = evolve(new, exchanges=new.exchanges + (
            Exchange(player, "trump", 5, 5 + len(face_up), tuple(face_up)),))
        return self._after_trump(state, new)

    def _after_trump(self, state: MulState, deal: Deal) -> MulState:
        n = state.n
        declarer = deal.declarer
        assert declarer is not None
        decisions: list[str | None] = [None] * n
        decisions[declarer] = "declarer"
        if deal.muli or deal.trump == "H":   # MULAT-STAY-2: everyone plays
            decisions = ["declarer" if p == declarer else "play" for p in range(n)]
            new = evolve(deal, decisions=tuple(decisions))
            return evolve(state, deal=self._start_exchange(state, new), scored=())
        order = tuple(p for p in _clockwise(declarer + 1, n) if p != declarer)
        new = evolve(deal, phase="stay", decisions=tuple(decisions), stay_order=order, to_act=order[0])
        return evolve(state, deal=new, scored=())

    # -- play along or stay home -----------------------------------------------------------------

    def _stay(self, state: MulState, event: Mapping[str, Any]) -> MulState:
        deal = _deal(state)
        player = _player(state, event)
        home = event.get("type") == "stay_home"
        if home and deal.declarer is not None and (deal.muli or deal.trump == "H"):
            # No stay-home round at all in these deals: the duty to play is the rule at stake.
            raise RuleViolation("MULAT-STAY-2", M("nobody stays home when Herz is trumps or in a Muli"))
        if deal.phase != "stay":
            raise RuleViolation("MULAT-STAY-1", M("players decide to play or stay home once trumps are named"))
        if player != deal.to_act:
            raise RuleViolation("MULAT-STAY-1", M("it is %(to_act)s's turn to decide", to_act=Seat(deal.to_act)),
                                to_act=deal.to_act)
        if home:
            if state.scores[player] <= STAY_LIMIT:
                raise RuleViolation("MULAT-STAY-3", M("%(player)s has %(score)s points (3 or less) and must play", player=Seat(player), score=state.scores[player]), score=state.scores[player])
            last = player == deal.stay_order[-1]
            if last and all(deal.decisions[p] == "home" for p in deal.stay_order[:-1]):
                raise RuleViolation("MULAT-STAY-4", M("everyone else stayed home, so the last player must play"))
        decisions = list(deal.decisions)
        decisions[player] = "home" if home else "play"
        hands = list(deal.hands)
        if home:
            hands[player] = None
        new = evolve(deal, decisions=tuple(decisions), hands=tuple(hands))
        pending = [p for p in deal.stay_order if decisions[p] is None]
        if pending:
            return evolve(state, deal=evolve(new, to_act=pending[0]), scored=())
        return evolve(state, deal=self._start_exchange(state, new), scored=())

    # -- exchange --------------------------------------------------------------------------------

    def _start_exchange(self, state: MulState, deal: Deal) -> Deal:
        if deal.muli:   # MULAT-EXCH-1
            return self._start_play(deal)
        declarer = deal.declarer
        assert declarer is not None
        done = {e.player for e in deal.exchanges}
        queue = tuple(p for p in _clockwise(declarer, state.n) if p in deal.active and p not in done)
        return self._next_exchange(state, evolve(deal, phase="exchange", exch_queue=queue))

    def _next_exchange(self, state: MulState, deal: Deal) -> Deal:
        queue = list(deal.exch_queue)
        while queue and not _can_exchange(state, deal, queue[0]):
            queue.pop(0)
        if queue:
            return evolve(deal, exch_queue=tuple(queue), to_act=queue[0])
        if deal.bridge_queue:
            return evolve(deal, exch_queue=(), to_act=deal.bridge_queue[0])
        return self._start_play(evolve(deal, exch_queue=()))

    def _start_play(self, deal: Deal) -> Deal:
        return evolve(deal, phase="play", leader=deal.declarer, to_act=deal.declarer)

    def _exchange_turn(self, state: MulState, event: Mapping[str, Any], serving: bool = False) -> tuple[Deal, int]:
        deal = _deal(state)
        player = _player(state, event)
        if deal.phase != "exchange":
            raise RuleViolation("MULAT-EXCH-1", M("exchanging happens after the stay-home decisions, before play "
                                                  "(no exchange in a Muli)") if deal.muli and deal.phase == "play"
                                else M("exchanging happens after the stay-home decisions, before play"))
        if deal.decisions[player] == "home":
            raise RuleViolation("MULAT-STAY-5", M("%(player)s stayed home and does not exchange", player=Seat(player)))
        if any(e.player == player and e.kind == "trump" for e in deal.exchanges):
            raise RuleViolation("MULAT-TRUMP-2", M("the delayed trump was the declarer's exchange"))
        if state.scores[player] <= STAY_LIMIT:
            raise RuleViolation("MULAT-EXCH-1", M("%(player)s has %(score)s points (3 or less) and may not exchange", player=Seat(player), score=state.scores[player]), score=state.scores[player])
        if not serving and any(e.player == player for e in deal.exchanges):
            raise RuleViolation("MULAT-EXCH-3", M("%(player)s has already exchanged; once only", player=Seat(player)))
        if player != deal.to_act:
            raise RuleViolation("MULAT-EXCH-2", M("it is %(to_act)s's turn to exchange", to_act=Seat(deal.to_act)), to_act=deal.to_act)
        return deal, player

    def _exchange(self, state: MulState, event: Mapping[str, Any]) -> MulState:
        deal, player = self._exchange_turn(state, event)
        if not deal.exch_queue:
            raise RuleViolation("MULAT-EXCH-5", M("%(player)s is to be dealt the Bridge cards now (event 'bridge_cards')", player=Seat(player)))
        kind = str_field(event, "kind", default="normal", max_len=20)
        if kind == "normal":
            count = event.get("count")
            if isinstance(count, bool) or not isinstance(count, int):
                raise MalformedEvent(M("a normal exchange needs 'count', the number of cards (0-5)"), event)
            if not 0 <= count <= 5:
                raise RuleViolation("MULAT-EXCH-3", M("exchange 0 to 5 cards, not %(count)s", count=count))
            _check_limit(state, count)
            # An entered hand is forgotten before drawing: a reshuffle must not trust it any more.
            base = _forget_hand(deal, player) if count else deal
            new = _throw_and_draw(state, base, player, count, "MULAT-EXCH-9")
            new = evolve(new, exchanges=new.exchanges + (Exchange(player, "normal", count, count),))
        elif kind == "sight":
            new = self._sight(state, deal, player, event)
        elif kind == "bridge":
            _check_limit(state, 5)
            thrown = evolve(deal, discards=deal.discards + 5)
            if _available(state, thrown) < 6:
                raise RuleViolation("MULAT-EXCH-9", M("a Bridge needs at least 6 stock cards; %(value)s left", value=_available(state, deal)), stock=_available(state, deal))
            new = evolve(thrown, reserved=thrown.reserved + 6, bridge_queue=thrown.bridge_queue + (player,),
                          exchanges=thrown.exchanges + (Exchange(player, "bridge", 5, 0, served=False),))
            new = _forget_hand(new, player)
        elif kind in ("sau", "seven"):
            new = self._sau_or_seven(state, deal, player, kind)
        else:
            raise MalformedEvent(M("unknown exchange kind %(kind)s (normal, sight, bridge, sau, seven)", kind=repr(kind)), event)
        new = evolve(new, exch_queue=new.exch_queue[1:])
        return evolve(state, deal=self._next_exchange(state, new), scored=())

    def _sight(self, state: MulState, deal: Deal, player: int, event: Mapping[str, Any]) -> Deal:
        _check_limit(state, 1)
        card = _card(event, "card", state.opts)
        keep = _bool(event, "keep", None)
        need = 1 if keep else 2
        thrown = evolve(_forget_hand(deal, player), discards=deal.discards + 1)
        if _available(state, thrown) < need:
            if need == 2 and _available(state, thrown) == 1:
                raise RuleViolation("MULAT-EXCH-4", M("only one stock card is left: the face-up card must be kept"))
            raise RuleViolation("MULAT-EXCH-9", M("the stock is empty"), stock=_available(state, deal))
        new = _take(state, thrown, 1, player)
        _check_unseen(new, card, None)
        if keep:
            new = new.with_owner(card, player)
        else:
            # Thrown away before the next card is dealt, so a reshuffle may bring it back.
            new = _take(state, evolve(new.with_owner(card, -1), discards=new.discards + 1), 1, player)
        return evolve(new, exchanges=new.exchanges + (Exchange(player, "sight", 1, need, (card,), keep),))

    def _sau_or_seven(self, state: MulState, deal: Deal, player: int, kind: str) -> Deal:
        trump = deal.trump
        assert trump is not None
        if kind == "sau":
            rule, keep, draw, extra = "MULAT-EXCH-6", Card("A", trump), 5, 1
        else:
            rule, keep, draw, extra = "MULAT-EXCH-7", Card("7", "S"), 6, 2
            if trump != "S":
                raise RuleViolation(rule, M("six on the seven is only allowed when Schelle is trumps"))
        _check_limit(state, 4)
        _check_unseen(deal, keep, player)   # seen elsewhere, or out of reach since a reshuffle
        entered = deal.current_hand(player)
        if entered is not None and keep not in entered:
            raise RuleViolation(rule, M("%(player)s does not hold %(keep)s", player=Seat(player), keep=keep), card=str(keep))
        thrown = evolve(_forget_hand(deal, player), discards=deal.discards + 4)
        if _available(state, thrown) < draw:
            raise RuleViolation("MULAT-EXCH-9", M("this exchange needs %(draw)s stock cards; %(value)s left", draw=draw, value=_available(state, deal)), stock=_available(state, deal))
        new = _take(state, thrown, draw, player)
        new = evolve(new, discards=new.discards + extra).with_owner(keep, player)
        return evolve(new, exchanges=new.exchanges + (Exchange(player, kind, 4, draw, (keep,)),))

    def _bridge_cards(self, state: MulState, event: Mapping[str, Any]) -> MulState:
        deal, player = self._exchange_turn(state, event, serving=True)
        if deal.exch_queue or not deal.bridge_queue or deal.bridge_queue[0] != player:
            raise RuleViolation("MULAT-EXCH-2", M("Bridge cards are dealt after every other exchange, clockwise from the declarer"))
        face_up = _cards(event, "face_up", state.opts)
        if not face_up:
            raise RuleViolation("MULAT-EXCH-5", M("give the face-up card(s) dealt after the five"))
        released = evolve(deal, reserved=deal.reserved - 6)
        new = _deal_face_up(state, released, player, face_up, thrown=0, rule="MULAT-EXCH-5", trump_first=False)
        exchanges = tuple(evolve(e, drawn=5 + len(face_up), face_up=tuple(face_up), served=True)
                          if e.player == player and e.kind == "bridge" else e for e in new.exchanges)
        new = evolve(new, exchanges=exchanges, bridge_queue=new.bridge_queue[1:])
        return evolve(state, deal=self._next_exchange(state, new), scored=())

    # -- play ------------------------------------------------------------------------------------

    def _play(self, state: MulState, event: Mapping[str, Any]) -> MulState:
        deal = _deal(state)
        player = _player(state, event)
        card = _card(event, "card", state.opts)
        if deal.phase == "review":
            raise RuleViolation("MULAT-SCORE-9", M("all five tricks are played; confirm or dismiss the revoke proposals"))
        if deal.phase != "play":
            raise RuleViolation("MULAT-PLAY-1", M("play starts after the exchanges"))
        if deal.decisions[player] == "home":
            raise RuleViolation("MULAT-STAY-5", M("%(player)s stayed home and does not play", player=Seat(player)))
        if player != deal.to_act:
            raise RuleViolation("MULAT-PLAY-1", M("it is %(to_act)s's turn to play", to_act=Seat(deal.to_act)), to_act=deal.to_act)
        _check_unseen(deal, card, player)
        hand = deal.current_hand(player)
        trick = deal.tricks[-1] if deal.tricks and len(deal.tricks[-1]) < len(deal.active) else ()
        trump = deal.trump
        assert trump is not None
        if hand is not None:
            if card not in hand:
                raise RuleViolation("MULAT-EXCH-8", M("%(card)s is not in the hand %(player)s entered", card=card, player=Seat(player)),
                                    hand=[str(c) for c in hand])
            breach = check_play(hand, [c for _, c in trick], card, trump, state.opts.duties)
            if breach is not None:
                raise RuleViolation(BREACH_RULES[breach.kind], breach.describe(player, "german"), kind=breach.kind,
                                    card=str(card), witness=str(breach.witness))
        if trick:
            tricks = deal.tricks[:-1] + (trick + ((player, card),),)
        else:
            tricks = deal.tricks + (((player, card),),)
        active = deal.active
        if len(tricks[-1]) == len(active):
            last = tricks[-1]
            winner = trick_winner([c for _, c in last], last[0][0], trump, ORDER, seats=active)
            new = evolve(deal, tricks=tricks, leader=winner, to_act=winner)
        else:
            ring = list(active)
            new = evolve(deal, tricks=tricks, to_act=ring[(ring.index(player) + 1) % len(ring)])
        after = _refresh_proposals(state, new, played_by=player)
        assert after.deal is not None
        if len(tricks) == 5 and len(tricks[-1]) == len(active):
            return self._end_of_play(after)
        return after

    def _end_of_play(self, state: MulState) -> MulState:
        deal = state.deal
        assert deal is not None
        if any(p.status == "pending" for p in state.proposals):
            return evolve(state, deal=evolve(deal, phase="review", to_act=None))
        return self._score(state)

    # -- proposals -------------------------------------------------------------------------------

    def _resolve(self, state: MulState, event: Mapping[str, Any]) -> MulState:
        ident = int_field(event, "proposal")
        confirm = event.get("type") == "confirm"
        match = [p for p in state.proposals if p.id == ident and p.status == "pending"]
        if not match:
            raise RuleViolation("MULAT-SCORE-9", M("there is no pending proposal %(ident)s", ident=ident), proposal=ident)
        proposals = tuple(evolve(p, status="confirmed" if confirm else "dismissed") if p.id == ident else p
                          for p in state.proposals)
        new = evolve(state, proposals=proposals, scored=())
        deal = new.deal
        if deal is not None and deal.phase == "review" and not any(p.status == "pending" for p in proposals):
            return self._score(new)
        return new

    # -- scoring ---------------------------------------------------------------------------------

    def _score(self, state: MulState) -> MulState:
        deal = state.deal
        assert deal is not None and deal.declarer is not None and deal.trump is not None
        n = state.n
        won = deal.tricks_won()
        home = tuple(p for p in range(n) if deal.decisions[p] == "home")
        revokes = tuple(sorted({p.player for p in state.proposals if p.status == "confirmed"}))
        breaker = _breaker(deal) if deal.muli else None
        tricks = tuple(None if p in home else won[p] for p in range(n))
        collapses = min(deal.collapses, 1) if state.opts.collapse_cap else deal.collapses
        causes = _causes(deal.trump, collapses, deal.cut == "knock")
        return _book(state, deal.number, deal.dealer, deal.declarer, deal.contract, deal.forced, deal.trump,
                     causes, home, tricks, revokes, breaker)

    # -- tally -----------------------------------------------------------------------------------

    def _deal_result(self, state: MulState, event: Mapping[str, Any]) -> MulState:
        n = state.n
        dealer = state.dealer
        number = len(state.sheet) + 1
        if _bool(event, "thrown_in", False):
            if not state.opts.allpass_redeal:
                raise RuleViolation("MULAT-BID-9", M("when everyone passes the dealer plays for 1 trick (a throw-in needs the all-pass-redeal house rule)"))
            if all(s <= BID_LIMIT for s in state.scores):
                raise RuleViolation("MULAT-OPT-ALLPASS-REDEAL", M("everyone is on 5 or less, so nobody may bid and the dealer must play for 1 trick"))
            row = Row(number, dealer, None, 0, False, None, (), (), (None,) * n, (), None, (0,) * n,
                      state.scores, note="thrown in: everyone passed")
            return evolve(state, sheet=state.sheet + (row,), dealer=(dealer + 1) % n,
                           scored=(Scored(dealer, 0, "thrown in", "MULAT-OPT-ALLPASS-REDEAL"),))
        declarer = int_field(event, "declarer", minimum=0, maximum=n - 1)
        bid = int_field(event, "bid")
        forced = _bool(event, "forced", False)
        trump = _suit(event)
        if trump is None:
            raise RuleViolation("MULAT-TRUMP-1", M("name the trump suit: H, S, L or E"))
        home = _seat_list(event, "home", n)
        revokes = _seat_list(event, "revokes", n)
        causes = event.get("causes", [])
        if not isinstance(causes, list) or not all(isinstance(c, str) for c in causes):
            raise MalformedEvent(M("'causes' must be a list of 'hearts', 'knock', 'collapse'"), event)
        raw_tricks = event.get("tricks")
        if not isinstance(raw_tricks, list) or len(raw_tricks) != n:
            raise MalformedEvent(M("'tricks' must list the tricks of all %(n)s players (null for home)", n=n), event)
        for t in raw_tricks:
            if t is not None and (isinstance(t, bool) or not isinstance(t, int)):
                raise MalformedEvent(M("each entry of 'tricks' must be a whole number or null"), event)
        if not 1 <= bid <= 5:
            raise RuleViolation("MULAT-BID-1", M("a contract is 1 to 5 tricks, not %(bid)s", bid=bid))
        if forced:
            if declarer != dealer or bid != 1:
                raise RuleViolation("MULAT-BID-9", M("when everyone passes the dealer (%(dealer)s) plays for 1 trick", dealer=Seat(dealer)))
            if state.opts.allpass_redeal and not all(s <= BID_LIMIT for s in state.scores):
                raise RuleViolation("MULAT-OPT-ALLPASS-REDEAL", M("at this table an all-pass deal is thrown in"))
        elif state.scores[declarer] <= BID_LIMIT:
            raise RuleViolation("MULAT-BID-7", M("%(declarer)s has %(score)s points (5 or less) and could not bid", declarer=Seat(declarer), score=state.scores[declarer]), score=state.scores[declarer])
        if declarer in home:
            raise RuleViolation("MULAT-STAY-1", M("the declarer cannot stay home"))
        if home and (bid == 5 or trump == "H"):
            raise RuleViolation("MULAT-STAY-2", M("nobody stays home when Herz is trumps or in a Muli"))
        for p in home:
            if state.scores[p] <= STAY_LIMIT:
                raise RuleViolation("MULAT-STAY-3", M("%(p)s has %(score)s points (3 or less) and had to play", p=Seat(p), score=state.scores[p]), player=p)
        if len(home) >= n - 1:
            raise RuleViolation("MULAT-STAY-4", M("at least one player must play against the declarer"))
        tricks: list[int | None] = []
        for p, t in enumerate(raw_tricks):
            if p in home:
                if t not in (None, 0):
                    raise RuleViolation("MULAT-STAY-5", M("%(p)s stayed home and took no tricks", p=Seat(p)))
                tricks.append(None)
            else:
                if t is None or not 0 <= t <= 5:
                    raise RuleViolation("MULAT-SCORE-6", M("%(p)s took %(t)s tricks: give 0 to 5", p=Seat(p), t=t))
                tricks.append(t)
        total = sum(t for t in tricks if t is not None)
        if total != 5:
            raise RuleViolation("MULAT-SCORE-6", M("the tricks add up to %(total)s, not 5", total=total), total=total)
        for p in revokes:
            if p in home:
                raise RuleViolation("MULAT-SCORE-9", M("%(p)s stayed home and cannot have revoked", p=Seat(p)))
        for cause in causes:
            if cause not in ("hearts", "knock", "collapse"):
                raise RuleViolation("MULAT-SCORE-2", M("unknown doubling %(cause)s (hearts, knock, collapse)", cause=repr(cause)))
        if causes.count("knock") > 1 or causes.count("hearts") > 1:
            raise RuleViolation("MULAT-SCORE-2", M("a deal can be knocked, or have Herz trumps, only once"))
        if "hearts" in causes and trump != "H":
            raise RuleViolation("MULAT-SCORE-2", M("the hearts doubling needs Herz trumps"))
        if "knock" in causes and state.opts.no_knock:
            raise RuleViolation("MULAT-OPT-NO-KNOCK", M("knocking is not allowed at this table"))
        breaker: int | None = None
        failed_muli = bid == 5 and tricks[declarer] != 5
        if event.get("breaker") is not None or (failed_muli and state.opts.muli_breaker):
            # Needed to score a failed Muli under MULAT-OPT-MULI-BREAKER; otherwise only noted.
            breaker = int_field(event, "breaker", minimum=0, maximum=n - 1)
            if not failed_muli or breaker == declarer or not tricks[breaker]:
                raise RuleViolation("MULAT-SCORE-4", M("the breaker is an opponent who took the first trick the declarer lost"))
        collapses = causes.count("collapse")
        if state.opts.collapse_cap:
            collapses = min(collapses, 1)
        final_causes = _causes(trump, collapses, "knock" in causes)
        return _book(state, number, dealer, declarer, bid, forced, trump, final_causes, tuple(home),
                     tuple(tricks), tuple(sorted(revokes)), breaker)

    # -- reading the state -----------------------------------------------------------------------

    def outcome(self, state: MulState) -> Outcome | None:
        if not state.winner:
            return None
        winner: int | list[int] = state.winner[0] if len(state.winner) == 1 else list(state.winner)
        rule = "MULAT-END-2" if sum(1 for s in state.scores if s <= 0) > 1 else "MULAT-END-1"
        return Outcome(winner, M("reached 0 from 21"), rule)

    def hints(self, state: MulState) -> list[Event]:
        if state.over or state.deal is None:
            return [] if state.over else [{"type": "deal_result"}]
        return _hints(state, state.deal)

    def to_json(self, state: MulState) -> JSON:
        deal = state.deal
        winner: int | list[int] | None = None
        if state.winner:
            winner = state.winner[0] if len(state.winner) == 1 else list(state.winner)
        to_act = None if state.over or deal is None else deal.to_act
        data = common_json(state.scores, state.over, winner, to_act)
        data.update(
            mode=state.mode,
            phase="over" if state.over else ("tally" if deal is None else deal.phase),
            dealer=state.dealer,
            start=START,
            sheet=[row.to_json() for row in state.sheet],
            proposals=[p.to_json() for p in state.proposals],
            limits={"bid": BID_LIMIT, "stay": STAY_LIMIT},
            deal=None if deal is None else _deal_json(state, deal),
        )
        return data

    def describe(self, event: Mapping[str, Any], players: Sequence[str]) -> str:
        return _describe(event, players)


def resume(state: MulState, scores: Sequence[int], dealer: int) -> MulState:
    """Carry a game over from a paper sheet: the current scores and who deals next.

    Only for a table that has not started (no deal entered); used by tests to set up the
    spec's worked examples, which begin mid-game.
    """
    if state.sheet or (state.deal is not None and (state.deal.phase != "cut" or state.deal.collapses)):
        raise RuleViolation("MULAT-DEAL-1", M("a game can only be resumed before its first deal"))
    if len(scores) != state.n or not 0 <= dealer < state.n:
        raise SetupError("MULAT-COMP-5", M("give one score for each of the %(n)s players and a dealer seat", n=state.n))
    after = evolve(state, scores=tuple(scores), dealer=dealer)
    return after if state.deal is None else evolve(after, deal=_fresh_deal(after, 1, dealer, 0))


# --- state-building helpers -------------------------------------------------------------------


def _fresh_deal(state: MulState, number: int, dealer: int, collapses: int) -> Deal:
    n = state.n
    return Deal(number=number, dealer=dealer, players=n, collapses=collapses,
                stock=state.opts.pack_size - 5 * n, to_act=(dealer - 1) % n, hands=(None,) * n,
                decisions=(None,) * n)


def _deal(state: MulState) -> Deal:
    assert state.deal is not None
    return state.deal


def _player(state: MulState, event: Mapping[str, Any]) -> int:
    player = int_field(event, "player")
    if not 0 <= player < state.n:
        raise MalformedEvent(M("there is no player %(seat)s; seats are 0 to %(last)s", seat=player, last=state.n - 1), event)
    return player


def _bool(event: Mapping[str, Any], key: str, default: bool | None) -> bool:
    value = event.get(key, default)
    if not isinstance(value, bool):
        raise MalformedEvent(M("%(key)s must be true or false", key=repr(key)), event)
    return value


def _suit(event: Mapping[str, Any]) -> str | None:
    value = event.get("suit", event.get("trump"))
    if value is None:
        return None
    if not isinstance(value, str):
        raise MalformedEvent(M("the suit must be H, S, L or E"), event)
    suit = value.strip().upper()
    if suit not in SUITS:
        raise RuleViolation("MULAT-TRUMP-1", M("trumps are H, S, L or E, not %(value)s", value=repr(value)))
    return suit


_PACKS: dict[bool, frozenset[Card]] = {sixes: frozenset(german_pack(with_sixes=sixes)) for sixes in (False, True)}


def _in_pack(card: Card, opts: Opts) -> None:
    if card not in _PACKS[opts.pack36]:
        if card == Card("6", "S"):
            raise RuleViolation("MULAT-COMP-3", M("the Schellen-6 is the Weli: write W"))
        raise RuleViolation("MULAT-COMP-1", M("%(card)s is not in this pack", card=card) if opts.pack36 else
                            M("%(card)s is not in this pack (sixes only with the 36-card pack)", card=card),
                            card=str(card))


def _card(event: Mapping[str, Any], key: str, opts: Opts) -> Card:
    raw = event.get(key)
    if not isinstance(raw, str):
        raise MalformedEvent(M("the event needs %(key)s, a card such as 'OH' or 'W'", key=repr(key)), event)
    card = parse_card(raw, "german")
    _in_pack(card, opts)
    return card


def _cards(event: Mapping[str, Any], key: str, opts: Opts) -> list[Card]:
    raw = event.get(key)
    if not isinstance(raw, (list, str)):
        raise MalformedEvent(M("the event needs %(key)s, a list of cards", key=repr(key)), event)
    cards = parse_cards(raw, "german")
    for card in cards:
        _in_pack(card, opts)
    if len(set(cards)) != len(cards):
        raise RuleViolation("MULAT-COMP-1", M("the same card is given twice"), cards=[str(c) for c in cards])
    return cards


def _seat_list(event: Mapping[str, Any], key: str, n: int) -> list[int]:
    raw = event.get(key, [])
    if not isinstance(raw, list) or any(isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < n
                                        for p in raw):
        raise MalformedEvent(M("%(key)s must be a list of seat numbers 0 to %(value)s", key=repr(key), value=n - 1), event)
    return sorted(set(raw))


def _check_unseen(deal: Deal, card: Card, player: int | None) -> None:
    """MULAT-COMP-1: a card can turn up only once; a card known to be with one player is nobody else's."""
    if card in deal.all_played():
        raise RuleViolation("MULAT-COMP-1", M("%(card)s has already been played in this deal", card=card), card=str(card))
    holder = deal.owner(card)
    if holder is None:
        who = dict(deal.reach).get(card) if player is not None and deal.reach else None
        if who is not None and player not in who:
            seats = Join(tuple(Seat(p) for p in who), ", ") if who else M("nobody yet")
            raise RuleViolation("MULAT-COMP-1", M("%(card)s was seen before the stock was reshuffled: since then only its last holder or a player who drew from the new stock can have it (%(seats)s)", card=card, seats=seats),
                                card=str(card), holders=list(who))
        return
    if holder == player:
        return
    if holder == -1:
        raise RuleViolation("MULAT-COMP-1", M("%(card)s has been thrown away in this deal", card=card), card=str(card))
    raise RuleViolation("MULAT-COMP-1", M("%(card)s has already been seen with %(holder)s", card=card, holder=Seat(holder)), card=str(card),
                        holder=holder)


def _weli_rule(deal: Deal) -> str:
    """The Weli is kept at a cut (MULAT-DEAL-3) or at a knock (MULAT-DEAL-4)."""
    return "MULAT-DEAL-4" if deal.cut == "knock" else "MULAT-DEAL-3"


def _check_no_weak_hand(state: MulState, deal: Deal) -> None:
    """MULAT-DEAL-7: while the collapse window is open, an entered weak hand must be declared first."""
    if state.opts.collapse_optional or deal.calls and not deal.muli_out_of_turn:
        return
    for p in range(state.n):
        entered = deal.hands[p]
        if entered is not None and len(entered) == 5 and _weak(entered, state.opts):
            raise RuleViolation("MULAT-DEAL-7", M("%(p)s holds nothing above the 10 and must declare unter dem Hund first", p=Seat(p)), player=p)


def _check_limit(state: MulState, count: int) -> None:
    if count > state.opts.exch_limit:
        raise RuleViolation("MULAT-EXCH-10", M("at this table a player exchanges at most %(exch_limit)s cards", exch_limit=state.opts.exch_limit), limit=state.opts.exch_limit)


def _available(state: MulState, deal: Deal) -> int:
    """Stock cards a player may still ask for (MULAT-EXCH-9), net of Bridges waiting to be dealt."""
    pool = deal.stock + (deal.discards if state.opts.reshuffle else 0)
    return max(pool - deal.reserved, 0)


def _can_exchange(state: MulState, deal: Deal, player: int) -> bool:
    if state.scores[player] <= STAY_LIMIT:
        return False
    return state.opts.reshuffle or _available(state, deal) > 0


def _take(state: MulState, deal: Deal, count: int, player: int) -> Deal:
    """``player`` draws from the stock; with MULAT-OPT-RESHUFFLE the thrown cards become a new stock
    when it runs out."""
    if count <= deal.stock:
        new = evolve(deal, stock=deal.stock - count)
    else:
        short = count - deal.stock
        assert state.opts.reshuffle and short <= deal.discards
        # Thrown cards go back into play: only cards in an entered, untouched hand are still placed.
        # Any other seen card may be in the new stock, so from now on it may reach whoever draws
        # (and may still be with its last holder), but never a player who drew before.
        owners = tuple((c, h) for c, h in deal.owners
                       if h >= 0 and (hand := deal.hands[h]) is not None and c in hand)
        reach = dict(deal.reach)
        reach.update((c, (h,) if h >= 0 else ()) for c, h in deal.owners if (c, h) not in owners)
        new = evolve(deal, stock=deal.discards - short, discards=0, owners=owners, reach=tuple(reach.items()))
    if count and new.reach:
        new = evolve(new, reach=tuple((c, who if player in who else who + (player,)) for c, who in new.reach))
    return new


def _throw_and_draw(state: MulState, deal: Deal, player: int, count: int, rule: str) -> Deal:
    after_throw = evolve(deal, discards=deal.discards + count)
    if count > _available(state, after_throw):
        raise RuleViolation(rule, M("only %(value)s stock cards are left", value=_available(state, deal)), stock=_available(state, deal))
    return _take(state, after_throw, count, player)


def _deal_face_up(state: MulState, deal: Deal, player: int, face_up: Sequence[Card], thrown: int,
                  rule: str, trump_first: bool) -> Deal:
    """Five face down, then face-up cards while they are trumps (Bridge, delayed trump)."""
    trump = deal.trump
    assert trump is not None
    after_throw = evolve(deal, discards=deal.discards + thrown)
    pool = _available(state, after_throw)
    drawn = 5 + len(face_up)
    if pool < 6:
        raise RuleViolation("MULAT-EXCH-9", M("this needs at least 6 stock cards; %(pool)s left", pool=pool), stock=pool)
    if drawn > pool:
        raise RuleViolation("MULAT-EXCH-9", M("only %(pool)s stock cards: at most %(value)s face-up cards", pool=pool, value=pool - 5),
                            stock=pool)
    for index, card in enumerate(face_up[:-1]):
        if not (_is_trump(card, trump) or (index == 0 and trump_first)):
            raise RuleViolation(rule, M("%(card)s is not a trump, so no card is dealt face up after it", card=card),
                                card=str(card))
    last = face_up[-1]
    exhausted = drawn == pool
    last_is_trump = _is_trump(last, trump) or (len(face_up) == 1 and trump_first)
    if last_is_trump and not exhausted:
        raise RuleViolation(rule, M("%(last)s is a trump, so another card is dealt face up", last=last), card=str(last))
    new = _take(state, after_throw, drawn, player)
    for card in face_up:
        _check_unseen(new, card, None)   # after any reshuffle, which puts thrown cards back in play
    new = evolve(new, discards=new.discards + len(face_up))
    for card in face_up:
        new = new.with_owner(card, player)
    return new


def _forget_hand(deal: Deal, player: int) -> Deal:
    hands = list(deal.hands)
    hands[player] = None
    return evolve(deal, hands=tuple(hands))


def _refresh_proposals(state: MulState, deal: Deal, played_by: int | None = None) -> MulState:
    """Re-run the retroactive audit; each newly proven (player, trick) becomes a pending proposal.

    ``played_by``: the seat whose card (accepted by ``_play``) is the only change since the
    previous refresh. Every revoke the cards proved before it is among the proposals already
    (a refresh follows every play and every entered hand, and proposals last until the deal is
    booked), and the new card changes only this seat's partial hands (rules README §4): not
    at all when its hand was entered (the card was in it and was checked live), else by that
    one card. So the full audit runs only when this seat's own plays prove a revoke not yet
    proposed, and the proposals come out exactly as a full audit after every play made them.
    """
    if deal.trump is None or not deal.tricks:
        return evolve(state, deal=deal, scored=())
    if played_by is not None and (deal.current_hand(played_by) is not None
                                  or not _new_revoke_by(state, deal, played_by)):
        return evolve(state, deal=deal, scored=())
    holding = {p: hand for p in range(state.n) if (hand := deal.current_hand(p)) is not None}
    found = audit_revokes(deal.tricks, deal.trump, state.opts.duties, holding)
    known = {(p.player, p.trick): index for index, p in enumerate(state.proposals)}
    proposals = list(state.proposals)
    next_id = state.next_id
    for revoke in found:
        if (revoke.player, revoke.trick) in known:
            # A pending proposal follows the evidence: when later cards prove a plainer duty
            # (could follow, not only trump), that is the duty the table argues about.
            index = known[(revoke.player, revoke.trick)]
            old = proposals[index]
            if old.status == "pending" and old.deal == deal.number and old.kind != revoke.kind:
                proposals[index] = evolve(old, kind=revoke.kind, evidence=revoke.evidence,
                                          evidence_trick=revoke.evidence_trick, message=revoke.describe("german"))
            continue
        proposals.append(Proposal(next_id, deal.number, revoke.player, revoke.trick, revoke.card, revoke.kind,
                                  revoke.evidence, revoke.evidence_trick, revoke.describe("german")))
        known[(revoke.player, revoke.trick)] = len(proposals) - 1
        next_id += 1
    return evolve(state, deal=deal, proposals=tuple(proposals), next_id=next_id, scored=())


def _new_revoke_by(state: MulState, deal: Deal, player: int) -> bool:
    """Do the cards ``player`` (hand not entered) has played prove a revoke not yet proposed, or
    a plainer duty than a pending proposal names?"""
    assert deal.trump is not None
    proposed = {p.trick: (p.kind if p.status == "pending" else None)
                for p in state.proposals if p.player == player and p.deal == deal.number}
    duties = state.opts.duties
    # Not the last trick: there the partial hand is the one card played, which is always legal.
    for index, trick in enumerate(deal.tricks[:-1]):
        for position, (seat, card) in enumerate(trick):
            if seat != player or position == 0:
                continue
            if index + 1 in proposed and proposed[index + 1] in (None, "follow"):
                continue   # decided, or already the plainest duty
            hand = hand_at(deal.tricks, player, index)
            breach = check_play(hand, [c for _, c in trick[:position]], card, deal.trump, duties)
            if breach is not None and breach.kind != proposed.get(index + 1):
                return True
    return False


def _breaker(deal: Deal) -> int | None:
    """MULAT-OPT-MULI-BREAKER: who won the first trick the Muli declarer lost."""
    for index in range(len(deal.tricks)):
        winner = deal.trick_winner(index)
        if winner != deal.declarer:
            return winner
    return None


def _book(state: MulState, number: int, dealer: int, declarer: int, contract: int, forced: bool, trump: str,
          causes: tuple[str, ...], home: tuple[int, ...], tricks: tuple[int | None, ...],
          revokes: tuple[int, ...], breaker: int | None) -> MulState:
    """Write the deal's row, move the totals and the dealer, and check for the end (MULAT-END-*)."""
    n = state.n
    m = 1 << len(causes)
    lines = deal_changes(state.opts, n, declarer, contract, home, [t or 0 for t in tricks], m, revokes, breaker)
    changes = tuple(change for change, _, _ in lines)
    totals = tuple(s + c for s, c in zip(state.scores, changes, strict=True))
    row = Row(number, dealer, declarer, contract, forced, trump, causes, home, tricks, revokes, breaker,
              changes, totals)
    scored = tuple(Scored(p, change, what, rule, Msg("×%(m)s", {"m": m}) if m > 1 else "")
                   for p, (change, what, rule) in enumerate(lines))
    winner = _winners(totals)
    next_dealer = (dealer + 1) % n
    after = evolve(state, scores=totals, sheet=state.sheet + (row,), dealer=next_dealer, winner=winner,
                    proposals=(), scored=scored)
    if state.mode == "tally":
        return evolve(after, deal=None)
    if winner:
        assert state.deal is not None
        return evolve(after, deal=evolve(state.deal, phase="over", to_act=None))
    return evolve(after, deal=_fresh_deal(after, number + 1, next_dealer, 0))


# --- screens ---------------------------------------------------------------------------------


def _deal_json(state: MulState, deal: Deal) -> JSON:
    n = state.n
    tricks: list[JSON] = []
    active = deal.active
    for index, trick in enumerate(deal.tricks):
        complete = len(trick) == len(active)
        tricks.append({"number": index + 1, "leader": trick[0][0],
                       "cards": [{"player": p, "card": str(c)} for p, c in trick],
                       "winner": deal.trick_winner(index) if complete else None})
    won = deal.tricks_won()
    collapses = min(deal.collapses, 1) if state.opts.collapse_cap else deal.collapses
    causes = _causes(deal.trump, collapses, deal.cut == "knock")
    return {
        "number": deal.number,
        "phase": deal.phase,
        "dealer": deal.dealer,
        "cutter": deal.cutter,
        "forehand": deal.forehand,
        "to_act": deal.to_act,
        "cut": deal.cut,
        "weli_to": deal.weli_to,
        "collapses": deal.collapses,
        "bids": [c.to_json() for c in deal.calls],
        "high_bid": deal.high,
        "high_bidder": deal.high_bidder,
        "duel": None if deal.duel is None else {"dealer": deal.duel[0], "displaced": deal.duel[1]},
        "declarer": deal.declarer,
        "contract": deal.contract,
        "muli": deal.muli,
        "forced": deal.forced,
        "trump": deal.trump,
        "multiplier": 1 << len(causes),
        "causes": list(causes),
        "decisions": list(deal.decisions),
        "playing": list(active) if deal.declarer is not None and None not in deal.decisions else None,
        "home": [p for p in range(n) if deal.decisions[p] == "home"],
        "stock": deal.stock,
        "stock_available": _available(state, deal),
        "discards": deal.discards,
        "exchanges": [e.to_json() for e in deal.exchanges],
        "exchange_queue": list(deal.exch_queue),
        "bridge_queue": list(deal.bridge_queue),
        "tricks": tricks,
        "next_leader": deal.leader if deal.phase == "play" and not _trick_open(deal) else None,
        "tricks_won": won,
        "hands_entered": [h is not None for h in deal.hands],
        "cards_held": [None if deal.decisions[p] == "home" else 5 - len(deal.played_by(p)) for p in range(n)],
        "seen": [{"card": str(c), "holder": h} for c, h in deal.owners],
    }


def _trick_open(deal: Deal) -> bool:
    return bool(deal.tricks) and len(deal.tricks[-1]) < len(deal.active)


def _hints(state: MulState, deal: Deal) -> list[Event]:
    n = state.n
    p = deal.to_act
    phase = deal.phase
    if phase == "cut":
        hints: list[Event] = [{"type": "cut", "player": deal.cutter, "weli": False}]
        if not state.opts.no_knock:
            hints.append({"type": "knock", "player": deal.cutter, "weli": False})
        return hints
    if phase in ("bidding", "trump"):
        try:
            _check_no_weak_hand(state, deal)
        except RuleViolation as exc:
            weak = exc.facts["player"]
            return [{"type": "collapse", "player": weak, "cards": [str(c) for c in deal.hands[weak] or ()]}]
    if phase == "bidding" and p is not None:
        hints = [{"type": "pass", "player": p}]
        if state.scores[p] > BID_LIMIT:
            top = 5 if deal.duel is None or deal.high < 5 else 0
            hints += [{"type": "bid", "player": p, "tricks": t} for t in range(deal.high + 1, top + 1)]
            if p == deal.dealer and deal.high_bidder not in (None, p):
                hints.append({"type": "hold", "player": p})
        if not deal.calls:
            hints += [{"type": "muli", "player": q} for q in range(n) if state.scores[q] > BID_LIMIT]
        return hints
    if phase == "trump" and p is not None:
        return [{"type": "trump", "player": p, "suit": s} for s in SUITS]
    if phase == "stay" and p is not None:
        hints = [{"type": "join", "player": p}]
        last = p == deal.stay_order[-1] and all(deal.decisions[q] == "home" for q in deal.stay_order[:-1])
        if state.scores[p] > STAY_LIMIT and not last:
            hints.append({"type": "stay_home", "player": p})
        return hints
    if phase == "exchange" and p is not None:
        if not deal.exch_queue:
            return []   # the Bridge cards are whatever the stock gives: nothing to list
        top = min(5, state.opts.exch_limit, 5 if state.opts.reshuffle else _available(state, deal))
        return [{"type": "exchange", "player": p, "count": k} for k in range(top + 1)]
    if phase == "play" and p is not None:
        hand = deal.current_hand(p)
        if hand is None:
            return []
        trick = deal.tricks[-1] if deal.tricks and len(deal.tricks[-1]) < len(deal.active) else ()
        assert deal.trump is not None
        return [{"type": "play", "player": p, "card": str(c)}
                for c in legal_cards(hand, [c for _, c in trick], deal.trump, state.opts.duties)]
    if phase == "review":
        return [{"type": kind, "proposal": prop.id} for prop in state.proposals if prop.status == "pending"
                for kind in ("confirm", "dismiss")]
    return []


def _describe(event: Mapping[str, Any], players: Sequence[str]) -> Msg:
    kind = event.get("type")
    p = event.get("player")
    who = players[p] if isinstance(p, int) and 0 <= p < len(players) else "?"
    weli = bool(event.get("weli"))
    if kind == "cut":
        return M("%(who)s cuts and keeps the Weli", who=who) if weli else M("%(who)s cuts", who=who)
    if kind == "knock":
        return M("%(who)s knocks (×2) and keeps the Weli", who=who) if weli else M("%(who)s knocks (×2)", who=who)
    if kind == "collapse":
        return M("%(who)s: unter dem Hund — redeal, next deal doubled", who=who)
    if kind == "muli":
        return M("%(who)s announces Muli", who=who)
    if kind == "bid":
        return M("%(who)s bids %(tricks)s", who=who, tricks=str(event.get("tricks"))) if event.get("tricks") \
            else M("%(who)s passes", who=who)
    if kind == "pass":
        return M("%(who)s passes", who=who)
    if kind == "hold":
        return M("%(who)s: mit mir", who=who)
    if kind == "trump":
        if event.get("delayed"):
            return M("%(who)s takes the Packerl for trumps", who=who)
        suit = str(event.get("suit", "?")).upper()
        return M("%(who)s names %(suit)s trumps", who=who, suit=SUIT_NAMES.get(suit, suit))
    if kind == "join":
        return M("%(who)s plays along", who=who)
    if kind == "stay_home":
        return M("%(who)s stays home", who=who)
    if kind == "exchange":
        sort = event.get("kind", "normal")
        if sort == "normal":
            return M("%(who)s exchanges %(count)s", who=who, count=str(event.get("count")))
        return M("%(who)s exchanges (%(kind)s)", who=who, kind=str(sort))
    if kind == "bridge_cards":
        return M("%(who)s is dealt the Bridge", who=who)
    if kind == "play":
        return M("%(who)s plays %(card)s", who=who, card=_card_or_text(event.get("card")))
    if kind == "hand":
        return M("%(who)s enters their hand", who=who)
    if kind == "confirm":
        return M("revoke proposal %(id)s confirmed", id=str(event.get("proposal")))
    if kind == "dismiss":
        return M("revoke proposal %(id)s dismissed", id=str(event.get("proposal")))
    if kind == "dealer":
        return M("%(who)s deals first", who=who)
    if kind == "deal_result":
        if event.get("thrown_in"):
            return M("deal thrown in")
        d = event.get("declarer")
        name = players[d] if isinstance(d, int) and 0 <= d < len(players) else "?"
        return M("%(who)s played %(bid)s in %(suit)s", who=name, bid=str(event.get("bid")),
                 suit=str(event.get("trump", event.get("suit"))))
    return Msg("%(kind)s", {"kind": str(kind)})


def _card_or_text(text: Any) -> Card | str:
    """A card of the event as its name; text that is not a card as entered."""
    try:
        return parse_card(str(text), "german")
    except ValueError:
        return str(text)


_Handler = Callable[[Mulatschak, MulState, Mapping[str, Any]], MulState]
_ADJUDICATE: dict[str, _Handler] = {
    "dealer": Mulatschak._dealer,
    "cut": Mulatschak._cut,
    "knock": Mulatschak._cut,
    "hand": Mulatschak._hand,
    "collapse": Mulatschak._collapse,
    "muli": Mulatschak._muli,
    "bid": Mulatschak._bid,
    "pass": Mulatschak._pass,
    "hold": Mulatschak._hold,
    "trump": Mulatschak._trump,
    "join": Mulatschak._stay,
    "stay_home": Mulatschak._stay,
    "exchange": Mulatschak._exchange,
    "bridge_cards": Mulatschak._bridge_cards,
    "play": Mulatschak._play,
    "confirm": Mulatschak._resolve,
    "dismiss": Mulatschak._resolve,
}
_TALLY: dict[str, _Handler] = {
    "dealer": Mulatschak._dealer,
    "deal_result": Mulatschak._deal_result,
}
