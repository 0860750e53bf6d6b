"""Muggins (the Swedish children's version): a shedding game adjudicated card by card.

Nobody sees a face-down draw pile, so each one is kept as a list of *slots*: a known card or
``None`` (not seen yet). A discard pile turned over without shuffling (MUGGINS-PLAY-7) becomes a
draw pile whose order the app knows exactly, so every card later turned from it is checked
against that order. Every card that has been seen stays in a known place for the rest of the
game, which is what lets the engine refuse a card seen twice (MUGGINS-COMP-1).

A priority breach ("Muggins!") is accepted and punished the moment it is entered
(MUGGINS-PEN-4): the others pay the penalty cards, the card is moved to a correct place and the
turn ends. Putting a card where it does not fit (MUGGINS-FIT-1) is such a breach too
(MUGGINS-PEN-1). Only the learning option MUGGINS-OPT-COACH refuses breaches instead; then a
card that does not fit is refused with MUGGINS-FIT-1 and a fitting but wrong place with
MUGGINS-PLAY-2.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Literal, NoReturn

from scorekeeper.cards import FRENCH_RANKS, Card, french_pack, parse_card, parse_cards
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
    common_json,
    int_field,
    str_field,
)
from scorekeeper.engine.messages import Join, M, Msg

__all__ = [
    "DEAL_TABLE", "Hand", "Muggins", "MugginsCall", "MugginsOptions", "MugginsState", "Place",
    "Placement", "Stalemate", "correct_places", "fits", "placements_for", "rank_value",
]

PACK_SIZE = 52
# MUGGINS-DEAL-1: players -> (muggins piles, cards per player).
DEAL_TABLE: dict[int, tuple[int, int]] = {3: (4, 16), 4: (4, 12), 5: (2, 10), 6: (4, 8), 7: (3, 7)}
STALEMATE_TURNOVERS = 2  # MUGGINS-END-2, the simpler test: every player turned over twice

Phase = Literal["setup", "play", "over"]
PileKind = Literal["muggins", "discard", "own"]
Slot = Card | None


_RANK_VALUES = {rank: i for i, rank in enumerate(FRENCH_RANKS, start=1)}


def rank_value(card: Card) -> int:
    """MUGGINS-COMP-1: A = 1 … K = 13."""
    return _RANK_VALUES[card.rank]


def fits(card: Card, top: Card) -> bool:
    """MUGGINS-FIT-1: one rank up or down, no wrap-around, suits ignored."""
    return abs(rank_value(card) - rank_value(top)) == 1


# --- Value objects ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MugginsOptions:
    one_card: bool = False
    neighbour_only: bool = False
    any_opponent: bool = False
    play_stands: bool = False
    coach: bool = False
    placings: bool = False

    def to_json(self) -> JSON:
        return {"one_card": self.one_card, "neighbour_only": self.neighbour_only,
                "any_opponent": self.any_opponent, "play_stands": self.play_stands,
                "coach": self.coach, "placings": self.placings}


@dataclass(frozen=True, slots=True, order=True)
class Place:
    """Where a card goes. ``index`` is the muggins pile (0-based) or the seat owning the discard
    pile; for ``own`` it is the mover's seat."""

    kind: PileKind
    index: int

    def to_json(self) -> JSON:
        if self.kind == "muggins":
            return {"pile": "muggins", "index": self.index}
        if self.kind == "discard":
            return {"pile": "discard", "player": self.index}
        return {"pile": "own"}


@dataclass(frozen=True, slots=True)
class Hand:
    """One player's cards. ``draw[0]`` is the top of the face-down pile; ``discard[-1]`` is the
    face-up top. ``turnovers`` counts pile turn-overs since the last real progress (END-2)."""

    draw: tuple[Slot, ...] = ()
    discard: tuple[Card, ...] = ()
    turnovers: int = 0

    @property
    def cards(self) -> int:
        return len(self.draw) + len(self.discard)

    def turned_over(self) -> Hand:
        # MUGGINS-PLAY-7: the first card placed (bottom) becomes the top of the new draw pile.
        return Hand(draw=tuple(self.discard), discard=(), turnovers=self.turnovers + 1)


@dataclass(frozen=True, slots=True)
class MugginsCall:
    """A priority breach caught at entry (MUGGINS-PEN-1), with everything the UI needs to shout."""

    n: int                          # number of the placement that was wrong
    player: int
    card: Card
    placed: Place                   # where it was put
    placed_on: Card | None          # the top it was put on
    correct: tuple[Place, ...]      # every place MUGGINS-PLAY-2 allowed
    moved_to: Place | None          # where it was moved (None: it stayed, MUGGINS-OPT-PLAY-STANDS)
    givers: tuple[int, ...]         # players who gave a penalty card, clockwise from the offender
    penalty_cards: int
    reason: str
    turn_ended: bool
    fitted: bool = True             # False: it did not even fit where it was put (MUGGINS-FIT-1)


@dataclass(frozen=True, slots=True)
class Placement:
    """One card turned and placed: the history view's row."""

    n: int
    player: int
    card: Card
    to: Place                       # where the player put it
    onto: Card | None               # the top it went onto (None: own pile or a new pile)
    final: Place                    # where it lies now (differs after a muggins correction)
    turned_over: bool               # the draw pile was empty, so the discard pile was turned first
    muggins: bool
    turn_ended: bool


@dataclass(frozen=True, slots=True)
class Stalemate:
    reason: Literal["repeat", "turned_over_twice", "agreed"]
    cards: tuple[int, ...]          # cards each player held when it was declared


