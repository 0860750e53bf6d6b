"""Circles held to the OpenAPI document as tables are: what the fuzzer (tests/web/test_openapi_fuzz.py)
found, one test each. 400 = the body or query does not fit the document; 422 with a rule id = it
fits, but not this circle; 404 = what the call names does not exist. Every status answered is listed
for its operation, and the document's links lead to every circle call."""

from __future__ import annotations

from typing import Any

import jsonschema_rs
import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import Circle
from tests.web.test_circles import auth, new_circle


@pytest.fixture
def client(sqlite_app: Flask) -> FlaskClient:
    return sqlite_app.test_client()


def document(client: FlaskClient) -> dict[str, Any]:
    return client.get("/api/v1/openapi.json").get_json()  # type: ignore[no-any-return]


def fits(client: FlaskClient, schema: str, body: Any) -> bool:
    doc = document(client)
    return jsonschema_rs.Draft202012Validator({"$ref": f"#/components/schemas/{schema}",
                                               "components": doc["components"]}).is_valid(body)


def listed(client: FlaskClient, method: str, path: str) -> set[int]:
    return {int(s) for s in document(client)["paths"][path][method]["responses"]}


def season_fits(client: FlaskClient, name: str, value: str) -> bool:
    params = document(client)["paths"]["/api/v1/circles/{circle_id}"]["get"]["parameters"]
    schema = next(p["schema"] for p in params if p["name"] == name)
    return jsonschema_rs.Draft202012Validator(schema, validate_formats=True).is_valid(value)


def test_a_member_whose_other_name_is_their_name_is_a_documented_422(client: FlaskClient) -> None:
    body = {"name": "x", "members": [{"name": "Anna", "aliases": ["Anna"]}]}
    assert fits(client, "NewCircle", body)
    r = client.post("/api/v1/circles", json=body)
    assert r.status_code == 422 and r.get_json()["error"]["rule"] == "TABLE-NAMES-1"
    assert 422 in listed(client, "post", "/api/v1/circles")
    circle = new_circle(client, ["Bo"])
    r = client.patch(f"/api/v1/circles/{circle['id']}", headers=auth(circle["write_token"]),
                     json={"members": [{"name": "Cilla", "aliases": ["cilla"]}]})
    assert r.status_code == 422 and r.get_json()["error"]["rule"] == "TABLE-NAMES-1"
    assert 422 in listed(client, "patch", "/api/v1/circles/{circle_id}")


@pytest.mark.parametrize("members", [
    [{"name": "Anna", "aliases": ["Berra", "Berra"]}],       # the very same other name twice
    [{"name": "Bo"}, {"name": "Bo"}],                         # the very same member twice
    ["Bo", "Bo"],
])
def test_the_very_same_name_twice_does_not_fit_the_document_and_is_400(client: FlaskClient, members: Any) -> None:
    body = {"name": "x", "members": members}
    assert not fits(client, "NewCircle", body) and not fits(client, "CircleChange", {"members": members})
    r = client.post("/api/v1/circles", json=body)
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "bad_request"
    circle = new_circle(client, ["Dag"])
    r = client.patch(f"/api/v1/circles/{circle['id']}", headers=auth(circle["write_token"]), json={"members": members})
    assert r.status_code == 400
    with client.application.app_context():
        assert db.session.query(Circle).count() == 1


def test_one_name_in_two_items_fits_the_document_and_is_422(client: FlaskClient) -> None:
    body = {"name": "x", "members": [{"name": "Bo"}, "Bo"]}
    assert fits(client, "NewCircle", body)
    r = client.post("/api/v1/circles", json=body)
    assert r.status_code == 422 and r.get_json()["error"]["rule"] == "TABLE-NAMES-1"


def test_a_table_that_does_not_exist_is_422_not_404(client: FlaskClient) -> None:
    """The address names the circle, which is there: a 404 would say the circle is gone (the fuzzer,
    following the link from a new circle, took it so: ST302). The table in the body is not there: 422."""
    circle = new_circle(client, ["Anna"])
    r = client.post(f"/api/v1/circles/{circle['id']}/tables", headers=auth(circle["write_token"]),
                    json={"table_id": "nothere", "token": "x", "extra": [1]})
    assert r.status_code == 422, r.get_json()
    assert r.get_json()["error"]["code"] == "unknown_table" and r.get_json()["error"]["rule"] == "CIRCLE-TABLE-1"
    assert 422 in listed(client, "post", "/api/v1/circles/{circle_id}/tables")


def test_a_season_the_document_allows_is_answered_and_one_it_refuses_is_400(client: FlaskClient) -> None:
    circle = new_circle(client, ["Anna"])
    url = f"/api/v1/circles/{circle['id']}"
    assert not season_fits(client, "season", "0000") and season_fits(client, "season", "0001")
    assert client.get(f"{url}?season=0001", headers=auth(circle["read_token"])).status_code == 200
    # every parameter is checked, whichever else is sent: an empty `to` is no date
    assert not season_fits(client, "to", "")
    r = client.get(f"{url}?season=2026&to=", headers=auth(circle["read_token"]))
    assert r.status_code == 400 and "YYYY-MM-DD" in r.get_json()["error"]["message"]
    r = client.get(f"{url}?season=2026&from=20260101", headers=auth(circle["read_token"]))
    assert r.status_code == 400


