"""The OpenAPI 3.1 description of ``/api/v1`` (served at ``/api/v1/openapi.json``; fuzzed by schemathesis)."""

from __future__ import annotations

from typing import Any

from flask import current_app

from scorekeeper.engine import RULES
from scorekeeper.web import openapi_bodies as bodies
from scorekeeper.web.openapi_circles import (
    KEEP_IN_CIRCLE,
    LEAVE_CIRCLE,
    circle_components,
    circle_paths,
)

ERROR = {"$ref": "#/components/schemas/Error"}


def _errors(*codes: int) -> dict[str, Any]:
    return {str(c): {"description": "error", "content": {"application/json": {"schema": ERROR}}} for c in codes}


def _ok(status: int, schema: dict[str, Any]) -> dict[str, Any]:
    return {str(status): {"description": "ok", "content": {"application/json": {"schema": schema}}}}


TABLE_ID = {"name": "table_id", "in": "path", "required": True, "schema": {"type": "string", "maxLength": 32}}


def _any(names: list[str]) -> dict[str, Any]:
    return {"anyOf": [{"$ref": f"#/components/schemas/{name}"} for name in names]}


def options_schema(game: str) -> dict[str, Any]:
    """A game's house rules as its ``OptionSpec`` list declares them (the engine refuses any other
    key), with the rules that tie them together; what the number of players adds (teams, the
    52-card pack) is in ``NewTable``, per game."""
    rules = RULES[game]
    return {**bodies.options_schema(game), "title": f"{game} options",
            "description": f"{rules.name}: house rules, each with the rule id it changes"}


# How a client gets from a new table to everything done with it: the id, and a token in the
# Authorization header (the write token to write, the read token to read). No operation here
# takes one in the query: an address lands in access logs (only the event stream, not described
# here, takes ``?token=``, for EventSource).
READ = {"path.table_id": "$response.body#/id", "header.Authorization": "Bearer {$response.body#/read_token}"}
WRITE = {"path.table_id": "$response.body#/id", "header.Authorization": "Bearer {$response.body#/write_token}"}
# The owner capability (the opener's): the only one that deletes the table or makes new codes.
OWNER = {"path.table_id": "$response.body#/id", "header.Authorization": "Bearer {$response.body#/owner_token}"}
# A move every new score pad accepts (1 point to the first side), so a client — or a fuzzer — that
# does not know the game's moves can still write one and undo it; other games refuse it as not theirs.
FIRST_POINTS = {"operationId": "postEvent", "parameters": WRITE, "requestBody": {"type": "points", "side": 0, "points": 1},
                "x-schemathesis": {"merge_body": False},
                "description": "a score pad's first entry, with the write token (400 at any other game's table)"}
TABLE_LINKS = {
    "GetTable": {"operationId": "getTable", "parameters": READ, "description": "the table, with the read token"},
    "PostEvent": {"operationId": "postEvent", "parameters": WRITE, "description": "an event, with the write token"},
    "ExportEvents": {"operationId": "exportEvents", "parameters": READ, "description": "the log, with the read token"},
    "Undo": {"operationId": "undo", "parameters": WRITE, "description": "undo, with the write token"},
    "ScorePadPoints": FIRST_POINTS,
    "ReviewDeal": {"operationId": "reviewDeal", "parameters": READ, "description": "the review, with the read token"},
    "NewCodes": {"operationId": "newCodes", "parameters": OWNER,
                 "description": "new join and watch codes, with the owner token"},
    "DeleteTable": {"operationId": "deleteTable", "parameters": OWNER, "description": "erase the table, with the owner token"},
}
# New codes: the table read with the new read token (the old one opens nothing any more).
CODES_LINKS = {"GetTable": {"operationId": "getTable", "description": "the table, with the new read token",
                            "parameters": {"path.table_id": "$request.path.table_id",
                                           "header.Authorization": "Bearer {$response.body#/read_token}"}}}
# After a move, the next move, its undo, or the review of the deal it may have finished, on the
# same table with the same (write) token.
SAME_TABLE = {"path.table_id": "$request.path.table_id", "header.Authorization": "$request.header.Authorization"}
MOVE_LINKS = {
    "PostEvent": {"operationId": "postEvent", "parameters": SAME_TABLE, "description": "the next event"},
    "Undo": {"operationId": "undo", "parameters": SAME_TABLE, "description": "undo this event"},
    "ReviewDeal": {"operationId": "reviewDeal", "parameters": SAME_TABLE, "description": "the review of the deal"},
}
AUTH = [{"bearer": []}]
# Every body is refused past MAX_CONTENT_LENGTH (413); a SQLite write that loses its retries is 503.
BODY, BUSY = 413, 503


