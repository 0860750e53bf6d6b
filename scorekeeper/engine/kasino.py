"""Kasino (Swedish), Kasino misär and Dragkasino, as specified in ``rules/kasino.md``.

One engine serves the three games; the variant is the option ``variant`` ("standard", "misar",
"drag"; ``drag_misar`` adds the misär rules to the draw form). Every other option is an option
id of the spec (``KASINO-OPT-SISTAN`` → ``sistan``, ``KASINO-VAR-FIXED`` → ``fixed`` …).

Adjudicate mode events (DESIGN.md §2 plus the misär and claim extras):

* ``{"type": "draw_dealer", "cards": ["KH", "5S", "KD"]}`` — optional cut for the first dealer
  (KASINO-DEAL-1); a tie asks the tied players (and only them) to draw again.
* ``{"type": "deal", "dealer": 0, "table": ["5D", "9S", "KH", "AC"]}`` — a new deal.
* ``{"type": "play", "player": 1, "card": "5C", "capture": ["5D"]}`` — a capture, or a trail when
  ``capture`` is empty/absent. Dragkasino: optional ``"draw": "7H"`` names the card drawn after the
  play (otherwise the engine just counts the stock down).
* ``{"type": "confirm", "proposal": 3}`` / ``{"type": "dismiss", "proposal": 3}`` — a misär penalty
  the engine proposed.
* ``{"type": "claim", "player": 0}`` — KASINO-VAR-CLAIM; ``{"type": "misdeal"}`` — KASINO-AMB-12.

Tally mode: ``deal_result`` (per side facts of one deal), ``penalty`` (misär +5), ``claim`` (with
the settled facts) and ``draw_dealer``.

The capture arithmetic is ``scorekeeper.engine.capture``; this module decides what the rules do
with it (whose turn, forced captures, which hand a player held, scoring, the end of the game).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Literal

from scorekeeper.cards import Card, french_pack, parse_card, parse_cards
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
    Sides,
    common_json,
    int_field,
)
from scorekeeper.engine.capture import (
    Grouping,
    ValueScheme,
    can_capture,
    can_sweep,
    card_sort_key,
    count_captures,
    explain_failure,
    find_grouping,
    kasino_scheme,
    legal_captures,
    maximal_captures,
    sweep_values,
)
from scorekeeper.engine.messages import Join, M, Msg

__all__ = ["Facts", "Kasino", "KasinoState", "Proposal", "Summary"]

STORAN = Card("10", "D")
LILLAN = Card("2", "S")
PACK: tuple[Card, ...] = tuple(sorted(french_pack(), key=card_sort_key))
PACK_SIZE = 52
TABLE_START = 4
HAND_SIZE = 4
PLAYS_PER_DEAL = PACK_SIZE - TABLE_START  # 48 whatever the player count (KASINO-DEAL-5)
TARGET = 16
KNOCKOUT = 21
PENALTY = 5
VARIANTS = ("standard", "misar", "drag")
SWEEP_NAMES = {1: "ess (1)", 11: "knekt", 12: "dam", 13: "kung", 14: "ess", 15: "lillan (15)",
               16: "storan (16)"}

Phase = Literal["setup", "play", "between", "settling", "over"]


# --- Options ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Settings:
    """The parsed options; ``misar`` and ``drag`` are derived from ``variant`` and ``drag_misar``."""

    variant: str
    misar: bool
    drag: bool
    scheme: ValueScheme
    must_capture: bool
    sistan: bool
    pairs: bool
    pairs_individual: bool
    claim: bool
    claim_tabbe: bool
    auto_claim: bool
    no_last_tabbe: bool
    maxcount: bool
    strict: bool
    penalty_b: bool
    single_deal: bool
    ace_low: bool

    @property
    def forced_capture(self) -> bool:
        return self.misar or self.must_capture

    @property
    def capture_rule(self) -> str:
        return "KASINO-MIS-2" if self.misar else "KASINO-OPT-MUST-CAPTURE"


# --- Piles and scoring facts ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Facts:
    """What a pile holds at the end of a deal: all that KASINO-SCORE-1 looks at."""

    cards: int = 0
    spades: int = 0
    storan: bool = False
    lillan: bool = False
    aces: int = 0
    tabbes: int = 0
    sistan: bool = False

    def __add__(self, other: Facts) -> Facts:
        return Facts(self.cards + other.cards, self.spades + other.spades, self.storan or other.storan,
                     self.lillan or other.lillan, self.aces + other.aces, self.tabbes + other.tabbes,
                     self.sistan or other.sistan)

    @property
    def settled(self) -> int:
        """Points a pile already owns mid-deal (the claim variant): storan, lillan, Aces."""
        return 2 * self.storan + self.lillan + self.aces

    def to_json(self) -> JSON:
        return {"cards": self.cards, "spades": self.spades, "storan": self.storan,
                "lillan": self.lillan, "aces": self.aces, "tabbes": self.tabbes, "sistan": self.sistan}


@dataclass(frozen=True, slots=True)
class Pile:
    """One player's captured cards in the current deal."""

    cards: tuple[Card, ...] = ()
    tabbes: int = 0  # sweeps that score
    sweeps: int = 0  # every sweep, also those KASINO-OPT-NO-LAST-TABBE does not score

    def facts(self, sistan: bool = False) -> Facts:
        return Facts(
            cards=len(self.cards),
            spades=sum(1 for c in self.cards if c.suit == "S"),
            storan=STORAN in self.cards,
            lillan=LILLAN in self.cards,
            aces=sum(1 for c in self.cards if c.rank == "A"),
            tabbes=self.tabbes,
            sistan=sistan,
        )


@dataclass(frozen=True, slots=True)
class Category:
    """One line of the end-of-deal count: who got it and for how much (per side)."""

    what: str
    rule: str
    points: tuple[int, ...]
    winner: int | None = None  # the side that took a "most" item, None when tied or not a "most" item
    tied: tuple[int, ...] = ()  # sides (or players, compared individually) tied for most
    lost: int = 0  # points nobody got because of a tie

    def to_json(self) -> JSON:
        return {"what": self.what, "rule": self.rule, "points": list(self.points),
                "winner": self.winner, "tied": list(self.tied), "lost": self.lost}


@dataclass(frozen=True, slots=True)
class Summary:
    """The end-of-deal count (KASINO-SCORE-1..3)."""

    deal: int
    facts: tuple[Facts | None, ...]  # per side, pooled for partnerships; None = knocked out
    categories: tuple[Category, ...]
    points: tuple[int, ...]
    leftovers: tuple[Card, ...] = ()
    leftovers_to: int | None = None  # the player who took them (KASINO-TURN-6)

    @property
    def total(self) -> int:
        return sum(self.points)

    @property
    def lost(self) -> int:
        return sum(c.lost for c in self.categories)

    def to_json(self) -> JSON:
        return {
            "deal": self.deal,
            "facts": [f.to_json() if f is not None else None for f in self.facts],
            "categories": [c.to_json() for c in self.categories],
            "points": list(self.points),
            "total": self.total,
            "lost_to_ties": self.lost,
            "leftovers": [str(c) for c in self.leftovers],
            "leftovers_to": self.leftovers_to,
        }


# --- Turns, proposals, history ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Turn:
    """One play of the current deal, kept for the retroactive misär checks and the history."""

    number: int  # 0-based play number in the deal
    player: int
    round: int  # 1-based; 0 in Dragkasino, which has no rounds
    card: Card
    taken: tuple[Card, ...]
    table_before: tuple[Card, ...]
    grouping: Grouping | None
    tabbe: bool
    tabbe_scores: bool
    drew: Card | None = None  # Dragkasino: the card drawn after the play, when entered
    drew_unknown: bool = False  # Dragkasino: a card was drawn but not entered
    could_sweep: bool = False  # misär: the played card itself could have taken the whole table

    def describe(self) -> Msg:
        if self.grouping is None:
            return M("%(card)s trailed", card=self.card)
        text = self.grouping.summary(self.card)
        return M("%(capture)s — tabbe", capture=text) if self.tabbe else text

    def to_json(self) -> JSON:
        return {
            "number": self.number + 1,
            "player": self.player,
            "round": self.round or None,
            "card": str(self.card),
            "capture": [str(c) for c in self.taken],
            "trail": not self.taken,
            "tabbe": self.tabbe,
            "tabbe_scores": self.tabbe_scores,
            "table_before": [str(c) for c in self.table_before],
            "grouping": self.grouping.to_json() if self.grouping else None,
            "describe": self.describe(),
        }


