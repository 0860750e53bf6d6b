"""One word for one step in every game: a proposal the table decides is ``confirm`` / ``dismiss``
with ``proposal`` (its id) in Kasino, Mulatschak and Mousel alike.

Spellings a game once used stay readable as aliases — stored tables replay, older clients keep
working — and are rewritten to the common words here, and nowhere else (docs/api.md lists them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Alias:
    """An old event type and its renamed fields (old name → common name)."""

    type: str
    fields: Mapping[str, str] = field(default_factory=dict)


ALIASES: Mapping[str, Mapping[str, Alias]] = {
    "mousel": {
        "confirm_revoke": Alias("confirm", {"id": "proposal"}),
        "dismiss_revoke": Alias("dismiss", {"id": "proposal"}),
    },
}


def canonical(game: str, event: Mapping[str, Any]) -> Mapping[str, Any]:
    """``event`` in the common words (the same object when it already uses them)."""
    kind = event.get("type")
    alias = ALIASES.get(game, {}).get(kind) if isinstance(kind, str) else None
    if alias is None:
        return event
    out: dict[str, Any] = {"type": alias.type}
    for key, value in event.items():
        if key != "type":
            new = alias.fields.get(key, key)
            if new == key or new not in event:  # the common name wins when both are sent
                out[new] = value
    return out


__all__ = ["ALIASES", "Alias", "canonical"]
