"""What a phone does in page tests: open a table through the API and hold its write capability,
fetch the live sheet, post a form as htmx does."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

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
