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


def test_session_cookie_flags(tmp_path) -> None:
    app = make_app(f"sqlite:///{tmp_path / 's.sqlite'}", SESSION_COOKIE_SECURE=True)
    client = app.test_client()
    response = client.post("/tables", data={"game": "scorepad", "players": ["A", "B"]})
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" in cookie