def document() -> dict[str, Any]:
    from scorekeeper.schemas import GAMES, components

    games = [game for game in RULES if game in GAMES]
    state = {**_any([GAMES[g].STATE.__name__ for g in games]),
             "description": "the table's state: the four common fields and its game's own (see each <Game>State)"}
    codes = {"id": {"type": "string"}, "write_token": {"type": "string", "description": "writes (the join code)"},
             "read_token": {"type": "string", "description": "reads (the watch code)"},
             "join_url": {"type": "string"}, "watch_url": {"type": "string"}}
    created = {"type": "object", "required": ["id", "write_token", "read_token", "owner_token", "join_url", "watch_url",
                                              "seq", "state"],
               "properties": {**codes, "seq": {"type": "integer"}, "state": state,
                              "owner_token": {"type": "string", "description": "the opener's: deletes the table and "
                                                                               "makes new codes; keep it private"}}}
    table = {"type": "object", "required": ["id", "game", "mode", "options", "players", "seq", "state"],
             "properties": {"id": {"type": "string"}, "game": {"type": "string", "enum": games},
                            "mode": {"type": "string", "enum": ["adjudicate", "tally"]}, "options": {"type": "object"},
                            "players": {"type": "array", "items": {"type": "string"}}, "seq": {"type": "integer"},
                            "state": state,
                            "rules_version": {"type": ["integer", "null"],
                                              "description": "the rules version the table began under (CHANGELOG.md)"},
                            "stored_moves": {"type": "array", "description": "stored moves this version judges "
                                             "otherwise, once each (docs/api.md)", "items": {
                                "type": "object", "required": ["seq", "status", "rule", "message"],
                                "properties": {"seq": {"type": "integer"},
                                               "status": {"type": "string", "enum": ["stands", "set_aside", "damaged"]},
                                               "rule": {"type": ["string", "null"]}, "message": {"type": "string"}}}}}}
    recorded = {"type": "object", "required": ["seq", "events_scored", "state"],
                "properties": {"seq": {"type": "integer"}, "state": state,
                               "events_scored": {"type": "array", "items": {"$ref": "#/components/schemas/Scored"}}}}
    created_links = {"201": {**_ok(201, created)["201"], "links": TABLE_LINKS}}
    # An export whose origin made a table already (a phone's copy, issue 39): that table, its watch code only.
    later = {"owner_token", "write_token", "join_url"}
    imported_before = {**created, "required": [k for k in created.get("required", []) if k not in later],
                       "properties": {**{k: v for k, v in created.get("properties", {}).items() if k not in later},
                                      "imported_before": {"const": True}}}
    opened_links = {"201": {**_ok(201, created)["201"], "links": {**TABLE_LINKS, "KeepInCircle": KEEP_IN_CIRCLE,
                                                                       "LeaveCircle": LEAVE_CIRCLE}}}
    body = {"required": True, "content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/NewTable"},
        "examples": {"scorepad": {"value": {"game": "scorepad", "players": ["Anna", "Bo"]}}}}}}
    export = {"required": True, "content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/Export"},
        "examples": {"scorepad": {"value": {"format": "scorekeeper/1", "game": "scorepad", "players": ["Anna", "Bo"],
                                            "events": [{"event": {"type": "points", "side": 0, "points": 3}}]}}}}}}
    event = {**_any([f"{g.title()}Event" for g in games]),
             "description": "one event of the table's game and mode (see each <Game><Mode>Event, discriminated on "
                            "`type`): the table, not this body, says which. One that fits this document but not the table "
                            "(another game or mode, a field its position needs) is 422 with a rule id (TABLE-EVENT-1, "
                            "TABLE-EVENT-2), one the position forbids 422 with the game's rule"}
    paths: dict[str, Any] = {
        "/api/v1/tables": {"post": {
            # The bearer is optional: only a table kept in a circle names one (the circle's write token).
            # A parameter, not a security requirement, so that a link from the answer passes it on
            # (KeepInCircle) and no check expects a 401 from a table that needs no token.
            "operationId": "createTable", "requestBody": body,
            "parameters": [{"name": "Authorization", "in": "header", "required": False, "schema": {"type": "string"},
                            "description": "`Bearer <the circle's write token>` with `circle`; ignored without"}],
            "description": "Open a table; with `circle`, kept in that circle (its write token as the bearer; "
                           "401/403/404 for the circle, 422 `not_members` unless `add_members`).",
            "responses": {**opened_links, **_errors(400, 401, 403, 404, BODY, 422, 429, BUSY)}}},
        "/api/v1/tables/import": {"post": {
            "operationId": "importTable", "requestBody": export,
            "responses": {**created_links, **_ok(200, imported_before), **_errors(400, 403, 409, BODY, 422, 429, BUSY)}}},
        "/api/v1/tables/{table_id}": {"get": {
            "operationId": "getTable", "parameters": [TABLE_ID], "security": AUTH,
            "responses": {**_ok(200, table), **_errors(401, 403, 404)}},
            "delete": delete_table()},
        "/api/v1/tables/{table_id}/events": {
            "post": {"operationId": "postEvent", "parameters": [TABLE_ID], "security": AUTH,
                     "requestBody": {"required": True, "content": {"application/json": {"schema": event}}},
                     "responses": {"201": {**_ok(201, recorded)["201"], "links": MOVE_LINKS},
                                   **_errors(400, 401, 403, 404, 409, BODY, 422, 429, BUSY)}},
            "get": {"operationId": "exportEvents", "parameters": [TABLE_ID], "security": AUTH,
                    "responses": {**_ok(200, {"$ref": "#/components/schemas/Export"}), **_errors(401, 403, 404)}}},
        "/api/v1/tables/{table_id}/undo": {"post": {
            "operationId": "undo", "parameters": [TABLE_ID], "security": AUTH,
            "responses": {**_ok(200, {"type": "object", "required": ["seq", "state"],
                                      "properties": {"seq": {"type": "integer"}, "state": state}}),
                          **_errors(401, 403, 404, 409, BUSY)}}},
        "/api/v1/tables/{table_id}/codes": {"post": {
            "operationId": "newCodes", "parameters": [TABLE_ID], "security": AUTH,
            "description": "New join and watch codes (owner token only): the old write and read tokens open nothing "
                           "from now on; phones already seated keep their seats. This is how a leaked code is revoked.",
            "responses": {"200": {**_ok(200, {"type": "object", "required": list(codes), "properties": codes})["200"],
                                  "links": CODES_LINKS},
                          **_errors(401, 403, 404, BUSY)}}},
        "/api/v1/games": {"get": {"operationId": "games", "responses": _ok(200, {"type": "object"})}},
        "/api/v1/tables/{table_id}/review": {"get": {
            "operationId": "reviewDeal", "security": AUTH,
            "parameters": [TABLE_ID, {"name": "deal", "in": "query", "required": False,
                                      "schema": {"type": "integer", "minimum": 1, "maximum": 99999}}],
            "responses": {**_ok(200, {"type": "object", "required": ["deal", "deals", "over", "hidden", "lines"]}),
                          **_errors(400, 401, 403, 404, 422)}}},
        **circle_paths(),
    }
    # One operation per game: what the desk reads depends on the game in the path.
    for game in bodies.desk_bodies():
        paths[f"/api/v1/desk/{game}"] = {"post": {
            "operationId": f"judge{game.title()}",
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": {"$ref": f"#/components/schemas/Desk{game.title()}"},
                "examples": {kind: {"value": value} for kind, value in bodies.DESK_EXAMPLES[game].items()}}}},
            "responses": {**_ok(200, {"type": "object", "required": ["kind"]}), **_errors(400, BODY, 422)}}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "scorekeeper", "version": "1",
                 "description": "Live score sheets for card games; see docs/api.md. Every game's events and state "
                                "are described below (components: <Game>Event, <Game>State). A new table's answer "
                                "links to every call on it (its id, and its owner, write and read tokens). Text the "
                                "server keeps (a name, an event, an import's events) may not hold NUL (U+0000) or an "
                                "unpaired surrogate (U+D800 to U+DFFF): 400, where a schema below does not say so "
                                "(no database stores NUL in text; an unpaired surrogate is no Unicode text)."},
        "paths": paths,
        "components": {
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer",
                           "description": "the table's write token (every call) or read token (reads), as "
                                          "`Authorization: Bearer <token>`"}},
            "schemas": {**components(), **bodies.event_components(),
                        **{f"{g.title()}Options": options_schema(g) for g in games},
                        **bodies.player_name_components(), "NewTable": bodies.create_body(),
                        "Export": bodies.import_body(), **circle_components(int(current_app.config["CIRCLE_MAX_IMPORT"])),
                        **{f"Desk{g.title()}": schema for g, schema in bodies.desk_bodies().items()},
                        "Error": {"type": "object", "required": ["error"], "properties": {"error": {
                            "type": "object", "required": ["code", "rule", "message"],
                            "properties": {"code": {"type": "string"}, "rule": {"type": ["string", "null"]},
                                           "message": {"type": "string"}}}}}},
        },
    }


def delete_table() -> dict[str, Any]:
    """``DELETE /api/v1/tables/{table_id}``: the owner token erases the table for everyone."""
    deleted = {"type": "object", "required": ["id", "deleted"],
               "properties": {"id": {"type": "string"}, "deleted": {"type": "boolean", "const": True}}}
    return {"operationId": "deleteTable", "parameters": [TABLE_ID], "security": AUTH,
            "description": "Erase the table now: its names, seats and events leave the database; phones on its "
                           "stream get `event: deleted`. Its tokens then open nothing (404). The owner token only "
                           "(the one the table's creation answered); the write token is 403.",
            "responses": {**_ok(200, deleted), **_errors(401, 403, 404, BUSY)}}