@dataclass(frozen=True, slots=True)
class MugginsState:
    players: tuple[str, ...]
    options: MugginsOptions
    mode: Mode
    phase: Phase
    dealer: int = 0
    muggins: tuple[tuple[Card, ...], ...] = ()      # each pile bottom -> top
    hands: tuple[Hand, ...] = ()
    to_act: int | None = None
    history: tuple[Placement, ...] = ()
    last_muggins: MugginsCall | None = None
    placings: tuple[tuple[int, ...], ...] = ()
    stalemate: Stalemate | None = None
    seen_positions: tuple[str, ...] = ()            # positions after each placement since the last progress
    scored: tuple[Scored, ...] = ()

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def winner(self) -> int | list[int] | None:
        if not self.placings:
            return None
        first = self.placings[0]
        return first[0] if len(first) == 1 else list(first)

    @property
    def finished(self) -> frozenset[int]:
        return frozenset(p for group in self.placings for p in group)

    def active(self, seat: int) -> bool:
        return seat not in self.finished and self.hands[seat].cards > 0


# --- Pure helpers on piles -------------------------------------------------------------------


def _next_seat(seat: int, n: int, k: int = 1) -> int:
    return (seat + k) % n


def _step2_seat(hands: Sequence[Hand], mover: int, card: Card, options: MugginsOptions) -> int | None:
    """The one discard pile step 2 of MUGGINS-PLAY-2 may use (whether or not the card fits it)."""
    n = len(hands)
    others = [_next_seat(mover, n, k) for k in range(1, n)]
    if options.neighbour_only:
        # MUGGINS-OPT-NEIGHBOUR-ONLY: the player directly to the left; players who are out have
        # left the circle, so the next one still holding cards counts as "directly to the left".
        left = next((q for q in others if hands[q].cards > 0), None)
        return left if left is not None and hands[left].discard else None
    if options.any_opponent:
        # MUGGINS-OPT-ANY-OPPONENT: any pile the card fits, the nearest one to the left.
        return next((q for q in others if hands[q].discard and fits(card, hands[q].discard[-1])), None)
    # MUGGINS-AMB-2: the nearest non-empty pile clockwise, and that pile only.
    return next((q for q in others if hands[q].discard), None)


def correct_places(muggins: Sequence[Sequence[Card]], hands: Sequence[Hand], mover: int, card: Card,
                   options: MugginsOptions) -> tuple[Place, ...]:
    """Every place MUGGINS-PLAY-2 allows for ``card`` turned by ``mover`` (all equally good)."""
    centre = tuple(Place("muggins", i) for i, pile in enumerate(muggins) if fits(card, pile[-1]))
    if centre:
        return centre  # MUGGINS-AMB-7: any fitting muggins pile is a free choice
    left = _step2_seat(hands, mover, card, options)
    if left is not None and fits(card, hands[left].discard[-1]):
        return (Place("discard", left),)
    return (Place("own", mover),)


def _fitting_places(muggins: Sequence[Sequence[Card]], hands: Sequence[Hand], mover: int,
                    card: Card) -> list[Place]:
    """Every place the card physically fits, in priority order (muggins, discards clockwise, own)."""
    n = len(hands)
    places = [Place("muggins", i) for i, pile in enumerate(muggins) if fits(card, pile[-1])]
    for k in range(1, n):
        q = _next_seat(mover, n, k)
        if hands[q].discard and fits(card, hands[q].discard[-1]):
            places.append(Place("discard", q))
    places.append(Place("own", mover))
    return places


def _known_locations(state: MugginsState) -> dict[Card, tuple[str, int]]:
    """Where every card seen so far lies: ("muggins", pile) / ("discard", seat) / ("draw", seat)."""
    where: dict[Card, tuple[str, int]] = {}
    for i, pile in enumerate(state.muggins):
        for card in pile:
            where[card] = ("muggins", i)
    for seat, hand in enumerate(state.hands):
        for card in hand.discard:
            where[card] = ("discard", seat)
        for slot in hand.draw:
            if slot is not None:
                where[slot] = ("draw", seat)
    return where


def _position_key(state: MugginsState) -> str | None:
    """The whole table in order, for the repeat test of MUGGINS-END-2; None while any draw pile
    still holds an unseen card (such a position can never come round again unchanged)."""
    parts = [str(state.to_act)]
    parts.append(";".join(",".join(str(c) for c in pile) for pile in state.muggins))
    for hand in state.hands:
        if any(slot is None for slot in hand.draw):
            return None
        parts.append(",".join(str(c) for c in hand.draw if c is not None) + "/"
                     + ",".join(str(c) for c in hand.discard))
    return "|".join(parts)


def _ordinal(k: int) -> Msg:
    return {1: M("1st"), 2: M("2nd"), 3: M("3rd")}.get(k) or M("%(k)sth", k=k)


# --- The rules object ------------------------------------------------------------------------


