"""The circles' JSON API under ``/api/v1/circles`` (issue 38): tokens in the Authorization header only."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, url_for
from werkzeug.routing import BaseConverter

from scorekeeper import service
from scorekeeper.extensions import csrf, limiter
from scorekeeper.localize import tr
from scorekeeper.models import Circle
from scorekeeper.service import TableError
from scorekeeper.service import circles as circles_service
from scorekeeper.service.errors import CIRCLE_TABLE_RULE
from scorekeeper.service.standings import circle_view, parse_season
from scorekeeper.web.links import base_url

bp = Blueprint("circles_api", __name__, url_prefix="/api/v1/circles")
csrf.exempt(bp)


class CircleId(BaseConverter):
    """A circle id in a path: anything but ``import``, so ``/circles/import`` allows POST alone."""

    regex = "(?!import$)[^/]+"


bp.record_once(lambda state: state.app.url_map.converters.setdefault("circle_id", CircleId))

CIRCLE_FORMAT = "scorekeeper-circle/1"


@bp.errorhandler(TableError)
def circle_error(exc: TableError) -> tuple[Response, int, dict[str, str]]:
    return jsonify(exc.to_json()), exc.status, exc.headers


def _body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise TableError(400, "bad_request", tr("the body must be a JSON object (Content-Type: application/json)"))
    return data


def bearer() -> str:
    header = request.headers.get("Authorization", "")
    token = header[7:].strip() if header.startswith("Bearer ") else ""
    if not token:
        raise TableError(401, "unauthorized", tr("send the circle's token as 'Authorization: Bearer <token>'"))
    return token


def circle_for(circle_id: str, need: str) -> Circle:
    """The circle, if the bearer token opens it for ``need`` ('read', 'write' or 'owner')."""
    token = bearer()
    circle = circles_service.get_circle(circle_id)
    cap = circles_service.capability(circle, token)
    if cap is None:
        raise TableError(403, "forbidden", tr("that token does not open this circle"))
    if not circles_service.allows(cap, need):
        if need == "owner":
            raise TableError(403, "forbidden", tr("only the circle's owner may do this"))
        raise TableError(403, "forbidden", tr("a watch (read) token cannot write"))
    return circle


def flag(body: dict[str, Any], key: str) -> bool:
    value = body.get(key, False)
    if not isinstance(value, bool):
        raise TableError(400, "bad_request", tr("%(key)s must be true or false", key=key))
    return value


def circle_join_url(circle: Circle) -> str:
    return base_url() + url_for("circles.enter", circle_id=circle.id, token=circle.write_token)


def circle_watch_url(circle: Circle) -> str:
    return base_url() + url_for("circles.enter", circle_id=circle.id, token=circle.read_token)


def _tokens(circle: Circle, owner: bool = True) -> dict[str, Any]:
    body = {"id": circle.id, "write_token": circle.write_token, "read_token": circle.read_token,
            "join_url": circle_join_url(circle), "watch_url": circle_watch_url(circle)}
    if owner:
        body["owner_token"] = circle.owner_token
    return body


@bp.post("")
@limiter.limit("RATE_LIMIT_CREATE")
def create() -> tuple[Response, int]:
    body = _body()
    circle = circles_service.create_circle(body.get("name"), body.get("members"))
    return jsonify(_tokens(circle)), 201


def view_json(circle: Circle) -> dict[str, Any]:
    view = circle_view(circle, parse_season(request.args))
    return {key: value for key, value in view.items() if key != "timeline"}


@bp.get("/<circle_id:circle_id>")
def show(circle_id: str) -> Response:
    return jsonify(view_json(circle_for(circle_id, "read")))


@bp.patch("/<circle_id:circle_id>")
def rename(circle_id: str) -> Response:
    circle = circle_for(circle_id, "write")
    body = _body()
    if "name" in body:
        circles_service.rename(circle, body["name"])
    if "members" in body:
        circles_service.add_members(circle, body["members"])
    return jsonify({"id": circle.id, "name": circle.name,
                    "members": [{"name": m.name, "aliases": list(m.aliases or [])} for m in circle.members]})


@bp.delete("/<circle_id:circle_id>")
def delete(circle_id: str) -> Response:
    circle = circle_for(circle_id, "owner")
    erased = circles_service.delete_circle(circle)
    return jsonify({"id": circle_id, "deleted": True, "tables": erased})


@bp.post("/<circle_id>/codes")
def codes(circle_id: str) -> Response:
    circle = circles_service.new_codes(circle_for(circle_id, "owner"))
    return jsonify(_tokens(circle, owner=False))


@bp.post("/<circle_id>/tables")
def add_table(circle_id: str) -> tuple[Response, int]:
    circle = circle_for(circle_id, "write")
    body = _body()
    table_id, token = body.get("table_id"), body.get("token")
    if not isinstance(table_id, str) or not isinstance(token, str):
        raise TableError(400, "bad_request", tr("send the table's id as 'table_id' and its write token as 'token'"))
    try:
        table = service.get_table(table_id)
    except TableError as exc:
        if exc.status != 404:
            raise
        # The call's address names the circle, which is there: a 404 would say it is not (and a
        # client following the link from the new circle would take it for gone).
        raise TableError(422, "unknown_table", tr("there is no table %(table)s", table=repr(table_id)),
                         CIRCLE_TABLE_RULE) from exc
    if service.capability(table, token) != "write":
        raise TableError(403, "forbidden", tr("'token' must be the table's write token"))
    added = circles_service.add_table(circle, table, flag(body, "add_members"))
    return jsonify({"circle": circle.id, "table_id": table.id, "added": added}), 201 if added else 200


@bp.delete("/<circle_id>/tables/<table_id>")
def remove_table(circle_id: str, table_id: str) -> Response:
    """The table leaves the circle and its standings; it stays itself, with its own tokens."""
    circle = circle_for(circle_id, "write")
    circles_service.remove_table(circle, service.get_table(table_id))
    return jsonify({"circle": circle.id, "table_id": table_id, "removed": True})


@bp.get("/<circle_id>/export")
def export(circle_id: str) -> Response:
    circle = circle_for(circle_id, "read")
    tables = []
    for tid in circles_service.table_ids(circle.id):
        table = service.get_table(tid)
        # When it was opened, which its log does not say: the season counts an unfinished table by it.
        tables.append({**service.export(table), "opened": table.created_at.isoformat() + "Z"})
    return jsonify({"format": CIRCLE_FORMAT, "name": circle.name,
                    "members": [{"name": m.name, "aliases": list(m.aliases or [])} for m in circle.members],
                    "tables": tables})


@bp.post("/import")
@limiter.limit("RATE_LIMIT_CREATE")
def import_() -> tuple[Response, int]:
    body = _body()
    if body.get("format") != CIRCLE_FORMAT:
        raise TableError(400, "bad_request", tr("an import must be an export in the format %(format)s, not %(given)s",
                                                format=repr(CIRCLE_FORMAT), given=repr(body.get("format"))))
    tables = body.get("tables")
    most = int(current_app.config["CIRCLE_MAX_IMPORT"])
    if not isinstance(tables, list) or len(tables) > most:
        raise TableError(400, "bad_request", tr("a circle's import needs a list of at most %(max)s tables", max=most))
    from scorekeeper.web.api import _check_export, _schemas_checked

    for number, table in enumerate(tables, start=1):  # each as POST /api/v1/tables/import checks it
        if not isinstance(table, dict):
            raise TableError(400, "bad_request", tr("table %(n)s: %(message)s", n=number,
                                                    message=tr("an import must be a JSON object as exported")))
        try:
            _check_export(table)
        except TableError as exc:
            raise TableError(exc.status, exc.code, tr("table %(n)s: %(message)s", n=number, message=exc.message),
                             exc.rule) from exc
    circle, made = circles_service.import_circle(body.get("name"), body.get("members"), tables,
                                                 fitted=_schemas_checked())
    return jsonify({**_tokens(circle), "tables": made}), 201


@bp.get("/<circle_id>/stream")
def stream(circle_id: str) -> Response:
    from scorekeeper.web.api import circle_sse_response

    return circle_sse_response(circles_service.channel(circle_for(circle_id, "read").id))
