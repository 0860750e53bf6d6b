"""A whole number written with a fraction or an exponent (``8.0``, ``1e2``) is a whole number.

JSON Schema counts ``8.0`` as an integer, so a client that sends it where the OpenAPI document
says ``integer`` is right: every body, option, event, import and desk position takes it, as the
one JSON reader turns it into ``8`` (issue 40).
"""

from __future__ import annotations

import json

import pytest
from flask.testing import FlaskClient

from scorekeeper.web.json_input import loads


def _post(client: FlaskClient, path: str, body: str, token: str | None = None):
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    return client.post(path, data=body, headers=headers)


@pytest.mark.parametrize(("text", "value"), [("8.0", 8), ("-0.0", 0), ("1e2", 100), ("2.50e1", 25),
                                             ("9007199254740993.0", 9007199254740993)])
def test_integral_numbers_are_read_as_integers(text: str, value: int) -> None:
    read = loads(text)
    assert read == value and type(read) is int


@pytest.mark.parametrize("text", ["2.5", "1e-3", "1e5000"])
def test_other_numbers_stay_floats(text: str) -> None:
    assert type(loads(text)) is float


def test_options_take_integral_numbers(client: FlaskClient) -> None:
    mousel = _post(client, "/api/v1/tables", '{"game": "mousel", "players": ["A", "B", "C"], "options": {"stack": 8.0}}')
    assert mousel.status_code == 201, mousel.json
    pad = _post(client, "/api/v1/tables", '{"game": "scorepad", "players": ["A", "B"], "options": {"start": 5.0}}')
    assert pad.status_code == 201, pad.json
    assert pad.json["state"]["scores"] == [5, 5]


def test_events_and_expected_seq_take_integral_numbers(client: FlaskClient) -> None:
    table = _post(client, "/api/v1/tables", '{"game": "scorepad", "players": ["A", "B"]}').json
    moved = _post(client, f"/api/v1/tables/{table['id']}/events",
                  '{"type": "points", "side": 1.0, "points": 3e0, "expected_seq": 0.0}', table["write_token"])
    assert moved.status_code == 201, moved.json
    assert moved.json["state"]["scores"] == [0, 3]
    half = _post(client, f"/api/v1/tables/{table['id']}/events", '{"type": "points", "side": 0, "points": 2.5}',
                 table["write_token"])
    assert half.status_code == 400 and half.json["error"]["code"] == "malformed_event"


def test_imports_take_integral_numbers(client: FlaskClient) -> None:
    export = {"format": "scorekeeper/1", "game": "mulle", "mode": "tally", "players": ["A", "B"],
              "events": [{"event": {"type": "tally", "player": 0, "what": "mulle", "count": 2}}]}
    text = json.dumps(export).replace('"count": 2', '"count": 2.0').replace('"player": 0', '"player": 0.0')
    imported = _post(client, "/api/v1/tables/import", text)
    assert imported.status_code == 201, imported.json


def test_the_desk_takes_integral_numbers(client: FlaskClient) -> None:
    pot = _post(client, "/api/v1/desk/mousel", '{"kind": "pot", "pot": 4.0, "taker": 0.0, "tricks": [1, 3.0, 0, null]}')
    assert pot.status_code == 200, pot.json
    assert pot.json["shares"] == [1, 3, 0, 0]