class Muggins(BaseRules):
    id: ClassVar[str] = "muggins"
    name: ClassVar[str] = "Muggins"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 7
    player_rule: ClassVar[str | None] = "MUGGINS-COMP-2"
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("one_card", False, "MUGGINS-OPT-ONE-CARD", "One card per turn"),
        OptionSpec("neighbour_only", False, "MUGGINS-OPT-NEIGHBOUR-ONLY",
                   "Only the left neighbour's discard pile"),
        OptionSpec("any_opponent", False, "MUGGINS-OPT-ANY-OPPONENT",
                   "Any opponent's discard pile (nearest to the left first)"),
        OptionSpec("play_stands", False, "MUGGINS-OPT-PLAY-STANDS",
                   "A wrongly placed card stays and the turn goes on"),
        OptionSpec("coach", False, "MUGGINS-OPT-COACH", "Coach: refuse breaches instead of punishing"),
        OptionSpec("placings", False, "MUGGINS-OPT-PLACINGS", "Play on to rank every player"),
    )

    # -- set-up --------------------------------------------------------------------------------

    def new(self, players: Sequence[str], options: Mapping[str, Any], mode: Mode = "adjudicate") -> MugginsState:
        self.check_players(players)
        if mode not in MODES:
            raise SetupError(None, M("mode must be one of %(modes)s, not %(mode)s", modes=", ".join(MODES),
                                     mode=repr(mode)))
        if isinstance(options, Mapping) and options.get("teams"):
            raise SetupError("MUGGINS-COMP-2", M("in Muggins everybody plays alone; there are no teams"))
        opts = self.parse_options(options, len(players))
        if opts["neighbour_only"] and opts["any_opponent"]:
            raise SetupError("MUGGINS-OPT-ANY-OPPONENT",
                             M("neighbour_only and any_opponent contradict each other; choose one"))
        chosen = MugginsOptions(**{spec.key: opts[spec.key] for spec in self.option_specs})
        phase: Phase = "setup" if mode == "adjudicate" else "play"
        return MugginsState(tuple(players), chosen, mode, phase, dealer=len(players) - 1)

    # -- events --------------------------------------------------------------------------------

    def apply(self, state: MugginsState, event: Mapping[str, Any]) -> MugginsState:
        if not isinstance(event, Mapping):
            raise MalformedEvent(M("an event must be an object"), event)
        kind = event.get("type")
        handlers = {"setup": self._setup, "turn": self._turn, "stop": self._stop} \
            if state.mode == "adjudicate" else {"result": self._result}
        handler = handlers.get(kind) if isinstance(kind, str) else None
        if handler is None:
            known = ", ".join(repr(k) for k in handlers)
            raise MalformedEvent(M("Muggins in %(mode)s mode knows the events %(known)s, not %(kind)s",
                                   mode=state.mode, known=known, kind=repr(kind)), event)
        return handler(state, event)

    def _refuse_if_over(self, state: MugginsState) -> None:
        if not state.over:
            return
        if state.stalemate is not None:
            raise RuleViolation("MUGGINS-END-2", M("the game has ended in a stalemate; undo to correct it"))
        raise RuleViolation("MUGGINS-END-1", M("the game is over; undo the last entry to correct it"),
                            winner=state.winner)

    def _setup(self, state: MugginsState, event: Mapping[str, Any]) -> MugginsState:
        n = len(state.players)
        if state.phase != "setup":
            raise RuleViolation("MUGGINS-DEAL-1", M("the muggins cards are already on the table"))
        raw = event.get("muggins")
        if not isinstance(raw, (list, str)):
            raise MalformedEvent(M("'muggins' must list the face-up muggins cards"), event)
        cards = parse_cards(raw, "french")
        piles, per_player = DEAL_TABLE[n]
        if len(cards) != piles:
            raise RuleViolation("MUGGINS-DEAL-1",
                                M("%(n)s players lay out %(piles)s muggins cards, not %(given)s", n=n, piles=piles,
                                  given=len(cards)),
                                expected=piles, got=len(cards))
        seen: set[Card] = set()
        for position, card in enumerate(cards, start=1):
            if card in seen:
                raise RuleViolation("MUGGINS-COMP-1",
                                    M("muggins card %(position)s (%(card)s) is already on the table; the pack "
                                      "holds each card once", position=position, card=card), card=str(card))
            seen.add(card)
        dealer = int_field(event, "dealer", minimum=0, maximum=n - 1, default=state.dealer)
        forehand = _next_seat(dealer, n)
        hands = tuple(Hand(draw=(None,) * per_player) for _ in range(n))  # MUGGINS-DEAL-2
        return replace(state, phase="play", dealer=dealer, muggins=tuple((c,) for c in cards),
                       hands=hands, to_act=forehand, scored=())

    def _check_mover(self, state: MugginsState, event: Mapping[str, Any]) -> int:
        mover = state.to_act
        assert mover is not None
        if event.get("player") is None:
            return mover
        claimed = int_field(event, "player", minimum=0, maximum=len(state.players) - 1)
        if claimed == mover:
            return mover
        name = state.players[mover]
        if not state.history:
            raise RuleViolation("MUGGINS-DEAL-3", M("forehand (%(name)s, left of the dealer) starts, not %(player)s",
                                                    name=name, player=state.players[claimed]),
                                to_act=mover, player=claimed)
        last = state.history[-1]
        if last.player == mover and not last.turn_ended:
            raise RuleViolation("MUGGINS-PLAY-3", M("%(name)s placed %(card)s and carries on turning cards; it is "
                                                    "not %(player)s's turn", name=name, card=last.card,
                                                    player=state.players[claimed]),
                                to_act=mover, player=claimed)
        raise RuleViolation("MUGGINS-PLAY-4", M("it is %(to_act)s's turn, not %(player)s's", to_act=name,
                                                player=state.players[claimed]),
                            to_act=mover, player=claimed)

    def _check_turned_card(self, state: MugginsState, mover: int, top: Slot, card: Card,
                           turned_over: bool) -> None:
        name = state.players[mover]
        if top is not None:
            if card != top:
                raise RuleViolation("MUGGINS-PLAY-7",
                                    M("%(name)s's draw pile is a discard pile just turned over without shuffling; "
                                      "its top card is %(top)s, not %(card)s", name=name, top=top, card=card)
                                    if turned_over else
                                    M("%(name)s's draw pile is a discard pile turned over earlier without "
                                      "shuffling; its top card is %(top)s, not %(card)s", name=name, top=top,
                                      card=card),
                                    expected=str(top), card=str(card))
            return
        where = _known_locations(state).get(card)
        if where is None:
            return
        kind, seat = where
        if kind == "discard" and seat == mover:
            raise RuleViolation("MUGGINS-PLAY-5", M("%(card)s lies in %(name)s's own discard pile; cards are only "
                                                    "ever turned from the draw pile", card=card, name=name),
                                card=str(card))
        if kind == "draw" and seat == mover:
            raise RuleViolation("MUGGINS-PLAY-1", M("%(card)s is further down %(name)s's draw pile; turn the top "
                                                    "card", card=card, name=name), card=str(card))
        place = (M("muggins pile %(n)s", n=seat + 1) if kind == "muggins" else
                 M("%(name)s's discard pile", name=state.players[seat]) if kind == "discard" else
                 M("%(name)s's draw pile", name=state.players[seat]))
        raise RuleViolation("MUGGINS-COMP-1", M("%(card)s is already in %(place)s; the pack holds each card once",
                                                card=card, place=place), card=str(card), where=kind, seat=seat)

    def _parse_place(self, state: MugginsState, event: Mapping[str, Any], key: str, mover: int) -> Place:
        raw = event.get(key)
        if not isinstance(raw, Mapping):
            raise MalformedEvent(M("%(key)s must be a place such as %(example)s", key=repr(key),
                                   example='{"pile": "muggins", "index": 0}'), event)
        pile = raw.get("pile")
        if pile == "muggins":
            index = int_field(raw, "index", minimum=0)
            if index >= len(state.muggins):
                raise RuleViolation("MUGGINS-COMP-3", M("there are %(n)s muggins piles; pile %(index)s does not "
                                                        "exist", n=len(state.muggins), index=index + 1), index=index)
            return Place("muggins", index)
        if pile == "discard":
            seat = int_field(raw, "player", minimum=0)
            if seat >= len(state.players):
                raise RuleViolation("MUGGINS-COMP-3", M("there is no player %(seat)s; this table has %(n)s",
                                                        seat=seat, n=len(state.players)), player=seat)
            return Place("own", mover) if seat == mover else Place("discard", seat)
        if pile == "own":
            return Place("own", mover)
        raise MalformedEvent(M('%(key)s needs "pile": "muggins", "discard" or "own", not %(pile)s', key=repr(key),
                               pile=repr(pile)), event)

    def _describe_place(self, state: MugginsState, place: Place, hands: Sequence[Hand] | None = None) -> Msg:
        hands = state.hands if hands is None else hands
        if place.kind == "muggins":
            return M("muggins pile %(n)s (%(card)s)", n=place.index + 1, card=state.muggins[place.index][-1])
        if place.kind == "discard":
            top = hands[place.index].discard
            if top:
                return M("%(name)s's discard pile (%(card)s)", name=state.players[place.index], card=top[-1])
            return M("%(name)s's discard pile", name=state.players[place.index])
        return M("%(name)s's own discard pile", name=state.players[place.index])

    @staticmethod
    def _top_at(state: MugginsState, hands: Sequence[Hand], place: Place) -> Card | None:
        """The top card at ``place`` (None: the own pile, or a discard pile that is empty)."""
        if place.kind == "muggins":
            return state.muggins[place.index][-1]
        if place.kind == "discard":
            pile = hands[place.index].discard
            return pile[-1] if pile else None
        return None

    def _turn(self, state: MugginsState, event: Mapping[str, Any]) -> MugginsState:
        self._refuse_if_over(state)
        if state.phase == "setup":
            raise RuleViolation("MUGGINS-DEAL-1", M("lay out the muggins cards first (a 'setup' event)"))
        mover = self._check_mover(state, event)
        card = parse_card(str_field(event, "card", max_len=10), "french")
        hands = list(state.hands)
        hand = hands[mover]
        turned_over = not hand.draw
        if turned_over:
            hand = hand.turned_over()  # MUGGINS-PLAY-1 / PLAY-7
        self._check_turned_card(state, mover, hand.draw[0], card, turned_over)
        hands[mover] = replace(hand, draw=hand.draw[1:])
        to = self._parse_place(state, event, "to", mover)
        onto = self._top_at(state, hands, to)
        correct = correct_places(state.muggins, hands, mover, card, state.options)
        if to in correct:  # a correct place always fits; the own pile needs no fit (step 3)
            return self._place(state, hands, mover, card, to, onto, turned_over, None)
        # The own pile takes any card, so it is always "fitted"; elsewhere MUGGINS-FIT-1 decides.
        fitted = to.kind == "own" or (onto is not None and fits(card, onto))
        if state.options.coach:
            self._coach_refusal(state, hands, card, to, onto, fitted, correct)
        moved_to: Place | None = None
        # MUGGINS-OPT-PLAY-STANDS leaves the card only where it can lie (it fits there).
        if not (state.options.play_stands and fitted):
            moved_to = correct[0]
            if event.get("moved_to") is not None:
                moved_to = self._parse_place(state, event, "moved_to", mover)
                if moved_to not in correct:
                    raise RuleViolation("MUGGINS-PEN-3", M("%(card)s must be moved to a correct place: %(places)s",
                                                           card=card, places=Join(tuple(
                                                               self._describe_place(state, p, hands)
                                                               for p in correct), "or")),
                                        correct=[p.to_json() for p in correct])
        return self._place(state, hands, mover, card, to, onto, turned_over, (correct, moved_to, fitted))

    def _coach_refusal(self, state: MugginsState, hands: Sequence[Hand], card: Card, to: Place,
                       onto: Card | None, fitted: bool, correct: tuple[Place, ...]) -> NoReturn:
        """MUGGINS-OPT-COACH: a breach is refused with the rule it breaks, and nothing is paid."""
        should = Join(tuple(self._describe_place(state, p, hands) for p in correct), "or")
        facts: dict[str, Any] = {"card": str(card), "top": None if onto is None else str(onto),
                                 "correct": [p.to_json() for p in correct], "breach": "MUGGINS-PEN-1"}
        if not fitted:
            raise RuleViolation("MUGGINS-FIT-1", M("coach: %(misfit)s; it goes on %(should)s",
                                                   misfit=self._misfit(state, hands, card, to, onto), should=should),
                                **facts)
        raise RuleViolation("MUGGINS-PLAY-2", M("coach: %(card)s must go on %(should)s, not on %(place)s", card=card,
                                                should=should, place=self._describe_place(state, to, hands)), **facts)

    def _misfit(self, state: MugginsState, hands: Sequence[Hand], card: Card, to: Place,
                onto: Card | None) -> Msg:
        if onto is None:
            return M("%(card)s cannot go on %(name)s's discard pile: there is none", card=card,
                     name=state.players[to.index])
        return M("%(card)s does not fit on %(place)s: a card goes one rank up or down, and Ace and King do not "
                 "wrap", card=card, place=self._describe_place(state, to, hands))

    def _breach_reason(self, state: MugginsState, hands: Sequence[Hand], card: Card, to: Place,
                       onto: Card | None, fitted: bool, correct: tuple[Place, ...]) -> Msg:
        should = Join(tuple(self._describe_place(state, p, hands) for p in correct), "or")
        if not fitted:
            return M("%(misfit)s; it belonged on %(should)s", misfit=self._misfit(state, hands, card, to, onto),
                     should=should)
        put = self._describe_place(state, to, hands)
        if correct[0].kind == "muggins":
            why = M("a muggins pile comes first")
        elif correct[0].kind == "discard":
            why = M("the nearest discard pile to the left comes before any other pile")
        else:
            why = M("it fits neither a muggins pile nor the nearest discard pile to the left")
        return M("%(card)s was put on %(put)s, but it belonged on %(should)s: %(why)s", card=card, put=put,
                 should=should, why=why)

    def _place(self, state: MugginsState, hands: list[Hand], mover: int, card: Card, to: Place,
               onto: Card | None, turned_over: bool,
               breach: tuple[tuple[Place, ...], Place | None, bool] | None) -> MugginsState:
        """``breach`` = (the correct places, where the card was moved or None if it stays, whether
        it fitted where it was put); None for a correct placement."""
        n = len(state.players)
        number = len(state.history) + 1
        final = to if breach is None or breach[1] is None else breach[1]
        # Described before anything moves, as the mover saw the table.
        reason: str = "" if breach is None else self._breach_reason(state, hands, card, to, onto, breach[2],
                                                                breach[0])
        muggins = list(state.muggins)
        self._put(muggins, hands, card, final)
        call: MugginsCall | None = None
        scored: list[Scored] = []
        if breach is None:
            turn_ends = final.kind == "own" or state.options.one_card
        else:
            correct, moved_to, fitted = breach
            givers, gathered = _collect_penalty(hands, mover, state.finished)  # MUGGINS-PEN-2
            stands = moved_to is None
            # MUGGINS-PEN-3 ends the turn; under PLAY-STANDS the card counts where it lies.
            turn_ends = not stands or final.kind == "own" or state.options.one_card
            call = MugginsCall(number, mover, card, to, onto, correct, moved_to, givers, len(gathered),
                               reason, turn_ends, fitted)
            scored.append(Scored(mover, 0, "muggins", "MUGGINS-PEN-2",
                                 M("Muggins! %(reason)s; %(n)s penalty card(s)", reason=reason, n=len(gathered))))
        progress = breach is not None or final.kind != "own"
        placement = Placement(number, mover, card, to, onto, final, turned_over, breach is not None, turn_ends)
        new = replace(state, muggins=tuple(muggins), hands=tuple(hands), history=state.history + (placement,),
                      last_muggins=call if call is not None else state.last_muggins)
        newly_out = tuple(p for p in range(n) if p not in state.finished and new.hands[p].cards == 0)
        if newly_out:
            new, done = _record_finish(new, newly_out, scored)
            if done:
                return replace(new, phase="over", to_act=None, scored=tuple(scored))
        passes = turn_ends or mover in new.finished
        next_to_act = _next_active(new, mover) if passes else mover
        new = replace(new, to_act=next_to_act)
        return _check_stalemate(new, progress, passes, scored)

    @staticmethod
    def _put(muggins: list[tuple[Card, ...]], hands: list[Hand], card: Card, place: Place) -> None:
        if place.kind == "muggins":
            muggins[place.index] = muggins[place.index] + (card,)
        else:
            hand = hands[place.index]
            hands[place.index] = replace(hand, discard=hand.discard + (card,))

    def _stop(self, state: MugginsState, event: Mapping[str, Any]) -> MugginsState:
        self._refuse_if_over(state)
        if state.phase == "setup":
            raise RuleViolation("MUGGINS-DEAL-1", M("the game has not started; lay out the muggins cards first"))
        scored: list[Scored] = []
        return replace(_declare_stalemate(state, "agreed", scored), scored=tuple(scored))

    def _result(self, state: MugginsState, event: Mapping[str, Any]) -> MugginsState:
        """Tally mode: only the result is written down (Muggins has no points)."""
        self._refuse_if_over(state)
        n = len(state.players)
        if event.get("placings") is not None:
            raw = event["placings"]
            if not isinstance(raw, list) or not raw:
                raise MalformedEvent(M("'placings' must be a list of groups of players, best first"), event)
            groups = [g if isinstance(g, list) else [g] for g in raw]
        elif event.get("winner") is not None:
            raw = event["winner"]
            groups = [raw if isinstance(raw, list) else [raw]]
        else:
            raise MalformedEvent(M("a result needs 'winner' (a player or a list for a shared win) or 'placings'"),
                                 event)
        seen: set[int] = set()
        placings: list[tuple[int, ...]] = []
        for group in groups:
            if not group:
                raise MalformedEvent(M("a placing group cannot be empty"), event)
            for p in group:
                if isinstance(p, bool) or not isinstance(p, int):
                    raise MalformedEvent(M("players are seat numbers, not %(value)s", value=repr(p)), event)
                if not 0 <= p < n:
                    raise RuleViolation("MUGGINS-COMP-2", M("there is no player %(seat)s; this table has %(n)s",
                                                            seat=p, n=n), player=p)
                if p in seen:
                    raise RuleViolation("MUGGINS-END-1", M("%(player)s is placed twice", player=state.players[p]),
                                        player=p)
                seen.add(p)
            placings.append(tuple(group))
        rule = "MUGGINS-END-2" if len(placings[0]) > 1 else "MUGGINS-END-1"
        scored = [Scored(p, 1 if k == 1 else 0, "win" if k == 1 else "placed", rule, M("%(ordinal)s place", ordinal=_ordinal(k)))
                  for k, group in enumerate(placings, start=1) for p in group]
        return replace(state, placings=tuple(placings), phase="over", to_act=None, scored=tuple(scored))

    # -- reading the state ---------------------------------------------------------------------

    def outcome(self, state: MugginsState) -> Outcome | None:
        if not state.over:
            return None
        winner = state.winner
        if state.stalemate is not None:
            how = {"repeat": M("the position repeated"), "turned_over_twice":
                   M("every player turned their pile over twice without progress"),
                   "agreed": M("the players agreed to stop")}[state.stalemate.reason]
            return Outcome(winner, M("stalemate (%(how)s); fewest cards wins", how=how), "MUGGINS-END-2")
        if state.mode == "tally":
            return Outcome(winner, M("result entered"), "MUGGINS-END-1")
        first = state.placings[0]
        names = Join(tuple(state.players[p] for p in first), "and")
        return Outcome(winner, M("%(names)s got rid of every card", names=names), "MUGGINS-END-1")

    def hints(self, state: MugginsState) -> list[Event]:
        """The correct turn events for the player to act: for the known top card, or else for every
        card not seen yet (best place first)."""
        if state.phase != "play" or state.to_act is None:
            return []
        mover = state.to_act
        hand = state.hands[mover]
        draw = hand.draw if hand.draw else hand.discard
        if draw[0] is not None:
            candidates: list[Card] = [draw[0]]
        else:
            known = _known_locations(state)
            candidates = sorted((c for c in french_pack() if c not in known), key=_card_order)
        return [{"type": "turn", "player": mover, "card": str(card), "to": place["to"]}
                for card in candidates for place in placements_for(state, card) if place["correct"]]

    def to_json(self, state: MugginsState) -> JSON:
        n = len(state.players)
        scores = [1 if state.placings and p in state.placings[0] else 0 for p in range(n)]
        data = common_json(scores, state.over, state.winner, state.to_act)
        data.update(
            mode=state.mode,
            phase=state.phase,
            options=state.options.to_json(),
            dealer=state.dealer if state.mode == "adjudicate" else None,
            forehand=_next_seat(state.dealer, n) if state.mode == "adjudicate" else None,
            muggins=[{"index": i, "top": str(pile[-1]), "count": len(pile), "cards": [str(c) for c in pile]}
                     for i, pile in enumerate(state.muggins)],
            players=[self._player_json(state, p) for p in range(n)],
            placements=[_placement_json(p) for p in state.history],
            last_muggins=_call_json(state, state.last_muggins),
            muggins_called=any(s.what == "muggins" for s in state.scored),
            placings=[list(g) for g in state.placings],
            stalemate=None if state.stalemate is None else {
                "reason": state.stalemate.reason, "rule": "MUGGINS-END-2", "cards": list(state.stalemate.cards)},
            cards_total=sum(len(p) for p in state.muggins) + sum(h.cards for h in state.hands),
            unseen=sum(1 for h in state.hands for s in h.draw if s is None),
        )
        data.update(self._turn_json(state))
        return data

    def _player_json(self, state: MugginsState, seat: int) -> JSON:
        hand = state.hands[seat] if state.hands else Hand()
        place = next((k for k, g in enumerate(state.placings, start=1) if seat in g), None)
        return {
            "seat": seat,
            "name": state.players[seat],
            "draw": len(hand.draw),
            "discard": len(hand.discard),
            "discard_top": str(hand.discard[-1]) if hand.discard else None,
            "discard_cards": [str(c) for c in hand.discard],
            "cards": hand.cards,
            "draw_top": str(hand.draw[0]) if hand.draw and hand.draw[0] is not None else None,
            "finished": place is not None,
            "place": place,
            "turnovers": hand.turnovers,
        }

    def _turn_json(self, state: MugginsState) -> JSON:
        """What the screen needs for the player to act: the next card if known, whether the pile
        is turned over first, and the correct places for each rank (suits never matter)."""
        mover = state.to_act
        if mover is None or state.phase != "play":
            return {"next_card": None, "turns_over_first": False, "left_pile": None, "places_by_rank": {}}
        hand = state.hands[mover]
        draw = hand.draw if hand.draw else hand.discard
        hands = _hands_after_turnover(state, mover)
        by_rank: dict[str, list[JSON]] = {}
        for rank in FRENCH_RANKS:
            probe = Card(rank, "S")
            by_rank[rank] = [p.to_json() for p in correct_places(state.muggins, hands, mover, probe, state.options)]
        default_left = _step2_seat(hands, mover, Card("A", "S"), replace(state.options, any_opponent=False))
        return {
            "next_card": str(draw[0]) if draw and draw[0] is not None else None,
            "turns_over_first": not hand.draw,
            "left_pile": default_left,
            "places_by_rank": by_rank,
        }

    def describe(self, event: Mapping[str, Any], players: Sequence[str]) -> Msg:
        """One line of the history: who turned which card and where it went. The event alone does
        not say whether it was a muggins (the state does), except when a ``moved_to`` was given."""
        def who(seat: Any) -> str:
            return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else "?"

        kind = event.get("type")
        if kind == "setup":
            raw = event.get("muggins")
            items = raw.split() if isinstance(raw, str) else raw if isinstance(raw, list) else []
            laid = Join(tuple(_pretty(c) for c in items))
            dealer = event.get("dealer")
            if isinstance(dealer, int) and 0 <= dealer < len(players):
                return M("Muggins cards laid out: %(cards)s; %(dealer)s deals, %(forehand)s starts", cards=laid,
                         dealer=who(dealer), forehand=who((dealer + 1) % len(players)))
            return M("Muggins cards laid out: %(cards)s", cards=laid)
        if kind == "turn":
            mover = event.get("player")
            name = who(mover) if mover is not None else M("Next player")
            card, to = _pretty(event.get("card")), _describe_raw_place(event.get("to"), players, mover)
            if isinstance(event.get("moved_to"), Mapping):
                return M("%(player)s turned %(card)s and put it on %(place)s (Muggins! moved to %(moved)s)",
                         player=name, card=card, place=to,
                         moved=_describe_raw_place(event.get("moved_to"), players, mover))
            return M("%(player)s turned %(card)s and put it on %(place)s", player=name, card=card, place=to)
        if kind == "stop":
            return M("The players agree to stop: whoever holds the fewest cards wins")
        if kind == "result":
            placings = event.get("placings")
            if isinstance(placings, list):
                groups = [g if isinstance(g, list) else [g] for g in placings]
                return M("Result: %(placings)s", placings=Join(tuple(
                    Msg("%(k)s. %(names)s", {"k": k, "names": Join(tuple(who(p) for p in g), "and")})
                    for k, g in enumerate(groups, start=1)), ", "))
            winner = event.get("winner")
            names = Join(tuple(who(p) for p in winner), "and") if isinstance(winner, list) else who(winner)
            return M("Result: %(names)s won", names=names)
        return Msg("%(text)s", {"text": super().describe(event, players)})


