"""Where a guest's copy of a hut table went (``POST /hut/where``, issue 39 item 3): the copy's
origin finds the table a phone put on the server, answered with its watch link only."""

from __future__ import annotations

from typing import Any

ORIGIN = "copy-origin-0123456789abcdef"


def export(origin: str = ORIGIN) -> dict[str, Any]:
    return {"format": "scorekeeper/1", "game": "scorepad", "mode": "adjudicate", "players": ["Anna", "Bo"],
            "origin": origin, "events": [{"event": {"type": "points", "side": 0, "points": 3}}]}


def test_a_copys_origin_finds_its_table_on_the_server_and_only_its_watch_link(client) -> None:
    assert client.post("/hut/where", json={"origin": ORIGIN}).status_code == 404  # not put there yet
    put = client.post("/api/v1/tables/import", json=export())
    assert put.status_code == 201, put.json
    found = client.post("/hut/where", json={"origin": ORIGIN})
    assert found.status_code == 200, found.json
    assert found.json == {"id": put.json["id"], "watch_url": put.json["watch_url"], "seq": 1}
    assert put.json["write_token"] not in str(found.json)


def test_where_refuses_what_is_no_origin_and_a_table_whose_codes_were_made_anew(client) -> None:
    for body in ({"origin": "short"}, {"origin": 7}, {}, []):
        refused = client.post("/hut/where", json=body)
        assert refused.status_code == 400 and refused.json["error"]["code"] == "bad_request", (body, refused.json)
    german = client.post("/hut/where", json={"origin": "x" * 20}, headers={"Accept-Language": "de"})
    assert german.status_code == 404 and german.json["error"]["message"] == "der Tisch dieser Kopie ist nicht auf dem Server"
    put = client.post("/api/v1/tables/import", json=export()).json
    client.post(f"/api/v1/tables/{put['id']}/codes", headers={"Authorization": f"Bearer {put['owner_token']}"})
    assert client.post("/hut/where", json={"origin": ORIGIN}).status_code == 403  # a copy opens nothing then
