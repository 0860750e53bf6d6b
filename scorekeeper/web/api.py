"""The JSON API, ``/api/v1`` — a contract outside tests rely on (DESIGN.md §2)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request
from sqlalchemy.exc import IntegrityError
from werkzeug.routing import BaseConverter

from scorekeeper import metrics, service
from scorekeeper.engine.base import MalformedEvent
from scorekeeper.extensions import csrf, db, limiter
from scorekeeper.live import retry_ms
from scorekeeper.live import stream as live_stream
from scorekeeper.localize import tr
from scorekeeper.models import Table
from scorekeeper.service import TableError, TableFacts, origins
from scorekeeper.web.links import join_url, watch_url

bp = Blueprint("api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)  # the API authenticates with bearer tokens, not cookies


class TableId(BaseConverter):
    """A table id in a path: anything but ``import``, so ``/tables/import`` is only the import
    (its ``Allow`` says POST alone, as the OpenAPI document does, not GET as for a table)."""

    regex = "(?!import$)[^/]+"


bp.record_once(lambda state: state.app.url_map.converters.setdefault("table_id", TableId))


@bp.errorhandler(TableError)
def table_error(exc: TableError) -> tuple[Response, int, dict[str, str]]:
    return jsonify(exc.to_json()), exc.status, exc.headers


def _body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if data is None:
        raise TableError(400, "bad_request", tr("the body must be a JSON object (Content-Type: application/json)"))
    if not isinstance(data, dict):
        raise TableError(400, "bad_request", tr("the body must be a JSON object"))
    return data


def _token(stream: bool = False) -> str:
    header = request.headers.get("Authorization", "")
    token = header[7:].strip() if header.startswith("Bearer ") else ""
    # The query's token only for the event stream, whose EventSource cannot send a header: a
    # token in an address ends up in logs and browser histories. Even there only without any
    # Authorization header: a header that names something else does not fall back to it.
    if not header and stream:
        token = request.args.get("token", "")
    if not token:
        raise TableError(401, "unauthorized", tr("send the table's token as 'Authorization: Bearer <token>'"))
    return token


def _allowed(table: Table | TableFacts, token: str, need: str) -> None:
    if need == "owner":
        if not service.owns(table, token):
            # Told apart from a wrong token: a seated phone's write token is real, just not enough.
            if service.capability(table, token) is None:
                raise TableError(403, "forbidden", tr("that token does not open this table"))
            raise TableError(403, "forbidden", tr("only the owner capability (the phone or client that opened the table) may do this"))
        return
    cap = service.capability(table, token)
    if cap is None:
        raise TableError(403, "forbidden", tr("that token does not open this table"))
    if need == "write" and cap != "write":
        raise TableError(403, "forbidden", tr("a watch (read) token cannot write"))


def _authorised(table_id: str, need: str) -> Table:
    token = _token()
    table = service.get_table(table_id)
    _allowed(table, token, need)
    return table


def _writer(table_id: str) -> TableFacts:
    """A write authorised from the table's fixed facts, which this process keeps: the write
    itself reads the head it appends after, so nothing else of the table need be read here."""
    token = _token()
    facts = service.table_facts(table_id)
    _allowed(facts, token, "write")
    return facts


def table_json(table: Table) -> dict[str, Any]:
    snap = service.snapshot(table)
    return {"id": table.id, "game": table.game, "mode": table.mode, "options": table.options,
            "players": table.players, "seq": table.head_seq, "state": service.state_json(table, snap),
            "rules_version": table.rules_version, "stored_moves": service.stored_moves(table, snap)}


@bp.post("/tables")
@limiter.limit("RATE_LIMIT_CREATE")
def create() -> tuple[Response, int]:
    body = _body()
    from scorekeeper.web.circles_api import flag

    add_members = flag(body, "add_members")  # checked with or without a circle: the document types it
    if body.get("circle") is not None:  # kept in a circle: its write token is the bearer (issue 38)
        from scorekeeper.service.circles import open_table
        from scorekeeper.web.circles_api import circle_for

        if not isinstance(body["circle"], str):
            raise TableError(400, "bad_request", tr("circle must be a circle's id"))
        table = open_table(circle_for(body["circle"], "write"), body.get("game"), body.get("players"),
                           body.get("mode"), body.get("options"), add_members)
    else:
        table = service.create_table(body.get("game"), body.get("players"), body.get("mode"), body.get("options"))
    return jsonify({**_codes_json(table), "owner_token": table.owner_token, "seq": 0,
                    "state": service.state_json(table)}), 201


def _codes_json(table: Table) -> dict[str, Any]:
    return {"id": table.id, "write_token": table.write_token, "read_token": table.read_token,
            "join_url": join_url(table), "watch_url": watch_url(table)}


@bp.post("/tables/import")
@limiter.limit("RATE_LIMIT_CREATE")
def import_() -> tuple[Response, int]:
    data = _body()
    _check_export(data)
    table, new = imported(data, fitted=_schemas_checked())
    if not new:  # made before, from another phone's copy (service/origins.py): no second table, and
        # only its watch code: the origin travels with every copy, the join code only with the players.
        return jsonify({"id": table.id, "read_token": table.read_token, "watch_url": watch_url(table),
                        "seq": table.head_seq, "state": service.state_json(table), "imported_before": True}), 200
    return jsonify({**_codes_json(table), "owner_token": table.owner_token, "seq": table.head_seq,
                    "state": service.state_json(table)}), 201


def imported(data: dict[str, Any], *, fitted: bool = False) -> tuple[Table, bool]:
    """The table the export makes, and whether it is new: an export whose origin made one already
    finds it (two phones putting the same table on the server at once: the unique origin lets
    one of them make it, and the other finds it)."""
    found = origins.imported_before(data, fitted=fitted)
    if found is not None:
        return found, False
    try:
        return service.import_table(data, fitted=fitted, origin=origins.origin_of(data)), True
    except IntegrityError:
        db.session.rollback()
        found = origins.imported_before(data, fitted=fitted)
        if found is None:
            raise
        return found, False


EXPORT_FORMAT = "scorekeeper/1"


def _check_export(data: dict[str, Any]) -> None:
    """What the OpenAPI document says of an export beyond its set-up: its format, and every
    logged event in the shape of its game's events (as ``POST …/events`` checks them). The
    service then replays the events through the engine."""
    if data.get("format", EXPORT_FORMAT) != EXPORT_FORMAT:
        raise TableError(400, "bad_request", tr("an import must be an export in the format %(format)s, not %(given)s",
                                                format=repr(EXPORT_FORMAT), given=repr(data.get("format"))))
    if "origin" in data and origins.origin_of(data) is None:
        # A phone's export names its table so (service/origins.py); anything else there fits no document.
        raise TableError(400, "bad_request", tr("'origin' must be a table's origin as a phone exports it, not %(given)s",
                                                given=repr(data["origin"])[:80]))
    game, events = data.get("game"), data.get("events")
    if not isinstance(game, str) or not isinstance(events, list):
        return
    effective = 0
    idle: list[int] = []
    for number, item in enumerate(events, start=1):
        if not isinstance(item, dict) or "event" not in item:  # as exported: {"seq", "by", "at", "event"}
            raise TableError(400, "bad_request", tr("event %(n)s: %(message)s", n=number,
                                                    message=tr("an import needs a list of events")))
        payload = item["event"]
        if isinstance(payload, dict) and payload.get("type") == "undo":
            if not effective:  # no export holds one (the live API answers 409): it retracts nothing, and is not kept
                idle.append(number - 1)
            effective = max(effective - 1, 0)
            continue
        effective += 1
        if not isinstance(payload, dict):
            continue
        try:
            _schema_check(game, payload)
            _mode_check(game, data.get("mode") or "adjudicate", payload)
        except MalformedEvent as exc:
            err = service.from_engine(exc)
            raise TableError(err.status, err.code, tr("event %(n)s: %(message)s", n=number, message=err.message)) \
                from None
    for index in reversed(idle):
        del events[index]


@bp.get("/tables/<table_id:table_id>")
def show(table_id: str) -> Response:
    return jsonify(table_json(_authorised(table_id, "read")))


@bp.delete("/tables/<table_id:table_id>")
def delete(table_id: str) -> Response:
    """Erase the table: names, seats and events; its phones are told on their streams. Only the
    owner capability may: a photo of the join code must not erase an evening."""
    service.delete_table(_authorised(table_id, "owner"))
    return jsonify({"id": table_id, "deleted": True})


@bp.post("/tables/<table_id>/codes")
def codes(table_id: str) -> Response:
    """New join and watch tokens (owner only): the old ones open nothing from now on."""
    table = service.new_codes(_authorised(table_id, "owner"))
    return jsonify(_codes_json(table))


@bp.post("/tables/<table_id>/events")
@limiter.limit("RATE_LIMIT_EVENTS")
def post_event(table_id: str) -> tuple[Response, int]:
    table = _writer(table_id)
    body = _body()
    expected = body.pop("expected_seq", None)
    _check_shape(table.game, body)
    done = service.record(table, body, expected, fitted=_schemas_checked())
    return jsonify({"seq": done.seq, "events_scored": done.scored, "state": done.state}), 201


def _check_shape(game: str, event: dict[str, Any]) -> None:
    """The event against its game's schema model (scorekeeper/schemas), after the checks every
    event gets (a ``type``, not ``undo``, not too big); the engine then checks the rules."""
    service.check_event(event)
    try:
        _schema_check(game, event)
    except MalformedEvent as exc:
        # The document's body takes every game's events: one that fits another game's schema
        # fits the document, and it is this table that cannot take it.
        from scorekeeper.engine import RULES

        if any(_fits(other, event) for other in RULES if other != game):
            raise TableError(422, "illegal_move", tr("this table's game and mode take no such event: %(why)s",
                                                     why=service.from_engine(exc).message),
                             service.TABLE_GAME_RULE) from None
        raise service.from_engine(exc) from None


def _fits(game: str, event: dict[str, Any]) -> bool:
    try:
        _schema_check(game, event)
    except MalformedEvent:
        return False
    return True


def _mode_check(game: str, mode: Any, event: dict[str, Any]) -> None:
    """An import's events are its game's and mode's in the document (a tally sheet takes no card
    play): another mode's event does not fit the body, so it is 400 like any misfit."""
    from scorekeeper.engine import RULES

    if not _schemas_checked() or mode not in ("adjudicate", "tally") or game not in RULES:
        return  # a game there is none of is refused with its own message where the table is made
    if event.get("type") not in _mode_kinds(game, mode):
        raise MalformedEvent(f"a {mode} table takes no {event.get('type')!r} event", event)