def _pretty(text: Any) -> Card | str:
    """A card as the history shows it (``6♥``); text that is not a card is shown as entered."""
    try:
        return parse_card(str(text), "french")
    except ValueError:
        return str(text)


def _describe_raw_place(raw: Any, players: Sequence[str], mover: Any) -> Msg | str:
    """A place as an event spells it (not yet validated), in words."""
    place = raw if isinstance(raw, Mapping) else {}
    pile, seat = place.get("pile"), place.get("player")
    if pile == "muggins" and isinstance(place.get("index"), int) and not isinstance(place.get("index"), bool):
        return M("muggins pile %(n)s", n=place["index"] + 1)
    if pile == "discard" and isinstance(seat, int) and 0 <= seat < len(players):
        return M("their own discard pile") if seat == mover else M("%(name)s's discard pile", name=players[seat])
    return M("their own discard pile") if pile == "own" else "?"


# --- Module-level helpers used by the rules object and the screens ---------------------------


def _card_order(card: Card) -> tuple[int, str]:
    return rank_value(card), card.suit


def _hands_after_turnover(state: MugginsState, mover: int) -> list[Hand]:
    """The hands as the mover sees them when turning the next card (own pile turned over if empty)."""
    hands = list(state.hands)
    if not hands[mover].draw:
        hands[mover] = hands[mover].turned_over()
    return hands


