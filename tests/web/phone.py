"""What a phone does in page tests: open a table through the API and hold its write capability,
fetch the live sheet, post a form as htmx does."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import MultiDict

HX = {"HX-Request": "true"}


def api_table(client: FlaskClient, game: str, events: list[dict[str, Any]], players: Sequence[str],
              mode: str = "adjudicate", seat: int | None = 0, **options: Any) -> dict[str, Any]:
    """A table built through the JSON API; this client then holds its write capability."""
    table: dict[str, Any] = client.post("/api/v1/tables", json={"game": game, "players": list(players), "mode": mode,
                                                                "options": options}).json
    for event in events:
        response = client.post(f"/api/v1/tables/{table['id']}/events", json=event,
                               headers={"Authorization": f"Bearer {table['write_token']}"})
        assert response.status_code == 201, (event, response.json)
    assert client.get(f"/t/{table['id']}/k/{table['write_token']}").status_code == 302
    if seat is not None:
        client.post(f"/t/{table['id']}/seat", data={"seat": str(seat)})
    return table


def sheet(client: FlaskClient, table_id: str, **args: Any) -> str:
    response = client.get(f"/t/{table_id}/sheet", query_string=args, headers=HX)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def post(client: FlaskClient, table_id: str, data: dict[str, Any] | MultiDict[str, Any], status: int = 200) -> str:
    response = client.post(f"/t/{table_id}/events", data=data, headers=HX)
    assert response.status_code == status, response.get_data(as_text=True)[:2000]
    return response.get_data(as_text=True)


def state(app: Flask, table_id: str) -> dict[str, Any]:
    """The engine's state JSON of a table, as the API would report it."""
    from scorekeeper import service

    with app.app_context():
        return service.state_json(service.get_table(table_id))


def events(client: FlaskClient, table_id: str, *evs: dict[str, Any]) -> str:
    """Post events as forms (ints typed ``:int``); the last sheet returned."""
    html = ""
    for e in evs:
        data = {k + (":int" if isinstance(v, int) and not isinstance(v, bool) else ""): str(v) for k, v in e.items()}
        html = post(client, table_id, data)
    return html


def watcher_of(app: Flask, table_id: str) -> FlaskClient:
    """A second phone that opened the watch link."""
    from scorekeeper.extensions import db
    from scorekeeper.models import Table

    with app.app_context():
        read = db.session.get(Table, table_id).read_token
    watcher = app.test_client()
    assert watcher.get(f"/t/{table_id}/k/{read}").status_code == 302
    return watcher
