"""Reading a table's log: its history lines, export and import, the sides' names."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from scorekeeper.engine import RULES
from scorekeeper.engine.base import MalformedEvent, RuleViolation, SetupError
from scorekeeper.engine.messages import TableNames
from scorekeeper.extensions import db
from scorekeeper.localize import localize, tr
from scorekeeper.models import Event, Table
from scorekeeper.service.errors import (
    ENGINE_SLIPS,
    MAX_EVENTS_PER_IMPORT,
    TableError,
    bad_request,
    from_engine,
)
from scorekeeper.service.snapshots import (
    Snapshot,
    cache,
    effective_events,
    engine_options,
    rules_for,
)
from scorekeeper.service.tables import clean_players, create_table
from scorekeeper.service.writes import check_event

logger = logging.getLogger(__name__)


# --- Reading the log -------------------------------------------------------------------------


@dataclass(frozen=True)
class HistoryRow:
    seq: int
    payload: dict[str, Any]
    author: int | None
    created_at: Any
    undone: bool
    text: str


def history(table: Table) -> list[HistoryRow]:
    rows = db.session.execute(
        select(Event).where(Event.table_id == table.id).order_by(Event.seq)
    ).scalars().all()
    effective = {seq for seq, _ in effective_events([(r.seq, r.payload) for r in rows])}
    rules = rules_for(table)
    players = table_names(table)
    result = []
    for row in rows:
        if row.payload.get("type") == "undo":
            text = f"undo #{row.payload.get('undoes')}"
        else:
            text = localize(rules.describe(row.payload, players), players)
        result.append(HistoryRow(row.seq, row.payload, row.author, row.created_at,
                                 row.payload.get("type") != "undo" and row.seq not in effective, text))
    return result


def export(table: Table) -> dict[str, Any]:
    rows = db.session.execute(
        select(Event).where(Event.table_id == table.id).order_by(Event.seq)
    ).scalars().all()
    return {
        "format": "scorekeeper/1",
        "game": table.game,
        "mode": table.mode,
        "options": table.options,
        "players": table.players,
        "events": [
            {"seq": r.seq, "by": r.author, "at": r.created_at.isoformat() + "Z", "event": r.payload} for r in rows
        ],
    }


def import_table(data: Any) -> Table:
    """A new table from an export, every event replayed through the engine first: a tampered
    file is refused with the rule it breaks and nothing is stored."""
    if not isinstance(data, dict):
        raise bad_request(tr("an import must be a JSON object as exported"))
    events = data.get("events")
    if not isinstance(events, list) or len(events) > MAX_EVENTS_PER_IMPORT:
        raise bad_request(tr("an import needs a list of events"))
    game, players, mode, options = data.get("game"), data.get("players"), data.get("mode"), data.get("options")
    if not isinstance(game, str) or game not in RULES:
        raise bad_request(tr("unknown game %(game)s", game=repr(game)))
    names = clean_players(players)
    rules = RULES[game]
    try:
        state = rules.new(names, engine_options(options or {}), mode or "adjudicate")
    except (SetupError, RuleViolation, MalformedEvent) as exc:
        raise from_engine(exc) from exc
    payloads: list[tuple[dict[str, Any], int | None]] = []
    stack: list[Any] = []
    for number, item in enumerate(events, start=1):
        payload = item.get("event") if isinstance(item, dict) and "event" in item else item
        by = item.get("by") if isinstance(item, dict) else None
        author = by if isinstance(by, int) and not isinstance(by, bool) and 0 <= by < len(names) else None
        if isinstance(payload, dict) and payload.get("type") == "undo":
            if stack:
                stack.pop()
            payloads.append(({"type": "undo", "undoes": None}, author))
            continue
        try:
            check_event(payload)
        except TableError as exc:
            raise TableError(exc.status, exc.code, tr("event %(n)s: %(message)s", n=number, message=exc.message)) from exc
        stack.append(payload)
        payloads.append((payload, author))
    # Replay only the effective events: an undone illegal event does not break an honest file.
    for payload in stack:
        try:
            state = rules.apply(state, payload)
        except (RuleViolation, *ENGINE_SLIPS) as exc:
            number = next(i for i, (p, _) in enumerate(payloads, start=1) if p is payload)
            err = from_engine(exc, names)
            raise TableError(err.status, err.code, tr("event %(n)s: %(message)s", n=number, message=err.message),
                             err.rule) from exc
    table = create_table(game, names, mode, options)
    seq = 0
    effective: list[tuple[int, dict[str, Any]]] = []
    for payload, author in payloads:
        seq += 1
        if payload["type"] == "undo":
            payload = {"type": "undo", "undoes": effective.pop()[0]}
        else:
            effective.append((seq, payload))
        db.session.add(Event(table_id=table.id, seq=seq, type=payload["type"], payload=payload, author=author))
    table.head_seq = seq
    db.session.commit()
    cache.put((table.id, seq), Snapshot(seq, state, tuple(effective)))
    return table


def seat_names(table: Table) -> list[str]:
    return table.players


def table_names(table: Table, state: Mapping[str, Any] | None = None) -> TableNames:
    """The seats' names with the sides' labels, for messages that name a side ("+7 → Anna & Cilla")."""
    return TableNames(table.players, describe_sides(table, state or {}))


def describe_sides(table: Table, state: Mapping[str, Any]) -> list[str]:
    """A side's label: the player's name, or the partners' names joined. The engine's own
    ``state["sides"]`` (seats per side) wins when given: an option such as Kasino's ``pairs``
    makes partnerships without a ``teams`` list."""
    teams = (table.options or {}).get("teams")
    names = table.players
    given = state.get("sides")
    if isinstance(given, list) and given and all(
            isinstance(t, list) and t and all(isinstance(i, int) and 0 <= i < len(names) for i in t) for t in given):
        return [" & ".join(names[i] for i in team) for team in given]
    if teams:
        return [" & ".join(names[i] for i in team) for team in sorted((sorted(t) for t in teams), key=lambda t: t[0])]
    return list(names)