def placements_for(state: MugginsState, card: Card | str, player: int | None = None) -> list[JSON]:
    """Every place ``card`` may be put by ``player`` (default: the player to act), best first.

    Each entry is ``{"to": <place>, "top": <card or None>, "correct": bool}``. The correct places
    (MUGGINS-PLAY-2) come first; the rest physically fit (MUGGINS-FIT-1) but would be a muggins,
    so they are listed only when breaches are accepted (not under MUGGINS-OPT-COACH).
    """
    if isinstance(card, str):
        card = parse_card(card, "french")
    mover = state.to_act if player is None else player
    if mover is None or not state.muggins:
        return []
    hands = _hands_after_turnover(state, mover)
    correct = correct_places(state.muggins, hands, mover, card, state.options)
    others = [p for p in _fitting_places(state.muggins, hands, mover, card) if p not in correct]
    if state.options.coach:
        others = []

    def top(place: Place) -> str | None:
        if place.kind == "muggins":
            return str(state.muggins[place.index][-1])
        if place.kind == "discard":
            return str(hands[place.index].discard[-1])
        return None

    return ([{"to": p.to_json(), "top": top(p), "correct": True} for p in correct]
            + [{"to": p.to_json(), "top": top(p), "correct": False} for p in others])


def _collect_penalty(hands: list[Hand], offender: int, finished: frozenset[int]) -> tuple[tuple[int, ...], list[Slot]]:
    """MUGGINS-PEN-2 / AMB-5: every other player still holding cards gives the top of their draw
    pile (turning their discard pile over first if they must), clockwise from the offender's left;
    the offender puts them under their own draw pile."""
    n = len(hands)
    givers: list[int] = []
    gathered: list[Slot] = []
    for k in range(1, n):
        giver = _next_seat(offender, n, k)
        hand = hands[giver]
        if giver in finished or hand.cards == 0:
            continue
        if not hand.draw:
            hand = hand.turned_over()
        gathered.append(hand.draw[0])
        hands[giver] = replace(hand, draw=hand.draw[1:])
        givers.append(giver)
    hands[offender] = replace(hands[offender], draw=hands[offender].draw + tuple(gathered))
    return tuple(givers), gathered


