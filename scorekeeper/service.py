"""Tables as event streams: open a table, append an event with optimistic concurrency, undo, replay.

The web layer (HTML and JSON alike) calls only this module; it never touches the engine's
state directly except to read it.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import logging
import re
import secrets
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.attributes import set_committed_value

from scorekeeper.engine import RULES
from scorekeeper.engine.base import MODES, MalformedEvent, NotationError, RuleViolation, SetupError
from scorekeeper.extensions import db
from scorekeeper.localize import localize, tr
from scorekeeper.models import Event, Seat, Table, utcnow

logger = logging.getLogger(__name__)

MAX_NAME = 40
MAX_EVENT_BYTES = 8_000
MAX_EVENTS_PER_IMPORT = 20_000


class TableError(Exception):
    """Anything the service refuses; carries its HTTP status and the rule id where there is one."""

    def __init__(self, status: int, code: str, message: str, rule: str | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.rule = rule
        self.extra = extra

    def to_json(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "rule": self.rule, "message": self.message}, **self.extra}


def bad_request(message: str) -> TableError:
    return TableError(400, "bad_request", message)


# An engine that trips over a strange payload (a list where a card was expected, …) must not
# take the table down: the request is refused as malformed and the bug is logged.
ENGINE_SLIPS = (TypeError, KeyError, IndexError, AttributeError, ValueError, RecursionError)


def from_engine(exc: Exception, names: Sequence[str] | None = None, **extra: Any) -> TableError:
    """The engine's refusal as the service's, its message in the reader's language with the
    players named (``names``: the table's players, seat by seat)."""
    if isinstance(exc, NotationError):
        return TableError(400, "bad_notation", tr(exc.template, **exc.values), **extra)
    if isinstance(exc, MalformedEvent):
        return TableError(400, "malformed_event", localize(exc.message, names), **extra)
    if isinstance(exc, SetupError):
        return TableError(422, "unsupported", localize(exc.message, names), exc.rule, **extra)
    if isinstance(exc, RuleViolation):
        return TableError(422, "illegal_move", localize(exc.message, names), exc.rule, **extra)
    if isinstance(exc, ENGINE_SLIPS):
        logger.exception("engine error on an event")
        return TableError(400, "malformed_event", tr("this event cannot be read (%(error)s)",
                                                     error=type(exc).__name__), **extra)
    raise exc


# --- Snapshots and their cache --------------------------------------------------------------


@dataclass(frozen=True)
class Snapshot:
    """The state at ``seq`` and the stack of effective events (seq, payload) that produced it."""

    seq: int
    state: Any
    effective: tuple[tuple[int, dict[str, Any]], ...] = field(default=())


class SnapshotCache:
    """Per-process LRU keyed by ``(table_id, head_seq)``; a new seq is a new key, so no invalidation."""

    def __init__(self, size: int = 512) -> None:
        self._size = size
        self._items: OrderedDict[tuple[str, int], Snapshot] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: tuple[str, int]) -> Snapshot | None:
        with self._lock:
            snap = self._items.get(key)
            if snap is not None:
                self._items.move_to_end(key)
                self.hits += 1
            else:
                self.misses += 1
            return snap

    def put(self, key: tuple[str, int], snap: Snapshot) -> None:
        with self._lock:
            self._items[key] = snap
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


cache = SnapshotCache()


# Table options the platform keeps for itself, never shown to the engine (which refuses unknown keys):
# ``review_after_deal`` holds the post-deal review of a deal until that deal is over.
PLATFORM_OPTIONS = ("review_after_deal",)


def engine_options(options: Any) -> Any:
    """``options`` without the platform's own keys (anything that is not a dict is the engine's to refuse)."""
    if not isinstance(options, dict) or not any(key in options for key in PLATFORM_OPTIONS):
        return options
    return {k: v for k, v in options.items() if k not in PLATFORM_OPTIONS}


def rules_for(table: Table) -> Any:
    return RULES[table.game]


