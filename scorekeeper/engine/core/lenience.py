"""A replay that trusts a stored move: the verdict of a rule that became stricter after the move
was accepted is noted, and the move is carried out as the table accepted it.

A check whose refusal leaves the move still playable (the capture, the duty to follow, a capture
duty) calls :func:`overrule` instead of raising. Outside :func:`trusting` it raises as before,
so a move entered now is judged by the current rules; inside, the verdict is noted and the
move goes on. Checks whose refusal leaves nothing to carry out (a card not on the table, a card
played twice) keep raising: the service sets such a stored move aside, visibly.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from scorekeeper.engine.core.errors import RuleViolation

__all__ = ["overrule", "trusting"]

_noted: ContextVar[list[RuleViolation] | None] = ContextVar("scorekeeper_trusting", default=None)


def overrule(verdict: RuleViolation) -> None:
    """Raise ``verdict``, unless a stored move is being trusted: then note it and go on."""
    noted = _noted.get()
    if noted is None:
        raise verdict
    noted.append(verdict)


@contextmanager
def trusting() -> Iterator[list[RuleViolation]]:
    """Within: the verdicts :func:`overrule` was given, in order, instead of raised."""
    noted: list[RuleViolation] = []
    token = _noted.set(noted)
    try:
        yield noted
    finally:
        _noted.reset(token)