def _next_active(state: MugginsState, seat: int) -> int | None:
    n = len(state.players)
    for k in range(1, n + 1):
        q = _next_seat(seat, n, k)
        if state.active(q):
            return q
    return None


def _record_finish(state: MugginsState, newly_out: tuple[int, ...],
                   scored: list[Scored]) -> tuple[MugginsState, bool]:
    """MUGGINS-END-1: players with no cards left are placed together; without MUGGINS-OPT-PLACINGS
    the game stops at the first of them."""
    placings = state.placings + (newly_out,)
    k = len(placings)
    for p in newly_out:
        scored.append(Scored(p, 1 if k == 1 else 0, "win" if k == 1 else "placed", "MUGGINS-END-1",
                             M("%(player)s has no cards left: %(ordinal)s place", player=state.players[p],
                               ordinal=_ordinal(k))))
    state = replace(state, placings=placings)
    if not state.options.placings:
        return state, True
    remaining = tuple(p for p in range(len(state.players)) if p not in state.finished)
    if len(remaining) <= 1:
        if remaining:
            scored.append(Scored(remaining[0], 0, "placed", "MUGGINS-OPT-PLACINGS",
                                 M("%(player)s is last: %(ordinal)s place", player=state.players[remaining[0]],
                                   ordinal=_ordinal(k + 1))))
            state = replace(state, placings=state.placings + (remaining,))
        return state, True
    return state, False


