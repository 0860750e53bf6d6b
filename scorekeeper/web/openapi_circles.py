"""The circles' part of the OpenAPI document (issue 38): paths, bodies and answers of
``/api/v1/circles``. Every circle call authenticates with its bearer token in the header only."""

from __future__ import annotations

from typing import Any

from scorekeeper.service.circles import MAX_ALIASES, MAX_CIRCLE_NAME, MAX_MEMBERS
from scorekeeper.web.openapi_bodies import name_schema

JSON = dict[str, Any]
BEARER = [{"bearer": []}]
ERROR = {"$ref": "#/components/schemas/Error"}
NAME = {"$ref": "#/components/schemas/PlayerName"}
CIRCLE_ID = {"name": "circle_id", "in": "path", "required": True, "schema": {"type": "string", "maxLength": 16}}
TABLE_ID = {"name": "table_id", "in": "path", "required": True, "schema": {"type": "string", "maxLength": 16}}


def _errors(*codes: int) -> JSON:
    return {str(c): {"description": "error", "content": {"application/json": {"schema": ERROR}}} for c in codes}


def _ok(status: int, schema: JSON, links: JSON | None = None) -> JSON:
    answer: JSON = {"description": "ok", "content": {"application/json": {"schema": schema}}}
    if links:
        answer["links"] = links
    return {str(status): answer}


def _ref(name: str) -> JSON:
    return {"$ref": f"#/components/schemas/{name}"}


def _body(name: str) -> JSON:
    return {"required": True, "content": {"application/json": {"schema": _ref(name)}}}


# A new circle's answer links to every call on it, each with the token it needs in the header.
READ = {"path.circle_id": "$response.body#/id", "header.Authorization": "Bearer {$response.body#/read_token}"}
WRITE = {"path.circle_id": "$response.body#/id", "header.Authorization": "Bearer {$response.body#/write_token}"}
OWNER = {"path.circle_id": "$response.body#/id", "header.Authorization": "Bearer {$response.body#/owner_token}"}
CIRCLE_LINKS = {
    "GetCircle": {"operationId": "getCircle", "parameters": READ, "description": "the standings, with the read token"},
    "ExportCircle": {"operationId": "exportCircle", "parameters": READ, "description": "the export, with the read token"},
    "ChangeCircle": {"operationId": "changeCircle", "parameters": WRITE, "description": "rename, add members"},
    "NewCircleCodes": {"operationId": "newCircleCodes", "parameters": OWNER, "description": "new codes, owner only"},
    "DeleteCircle": {"operationId": "deleteCircle", "parameters": OWNER,
                     "description": "erase the circle and its tables, with the owner token"},
    # A table kept in the new circle (a score pad its players join as members): from its answer
    # the link KeepInCircle below leads to addCircleTable with both the table and the circle (a
    # link from here could give the circle alone, and a made-up table id is 404: no such table).
    "OpenCircleTable": {"operationId": "createTable", "x-schemathesis": {"merge_body": False},
                        "parameters": {"header.Authorization": "Bearer {$response.body#/write_token}"},
                        "requestBody": {"game": "scorepad", "players": ["Anna", "Bo"], "circle": "$response.body#/id",
                                        "add_members": True},
                        "description": "a score pad kept in the circle, with the circle's write token"},
}
# From a table opened in a circle: the circle keeps it already (200, `added: false`); the same
# call with another circle's id and token is how a table moves into one.
KEEP_IN_CIRCLE = {"operationId": "addCircleTable", "x-schemathesis": {"merge_body": False},
                  "parameters": {"path.circle_id": "$request.body#/circle",
                                 "header.Authorization": "$request.header.Authorization"},
                  "requestBody": {"table_id": "$response.body#/id", "token": "$response.body#/write_token"},
                  "description": "keep the table in the circle named in `circle`, with that circle's write token"}