@cache
def _mode_kinds(game: str, mode: str) -> frozenset[str]:
    from scorekeeper.web.openapi_bodies import mode_events

    return frozenset(mode_events(game, mode)["discriminator"]["mapping"])


def _schemas_checked() -> bool:
    """Whether each event was checked against its game's schema (not on a phone, ``PHONE``)."""
    return not current_app.config.get("PHONE")


def _schema_check(game: str, event: dict[str, Any]) -> None:
    """The schema models are pydantic's, whose core is compiled and not on a phone (``PHONE``):
    there the engine's own checks answer a malformed event (400 malformed_event, 422 with a rule)."""
    if not _schemas_checked():
        return
    from scorekeeper.schemas import check_event  # imported only where pydantic is installed

    check_event(game, event)


@bp.post("/tables/<table_id>/undo")
def undo(table_id: str) -> Response:
    done = service.undo(_writer(table_id))
    return jsonify({"seq": done.seq, "state": done.state})


@bp.get("/tables/<table_id>/events")
def events(table_id: str) -> Response:
    return jsonify(service.export(_authorised(table_id, "read")))


@bp.get("/tables/<table_id>/stream")
def stream(table_id: str) -> Response:
    # From the facts this process keeps and the head alone: after a restart every phone opens its
    # stream again within seconds, and each open must cost as little as it can.
    token = _token(stream=True)
    facts = service.table_facts(table_id)
    _allowed(facts, token, "read")
    return sse_response(facts.id, service.head_seq(facts.id))