@dataclass(frozen=True, slots=True)
class Proposal:
    """A misär penalty the engine found evidence for; the table confirms or dismisses it."""

    id: int
    deal: int
    player: int
    breach: str  # the rule broken: KASINO-MIS-1 or KASINO-MIS-2
    rule: str  # the rule that sets the penalty: KASINO-MIS-5 or KASINO-OPT-MISAR-PENALTY-B
    points: int
    turn: int  # 0-based play number of the breach
    message: str
    evidence: Mapping[str, Any] = field(default_factory=dict)
    status: Literal["pending", "confirmed", "dismissed", "void"] = "pending"

    def to_json(self) -> JSON:
        return {"id": self.id, "deal": self.deal, "player": self.player, "breach": self.breach,
                "rule": self.rule, "points": self.points, "turn": self.turn + 1, "message": self.message,
                "evidence": dict(self.evidence), "status": self.status}


@dataclass(frozen=True, slots=True)
class DealRow:
    """One line of the score sheet."""

    deal: int
    dealer: int | None
    points: tuple[int, ...]
    penalties: tuple[int, ...]
    totals: tuple[int, ...]
    spades: tuple[int, ...]
    knocked_out: tuple[int, ...] = ()
    note: str = ""

    def to_json(self) -> JSON:
        return {"deal": self.deal, "dealer": self.dealer, "points": list(self.points),
                "penalties": list(self.penalties), "totals": list(self.totals), "spades": list(self.spades),
                "knocked_out": list(self.knocked_out), "note": self.note}


@dataclass(frozen=True, slots=True)
class DealerDraw:
    """The cut for the first dealer (KASINO-DEAL-1): the last cards drawn and who must draw again."""

    cards: tuple[Card | None, ...]
    tied: tuple[int, ...]
    dealer: int | None