def test_a_season_and_a_span_together_count_what_both_hold(client: FlaskClient) -> None:
    from datetime import date

    from scorekeeper.service.standings import parse_season

    season = parse_season({"season": "2026", "from": "2025-06-01", "to": "2026-03-31"})
    assert (season.start, season.end) == (date(2026, 1, 1), date(2026, 3, 31))


def test_an_event_that_fits_its_game_but_not_the_position_is_422_in_a_circle_import(client: FlaskClient) -> None:
    table = {"format": "scorekeeper/1", "game": "mulatschak", "mode": "tally", "players": ["0", "1"], "options": None,
             "events": [{"event": {"type": "deal_result", "declarer": None, "bid": None, "trump": "", "tricks": None,
                                   "causes": [], "forced": False, "thrown_in": False, "home": None, "revokes": None,
                                   "breaker": None}}]}
    alone = client.post("/api/v1/tables/import", json=table)
    body = {"format": "scorekeeper-circle/1", "name": "x", "members": [], "tables": [table]}
    assert fits(client, "CircleExport", body)
    r = client.post("/api/v1/circles/import", json=body)
    assert (r.status_code, r.get_json()["error"]["rule"]) == (alone.status_code, alone.get_json()["error"]["rule"])
    assert r.status_code == 422 and r.get_json()["error"]["message"].startswith("table 1: event 1:")


def test_links_lead_to_every_circle_call(client: FlaskClient) -> None:
    doc = document(client)
    linked = {link["operationId"] for path in doc["paths"].values() for op in path.values()
              for answer in op.get("responses", {}).values() for link in answer.get("links", {}).values()}
    circle_ops = {op["operationId"] for path, item in doc["paths"].items() if path.startswith("/api/v1/circles/{")
                  for op in item.values()}
    assert circle_ops <= linked, circle_ops - linked


def test_the_links_to_a_circle_table_work(client: FlaskClient) -> None:
    """createCircle → createTable in it → addCircleTable, as a client following the links does it."""
    doc = document(client)
    circle = new_circle(client, [])
    link = doc["paths"]["/api/v1/circles"]["post"]["responses"]["201"]["links"]["OpenCircleTable"]
    body = {key: circle["id"] if value == "$response.body#/id" else value for key, value in link["requestBody"].items()}
    r = client.post("/api/v1/tables", json=body, headers=auth(circle["write_token"]))
    assert r.status_code == 201, r.get_json()
    table = r.get_json()
    link = doc["paths"]["/api/v1/tables"]["post"]["responses"]["201"]["links"]["KeepInCircle"]
    assert link["parameters"]["path.circle_id"] == "$request.body#/circle"
    r = client.post(f"/api/v1/circles/{circle['id']}/tables", headers=auth(circle["write_token"]),
                    json={"table_id": table["id"], "token": table["write_token"]})
    assert r.status_code == 200 and r.get_json()["added"] is False


@pytest.mark.parametrize("from_page", [False, True])
def test_a_circle_stream_is_held_to_the_per_address_cap_as_a_table_stream(tmp_path: Any, from_page: bool) -> None:
    from scorekeeper.web.api import open_streams
    from tests.web.conftest import make_app

    # The gate counts the worker's streams: earlier tests in this process may have left some open
    # (from 127.0.0.1), so this phone comes from an address of its own, under a cap above them.
    app = make_app(f"sqlite:///{tmp_path / 'cap.sqlite'}", SSE_MAX_PER_ADDRESS=1, SSE_MAX_SECONDS=1,
                   SSE_MAX_STREAMS=open_streams() + 10)
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = f"192.0.2.{11 + from_page}"
    circle = new_circle(client, ["Anna"])
    if from_page:  # the page's twin, opened by its cookie
        client.get(f"/c/{circle['id']}/k/{circle['read_token']}")
        url, headers = f"/c/{circle['id']}/stream", {}
    else:
        url, headers = f"/api/v1/circles/{circle['id']}/stream", auth(circle["read_token"])
    first = client.get(url, headers=headers, buffered=False)
    try:
        assert first.status_code == 200
        second = client.get(url, headers=headers, buffered=False)
        assert second.status_code == 503 and second.headers["Retry-After"]
    finally:
        first.close()
    again = client.get(url, headers=headers, buffered=False)  # the first one, closed, is counted out
    assert again.status_code == 200
    again.close()


def test_the_import_limit_is_in_the_document_and_the_refusal_names_it(tmp_path: Any, monkeypatch: Any) -> None:
    from tests.web.conftest import make_app

    monkeypatch.setenv("CIRCLE_MAX_IMPORT", "1")
    app = make_app(f"sqlite:///{tmp_path / 'limit.sqlite'}")
    client = app.test_client()
    assert document(client)["components"]["schemas"]["CircleExport"]["properties"]["tables"]["maxItems"] == 1
    table = {"format": "scorekeeper/1", "game": "scorepad", "players": ["Anna", "Bo"], "events": []}
    r = client.post("/api/v1/circles/import", json={"format": "scorekeeper-circle/1", "name": "x", "tables": [table] * 2})
    assert r.status_code == 400 and "1" in r.get_json()["error"]["message"]
    r = client.post("/api/v1/circles/import", json={"format": "scorekeeper-circle/1", "name": "x", "tables": [table]})
    assert r.status_code == 201