class StreamGate:
    """Open event streams in this worker, in all and per client address, within their caps.

    Past the cap a phone is answered 503 with ``Retry-After`` and its EventSource retries later:
    connections stay free for moves and page loads. The per-address cap stops one client that
    opens streams and never reads from taking the server from every other table, yet is generous
    enough for a club whose Wi-Fi is one address for hundreds of phones.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.open = 0
        self.by_address: dict[str, int] = {}

    def enter(self, address: str, cap: int, per_address: int) -> str | None:
        """Count a stream in, or say which cap refuses it (``"server"`` or ``"address"``)."""
        with self._lock:
            if cap and self.open >= cap:
                return "server"
            held = self.by_address.get(address, 0)
            if per_address and held >= per_address:
                return "address"
            self.open += 1
            self.by_address[address] = held + 1
            return None

    def leave(self, address: str) -> None:
        with self._lock:
            self.open -= 1
            left = self.by_address.get(address, 1) - 1
            if left > 0:
                self.by_address[address] = left
            else:
                self.by_address.pop(address, None)


gate = StreamGate()


def sse_response(table_id: str, head: int, seats: bool = False) -> Response:
    """A table's event stream, through the gate (``gated_stream``)."""
    cfg = current_app.config
    return gated_stream(lambda: live_stream(
        table_id, head, ping_every=cfg["SSE_PING_SECONDS"], max_seconds=cfg["SSE_MAX_SECONDS"], seats=seats,
        retry_ms=retry_ms(int(cfg["SSE_RETRY_MS"]), int(cfg["SSE_RETRY_JITTER_MS"])),
        restart_ms=int(cfg["SSE_RESTART_SPREAD_MS"])), table_id)


