"""JSON answers are written by orjson: same content as the standard encoder, keys sorted, UTF-8."""

from __future__ import annotations

import json
from datetime import datetime

from flask import Flask


def test_an_answer_holds_the_same_json_as_the_standard_encoder_would_write(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    made = client.post("/api/v1/tables", json={"game": "scorepad", "players": ["Åsa", "Jörg"]}).json
    body = client.get(f"/api/v1/tables/{made['id']}", headers={"Authorization": f"Bearer {made['read_token']}"}).get_data()
    assert "Åsa".encode() in body and b"\\u00c5" not in body  # UTF-8, not \u escapes
    data = json.loads(body)
    assert list(data) == sorted(data) and list(data["state"]) == sorted(data["state"])
    with sqlite_app.app_context():
        assert json.loads(sqlite_app.json.dumps(data)) == data


def test_what_orjson_does_not_write_goes_to_flasks_encoder(sqlite_app: Flask) -> None:
    from flask.json.provider import DefaultJSONProvider

    standard = DefaultJSONProvider(sqlite_app)
    when = datetime(2026, 11, 26, 10, 30)
    big = 2 ** 80  # beyond orjson's 64 bits
    with sqlite_app.app_context():
        for value in ({"at": when}, {"n": big}, {3: "seat keys"}, [1.5, None, True]):
            assert json.loads(sqlite_app.json.dumps(value)) == json.loads(standard.dumps(value))
        response = sqlite_app.json.response({"n": big})
        assert json.loads(response.get_data()) == {"n": big}