# From a table kept in a circle: the same circle's token takes it out again.
REMOVE_FROM_CIRCLE = {"RemoveCircleTable": {
    "operationId": "removeCircleTable",
    "parameters": {"path.circle_id": "$response.body#/circle", "path.table_id": "$response.body#/table_id",
                   "header.Authorization": "$request.header.Authorization"},
    "description": "take the table out of the circle again (it stays), with the circle's write token"}}
# From a table opened in a circle (createTable with `circle`): the same, with the circle's token it was sent.
LEAVE_CIRCLE = {"operationId": "removeCircleTable",
                "parameters": {"path.circle_id": "$request.body#/circle", "path.table_id": "$response.body#/id",
                               "header.Authorization": "$request.header.Authorization"},
                "description": "take the table out of the circle named in `circle` (it stays), with that circle's "
                               "write token"}
# An imported circle's answer names its tables: the first one, taken out again with the write token.
IMPORTED_LINKS = {**CIRCLE_LINKS, "RemoveImportedTable": {
    "operationId": "removeCircleTable",
    "parameters": {**WRITE, "path.table_id": "$response.body#/tables/0"},
    "description": "take the first imported table out of the circle (it stays), with the write token"}}


def circle_paths() -> JSON:
    created = {"201": {**_ok(201, _ref("CircleCreated"))["201"], "links": CIRCLE_LINKS}}
    imported = {"201": {**_ok(201, _ref("CircleImported"))["201"], "links": IMPORTED_LINKS}}
    # Four digits, the year 0000 excepted (no calendar has it).
    year = "^([0-9]{3}[1-9]|[0-9]{2}[1-9]0|[0-9][1-9]00|[1-9]000)$"
    season = [{"name": "season", "in": "query", "required": False, "schema": {"type": "string", "pattern": year},
               "description": "only tables finished in this year (0001 to 9999); with `from` or `to`, what "
                              "every one sent holds"},
              {"name": "from", "in": "query", "required": False, "schema": {"type": "string", "format": "date"},
               "description": "only tables finished on or after this day (YYYY-MM-DD)"},
              {"name": "to", "in": "query", "required": False, "schema": {"type": "string", "format": "date"},
               "description": "only tables finished on or before this day (YYYY-MM-DD)"}]
    return {
        "/api/v1/circles": {"post": {
            "operationId": "createCircle", "requestBody": _body("NewCircle"),
            "description": "Open a circle. The answer holds its three tokens: write (join: open and add tables, play, "
                           "rename), read (watch the standings) and owner (delete, new codes); keep the owner token. "
                           "Two members (other names included) equal once case, compatibility forms and invisible "
                           "characters are ignored: 422 TABLE-NAMES-1.",
            "responses": {**created, **_errors(400, 413, 422, 429)}}},
        "/api/v1/circles/import": {"post": {
            "operationId": "importCircle", "requestBody": _body("CircleExport"),
            "description": "A new circle from an export: every table is replayed through the engine first; one "
                           "refused table (400/422, its message begins `table N:`) refuses the whole file. The "
                           "answer is a new circle's, with `tables`: the new tables' ids in the export's order.",
            "responses": {**imported, **_errors(400, 413, 422, 429)}}},
        "/api/v1/circles/{circle_id}": {
            "get": {"operationId": "getCircle", "parameters": [CIRCLE_ID, *season], "security": BEARER,
                    "description": "The circle: members, tables and standings per game, with the read (or write or "
                                   "owner) token in the Authorization header; no query token.",
                    "responses": {**_ok(200, _ref("Circle")), **_errors(400, 401, 403, 404)}},
            "patch": {"operationId": "changeCircle", "parameters": [CIRCLE_ID], "security": BEARER,
                      "requestBody": _body("CircleChange"),
                      "description": "Rename the circle or add members (or other names of members); write token. "
                                     "409 `name_taken` when another member has a name; 422 TABLE-NAMES-1 when two "
                                     "names sent are one once folded.",
                      "responses": {**_ok(200, {"type": "object", "required": ["id", "name", "members"]}),
                                    **_errors(400, 401, 403, 404, 409, 422)}},
            "delete": {"operationId": "deleteCircle", "parameters": [CIRCLE_ID], "security": BEARER,
                       "description": "Erase the circle and every table kept in it; owner token only.",
                       "responses": {**_ok(200, {"type": "object", "required": ["id", "deleted", "tables"],
                                                 "properties": {"id": {"type": "string"},
                                                                "deleted": {"const": True},
                                                                "tables": {"type": "integer"}}}),
                                     **_errors(401, 403, 404)}}},
        "/api/v1/circles/{circle_id}/codes": {"post": {
            "operationId": "newCircleCodes", "parameters": [CIRCLE_ID], "security": BEARER,
            "description": "New write and read tokens (and links); the old ones open nothing from now on. Owner only.",
            "responses": {**_ok(200, _ref("CircleCodes")), **_errors(401, 403, 404)}}},
        "/api/v1/circles/{circle_id}/tables": {"post": {
            "operationId": "addCircleTable", "parameters": [CIRCLE_ID], "security": BEARER,
            "requestBody": _body("AddCircleTable"),
            "description": "Keep an existing table in the circle (circle's write token as bearer, the table's write "
                           "token in the body). 201 added, 200 already in it; 409 `in_another_circle`; 422 `unknown_table` "
                           "(CIRCLE-TABLE-1) when there is no such table (404 is for the circle); 422 `not_members` naming the players who are not members unless `add_members` is true.",
            "responses": {**_ok(201, _ref("CircleTableAdded"), REMOVE_FROM_CIRCLE),
                          **_ok(200, _ref("CircleTableAdded"), REMOVE_FROM_CIRCLE),
                          **_errors(400, 401, 403, 404, 409, 422)}}},
        "/api/v1/circles/{circle_id}/tables/{table_id}": {"delete": {
            "operationId": "removeCircleTable", "parameters": [CIRCLE_ID, TABLE_ID], "security": BEARER,
            "description": "Take a table out of the circle: the standings count without it from now on, and the "
                           "circle's pages redraw. The table itself stays, with its own tokens, and may be kept in "
                           "another circle. The circle's write or owner token; 404 `not_found` when the table is "
                           "not in this circle (or there is none).",
            "responses": {**_ok(200, _ref("CircleTableRemoved")), **_errors(401, 403, 404)}}},
        "/api/v1/circles/{circle_id}/export": {"get": {
            "operationId": "exportCircle", "parameters": [CIRCLE_ID], "security": BEARER,
            "description": "The whole circle in one file: its name, members and every table's export.",
            "responses": {**_ok(200, _ref("CircleExport")), **_errors(401, 403, 404)}}},
    }


