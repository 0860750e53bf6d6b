"""The JSON API contract of DESIGN.md §2, every call and every documented error, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from tests.web.conftest import Api


def error_of(response) -> dict:
    body = response.json
    assert set(body["error"]) == {"code", "rule", "message"}, body
    assert body["error"]["message"]
    return body["error"]


def test_create_returns_tokens_links_and_state(api: Api) -> None:
    response = api.create(players=["Anna", "Bo", "Cy"], options={"target": 21})
    assert response.status_code == 201
    body = response.json
    assert set(body) >= {"id", "write_token", "read_token", "join_url", "watch_url", "seq", "state"}
    assert body["seq"] == 0
    assert len(body["write_token"]) >= 22 and len(body["read_token"]) >= 22  # ≥ 128 bits in base64
    assert body["write_token"] != body["read_token"]
    assert body["join_url"].startswith("http://192.0.2.10:5000/") and body["write_token"] in body["join_url"]
    assert body["read_token"] in body["watch_url"] and body["write_token"] not in body["watch_url"]
    state = body["state"]
    assert state["scores"] == [0, 0, 0] and state["over"] is False
    assert state["winner"] is None and state["to_act"] is None


def test_join_url_never_localhost_without_public_url(client, app, monkeypatch) -> None:
    from scorekeeper.web import links

    app.config["PUBLIC_URL"] = ""
    links._lan.cache_clear()
    monkeypatch.setattr(links, "lan_address", lambda: "10.1.2.3")
    body = client.post("/api/v1/tables", json={"game": "scorepad", "players": ["A", "B"]},
                       base_url="http://localhost:5000").json
    links._lan.cache_clear()
    assert body["join_url"].startswith("http://10.1.2.3:5000/t/")


def test_get_table(api: Api) -> None:
    table = api.table(options={"target": 16})
    for token in (table["read_token"], table["write_token"]):
        body = api.get(table, token).json
        assert body["id"] == table["id"] and body["game"] == "scorepad" and body["mode"] == "adjudicate"
        assert body["players"] == ["Anna", "Bo"] and body["seq"] == 0 and body["options"] == {"target": 16}
        assert body["state"]["scores"] == [0, 0]


def test_points_scores_and_reports_scored_events(api: Api) -> None:
    table = api.table()
    response = api.post(table, {"type": "points", "side": 1, "points": 5, "note": "first"})
    assert response.status_code == 201
    assert response.json["seq"] == 1
    assert response.json["state"]["scores"] == [0, 5]
    assert response.json["events_scored"] == [
        {"side": 1, "points": 5, "what": "points", "rule": "SCOREPAD-PLAY-2", "detail": "first"}]
    assert api.get(table).json["state"]["scores"] == [0, 5]


def test_teams_give_one_score_per_team(api: Api) -> None:
    table = api.table(players=["A", "B", "C", "D"], options={"start": 0, "target": 61, "teams": [[0, 2], [1, 3]]})
    assert table["state"]["scores"] == [0, 0]
    assert api.post(table, {"type": "points", "side": 1, "points": 7}).json["state"]["scores"] == [0, 7]
    assert error_of(api.post(table, {"type": "points", "side": 2, "points": 1}))["rule"] == "SCOREPAD-PLAY-1"


def test_winner_announced_the_moment_target_is_reached(api: Api) -> None:
    table = api.table(options={"target": 10})
    api.post(table, {"type": "points", "side": 0, "points": 9})
    state = api.post(table, {"type": "points", "side": 0, "points": 1}).json["state"]
    assert state["over"] is True and state["winner"] == 0
    late = api.post(table, {"type": "points", "side": 1, "points": 1})
    assert late.status_code == 422 and error_of(late)["rule"] == "SCOREPAD-END-2"


def test_count_down_from_21_to_0(api: Api) -> None:
    table = api.table(options={"start": 21, "target": 0})
    assert table["state"]["scores"] == [21, 21]
    state = api.post(table, {"type": "points", "side": 1, "points": -21}).json["state"]
    assert state["scores"] == [21, 0] and state["winner"] == 1


def test_stale_expected_seq_gets_409_with_fresh_sheet_and_changes_nothing(api: Api) -> None:
    table = api.table()
    assert api.post(table, {"type": "points", "side": 0, "points": 1, "expected_seq": 0}).status_code == 201
    stale = api.post(table, {"type": "points", "side": 0, "points": 1, "expected_seq": 0})
    assert stale.status_code == 409
    assert error_of(stale)["code"] == "stale"
    assert stale.json["seq"] == 1 and stale.json["state"]["scores"] == [1, 0]
    assert api.get(table).json["seq"] == 1


def test_undo_appends_and_retracts(api: Api) -> None:
    table = api.table()
    api.post(table, {"type": "points", "side": 0, "points": 4})
    api.post(table, {"type": "points", "side": 1, "points": 6})
    response = api.undo(table)
    assert response.status_code == 200
    assert response.json == {"seq": 3, "state": api.get(table).json["state"]}
    assert response.json["state"]["scores"] == [4, 0]
    assert api.undo(table).json["state"]["scores"] == [0, 0]
    nothing = api.undo(table)
    assert nothing.status_code == 409 and error_of(nothing)["code"] == "nothing_to_undo"
    log = api.events(table).json["events"]
    assert [e["event"]["type"] for e in log] == ["points", "points", "undo", "undo"]
    assert [e["event"].get("undoes") for e in log[2:]] == [2, 1]


def test_undo_after_game_over_reopens_the_game(api: Api) -> None:
    table = api.table(options={"target": 3})
    api.post(table, {"type": "points", "side": 0, "points": 3})
    state = api.undo(table).json["state"]
    assert state["over"] is False and state["winner"] is None


def test_export_and_import_round_trip(api: Api, client) -> None:
    table = api.table(players=["Anna", "Bo", "Cy"], options={"target": 30})
    for side, points in [(0, 5), (1, 7), (2, 9)]:
        api.post(table, {"type": "points", "side": side, "points": points})
    api.undo(table)
    exported = api.events(table).json
    assert exported["game"] == "scorepad" and len(exported["events"]) == 4
    imported = client.post("/api/v1/tables/import", json=exported)
    assert imported.status_code == 201
    assert imported.json["id"] != table["id"]
    assert imported.json["state"] == api.get(table).json["state"]
    assert imported.json["seq"] == 4


def test_an_import_whose_undo_has_nothing_to_undo_retracts_nothing(api: Api, client) -> None:
    """No export holds one, but the document lets a log begin with an undo: it retracts nothing
    and is not kept, and the events after it stand (issue 40)."""
    points = {"event": {"type": "points", "side": 1, "points": 4}}
    undo = {"event": {"type": "undo"}}
    body = {"format": "scorekeeper/1", "game": "scorepad", "players": ["A", "B"], "events": [undo, points, undo, undo, points]}
    imported = client.post("/api/v1/tables/import", json=body)
    assert imported.status_code == 201, imported.json
    assert imported.json["state"]["scores"] == [0, 4]
    kept = api.events(imported.json).json["events"]
    assert [e["event"]["type"] for e in kept] == ["points", "undo", "points"]


def test_tampered_import_is_rejected_with_its_rule_and_creates_nothing(api: Api, client, app) -> None:
    from scorekeeper.models import Table

    table = api.table(options={"target": 10})
    api.post(table, {"type": "points", "side": 0, "points": 10})
    exported = api.events(table).json
    exported["events"].append({"event": {"type": "points", "side": 1, "points": 2}})
    response = client.post("/api/v1/tables/import", json=exported)
    assert response.status_code == 422
    assert error_of(response)["rule"] == "SCOREPAD-END-2"
    assert "event 2" in error_of(response)["message"]
    with app.app_context():
        from scorekeeper.extensions import db
        assert db.session.query(Table).count() == 1


@pytest.mark.parametrize("body, status, code", [
    ("not json", 400, "bad_request"),
    ([1, 2], 400, "bad_request"),
    ({"game": "poker", "players": ["A", "B"]}, 400, "bad_request"),
    ({"game": "scorepad", "players": ["A"]}, 422, "unsupported"),
    ({"game": "scorepad", "players": [f"P{i}" for i in range(9)]}, 422, "unsupported"),
    ({"game": "scorepad", "players": ["A", ""]}, 400, "bad_request"),
    ({"game": "scorepad", "players": ["A", "   "]}, 400, "bad_request"),
    ({"game": "scorepad", "players": ["A", "x" * 41]}, 400, "bad_request"),
    ({"game": "scorepad", "players": ["Anna", "anna"]}, 422, "unsupported"),
    ({"game": "scorepad", "players": "Anna, Bo"}, 400, "bad_request"),
    ({"game": "scorepad", "players": ["A", 3]}, 400, "bad_request"),
    ({"game": "scorepad", "players": ["A", "B"], "mode": "chaos"}, 400, "bad_request"),
    ({"game": "scorepad", "players": ["A", "B"], "options": {"target": "61"}}, 422, "unsupported"),
    ({"game": "scorepad", "players": ["A", "B"], "options": {"speed": 3}}, 422, "unsupported"),
    ({"game": "scorepad", "players": ["A", "B"], "options": {"start": 5, "target": 5}}, 422, "unsupported"),
    ({"game": "scorepad", "players": ["A", "B", "C"], "options": {"teams": [[0, 1], [1, 2]]}}, 422, "unsupported"),
])
def test_create_errors(client, app, body, status, code) -> None:
    from scorekeeper.extensions import db
    from scorekeeper.models import Table

    if isinstance(body, str):
        response = client.post("/api/v1/tables", data=body, content_type="application/json")
    else:
        response = client.post("/api/v1/tables", json=body)
    assert response.status_code == status
    assert error_of(response)["code"] == code
    with app.app_context():
        assert db.session.query(Table).count() == 0


def test_unsupported_player_count_names_its_rule(api: Api) -> None:
    assert error_of(api.create(players=["Solo"]))["rule"] == "SCOREPAD-SETUP-1"


def test_html_in_names_is_stored_verbatim_and_returned_as_data(api: Api) -> None:
    table = api.table(players=["<script>alert(1)</script>", "Bo"])
    assert api.get(table).json["players"][0] == "<script>alert(1)</script>"


@pytest.mark.parametrize("event, status, code, rule", [
    ({"type": "points", "side": 0, "points": "5"}, 400, "malformed_event", None),
    ({"type": "points", "side": 0, "points": 2.5}, 400, "malformed_event", None),
    ({"type": "points", "side": 0, "points": True}, 400, "malformed_event", None),
    ({"type": "points", "side": 0}, 400, "malformed_event", None),
    ({"type": "points", "side": -1, "points": 1}, 400, "malformed_event", None),
    ({"type": "points", "side": 0, "points": 1, "note": 7}, 400, "malformed_event", None),
    ({"type": "points", "side": 0, "points": 1, "note": "x" * 201}, 400, "malformed_event", None),
    ({"type": "points", "side": 0, "points": 10 ** 9}, 400, "malformed_event", None),
    ({"type": "dance"}, 400, "malformed_event", None),
    ({"side": 0, "points": 1}, 400, "malformed_event", None),
    ({"type": "undo"}, 400, "malformed_event", None),
    ({"type": "points", "side": 5, "points": 1}, 422, "illegal_move", "SCOREPAD-PLAY-1"),
    ({"type": "points", "side": 0, "points": 1, "expected_seq": "0"}, 400, "bad_request", None),
])
def test_event_errors_change_nothing(api: Api, event, status, code, rule) -> None:
    table = api.table()
    api.post(table, {"type": "points", "side": 0, "points": 2})
    before = api.get(table).json
    response = api.post(table, event)
    assert response.status_code == status, response.json
    error = error_of(response)
    assert error["code"] == code and error["rule"] == rule
    assert api.get(table).json == before


def test_malformed_json_event(api: Api, client) -> None:
    table = api.table()
    response = client.post(f"/api/v1/tables/{table['id']}/events", data="{oops",
                           content_type="application/json",
                           headers={"Authorization": f"Bearer {table['write_token']}"})
    assert response.status_code == 400 and error_of(response)["code"] == "bad_request"


def test_tokens(api: Api, client) -> None:
    table = api.table()
    url = f"/api/v1/tables/{table['id']}"
    assert client.get(url).status_code == 401
    assert error_of(client.get(url))["code"] == "unauthorized"
    assert client.get(url, headers={"Authorization": "Bearer nope"}).status_code == 403
    other = api.table()
    assert client.get(url, headers={"Authorization": f"Bearer {other['read_token']}"}).status_code == 403
    read_write = api.post(table, {"type": "points", "side": 0, "points": 1}, token=table["read_token"])
    assert read_write.status_code == 403 and error_of(read_write)["code"] == "forbidden"
    assert api.undo(table, token=table["read_token"]).status_code == 403
    assert client.post(f"{url}/events", json={"type": "points", "side": 0, "points": 1}).status_code == 401
    assert api.get(table).json["seq"] == 0


def test_unknown_table_is_404(api: Api, client) -> None:
    response = client.get("/api/v1/tables/nosuchtable", headers={"Authorization": "Bearer x"})
    assert response.status_code == 404 and error_of(response)["code"] == "not_found"
    response = client.post("/api/v1/tables/nosuchtable/events", json={"type": "points"},
                           headers={"Authorization": "Bearer x"})
    assert response.status_code == 404


def test_unknown_api_route_answers_json(client) -> None:
    response = client.get("/api/v1/nothing-here")
    assert response.status_code == 404 and error_of(response)["code"] == "not_found"


def test_stream_sends_current_seq_then_each_new_one(api: Api, client, app) -> None:
    app.config.update(SSE_PING_SECONDS=0.05, SSE_MAX_SECONDS=0.3)
    table = api.table()
    api.post(table, {"type": "points", "side": 0, "points": 1})
    assert client.get(f"/api/v1/tables/{table['id']}/stream").status_code == 401
    response = client.get(f"/api/v1/tables/{table['id']}/stream?token={table['read_token']}")
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    body = response.get_data(as_text=True)
    assert 'data: {{"table": "{}", "seq": 1}}'.format(table["id"]) in body
    assert ": ping" in body


@pytest.mark.parametrize("path", ["", "/events", "/review"])
def test_a_json_read_takes_its_token_from_the_header_only(api: Api, client, path: str) -> None:
    """A token in an address lands in access logs and histories: only the stream, whose
    EventSource cannot send a header, takes ``?token=`` (issue 40)."""
    table = api.table()
    url = f"/api/v1/tables/{table['id']}{path}"
    for token in (table["read_token"], table["write_token"]):
        refused = client.get(f"{url}?token={token}")
        assert refused.status_code == 401 and error_of(refused)["code"] == "unauthorized"
        assert client.get(url, headers={"Authorization": f"Bearer {token}"}).status_code == 200


def test_games_lists_every_registered_game(client) -> None:
    games = {g["id"] for g in client.get("/api/v1/games").json["games"]}
    assert "scorepad" in games


def test_streams_beyond_the_cap_get_503_and_free_their_slot(api: Api, client, app) -> None:
    from scorekeeper.web.api import open_streams

    base = open_streams()  # streams of earlier tests the test client has not closed yet
    app.config.update(SSE_MAX_STREAMS=base + 1, SSE_PING_SECONDS=0.05, SSE_MAX_SECONDS=0.2)
    table = api.table()
    url = f"/api/v1/tables/{table['id']}/stream?token={table['read_token']}"
    first = client.get(url, buffered=False)
    assert first.status_code == 200 and open_streams() == base + 1
    second = client.get(url)
    assert second.status_code == 503 and error_of(second)["code"] == "busy"
    first.close()
    assert open_streams() == base
    assert client.get(url).status_code == 200
