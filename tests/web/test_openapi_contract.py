"""Where the server, not the OpenAPI document, was wrong (issue 24): each found by the fuzzer."""

from __future__ import annotations

import pytest


def test_import_allows_only_post(client) -> None:
    allow = client.options("/api/v1/tables/import").headers["Allow"]
    assert "GET" not in allow and "POST" in allow
    assert client.get("/api/v1/tables/import").status_code == 405
    assert "GET" in client.options("/api/v1/tables/abc").headers["Allow"]


def test_an_import_takes_only_its_game_and_modes_events_by_the_document(client) -> None:
    """The Export schema ties the events to the game and the mode (issue 40: a Kasino import with a
    score pad's points event was valid by the document, and refused)."""
    import jsonschema_rs

    doc = client.get("/api/v1/openapi.json").json
    validator = jsonschema_rs.validator_for({**doc["components"]["schemas"]["Export"], "components": doc["components"]})
    def export(game: str, mode: str, event: dict) -> dict:
        return {"format": "scorekeeper/1", "game": game, "mode": mode, "players": ["A", "B", "C", "D"],
                "events": [{"event": event}]}

    assert not validator.is_valid(export("kasino", "adjudicate", {"type": "points", "side": 0, "points": 1}))
    assert not validator.is_valid(export("mousel", "tally", {"type": "fold", "player": 1}))
    assert validator.is_valid(export("mousel", "adjudicate", {"type": "fold", "player": 1}))
    assert validator.is_valid(export("mousel", "tally", {"type": "leave", "player": 1}))
    assert client.post("/api/v1/tables/import", json=export("mousel", "tally", {"type": "fold", "player": 1})).status_code == 400


@pytest.mark.parametrize("item", [{"type": "points", "side": 0, "points": 1}, "x"])
def test_an_import_logs_events_as_exported(client, item) -> None:
    body = {"format": "scorekeeper/1", "game": "scorepad", "players": ["A", "B"], "events": [item]}
    assert client.post("/api/v1/tables/import", json=body).status_code == 400
    body["events"] = [{"event": {"type": "points", "side": 0, "points": 1}}]
    assert client.post("/api/v1/tables/import", json={**body, "format": "other/2"}).status_code == 400
    assert client.post("/api/v1/tables/import", json=body).status_code == 201


def test_an_import_checks_each_events_shape(client) -> None:
    body = {"game": "scorepad", "players": ["A", "B"], "events": [{"event": {"type": "points", "side": "0", "points": 1}}]}
    answer = client.post("/api/v1/tables/import", json=body)
    assert answer.status_code == 400 and answer.json["error"]["code"] == "malformed_event"
    assert answer.json["error"]["message"].startswith("event 1: 'side'")


@pytest.mark.parametrize("teams", [False, 0, "", {}])
def test_teams_is_a_list_or_null(client, teams) -> None:
    body = {"game": "mousel", "players": ["A", "B"], "options": {"teams": teams}}
    assert client.post("/api/v1/tables", json=body).status_code == 422
    assert client.post("/api/v1/tables", json={**body, "options": {"teams": None}}).status_code == 201


def test_a_name_is_at_most_40_characters_as_sent(client) -> None:
    assert client.post("/api/v1/tables", json={"game": "scorepad", "players": ["A" * 40 + " ", "B"]}).status_code == 400
    assert client.post("/api/v1/tables", json={"game": "scorepad", "players": ["A" * 40, "B"]}).status_code == 201


def test_a_header_that_is_not_bearer_does_not_fall_back_to_the_query_token(client) -> None:
    table = client.post("/api/v1/tables", json={"game": "scorepad", "players": ["A", "B"]}).json
    url = f"/api/v1/tables/{table['id']}/stream?token={table['read_token']}"  # the one place a query token opens
    opened = client.get(url, buffered=False)
    assert opened.status_code == 200
    opened.close()
    assert client.get(url, headers={"Authorization": "Basic eA=="}).status_code == 401
    assert client.get(url, headers={"Authorization": "Bearer nope"}).status_code == 403


def test_a_new_tables_links_lead_to_every_operation_on_it_with_the_right_token(client) -> None:
    """No credentials beforehand: the answer to a new table (or an import) links to each call on
    it with the token it takes — the owner's to delete and make new codes (issue 40)."""
    doc = client.get("/api/v1/openapi.json").json
    operations = {op["operationId"]: (path, method) for path, item in doc["paths"].items() for method, op in item.items()}
    for creator in ("createTable", "importTable"):
        path, method = operations[creator]
        answer = doc["paths"][path][method]["responses"]["201"]
        assert "owner_token" in answer["content"]["application/json"]["schema"]["required"]
        links = {link["operationId"]: link["parameters"]["header.Authorization"] for link in answer["links"].values()
                 if "header.Authorization" in link["parameters"]}
        assert links["deleteTable"] == links["newCodes"] == "Bearer {$response.body#/owner_token}"
        assert links["getTable"] == links["exportEvents"] == links["reviewDeal"] == "Bearer {$response.body#/read_token}"
        assert links["postEvent"] == links["undo"] == "Bearer {$response.body#/write_token}"
    with_table = {op for op, (path, _) in operations.items() if "{table_id}" in path}
    linked = {link["operationId"] for link in doc["paths"]["/api/v1/tables"]["post"]["responses"]["201"]["links"].values()}
    assert with_table <= linked
    assert all(requirement == {"bearer": []} for path, item in doc["paths"].items() for op in item.values()
               for requirement in op.get("security", []))
    assert set(doc["components"]["securitySchemes"]) == {"bearer"}


def test_the_document_takes_no_token_in_the_query(client) -> None:
    """Reads as writes: the token in the Authorization header, never in an address (issue 40)."""
    import json

    doc = client.get("/api/v1/openapi.json").json
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            query = [p["name"] for p in operation.get("parameters", []) if p["in"] == "query"]
            assert "token" not in query, (method, path)
            assert all(set(need) <= {"bearer"} for need in operation.get("security", [])), (method, path)
    assert set(doc["components"]["securitySchemes"]) == {"bearer"}
    assert "query.token" not in json.dumps(doc)  # the links put the read token in the header too
