"""Tally mode: a deal marked, and scoring facts pegged as they are entered."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from scorekeeper.engine.base import (
    MalformedEvent,
    RuleViolation,
    int_field,
)
from scorekeeper.engine.core import evolve
from scorekeeper.engine.messages import M, Msg
from scorekeeper.engine.mulle.play import dealer_of, with_pegs
from scorekeeper.engine.mulle.state import (
    TALLY,
    TALLY_ALIASES,
    TALLY_CAPS,
    DealRecord,
    _Pegs,
    _tally_word,
)

if TYPE_CHECKING:
    from scorekeeper.engine.mulle.state import MulleState

# --- Tally mode -----------------------------------------------------------------------

def on_tally_deal(state: MulleState, event: Mapping[str, Any]) -> MulleState:
    dealer = dealer_of(state, event)
    history = state.history
    if state.deal_no:
        history = (*history, tally_record(state))
    zeros = (0,) * state.sides.count
    return evolve(state, dealer=dealer, deal_no=state.deal_no + 1, deal_points=zeros,
                   tally_counts={}, history=history, scored=())

def tally_record(state: MulleState) -> DealRecord:
    zeros = (0,) * state.sides.count
    return DealRecord(deal=state.deal_no, dealer=state.dealer, finished=not state.over,
                      points=state.deal_points, scores=state.scores, sweeps=zeros, mulles=zeros,
                      piles=zeros, spades=zeros)

def on_tally(state: MulleState, event: Mapping[str, Any]) -> MulleState:
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
    new = evolve(with_pegs(state, pegs), tally_counts=counts)
    if pegs.check_win():
        new = evolve(new, winner=pegs.winner, phase="over")
        new = evolve(new, history=(*new.history, tally_record(new)))
    return new
