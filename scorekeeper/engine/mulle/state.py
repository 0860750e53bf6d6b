"""Mulle's state: the constants of the game (target, pack, table layout, tally facts), what a
captured card is worth, the last move, the deal record, ``MulleState`` and the pegs of one event."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from scorekeeper.cards import FRENCH_RANKS, FRENCH_SUITS, Card, parse_card, parse_cards
from scorekeeper.engine.base import (
    JSON,
    Mode,
    Scored,
    Sides,
)
from scorekeeper.engine.capture import (
    Grouping,
    ValueScheme,
    card_sort_key,
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
TALLY_ORDER: tuple[str, ...] = tuple(TALLY)  # the order the sheet lists them in
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