@dataclass(frozen=True, slots=True)
class KasinoState:
    players: tuple[str, ...]
    mode: Mode
    cfg: Settings
    sides: Sides
    scores: tuple[int, ...]
    active: tuple[int, ...]
    phase: Phase = "setup"
    eliminated: tuple[int, ...] = ()
    dealer: int | None = None  # of the current or the last deal
    redeal: bool = False  # after a misdeal the same dealer deals again (KASINO-AMB-12)
    draw: DealerDraw | None = None
    deal_no: int = 0
    table: tuple[Card, ...] = ()
    seen: frozenset[Card] = frozenset()
    piles: tuple[Pile, ...] = ()
    turns: tuple[Turn, ...] = ()
    last_capturer: int | None = None
    open_penalties: tuple[int, ...] = ()
    proposals: tuple[Proposal, ...] = ()
    history: tuple[DealRow, ...] = ()
    summary: Summary | None = None
    winner: int | list[int] | None = None
    end_rule: str | None = None
    end_reason: str = ""
    announce: tuple[str, ...] = ()
    scored: tuple[Scored, ...] = ()

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def n_active(self) -> int:
        return len(self.active)

    @property
    def rounds_total(self) -> int:
        return PLAYS_PER_DEAL // (HAND_SIZE * self.n_active) if self.active else 0

    @property
    def stock_start(self) -> int:
        return PACK_SIZE - TABLE_START - HAND_SIZE * self.n_active  # KASINO-DRAG-4

    @property
    def stock(self) -> int:
        return max(0, self.stock_start - len(self.turns)) if self.cfg.drag else 0

    @property
    def round(self) -> int:
        if not self.active:
            return 0
        return min(len(self.turns) // (HAND_SIZE * self.n_active) + 1, self.rounds_total)

    @property
    def is_last_round(self) -> bool:
        if self.phase != "play":
            return False
        if self.cfg.drag:
            return self.stock == 0  # KASINO-DRAG-3: the final phase counts as "sistan"
        return self.round == self.rounds_total

    @property
    def forehand(self) -> int | None:
        return _next_active(self.active, self.dealer, len(self.players)) if self.dealer is not None else None

    @property
    def to_act(self) -> int | None:
        if self.phase != "play" or self.forehand is None:
            return None
        start = self.active.index(self.forehand)
        return self.active[(start + len(self.turns)) % self.n_active]

    @property
    def pending(self) -> tuple[Proposal, ...]:
        return tuple(p for p in self.proposals if p.status == "pending")


def _next_active(active: Sequence[int], seat: int, seats: int) -> int:
    """The first active player clockwise after ``seat`` (which may itself be knocked out)."""
    for step in range(1, seats + 1):
        candidate = (seat + step) % seats
        if candidate in active:
            return candidate
    raise ValueError("nobody is left to play")  # pragma: no cover - a finished game deals no more


# --- The rules ----------------------------------------------------------------------------------


def _opt(key: str, rule: str, label: str) -> OptionSpec:
    return OptionSpec(key, False, rule, label)


class Kasino(BaseRules):
    id: ClassVar[str] = "kasino"
    name: ClassVar[str] = "Kasino"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    player_rule: ClassVar[str | None] = "KASINO-COMP-2"
    team_rule: ClassVar[str | None] = "KASINO-VAR-PAIRS"
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("variant", "standard", None, "Game: Kasino, Kasino misär or Dragkasino",
                   kind="choice", choices=VARIANTS),
        _opt("fixed", "KASINO-VAR-FIXED", "Storan always 10, lillan always 2"),
        _opt("handtable", "KASINO-VAR-HANDTABLE", "High values from the hand, low on the table"),
        _opt("must_capture", "KASINO-OPT-MUST-CAPTURE", "A card that can capture must capture, maximally"),
        _opt("sistan", "KASINO-OPT-SISTAN", "+1 for the last capture"),
        _opt("pairs", "KASINO-VAR-PAIRS", "Four players in two partnerships"),
        _opt("pairs_individual", "KASINO-OPT-PAIRS-INDIVIDUAL", "Partnerships compare individual piles"),
        _opt("claim", "KASINO-OPT-CLAIM", "A player may claim 16 during a deal"),
        _opt("claim_tabbe", "KASINO-OPT-CLAIM-TABBE", "Tabbes count toward a claim"),
        _opt("auto_claim", "KASINO-AMB-13", "Claims are made automatically"),
        _opt("no_last_tabbe", "KASINO-OPT-NO-LAST-TABBE", "No tabbe point in the final round"),
        _opt("misar_maxcount", "KASINO-OPT-MISAR-MAXCOUNT", "Misär: take the most cards possible"),
        _opt("misar_strict", "KASINO-OPT-MISAR-STRICT", "Misär: a missed forced tabbe is taken back"),
        _opt("misar_penalty_b", "KASINO-OPT-MISAR-PENALTY-B", "Misär: a short capture costs +5 and stands"),
        _opt("drag_misar", "KASINO-OPT-DRAG-MISAR", "Dragkasino with the misär rules"),
        _opt("single_deal", "KASINO-END-1", "Play a single deal"),
        _opt("draw_ace_low", "KASINO-AMB-1", "Aces rank low in the draw for dealer"),
    )

    # -- set-up ----------------------------------------------------------------------------------

    def new(self, players: Sequence[str], options: Mapping[str, Any], mode: Mode = "adjudicate") -> KasinoState:
        self.check_players(players)
        if mode not in ("adjudicate", "tally"):
            raise SetupError(None, M("mode must be 'adjudicate' or 'tally', not %(mode)s", mode=repr(mode)))
        opts = self.parse_options(options, len(players))
        cfg = _settings(opts, len(players), options)
        sides = Sides(((0, 2), (1, 3))) if cfg.pairs else Sides(tuple((p,) for p in range(len(players))))
        return KasinoState(tuple(players), mode, cfg, sides, scores=(0,) * sides.count,
                           active=tuple(range(len(players))), open_penalties=(0,) * sides.count)

    # -- events ----------------------------------------------------------------------------------

    def apply(self, state: KasinoState, event: Mapping[str, Any]) -> KasinoState:
        if not isinstance(event, Mapping):
            raise MalformedEvent(M("an event must be an object"), event)
        kind = event.get("type")
        handlers = _ADJUDICATE if state.mode == "adjudicate" else _TALLY
        handler = handlers.get(kind) if isinstance(kind, str) else None
        if handler is None:
            known = ", ".join(sorted(handlers))
            raise MalformedEvent(M("Kasino (%(mode)s) has no event %(kind)s (events: %(known)s)", mode=state.mode,
                                   kind=repr(kind), known=known), event)
        return handler(self, state, event)

    def _draw_dealer(self, s: KasinoState, event: Mapping[str, Any]) -> KasinoState:
        raw = event.get("cards")
        if not isinstance(raw, list) or len(raw) != len(s.players):
            raise MalformedEvent(M("'cards' must list one card (or null) per player, %(n)s in all",
                                   n=len(s.players)), event)
        if s.phase != "setup" or (s.draw is not None and s.draw.dealer is not None):
            raise RuleViolation("KASINO-DEAL-1", M("the first dealer has already been found"))
        drawers = s.draw.tied if s.draw is not None else tuple(range(len(s.players)))
        cards: list[Card | None] = [None if item is None else parse_card(item) for item in raw]
        given = tuple(i for i, c in enumerate(cards) if c is not None)
        if given != drawers:
            who = ", ".join(s.players[i] for i in drawers)
            raise RuleViolation("KASINO-DEAL-1", M("exactly these players draw now: %(who)s", who=who),
                                drawers=list(drawers))
        drawn = [c for c in cards if c is not None]
        _no_repeats(drawn, M("drawn for the deal"))
        order = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K") if s.cfg.ace_low \
            else ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
        rank = {p: order.index(c.rank) for p, c in enumerate(cards) if c is not None}
        best = max(rank.values())
        top = tuple(p for p in drawers if rank[p] == best)
        dealer = top[0] if len(top) == 1 else None
        announce = (M("%(dealer)s deals", dealer=s.players[dealer]),) if dealer is not None else (
            M("draw again: %(who)s", who=", ".join(s.players[p] for p in top)),)
        return replace(s, draw=DealerDraw(tuple(cards), () if dealer is not None else top, dealer),
                       announce=announce, scored=())

    def _deal(self, s: KasinoState, event: Mapping[str, Any]) -> KasinoState:
        self._require_between_deals(s)
        dealer = self._dealer_for(s, event)
        raw = event.get("table")
        if not isinstance(raw, (list, str)):
            raise MalformedEvent(M("'table' must list the four face-up cards"), event)
        table = tuple(parse_cards(raw))
        if len(table) != TABLE_START:
            raise RuleViolation("KASINO-DEAL-3", M("a deal puts 4 cards face up on the table, not %(n)s",
                                                   n=len(table)),
                                table=[str(c) for c in table])
        _no_repeats(table, M("on the table"))
        n = len(s.players)
        return replace(
            s, phase="play", dealer=dealer, redeal=False, deal_no=s.deal_no + 1, table=table,
            seen=frozenset(table), piles=(Pile(),) * n, turns=(), last_capturer=None,
            summary=None, announce=(), scored=(),
        )

    def _dealer_for(self, s: KasinoState, event: Mapping[str, Any]) -> int:
        given: int | None = None
        if event.get("dealer") is not None:
            given = int_field(event, "dealer", minimum=0, maximum=len(s.players) - 1)
        if s.dealer is None:
            drawn = s.draw.dealer if s.draw is not None else None
            if drawn is None:
                if given is None:
                    raise MalformedEvent(M("the first deal needs 'dealer' (or a draw_dealer event first)"), event)
                return given
            if given is not None and given != drawn:
                raise RuleViolation("KASINO-DEAL-1", M("%(dealer)s drew the highest card and deals",
                                                       dealer=s.players[drawn]),
                                    dealer=drawn)
            return drawn
        expected = s.dealer if s.redeal else _next_active(s.active, s.dealer, len(s.players))
        if given is not None and given != expected:
            rule = "KASINO-AMB-12" if s.redeal else "KASINO-DEAL-2"
            why = M("after a misdeal the same dealer deals again") if s.redeal else M("the deal passes clockwise")
            raise RuleViolation(rule, M("%(dealer)s deals now: %(why)s", dealer=s.players[expected], why=why),
                                dealer=expected)
        return expected

    def _require_between_deals(self, s: KasinoState) -> None:
        if s.phase == "over":
            raise RuleViolation(_over_rule(s), M("the game is over"))
        if s.phase == "play":
            raise RuleViolation("KASINO-END-2", M("every deal that is started is finished first"))
        if s.phase == "settling":
            raise RuleViolation("KASINO-MIS-5", M("confirm or dismiss the proposed penalties of the last deal first"),
                                proposals=[p.id for p in s.pending])

    def _require_playing(self, s: KasinoState) -> None:
        if s.phase == "over":
            raise RuleViolation(_over_rule(s), M("the game is over"))
        if s.phase != "play":
            raise RuleViolation("KASINO-DEAL-3", M("no deal is in progress: deal the cards first"))

    def _player(self, s: KasinoState, event: Mapping[str, Any]) -> int:
        player = int_field(event, "player", minimum=0, maximum=len(s.players) - 1)
        if player not in s.active:
            raise RuleViolation("KASINO-MIS-7", M("%(player)s has been knocked out", player=s.players[player]),
                                player=player)
        return player

    # -- play --------------------------------------------------------------------------------------

    def _play(self, s: KasinoState, event: Mapping[str, Any]) -> KasinoState:
        self._require_playing(s)
        cfg = s.cfg
        player = self._player(s, event)
        if player != s.to_act:
            who = s.players[s.to_act] if s.to_act is not None else M("nobody")
            raise RuleViolation("KASINO-TURN-1", M("it is %(to_act)s's turn, not %(player)s's", to_act=who,
                                                   player=s.players[player]),
                                to_act=s.to_act, player=player)
        if "card" not in event:
            raise MalformedEvent(M("a play needs 'card'"), event)
        card = parse_card(event["card"])
        raw_capture = event.get("capture")
        if raw_capture is not None and not isinstance(raw_capture, (list, str)):
            raise MalformedEvent(M("'capture' must list the table cards taken"), event)
        taken = tuple(parse_cards(raw_capture)) if raw_capture else ()
        self._check_played_card(s, player, card)
        self._check_taken(s, card, taken)
        grouping = find_grouping(card, taken, cfg.scheme) if taken else None
        if taken and grouping is None:
            raise RuleViolation("KASINO-CAP-4", M("%(card)s cannot take %(taken)s: %(why)s", card=card,
                                                  taken=_cards(taken), why=explain_failure(card, taken, cfg.scheme)),
                                played=str(card), taken=[str(c) for c in taken])
        proposals: list[Proposal] = []
        next_id = _next_proposal_id(s)
        if cfg.forced_capture:
            breach = _capture_duty(cfg, card, s.table, taken)
            if breach is not None:
                rule, message, facts = breach
                if not (cfg.misar and cfg.penalty_b):
                    raise RuleViolation(rule, message, **facts)
                proposals.append(Proposal(next_id, s.deal_no, player, "KASINO-MIS-2", "KASINO-OPT-MISAR-PENALTY-B",
                                          PENALTY, len(s.turns), Msg("%(player)s: %(message)s; +%(points)s", {
                                              "player": s.players[player], "message": message, "points": PENALTY}),
                                          facts))
                next_id += 1
        drew, drew_unknown = self._draw(s, event, card, taken)
        tabbe = bool(taken) and len(taken) == len(s.table)
        final_round = (len(s.turns) >= s.stock_start) if cfg.drag else s.round == s.rounds_total
        turn = Turn(
            number=len(s.turns), player=player, round=0 if cfg.drag else s.round, card=card, taken=taken,
            table_before=s.table, grouping=grouping, tabbe=tabbe,
            tabbe_scores=tabbe and not (cfg.no_last_tabbe and final_round),
            drew=drew, drew_unknown=drew_unknown,
            could_sweep=cfg.misar and can_sweep(card, s.table, cfg.scheme),
        )
        if cfg.misar:
            for earlier, sweeper in _missed_tabbes(s, turn):
                evidence = _tabbe_evidence(s, earlier, sweeper, turn)
                message = M("%(player)s held %(card)s at play %(play)s (table %(table)s) and could have made a "
                            "tabbe, but %(move)s", player=s.players[player], card=sweeper, play=earlier.number + 1,
                            table=_cards(earlier.table_before), move=earlier.describe())
                if cfg.strict:
                    raise RuleViolation("KASINO-MIS-1", M("%(message)s: take the moves back to that play "
                                        "(KASINO-OPT-MISAR-STRICT)", message=message),
                                        take_back_to=earlier.number + 1, **evidence)
                proposals.append(Proposal(next_id, s.deal_no, player, "KASINO-MIS-1", "KASINO-MIS-5", PENALTY,
                                          earlier.number, Msg("%(message)s; +%(points)s",
                                                              {"message": message, "points": PENALTY}), evidence))
                next_id += 1
        return self._after_play(s, turn, tuple(proposals))

    def _check_played_card(self, s: KasinoState, player: int, card: Card) -> None:
        if card in s.table:
            raise RuleViolation("KASINO-TURN-1", M("%(card)s lies on the table; a card is played from the hand",
                                                   card=card),
                                card=str(card))
        if card in s.seen and card not in _known_hand(s, player):
            holder = next((p for p in range(len(s.players)) if card in _known_hand(s, p)), None)
            raise RuleViolation("KASINO-COMP-1", M("%(card)s was drawn by %(holder)s; the pack has one of each card",
                                                   card=card, holder=s.players[holder]) if holder is not None else
                                M("%(card)s was already played this deal; the pack has one of each card", card=card),
                                card=str(card))

    def _check_taken(self, s: KasinoState, card: Card, taken: tuple[Card, ...]) -> None:
        if not taken:
            return
        if not s.table:
            raise RuleViolation("KASINO-TURN-5", M("the table is empty after the tabbe: the card must be trailed"))
        repeated = [c for c, k in Counter(taken).items() if k > 1]
        if repeated:
            raise RuleViolation("KASINO-CAP-4", M("%(card)s is listed twice; each table card is taken in exactly "
                                                  "one group", card=repeated[0]), card=str(repeated[0]))
        missing = [c for c in taken if c not in s.table]
        if missing:
            table = _cards(s.table) if s.table else M("empty")
            raise RuleViolation("KASINO-TURN-2", M("%(cards)s is not on the table (%(table)s)", cards=_cards(missing),
                                                   table=table) if len(missing) == 1 else
                                M("%(cards)s are not on the table (%(table)s)", cards=_cards(missing), table=table),
                                missing=[str(c) for c in missing])

    def _draw(self, s: KasinoState, event: Mapping[str, Any], card: Card,
              taken: tuple[Card, ...]) -> tuple[Card | None, bool]:
        raw = event.get("draw")
        if not s.cfg.drag:
            if raw is not None:
                raise RuleViolation("KASINO-DRAG-2", M("players draw from a stock only in Dragkasino"))
            return None, False
        draws = len(s.turns) < s.stock_start
        if raw is None:
            return None, draws
        drawn = parse_card(raw)
        if not draws:
            raise RuleViolation("KASINO-DRAG-3", M("the stock is empty: nothing is drawn any more"), card=str(drawn))
        if drawn in s.seen or drawn == card or drawn in taken:
            raise RuleViolation("KASINO-COMP-1", M("%(card)s has already been seen this deal; the stock cannot "
                                                   "hold it", card=drawn), card=str(drawn))
        return drawn, False

    def _after_play(self, s: KasinoState, turn: Turn, proposals: tuple[Proposal, ...]) -> KasinoState:
        player = turn.player
        pile = s.piles[player]
        if turn.taken:
            pile = Pile(pile.cards + (turn.card,) + turn.taken, pile.tabbes + turn.tabbe_scores,
                        pile.sweeps + turn.tabbe)
            table = tuple(c for c in s.table if c not in turn.taken)
        else:
            table = s.table + (turn.card,)
        piles = s.piles[:player] + (pile,) + s.piles[player + 1:]
        seen = s.seen | {turn.card} | ({turn.drew} if turn.drew else set())
        state = replace(s, table=table, piles=piles, turns=s.turns + (turn,), seen=seen,
                        last_capturer=player if turn.taken else s.last_capturer,
                        proposals=s.proposals + proposals, scored=(), announce=())
        if len(state.turns) == PLAYS_PER_DEAL:
            return self._end_deal(state)
        announce: list[str] = []
        if state.cfg.drag:
            if state.stock == 0 and s.stock > 0:
                announce.append("sistan")
        elif state.round != s.round and state.round == state.rounds_total:
            announce.append("sistan")  # KASINO-DEAL-6: the last round is about to be dealt
        if state.cfg.misar:
            announce.extend(f"tabbe på {_sweep_name(v)}" for v in _sweeps(state))
        state = replace(state, announce=tuple(announce))
        if state.cfg.auto_claim:
            side = state.sides.side_of(player)
            if _claimable(state, side) >= TARGET:
                return _claim_win(state, side, "KASINO-AMB-13")
        return state

    # -- end of a deal ---------------------------------------------------------------------------

    def _end_deal(self, s: KasinoState) -> KasinoState:
        leftovers = s.table
        taker = s.last_capturer if leftovers else None
        piles = list(s.piles)
        if taker is not None:  # KASINO-TURN-6; not a tabbe. Nobody captured at all: KASINO-AMB-9
            piles[taker] = replace(piles[taker], cards=piles[taker].cards + leftovers)
        facts: list[Facts | None] = [None] * len(s.players)
        for p in s.active:
            facts[p] = piles[p].facts(sistan=s.cfg.sistan and p == s.last_capturer)
        summary = score_deal(s.deal_no, facts, s.sides, s.cfg)
        summary = replace(summary, leftovers=leftovers, leftovers_to=taker)
        state = replace(s, piles=tuple(piles), table=())
        return _close_deal(state, summary, s.dealer)

    # -- misär proposals ---------------------------------------------------------------------------

    def _resolve(self, s: KasinoState, event: Mapping[str, Any]) -> KasinoState:
        pid = int_field(event, "proposal", minimum=0)
        found = next((p for p in s.proposals if p.id == pid), None)
        if found is None or found.status != "pending":
            raise RuleViolation("KASINO-MIS-5", M("penalty proposal %(id)s does not exist", id=pid) if found is None
                                else M("penalty proposal %(id)s is already confirmed", id=pid)
                                if found.status == "confirmed" else
                                M("penalty proposal %(id)s is already dismissed", id=pid)
                                if found.status == "dismissed" else
                                M("penalty proposal %(id)s is void", id=pid), proposal=pid)
        confirm = event.get("type") == "confirm"
        updated = replace(found, status="confirmed" if confirm else "dismissed")
        proposals = tuple(updated if p.id == pid else p for p in s.proposals)
        state = replace(s, proposals=proposals, scored=(), announce=())
        if confirm:
            side = state.sides.side_of(found.player)
            state = _add_points(state, side, found.points)
            state = replace(state, scored=(Scored(side, found.points, "penalty", found.rule, found.message),))
            if s.phase == "settling" and state.history:
                row = state.history[-1]
                penalties = _bump(row.penalties, side, found.points)
                state = replace(state, history=state.history[:-1] + (
                    replace(row, penalties=penalties, totals=state.scores),))
            else:
                state = replace(state, open_penalties=_bump(state.open_penalties, side, found.points))
        if state.phase == "settling" and not state.pending and state.summary is not None:
            state = _settle(state, state.summary)
        return state

    # -- claim and misdeal ---------------------------------------------------------------------------

    def _claim(self, s: KasinoState, event: Mapping[str, Any]) -> KasinoState:
        if not s.cfg.claim:
            raise RuleViolation("KASINO-VAR-CLAIM", M("claims are not part of this game (option claim is off)"))
        if s.phase == "over":
            raise RuleViolation(_over_rule(s), M("the game is over"))
        player = self._player(s, event)
        side = s.sides.side_of(player)
        if s.mode == "tally":
            facts = _tally_claim_facts(event)
            total = s.scores[side] + facts.settled + (facts.tabbes if s.cfg.claim_tabbe else 0)
        else:
            if s.phase != "play":
                raise RuleViolation("KASINO-VAR-CLAIM", M("a claim is made during a deal"))
            total = _claimable(s, side)
        if total < TARGET:
            raise RuleViolation("KASINO-VAR-CLAIM", M("%(player)s has only %(total)s settled points; a claim needs "
                                                      "%(target)s", player=s.players[player], total=total,
                                                      target=TARGET), claimable=total)
        return _claim_win(replace(s, scored=()), side, "KASINO-VAR-CLAIM", total)

    def _misdeal(self, s: KasinoState, event: Mapping[str, Any]) -> KasinoState:
        if s.phase != "play":
            raise RuleViolation("KASINO-AMB-12", M("a misdeal can only be called while a deal is in progress"))
        scored: list[Scored] = []
        proposals: list[Proposal] = []
        scores = list(s.scores)
        for p in s.proposals:
            if p.deal == s.deal_no and p.status != "void":
                if p.status == "confirmed":
                    side = s.sides.side_of(p.player)
                    scores[side] -= p.points
                    scored.append(Scored(side, -p.points, "penalty void", "KASINO-AMB-12", M("misdeal")))
                p = replace(p, status="void")
            proposals.append(p)
        return replace(s, phase="between", redeal=True, table=(), seen=frozenset(), turns=(),
                       piles=(Pile(),) * len(s.players), last_capturer=None, scores=tuple(scores),
                       open_penalties=(0,) * s.sides.count, proposals=tuple(proposals),
                       deal_no=s.deal_no - 1, announce=(M("misdeal: the same dealer deals again"),),
                       scored=tuple(scored))

    # -- tally mode ----------------------------------------------------------------------------------

    def _deal_result(self, s: KasinoState, event: Mapping[str, Any]) -> KasinoState:
        self._require_between_deals(s)
        dealer = self._dealer_for(s, event) if (event.get("dealer") is not None or s.dealer is not None
                                                or (s.draw is not None and s.draw.dealer is not None)) else None
        per_player = _tally_entries(s, event)
        facts = _validate_tally(s, per_player)
        state = replace(s, deal_no=s.deal_no + 1, dealer=dealer, scored=(), announce=())
        summary = score_deal(state.deal_no, facts, s.sides, s.cfg)
        return _close_deal(state, summary, dealer)

    def _penalty(self, s: KasinoState, event: Mapping[str, Any]) -> KasinoState:
        if not s.cfg.misar:
            raise RuleViolation("KASINO-MIS-5", M("penalties belong to Kasino misär"))
        if s.phase == "over":
            raise RuleViolation(_over_rule(s), M("the game is over"))
        player = self._player(s, event)
        breach = event.get("breach", "KASINO-MIS-1")
        if breach not in ("KASINO-MIS-1", "KASINO-MIS-2"):
            raise MalformedEvent(M("'breach' must be 'KASINO-MIS-1' or 'KASINO-MIS-2'"), event)
        if breach == "KASINO-MIS-2" and not s.cfg.penalty_b:
            raise RuleViolation("KASINO-MIS-5", M("a short capture is corrected, not penalised, unless the option "
                                                  "misar_penalty_b is on (KASINO-AMB-8)"))
        rule = "KASINO-MIS-5" if breach == "KASINO-MIS-1" else "KASINO-OPT-MISAR-PENALTY-B"
        side = s.sides.side_of(player)
        state = _add_points(s, side, PENALTY)
        return replace(state, open_penalties=_bump(s.open_penalties, side, PENALTY), announce=(),
                       scored=(Scored(side, PENALTY, "penalty", rule, M("%(player)s broke %(breach)s",
                                                                        player=s.players[player], breach=breach)),))

    # -- reading the state -----------------------------------------------------------------------------

    def outcome(self, state: KasinoState) -> Outcome | None:
        if not state.over:
            return None
        return Outcome(state.winner, state.end_reason, state.end_rule)

    def hints(self, state: KasinoState) -> list[Event]:
        hints: list[Event] = []
        for p in state.pending:
            hints.append({"type": "confirm", "proposal": p.id})
            hints.append({"type": "dismiss", "proposal": p.id})
        if state.phase == "play" and state.cfg.claim and state.mode == "adjudicate":
            for side in range(state.sides.count):
                if _claimable(state, side) >= TARGET:
                    hints.append({"type": "claim", "player": state.sides.teams[side][0]})
        return hints

    def captures_for(self, state: KasinoState, card: Card | str, limit: int | None = None) -> JSON:
        """For the screen: what the player to act may do with ``card`` on the current table.

        ``captures`` are the legal captures in the solver's order (smallest first, then by card),
        each marked ``allowed`` unless the capture duty (misär, must_capture) forbids it; ``count``
        is how many legal captures there are in all. A crowded table can have thousands, so a
        screen should pass ``limit``: then at most ``limit`` are listed, and under a capture duty
        the allowed ones (the biggest) come first, the smallest others after them."""
        played = parse_card(card) if isinstance(card, str) else card
        cfg = state.cfg
        options = legal_captures(played, state.table, cfg.scheme, limit=limit)
        count = len(options) if limit is None or len(options) < limit else \
            count_captures(played, state.table, cfg.scheme)
        allowed: list[tuple[Card, ...]]
        if cfg.forced_capture and count:
            by: Literal["inclusion", "count"] = "count" if cfg.misar and cfg.maxcount else "inclusion"
            best = maximal_captures(played, state.table, cfg.scheme, by=by)
            allowed = [c for c, _ in best]
            if limit is not None:
                others = [option for option in options if option[0] not in allowed]
                options = (best + others)[:limit]
        else:
            allowed = [c for c, _ in options]
        return {
            "card": str(played),
            "trail_allowed": not (cfg.forced_capture and count),
            "count": count,
            "captures": [{"capture": [str(c) for c in cards], "grouping": g.to_json(),
                          "tabbe": len(cards) == len(state.table), "allowed": cards in allowed}
                         for cards, g in options],
        }

    def to_json(self, state: KasinoState) -> JSON:
        s = state
        data = common_json(s.scores, s.over, s.winner, s.to_act)
        playing = s.phase == "play"
        hands: list[int | None] = [None] * len(s.players)
        if playing:
            for p in s.active:
                hands[p] = _hand_count(s, p)
        seen = s.seen if playing else frozenset()
        side_piles = _side_facts(s)
        data.update(
            game="kasino",
            mode=s.mode,
            variant=s.cfg.variant,
            misar=s.cfg.misar,
            drag=s.cfg.drag,
            phase=s.phase,
            sides=[list(t) for t in s.sides.teams],
            deal=s.deal_no,
            dealer=s.dealer,
            forehand=s.forehand if playing else None,
            next_dealer=_upcoming_dealer(s),
            round=(s.round if playing and not s.cfg.drag else None),
            rounds_total=(s.rounds_total if not s.cfg.drag and s.mode == "adjudicate" else None),
            is_last_round=s.is_last_round,
            table=[str(c) for c in s.table],
            hands=hands,
            known_hands=[[str(c) for c in _known_hand(s, p)] for p in range(len(s.players))] if s.cfg.drag else None,
            stock=s.stock if (s.cfg.drag and playing) else None,
            unseen={str(c): (0 if c in seen else 1) for c in PACK},
            unseen_count=PACK_SIZE - len(seen) if playing else PACK_SIZE,
            piles=[f.to_json() for f in side_piles] if playing else None,
            player_piles=([s.piles[p].facts().to_json() for p in range(len(s.players))]
                          if playing and s.cfg.pairs else None),
            last_capture=s.last_capturer if playing else None,
            last_move=s.turns[-1].to_json() if s.turns else None,
            plays=len(s.turns) if playing else 0,
            summary=s.summary.to_json() if s.summary else None,
            history=[row.to_json() for row in s.history],
            active=list(s.active),
            eliminated=list(s.eliminated),
            proposals=[p.to_json() for p in s.pending],
            proposals_all=[p.to_json() for p in s.proposals],
            sweep_values=([{"value": v, "name": _sweep_name(v)} for v in _sweeps(s)]
                          if s.cfg.misar and playing else None),
            claimable=([_claimable(s, side) for side in range(s.sides.count)]
                       if s.cfg.claim and playing else None),
            announce=list(s.announce),
            dealer_draw=({"cards": [str(c) if c else None for c in s.draw.cards], "tied": list(s.draw.tied),
                          "dealer": s.draw.dealer} if s.draw else None),
            end={"rule": s.end_rule, "reason": s.end_reason} if s.over else None,
            scored=[x.to_json() for x in s.scored],
        )
        return data

    def describe(self, event: Mapping[str, Any], players: Sequence[str]) -> Msg:
        kind = event.get("type")

        def name(key: str = "player") -> str:
            value = event.get(key)
            return players[value] if isinstance(value, int) and 0 <= value < len(players) else "?"

        def cards(value: Any) -> str | Join:
            try:
                return _cards(parse_cards(value)) if value else ""
            except ValueError:
                return str(value)

        if kind == "deal":
            table = cards(event.get("table"))
            if event.get("dealer") is not None:
                return M("%(dealer)s deals; table %(table)s", dealer=name("dealer"), table=table)
            return M("New deal; table %(table)s", table=table)
        if kind == "play":
            taken = cards(event.get("capture"))
            played = cards([event.get("card")])
            draws = bool(event.get("draw"))
            if taken:
                return (M("%(player)s plays %(card)s and takes %(taken)s and draws", player=name(), card=played,
                          taken=taken) if draws else
                        M("%(player)s plays %(card)s and takes %(taken)s", player=name(), card=played, taken=taken))
            return (M("%(player)s plays %(card)s (trail) and draws", player=name(), card=played) if draws else
                    M("%(player)s plays %(card)s (trail)", player=name(), card=played))
        if kind == "confirm":
            return M("Penalty proposal %(id)s confirmed", id=str(event.get("proposal")))
        if kind == "dismiss":
            return M("Penalty proposal %(id)s dismissed", id=str(event.get("proposal")))
        if kind == "claim":
            return M("%(player)s claims %(target)s", player=name(), target=TARGET)
        if kind == "misdeal":
            return M("Misdeal: the same dealer deals again")
        if kind == "deal_result":
            return M("Deal result entered")
        if kind == "penalty":
            return M("%(player)s +%(points)s penalty", player=name(), points=PENALTY)
        if kind == "draw_dealer":
            return M("Draw for the first dealer")
        return Msg("%(text)s", {"text": super().describe(event, players)})


