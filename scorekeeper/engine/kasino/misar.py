"""The capture duties (misär, must_capture) and the forced tabbe a player's hidden hand proves missed
(KASINO-MIS-1, -2)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from scorekeeper.cards import Card
from scorekeeper.engine.capture import (
    can_capture,
    can_sweep,
    find_grouping,
    maximal_captures,
)
from scorekeeper.engine.kasino.state import _cards, _turn_of
from scorekeeper.engine.messages import Join, M, Msg

if TYPE_CHECKING:
    from scorekeeper.engine.kasino.state import KasinoState, Settings, Turn

# --- Capture duties (misär and must_capture) ------------------------------------------------------


def _capture_duty(cfg: Settings, card: Card, table: tuple[Card, ...],
                  taken: tuple[Card, ...]) -> tuple[str, Msg, dict[str, Any]] | None:
    """A breach of KASINO-MIS-2 (or the option rules built on it), or None."""
    if not taken:
        if not can_capture(card, table, cfg.scheme):
            return None
        best = maximal_captures(card, table, cfg.scheme)
        return (cfg.capture_rule, M("%(card)s can capture, so it must: it may take %(options)s", card=card,
                                    options=Join(tuple(_cards(c) for c, _ in best), "or")),
                {"played": str(card), "must_take_one_of": [[str(x) for x in c] for c, _ in best]})
    mine = Counter(taken)
    best = maximal_captures(card, table, cfg.scheme)
    if not any(Counter(c) == mine for c, _ in best):
        bigger = [c for c, _ in best if not (mine - Counter(c))]
        return (cfg.capture_rule, M("%(card)s must take as much as it can: %(taken)s leaves cards it could also "
                                    "take; take %(options)s", card=card, taken=_cards(taken), options=Join(
                                        tuple(_cards(c) for c in (bigger or [c for c, _ in best])), "or")),
                {"played": str(card), "taken": [str(c) for c in taken],
                 "must_take_one_of": [[str(x) for x in c] for c in (bigger or [c for c, _ in best])]})
    if cfg.misar and cfg.maxcount:
        most = maximal_captures(card, table, cfg.scheme, by="count")
        if not any(Counter(c) == mine for c, _ in most):
            return ("KASINO-OPT-MISAR-MAXCOUNT", M("%(card)s must take the most cards it can (%(n)s): take "
                                                   "%(options)s", card=card, n=len(most[0][0]),
                                                   options=Join(tuple(_cards(c) for c, _ in most), "or")),
                    {"played": str(card), "taken": [str(c) for c in taken],
                     "must_take_one_of": [[str(x) for x in c] for c, _ in most]})
    return None


# --- Hidden hands: the forced tabbe (KASINO-MIS-1) ----------------------------------------------


def _known_hand(s: KasinoState, player: int) -> tuple[Card, ...]:
    """Dragkasino: cards this player was seen to draw and has not played yet."""
    if not s.cfg.drag:
        return ()
    played = {t.card for t in s.turns if t.player == player}
    return tuple(t.drew for t in s.turns if t.player == player and t.drew is not None and t.drew not in played)


def _was_in_hand(s: KasinoState, mine: Sequence[Turn], at: Turn, card: Card, played_at: Turn) -> bool:
    """Whether ``card`` (played at ``played_at``) was certainly in the player's hand at ``at``.

    The hand at turn t is the cards the player plays from t on, minus the cards received after t
    (rules README §4): in Kasino new cards come only with the next round, in Dragkasino with each
    draw, which the table may or may not have entered.
    """
    if not s.cfg.drag:
        return at.round == played_at.round
    drawn_at = next((t.number for t in mine if t.drew == card), None)
    if drawn_at is not None:
        return drawn_at < at.number
    return not any(t.drew_unknown for t in mine if at.number <= t.number < played_at.number)


def _missed_tabbes(s: KasinoState, turn: Turn) -> list[tuple[Turn, Card]]:
    """Turns of this player that the new evidence shows broke KASINO-MIS-1, each with a card that could sweep."""
    mine = [t for t in s.turns if t.player == turn.player] + [turn]
    flagged = {_turn_of(p) for p in s.proposals
               if p.deal == s.deal_no and p.data["breach"] == "KASINO-MIS-1" and p.status != "void"}
    found: list[tuple[Turn, Card]] = []
    for at in mine:
        if at.number in flagged or not at.table_before or at.tabbe or at.could_sweep:
            continue
        if at is turn:
            candidates = [c for c in _known_hand(s, turn.player) if c != turn.card]
        elif _was_in_hand(s, mine, at, turn.card, turn):
            candidates = [turn.card]
        else:
            candidates = []
        sweeper = next((c for c in candidates if can_sweep(c, at.table_before, s.cfg.scheme)), None)
        if sweeper is not None:
            found.append((at, sweeper))
    return found


def _tabbe_evidence(s: KasinoState, at: Turn, sweeper: Card, seen_at: Turn) -> dict[str, Any]:
    grouping = find_grouping(sweeper, at.table_before, s.cfg.scheme)
    return {
        "turn": at.number + 1,
        "round": at.round or None,
        "table": [str(c) for c in at.table_before],
        "played": str(at.card),
        "taken": [str(c) for c in at.taken],
        "could_sweep_with": str(sweeper),
        "sweep": grouping.to_json() if grouping else None,
        "evidence_at_turn": seen_at.number + 1,
    }
