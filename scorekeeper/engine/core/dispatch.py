"""From an event to its handler: the event's ``type`` looked up in the table of the table's mode.

Spellings a game once used stay readable as aliases (stored tables replay, older clients keep
working) and are rewritten to the common words here, before any handler sees the event.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from scorekeeper.engine.core.errors import MalformedEvent
from scorekeeper.engine.core.protocol import Mode
from scorekeeper.engine.messages import M

__all__ = ["Alias", "Dispatch", "Handler", "canonical"]

S = TypeVar("S")
Handler = Callable[[S, Mapping[str, Any]], S]


@dataclass(frozen=True, slots=True)
class Alias:
    """An old event type and its renamed fields (old name → common name)."""

    type: str
    fields: Mapping[str, str] = field(default_factory=dict)


def canonical(event: Mapping[str, Any], aliases: Mapping[str, Alias]) -> Mapping[str, Any]:
    """``event`` in the common words (the same object when it already uses them)."""
    if not aliases:
        return event
    kind = event.get("type")
    alias = aliases.get(kind) if isinstance(kind, str) else None
    if alias is None:
        return event
    out: dict[str, Any] = {"type": alias.type}
    for key, value in event.items():
        if key != "type":
            new = alias.fields.get(key, key)
            if new == key or new not in event:  # the common name wins when both are sent
                out[new] = value
    return out


@dataclass(frozen=True)  # not slotted: ``Dispatch[State](...)`` sets ``__orig_class__``
class Dispatch(Generic[S]):
    """A game's handlers by mode and event type."""

    game: str
    adjudicate: Mapping[str, Handler[S]]
    tally: Mapping[str, Handler[S]]
    aliases: Mapping[str, Alias] = field(default_factory=dict)

    def events(self, mode: Mode) -> Mapping[str, Handler[S]]:
        return self.adjudicate if mode == "adjudicate" else self.tally

    def route(self, event: object, mode: Mode) -> tuple[Handler[S], Mapping[str, Any]]:
        """The handler for ``event`` and the event in the common words; a shape that names no
        event of ``mode`` is :class:`MalformedEvent`."""
        if type(event) is not dict and not isinstance(event, Mapping):
            raise MalformedEvent(M("an event must be an object"), event)
        kind = event.get("type")
        if type(kind) is not str:
            raise MalformedEvent(M("the event needs a 'type'"), event)
        if kind in self.aliases:
            event = canonical(event, self.aliases)
            kind = event["type"]
        table = self.adjudicate if mode == "adjudicate" else self.tally
        handler = table.get(kind)
        if handler is None:
            raise MalformedEvent(M("%(game)s in %(mode)s mode has no %(kind)s event (events: %(value)s)",
                                   game=self.game, mode=mode, kind=repr(kind), value=", ".join(sorted(table))),
                                 event)
        return handler, event