_Handler = Callable[[Kasino, KasinoState, Mapping[str, Any]], KasinoState]
_ADJUDICATE: dict[str, _Handler] = {
    "draw_dealer": Kasino._draw_dealer,
    "deal": Kasino._deal,
    "play": Kasino._play,
    "confirm": Kasino._resolve,
    "dismiss": Kasino._resolve,
    "claim": Kasino._claim,
    "misdeal": Kasino._misdeal,
}
_TALLY: dict[str, _Handler] = {
    "draw_dealer": Kasino._draw_dealer,
    "deal_result": Kasino._deal_result,
    "penalty": Kasino._penalty,
    "claim": Kasino._claim,
}


# --- Options ------------------------------------------------------------------------------------


def _settings(opts: Mapping[str, Any], players: int, raw: Mapping[str, Any]) -> Settings:
    variant = opts["variant"]
    drag = variant == "drag"
    misar = variant == "misar" or (drag and opts["drag_misar"])
    if opts["drag_misar"] and not drag:
        raise SetupError("KASINO-OPT-DRAG-MISAR", M("drag_misar plays misär in the draw form: it needs variant 'drag'"))
    if opts["fixed"] and opts["handtable"]:
        raise SetupError("KASINO-VAR-HANDTABLE", M("choose one value scheme: fixed or handtable, not both"))
    teams = raw.get("teams") if isinstance(raw, Mapping) else None
    pairs = bool(opts["pairs"]) or bool(teams)
    if pairs:
        if players != 4:
            raise SetupError("KASINO-VAR-PAIRS", M("partnerships need four players, not %(n)s", n=players))
        if teams and sorted(sorted(t) for t in opts["teams"] or []) != [[0, 2], [1, 3]]:
            raise SetupError("KASINO-VAR-PAIRS", M("partners sit opposite each other: teams [[0, 2], [1, 3]]"))
        if misar:
            raise SetupError("KASINO-AMB-10", M("Kasino misär is played by individuals, not partnerships"))
    if opts["pairs_individual"] and not pairs:
        raise SetupError("KASINO-OPT-PAIRS-INDIVIDUAL", M("pairs_individual needs partnerships (pairs)"))
    if opts["claim"] and misar:
        raise SetupError("KASINO-OPT-CLAIM", M("the claim belongs to the game to 16, not to misär"))
    for key, rule in (("claim_tabbe", "KASINO-OPT-CLAIM-TABBE"), ("auto_claim", "KASINO-AMB-13")):
        if opts[key] and not opts["claim"]:
            raise SetupError(rule, M("%(key)s needs the option claim", key=key))
    for key, rule in (("misar_maxcount", "KASINO-OPT-MISAR-MAXCOUNT"), ("misar_strict", "KASINO-OPT-MISAR-STRICT"),
                      ("misar_penalty_b", "KASINO-OPT-MISAR-PENALTY-B")):
        if opts[key] and not misar:
            raise SetupError(rule, M("%(key)s is a misär rule", key=key))
    scheme = kasino_scheme("fixed" if opts["fixed"] else "handtable" if opts["handtable"] else "standard")
    return Settings(
        variant=variant, misar=misar, drag=drag, scheme=scheme, must_capture=opts["must_capture"],
        sistan=opts["sistan"], pairs=pairs, pairs_individual=opts["pairs_individual"], claim=opts["claim"],
        claim_tabbe=opts["claim_tabbe"], auto_claim=opts["auto_claim"], no_last_tabbe=opts["no_last_tabbe"],
        maxcount=opts["misar_maxcount"], strict=opts["misar_strict"], penalty_b=opts["misar_penalty_b"],
        single_deal=opts["single_deal"], ace_low=opts["draw_ace_low"],
    )


