"""A finished table's outcome as a circle's standings count it, kept when the table finishes.

The standings of a circle of hundreds of tables must not replay them on every view (issue 38):
each table's result — winners, every seat's final score and place, and the figures only the
engine knows (mullar, tabbe, misär penalties, Mulatschaks, revokes, muggins, Mousel balances) —
is worked out once, on the move that ends the game, and stored with the rules version it was
worked out under. A view takes it as stored unless the table's head moved on (an undo of the
final move), the engine's ``RULES_VERSION`` changed, or what an outcome holds changed
(``FORMAT``, kept in its data); then it is worked out again, once.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, select, text

from scorekeeper.engine import RULES_VERSION
from scorekeeper.extensions import db
from scorekeeper.models import Outcome, Table, utcnow
from scorekeeper.service.facts import TableFacts
from scorekeeper.service.snapshots import Snapshot, cache, new_state, rules_for, snapshot

logger = logging.getLogger(__name__)

# Raised whenever an outcome holds more (or otherwise) than before, with no change to the rules:
# outcomes stored under an older format are worked out again on the next view, as after a new
# RULES_VERSION. 2: Mousel's pots won. (An outcome without "format" is format 1.)
FORMAT = 2

# Games whose lowest score is the best one (Mulatschak counts down from 21 to 0).
LOW_WINS = frozenset({"mulatschak"})


def _sides(data: dict[str, Any], players: int) -> list[list[int]]:
    sides = data.get("sides")
    if isinstance(sides, list) and sides and all(isinstance(s, list) for s in sides):
        return [list(s) for s in sides]
    return [[p] for p in range(players)]


def _winning_sides(winner: Any) -> list[int]:
    if isinstance(winner, bool) or winner is None:
        return []
    if isinstance(winner, int):
        return [winner]
    return [w for w in winner if isinstance(w, int)]


def _places(game: str, data: dict[str, Any], sides: list[list[int]], winners: list[int],
            side_scores: Sequence[float]) -> list[int]:
    """Each side's place (1 = best; ties share), as the game ranks them: the winners first, then
    the game's own order where it has one (Muggins' placings, Kasino misär's knock-outs), then
    the score, the lower one first in a game counted down."""
    count = len(sides)
    placings = data.get("placings") if game == "muggins" else None
    eliminated = data.get("eliminated") if game == "kasino" else None

    def key(side: int) -> tuple[float, ...]:
        group = next((i for i, g in enumerate(placings or []) if set(g) & set(sides[side])), len(placings or []))
        out = 0.0
        if eliminated and any(p in eliminated for p in sides[side]):
            # knocked out later is better: the last one out comes right after those still in
            out = float(len(eliminated) - max(eliminated.index(p) for p in sides[side] if p in eliminated))
        score = side_scores[side] if side < len(side_scores) else 0
        if data.get("direction") == "down" or game in LOW_WINS:
            score = -score
        return (0 if side in winners else 1, group, out, -score)

    order = sorted(range(count), key=key)
    places = [0] * count
    for rank, side in enumerate(order):
        prior = order[rank - 1] if rank else None
        places[side] = places[prior] if prior is not None and key(prior) == key(side) else rank + 1
    return places


def _figures(table: Table | TableFacts, data: dict[str, Any], snap: Snapshot, sides: list[list[int]],
             players: int) -> list[dict[str, int]]:
    """Per seat, the figures the engine counted at this table."""
    figures: list[dict[str, int]] = [{} for _ in range(players)]
    side_of = {p: i for i, side in enumerate(sides) for p in side}
    game = table.game
    if game == "mulle":
        history = data.get("history") or []
        for p in range(players):
            s = side_of[p]
            figures[p] = {"mullar": sum(int(r["mulles"][s]) for r in history),
                          "tabbe": sum(int(r["sweeps"][s]) for r in history)}
    elif game == "kasino":
        sweeps = _kasino_sweeps(table, snap, len(sides))
        history = data.get("history") or []
        for p in range(players):
            s = side_of[p]
            figures[p] = {"sweeps": sweeps[s],
                          "misar_penalties": sum(int(r["penalties"][s]) for r in history if s < len(r["penalties"]))}
    elif game == "mulatschak":
        sheet = data.get("sheet") or []
        for p in range(players):
            declared = [r for r in sheet if r.get("declarer") == p]
            figures[p] = {"deals_won": sum(1 for r in declared if r.get("made")),
                          "mulatschaks_bid": sum(1 for r in declared if r.get("muli")),
                          "mulatschaks_made": sum(1 for r in declared if r.get("muli") and r.get("made")),
                          "revokes": sum(list(r.get("revokes") or []).count(p) for r in sheet)}
    elif game == "muggins":
        for p in range(players):
            figures[p] = {"muggins": sum(1 for m in data.get("placements") or []
                                         if m.get("player") == p and m.get("muggins"))}
    elif game == "mousel":
        # A pot won: a deal whose whole pot one seat took (every trick, no revoke; MOUSEL-POT-1).
        whole = [r for r in data.get("settlements") or [] if not r.get("void") and int(r.get("pot") or 0) > 0]
        for p in range(players):
            figures[p] = {"balance": int(data["scores"][p]),
                          "pots_won": sum(1 for r in whole if p < len(r["shares"]) and r["shares"][p] == r["pot"])}
    return figures


def _kasino_sweeps(table: Table | TableFacts, snap: Snapshot, count: int) -> list[int]:
    """Sweeps (tabbes) per side over every deal: a deal's count keeps only its own, so the
    table's moves are walked once, noting each deal's count as it is made."""
    rules = rules_for(table)
    totals = [0] * count
    current = new_state(table)
    seen = None
    try:
        for _seq, payload in snap.effective:
            current = rules.apply(current, payload)
            summary = current.summary
            if summary is not None and summary is not seen:
                seen = summary
                for side, facts in enumerate(summary.facts):
                    if facts is not None and side < count:
                        totals[side] += facts.tabbes
    except Exception:  # noqa: BLE001 - a log the current rules judge otherwise: count what was read
        logger.info("kasino sweeps of a table counted up to a refused move")
    return totals


def outcome_data(table: Table | TableFacts, snap: Snapshot) -> dict[str, Any] | None:
    """The outcome of the table at ``snap``, or None while the game is under way."""
    state = snap.state
    if not getattr(state, "over", False):
        return None
    rules = rules_for(table)
    data = dict(rules.to_json(state))
    players = list(table.players)
    sides = _sides(data, len(players))
    scores = [s for s in data.get("scores") or []]
    winners = _winning_sides(data.get("winner"))
    places = _places(table.game, data, sides, winners, scores)
    figures = _figures(table, data, snap, sides, len(players))
    side_of = {p: i for i, side in enumerate(sides) for p in side}
    return {
        "players": players,
        "winners": sorted(p for w in winners if w < len(sides) for p in sides[w]),
        "scores": [scores[side_of[p]] if side_of[p] < len(scores) else 0 for p in range(len(players))],
        "places": [places[side_of[p]] for p in range(len(players))],
        "figures": figures,
        "format": FORMAT,
    }


def keep(table: Table | TableFacts, snap: Snapshot) -> dict[str, Any] | None:
    """Store (or drop) the table's outcome at ``snap``; the caller commits."""
    data = outcome_data(table, snap)
    db.session.execute(delete(Outcome).where(Outcome.table_id == table.id))
    if data is not None:
        db.session.add(Outcome(table_id=table.id, seq=snap.seq, rules_version=RULES_VERSION, data=data,
                               finished_at=utcnow()))
    return data


