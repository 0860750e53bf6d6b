"""Per-game view models: what a game's screen needs beyond its state JSON (picker contents,
board figures, labels). Each game module registers one function; the sheet template of the game
(``templates/games/<game>/main.html``) receives its dict merged into the page context.

Every game has a view module, even one with nothing to add (``scorepad``): a game without one is a
packaging or naming mistake, and an empty page would hide it, so :func:`view_for` raises."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

ViewFn = Callable[[dict[str, Any]], dict[str, Any]]
VIEWS: dict[str, ViewFn] = {}


class MissingView(LookupError):
    """No view module (or no registered view function) for a game id."""

    def __init__(self, game: str, detail: str) -> None:
        super().__init__(f"no view for game {game!r}: {detail}")
        self.game = game


def register(game: str) -> Callable[[ViewFn], ViewFn]:
    def wrap(fn: ViewFn) -> ViewFn:
        VIEWS[game] = fn
        return fn
    return wrap


def view_for(game: str, ctx: dict[str, Any]) -> dict[str, Any]:
    """``ctx`` is the page context (table, state, raw_state, seat, sides, players, can_write).

    Raises :class:`MissingView` when ``scorekeeper.web.views.<game>`` does not exist or does not
    register a view; an import error inside an existing view module propagates as it is."""
    if game not in VIEWS:
        name = f"{__name__}.{game}"
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            raise MissingView(game, f"module {name} not found") from exc
        if game not in VIEWS:
            raise MissingView(game, f"module {name} registers no view")
    return VIEWS[game](ctx)