# --- Capture duties (misär and must_capture) ------------------------------------------------------


def _capture_duty(cfg: Settings, card: Card, table: tuple[Card, ...],
                  taken: tuple[Card, ...]) -> tuple[str, Msg, dict[str, Any]] | None:
    """A breach of KASINO-MIS-2 (or the option rules built on it), or None."""
    if not taken:
        if not can_capture(card, table, cfg.scheme):
            return None
        best = maximal_captures(card, table, cfg.scheme)
        return (cfg.capture_rule, M("%(card)s can capture, so it must: it may take %(options)s", card=card,
                                    options=Join(tuple(_cards(c) for c, _ in best), "or")),
                {"played": str(card), "must_take_one_of": [[str(x) for x in c] for c, _ in best]})
    mine = Counter(taken)
    best = maximal_captures(card, table, cfg.scheme)
    if not any(Counter(c) == mine for c, _ in best):
        bigger = [c for c, _ in best if not (mine - Counter(c))]
        return (cfg.capture_rule, M("%(card)s must take as much as it can: %(taken)s leaves cards it could also "
                                    "take; take %(options)s", card=card, taken=_cards(taken), options=Join(
                                        tuple(_cards(c) for c in (bigger or [c for c, _ in best])), "or")),
                {"played": str(card), "taken": [str(c) for c in taken],
                 "must_take_one_of": [[str(x) for x in c] for c in (bigger or [c for c, _ in best])]})
    if cfg.misar and cfg.maxcount:
        most = maximal_captures(card, table, cfg.scheme, by="count")
        if not any(Counter(c) == mine for c, _ in most):
            return ("KASINO-OPT-MISAR-MAXCOUNT", M("%(card)s must take the most cards it can (%(n)s): take "
                                                   "%(options)s", card=card, n=len(most[0][0]),
                                                   options=Join(tuple(_cards(c) for c, _ in most), "or")),
                    {"played": str(card), "taken": [str(c) for c in taken],
                     "must_take_one_of": [[str(x) for x in c] for c, _ in most]})
    return None


