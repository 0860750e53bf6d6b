"""Kasino's state: the constants of the game, the options, piles and scoring facts, turns, the
score sheet and ``KasinoState``, with the small helpers every phase reads."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from scorekeeper.cards import Card, french_pack
from scorekeeper.engine.base import (
    JSON,
    Mode,
    RuleViolation,
    Scored,
    SetupError,
    Sides,
)
from scorekeeper.engine.capture import (
    Grouping,
    ValueScheme,
    card_sort_key,
    kasino_scheme,
    sweep_values,
)
from scorekeeper.engine.core import Proposal
from scorekeeper.engine.messages import Join, M, Msg

STORAN = Card("10", "D")
LILLAN = Card("2", "S")
STORAN_POINTS = 2  # KASINO-COMP-4, as lillan's 1 and every ace's 1
LILLAN_POINTS = 1
ACE_POINTS = 1
TABBE_POINTS = 1  # KASINO-TURN-5
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


# --- Small helpers -------------------------------------------------------------------------------


def _proposal(pid: int, deal: int, player: int, breach: str, rule: str, turn: int, message: str,
              evidence: Mapping[str, Any]) -> Proposal:
    """A misär penalty of ``PENALTY`` points the engine found evidence for: ``breach`` is the rule
    broken (KASINO-MIS-1 or KASINO-MIS-2), ``rule`` the one that sets the penalty, ``turn`` the
    0-based play of the breach (shown 1-based)."""
    return Proposal(pid, player, "misär", rule, message, deal=deal, evidence=dict(evidence),
                    data={"breach": breach, "points": PENALTY, "turn": turn + 1})


def _turn_of(p: Proposal) -> int:
    """The 0-based play of a proposal's breach."""
    return int(p.data["turn"]) - 1


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
    playable = _playable(s.cfg.scheme)
    return sorted(v for v in sweep_values(s.table, s.cfg.scheme) if v in playable)


@lru_cache(maxsize=8)
def _playable(scheme: ValueScheme) -> frozenset[int]:
    """The values some card of the pack can be played as (asked after every play of a misar game)."""
    return frozenset(v for c in PACK for v in scheme.played_values(c))


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
