"""The authorization matrix (issue 17): every write endpoint of the API and every HTML form post,
tried with no credential, a read (watch) credential, another table's write credential and a stale
cookie. Each is refused and changes nothing; the table's own write credential is accepted (so the
requests are well-formed and a refusal means what it says).

The API authenticates with bearer tokens only: a cookie that holds the write capability opens
nothing there (the API is exempt from CSRF, so it must never act on cookies)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

POINT_API = {"json": {"type": "points", "side": 0, "points": 1}}
POINT_FORM = {"data": {"type": "points", "side:int": "0", "points:int": "1"}}

# route → what a well-formed request sends
WRITE_ROUTES: dict[str, dict[str, Any]] = {
    "/api/v1/tables/<table_id>/events": POINT_API,
    "/api/v1/tables/<table_id>/undo": {},
    "/t/<table_id>/events": POINT_FORM,
    "/t/<table_id>/undo": {},
    "/t/<table_id>/seat": {"data": {"seat": "1"}},  # taking (over) a seat
}
# What only the owner capability (whoever opened the table) may do: a seated phone's write
# capability is refused too, so a photo of the join code cannot erase the table or lock others out.
OWNER_ROUTES: dict[str, dict[str, Any]] = {
    "/t/<table_id>/delete": {},  # the whole table (its API twin, DELETE, is in test_delete.py)
    "/t/<table_id>/codes": {},  # new join and watch codes
    "/api/v1/tables/<table_id>/codes": {},
}
ROUTES = {**WRITE_ROUTES, **OWNER_ROUTES}
# Anyone may open a table (rate-limited): these take no credential by design. House rules
# (options) are set only here, when a table is opened or imported; no route changes them later.
# The dispute desk judges a position sent in the body and touches no table.
# Leaving a table touches only this phone: its cookie forgets the table, and the seat it held is free.
# Where a hut copy's table went changes nothing, and answers only its watch link (the copy's origin
# is its credential: tests/web/test_hut_where.py).
OPEN_ROUTES = {"/api/v1/tables", "/api/v1/tables/import", "/tables", "/import", "/api/v1/desk/<game>",
               "/t/<table_id>/leave", "/api/v1/circles", "/api/v1/circles/import", "/circles", "/hut/where"}
# A circle's writes (and keeping a table in one): their matrix is test_circle_authorization.py's.
CIRCLE_ROUTES = {"/api/v1/circles/<circle_id>/tables", "/api/v1/circles/<circle_id>/codes",
                 "/c/<circle_id>/tables", "/c/<circle_id>/tables/<table_id>/remove", "/c/<circle_id>/aliases",
                 "/t/<table_id>/circle"}

API_REFUSALS = {"none": 401, "read_token": 403, "other_tables_write_token": 403, "write_cookie_without_token": 401,
                "write_token_in_query": 401, "stale_cookie": 401}
HTML_REFUSALS = {"none": 403, "read_cookie": 403, "read_token_in_query": 403, "other_tables_write_cookie": 403,
                 "stale_cookie": 403}


class Tables:
    def __init__(self, app: Flask) -> None:
        self.app = app
        opener = app.test_client()
        self.a = self._open(opener, "Anna", "Bo")
        self.b = self._open(opener, "Cy", "Di")

    @staticmethod
    def _open(client: FlaskClient, *players: str) -> dict[str, Any]:
        table = client.post("/api/v1/tables", json={"game": "scorepad", "players": list(players)}).json
        for side in (0, 1):
            assert client.post(f"/api/v1/tables/{table['id']}/events", json={"type": "points", "side": side,
                                                                             "points": 2},
                               headers={"Authorization": f"Bearer {table['write_token']}"}).status_code == 201
        return table

    def entered(self, table: dict[str, Any], token_key: str, seat: int | None = None) -> FlaskClient:
        client = self.app.test_client()
        assert client.get(f"/t/{table['id']}/k/{table[token_key]}").status_code == 302
        if seat is not None:  # takeover=1: another phone of the matrix may hold the seat already
            assert client.post(f"/t/{table['id']}/seat", data={"seat": str(seat), "takeover": "1"}).status_code == 302
        return client

    def stale(self) -> FlaskClient:
        """A phone that joined table A and took seat 0 under a secret key since retired."""
        current = self.app.secret_key
        self.app.secret_key = "retired-key"
        try:
            return self.entered(self.a, "write_token", seat=0)
        finally:
            self.app.secret_key = current

    def snapshot(self) -> tuple[Any, ...]:
        from scorekeeper import service
        from scorekeeper.extensions import db
        from scorekeeper.models import Event

        with self.app.app_context():
            table = service.get_table(self.a["id"])
            return (table.head_seq, db.session.query(Event).filter_by(table_id=table.id).count(),
                    service.state_json(table), table.players, table.write_token, table.read_token)


@pytest.fixture
def tables(sqlite_app: Flask) -> Tables:
    return Tables(sqlite_app)


def api_credential(tables: Tables, name: str) -> tuple[FlaskClient, dict[str, str], dict[str, str]]:
    """(client, headers, query) for an API request."""
    a, b, fresh = tables.a, tables.b, tables.app.test_client()
    return {
        "none": (fresh, {}, {}),
        "read_token": (fresh, {"Authorization": f"Bearer {a['read_token']}"}, {}),
        "other_tables_write_token": (fresh, {"Authorization": f"Bearer {b['write_token']}"}, {}),
        "write_cookie_without_token": (tables.entered(a, "write_token", seat=0), {}, {}),
        "write_token_in_query": (fresh, {}, {"token": a["write_token"]}),
        "stale_cookie": (tables.stale(), {}, {}),
        "own_write_token": (fresh, {"Authorization": f"Bearer {a['write_token']}"}, {}),
        "owner_token": (fresh, {"Authorization": f"Bearer {a['owner_token']}"}, {}),
    }[name]


def html_credential(tables: Tables, name: str) -> tuple[FlaskClient, dict[str, str]]:
    a, b = tables.a, tables.b
    maker: dict[str, Callable[[], tuple[FlaskClient, dict[str, str]]]] = {
        "none": lambda: (tables.app.test_client(), {}),
        "read_cookie": lambda: (tables.entered(a, "read_token"), {}),
        "read_token_in_query": lambda: (tables.app.test_client(), {"token": a["read_token"]}),
        "other_tables_write_cookie": lambda: (tables.entered(b, "write_token", seat=0), {}),
        "stale_cookie": tables.stale,
        "own_write_cookie": lambda: (tables.entered(a, "write_token"), {}),
        "own_seated_write_cookie": lambda: (tables.entered(a, "write_token", seat=0), {}),
        "owner_cookie": lambda: (tables.entered(a, "owner_token"), {}),
    }
    made = maker[name]()
    return made if isinstance(made, tuple) else (made, {})


def seat_of_a(tables: Tables, client: FlaskClient) -> Any:
    with client.session_transaction() as session:
        return (session.get("tables") or {}).get(tables.a["id"], {}).get("seat")


def request(client: FlaskClient, route: str, table_id: str, headers: dict[str, str], query: dict[str, str]):
    kwargs = {**ROUTES[route]}
    if route.startswith("/t/"):
        headers = {**headers, "HX-Request": "true"}
    return client.post(route.replace("<table_id>", table_id), headers=headers, query_string=query, **kwargs)


def test_every_post_route_is_in_the_matrix(sqlite_app: Flask) -> None:
    """A new write endpoint must join the matrix below (or be declared open) before it ships."""
    posts = {rule.rule for rule in sqlite_app.url_map.iter_rules() if "POST" in (rule.methods or ())}
    assert posts == set(ROUTES) | OPEN_ROUTES | CIRCLE_ROUTES


@pytest.mark.parametrize("credential", list(API_REFUSALS))
@pytest.mark.parametrize("route", [r for r in ROUTES if r.startswith("/api/")])
def test_api_write_refused(tables: Tables, route: str, credential: str) -> None:
    client, headers, query = api_credential(tables, credential)
    before = tables.snapshot()
    response = request(client, route, tables.a["id"], headers, query)
    assert response.status_code == API_REFUSALS[credential], response.get_data(as_text=True)[:300]
    assert response.json["error"]["code"] == {401: "unauthorized", 403: "forbidden"}[response.status_code]
    assert tables.snapshot() == before


@pytest.mark.parametrize("credential", list(HTML_REFUSALS))
@pytest.mark.parametrize("route", [r for r in ROUTES if r.startswith("/t/")])
def test_html_form_post_refused(tables: Tables, route: str, credential: str) -> None:
    client, query = html_credential(tables, credential)
    seat_before = seat_of_a(tables, client)
    before = tables.snapshot()
    response = request(client, route, tables.a["id"], {}, query)
    assert response.status_code == HTML_REFUSALS[credential], response.get_data(as_text=True)[:300]
    assert tables.snapshot() == before
    assert seat_of_a(tables, client) == seat_before  # no seat taken over either


@pytest.mark.parametrize("route", list(WRITE_ROUTES))
def test_the_tables_own_write_credential_is_accepted(tables: Tables, route: str) -> None:
    if route.startswith("/api/"):
        client, headers, query = api_credential(tables, "own_write_token")
    else:
        (client, query), headers = html_credential(tables, "own_write_cookie"), {}
    before = tables.snapshot()
    response = request(client, route, tables.a["id"], headers, query)
    assert response.status_code in (200, 201, 302), response.get_data(as_text=True)[:300]
    if route.endswith("/seat"):
        assert seat_of_a(tables, client) == 1
    else:
        assert tables.snapshot()[0] == before[0] + 1


@pytest.mark.parametrize("credential", ["own_write_token", "own_write_cookie", "own_seated_write_cookie"])
@pytest.mark.parametrize("route", list(OWNER_ROUTES))
def test_the_write_capability_cannot_do_what_only_the_owner_may(tables: Tables, route: str, credential: str) -> None:
    if route.startswith("/api/") != (credential == "own_write_token"):
        pytest.skip("an API route takes a token, a page's form a cookie")
    if route.startswith("/api/"):
        client, headers, query = api_credential(tables, credential)
    else:
        (client, query), headers = html_credential(tables, credential), {}
    before = tables.snapshot()
    response = request(client, route, tables.a["id"], headers, query)
    assert response.status_code == 403, response.get_data(as_text=True)[:300]
    assert tables.snapshot() == before  # still there, with the same codes


@pytest.mark.parametrize("route", list(OWNER_ROUTES))
def test_the_owner_capability_is_accepted(tables: Tables, route: str) -> None:
    if route.startswith("/api/"):
        client, headers, query = api_credential(tables, "owner_token")
    else:
        (client, query), headers = html_credential(tables, "owner_cookie"), {}
    before = tables.snapshot()
    response = request(client, route, tables.a["id"], headers, query)
    assert response.status_code in (200, 302), response.get_data(as_text=True)[:300]
    if route.endswith("/delete"):
        assert client.get(f"/t/{tables.a['id']}").status_code == 404
    else:  # new codes: the moves stay, both tokens are new
        after = tables.snapshot()
        assert after[:4] == before[:4] and after[4] != before[4] and after[5] != before[5]


@pytest.mark.parametrize("route", list(ROUTES))
def test_a_cookie_of_an_expired_table_finds_nothing(tables: Tables, route: str) -> None:
    from scorekeeper.commands import expire_tables

    client = tables.entered(tables.a, "write_token", seat=0)
    with tables.app.app_context():
        assert expire_tables(-1) == 2
    headers = {"Authorization": f"Bearer {tables.a['write_token']}"} if route.startswith("/api/") else {}
    assert request(client, route, tables.a["id"], headers, {}).status_code == 404


@pytest.mark.parametrize("path", ["/t/<table_id>", "/t/<table_id>/sheet", "/t/<table_id>/history",
                                  "/t/<table_id>/stream", "/t/<table_id>/preview", "/t/<table_id>/export.json",
                                  "/t/<table_id>/qr/watch.svg", "/t/<table_id>/qr/join.svg", "/t/<table_id>/review"])
def test_pages_need_a_capability_and_join_qr_needs_write(tables: Tables, path: str) -> None:
    url = path.replace("<table_id>", tables.a["id"])
    assert tables.app.test_client().get(url).status_code == 403
    for token in ("read_token", "write_token"):  # a page reads no token from its address (issue 40)
        assert tables.app.test_client().get(f"{url}?token={tables.a[token]}").status_code == 403
    assert tables.stale().get(url).status_code == 403
    assert tables.entered(tables.b, "write_token").get(url).status_code == 403
    watcher = tables.entered(tables.a, "read_token").get(url, buffered=False)
    assert watcher.status_code == (403 if path.endswith("join.svg") else 200)
    watcher.close()