# --- Hidden hands: the forced tabbe (KASINO-MIS-1) ----------------------------------------------


def _known_hand(s: KasinoState, player: int) -> tuple[Card, ...]:
    """Dragkasino: cards this player was seen to draw and has not played yet."""
    if not s.cfg.drag:
        return ()
    played = {t.card for t in s.turns if t.player == player}
    return tuple(t.drew for t in s.turns if t.player == player and t.drew is not None and t.drew not in played)


def _was_in_hand(s: KasinoState, mine: Sequence[Turn], at: Turn, card: Card, played_at: Turn) -> bool:
    """Whether ``card`` (played at ``played_at``) was certainly in the player's hand at ``at``.

    The hand at turn t is the cards the player plays from t on, minus the cards received after t
    (rules README §4): in Kasino new cards come only with the next round, in Dragkasino with each
    draw, which the table may or may not have entered.
    """
    if not s.cfg.drag:
        return at.round == played_at.round
    drawn_at = next((t.number for t in mine if t.drew == card), None)
    if drawn_at is not None:
        return drawn_at < at.number
    return not any(t.drew_unknown for t in mine if at.number <= t.number < played_at.number)


def _missed_tabbes(s: KasinoState, turn: Turn) -> list[tuple[Turn, Card]]:
    """Turns of this player that the new evidence shows broke KASINO-MIS-1, each with a card that could sweep."""
    mine = [t for t in s.turns if t.player == turn.player] + [turn]
    flagged = {p.turn for p in s.proposals
               if p.deal == s.deal_no and p.breach == "KASINO-MIS-1" and p.status != "void"}
    found: list[tuple[Turn, Card]] = []
    for at in mine:
        if at.number in flagged or not at.table_before or at.tabbe or at.could_sweep:
            continue
        if at is turn:
            candidates = [c for c in _known_hand(s, turn.player) if c != turn.card]
        elif _was_in_hand(s, mine, at, turn.card, turn):
            candidates = [turn.card]
        else:
            candidates = []
        sweeper = next((c for c in candidates if can_sweep(c, at.table_before, s.cfg.scheme)), None)
        if sweeper is not None:
            found.append((at, sweeper))
    return found


def _tabbe_evidence(s: KasinoState, at: Turn, sweeper: Card, seen_at: Turn) -> dict[str, Any]:
    grouping = find_grouping(sweeper, at.table_before, s.cfg.scheme)
    return {
        "turn": at.number + 1,
        "round": at.round or None,
        "table": [str(c) for c in at.table_before],
        "played": str(at.card),
        "taken": [str(c) for c in at.taken],
        "could_sweep_with": str(sweeper),
        "sweep": grouping.to_json() if grouping else None,
        "evidence_at_turn": seen_at.number + 1,
    }


