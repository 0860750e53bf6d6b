"""The three ways an event is refused; the web maps them to HTTP 422 (rules) and 400 (shape)."""

from __future__ import annotations

from typing import Any

from scorekeeper.cards import NotationError

__all__ = ["MalformedEvent", "NotationError", "RuleViolation", "SetupError"]


class RuleViolation(Exception):
    """An illegal move. ``rule`` is the id from ``rules/*.md``; ``facts`` feed the "why" view."""

    def __init__(self, rule: str | None, message: str, **facts: Any) -> None:
        super().__init__(f"{rule}: {message}" if rule else message)
        self.rule = rule
        self.message = message
        self.facts = facts


class SetupError(RuleViolation):
    """A table that cannot be opened: player count or option not supported (HTTP 422)."""


class MalformedEvent(ValueError):
    """An event whose shape is wrong (missing field, wrong type): HTTP 400, not a rules matter."""

    def __init__(self, message: str, event: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.event = event
