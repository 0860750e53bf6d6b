"""Scoring a deal (KASINO-SCORE-*), knock-outs, claims and the end of the game."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from scorekeeper.engine.base import (
    Scored,
    Sides,
)
from scorekeeper.engine.kasino.state import (
    ACE_POINTS,
    KNOCKOUT,
    LILLAN,
    LILLAN_POINTS,
    STORAN,
    STORAN_POINTS,
    TABBE_POINTS,
    TARGET,
    Category,
    DealRow,
    Facts,
    Summary,
)
from scorekeeper.engine.messages import M, Msg

if TYPE_CHECKING:
    from scorekeeper.engine.kasino.state import KasinoState, Settings

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
    cats.append(Category("storan", "KASINO-COMP-4", tuple(STORAN_POINTS * f.storan for f in facts),
                         winner=next((i for i, f in enumerate(facts) if f.storan), None)))
    cats.append(Category("lillan", "KASINO-COMP-4", tuple(LILLAN_POINTS * f.lillan for f in facts),
                         winner=next((i for i, f in enumerate(facts) if f.lillan), None)))
    cats.append(Category("aces", "KASINO-COMP-4", tuple(ACE_POINTS * f.aces for f in facts)))
    cats.append(Category("tabbes", "KASINO-TURN-5", tuple(TABBE_POINTS * f.tabbes for f in facts)))
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
               "storan": Msg("%(card)s", {"card": STORAN}), "lillan": Msg("%(card)s", {"card": LILLAN}),
               "aces": M("%(n)s ace(s)", n=f.aces), "tabbes": M("%(n)s tabbe(s)", n=f.tabbes),
               "sistan": M("last capture")}
    return details.get(c.what, "")