# --- Scoring ------------------------------------------------------------------------------------


def score_deal(deal: int, player_facts: Sequence[Facts | None], sides: Sides, cfg: Settings) -> Summary:
    """KASINO-SCORE-1..3 for one deal. ``player_facts`` has one entry per player (None = knocked out)."""
    n = sides.count
    side_facts: list[Facts | None] = []
    for team in sides.teams:
        pooled: Facts | None = None
        for p in team:
            f = player_facts[p]
            if f is not None:
                pooled = f if pooled is None else pooled + f
        side_facts.append(pooled)
    individual = cfg.pairs and cfg.pairs_individual
    cats: list[Category] = []
    for what, rule, worth, key in (("most_cards", "KASINO-SCORE-1", 1, "cards"),
                                    ("most_spades", "KASINO-SCORE-1", 2, "spades")):
        if individual:
            units = [(sides.side_of(p), getattr(f, key)) for p, f in enumerate(player_facts) if f is not None]
            owners = [p for p, f in enumerate(player_facts) if f is not None]
        else:
            units = [(i, getattr(f, key)) for i, f in enumerate(side_facts) if f is not None]
            owners = [i for i, f in enumerate(side_facts) if f is not None]
        top = max(v for _, v in units)
        leaders = [owners[i] for i, (_, v) in enumerate(units) if v == top]
        row = [0] * n
        if len(leaders) == 1:
            side = units[owners.index(leaders[0])][0]
            row[side] = worth
            cats.append(Category(what, rule, tuple(row), winner=side))
        else:
            cats.append(Category(what, rule, tuple(row), tied=tuple(leaders), lost=worth))
    facts = [f or Facts() for f in side_facts]
    cats.append(Category("storan", "KASINO-COMP-4", tuple(2 * f.storan for f in facts),
                         winner=next((i for i, f in enumerate(facts) if f.storan), None)))
    cats.append(Category("lillan", "KASINO-COMP-4", tuple(int(f.lillan) for f in facts),
                         winner=next((i for i, f in enumerate(facts) if f.lillan), None)))
    cats.append(Category("aces", "KASINO-COMP-4", tuple(f.aces for f in facts)))
    cats.append(Category("tabbes", "KASINO-TURN-5", tuple(f.tabbes for f in facts)))
    if cfg.sistan:
        cats.append(Category("sistan", "KASINO-OPT-SISTAN", tuple(int(f.sistan) for f in facts),
                             winner=next((i for i, f in enumerate(facts) if f.sistan), None)))
    points = tuple(sum(c.points[i] for c in cats) for i in range(n))
    return Summary(deal, tuple(side_facts), tuple(cats), points)


def _close_deal(s: KasinoState, summary: Summary, dealer: int | None) -> KasinoState:
    """Score a finished deal; knock-outs and the end of the game wait for pending penalties."""
    scores = tuple(a + b for a, b in zip(s.scores, summary.points, strict=True))
    scored = tuple(Scored(side, c.points[side], c.what, c.rule, _category_detail(c, summary, side))
                   for c in summary.categories for side in range(s.sides.count) if c.points[side])
    spades = tuple(f.spades if f else 0 for f in summary.facts)
    row = DealRow(summary.deal, dealer, summary.points, s.open_penalties, scores, spades)
    state = replace(s, scores=scores, summary=summary, history=s.history + (row,), scored=scored,
                    open_penalties=(0,) * s.sides.count, turns=s.turns)
    if any(p.deal == summary.deal for p in state.pending):
        return replace(state, phase="settling", announce=(M("deal over: resolve the proposed penalties"),))
    return _settle(state, summary)


def _settle(s: KasinoState, summary: Summary) -> KasinoState:
    """After a deal: the end of the game (KASINO-END-2/3) or the misär knock-outs (KASINO-MIS-6..9)."""
    spades = [f.spades if f else 0 for f in summary.facts]
    if s.cfg.misar:
        if s.cfg.single_deal:
            return _finish(s, _lowest(s.active, s.scores, spades), "KASINO-MIS-6",
                           M("single misär deal: fewest points win"))
        out = tuple(p for p in s.active if s.scores[p] >= KNOCKOUT)
        remaining = tuple(p for p in s.active if p not in out)
        history = s.history
        if history and out:
            history = history[:-1] + (replace(history[-1], knocked_out=out),)
        s = replace(s, active=remaining or s.active, eliminated=s.eliminated + out, history=history)
        if len(remaining) == 1:
            return _finish(s, remaining[0], "KASINO-MIS-7", M("%(player)s is the last player left",
                                                              player=s.players[remaining[0]]))
        if not remaining:
            return _finish(replace(s, active=()), _lowest(out, s.scores, spades), "KASINO-MIS-9",
                           M("everyone left was knocked out in the same deal: fewest points win"))
        note = (M("%(players)s knocked out", players=", ".join(s.players[p] for p in out)),) if out else ()
        return replace(s, phase="between", announce=s.announce + note)
    if s.cfg.single_deal:
        return _finish(s, _highest(range(s.sides.count), s.scores, spades), "KASINO-END-1", M("single deal played"))
    if any(score >= TARGET for score in s.scores):
        return _finish(s, _highest(range(s.sides.count), s.scores, spades), "KASINO-END-3",
                       M("a side reached %(target)s", target=TARGET))
    return replace(s, phase="between")


def _highest(sides: Sequence[int] | range, scores: Sequence[int], spades: Sequence[int]) -> int | list[int]:
    """KASINO-END-3: most points, then most spades in the last deal, then a shared win."""
    top = max(scores[i] for i in sides)
    tied = [i for i in sides if scores[i] == top]
    most = max(spades[i] for i in tied)
    tied = [i for i in tied if spades[i] == most]
    return tied[0] if len(tied) == 1 else tied


def _lowest(players: Sequence[int], scores: Sequence[int], spades: Sequence[int]) -> int | list[int]:
    """KASINO-MIS-6/9: fewest points, then fewest spades in the deal, then a shared win."""
    low = min(scores[p] for p in players)
    tied = [p for p in players if scores[p] == low]
    few = min(spades[p] for p in tied)
    tied = [p for p in tied if spades[p] == few]
    return tied[0] if len(tied) == 1 else tied


def _over_rule(s: KasinoState) -> str:
    return "KASINO-MIS-7" if s.cfg.misar else "KASINO-END-2"


def _finish(s: KasinoState, winner: int | list[int], rule: str, reason: str) -> KasinoState:
    return replace(s, phase="over", winner=winner, end_rule=rule, end_reason=reason,
                   announce=s.announce + (M("game over"),))


def _claimable(s: KasinoState, side: int) -> int:
    total = s.scores[side]
    for p in s.sides.teams[side]:
        if p < len(s.piles):
            pile = s.piles[p]
            total += pile.facts().settled + (pile.tabbes if s.cfg.claim_tabbe else 0)
    return total


def _claim_win(s: KasinoState, side: int, rule: str, total: int | None = None) -> KasinoState:
    total = _claimable(s, side) if total is None else total
    gained = total - s.scores[side]
    scores = tuple(total if i == side else v for i, v in enumerate(s.scores))
    row = DealRow(s.deal_no if s.mode == "adjudicate" else s.deal_no + 1, s.dealer,
                  tuple(gained if i == side else 0 for i in range(s.sides.count)), s.open_penalties, scores,
                  (0,) * s.sides.count, note="claim")
    state = replace(s, scores=scores, history=s.history + (row,),
                    scored=(Scored(side, gained, "claim", "KASINO-VAR-CLAIM",
                                   M("settled points reach %(total)s", total=total)),))
    return _finish(state, side, rule, M("%(side)s claimed %(target)s with %(total)s settled points",
                                        side=" & ".join(s.players[p] for p in s.sides.teams[side]),
                                        target=TARGET, total=total))


def _add_points(s: KasinoState, side: int, points: int) -> KasinoState:
    return replace(s, scores=_bump(s.scores, side, points))


def _bump(values: tuple[int, ...], index: int, amount: int) -> tuple[int, ...]:
    return tuple(v + amount if i == index else v for i, v in enumerate(values))


def _category_detail(c: Category, summary: Summary, side: int) -> str:
    f = summary.facts[side]
    if f is None:
        return ""
    details = {"most_cards": M("%(n)s cards", n=f.cards), "most_spades": M("%(n)s spades", n=f.spades),
               "storan": Msg("%(card)s", {"card": Card("10", "D")}), "lillan": Msg("%(card)s", {"card": Card("2", "S")}),
               "aces": M("%(n)s ace(s)", n=f.aces), "tabbes": M("%(n)s tabbe(s)", n=f.tabbes),
               "sistan": M("last capture")}
    return details.get(c.what, "")


