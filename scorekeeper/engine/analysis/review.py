"""Post-deal review: from a table's own log, every move where the rules allowed something better
by the game's own scoring, and what it would have scored.

* Mulle, Kasino: the card played could have taken a mulle, a sweep or more point cards
  (Kasino misär: fewer, among the captures MIS-2 allows), or the move left the table for the
  next player's card to sweep when another capture with the same card would not have.
* Muggins: every placement the priority rule forbade (MUGGINS-PEN-1), with the place it
  belonged and the penalty cards it cost.
* Mulatschak, Mousel: every revoke the cards played prove (the retroactive audit of
  :mod:`scorekeeper.engine.tricks`), with the card that should have gone to that trick, who
  would have won the trick with it, and what the revoke costs on the sheet or in tokens.

Only what the log proves: an alternative uses the very card played (or, for a revoke, a card
the player is proven to have held by a later play or an entered hand); hidden cards are never
guessed. Every ``better`` event is checked by the game's own ``apply`` on the state before
the move, so the review never suggests a move the engine would refuse.

The review is pure: ``review(game, players, options, mode, events, deal)`` with ``events`` the
table's effective ``(seq, event)`` pairs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.engine.analysis.review_fishing import _fishing
from scorekeeper.engine.analysis.review_steps import (
    GAMES,
    Review,
    ReviewLine,
    _accepts,
    _deal_numbers,
    _deal_over,
    _Step,
)
from scorekeeper.engine.analysis.review_tricks import _tricks
from scorekeeper.engine.base import Event
from scorekeeper.engine.muggins import MugginsState


def review(game: str, players: Sequence[str], options: Mapping[str, Any], mode: str,
           events: Sequence[tuple[int, Event]], deal: int | None = None) -> Review:
    """The review of ``deal`` (default: the latest one) of a table's effective events."""
    found = review_deals(game, players, options, mode, events, None if deal is None else (deal,))
    if not found:
        return Review(None, (), False, ())
    if deal is None:
        return found[-1]
    return found[0]


def review_deals(game: str, players: Sequence[str], options: Mapping[str, Any], mode: str,
                 events: Sequence[tuple[int, Event]], deals: Sequence[int] | None = None) -> list[Review]:
    """The reviews of ``deals`` (default: every deal) from one replay of the log; a deal the log
    does not hold comes back with no lines (``deals`` of each review lists the real ones)."""
    from scorekeeper.engine import RULES

    if game not in GAMES or mode != "adjudicate":
        return []
    rules = RULES[game]
    state = rules.new(players, options, "adjudicate")
    steps: list[_Step] = []
    for seq, event in events:
        after = rules.apply(state, event)
        steps.append(_Step(seq, event, state, after))
        state = after
    number = _deal_numbers(game, steps)
    held = tuple(sorted({d for d in number if d}))
    if not held:
        return [Review(None, held, False, ())]
    out: list[Review] = []
    for deal in held if deals is None else deals:
        mine = [(i, step) for i, step in enumerate(steps) if number[i] == deal]
        lines: list[ReviewLine]
        if game in ("mulle", "kasino"):
            lines = _fishing(game, rules, steps, mine, deal)
        elif game == "muggins":
            lines = _muggins(rules, mine, deal)
        else:
            lines = _tricks(game, rules, mine, deal, state)
        out.append(Review(deal, held, _deal_over(game, deal, number, state), tuple(lines)))
    return out


# --- Muggins -----------------------------------------------------------------------------------


def _muggins(rules: Any, mine: Sequence[tuple[int, _Step]], deal: int) -> list[ReviewLine]:
    lines: list[ReviewLine] = []
    for _, step in mine:
        before: MugginsState = step.before
        after: MugginsState = step.after
        call = after.last_muggins
        if step.event.get("type") != "turn" or call is None or call is before.last_muggins:
            continue
        for place in call.correct:
            better = {k: v for k, v in step.event.items() if k not in ("moved_to", "expected_seq")}
            better["to"] = place.to_json()
            if _accepts(rules, before, better):
                facts = {"placed": call.placed.kind, "placed_on": "" if call.placed_on is None else str(call.placed_on),
                         "correct": place.kind, "correct_index": place.index, "cards": call.penalty_cards,
                         "fitted": call.fitted}
                lines.append(ReviewLine(deal, step.seq, call.player, str(call.card), dict(step.event), better,
                                        call.penalty_cards, "MUGGINS-PEN-1", "muggins", facts))
                break
    return lines

__all__ = ["Review", "ReviewLine", "review", "review_deals"]
