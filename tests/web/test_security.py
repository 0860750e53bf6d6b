"""CSRF on every form post, rate limits on opening tables and on events, cookie flags."""

from __future__ import annotations

import re

from tests.web.conftest import make_app


def test_form_posts_need_the_csrf_token(tmp_path) -> None:
    app = make_app(f"sqlite:///{tmp_path / 'c.sqlite'}", WTF_CSRF_ENABLED=True)
    client = app.test_client()
    refused = client.post("/tables", data={"game": "scorepad", "players": ["A", "B"]})
    assert refused.status_code == 400
    page = client.get("/").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    assert f'"X-CSRFToken": "{token}"' in page  # htmx sends it as a header
    opened = client.post("/tables", data={"game": "scorepad", "players": ["A", "B"], "csrf_token": token})
    assert opened.status_code == 302
    table_id = opened.location.rsplit("/", 1)[1]
    hx = client.post(f"/t/{table_id}/events", data={"type": "points", "side:int": "0", "points:int": "1"},
                     headers={"HX-Request": "true", "X-CSRFToken": token})
    assert hx.status_code == 200
    forged = client.post(f"/t/{table_id}/events", data={"type": "points", "side:int": "0", "points:int": "1"})
    assert forged.status_code == 400
    # the JSON API authenticates with tokens and needs no CSRF token
    assert client.post("/api/v1/tables", json={"game": "scorepad", "players": ["A", "B"]}).status_code == 201


def test_rate_limits_answer_429(tmp_path) -> None:
    app = make_app(f"sqlite:///{tmp_path / 'r.sqlite'}", RATELIMIT_ENABLED=True, RATE_LIMIT_CREATE="2 per minute",
                   RATE_LIMIT_EVENTS="3 per minute")
    client = app.test_client()
    bodies = [client.post("/api/v1/tables", json={"game": "scorepad", "players": ["A", "B"]}) for _ in range(3)]
    assert [b.status_code for b in bodies] == [201, 201, 429]
    assert bodies[2].json["error"]["code"] == "too_many_requests"
    table = bodies[0].json
    headers = {"Authorization": f"Bearer {table['write_token']}"}
    codes = [client.post(f"/api/v1/tables/{table['id']}/events", json={"type": "points", "side": 0, "points": 1},
                         headers=headers).status_code for _ in range(4)]
    assert codes == [201, 201, 201, 429]


def test_rate_limits_count_per_address_and_say_what_is_left(tmp_path) -> None:
    app = make_app(f"sqlite:///{tmp_path / 'r.sqlite'}", RATELIMIT_ENABLED=True, RATE_LIMIT_CREATE="9 per minute",
                   RATE_LIMIT_EVENTS="2 per minute;50 per hour")
    client = app.test_client()
    table = client.post("/api/v1/tables", json={"game": "scorepad", "players": ["A", "B"]}).json
    url, headers = f"/api/v1/tables/{table['id']}/events", {"Authorization": f"Bearer {table['write_token']}"}
    body = {"type": "points", "side": 0, "points": 1}
    first = client.post(url, json=body, headers=headers)
    assert first.status_code == 201
    assert (first.headers["X-RateLimit-Limit"], first.headers["X-RateLimit-Remaining"]) == ("2", "1")
    assert client.post(url, json=body, headers=headers).status_code == 201
    refused = client.post(url, json=body, headers=headers)
    assert refused.status_code == 429 and refused.json["error"]["code"] == "too_many_requests"
    assert refused.headers["X-RateLimit-Remaining"] == "0" and 1 <= int(refused.headers["Retry-After"]) <= 60
    # the refusal changed nothing, and another phone (address) still writes
    other = client.post(url, json=body, headers=headers, environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert other.status_code == 201 and other.json["seq"] == 3
    # the sheet's form counts against the same events limit as the API's write, per address
    assert client.get(f"/t/{table['id']}/k/{table['write_token']}").status_code == 302
    form = client.post(f"/t/{table['id']}/events", data={"type": "points", "side:int": "0", "points:int": "1"},
                       headers={"HX-Request": "true"}, environ_base={"REMOTE_ADDR": "192.0.2.8"})
    assert form.status_code == 200
    page = client.post(f"/t/{table['id']}/events", data={"type": "points", "side:int": "0", "points:int": "1"},
                       headers={"HX-Request": "true"}, environ_base={"REMOTE_ADDR": "192.0.2.8"})
    assert page.status_code == 200 and "X-RateLimit-Remaining" in page.headers
    assert client.post(f"/t/{table['id']}/events", data={"type": "points", "side:int": "0", "points:int": "1"},
                       headers={"HX-Request": "true"}, environ_base={"REMOTE_ADDR": "192.0.2.8"}).status_code == 429


def test_session_cookie_flags(tmp_path) -> None:
    app = make_app(f"sqlite:///{tmp_path / 's.sqlite'}", SESSION_COOKIE_SECURE=True)
    client = app.test_client()
    response = client.post("/tables", data={"game": "scorepad", "players": ["A", "B"]})
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" in cookie


def test_the_session_cookie_stays_small_however_many_tables_a_phone_joins(tmp_path) -> None:
    """A cookie over 4 KB is dropped by the browser, and with it every seat the phone held."""
    app = make_app(f"sqlite:///{tmp_path / 'k.sqlite'}")
    client = app.test_client()
    owner = app.test_client()
    tables = [owner.post("/api/v1/tables", json={"game": "scorepad", "players": ["A", "B"]}).json
              for _ in range(120)]
    for table in tables:
        assert client.get(f"/t/{table['id']}/k/{table['write_token']}").status_code == 302
    client.post(f"/t/{tables[-1]['id']}/seat", data={"seat:int": "1"})
    cookie = client.get_cookie("session")
    assert cookie is not None and len(cookie.value) < 3000
    # the tables joined last still open and take events; the index lists them newest first
    for table in tables[-20:]:
        assert client.post(f"/t/{table['id']}/events", data={"type": "points", "side:int": "0", "points:int": "1"},
                           headers={"HX-Request": "true"}).status_code == 200
    index = client.get("/").get_data(as_text=True)
    assert index.index(tables[-1]["id"]) < index.index(tables[-2]["id"])
    assert tables[0]["id"] not in index


def test_a_misspelt_rate_limit_stops_the_app_at_start_and_an_empty_one_means_none(tmp_path) -> None:
    import pytest

    with pytest.raises(ValueError, match="RATE_LIMIT_EVENTS='600 per mnute'"):
        make_app(f"sqlite:///{tmp_path / 'm.sqlite'}", RATELIMIT_ENABLED=True, RATE_LIMIT_EVENTS="600 per mnute")
    app = make_app(f"sqlite:///{tmp_path / 'e.sqlite'}", RATELIMIT_ENABLED=True, RATE_LIMIT_EVENTS="")
    client = app.test_client()
    table = client.post("/api/v1/tables", json={"game": "scorepad", "players": ["A", "B"]}).json
    headers = {"Authorization": f"Bearer {table['write_token']}"}
    codes = {client.post(f"/api/v1/tables/{table['id']}/events", json={"type": "points", "side": 0, "points": 1},
                         headers=headers).status_code for _ in range(5)}
    assert codes == {201}
