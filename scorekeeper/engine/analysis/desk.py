"""The dispute desk beyond single tricks: the Mousel pot, the Mulatschak sheet line, Muggins
placements and the Kasino misär capture duties — each answer worked out line by line with the
rule that sets it, from the games' own pure functions (``split_pot``, ``deal_changes``,
``correct_places``, ``maximal_captures``), so the desk and the tables never disagree.

Every result is data: ``lines`` of ``(what, rule, facts)`` that the web layer renders in the
reader's language; ``describe()`` gives the English sentence for logs and tests.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.cards import Card, parse_card
from scorekeeper.engine.analysis.desk_tricks import DeskError
from scorekeeper.engine.base import MalformedEvent
from scorekeeper.engine.capture import (
    Grouping,
    ValueScheme,
    can_capture,
    can_sweep,
    find_grouping,
    maximal_captures,
)
from scorekeeper.engine.messages import M
from scorekeeper.engine.mousel import split_pot
from scorekeeper.engine.muggins import Hand, MugginsOptions, Place, correct_places, fits
from scorekeeper.engine.mulatschak import Opts as MulOpts
from scorekeeper.engine.mulatschak import deal_changes, doubling_causes

__all__ = [
    "CaptureVerdict", "Line", "MisarVerdict", "PlacementVerdict", "Worked", "capture_scheme", "judge_capture",
    "misar_duty", "mousel_pot", "muggins_placements", "mulatschak_sheet",
]


@dataclass(frozen=True, slots=True)
class Line:
    """One line of worked arithmetic: ``what`` names the sentence, ``facts`` fill it."""

    what: str
    rule: str
    facts: Mapping[str, Any] = field(default_factory=dict)
    player: int | None = None
    amount: int | None = None

    def describe(self) -> str:
        return f"{self.what}: " + ", ".join(f"{k}={v}" for k, v in self.facts.items())

    def to_json(self) -> dict[str, Any]:
        return {"what": self.what, "rule": self.rule, "player": self.player, "amount": self.amount,
                "facts": dict(self.facts)}


@dataclass(frozen=True, slots=True)
class Worked:
    """A worked result: the lines, and the totals they lead to (per seat)."""

    kind: str
    lines: tuple[Line, ...]
    result: Mapping[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "lines": [line.to_json() for line in self.lines], **self.result}


def _int(body: Mapping[str, Any], key: str, low: int, high: int, default: int | None = None) -> int:
    value = body.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise MalformedEvent(M("%(key)s must be a whole number %(low)s…%(high)s, not %(value)s", key=repr(key), low=low, high=high, value=repr(value)))
    return value


def _flag(body: Mapping[str, Any], key: str) -> bool:
    value = body.get(key, False)
    if not isinstance(value, bool):
        raise MalformedEvent(M("%(key)s must be true or false, not %(value)s", key=repr(key), value=repr(value)))
    return value


def _seats(body: Mapping[str, Any], key: str, n: int) -> tuple[int, ...]:
    raw = body.get(key, [])
    if not isinstance(raw, list) or any(isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < n for s in raw):
        raise MalformedEvent(M("%(key)s must be a list of seat numbers 0…%(last)s", key=repr(key), last=n - 1))
    return tuple(sorted(set(raw)))


def _options(body: Mapping[str, Any]) -> Mapping[str, Any]:
    options = body.get("options", {})
    if not isinstance(options, dict):
        raise MalformedEvent(M("'options' must be an object"))
    return options


# --- Mousel: the pot -------------------------------------------------------------------------


def mousel_pot(body: Mapping[str, Any]) -> Worked:
    """``{"pot": P, "taker": s, "tricks": [t0, t1, null, …], "revokers": [...], "options": {...}}``.

    ``tricks`` has one entry per seat at the table (``null`` = folded); N, the hand size, is the
    number of seats (MOUSEL-COMP-3). The split of MOUSEL-POT-1…8 with every line's rule.
    """
    raw = body.get("tricks")
    if not isinstance(raw, list) or not 2 <= len(raw) <= 7:
        raise MalformedEvent(M("'tricks' must list each seat's tricks (null for a player who folded), 2…7 seats"))
    n = len(raw)
    if any(t is not None and (isinstance(t, bool) or not isinstance(t, int) or not 0 <= t <= n) for t in raw):
        raise MalformedEvent(M("each entry of 'tricks' must be null or a number of tricks 0…%(n)s", n=n))
    pot = _int(body, "pot", 0, 1_000_000)
    taker = _int(body, "taker", 0, n - 1)
    revokers = _seats(body, "revokers", n)
    options = _options(body)
    round_largest = _flag(options, "round_largest")
    last_deal = _flag(options, "end_lastdeal") and _flag(body, "last")
    active = tuple(s for s in range(n) if raw[s] is not None)
    tricks = tuple(t or 0 for t in raw)
    if raw[taker] is None:
        raise DeskError("MOUSEL-EXCH-2", M("the taker can never fold: give the taker's tricks"))
    if sum(tricks) != n:
        raise DeskError("MOUSEL-COMP-3", M("%(n)s players hold %(n)s cards each, so the tricks add up to %(n)s, "
                                           "not %(sum)s", n=n, sum=sum(tricks)), tricks=list(tricks))
    if any(s not in active for s in revokers):
        raise DeskError("MOUSEL-POT-6", M("a player who folded played no card and cannot revoke"))
    split = split_pot(pot, n, taker, active, tricks, revokers, round_largest=round_largest,
                      penalties=not last_deal)
    lines: list[Line] = [Line("pot", "MOUSEL-POT-1", {"pot": pot, "n": n})]
    for s in range(n):
        if s not in active:
            lines.append(Line("folded", "MOUSEL-POT-6", {}, s, 0))
            continue
        exact = pot * tricks[s]
        if s in revokers:
            lines.append(Line("revoke_share", "MOUSEL-POT-8", {"tricks": tricks[s]}, s, 0))
        elif exact % n:
            lines.append(Line("share_rounded", "MOUSEL-OPT-ROUND-LARGEST" if round_largest else "MOUSEL-POT-3",
                              {"tricks": tricks[s], "pot": pot, "n": n, "exact": f"{exact}/{n}"}, s,
                              split.shares[s]))
        else:
            lines.append(Line("share", "MOUSEL-POT-1", {"tricks": tricks[s], "pot": pot, "n": n}, s,
                              split.shares[s]))
        due = split.due[s]
        if due:
            rule = "MOUSEL-POT-8" if s in revokers else "MOUSEL-POT-4" if s == taker else "MOUSEL-POT-5"
            what = "penalty_revoke" if s in revokers else "penalty_taker" if s == taker else "penalty_zero"
            lines.append(Line(what, rule, {"tricks": tricks[s], "pot": pot, "times": due // pot if pot else 0},
                              s, due))
    penalties = sum(split.due)
    next_pot = split.leftover + penalties + n
    if split.leftover:
        lines.append(Line("leftover", "MOUSEL-POT-3", {"leftover": split.leftover}, None, split.leftover))
    lines.append(Line("next_pot", "MOUSEL-POT-7", {"leftover": split.leftover, "penalties": penalties, "antes": n},
                      None, next_pot))
    return Worked("pot", tuple(lines), {"shares": list(split.shares), "penalties": list(split.due),
                                         "leftover": split.leftover, "next_pot": next_pot})


# --- Mulatschak: one line of the sheet -------------------------------------------------------


def mulatschak_sheet(body: Mapping[str, Any]) -> Worked:
    """``{"declarer": s, "bid": b, "trump": "H", "tricks": [..], "home": [..], "revokes": [..],
    "collapses": 0, "knocked": false, "breaker": s, "scores": [21, …], "options": {...}}``."""
    raw = body.get("tricks")
    if not isinstance(raw, list) or not 2 <= len(raw) <= 6:
        raise MalformedEvent(M("'tricks' must list each seat's tricks (null for a player who stayed home), 2…6 seats"))
    n = len(raw)
    if any(t is not None and (isinstance(t, bool) or not isinstance(t, int) or not 0 <= t <= 5) for t in raw):
        raise MalformedEvent(M("each entry of 'tricks' must be null (stayed home) or 0…5"))
    declarer = _int(body, "declarer", 0, n - 1)
    bid = _int(body, "bid", 1, 5)
    trump = body.get("trump")
    if not isinstance(trump, str) or trump.upper() not in ("H", "S", "L", "E"):
        raise MalformedEvent(M("'trump' must be H, S, L or E"))
    collapses = _int(body, "collapses", 0, 10, 0)
    knocked = _flag(body, "knocked")
    home = tuple(s for s in range(n) if raw[s] is None)
    revokes = _seats(body, "revokes", n)
    scores_raw = body.get("scores", [21] * n)
    if not isinstance(scores_raw, list) or len(scores_raw) != n or \
            any(isinstance(v, bool) or not isinstance(v, int) for v in scores_raw):
        raise MalformedEvent(M("'scores' must list %(n)s whole numbers (the sheet before this deal)", n=n))
    options = _options(body)
    opts = MulOpts(muli_breaker=_flag(options, "muli_breaker"), stayhome_flat=_flag(options, "stayhome_flat"),
                   stayhome_free=_flag(options, "stayhome_free"), collapse_cap=_flag(options, "collapse_cap"))
    if declarer in home:
        raise DeskError("MULAT-STAY-1", M("the declarer always plays: give the declarer's tricks"))
    tricks = [t or 0 for t in raw]
    if sum(tricks) != 5:
        raise DeskError("MULAT-SCORE-6", M("the five tricks add up to 5 among the players, not %(sum)s",
                                           sum=sum(tricks)), tricks=tricks)
    if any(s in home for s in revokes):
        raise DeskError("MULAT-SCORE-9", M("a player who stayed home played no card and cannot revoke"))
    breaker: int | None = None
    if bid == 5 and tricks[declarer] < 5:
        breaker = body.get("breaker")
        if breaker is None:
            breaker = next(s for s in range(n) if s != declarer and tricks[s])
        if isinstance(breaker, bool) or not isinstance(breaker, int) or not 0 <= breaker < n or not tricks[breaker]:
            # Only the seat that won the trick the Muli lost broke it; the document cannot tie that to 'tricks'.
            raise DeskError("MULAT-OPT-MULI-BREAKER",
                            M("'breaker' must be a seat that won a trick (the first trick the Muli lost)"))
    counted = min(collapses, 1) if opts.collapse_cap else collapses
    causes = doubling_causes(trump.upper(), counted, knocked)
    m = 1 << len(causes)
    changes = deal_changes(opts, n, declarer, bid, home, tricks, m, revokes, breaker)
    lines: list[Line] = [Line("multiplier", "MULAT-SCORE-2", {"causes": ", ".join(causes) or "—", "m": m})]
    totals: list[int] = []
    for s, (change, what, rule) in enumerate(changes):
        total = scores_raw[s] + change
        totals.append(total)
        lines.append(Line("sheet", rule, {"why": what, "tricks": raw[s], "before": scores_raw[s], "after": total,
                                          "m": m}, s, change))
    low = min(totals)
    winners = [s for s, t in enumerate(totals) if t == low] if low <= 0 else []
    if winners:
        lines.append(Line("game_over", "MULAT-END-1", {"winners": ", ".join(map(str, winners))}))
    return Worked("sheet", tuple(lines), {"multiplier": m, "causes": list(causes),
                                           "changes": [c for c, _, _ in changes], "totals": totals,
                                           "winners": winners})


# --- Muggins: where may this card go? --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlacementVerdict:
    place: Place
    top: Card | None
    correct: bool                    # muggins-proof: a place MUGGINS-PLAY-2 allows
    rule: str
    cost: int                        # penalty cards if placed here (0 when correct)

    def to_json(self) -> dict[str, Any]:
        return {"to": self.place.to_json(), "top": None if self.top is None else str(self.top),
                "correct": self.correct, "muggins_proof": self.correct, "rule": self.rule, "cost": self.cost}


def muggins_placements(body: Mapping[str, Any]) -> Worked:
    """``{"card": "6H", "player": 0, "muggins": ["5C", "QD"], "discards": [null, "7S", "2D"],
    "cards": [12, 10, 9], "options": {...}}`` — every place the turned card physically fits
    (MUGGINS-FIT-1), the muggins-proof ones (MUGGINS-PLAY-2), and what a muggins costs."""
    card = parse_card(_text(body, "card"), "french")
    tops_raw = body.get("discards")
    if not isinstance(tops_raw, list) or not 3 <= len(tops_raw) <= 7:
        raise MalformedEvent(M("'discards' must list each seat's discard top (null for none), 3…7 seats"))
    n = len(tops_raw)
    mover = _int(body, "player", 0, n - 1, 0)
    piles_raw = body.get("muggins")
    if not isinstance(piles_raw, list) or not 1 <= len(piles_raw) <= 4:
        raise MalformedEvent(M("'muggins' must list the 1…4 muggins pile tops"))
    muggins = [parse_card(_text({"c": c}, "c"), "french") for c in piles_raw]
    tops = [None if t is None else parse_card(_text({"c": t}, "c"), "french") for t in tops_raw]
    counts_raw = body.get("cards", [1] * n)
    if not isinstance(counts_raw, list) or len(counts_raw) != n or \
            any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in counts_raw):
        raise MalformedEvent(M("'cards' must list %(n)s card counts (cards each player still holds)", n=n))
    seen = [card, *muggins, *(t for t in tops if t is not None)]
    twice = [c for c, k in Counter(seen).items() if k > 1]
    if twice:
        raise DeskError("MUGGINS-COMP-1", M("%(card)s appears twice; the pack holds one", card=twice[0]),
                        card=str(twice[0]))
    # Checked before the hands are built from the counts: a count is a hand's size.
    if sum(counts_raw) + len(seen) > 52:
        raise DeskError("MUGGINS-COMP-1", M("%(n)s cards in the hands and face up; the pack holds 52",
                                            n=sum(counts_raw) + len(seen)))
    options = _options(body)
    opts = MugginsOptions(neighbour_only=_flag(options, "neighbour_only"), any_opponent=_flag(options, "any_opponent"))
    hands = [Hand(draw=(None,) * max(counts_raw[s] - (1 if tops[s] else 0), 0),
                  discard=tuple(c for c in (tops[s],) if c is not None)) for s in range(n)]
    correct = correct_places([(c,) for c in muggins], hands, mover, card, opts)
    fitting = [Place("muggins", i) for i, top in enumerate(muggins) if fits(card, top)]
    fitting += [Place("discard", (mover + k) % n) for k in range(1, n)
                if (top := tops[(mover + k) % n]) is not None and fits(card, top)]
    fitting.append(Place("own", mover))
    cost = sum(1 for s in range(n) if s != mover and counts_raw[s] > 0)
    verdicts: list[PlacementVerdict] = []
    for place in fitting:
        top = muggins[place.index] if place.kind == "muggins" else tops[place.index] if place.kind == "discard" \
            else tops[mover]
        ok = place in correct
        verdicts.append(PlacementVerdict(place, top, ok, "MUGGINS-PLAY-2" if ok else "MUGGINS-PEN-1",
                                         0 if ok else cost))
    first = correct[0]
    step = "muggins" if first.kind == "muggins" else "left" if first.kind == "discard" else "own"
    lines = [Line(f"priority_{step}", "MUGGINS-PLAY-2", {"card": str(card)}),
             Line("cost", "MUGGINS-PEN-2", {"cards": cost}, mover, cost),
             Line("moved", "MUGGINS-PEN-3", {})]
    return Worked("placement", tuple(lines), {"card": str(card), "placements": [v.to_json() for v in verdicts],
                                               "cost": cost})


def _text(body: Mapping[str, Any], key: str) -> str:
    value = body.get(key)
    if not isinstance(value, str):
        raise MalformedEvent(M("%(key)s must be a card such as '7H', not %(value)s", key=repr(key), value=repr(value)))
    return value


# --- Kasino misär: the duties to sweep and to capture ----------------------------------------


@dataclass(frozen=True, slots=True)
class MisarVerdict:
    legal: bool
    rule: str
    what: str                                    # sweep_owed | trail_breaks | too_small | ok | trail_ok
    must_take: tuple[tuple[Card, ...], ...] = ()  # the captures that would keep the duty
    sweeper: Card | None = None                   # the card that could have swept (MIS-1)

    def to_json(self) -> dict[str, Any]:
        return {"legal": self.legal, "rule": self.rule, "what": self.what,
                "must_take": [[str(c) for c in cap] for cap in self.must_take],
                "sweeper": None if self.sweeper is None else str(self.sweeper)}


def misar_duty(played: Card, taken: Sequence[Card], table: Sequence[Card], scheme: ValueScheme,
               hand: Sequence[Card] = (), maxcount: bool = False) -> list[MisarVerdict]:
    """The misär verdicts on a play: KASINO-MIS-1 (a card known to be held, ``played`` or one of
    ``hand``, sweeps the table, so a tabbe was owed) and KASINO-MIS-2 (the card played can
    capture, so it must take an inclusion-maximal set; with ``maxcount`` the most cards)."""
    out: list[MisarVerdict] = []
    sweep = bool(taken) and len(taken) == len(table)
    if table and not sweep:
        sweeper = next((c for c in (played, *hand) if can_sweep(c, table, scheme)), None)
        if sweeper is not None:
            out.append(MisarVerdict(False, "KASINO-MIS-1", "sweep_owed", (tuple(table),), sweeper))
    if not taken:
        if can_capture(played, table, scheme):
            owed = tuple(c for c, _ in maximal_captures(played, table, scheme))
            out.append(MisarVerdict(False, "KASINO-MIS-2", "trail_breaks", owed))
        else:
            out.append(MisarVerdict(True, "KASINO-MIS-3", "trail_ok"))
        return out
    if find_grouping(played, taken, scheme) is None:
        return out  # not a capture at all: the plain capture rules answer it
    best = [c for c, _ in maximal_captures(played, table, scheme)]
    mine = Counter(taken)
    if not any(Counter(c) == mine for c in best):
        bigger = tuple(c for c in best if not (mine - Counter(c)))
        out.append(MisarVerdict(False, "KASINO-MIS-2", "too_small", bigger or tuple(best)))
        return out
    if maxcount:
        most = [c for c, _ in maximal_captures(played, table, scheme, by="count")]
        if not any(Counter(c) == mine for c in most):
            out.append(MisarVerdict(False, "KASINO-OPT-MISAR-MAXCOUNT", "too_small", tuple(most)))
            return out
    out.append(MisarVerdict(True, "KASINO-MIS-2", "ok"))
    return out


# --- Mulle and Kasino: one capture judged ------------------------------------------------------

CAPTURES_LISTED = 60
MISAR_WHY = {"sweep_owed": M("in misär a card that can take the whole table must make the tabbe"),
             "trail_breaks": M("in misär a card that can capture may not trail"),
             "too_small": M("in misär the capture must take as much as the card can")}


@dataclass(frozen=True, slots=True)
class CaptureVerdict:
    game: str
    table: tuple[Card, ...]
    played: Card
    taken: tuple[Card, ...]
    legal: bool
    rule: str
    why: str                                   # the grouping, or why no grouping exists (English)
    grouping: Grouping | None = None
    sweep: bool = False
    mulle: bool = False
    captures: tuple[tuple[tuple[Card, ...], Grouping], ...] = ()
    total: int = 0
    duties: tuple[MisarVerdict, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "legal": self.legal, "rule": self.rule, "why": self.why,
                "grouping": None if self.grouping is None else self.grouping.to_json(),
                "sweep": self.sweep, "mulle": self.mulle, "total": self.total,
                "captures": [{"capture": [str(c) for c in cards], "grouping": g.to_json()}
                             for cards, g in self.captures],
                "duties": [d.to_json() for d in self.duties]}


def capture_scheme(game: str, options: Mapping[str, Any]) -> tuple[ValueScheme, bool, bool]:
    """The value scheme, whether misär duties apply, and misär's max-count rule, from a table's options."""
    from scorekeeper.engine.capture import kasino_scheme, mulle_scheme

    if game == "mulle":
        return mulle_scheme(_flag(options, "strict_value")), False, False
    variant = options.get("variant", "standard")
    if variant not in ("standard", "misar", "drag"):
        raise MalformedEvent(M("'variant' must be standard, misar or drag, not %(variant)s", variant=repr(variant)))
    if _flag(options, "fixed") and _flag(options, "handtable"):
        raise DeskError("KASINO-VAR-HANDTABLE", M("choose one value scheme: fixed or handtable, not both"))
    values = "fixed" if _flag(options, "fixed") else "handtable" if _flag(options, "handtable") else "standard"
    misar = variant == "misar" or (variant == "drag" and _flag(options, "drag_misar"))
    return kasino_scheme(values), misar, misar and _flag(options, "misar_maxcount")


def _card_list(body: Mapping[str, Any], key: str) -> list[Card]:
    raw = body.get(key, [])
    if isinstance(raw, str):
        raw = raw.split()
    if not isinstance(raw, list) or not all(isinstance(c, str) for c in raw) or len(raw) > 60:
        raise MalformedEvent(M("%(key)s must be a list of cards such as [\"5D\", \"9S\"]", key=repr(key)))
    return [parse_card(c, "french") for c in raw]


def judge_capture(game: str, body: Mapping[str, Any]) -> CaptureVerdict:
    """``{"table": [...], "played": "9C", "capture": [...], "hand": [...], "options": {...}}``: is the
    capture legal (MULLE-CAP-4 / KASINO-CAP-4), its grouping, sweep and mulle, every legal capture
    of the card (the first 60, and how many in all), and in misär the duties to sweep and capture."""
    from scorekeeper.engine.capture import count_captures, explain_failure, legal_captures

    if game not in ("mulle", "kasino"):
        raise MalformedEvent(M("%(game)s has no captures", game=repr(game)))
    prefix = "MULLE" if game == "mulle" else "KASINO"
    scheme, misar, maxcount = capture_scheme(game, _options(body))
    table = _card_list(body, "table")
    taken = _card_list(body, "capture")
    hand = _card_list(body, "hand")
    played = parse_card(_text(body, "played"), "french")
    copies = 2 if game == "mulle" else 1
    seen = Counter([*table, played, *hand])
    over = [c for c, k in seen.items() if k > copies]
    if over:
        name = "Tomelilla Mulle" if game == "mulle" else "Kasino"
        raise DeskError(f"{prefix}-COMP-1", M("%(card)s appears %(times)s times; the %(game)s pack holds %(copies)s",
                                              card=over[0], times=seen[over[0]], game=name, copies=copies),
                        card=str(over[0]))
    missing = Counter(taken) - Counter(table)
    if missing:
        card = next(iter(missing))
        raise DeskError(f"{prefix}-TURN-2" if game == "mulle" else "KASINO-CAP-4",
                        M("%(card)s is not on the table", card=card), card=str(card))
    listed = tuple(legal_captures(played, table, scheme, limit=CAPTURES_LISTED))
    total = len(listed)
    if total == CAPTURES_LISTED:
        total = count_captures(played, table, scheme, at_most=100_000)
    duties = tuple(misar_duty(played, taken, table, scheme, hand, maxcount)) if misar else ()
    def verdict(legal: bool, rule: str, why: str, grouping: Grouping | None = None) -> CaptureVerdict:
        sweep = grouping is not None and Counter(taken) == Counter(table)
        mulle = grouping is not None and game == "mulle" and taken == [played]
        broken = next((d for d in duties if not d.legal), None)
        if legal and broken is not None:  # a legal grouping, but misär asked for another move
            legal, rule, why = False, broken.rule, MISAR_WHY[broken.what]
        return CaptureVerdict(game, tuple(table), played, tuple(taken), legal, rule, why, grouping, sweep, mulle,
                              listed, total, duties)

    if not taken:
        return verdict(True, f"{prefix}-CAP-5", M("a trail is always allowed"))
    grouping = find_grouping(played, taken, scheme)
    if grouping is None:
        return verdict(False, f"{prefix}-CAP-4", explain_failure(played, taken, scheme))
    return verdict(True, f"{prefix}-CAP-4", grouping.summary(played), grouping)