def _check_stalemate(state: MugginsState, progress: bool, turn_passed: bool,
                     scored: list[Scored]) -> MugginsState:
    """MUGGINS-END-2: a repeated position, or every player turning their pile over twice, since
    the last card went on a muggins pile or another player's pile (or a penalty moved cards)."""
    hands = state.hands
    if progress:
        hands = tuple(replace(h, turnovers=0) for h in hands)
        state = replace(state, hands=hands, seen_positions=())
    # A progress placement that leaves the mover to go on is a position of its own (mid-turn).
    if turn_passed or progress:
        key = _position_key(state)
        if key is not None:
            if key in state.seen_positions:
                new = _declare_stalemate(state, "repeat", scored)
                return replace(new, scored=tuple(scored))
            state = replace(state, seen_positions=state.seen_positions + (key,))
    if not progress:
        playing = [h for p, h in enumerate(hands) if state.active(p)]
        if playing and all(h.turnovers >= STALEMATE_TURNOVERS for h in playing):
            new = _declare_stalemate(state, "turned_over_twice", scored)
            return replace(new, scored=tuple(scored))
    return replace(state, scored=tuple(scored))


def _declare_stalemate(state: MugginsState, reason: Literal["repeat", "turned_over_twice", "agreed"],
                       scored: list[Scored]) -> MugginsState:
    """The players still in the game are ranked by cards held, fewest first; ties share a place."""
    counts = tuple(h.cards for h in state.hands)
    remaining = sorted((p for p in range(len(state.players)) if p not in state.finished),
                       key=lambda p: counts[p])
    groups: list[tuple[int, ...]] = []
    for p in remaining:
        if groups and counts[groups[-1][0]] == counts[p]:
            groups[-1] = groups[-1] + (p,)
        else:
            groups.append((p,))
    placings = state.placings + tuple(groups)
    first_new = len(state.placings) + 1
    for k, group in enumerate(groups, start=first_new):
        for p in group:
            scored.append(Scored(p, 1 if k == 1 else 0, "win" if k == 1 else "placed", "MUGGINS-END-2",
                                 M("stalemate: %(player)s holds %(n)s card(s), %(ordinal)s place",
                                   player=state.players[p], n=counts[p], ordinal=_ordinal(k))))
    return replace(state, placings=placings, phase="over", to_act=None, stalemate=Stalemate(reason, counts))


