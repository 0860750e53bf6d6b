"""400 or 422 (docs/api.md, "Errors"): a body that does not fit the OpenAPI document is 400; one
that fits it but that this table (its game, mode or position) cannot take is 422 with a rule id,
as the fuzz test (tests/web/test_openapi_fuzz.py) holds the server to."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Api


def error_of(response: Any) -> dict[str, Any]:
    return response.json["error"]


def test_another_games_event_is_422_table_event_1(api: Api) -> None:
    table = api.table(game="mulle", players=["Anna", "Bo"])
    # A score pad's event fits the document's body (every game's events), not a Mulle table.
    answer = api.post(table, {"type": "points", "side": 0, "points": 1})
    assert answer.status_code == 422
    assert error_of(answer)["rule"] == "TABLE-EVENT-1"
    assert api.get(table).json["seq"] == 0


def test_a_field_the_position_needs_is_422_table_event_2(api: Api) -> None:
    table = api.table(game="mulatschak", players=["Anna", "Bo", "Cai"], mode="tally")
    answer = api.post(table, {"type": "deal_result", "trump": "", "causes": [], "thrown_in": False})
    assert answer.status_code == 422, answer.json
    assert error_of(answer)["rule"] == "TABLE-EVENT-2"
    assert "declarer" in error_of(answer)["message"]
    assert api.get(table).json["seq"] == 0


def test_the_same_in_an_import_names_the_event(client) -> None:
    export = {"format": "scorekeeper/1", "game": "mulatschak", "mode": "tally", "players": ["Anna", "Bo", "Cai"],
              "events": [{"event": {"type": "deal_result", "trump": "", "causes": [], "thrown_in": False}}]}
    answer = client.post("/api/v1/tables/import", json=export)
    assert answer.status_code == 422, answer.json
    assert answer.json["error"]["rule"] == "TABLE-EVENT-2"
    assert answer.json["error"]["message"].startswith("event 1:")


def test_an_event_that_fits_no_schema_stays_400(api: Api) -> None:
    table = api.table(game="scorepad", players=["Anna", "Bo"])
    answer = api.post(table, {"type": "points", "side": "first", "points": 1})
    assert answer.status_code == 400
    assert error_of(answer)["code"] == "malformed_event"


def test_names_equal_ignoring_case_are_422_with_a_rule(client) -> None:
    answer = client.post("/api/v1/tables", json={"game": "scorepad", "players": ["Anna", "anna"]})
    assert answer.status_code == 422
    assert answer.json["error"] == {"code": "unsupported", "rule": "TABLE-NAMES-1",
                                    "message": answer.json["error"]["message"]}
    # The very same string twice breaks the schema's uniqueItems: a malformed body.
    assert client.post("/api/v1/tables", json={"game": "scorepad", "players": ["Anna", "Anna"]}).status_code == 400
