"""Tally mode: a deal entered as its result (tricks, folds, revokes)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.engine.core import (
    MalformedEvent,
    RuleViolation,
    bool_field,
    int_field,
    seat_list_field,
)
from scorekeeper.engine.messages import M
from scorekeeper.engine.mousel.deal import _antes, _start
from scorekeeper.engine.mousel.scoring import _settle_tricks, _void
from scorekeeper.engine.mousel.state import Deal, MouselState, _seat_ring, _with


def on_deal_result(state: MouselState, event: Mapping[str, Any]) -> MouselState:
    count = len(state.players)
    dealer, last = _start(state, event)
    ring = _seat_ring(state.status, dealer)
    n = len(ring)
    void = bool_field(event, "void")
    folded = seat_list_field(event, "folded", count)
    revokers = seat_list_field(event, "revokes", count)
    names = state.players
    number = state.deals + 1
    if void:
        if event.get("taker") is not None or folded or revokers or any(event.get("tricks") or []):
            raise RuleViolation("MOUSEL-TRUMP-7", M("a void deal has no taker, folds or tricks"))
        if state.opts.dealer_must_take:
            raise RuleViolation("MOUSEL-OPT-DEALER-MUST-TAKE", M("the dealer must take the last card: no void deals"))
        book = _antes(state, number, ring)
        deal = Deal(number=number, dealer=dealer, ring=ring, pot=book.pot, last=last, phase="turn_up", stock=0)
        started = _with(state, book=book, deals=number, last_announced=state.last_announced or last)
        return _void(started, deal)
    taker = int_field(event, "taker", minimum=0, maximum=count - 1)
    tricks_raw = event.get("tricks")
    if (not isinstance(tricks_raw, list) or len(tricks_raw) != count
            or any(isinstance(t, bool) or not isinstance(t, int) or t < 0 for t in tricks_raw)):
        raise MalformedEvent(M("'tricks' must list %(count)s whole numbers ≥ 0, one per seat", count=count), event)
    tricks = tuple(int(t) for t in tricks_raw)
    if taker not in ring:
        raise RuleViolation("MOUSEL-TRUMP-6", M("%(name)s is not at the table", name=names[taker]))
    outside = [s for s in folded if s not in ring]
    if outside:
        raise RuleViolation("MOUSEL-EXCH-1", M("%(name)s is not in this deal", name=names[outside[0]]))
    if taker in folded:
        raise RuleViolation("MOUSEL-EXCH-2", M("%(name)s took the trump card and can never fold", name=names[taker]))
    if all(s in folded for s in ring if s != taker):
        rule = "MOUSEL-OPT-LAST-IN-ORDER" if state.opts.last_in_order else "MOUSEL-EXCH-3"
        raise RuleViolation(rule, M("the taker needs at least one opponent: someone must play"))
    active = tuple(s for s in sorted(ring) if s not in folded)
    idle = [s for s in range(count) if s not in active and tricks[s]]
    if idle:
        raise RuleViolation("MOUSEL-EXCH-7", M("%(name)s did not play this deal and cannot win tricks", name=names[idle[0]]))
    if sum(tricks) != n:
        raise RuleViolation("MOUSEL-EXCH-6", M("%(n)s players hold %(n)s cards each, so there are %(n)s tricks, not %(value)s", n=n, value=sum(tricks)), tricks=sum(tricks), expected=n)
    bad = [s for s in revokers if s not in active]
    if bad:
        raise RuleViolation("MOUSEL-POT-8", M("%(name)s did not play, so cannot have revoked", name=names[bad[0]]))
    book = _antes(state, number, ring)
    deal = Deal(number=number, dealer=dealer, ring=ring, pot=book.pot, last=last, phase="review", stock=0,
                taker=taker)
    started = _with(state, book=book, deals=number, last_announced=state.last_announced or last)
    return _settle_tricks(started, deal, active, folded, tricks, revokers)
