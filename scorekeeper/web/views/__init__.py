"""Per-game view models: what a game's screen needs beyond its state JSON (picker contents,
board figures, labels). Each game module registers one function; the sheet template of the game
(``templates/games/_<game>.html``) receives its dict merged into the page context."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

ViewFn = Callable[[dict[str, Any]], dict[str, Any]]
VIEWS: dict[str, ViewFn] = {}


def register(game: str) -> Callable[[ViewFn], ViewFn]:
    def wrap(fn: ViewFn) -> ViewFn:
        VIEWS[game] = fn
        return fn
    return wrap


def view_for(game: str, ctx: dict[str, Any]) -> dict[str, Any]:
    """``ctx`` is the page context (table, state, raw_state, seat, sides, players, can_write)."""
    if game not in VIEWS:
        try:
            importlib.import_module(f"scorekeeper.web.views.{game}")
        except ModuleNotFoundError:
            VIEWS[game] = lambda _ctx: {}
    return VIEWS[game](ctx)
