"""Tables as event streams: open a table, append an event with optimistic concurrency, undo, replay.

The web layer (HTML and JSON alike) calls only this package; it never touches the engine's
state directly except to read it. ``errors`` (refusals), ``snapshots`` (replayed states and
their cache), ``tables`` (opening, finding, tokens), ``facts`` (what never changes about a table, kept per
process), ``store`` (the write's statements on the driver), ``writes`` (events and undo, one writer per
table), ``log`` (history, export, import).
"""

from __future__ import annotations

from scorekeeper.engine.base import RuleViolation
from scorekeeper.service.codes import new_codes
from scorekeeper.service.deletion import delete_table
from scorekeeper.service.errors import (
    ENGINE_SLIPS,
    MAX_EVENT_BYTES,
    MAX_EVENTS_PER_IMPORT,
    MAX_NAME,
    TABLE_GAME_RULE,
    TABLE_POSITION_RULE,
    TableError,
    bad_request,
    from_engine,
)
from scorekeeper.service.facts import TableFacts, facts_cache, facts_of, table_facts
from scorekeeper.service.log import (
    HistoryRow,
    describe_sides,
    export,
    history,
    import_table,
    seat_names,
    table_names,
)
from scorekeeper.service.options import PLATFORM_OPTIONS, engine_options
from scorekeeper.service.snapshots import (
    Snapshot,
    SnapshotCache,
    cache,
    effective_events,
    judged_replay,
    new_state,
    replay,
    rules_for,
    snapshot,
    state_json,
    stored_moves,
)
from scorekeeper.service.stored import Unreadable, Verdict, is_event
from scorekeeper.service.tables import (
    capability,
    clean_players,
    create_table,
    get_table,
    head_seq,
    owns,
)
from scorekeeper.service.writes import Recorded, announce_seats, check_event, record, undo

__all__ = [
    "ENGINE_SLIPS", "MAX_EVENTS_PER_IMPORT", "MAX_EVENT_BYTES", "MAX_NAME", "PLATFORM_OPTIONS", "HistoryRow",
    "Recorded", "RuleViolation", "announce_seats", "Snapshot", "SnapshotCache", "TableError", "bad_request", "cache", "capability",
    "check_event", "clean_players", "create_table", "describe_sides", "effective_events", "engine_options",
    "TABLE_GAME_RULE", "TABLE_POSITION_RULE", "export", "from_engine", "get_table", "head_seq", "history", "import_table", "new_state", "record", "replay", "rules_for",
    "seat_names", "snapshot", "table_names", "state_json", "undo", "TableFacts", "facts_cache", "facts_of",
    "table_facts", "judged_replay", "stored_moves", "Unreadable", "Verdict", "is_event", "delete_table",
    "new_codes", "owns",
]
