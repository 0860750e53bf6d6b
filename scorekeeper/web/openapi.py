"""The OpenAPI 3.1 description of ``/api/v1`` (served at ``/api/v1/openapi.json``; fuzzed by schemathesis)."""

from __future__ import annotations

from typing import Any

from scorekeeper.engine import RULES
from scorekeeper.engine.core import OptionSpec

ERROR = {"$ref": "#/components/schemas/Error"}


def _errors(*codes: int) -> dict[str, Any]:
    return {str(c): {"description": "error", "content": {"application/json": {"schema": ERROR}}} for c in codes}


def _ok(status: int, schema: dict[str, Any]) -> dict[str, Any]:
    return {str(status): {"description": "ok", "content": {"application/json": {"schema": schema}}}}


TABLE_ID = {"name": "table_id", "in": "path", "required": True, "schema": {"type": "string", "maxLength": 32}}


def _any(names: list[str]) -> dict[str, Any]:
    return {"anyOf": [{"$ref": f"#/components/schemas/{name}"} for name in names]}


def _option(spec: OptionSpec) -> dict[str, Any]:
    rule = f" ({spec.rule})" if spec.rule else ""
    out: dict[str, Any] = {"description": f"{spec.label}{rule}", "default": spec.default}
    if spec.kind == "bool":
        out["type"] = "boolean"
    elif spec.kind == "int":
        out["type"] = "integer"
        if spec.minimum is not None:
            out["minimum"] = spec.minimum
        if spec.maximum is not None:
            out["maximum"] = spec.maximum
    else:
        out["enum"] = list(spec.choices)
    return out


def options_schema(game: str) -> dict[str, Any]:
    """A game's house rules as its ``OptionSpec`` list declares them (the engine refuses any other key)."""
    from scorekeeper.service import PLATFORM_OPTIONS

    rules = RULES[game]
    properties = {spec.key: _option(spec) for spec in rules.option_specs}
    if getattr(rules, "team_rule", None):
        properties["teams"] = {"type": ["array", "null"], "items": {"type": "array", "items": {"type": "integer"}},
                               "description": f"partnerships: seat numbers per team ({rules.team_rule})"}
    for key in PLATFORM_OPTIONS:
        properties[key] = {"type": "boolean", "default": False,
                           "description": "show each deal's review to the table when it ends"}
    return {"type": "object", "title": f"{game} options", "properties": properties,
            "description": f"{rules.name}: house rules, each with the rule id it changes"}