def new_state(table: Table) -> Any:
    return rules_for(table).new(table.players, engine_options(table.options or {}), table.mode)


def effective_events(rows: Sequence[tuple[int, dict[str, Any]]]) -> list[tuple[int, dict[str, Any]]]:
    """Undo retracts the latest effective event; what is left is what the engine folds over."""
    stack: list[tuple[int, dict[str, Any]]] = []
    for seq, payload in rows:
        if payload.get("type") == "undo":
            if stack:
                stack.pop()
        else:
            stack.append((seq, payload))
    return stack


def replay(table: Table, effective: Sequence[tuple[int, dict[str, Any]]]) -> Any:
    rules = rules_for(table)
    state = new_state(table)
    for _seq, payload in effective:
        state = rules.apply(state, payload)
    return state


def snapshot(table: Table) -> Snapshot:
    key = (table.id, table.head_seq)
    snap = cache.get(key)
    if snap is not None:
        return snap
    rows = db.session.execute(
        select(Event.seq, Event.payload).where(Event.table_id == table.id, Event.seq <= table.head_seq).order_by(Event.seq)
    ).all()
    effective = effective_events([(seq, payload) for seq, payload in rows])
    snap = Snapshot(table.head_seq, replay(table, effective), tuple(effective))
    cache.put(key, snap)
    return snap


def state_json(table: Table, snap: Snapshot | None = None) -> dict[str, Any]:
    snap = snap or snapshot(table)
    return localize(dict(rules_for(table).to_json(snap.state)), table.players)  # type: ignore[no-any-return]


# --- Opening and finding tables -------------------------------------------------------------


