"""Folding a game's ``apply`` over a recorded log, and holding the cyclic collector meanwhile."""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TypeVar

from scorekeeper.engine.core.protocol import Rules

S = TypeVar("S")


@contextmanager
def collector_paused() -> Iterator[None]:
    """Hold the cyclic garbage collector while many small containers are made (a replay's states,
    a listing's captures, a pack's hints), none of them in a cycle: its passes over the growing
    heap — the whole heap, on a server holding many tables' states — would come again and again
    for nothing. Another thread that finds it held leaves it alone; whoever held it starts it
    again, and the one pass then counts what was made."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def replay(rules: Rules[S], state: S, events: Iterable[Mapping[str, Any]]) -> S:
    """``state`` after ``rules.apply`` of each event in turn: how a server rebuilds a table from its
    log. A 50-deal Mousel session makes tens of thousands of objects, and the collections they
    set off walk the whole heap — on a server, every table's cached states (bench/README.md)."""
    apply = rules.apply
    with collector_paused():
        for event in events:
            state = apply(state, event)
    return state