def circle_components(max_import: int) -> JSON:
    member = {"anyOf": [NAME, {"type": "object", "required": ["name"], "properties": {
        "name": NAME, "aliases": {"type": "array", "maxItems": MAX_ALIASES, "uniqueItems": True, "items": NAME}}}],
        "description": "a member: a name, or a name with the other names the tables may type for them"}
    members = {"type": "array", "maxItems": MAX_MEMBERS, "uniqueItems": True, "items": member,
               "description": "names distinct ignoring case, compatibility forms and invisible characters, other "
                              "names included (two items of one name are 422 TABLE-NAMES-1)"}
    name = {"type": "string", "maxLength": MAX_CIRCLE_NAME, "pattern": name_schema()["pattern"],
            "description": f"at most {MAX_CIRCLE_NAME} characters, not blank, no control characters"}
    listed = {"type": "object", "required": ["name", "aliases"],
              "properties": {"name": {"type": "string"}, "aliases": {"type": "array", "items": {"type": "string"}}}}
    codes = {"type": "object", "required": ["id", "write_token", "read_token", "join_url", "watch_url"],
             "properties": {key: {"type": "string"} for key in ("id", "write_token", "read_token", "join_url",
                                                                  "watch_url")}}
    number = {"type": "number"}
    row = {"type": "object", "required": ["member", "played", "won", "win_rate", "average_score", "average_place",
                                          "best_score", "best_place", "head_to_head", "figures"],
           "properties": {"member": {"type": "string"}, "played": {"type": "integer"}, "won": {"type": "integer"},
                          "win_rate": number, "average_score": number, "average_place": number,
                          "best_score": number, "best_place": {"type": "integer"},
                          "head_to_head": {"type": "array", "items": {
                              "type": "object", "required": ["member", "played", "ahead", "behind"],
                              "properties": {"member": {"type": "string"}, "played": {"type": "integer"},
                                             "ahead": {"type": "integer"}, "behind": {"type": "integer"}}}},
                          "figures": {"type": "object", "additionalProperties": number,
                                      "description": "the engine's figures of the game (docs/api.md)"}}}
    table = {"type": "object", "required": ["id", "game", "mode", "players", "over", "winner", "started", "finished"],
             "properties": {"id": {"type": "string"}, "game": {"type": "string"}, "mode": {"type": "string"},
                            "players": {"type": "array", "items": {"type": "string"}}, "over": {"type": "boolean"},
                            "winner": {"type": "array", "items": {"type": "string"}},
                            "started": {"type": "string"}, "finished": {"type": ["string", "null"]}}}
    return {
        "NewCircle": {"type": "object", "title": "NewCircle", "required": ["name"],
                      "properties": {"name": name, "members": {"anyOf": [members, {"type": "null"}]}}},
        "CircleChange": {"type": "object", "title": "CircleChange", "properties": {"name": name, "members": members}},
        "CircleCreated": {**codes, "required": [*codes["required"], "owner_token"],
                          "properties": {**codes["properties"], "owner_token": {"type": "string"}}},
        "CircleImported": {**codes, "required": [*codes["required"], "owner_token", "tables"],
                           "properties": {**codes["properties"], "owner_token": {"type": "string"},
                                          "tables": {"type": "array", "items": {"type": "string"},
                                                     "description": "the new tables' ids, in the export's order"}}},
        "CircleCodes": codes,
        "AddCircleTable": {"type": "object", "required": ["table_id", "token"],
                           "properties": {"table_id": {"type": "string"}, "token": {"type": "string"},
                                          "add_members": {"type": "boolean", "default": False}}},
        "CircleTableAdded": {"type": "object", "required": ["circle", "table_id", "added"],
                             "properties": {"circle": {"type": "string"}, "table_id": {"type": "string"},
                                            "added": {"type": "boolean"}}},
        "CircleTableRemoved": {"type": "object", "required": ["circle", "table_id", "removed"],
                               "properties": {"circle": {"type": "string"}, "table_id": {"type": "string"},
                                              "removed": {"const": True}}},
        "CircleStanding": row,
        "Circle": {"type": "object", "required": ["id", "name", "members", "tables", "standings", "settle_up"],
                   "properties": {"id": {"type": "string"}, "name": {"type": "string"},
                                  "members": {"type": "array", "items": listed},
                                  "tables": {"type": "array", "items": table},
                                  "standings": {"type": "object", "additionalProperties": {
                                      "type": "array", "items": _ref("CircleStanding")},
                                      "description": "per game id, finished tables only, best first"},
                                  "settle_up": {"type": ["array", "null"], "items": {
                                      "type": "object", "required": ["from", "to", "amount"],
                                      "properties": {"from": {"type": ["string", "null"]},
                                                     "to": {"type": ["string", "null"]},
                                                     "amount": {"type": "integer"}}},
                                      "description": "Mousel over the season: who pays whom (null: no Mousel)"}}},
        "CircleExport": {"type": "object", "title": "CircleExport", "required": ["format", "name", "tables"],
                         "properties": {"format": {"const": "scorekeeper-circle/1"}, "name": name,
                                        "members": {"anyOf": [members, {"type": "null"}]},
                                        "tables": {"type": "array", "maxItems": max_import, "items": _ref("Export"),
                                                   "description": "at most CIRCLE_MAX_IMPORT tables"}}},
    }
