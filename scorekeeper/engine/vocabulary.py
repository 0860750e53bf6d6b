"""One word for one step in every game: a proposal the table decides is ``confirm`` / ``dismiss``
with ``proposal`` (its id) in Kasino, Mulatschak and Mousel alike.

Spellings a game once used stay readable as aliases — stored tables replay, older clients keep
working. They are listed here, and nowhere else (docs/api.md lists them too); a game's
:class:`~scorekeeper.engine.core.Dispatch` rewrites them to the common words before any handler runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.engine.core.dispatch import Alias
from scorekeeper.engine.core.dispatch import canonical as _canonical

ALIASES: Mapping[str, Mapping[str, Alias]] = {
    "mousel": {
        "confirm_revoke": Alias("confirm", {"id": "proposal"}),
        "dismiss_revoke": Alias("dismiss", {"id": "proposal"}),
    },
}


def canonical(game: str, event: Mapping[str, Any]) -> Mapping[str, Any]:
    """``event`` in the common words (the same object when it already uses them)."""
    return _canonical(event, ALIASES.get(game, {}))


__all__ = ["ALIASES", "Alias", "canonical"]