def document() -> dict[str, Any]:
    from scorekeeper.schemas import GAMES, components

    games = [game for game in RULES if game in GAMES]
    state = {**_any([GAMES[g].STATE.__name__ for g in games]),
             "description": "the table's state: the four common fields and its game's own (see each <Game>State)"}
    event = {**_any([f"{g.title()}Event" for g in games]),
             "description": "one event of the table's game (see each <Game>Event, discriminated on `type`)"}
    created = {"type": "object", "required": ["id", "write_token", "read_token", "join_url", "watch_url", "seq", "state"],
               "properties": {"id": {"type": "string"}, "write_token": {"type": "string"},
                              "read_token": {"type": "string"}, "join_url": {"type": "string"},
                              "watch_url": {"type": "string"}, "seq": {"type": "integer"}, "state": state}}
    table = {"type": "object", "required": ["id", "game", "mode", "options", "players", "seq", "state"],
             "properties": {"id": {"type": "string"}, "game": {"type": "string", "enum": games},
                            "mode": {"type": "string", "enum": ["adjudicate", "tally"]}, "options": {"type": "object"},
                            "players": {"type": "array", "items": {"type": "string"}}, "seq": {"type": "integer"},
                            "state": state}}
    recorded = {"type": "object", "required": ["seq", "events_scored", "state"],
                "properties": {"seq": {"type": "integer"}, "state": state,
                               "events_scored": {"type": "array", "items": {"$ref": "#/components/schemas/Scored"}}}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "scorekeeper", "version": "1",
                 "description": "Live score sheets for card games; see docs/api.md. Every game's events and state "
                                "are described below (components: <Game>Event, <Game>State)."},
        "paths": {
            "/api/v1/tables": {"post": {
                "operationId": "createTable",
                "requestBody": {"required": True, "content": {"application/json": {"schema": {
                    "type": "object", "required": ["game", "players"],
                    "properties": {"game": {"type": "string", "enum": games},
                                   "players": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 10},
                                   "mode": {"type": "string", "enum": ["adjudicate", "tally"]},
                                   "options": {**_any([f"{g.title()}Options" for g in games]),
                                               "description": "the house rules of the chosen game (see each "
                                                              "<Game>Options); omitted ones take their default"}}}}}},
                "responses": {**_ok(201, created), **_errors(400, 422, 429)}}},
            "/api/v1/tables/import": {"post": {
                "operationId": "importTable",
                "requestBody": {"required": True, "content": {"application/json": {"schema": {"type": "object"}}}},
                "responses": {**_ok(201, created), **_errors(400, 422, 429)}}},
            "/api/v1/tables/{table_id}": {"get": {
                "operationId": "getTable", "parameters": [TABLE_ID], "security": [{"bearer": []}],
                "responses": {**_ok(200, table), **_errors(401, 403, 404)}},
                "delete": delete_table()},
            "/api/v1/tables/{table_id}/events": {
                "post": {"operationId": "postEvent", "parameters": [TABLE_ID], "security": [{"bearer": []}],
                         "requestBody": {"required": True, "content": {"application/json": {"schema": event}}},
                         "responses": {**_ok(201, recorded), **_errors(400, 401, 403, 404, 409, 422, 429)}},
                "get": {"operationId": "exportEvents", "parameters": [TABLE_ID], "security": [{"bearer": []}],
                        "responses": {**_ok(200, {"type": "object", "required": ["events"]}), **_errors(401, 403, 404)}}},
            "/api/v1/tables/{table_id}/undo": {"post": {
                "operationId": "undo", "parameters": [TABLE_ID], "security": [{"bearer": []}],
                "responses": {**_ok(200, {"type": "object", "required": ["seq", "state"],
                                          "properties": {"seq": {"type": "integer"}, "state": state}}),
                              **_errors(401, 403, 404, 409)}}},
            "/api/v1/games": {"get": {"operationId": "games", "responses": _ok(200, {"type": "object"})}},
            "/api/v1/desk/{game}": {"post": {
                "operationId": "judgePosition",
                "parameters": [{"name": "game", "in": "path", "required": True,
                                "schema": {"type": "string", "enum": ["mulle", "kasino", "mousel", "mulatschak",
                                                                      "muggins"]}}],
                "requestBody": {"required": True, "content": {"application/json": {"schema": {"type": "object"}}}},
                "responses": {**_ok(200, {"type": "object", "required": ["kind"]}), **_errors(400, 404, 422)}}},
            "/api/v1/tables/{table_id}/review": {"get": {
                "operationId": "reviewDeal", "security": [{"bearer": []}],
                "parameters": [TABLE_ID, {"name": "deal", "in": "query", "required": False,
                                          "schema": {"type": "integer", "minimum": 1}}],
                "responses": {**_ok(200, {"type": "object", "required": ["deal", "deals", "over", "hidden", "lines"]}),
                              **_errors(400, 401, 403, 404)}}},
        },
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": {**components(), **{f"{g.title()}Options": options_schema(g) for g in games}, "Error": {"type": "object", "required": ["error"], "properties": {"error": {
                "type": "object", "required": ["code", "rule", "message"],
                "properties": {"code": {"type": "string"}, "rule": {"type": ["string", "null"]},
                               "message": {"type": "string"}}}}}},
        },
    }


def delete_table() -> dict[str, Any]:
    """``DELETE /api/v1/tables/{table_id}``: the table's write token erases it for everyone."""
    deleted = {"type": "object", "required": ["id", "deleted"],
               "properties": {"id": {"type": "string"}, "deleted": {"type": "boolean", "const": True}}}
    return {"operationId": "deleteTable", "parameters": [TABLE_ID], "security": [{"bearer": []}],
            "description": "Erase the table now: its names, seats and events leave the database; phones on its "
                           "stream get `event: deleted`. Its tokens then open nothing (404). Write token only.",
            "responses": {**_ok(200, deleted), **_errors(401, 403, 404)}}
