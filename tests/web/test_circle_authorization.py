"""A circle's authorization matrix (issue 38): every write of a circle tried with no credential,
its watch token, another circle's join token, and (for the owner's calls) its join token; each
is refused and changes nothing, and the right credential is accepted."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import Circle, Table
from tests.web.test_authorization import CIRCLE_ROUTES
from tests.web.test_circles import auth, new_circle


class Circles:
    def __init__(self, app: Flask) -> None:
        self.app = app
        self.api = app.test_client()
        self.a = new_circle(self.api, ["Anna", "Bo", "Cilla"], "A")
        self.b = new_circle(self.api, ["Anna", "Bo", "Cilla"], "B")
        self.table = self.api.post("/api/v1/tables", json={"game": "scorepad", "players": ["Anna", "Bo"]}).get_json()
        self.kept = self.api.post("/api/v1/tables", headers=auth(self.a["write_token"]),
                                  json={"game": "scorepad", "players": ["Anna", "Bo"], "circle": self.a["id"]}).get_json()

    def state(self) -> tuple[Any, ...]:
        with self.app.app_context():
            circle = db.session.get(Circle, self.a["id"])
            return (circle.name, circle.write_token, circle.read_token, circle.codes,
                    sorted((m.name, tuple(m.aliases or ())) for m in circle.members),
                    sorted((t.id, t.circle_id) for t in db.session.query(Table).all()))

    def phone(self, token: str) -> FlaskClient:
        client = self.app.test_client()
        circle = self.a if token in self.a.values() else self.b
        assert client.get(f"/c/{circle['id']}/k/{token}").status_code == 302
        return client


@pytest.fixture
def circles(sqlite_app: Flask) -> Circles:
    return Circles(sqlite_app)


def api_call(c: Circles, route: str, token: str | None) -> Any:
    headers = auth(token) if token else {}
    if route == "POST /api/v1/circles/<circle_id>/tables":
        return c.api.post(f"/api/v1/circles/{c.a['id']}/tables", headers=headers,
                          json={"table_id": c.table["id"], "token": c.table["write_token"]})
    if route == "DELETE /api/v1/circles/<circle_id>/tables/<table_id>":
        return c.api.delete(f"/api/v1/circles/{c.a['id']}/tables/{c.kept['id']}", headers=headers)
    if route == "POST /api/v1/circles/<circle_id>/codes":
        return c.api.post(f"/api/v1/circles/{c.a['id']}/codes", headers=headers)
    if route == "PATCH /api/v1/circles/<circle_id:circle_id>":
        return c.api.patch(f"/api/v1/circles/{c.a['id']}", headers=headers,
                           json={"name": "Renamed", "members": [{"name": "Bo", "aliases": ["Bosse"]}]})
    if route == "DELETE /api/v1/circles/<circle_id:circle_id>":
        return c.api.delete(f"/api/v1/circles/{c.a['id']}", headers=headers)
    return c.api.post("/api/v1/tables", headers=headers,
                      json={"game": "scorepad", "players": ["Anna", "Bo"], "circle": c.a["id"]})


API = ["POST /api/v1/circles/<circle_id>/tables", "DELETE /api/v1/circles/<circle_id>/tables/<table_id>",
       "POST /api/v1/circles/<circle_id>/codes", "PATCH /api/v1/circles/<circle_id:circle_id>",
       "DELETE /api/v1/circles/<circle_id:circle_id>", "POST /api/v1/tables"]
OWNER = {"POST /api/v1/circles/<circle_id>/codes", "DELETE /api/v1/circles/<circle_id:circle_id>"}


def html_call(c: Circles, phone: FlaskClient, route: str) -> Any:
    cid = c.a["id"]
    if route == "POST /c/<circle_id>/tables":
        return phone.post(f"/c/{cid}/tables", data={"game": "scorepad", "players": ["Anna", "Bo"]})
    if route == "POST /c/<circle_id>/tables/<table_id>/remove":
        return phone.post(f"/c/{cid}/tables/{c.kept['id']}/remove")
    if route == "POST /c/<circle_id>/aliases":
        return phone.post(f"/c/{cid}/aliases", data={"member": "Bo", "alias": "Bosse"})
    return phone.post(f"/t/{c.table['id']}/circle", data={"circle": cid})


HTML = ["POST /c/<circle_id>/tables", "POST /c/<circle_id>/tables/<table_id>/remove", "POST /c/<circle_id>/aliases",
        "POST /t/<table_id>/circle"]


def test_the_matrix_covers_every_circle_route(sqlite_app: Flask) -> None:
    """Every call that writes to a circle (any method) is tried below; a new one must join it."""
    writes = {f"{method} {rule.rule}" for rule in sqlite_app.url_map.iter_rules() if "circle" in rule.rule
              for method in (rule.methods or set()) & {"POST", "PUT", "PATCH", "DELETE"}}
    opened = {"POST /api/v1/circles", "POST /api/v1/circles/import", "POST /circles"}
    assert writes - opened == {r for r in API + HTML if "circle" in r}
    assert {r.split(" ")[1] for r in API + HTML if r.startswith("POST ") and "circle" in r} == CIRCLE_ROUTES


@pytest.mark.parametrize("route", API)
@pytest.mark.parametrize("credential", ["none", "read", "other_write", "write"])
def test_api_refusals_change_nothing(circles: Circles, route: str, credential: str) -> None:
    token = {"none": None, "read": circles.a["read_token"], "other_write": circles.b["write_token"],
             "write": circles.a["write_token"]}[credential]
    if credential == "write" and route not in OWNER:
        return  # the join token may do these: accepted below
    before = circles.state()
    r = api_call(circles, route, token)
    assert r.status_code == (401 if token is None else 403), r.get_json()
    assert r.get_json()["error"]["code"] == ("unauthorized" if token is None else "forbidden")
    assert circles.state() == before


@pytest.mark.parametrize("route", API)
def test_the_right_token_is_accepted(circles: Circles, route: str) -> None:
    token = circles.a["owner_token"] if route in OWNER else circles.a["write_token"]
    before = circles.state()
    r = api_call(circles, route, token)
    assert r.status_code in (200, 201), r.get_json()
    if route != "DELETE /api/v1/circles/<circle_id:circle_id>":
        assert circles.state() != before


@pytest.mark.parametrize("route", HTML)
@pytest.mark.parametrize("credential", ["none", "read", "other_write"])
def test_html_refusals_change_nothing(circles: Circles, route: str, credential: str) -> None:
    phone = {"none": circles.app.test_client(), "read": None, "other_write": None}[credential] \
        or circles.phone(circles.a["read_token"] if credential == "read" else circles.b["write_token"])
    before = circles.state()
    assert html_call(circles, phone, route).status_code == 403
    assert circles.state() == before


@pytest.mark.parametrize("route", HTML)
def test_the_join_link_is_accepted_on_the_page(circles: Circles, route: str) -> None:
    before = circles.state()
    phone = circles.phone(circles.a["write_token"])
    if route.startswith("POST /t/"):  # keeping a table in a circle needs the table's join link too
        assert phone.get(f"/t/{circles.table['id']}/k/{circles.table['write_token']}").status_code == 302
    assert html_call(circles, phone, route).status_code == 302
    assert circles.state() != before