def current(data: dict[str, Any], seq: int, head: int, version: int) -> bool:
    """A stored outcome still holds: the final move stands, counted by these rules, in this format."""
    return seq == head and version == RULES_VERSION and data.get("format", 1) == FORMAT


def refresh(table: Table) -> dict[str, Any] | None:
    """The table's outcome worked out again from its log (a rules version or format changed, an undo)."""
    data = keep(table, snapshot(table))
    db.session.commit()
    return data


def finished(facts: TableFacts, seq: int) -> None:
    """A write left the table's game over: keep its outcome, and tell the table's circle."""
    snap = cache.get((facts.id, seq))
    if snap is None:
        return
    try:
        keep(facts, snap)
        circle_id = db.session.execute(text("SELECT circle_id FROM tables WHERE id = :id"), {"id": facts.id}).scalar()
        if circle_id is not None:
            from scorekeeper.service.circle_news import touched

            touched(circle_id)
        db.session.commit()
    except Exception:  # noqa: BLE001 - the move is written; its outcome is worked out on the next view
        db.session.rollback()
        logger.exception("the outcome of table %s was not kept", facts.id)
        return
    if circle_id is not None:
        from scorekeeper.service.circle_news import announce

        announce(circle_id)


def stored(table_ids: Sequence[str]) -> dict[str, Outcome]:
    rows = db.session.execute(select(Outcome).where(Outcome.table_id.in_(list(table_ids)))).scalars()
    return {row.table_id: row for row in rows}