def circle_sse_response(key: str, heads: bool = False) -> Response:
    """A circle's stream (its page's, with ``heads``, and the API's), held to the same caps as a table's."""
    from scorekeeper.live import changes

    cfg = current_app.config
    return gated_stream(lambda: changes(key, ping_every=cfg["SSE_PING_SECONDS"], max_seconds=cfg["SSE_MAX_SECONDS"],
                                        retry_ms=retry_ms(int(cfg["SSE_RETRY_MS"]), int(cfg["SSE_RETRY_JITTER_MS"])),
                                        heads=heads))


def gated_stream(make: Callable[[], Iterator[bytes]], table_id: str | None = None) -> Response:
    """The stream ``make`` opens, unless this worker holds its cap of streams (in all, or from
    this address): then 503 with ``Retry-After`` and the phone's EventSource retries.
    ``table_id``: the table whose watchers the metrics count (a circle's stream is none)."""
    cfg = current_app.config
    address = request.remote_addr or "-"
    refused = gate.enter(address, int(cfg.get("SSE_MAX_STREAMS") or 0), int(cfg.get("SSE_MAX_PER_ADDRESS") or 0))
    if refused is not None:
        metrics.stream_refused(metrics.CAP if refused == "server" else metrics.PER_ADDRESS)
        wait = str(retry_ms(5, 25))  # seconds: spread the retries of a crowd turned away together
        raise TableError(503, "busy", tr("too many open live streams on this server; retrying"),
                         headers={"Retry-After": wait})
    if table_id is not None:
        metrics.stream_opened(table_id)
    return Response(OpenStream(make(), address, table_id), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
                    direct_passthrough=True)  # bytes already: no encoding generator per phone


class OpenStream:
    """The stream as the server iterates it, counted out of the gate once however it ends.

    Iterating yields the generator itself, so a phone's stream costs no wrapping layer (each
    would keep ~3 kB per open phone); the server calls ``close()`` when the phone goes."""

    __slots__ = ("_address", "_gen", "_table")

    def __init__(self, gen: Any, address: str, table_id: str | None) -> None:
        self._gen = gen
        self._address: str | None = address
        self._table = table_id

    def __iter__(self) -> Any:
        return self._gen

    def close(self) -> None:
        try:
            self._gen.close()
        finally:
            if self._address is not None:
                gate.leave(self._address)
                self._address = None
                if self._table is not None:
                    metrics.stream_closed(self._table)


def open_streams() -> int:
    return gate.open


@bp.get("/games")
def games() -> Response:
    from scorekeeper.engine import RULES

    return jsonify({"games": [
        {"id": r.id, "name": r.name, "min_players": r.min_players, "max_players": r.max_players,
         "options": [{"key": o.key, "default": o.default, "rule": o.rule, "kind": o.kind,
                      "choices": list(o.choices)} for o in r.option_specs]}
        for r in RULES.values()
    ]})


@bp.get("/openapi.json")
def openapi() -> Response:
    from scorekeeper.web.openapi import document

    return jsonify(document())
