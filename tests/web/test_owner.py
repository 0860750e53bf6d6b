"""Only the opener erases a table or makes new codes (issue 40 item 3): the owner capability.

A photo of the join code, taken by a neighbour at the club, must not delete an evening; and a code
that leaked can be revoked: after new codes the old QR codes open nothing, while the phones that
sit at the table keep their seats.
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.live import deliver
from scorekeeper.service import facts_cache, table_facts
from tests.web.test_delete import _open, _phone, bearer, rows

POINT = {"type": "points", "side": 0, "points": 1}


def _move(phone: FlaskClient, table: dict[str, Any]) -> int:
    return phone.post(f"/t/{table['id']}/events", data={"type": "points", "side:int": "0", "points:int": "1"},
                      headers={"HX-Request": "true"}).status_code


def test_creating_a_table_returns_an_owner_capability_of_its_own(app: Flask) -> None:
    client = app.test_client()
    table = _open(client, "Anna", "Bo")
    tokens = {table["write_token"], table["read_token"], table["owner_token"]}
    assert len(tokens) == 3 and all(len(t) >= 32 for t in tokens)
    imported = client.post("/api/v1/tables/import", json=client.get(
        f"/api/v1/tables/{table['id']}/events", headers=bearer(table["read_token"])).json).json
    assert imported["owner_token"] not in tokens and len(imported["owner_token"]) >= 32
    # The owner capability writes and reads like the write capability.
    assert client.post(f"/api/v1/tables/{table['id']}/events", json=POINT,
                       headers=bearer(table["owner_token"])).status_code == 201
    assert client.get(f"/api/v1/tables/{table['id']}", headers=bearer(table["owner_token"])).status_code == 200


def test_new_codes_revoke_the_old_ones_and_the_seated_phones_stay(app: Flask) -> None:
    client = app.test_client()
    table = _open(client, "Anna", "Bo")
    anna = _phone(app, table, "owner_token", 0)
    bo = _phone(app, table, "write_token", 1)
    neighbour = _phone(app, table, "write_token")  # opened a photo of the join code, took no seat
    watcher = _phone(app, table, "read_token")
    base = f"/api/v1/tables/{table['id']}"

    assert client.post(f"{base}/codes", headers=bearer(table["write_token"])).status_code == 403
    new = client.post(f"{base}/codes", headers=bearer(table["owner_token"]))
    assert new.status_code == 200
    codes = new.json
    assert codes["id"] == table["id"]
    assert codes["write_token"] != table["write_token"] and codes["read_token"] != table["read_token"]
    assert codes["join_url"].endswith(f"/t/{table['id']}/k/{codes['write_token']}")
    assert codes["watch_url"].endswith(f"/t/{table['id']}/k/{codes['read_token']}")

    # The old codes open nothing: API, links, and the phones that opened them without a seat.
    assert client.post(f"{base}/events", json=POINT, headers=bearer(table["write_token"])).status_code == 403
    assert client.get(base, headers=bearer(table["read_token"])).status_code == 403
    for old in (table["write_token"], table["read_token"]):
        assert app.test_client().get(f"/t/{table['id']}/k/{old}").status_code == 403
    assert neighbour.get(f"/t/{table['id']}").status_code == 403
    assert _move(neighbour, table) == 403
    assert watcher.get(f"/t/{table['id']}").status_code == 403

    # The seated phones keep their seats and go on playing; the owner too.
    before = rows(app, table["id"])["events"]
    assert _move(bo, table) == 200
    assert _move(anna, table) == 200
    assert rows(app, table["id"])["events"] == before + 2
    assert "You are Bo" in bo.get(f"/t/{table['id']}").get_data(as_text=True)

    # The new codes open the table, and the owner can still delete it.
    assert client.post(f"{base}/events", json=POINT, headers=bearer(codes["write_token"])).status_code == 201
    assert _phone(app, codes, "read_token").get(f"/t/{table['id']}").status_code == 200
    assert client.delete(base, headers=bearer(table["owner_token"])).status_code == 200


def test_the_owner_makes_new_codes_from_the_table_page(sqlite_app: Flask) -> None:
    table = _open(sqlite_app.test_client(), "Anna", "Bo")
    anna = _phone(sqlite_app, table, "owner_token", 0)
    bo = _phone(sqlite_app, table, "write_token", 1)
    page = anna.get(f"/t/{table['id']}").get_data(as_text=True)
    assert 'id="new-codes"' in page and "data-new-codes" in page
    assert 'id="new-codes"' not in bo.get(f"/t/{table['id']}").get_data(as_text=True)
    assert bo.post(f"/t/{table['id']}/codes").status_code == 403
    old_qr = anna.get(f"/t/{table['id']}/qr/join.svg").get_data()

    response = anna.post(f"/t/{table['id']}/codes")
    assert response.status_code == 302
    page = anna.get(response.headers["Location"]).get_data(as_text=True)
    assert 'id="codes-recoded"' in page
    assert table["write_token"] not in page and "/qr/join.svg?v=1" in page  # a cached old QR code is not shown
    assert anna.get(f"/t/{table['id']}/qr/join.svg?v=1").get_data() != old_qr
    assert sqlite_app.test_client().get(f"/t/{table['id']}/k/{table['write_token']}").status_code == 403
    assert _move(bo, table) == 200  # seated: still at the table


def test_a_phone_that_leaves_forgets_the_table_and_frees_its_seat(sqlite_app: Flask) -> None:
    table = _open(sqlite_app.test_client(), "Anna", "Bo")
    _phone(sqlite_app, table, "owner_token", 0)
    bo = _phone(sqlite_app, table, "write_token", 1)
    assert "Anna" in bo.get("/").get_data(as_text=True)  # among Bo's tables
    response = bo.post(f"/t/{table['id']}/leave")
    assert response.status_code == 302 and response.headers["Location"] == "/?left=1"
    home = bo.get("/?left=1").get_data(as_text=True)
    assert 'id="table-left"' in home and "Anna" not in home
    assert bo.get(f"/t/{table['id']}").status_code == 403  # forgotten: it needs the code again
    assert rows(sqlite_app, table["id"])["tables"] == 1  # the table goes on for the others
    with sqlite_app.app_context():
        from scorekeeper import service

        assert [s.holder is not None for s in service.get_table(table["id"]).seats] == [True, False]


def test_a_table_opened_on_the_page_is_owned_by_that_phone(sqlite_app: Flask) -> None:
    anna = sqlite_app.test_client()
    response = anna.post("/tables", data={"game": "scorepad", "players": ["Anna", "Bo"]})
    assert response.status_code == 302
    table_id = response.headers["Location"].rsplit("/", 1)[1]
    page = anna.get(f"/t/{table_id}").get_data(as_text=True)
    assert 'id="delete-table"' in page and 'id="new-codes"' in page and 'id="leave-table"' not in page


def test_a_table_opened_before_owners_were_kept_is_deleted_by_its_write_capability(sqlite_app: Flask) -> None:
    table = _open(sqlite_app.test_client(), "Anna", "Bo")
    with sqlite_app.app_context():
        from scorekeeper import service
        from scorekeeper.extensions import db

        service.get_table(table["id"]).owner_token = None
        db.session.commit()
        facts_cache.clear()
    bo = _phone(sqlite_app, table, "write_token", 1)
    assert 'id="delete-table"' in bo.get(f"/t/{table['id']}").get_data(as_text=True)
    assert sqlite_app.test_client().delete(f"/api/v1/tables/{table['id']}",
                                           headers=bearer(table["write_token"])).status_code == 200


def test_another_worker_making_new_codes_is_heard_through_postgresqls_notify(sqlite_app: Flask) -> None:
    """On PostgreSQL every worker keeps a table's tokens; the worker making new codes says so
    (``<table>:codes``), and the others forget what they kept."""
    table = _open(sqlite_app.test_client(), "Anna", "Bo")
    with sqlite_app.test_request_context():
        table_facts(table["id"])
    assert facts_cache.get(table["id"]) is not None
    from scorekeeper.live import broker

    deliver(broker, f"{table['id']}:codes")
    assert facts_cache.get(table["id"]) is None
