"""Tally mode: a deal entered as its result; resuming a game from a paper sheet."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.engine.core import (
    MalformedEvent,
    RuleViolation,
    Scored,
    SetupError,
    bool_field,
    evolve,
    int_field,
    seat_list_field,
)
from scorekeeper.engine.messages import Seat
from scorekeeper.engine.mulatschak.hands import _suit
from scorekeeper.engine.mulatschak.scoring import _book
from scorekeeper.engine.mulatschak.state import (
    BID_LIMIT,
    STAY_LIMIT,
    M,
    MulState,
    Row,
    _fresh_deal,
    doubling_causes,
)


def on_deal_result(state: MulState, event: Mapping[str, Any]) -> MulState:
    n = state.n
    dealer = state.dealer
    number = len(state.sheet) + 1
    if bool_field(event, "thrown_in", False):
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
    forced = bool_field(event, "forced", False)
    trump = _suit(event)
    if trump is None:
        raise RuleViolation("MULAT-TRUMP-1", M("name the trump suit: H, S, L or E"))
    home = list(seat_list_field(event, "home", n, repeats=True))
    revokes = list(seat_list_field(event, "revokes", n, repeats=True))
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
    final_causes = doubling_causes(trump, collapses, "knock" in causes)
    return _book(state, number, dealer, declarer, bid, forced, trump, final_causes, tuple(home),
                 tuple(tricks), tuple(sorted(revokes)), breaker)


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
