"""Tomelilla Mulle (rules/mulle.md): two packs, captures by value or rank, points pegged at once, 61 wins.

Adjudicate mode takes the fishing-game events of DESIGN §2 (``deal`` with the face-up table
cards, ``play`` with the cards taken) and derives everything else: whose turn it is, the rounds
of five cards, the end of the deal (last capture, leftovers, most spades) and the instant win at
61. Tally mode takes only scoring facts (``tally``) and pegs them.

The engine never sees a hand. What it can check at once is what lies on the table and how often
each of the 104 cards has been seen in this deal (MULLE-COMP-1).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any, ClassVar, Literal

from scorekeeper.cards import FRENCH_RANKS, FRENCH_SUITS, Card, parse_card, parse_cards
from scorekeeper.engine.base import (
    JSON,
    MODES,
    BaseRules,
    Event,
    MalformedEvent,
    Mode,
    OptionSpec,
    Outcome,
    RuleViolation,
    Scored,
    SetupError,
    Sides,
    common_json,
    int_field,
)
from scorekeeper.engine.capture import (
    Grouping,
    ValueScheme,
    card_sort_key,
    count_captures,
    explain_failure,
    find_grouping,
    legal_captures,
    legal_with_mixed_values,
    mulle_scheme,
)
from scorekeeper.engine.messages import Join, M, Msg

TARGET = 61
COPIES = 2
PACK_SIZE = 104
ALL_CARDS: tuple[Card, ...] = tuple(Card(r, s) for s in FRENCH_SUITS for r in FRENCH_RANKS)
PARTNERS = ((0, 2), (1, 3))
HINT_LIMIT = 60  # captures listed per card by ``hints`` (the smallest ones)

# Table cards and the hand size of every round, per player count (MULLE-DEAL-3..6).
LAYOUT: dict[int, tuple[int, tuple[int, ...]]] = {
    2: (4, (5,) * 10),
    3: (5, (5,) * 6 + (3,)),
    4: (4, (5,) * 5),
}

# Tally mode: what can be pegged, its points and the rule that awards it.
TALLY: dict[str, tuple[int, str]] = {
    "ace": (1, "MULLE-SCORE-1"),
    "two_of_spades": (1, "MULLE-SCORE-1"),
    "ten_of_diamonds": (2, "MULLE-SCORE-1"),
    "tabbe": (1, "MULLE-SCORE-2"),
    "mulle": (3, "MULLE-SCORE-3"),
    "last_capture": (1, "MULLE-SCORE-5"),
    "most_spades": (1, "MULLE-SCORE-7"),
}
TALLY_ALIASES = {"sweep": "tabbe", "lillan": "two_of_spades", "storan": "ten_of_diamonds",
                 "2S": "two_of_spades", "10D": "ten_of_diamonds", "spades": "most_spades"}
# How often a fact can happen in one deal (only checked once deals are marked in tally mode).
TALLY_CAPS: dict[str, tuple[int, str]] = {
    "ace": (8, "MULLE-COMP-4"),
    "two_of_spades": (2, "MULLE-COMP-4"),
    "ten_of_diamonds": (2, "MULLE-COMP-4"),
    "last_capture": (1, "MULLE-SCORE-5"),
    "most_spades": (1, "MULLE-SCORE-7"),
}

# The tally facts in words (history lines, "3 × ace").
_TALLY_WORDS = {"ace": M("ace"), "two_of_spades": M("two of spades"), "ten_of_diamonds": M("ten of diamonds"),
                "tabbe": M("tabbe"), "mulle": M("mulle"), "last_capture": M("last capture"),
                "most_spades": M("most spades")}


def _tally_word(what: str) -> str:
    return _TALLY_WORDS.get(what) or what.replace("_", " ")


Phase = Literal["deal", "play", "tally", "over"]


def point_value(card: Card) -> tuple[int, str]:
    """MULLE-COMP-4: what a captured card is worth and the tally name of that fact."""
    if card.rank == "A":
        return 1, "ace"
    if card.rank == "2" and card.suit == "S":
        return 1, "two_of_spades"
    if card.rank == "10" and card.suit == "D":
        return 2, "ten_of_diamonds"
    return 0, ""


_PARSED: dict[str, Card] = {}


def _card(text: Any) -> Card:
    """``parse_card`` with a cache: replaying a table parses the same few dozen strings again and again."""
    if isinstance(text, str):
        found = _PARSED.get(text)
        if found is None:
            found = parse_card(text)
            if len(_PARSED) < 4096:
                _PARSED[text] = found
        return found
    return parse_card(text)


def _cards(items: Any) -> list[Card]:
    if isinstance(items, list):
        return [_card(item) for item in items]
    return parse_cards(items)


def _names(cards: Iterable[Card]) -> Join | Msg:
    listed = tuple(cards)
    return Join(listed) if listed else M("nothing")


@dataclass(frozen=True, slots=True)
class LastMove:
    player: int
    card: Card
    taken: tuple[Card, ...]
    grouping: Grouping | None
    sweep: bool
    mulle: bool
    points: int

    def to_json(self) -> JSON:
        return {
            "player": self.player,
            "card": str(self.card),
            "capture": [str(c) for c in self.taken],
            "kind": "capture" if self.taken else "trail",
            "value": self.grouping.value if self.grouping else None,
            "grouping": self.grouping.describe() if self.grouping else None,
            "groups": self.grouping.to_json()["groups"] if self.grouping else [],
            "sweep": self.sweep,
            "mulle": self.mulle,
            "points": self.points,
            "describe": self.grouping.summary(self.card) if self.grouping else
            M("trail: %(card)s stays on the table", card=self.card),
        }


@dataclass(frozen=True, slots=True)
class DealRecord:
    """One line of the per-deal history; also the end-of-deal summary (MULLE-SCORE-5..9)."""

    deal: int
    dealer: int | None
    finished: bool  # False when the game ended inside the deal
    points: tuple[int, ...]
    scores: tuple[int, ...]
    sweeps: tuple[int, ...]
    mulles: tuple[int, ...]
    piles: tuple[int, ...]
    spades: tuple[int, ...]
    last_capturer: int | None = None
    last_capture_side: int | None = None
    leftovers: tuple[Card, ...] = ()
    most_spades: int | None = None
    spades_counted: bool = False

    def to_json(self) -> JSON:
        return {
            "deal": self.deal,
            "dealer": self.dealer,
            "finished": self.finished,
            "points": list(self.points),
            "scores": list(self.scores),
            "sweeps": list(self.sweeps),
            "mulles": list(self.mulles),
            "piles": list(self.piles),
            "spades": list(self.spades),
            "last_capture": None if self.last_capturer is None else {
                "player": self.last_capturer, "side": self.last_capture_side},
            "leftovers": [str(c) for c in self.leftovers],
            "leftovers_to": self.last_capture_side if self.leftovers else None,
            "most_spades": self.most_spades,
            "spades_counted": self.spades_counted,
        }


@dataclass(frozen=True, slots=True)
class MulleState:
    players: tuple[str, ...]
    sides: Sides
    mode: Mode
    strict_value: bool
    no_last_sweep: bool
    mulle_alone: bool
    scores: tuple[int, ...]
    previous: tuple[int, ...]
    phase: Phase
    dealer: int | None = None
    deal_no: int = 0
    round_no: int = 0
    plays_in_round: int = 0
    table: tuple[Card, ...] = ()
    seen: Mapping[Card, int] = field(default_factory=dict)  # copies seen this deal; never mutated
    piles: tuple[int, ...] = ()
    spades: tuple[int, ...] = ()
    deal_points: tuple[int, ...] = ()
    sweeps: tuple[int, ...] = ()
    mulles: tuple[int, ...] = ()
    last_capturer: int | None = None
    last_move: LastMove | None = None
    deal_end: DealRecord | None = None
    history: tuple[DealRecord, ...] = ()
    tally_counts: Mapping[str, int] = field(default_factory=dict)  # this deal's facts, tally mode
    winner: int | None = None
    scored: tuple[Scored, ...] = ()

    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def table_size(self) -> int:
        return LAYOUT[self.n][0]

    @property
    def rounds(self) -> tuple[int, ...]:
        return LAYOUT[self.n][1]

    @property
    def hand_size(self) -> int:
        return self.rounds[self.round_no - 1] if self.round_no else 0

    @property
    def is_last_round(self) -> bool:
        return self.round_no == len(self.rounds)

    @property
    def to_act(self) -> int | None:
        if self.phase != "play" or self.dealer is None:
            return None
        return (self.dealer + 1 + self.plays_in_round) % self.n

    @property
    def next_dealer(self) -> int | None:
        """MULLE-DEAL-1: forehand deals next."""
        return None if self.dealer is None else (self.dealer + 1) % self.n

    @property
    def scheme(self) -> ValueScheme:
        return mulle_scheme(self.strict_value)

    @property
    def final_play_next(self) -> bool:
        return self.is_last_round and self.plays_in_round == self.n * self.hand_size - 1

    def played_this_round(self, player: int) -> int:
        first = (self.dealer or 0) + 1
        offset = (player - first) % self.n
        full, extra = divmod(self.plays_in_round, self.n)
        return full + (1 if offset < extra else 0)

    def unseen(self, card: Card) -> int:
        return COPIES - self.seen.get(card, 0)


_STATE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(MulleState))
_FIELD_INDEX = {name: index for index, name in enumerate(_STATE_FIELDS)}
_ALL_FIELDS = attrgetter(*_STATE_FIELDS)


def replace(state: MulleState, **changes: Any) -> MulleState:
    """``dataclasses.replace`` for the state, without its per-call introspection: a whole deal
    is replayed event by event on every cache miss, so this is the hot path."""
    values = list(_ALL_FIELDS(state))
    for name, value in changes.items():
        values[_FIELD_INDEX[name]] = value
    return MulleState(*values)


class _Pegs:
    """The score changes of one event, built up before the new state is made."""

    def __init__(self, state: MulleState) -> None:
        self.state = state
        self.scores = list(state.scores)
        self.previous = list(state.previous)
        self.deal_points = list(state.deal_points) if state.deal_points else [0] * state.sides.count
        self.touched: set[int] = set()
        self.facts: list[Scored] = []
        self.winner: int | None = None

    def add(self, side: int, points: int, what: str, rule: str, detail: str | Msg = "") -> None:
        if self.winner is not None or points == 0:
            return
        if side not in self.touched:
            self.touched.add(side)
            self.previous[side] = self.scores[side]
        self.scores[side] += points
        self.deal_points[side] += points
        self.facts.append(Scored(side, points, what, rule, detail))

    def check_win(self) -> bool:
        """MULLE-END-3: the first side at 61 wins; points reach one side at a time."""
        if self.winner is None:
            for side, score in enumerate(self.scores):
                if score >= TARGET:
                    self.winner = side
                    break
        return self.winner is not None


def _sweep_and_mulle(card: Card, taken: Sequence[Card], table: Sequence[Card]) -> tuple[bool, bool]:
    sweep = bool(taken) and len(taken) == len(table)  # taken ⊆ table, so equal size means all of it
    return sweep, len(taken) == 1 and taken[0] == card


def move_points(card: Card, taken: Sequence[Card], table: Sequence[Card],
                sweep_counts: bool = True) -> list[tuple[int, str, str, str]]:
    """The (points, what, rule, detail) facts of one capture (MULLE-SCORE-1..3)."""
    if not taken:
        return []
    facts: list[tuple[int, str, str, str]] = []
    for point_card in sorted([card, *taken], key=card_sort_key):
        value, what = point_value(point_card)
        if value:
            facts.append((value, what, "MULLE-SCORE-1", Msg("%(card)s", {"card": point_card})))
    sweep, mulle = _sweep_and_mulle(card, taken, table)
    if sweep and sweep_counts:
        facts.append((1, "tabbe", "MULLE-SCORE-2", M("Tabbe")))
    if mulle:
        facts.append((3, "mulle", "MULLE-SCORE-3", M("Mulle!")))
    return facts


def _move_total(card: Card, taken: Sequence[Card], table: Sequence[Card], sweep_counts: bool) -> int:
    """The points of ``move_points``, added up without building its facts: a hint list can
    score thousands of captures."""
    if not taken:
        return 0
    sweep, mulle = _sweep_and_mulle(card, taken, table)
    return (point_value(card)[0] + sum(point_value(c)[0] for c in taken)
            + (TALLY["tabbe"][0] if sweep and sweep_counts else 0) + (TALLY["mulle"][0] if mulle else 0))


class Mulle(BaseRules):
    id: ClassVar[str] = "mulle"
    name: ClassVar[str] = "Tomelilla Mulle"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    player_rule: ClassVar[str | None] = "MULLE-COMP-2"
    team_rule: ClassVar[str | None] = "MULLE-COMP-2"
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("strict_value", False, "MULLE-OPT-STRICT-VALUE",
                   "Strict value: a single card is taken only by value, never by rank alone"),
        OptionSpec("no_last_sweep", False, "MULLE-OPT-NO-LAST-SWEEP",
                   "No sweep point for the last play of a deal"),
        OptionSpec("mulle_alone", False, "MULLE-OPT-MULLE-ALONE",
                   "A twin may only be taken on its own"),
    )

    # --- set-up ---------------------------------------------------------------------------

    def new(self, players: Sequence[str], options: Mapping[str, Any], mode: Mode = "adjudicate") -> MulleState:
        if mode not in MODES:
            raise SetupError(None, M("mode must be one of %(modes)s, not %(mode)s", modes=", ".join(MODES),
                                     mode=repr(mode)))
        self.check_players(players)
        opts = self.parse_options(options, len(players))
        sides = self.sides(options, len(players))
        if sides.count != len(players):
            if len(players) != 4 or sides.teams != PARTNERS:
                raise SetupError("MULLE-COMP-2", M("partnerships are two teams of two with partners "
                                 "sitting opposite: [[0, 2], [1, 3]]"), teams=[list(t) for t in sides.teams])
        zeros = (0,) * sides.count
        return MulleState(
            players=tuple(players), sides=sides, mode=mode,
            strict_value=opts["strict_value"], no_last_sweep=opts["no_last_sweep"],
            mulle_alone=opts["mulle_alone"], scores=zeros, previous=zeros,
            phase="tally" if mode == "tally" else "deal",
            piles=zeros, spades=zeros, deal_points=zeros, sweeps=zeros, mulles=zeros,
        )

    # --- events ---------------------------------------------------------------------------

    def apply(self, state: MulleState, event: Mapping[str, Any]) -> MulleState:
        if not isinstance(event, Mapping):
            raise MalformedEvent(M("an event must be an object"), event)
        kind = event.get("type")
        handlers = {"deal": self._deal, "play": self._play} if state.mode == "adjudicate" else {
            "deal": self._tally_deal, "tally": self._tally}
        handler = handlers.get(kind) if isinstance(kind, str) else None
        if handler is None:
            known = ", ".join(repr(k) for k in handlers)
            raise MalformedEvent(M("Mulle in %(mode)s mode takes %(known)s events, not %(kind)s",
                                   mode=state.mode, known=known, kind=repr(kind)), event)
        if state.over:
            raise RuleViolation("MULLE-END-3", M("the game is over: %(side)s reached %(target)s",
                                side=self._side_name(state, state.winner), target=TARGET), winner=state.winner)
        return handler(state, event)

    def _deal(self, state: MulleState, event: Mapping[str, Any]) -> MulleState:
        if state.phase == "play":
            left = self._plays_left(state)
            raise RuleViolation("MULLE-TURN-7", M("deal %(deal)s is still being played: %(left)s more card "
                                "to play before the next deal", deal=state.deal_no, left=left) if left == 1 else
                                M("deal %(deal)s is still being played: %(left)s more cards to play before "
                                  "the next deal", deal=state.deal_no, left=left),
                                cards_left=left)
        dealer = self._dealer_of(state, event)
        if "table" not in event or not isinstance(event["table"], (list, str)):
            raise MalformedEvent(M("a deal needs 'table': the face-up table cards"), event)
        table = _cards(event["table"])
        if len(table) != state.table_size:
            raise RuleViolation("MULLE-DEAL-3", M("with %(n)s players the dealer puts %(size)s cards face up "
                                "on the table, not %(given)s", n=state.n, size=state.table_size,
                                given=len(table)), cards=len(table),
                                expected=state.table_size)
        counts = Counter(table)
        over = [card for card, count in counts.items() if count > COPIES]
        if over:
            raise RuleViolation("MULLE-COMP-1", M("%(card)s is on the table %(times)s times; the two packs "
                                "hold it only twice", card=over[0], times=counts[over[0]]), card=str(over[0]))
        zeros = (0,) * state.sides.count
        return replace(
            state, phase="play", dealer=dealer, deal_no=state.deal_no + 1, round_no=1,
            plays_in_round=0, table=tuple(table), seen=dict(counts), piles=zeros, spades=zeros,
            deal_points=zeros, sweeps=zeros, mulles=zeros, last_capturer=None, last_move=None,
            scored=(),
        )

    def _dealer_of(self, state: MulleState, event: Mapping[str, Any]) -> int:
        expected = state.next_dealer
        if expected is None:
            return int_field(event, "dealer", minimum=0, maximum=state.n - 1)
        if event.get("dealer") is None:
            return expected
        dealer = int_field(event, "dealer", minimum=0, maximum=state.n - 1)
        if dealer != expected:
            raise RuleViolation("MULLE-DEAL-1", M("%(expected)s deals now: the deal passes to the old "
                                "forehand, not to %(dealer)s", expected=state.players[expected],
                                dealer=state.players[dealer]),
                                dealer=dealer, expected=expected)
        return dealer

    @staticmethod
    def _plays_left(state: MulleState) -> int:
        later = sum(state.rounds[state.round_no:]) * state.n
        return state.n * state.hand_size - state.plays_in_round + later

    def _play(self, state: MulleState, event: Mapping[str, Any]) -> MulleState:
        if state.phase != "play":
            raise RuleViolation("MULLE-DEAL-3", M("no deal is in progress: deal the table cards first"))
        player = int_field(event, "player", minimum=0, maximum=state.n - 1)
        to_act = state.to_act
        if player != to_act:
            assert to_act is not None
            raise RuleViolation("MULLE-TURN-1", M("it is %(to_act)s's turn, not %(player)s's",
                                to_act=state.players[to_act], player=state.players[player]),
                                player=player, to_act=to_act)
        card_text = event.get("card")
        if not isinstance(card_text, str):
            raise MalformedEvent(M("a play needs 'card': the card played"), event)
        card = _card(card_text)
        raw_capture = event.get("capture")
        if raw_capture is not None and not isinstance(raw_capture, (list, str)):
            raise MalformedEvent(M("'capture' must be a list of table cards"), event)
        taken = _cards(raw_capture) if raw_capture else []
        self._check_unseen(state, card)
        grouping = self._check_capture(state, player, card, taken)
        ordered = tuple(sorted(taken, key=card_sort_key)) if len(taken) > 1 else tuple(taken)
        return self._after_play(state, player, card, ordered, grouping)

    @staticmethod
    def _check_unseen(state: MulleState, card: Card) -> None:
        if state.unseen(card) <= 0:
            where = sum(1 for c in state.table if c == card)
            raise RuleViolation("MULLE-COMP-1", M("both %(card)s have already been seen in this deal "
                                "(%(where)s on the table); the two packs hold only two", card=card, where=where)
                                if where else M("both %(card)s have already been seen in this deal; the two "
                                                "packs hold only two", card=card), card=str(card))

    def _check_capture(self, state: MulleState, player: int, card: Card, taken: list[Card]) -> Grouping | None:
        if not taken:
            return None  # MULLE-CAP-5: a trail is always legal
        if not state.table:
            raise RuleViolation("MULLE-TURN-6", M("the table is empty after the sweep: the card can only be trailed"))
        for wanted in dict.fromkeys(taken):
            have = state.table.count(wanted)
            if taken.count(wanted) > have:
                raise RuleViolation("MULLE-TURN-2", M("%(card)s lies on the table only %(have)s time; the "
                                    "table is %(table)s", card=wanted, have=have, table=_names(state.table))
                                    if have else M("%(card)s is not on the table; the table is %(table)s",
                                                   card=wanted, table=_names(state.table)), card=str(wanted))
        if state.mulle_alone and card in taken and len(taken) > 1:
            raise RuleViolation("MULLE-OPT-MULLE-ALONE", M("house rule: the twin %(card)s may only be taken "
                                "on its own, not together with %(others)s", card=card,
                                others=_names(c for c in taken if c != card)),
                                card=str(card))
        grouping = find_grouping(card, taken, state.scheme)
        if grouping is not None:
            return grouping
        why = explain_failure(card, taken, state.scheme)
        facts = {"card": str(card), "capture": [str(c) for c in taken], "why": why}
        if state.strict_value and find_grouping(card, taken, mulle_scheme(False)) is not None:
            raise RuleViolation("MULLE-OPT-STRICT-VALUE", M("house rule strict value: %(why)s", why=why), **facts)
        if legal_with_mixed_values(card, taken, state.scheme):
            raise RuleViolation("MULLE-CAP-1", M("%(card)s counts one value for the whole capture: %(why)s",
                                card=card, why=why),
                                **facts)
        raise RuleViolation("MULLE-CAP-4", M("%(card)s cannot take %(taken)s: %(why)s", card=card,
                            taken=_names(taken), why=why), **facts)

    def _after_play(self, state: MulleState, player: int, card: Card, taken: tuple[Card, ...],
                    grouping: Grouping | None) -> MulleState:
        side = state.sides.side_of(player)
        pegs = _Pegs(state)
        final_play = state.final_play_next
        sweep, mulle = _sweep_and_mulle(card, taken, state.table)
        seen = dict(state.seen)
        seen[card] = seen.get(card, 0) + 1
        piles, spades = list(state.piles), list(state.spades)
        sweeps, mulles = list(state.sweeps), list(state.mulles)
        last_capturer = state.last_capturer
        if taken:
            rest = list(state.table)
            for c in taken:
                rest.remove(c)
            table = tuple(rest)
            piles[side] += len(taken) + 1
            spades[side] += sum(1 for c in (card, *taken) if c.suit == "S")
            last_capturer = player
            sweep_counts = not (state.no_last_sweep and final_play)
            for points, what, rule, detail in move_points(card, taken, state.table, sweep_counts):
                pegs.add(side, points, what, rule, detail)
            sweeps[side] += 1 if sweep and sweep_counts else 0
            mulles[side] += 1 if mulle else 0
        else:
            table = (*state.table, card)
        move = LastMove(player, card, taken, grouping, sweep, mulle, sum(f.points for f in pegs.facts))
        plays, round_no = state.plays_in_round + 1, state.round_no
        won = pegs.check_win()
        round_over = plays == state.n * state.hand_size
        if round_over and not won and not state.is_last_round:
            plays, round_no = 0, round_no + 1
        new = replace(state, table=table, seen=seen, piles=tuple(piles), spades=tuple(spades),
                      sweeps=tuple(sweeps), mulles=tuple(mulles), last_capturer=last_capturer,
                      last_move=move, plays_in_round=plays, round_no=round_no,
                      scores=tuple(pegs.scores), previous=tuple(pegs.previous),
                      deal_points=tuple(pegs.deal_points), scored=tuple(pegs.facts))
        if won:
            return self._finish(new, pegs, finished=False)
        if round_over and state.is_last_round:
            return self._end_of_deal(new, pegs)
        return new

    def _end_of_deal(self, state: MulleState, pegs: _Pegs) -> MulleState:
        """MULLE-END-1 with MULLE-SCORE-9's order: last capture, leftovers, then most spades."""
        leftovers = state.table
        capturer = state.last_capturer
        piles, spades = list(state.piles), list(state.spades)
        side = None if capturer is None else state.sides.side_of(capturer)
        record = {"last_capturer": capturer, "last_capture_side": side, "leftovers": leftovers}
        if side is not None:  # MULLE-AMB-4: no capture at all means nobody collects
            pegs.add(side, 1, "last_capture", "MULLE-SCORE-5", M("Last capture"))
            if pegs.check_win():
                return self._finish(state, pegs, finished=True, **record)
            piles[side] += len(leftovers)
            spades[side] += sum(1 for c in leftovers if c.suit == "S")
            for card in sorted(leftovers, key=card_sort_key):
                value, what = point_value(card)
                pegs.add(side, value, what, "MULLE-SCORE-6", M("%(card)s left on the table", card=card))
            if pegs.check_win():
                state = replace(state, piles=tuple(piles), spades=tuple(spades), table=())
                return self._finish(state, pegs, finished=True, **record)
        state = replace(state, piles=tuple(piles), spades=tuple(spades),
                        table=() if side is not None else state.table)
        most = max(spades)
        leaders = [s for s, count in enumerate(spades) if count == most]
        most_side = leaders[0] if len(leaders) == 1 else None
        if most_side is not None:
            pegs.add(most_side, 1, "most_spades", "MULLE-SCORE-7", M("Most spades (%(most)s of 26)", most=most))
        pegs.check_win()
        return self._finish(state, pegs, finished=True, most_spades=most_side, spades_counted=True, **record)

    def _finish(self, state: MulleState, pegs: _Pegs, finished: bool, **record: Any) -> MulleState:
        """Close the deal (all cards played) or the game (61 reached): write its history line."""
        entry = DealRecord(
            deal=state.deal_no, dealer=state.dealer, finished=finished, points=tuple(pegs.deal_points),
            scores=tuple(pegs.scores), sweeps=state.sweeps, mulles=state.mulles, piles=state.piles,
            spades=state.spades, **record)
        new = self._with_pegs(state, pegs)
        phase: Phase = "over" if pegs.winner is not None else "deal"
        return replace(new, phase=phase, history=(*state.history, entry), deal_end=entry if finished else None,
                       winner=pegs.winner)

    @staticmethod
    def _with_pegs(state: MulleState, pegs: _Pegs) -> MulleState:
        return replace(state, scores=tuple(pegs.scores), previous=tuple(pegs.previous),
                       deal_points=tuple(pegs.deal_points), scored=tuple(pegs.facts))

    # --- tally mode -----------------------------------------------------------------------

    def _tally_deal(self, state: MulleState, event: Mapping[str, Any]) -> MulleState:
        dealer = self._dealer_of(state, event)
        history = state.history
        if state.deal_no:
            history = (*history, self._tally_record(state))
        zeros = (0,) * state.sides.count
        return replace(state, dealer=dealer, deal_no=state.deal_no + 1, deal_points=zeros,
                       tally_counts={}, history=history, scored=())

    @staticmethod
    def _tally_record(state: MulleState) -> DealRecord:
        zeros = (0,) * state.sides.count
        return DealRecord(deal=state.deal_no, dealer=state.dealer, finished=not state.over,
                          points=state.deal_points, scores=state.scores, sweeps=zeros, mulles=zeros,
                          piles=zeros, spades=zeros)

    def _tally(self, state: MulleState, event: Mapping[str, Any]) -> MulleState:
        what_raw = event.get("what")
        what = TALLY_ALIASES.get(what_raw, what_raw) if isinstance(what_raw, str) else None
        if what not in TALLY:
            raise MalformedEvent(M("'what' must be one of %(known)s, not %(what)s", known=", ".join(TALLY),
                                   what=repr(what_raw)), event)
        if "side" in event:
            side = int_field(event, "side", minimum=0, maximum=state.sides.count - 1)
        else:
            side = state.sides.side_of(int_field(event, "player", minimum=0, maximum=state.n - 1))
        count = int_field(event, "count", minimum=1, maximum=8, default=1)
        points, rule = TALLY[what]
        so_far = state.tally_counts.get(what, 0)
        cap = TALLY_CAPS.get(what)
        if state.deal_no and cap is not None and so_far + count > cap[0]:
            raise RuleViolation(cap[1], M("a deal has only %(cap)s × %(what)s; %(so_far)s already pegged in "
                                "deal %(deal)s", cap=cap[0], what=_tally_word(what), so_far=so_far,
                                deal=state.deal_no), what=what)
        pegs = _Pegs(state)
        pegs.add(side, points * count, what, rule,
                 Msg("%(count)s × %(what)s", {"count": count, "what": _tally_word(what)}) if count > 1 else "")
        counts = dict(state.tally_counts)
        counts[what] = so_far + count
        new = replace(self._with_pegs(state, pegs), tally_counts=counts)
        if pegs.check_win():
            new = replace(new, winner=pegs.winner, phase="over")
            new = replace(new, history=(*new.history, self._tally_record(new)))
        return new

    # --- reading the state ----------------------------------------------------------------

    def outcome(self, state: MulleState) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome(state.winner, M("%(side)s reached %(target)s", side=self._side_name(state, state.winner),
                                       target=TARGET), "MULLE-END-3")

    def hints(self, state: MulleState) -> list[Event]:
        """Every card that could still be played: its trail, then its first HINT_LIMIT captures in
        the solver's order (smallest first, then by card). A crowded table can have tens of
        thousands of captures per card; ``hint_count`` says how many there are in all."""
        if state.phase != "play" or state.to_act is None:
            return []
        player = state.to_act
        events: list[Event] = []
        # Cards of one rank and value set take the same captures (unless the twin must go alone).
        cache: dict[tuple[str, tuple[int, ...], Card | None], list[list[str]]] = {}
        on_table = set(state.table)
        for card in ALL_CARDS:
            if state.unseen(card) <= 0:
                continue
            events.append({"type": "play", "player": player, "card": str(card), "capture": []})
            alone = card if state.mulle_alone and card in on_table else None
            key = (card.rank, state.scheme.played_values(card), alone)
            if key not in cache:
                cache[key] = [[str(c) for c in taken] for taken, _ in
                              legal_captures(card, state.table, state.scheme, limit=HINT_LIMIT, alone=alone)]
            events.extend({"type": "play", "player": player, "card": str(card), "capture": list(capture)}
                          for capture in cache[key])
        return events

    def hints_for(self, state: MulleState, card: Card | str, limit: int | None = None) -> list[JSON]:
        """The legal captures of one card on the current table, with grouping and points, in the
        solver's order (smallest first, then by card): all of them, or the first ``limit``.

        A crowded table can have tens of thousands (seconds to list and score them all), so a
        screen should pass a limit and take the total from ``hint_count``; with a limit the
        cost follows the captures returned. MULLE-OPT-MULLE-ALONE is applied (a capture holding
        the twin with other cards is left out), in both."""
        played = parse_card(card) if isinstance(card, str) else card
        if state.phase != "play" or state.unseen(played) <= 0:
            return []
        out: list[JSON] = []
        alone = played if state.mulle_alone else None
        sweep_counts = not (state.no_last_sweep and state.final_play_next)
        for taken, grouping in legal_captures(played, state.table, state.scheme, limit=limit, alone=alone):
            sweep, mulle = _sweep_and_mulle(played, taken, state.table)
            out.append({"capture": [str(c) for c in taken], "value": grouping.value,
                        "grouping": grouping.describe(),
                        "points": _move_total(played, taken, state.table, sweep_counts),
                        "sweep": sweep, "mulle": mulle})
        return out

    def hint_count(self, state: MulleState, card: Card | str, at_most: int | None = None) -> int:
        """How many captures ``hints_for`` would list without a limit. Counting is far cheaper than
        listing, but a 30-card table can still take seconds: with ``at_most`` the count stops
        there (smallest captures first) and returns ``at_most``, meaning "at least that many"."""
        played = parse_card(card) if isinstance(card, str) else card
        if state.phase != "play" or state.unseen(played) <= 0:
            return 0
        alone = played if state.mulle_alone else None
        return count_captures(played, state.table, state.scheme, alone=alone, at_most=at_most)

    def to_json(self, state: MulleState) -> JSON:
        data = common_json(state.scores, state.over, state.winner, state.to_act)
        n = state.n
        in_play = state.phase == "play"
        data.update(
            mode=state.mode,
            phase=state.phase,
            target=TARGET,
            players=list(state.players),
            sides=[list(team) for team in state.sides.teams],
            options={"strict_value": state.strict_value, "no_last_sweep": state.no_last_sweep,
                     "mulle_alone": state.mulle_alone},
            previous_scores=list(state.previous),
            deal=state.deal_no,
            dealer=state.dealer,
            next_dealer=state.next_dealer if not in_play else None,
            forehand=None if state.dealer is None else (state.dealer + 1) % n,
            round=state.round_no if in_play else None,
            rounds_total=len(state.rounds),
            is_last_round=in_play and state.is_last_round,
            hand_size=state.hand_size if in_play else None,
            played_this_round=[state.played_this_round(p) if in_play else 0 for p in range(n)],
            cards_in_hand=[state.hand_size - state.played_this_round(p) if in_play else 0 for p in range(n)],
            table=[str(c) for c in state.table],
            table_size=state.table_size,
            unseen={str(c): state.unseen(c) for c in ALL_CARDS} if state.mode == "adjudicate" else None,
            cards_left=self._plays_left(state) if in_play else 0,
            piles=[{"cards": cards, "spades": spades} for cards, spades in zip(state.piles, state.spades, strict=True)],
            deal_points=list(state.deal_points),
            sweeps=list(state.sweeps),
            mulles=list(state.mulles),
            last_capturer=state.last_capturer,
            last_move=state.last_move.to_json() if state.last_move else None,
            deal_end=state.deal_end.to_json() if state.deal_end else None,
            history=[record.to_json() for record in state.history],
            scored=[fact.to_json() for fact in state.scored],
        )
        return data

    def describe(self, event: Mapping[str, Any], players: Sequence[str]) -> str:
        def who(key: str) -> str:
            index = event.get(key)
            return players[index] if isinstance(index, int) and 0 <= index < len(players) else "?"

        kind = event.get("type")
        try:
            if kind == "deal":
                table = event.get("table")
                named = event.get("dealer") is not None
                if table:
                    shown = _names(parse_cards(table))
                    return (M("%(dealer)s deals; table %(table)s", dealer=who("dealer"), table=shown) if named
                            else M("Next deal; table %(table)s", table=shown))
                return M("%(dealer)s deals", dealer=who("dealer")) if named else M("Next deal")
            if kind == "play":
                card = parse_card(str(event.get("card")))
                taken = parse_cards(event["capture"]) if event.get("capture") else []
                if not taken:
                    return M("%(player)s trails %(card)s", player=who("player"), card=card)
                return M("%(player)s: %(card)s takes %(taken)s", player=who("player"), card=card,
                         taken=_names(taken))
            if kind == "tally":
                what = _tally_word(str(event.get("what")))
                if "side" in event:
                    return M("side %(side)s: %(what)s", side=str(event.get("side")), what=what)
                return Msg("%(player)s: %(what)s", {"player": who("player"), "what": what})
        except (ValueError, TypeError, KeyError):
            pass
        return super().describe(event, players)

    @staticmethod
    def _side_name(state: MulleState, side: int | None) -> str:
        if side is None:
            return M("nobody")
        return " & ".join(state.players[p] for p in state.sides.teams[side])