# --- Tally mode -----------------------------------------------------------------------------------


_FACT_INTS = ("cards", "spades", "aces", "tabbes")
_FACT_BOOLS = ("storan", "lillan", "sistan")


def _parse_facts(raw: Any, where: str) -> Facts:
    if not isinstance(raw, Mapping):
        raise MalformedEvent(M("%(where)s must be an object with cards, spades, storan, lillan, aces, tabbes",
                               where=where), raw)
    values: dict[str, Any] = {}
    for key in _FACT_INTS:
        value = raw.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise MalformedEvent(M("%(where)s: %(key)s must be a whole number of at least 0", where=where,
                                   key=repr(key)), raw)
        values[key] = value
    for key in _FACT_BOOLS:
        value = raw.get(key, False)
        if not isinstance(value, bool):
            raise MalformedEvent(M("%(where)s: %(key)s must be true or false", where=where, key=repr(key)), raw)
        values[key] = value
    unknown = set(raw) - set(_FACT_INTS) - set(_FACT_BOOLS)
    if unknown:
        raise MalformedEvent(M("%(where)s: unknown field(s) %(fields)s", where=where,
                               fields=", ".join(sorted(unknown))), raw)
    return Facts(**values)


def _tally_entries(s: KasinoState, event: Mapping[str, Any]) -> tuple[list[Facts | None], bool]:
    """The piles of one deal, per player (``players``) or per side (``sides``)."""
    by_player = "players" in event
    key = "players" if by_player else "sides"
    raw = event.get(key)
    expected = len(s.players) if by_player else s.sides.count
    if not isinstance(raw, list) or len(raw) != expected:
        raise MalformedEvent(M("%(key)s must list %(n)s piles", key=repr(key), n=expected), event)
    if s.cfg.pairs and s.cfg.pairs_individual and not by_player:
        raise RuleViolation("KASINO-OPT-PAIRS-INDIVIDUAL", M("individual comparison needs each player's pile: "
                                                             "send 'players' instead of 'sides'"))
    entries: list[Facts | None] = []
    for i, item in enumerate(raw):
        player = i if (by_player or not s.cfg.pairs) else None
        if player is not None and player not in s.active:
            if item is not None and _parse_facts(item, f"{key}[{i}]") != Facts():
                raise RuleViolation("KASINO-MIS-7", M("%(player)s is knocked out and holds no pile",
                                                      player=s.players[player]),
                                    player=player)
            entries.append(None)
            continue
        if item is None:
            raise MalformedEvent(M("%(key)s[%(i)s] is missing", key=key, i=i), event)
        entries.append(_parse_facts(item, f"{key}[{i}]"))
    return entries, by_player


def _validate_tally(s: KasinoState, parsed: tuple[list[Facts | None], bool]) -> list[Facts | None]:
    """Consistency of the entered piles (KASINO-SCORE-2, KASINO-COMP-4); the result is per player."""
    entries, by_player = parsed
    piles = [f for f in entries if f is not None]
    for i, f in enumerate(entries):
        if f is None:
            continue
        # The pile is named for whoever holds it: a player, or a partnership's players.
        who = s.players[i] if by_player or not s.cfg.pairs else " & ".join(s.players[p] for p in s.sides.teams[i])
        if f.spades > f.cards or f.cards > PACK_SIZE:
            raise RuleViolation("KASINO-SCORE-2", M("the pile of %(who)s has %(spades)s spades in %(cards)s cards", who=who,
                                                    spades=f.spades, cards=f.cards), pile=i)
        if f.lillan and f.spades < 1:
            raise RuleViolation("KASINO-SCORE-2", M("the pile of %(who)s holds lillan, which is a spade, but no spades", who=who),
                                pile=i)
        if f.aces > 4 or f.cards < f.spades + f.storan + max(0, f.aces - 1):
            raise RuleViolation("KASINO-SCORE-2", M("the pile of %(who)s cannot hold %(spades)s spades, %(aces)s aces and "
                                                    "storan in %(cards)s cards", who=who, spades=f.spades, aces=f.aces,
                                                    cards=f.cards) if f.storan else
                                M("the pile of %(who)s cannot hold %(spades)s spades, %(aces)s aces in %(cards)s cards", who=who,
                                  spades=f.spades, aces=f.aces, cards=f.cards), pile=i)
        if f.cards < 2 * f.tabbes:
            raise RuleViolation("KASINO-TURN-5", M("the pile of %(who)s: every tabbe takes at least two cards", who=who), pile=i)
        if f.sistan and not s.cfg.sistan:
            raise RuleViolation("KASINO-OPT-SISTAN", M("the last capture scores only with the option sistan"), pile=i)
    total = sum(f.cards for f in piles)
    nobody = total == 0 and all(f == Facts() for f in piles)
    if not nobody:
        if total != PACK_SIZE:
            raise RuleViolation("KASINO-SCORE-2", M("the piles hold %(total)s cards, not %(pack)s", total=total,
                                                    pack=PACK_SIZE), cards=total)
        spades = sum(f.spades for f in piles)
        if spades != 13:
            raise RuleViolation("KASINO-SCORE-2", M("the piles hold %(n)s spades, not 13", n=spades), spades=spades)
        aces = sum(f.aces for f in piles)
        if aces != 4:
            raise RuleViolation("KASINO-COMP-4", M("the piles hold %(n)s aces, not 4", n=aces), aces=aces)
        for what in ("storan", "lillan"):
            holders = sum(1 for f in piles if getattr(f, what))
            if holders != 1:
                raise RuleViolation("KASINO-COMP-4", M("%(what)s lies in exactly one pile, not %(n)s", what=what,
                                                       n=holders), what=what)
        if s.cfg.sistan and sum(1 for f in piles if f.sistan) != 1:
            raise RuleViolation("KASINO-OPT-SISTAN", M("exactly one pile made the last capture"))
    if by_player or not s.cfg.pairs:
        return entries
    # Pooled team piles: the first player of each team stands for the team.
    per_player: list[Facts | None] = [Facts() for _ in s.players]
    for side, team in enumerate(s.sides.teams):
        per_player[team[0]] = entries[side]
    return per_player


def _tally_claim_facts(event: Mapping[str, Any]) -> Facts:
    raw = {k: event[k] for k in ("storan", "lillan", "aces", "tabbes") if k in event}
    return _parse_facts(raw, "claim")


# --- Small helpers -------------------------------------------------------------------------------


def _no_repeats(cards: Sequence[Card], where: Msg) -> None:
    repeated = [c for c, k in Counter(cards).items() if k > 1]
    if repeated:
        raise RuleViolation("KASINO-COMP-1", M("%(card)s appears twice %(where)s; the pack has one of each card",
                                               card=repeated[0], where=where), card=str(repeated[0]))


def _cards(cards: Sequence[Card]) -> Join:
    return Join(tuple(cards))


def _next_proposal_id(s: KasinoState) -> int:
    return max((p.id for p in s.proposals), default=0) + 1


def _sweeps(s: KasinoState) -> list[int]:
    """KASINO-MIS-4: the values that would take the whole table, limited to values a card can be played as."""
    playable = {v for c in PACK for v in s.cfg.scheme.played_values(c)}
    return sorted(v for v in sweep_values(s.table, s.cfg.scheme) if v in playable)


def _sweep_name(value: int) -> str:
    return SWEEP_NAMES.get(value, str(value))


def _hand_count(s: KasinoState, player: int) -> int:
    played = sum(1 for t in s.turns if t.player == player)
    if s.cfg.drag:
        total = PLAYS_PER_DEAL // s.n_active
        return min(HAND_SIZE, total - played)
    return HAND_SIZE - (played - (s.round - 1) * HAND_SIZE)


def _side_facts(s: KasinoState) -> list[Facts]:
    out: list[Facts] = []
    for team in s.sides.teams:
        total = Facts()
        for p in team:
            if p < len(s.piles):
                total = total + s.piles[p].facts()
        out.append(total)
    return out


def _upcoming_dealer(s: KasinoState) -> int | None:
    if s.phase == "over":
        return None
    if s.dealer is None:
        return s.draw.dealer if s.draw is not None else None
    if s.phase == "play":
        return _next_active(s.active, s.dealer, len(s.players))
    return s.dealer if s.redeal else _next_active(s.active, s.dealer, len(s.players))
