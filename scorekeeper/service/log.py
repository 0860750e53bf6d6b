"""Reading a table's log: its history lines, export and import, the sides' names."""

from __future__ import annotations

import json
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
    snapshot,
)
from scorekeeper.service.stored import Verdict, is_event, unreadable_rows
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
    verdict: Verdict | None = None  # what the current rules say about this stored move, if otherwise


@dataclass(frozen=True)
class _Row:
    seq: int
    payload: Any
    author: int | None
    created_at: Any


def _log(table: Table) -> list[_Row]:
    """The table's stored entries, damaged ones included."""
    try:
        rows = db.session.execute(
            select(Event.seq, Event.payload, Event.author, Event.created_at)
            .where(Event.table_id == table.id).order_by(Event.seq)
        ).all()
    except ValueError:  # a payload that is not JSON (a truncated write)
        rows = unreadable_rows(table.id)
    return [_Row(*row) for row in rows]


def _describe(rules: Any, payload: Any, players: TableNames) -> str:
    if isinstance(payload, dict) and payload.get("type") == "undo":
        return f"undo #{payload.get('undoes')}"
    try:
        return str(localize(rules.describe(payload, players), players))
    except (RuleViolation, *ENGINE_SLIPS):
        text = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)
        return tr("damaged entry: %(text)s", text=text[:80])


def history(table: Table) -> list[HistoryRow]:
    rows = _log(table)
    snap = snapshot(table)
    verdicts = {v.seq: v for v in snap.verdicts}
    effective = {seq for seq, _ in effective_events([(r.seq, r.payload) for r in rows])}
    rules = rules_for(table)
    players = table_names(table)
    result = []
    for row in rows:
        undo = isinstance(row.payload, dict) and row.payload.get("type") == "undo"
        verdict = verdicts.get(row.seq) if row.seq in effective else None
        result.append(HistoryRow(row.seq, row.payload, row.author, row.created_at,
                                 not undo and row.seq not in effective, _describe(rules, row.payload, players),
                                 verdict))
    return result


def export(table: Table) -> dict[str, Any]:
    """The log as it is stored; an entry that is no event at all is marked ``"damaged": true``."""
    events = []
    for r in _log(table):
        entry = {"seq": r.seq, "by": r.author, "at": r.created_at.isoformat() + "Z", "event": r.payload}
        if not is_event(r.payload):
            entry["damaged"] = True
        events.append(entry)
    return {
        "format": "scorekeeper/1",
        "game": table.game,
        "mode": table.mode,
        "options": table.options,
        "players": table.players,
        "rules_version": table.rules_version,
        "events": events,
    }


def import_table(data: Any, *, fitted: bool = False, table_id: str | None = None, origin: str | None = None,
                 commit: bool = True) -> Table:
    """A new table from an export, every event replayed through the engine first: a tampered
    file is refused with the rule it breaks and nothing is stored. ``origin``: the export's
    identity (a phone's table, service/origins.py), kept so that it makes one table only.
    ``commit=False``: flushed only, the caller commits (a circle's import, many tables at once)."""
    game, names, mode, options, payloads, state = replayed(data, fitted=fitted)
    table = create_table(game, names, mode, options, table_id=table_id, origin=origin, commit=False)
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
    if commit:
        db.session.commit()
    else:
        db.session.flush()
    # Before a caller's commit too: a table rolled back leaves an entry under an id no table has.
    cache.put((table.id, seq), Snapshot(seq, state, tuple(effective)))
    return table


def replayed(data: Any, *, fitted: bool = False) -> tuple[str, list[str], Any, Any, list[tuple[dict[str, Any], int | None]], Any]:
    """An export checked and its effective events replayed through the engine, nothing stored:
    its game, names, mode, options, the events with their authors, and the state they reach."""
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
            err = from_engine(exc, names, fitted=fitted)
            raise TableError(err.status, err.code, tr("event %(n)s: %(message)s", n=number, message=err.message),
                             err.rule) from exc
    return game, names, mode, options, payloads, state


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
