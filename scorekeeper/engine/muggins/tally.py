"""Tally mode: the result of a game entered by hand."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from scorekeeper.engine.base import (
    MalformedEvent,
    RuleViolation,
    Scored,
)
from scorekeeper.engine.messages import M
from scorekeeper.engine.muggins.piles import _ordinal
from scorekeeper.engine.muggins.play import refuse_if_over

if TYPE_CHECKING:
    from scorekeeper.engine.muggins.state import MugginsState

def on_result(state: MugginsState, event: Mapping[str, Any]) -> MugginsState:
    """Tally mode: only the result is written down (Muggins has no points)."""
    refuse_if_over(state)
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