# Formatting without letters of its own: a bidi override in a name would reverse the text beside
# it on every phone, a zero-width space makes "Anna" and "An\u200bna" two players who look alike.
_INVISIBLE = re.compile("[\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
# Not text at all: NUL and lone surrogates cannot even be stored (PostgreSQL refuses both, SQLite
# the surrogates); other control characters have no place in a name.
_NOT_TEXT = re.compile("[\x00\ud800-\udfff]")


def _fold(name: str) -> str:
    """The name as two players could confuse it: case, compatibility forms and joiners ignored."""
    return "".join(c for c in unicodedata.normalize("NFKC", name).casefold() if unicodedata.category(c) != "Cf")


def clean_players(players: Any) -> list[str]:
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise bad_request(tr("players must be a list of names"))
    if any(unicodedata.category(c) in ("Cc", "Cs") for p in players for c in p if not c.isspace()):
        raise bad_request(tr("a player's name holds a control character"))
    names = [" ".join(_INVISIBLE.sub("", p).split()) for p in players]
    for name in names:
        if not name:
            raise bad_request(tr("a player's name is empty"))
        if len(name) > MAX_NAME:
            raise bad_request(tr("the name %(name)s… is longer than %(max)s characters", name=repr(name[:20]),
                                 max=MAX_NAME))
    folded = [_fold(n) for n in names]
    dupes = sorted({n for n, f in zip(names, folded, strict=True) if folded.count(f) > 1})
    if dupes:
        raise bad_request(tr("two players share the name %(name)s", name=repr(dupes[0])))
    return names


def create_table(game: Any, players: Any, mode: Any = "adjudicate", options: Any = None) -> Table:
    if not isinstance(game, str) or game not in RULES:
        known = ", ".join(RULES)
        raise bad_request(tr("unknown game %(game)s; this server plays %(known)s", game=repr(game), known=known))
    names = clean_players(players)
    if mode is None:
        mode = "adjudicate"
    if mode not in MODES:
        raise bad_request(tr("mode must be 'adjudicate' or 'tally', not %(mode)s", mode=repr(mode)))
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise bad_request(tr("options must be an object"))
    rules = RULES[game]
    for key in PLATFORM_OPTIONS:
        if key in options and not isinstance(options[key], bool):
            raise TableError(422, "unsupported", f"option {key!r} must be true or false, not {options[key]!r}")
    try:
        rules.new(names, engine_options(options), mode)
    except (SetupError, RuleViolation) as exc:
        raise from_engine(exc) from exc
    except MalformedEvent as exc:
        raise TableError(422, "unsupported", localize(exc.message, names)) from exc
    table = Table(
        id=secrets.token_urlsafe(8)[:10],
        game=game,
        mode=mode,
        options=options,
        write_token=secrets.token_urlsafe(24),  # 192 bits
        read_token=secrets.token_urlsafe(24),
    )
    table.seats = [Seat(index=i, name=name) for i, name in enumerate(names)]
    db.session.add(table)
    db.session.commit()
    return table


def get_table(table_id: str) -> Table:
    table = db.session.get(Table, table_id) if isinstance(table_id, str) and len(table_id) <= 16 else None
    if table is None:
        raise TableError(404, "not_found", tr("there is no table %(table)s", table=repr(table_id)))
    return table


def capability(table: Table, token: str | None) -> str | None:
    """'write', 'read' or None; compared in constant time so a token cannot be guessed byte by byte."""
    if not token:
        return None
    given = token.encode()
    if hmac.compare_digest(given, table.write_token.encode()):
        return "write"
    if hmac.compare_digest(given, table.read_token.encode()):
        return "read"
    return None


# --- Writing ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Recorded:
    seq: int
    scored: list[dict[str, Any]]
    state: dict[str, Any]


def check_event(event: Any) -> dict[str, Any]:
    if not isinstance(event, dict):
        raise TableError(400, "malformed_event", tr("an event must be a JSON object"))
    kind = event.get("type")
    if not isinstance(kind, str) or not kind or len(kind) > 32:
        raise TableError(400, "malformed_event", tr("an event needs a 'type'"))
    if kind == "undo":
        raise TableError(400, "malformed_event", tr("undo has its own call: POST …/undo"))
    if len(json.dumps(event)) > MAX_EVENT_BYTES:
        raise TableError(400, "malformed_event", tr("an event may hold at most %(n)s bytes", n=MAX_EVENT_BYTES))
    if _holds_non_text(event):
        raise TableError(400, "malformed_event", tr("an event's text may not hold NUL or lone surrogate characters"))
    return event


def _holds_non_text(value: Any) -> bool:
    stack = [value]
    while stack:  # a loop, not recursion: the nesting was bounded when the JSON was read, but need not be
        item = stack.pop()
        if isinstance(item, str):
            if _NOT_TEXT.search(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _conflict(table_id: str) -> TableError:
    db.session.rollback()
    table = get_table(table_id)
    return TableError(409, "stale", tr("the sheet has moved on to seq %(seq)s; here is the fresh one", seq=table.head_seq),
                      seq=table.head_seq, state=state_json(table))


def _append(table: Table, seq: int, payload: dict[str, Any], author: int | None) -> bool:
    """Claim ``seq`` for ``payload``; False when another phone got there first."""
    from scorekeeper.live import notify_in_transaction

    claimed = db.session.execute(
        update(Table).where(Table.id == table.id, Table.head_seq == seq - 1)
        .values(head_seq=seq, updated_at=utcnow())
    ).rowcount
    if claimed != 1:
        db.session.rollback()
        return False
    db.session.add(Event(table_id=table.id, seq=seq, type=payload["type"], payload=payload, author=author))
    notify_in_transaction(db.session, table.id, seq)
    try:
        db.session.commit()
    except (IntegrityError, OperationalError):
        db.session.rollback()
        return False
    return True


# SQLite has one writer at a time; its busy handler makes colliding writers sleep in steps of
# up to 100 ms. Queueing this process's writers on a lock instead keeps the tail short.
_sqlite_writer = threading.Lock()


def _writer_lock() -> Any:
    return _sqlite_writer if db.engine.dialect.name == "sqlite" else contextlib.nullcontext()


def _queue_on_row(table: Table) -> None:
    """PostgreSQL: writers of one table wait their turn on its row (``FOR UPDATE``) and then read
    the head. Racing the conditional update alone, one of thirty phones at once could lose twenty
    races in a row and be told the table was busy (503)."""
    if db.engine.dialect.name != "postgresql":
        return
    head = db.session.execute(select(Table.head_seq).where(Table.id == table.id).with_for_update()).scalar()
    if head is None:  # expired while this phone was writing
        db.session.rollback()
        raise TableError(404, "not_found", tr("there is no table %(table)s", table=repr(table.id)))
    set_committed_value(table, "head_seq", head)  # what the lock read, without another round trip


Step = Callable[[Table, Snapshot], tuple[dict[str, Any], Any, tuple[tuple[int, dict[str, Any]], ...]]]


def _write(table: Table | str, step: Step, author: int | None, expected_seq: int | None = None) -> tuple[Table, int, Any]:
    """Append what ``step`` derives from the current snapshot, retrying on a lost race
    (or answering 409 when the caller named the seq it expected)."""
    table_id = table if isinstance(table, str) else table.id
    current = table if isinstance(table, Table) else None
    with _writer_lock():
        for _attempt in range(20):
            current = current or get_table(table_id)
            _queue_on_row(current)
            if expected_seq is not None and expected_seq != current.head_seq:
                raise _conflict(table_id)
            snap = snapshot(current)
            payload, state, effective = step(current, snap)
            seq = current.head_seq + 1
            if _append(current, seq, payload, author):
                cache.put((table_id, seq), Snapshot(seq, state, effective))
                _announce(table_id, seq)
                return current, seq, state
            if expected_seq is not None:
                raise _conflict(table_id)
            db.session.expire_all()
            current = None
    raise TableError(503, "busy", tr("the table is too busy right now; try again"))


def record(table: Table | str, event: Any, expected_seq: Any = None, author: int | None = None) -> Recorded:
    """Append one event. Without ``expected_seq`` a lost race is retried on the fresh state;
    with it, the caller is told the sheet moved (409)."""
    payload = check_event(event)
    if expected_seq is not None and (isinstance(expected_seq, bool) or not isinstance(expected_seq, int)):
        raise bad_request(tr("expected_seq must be a whole number"))

    def step(current: Table, snap: Snapshot) -> tuple[dict[str, Any], Any, tuple[tuple[int, dict[str, Any]], ...]]:
        try:
            state = rules_for(current).apply(snap.state, payload)
        except (RuleViolation, *ENGINE_SLIPS) as exc:
            db.session.rollback()
            raise from_engine(exc, current.players, seq=snap.seq) from exc
        return payload, state, snap.effective + ((snap.seq + 1, payload),)

    rules = RULES[table.game] if isinstance(table, Table) else None
    current, seq, state = _write(table, step, author, expected_seq)
    rules = rules or RULES[current.game]
    return Recorded(seq, localize([s.to_json() for s in getattr(state, "scored", ())], current.players),
                    localize(dict(rules.to_json(state)), current.players))


def undo(table: Table | str, author: int | None = None, expected_seq: int | None = None) -> Recorded:
    def step(current: Table, snap: Snapshot) -> tuple[dict[str, Any], Any, tuple[tuple[int, dict[str, Any]], ...]]:
        if not snap.effective:
            db.session.rollback()
            raise TableError(409, "nothing_to_undo", tr("there is nothing to undo"), seq=snap.seq)
        effective = snap.effective[:-1]
        return {"type": "undo", "undoes": snap.effective[-1][0]}, replay(current, effective), effective

    rules = RULES[table.game] if isinstance(table, Table) else None
    current, seq, state = _write(table, step, author, expected_seq)
    rules = rules or RULES[current.game]
    return Recorded(seq, [], localize(dict(rules.to_json(state)), current.players))


def _announce(table_id: str, seq: int) -> None:
    from scorekeeper.live import broker

    broker.publish(table_id, seq)


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
    players = table.players
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