def _placement_json(p: Placement) -> JSON:
    return {"n": p.n, "player": p.player, "card": str(p.card), "to": p.to.to_json(),
            "onto": str(p.onto) if p.onto is not None else None, "final": p.final.to_json(),
            "turned_over": p.turned_over, "muggins": p.muggins, "turn_ended": p.turn_ended}


def _call_json(state: MugginsState, call: MugginsCall | None) -> JSON | None:
    if call is None:
        return None
    return {
        "n": call.n,
        "player": call.player,
        "card": str(call.card),
        "placed": call.placed.to_json(),
        "placed_on": str(call.placed_on) if call.placed_on is not None else None,
        "should": [p.to_json() for p in call.correct],
        "moved_to": call.moved_to.to_json() if call.moved_to is not None else None,
        "fits": call.fitted,
        "rule": "MUGGINS-PEN-1",
        "fit_rule": None if call.fitted else "MUGGINS-FIT-1",
        "priority_rule": "MUGGINS-PLAY-2",
        "penalty_rule": "MUGGINS-PEN-2",
        "givers": list(call.givers),
        "penalty_cards": call.penalty_cards,
        "turn_ended": call.turn_ended,
        "explanation": M("Muggins! %(reason)s. %(n)s penalty card(s) go under %(player)s's draw pile.",
                         reason=call.reason, n=call.penalty_cards, player=state.players[call.player]),
    }
