"""The review's vocabulary: a line of the review, the replayed steps of a log, which deal a step is in."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.engine.base import Event, MalformedEvent, RuleViolation

GAMES = ("mulle", "kasino", "muggins", "mulatschak", "mousel")
_SLIPS = (RuleViolation, MalformedEvent, ValueError, KeyError, TypeError)


@dataclass(frozen=True, slots=True)
class ReviewLine:
    """One missed chance. ``what`` names it (mulle, sweep, points, fewer_points, left_sweep,
    muggins, revoke); ``facts`` fill the sentence the web layer renders."""

    deal: int
    seq: int
    player: int
    card: str
    played: Event
    better: Event
    gain: int
    rule: str
    what: str
    facts: Mapping[str, Any] = field(default_factory=dict)

    def describe(self) -> str:
        return f"#{self.seq} player {self.player} {self.card}: {self.what} (+{self.gain}, {self.rule}) {dict(self.facts)}"

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "deal": self.deal, "player": self.player, "card": self.card,
                "played": dict(self.played), "better": dict(self.better), "gain": self.gain, "rule": self.rule,
                "what": self.what, "facts": dict(self.facts)}


@dataclass(frozen=True, slots=True)
class Review:
    deal: int | None          # None: the game has no deal yet
    deals: tuple[int, ...]    # every deal the log holds
    over: bool                # this deal is finished (its lines are final)
    lines: tuple[ReviewLine, ...]


@dataclass(slots=True)
class _Step:
    seq: int
    event: Event
    before: Any
    after: Any


# --- deals -------------------------------------------------------------------------------------


def _deal_of(game: str, state: Any) -> int:
    if game == "mulle":
        return int(state.deal_no) if state.phase == "play" else 0
    if game == "kasino":
        return int(state.deal_no) if state.phase == "play" else 0
    if game == "muggins":
        return 1
    current = state.deal
    return int(current.number) if current is not None else 0


def _deal_numbers(game: str, steps: Sequence[_Step]) -> list[int]:
    """The deal each event belongs to: the deal in play before it, else the one it starts."""
    out: list[int] = []
    for step in steps:
        number = _deal_of(game, step.before) or _deal_of(game, step.after)
        out.append(number)
    return out


def _deal_over(game: str, deal: int, numbers: Sequence[int], final: Any) -> bool:
    if any(n > deal for n in numbers) or getattr(final, "over", False):
        return True
    if game in ("mulle", "kasino"):
        return bool(final.phase != "play")
    if game == "muggins":
        return bool(final.over)
    return any(row.deal == deal for row in (final.sheet if game == "mulatschak" else final.session.sheet))


def _accepts(rules: Any, before: Any, event: Event) -> bool:
    try:
        rules.apply(before, event)
    except _SLIPS:
        return False
    return True
