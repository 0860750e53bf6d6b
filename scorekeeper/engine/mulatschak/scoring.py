"""The sheet from 21 down to 0: what a deal changes (MULAT-SCORE-*), who breaks a Muli, the row."""

from __future__ import annotations

from collections.abc import Sequence

from scorekeeper.cards import Card
from scorekeeper.engine.core import (
    Scored,
    evolve,
)
from scorekeeper.engine.messages import Msg
from scorekeeper.engine.mulatschak.state import (
    HIGH_RANKS,
    Deal,
    M,
    MulState,
    Opts,
    Row,
    _fresh_deal,
    doubling_causes,
)


def stay_home_cost(opts: Opts, multiplier: int) -> int:
    """What staying home adds to a player's score (MULAT-SCORE-5 and the stay-home options)."""
    return 0 if opts.stayhome_free else (1 if opts.stayhome_flat else multiplier)


def deal_changes(opts: Opts, n: int, declarer: int, contract: int, home: Sequence[int],
                 tricks: Sequence[int], multiplier: int, revokes: Sequence[int],
                 breaker: int | None) -> list[tuple[int, str, str]]:
    """Each seat's change, with what it was for and the rule (MULAT-SCORE-3…5, MULAT-SCORE-9)."""
    m = multiplier
    out: list[tuple[int, str, str]] = []
    made = contract == 5 and tricks[declarer] == 5
    for p in range(n):
        if p in home:
            out.append((stay_home_cost(opts, m), "stayed home", "MULAT-SCORE-5"))
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


# -- scoring ---------------------------------------------------------------------------------

def _score(state: MulState) -> MulState:
    deal = state.deal
    assert deal is not None and deal.declarer is not None and deal.trump is not None
    n = state.n
    won = deal.tricks_won()
    home = tuple(p for p in range(n) if deal.decisions[p] == "home")
    revokes = tuple(sorted({p.player for p in state.proposals if p.status == "confirmed"}))
    breaker = _breaker(deal) if deal.muli else None
    tricks = tuple(None if p in home else won[p] for p in range(n))
    collapses = min(deal.collapses, 1) if state.opts.collapse_cap else deal.collapses
    causes = doubling_causes(deal.trump, collapses, deal.cut == "knock")
    return _book(state, deal.number, deal.dealer, deal.declarer, deal.contract, deal.forced, deal.trump,
                 causes, home, tricks, revokes, breaker)


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
