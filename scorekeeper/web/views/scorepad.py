"""The score pad needs nothing beyond its state: its page reads totals and target straight from it."""

from __future__ import annotations

from typing import Any

from scorekeeper.web.views import register


@register("scorepad")
def scorepad_view(ctx: dict[str, Any]) -> dict[str, Any]:
    return {}
