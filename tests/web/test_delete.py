"""Deleting a table on demand (issue 23 item 9): whoever holds its write capability erases it at once —
names, seats and events gone from the database, the other phones told on their streams, the
tokens opening nothing afterwards."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text

from scorekeeper.extensions import db
from scorekeeper.live import Broker, deleted_message, stream
from tests.web.conftest import wait_until_listening


def _open(client: FlaskClient, *players: str) -> dict[str, Any]:
    table = client.post("/api/v1/tables", json={"game": "scorepad", "players": list(players)}).json
    for side in (0, 1):
        assert client.post(f"/api/v1/tables/{table['id']}/events", json={"type": "points", "side": side, "points": 2},
                           headers={"Authorization": f"Bearer {table['write_token']}"}).status_code == 201
    return dict(table)


def rows(app: Flask, table_id: str) -> dict[str, int]:
    """What the database holds of a table, asked of the tables themselves (not through the ORM)."""
    with app.app_context():
        return {name: db.session.execute(text(f"SELECT count(*) FROM {name} WHERE {key} = :id"),  # noqa: S608
                                         {"id": table_id}).scalar_one()
                for name, key in (("tables", "id"), ("seats", "table_id"), ("events", "table_id"))}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_the_owner_token_deletes_a_table_and_everything_of_it(app: Flask) -> None:
    client = app.test_client()
    table, other = _open(client, "Anna", "Bo"), _open(client, "Cy", "Di")
    assert rows(app, table["id"]) == {"tables": 1, "seats": 2, "events": 2}
    refused = client.delete(f"/api/v1/tables/{table['id']}", headers=bearer(table["write_token"]))
    assert refused.status_code == 403 and "owner" in refused.json["error"]["message"]
    assert rows(app, table["id"]) == {"tables": 1, "seats": 2, "events": 2}
    response = client.delete(f"/api/v1/tables/{table['id']}", headers=bearer(table["owner_token"]))
    assert response.status_code == 200 and response.json == {"id": table["id"], "deleted": True}
    assert rows(app, table["id"]) == {"tables": 0, "seats": 0, "events": 0}
    with app.app_context():
        names = db.session.execute(text("SELECT name FROM seats")).scalars().all()
    assert "Anna" not in names and "Bo" not in names and {"Cy", "Di"} <= set(names)
    assert rows(app, other["id"]) == {"tables": 1, "seats": 2, "events": 2}  # another table is untouched
    # Its tokens open nothing now.
    base = f"/api/v1/tables/{table['id']}"
    assert client.get(base, headers=bearer(table["read_token"])).status_code == 404
    assert client.get(f"{base}/events", headers=bearer(table["read_token"])).status_code == 404
    assert client.get(f"{base}/stream?token={table['read_token']}").status_code == 404
    assert client.post(f"{base}/events", json={"type": "points", "side": 0, "points": 1},
                       headers=bearer(table["write_token"])).status_code == 404
    assert client.post(f"{base}/undo", headers=bearer(table["write_token"])).status_code == 404
    again = client.delete(base, headers=bearer(table["owner_token"]))
    assert again.status_code == 404 and again.json["error"]["code"] == "not_found"
    assert rows(app, table["id"]) == {"tables": 0, "seats": 0, "events": 0}  # the refused write stored nothing


@pytest.mark.parametrize(("credential", "status"), [("none", 401), ("read_token", 403), ("write_token", 403),
                                                    ("other_owner_token", 403), ("owner_token_in_query", 401)])
def test_only_the_owner_token_deletes(sqlite_app: Flask, credential: str, status: int) -> None:
    client = sqlite_app.test_client()
    table, other = _open(client, "Anna", "Bo"), _open(client, "Cy", "Di")
    headers, query = {
        "none": ({}, ""), "read_token": (bearer(table["read_token"]), ""),
        "write_token": (bearer(table["write_token"]), ""),
        "other_owner_token": (bearer(other["owner_token"]), ""),
        "owner_token_in_query": ({}, f"?token={table['owner_token']}"),
    }[credential]
    response = client.delete(f"/api/v1/tables/{table['id']}{query}", headers=headers)
    assert response.status_code == status
    assert rows(sqlite_app, table["id"]) == {"tables": 1, "seats": 2, "events": 2}


def _phone(app: Flask, table: dict[str, Any], token: str, seat: int | None = None) -> FlaskClient:
    phone = app.test_client()
    assert phone.get(f"/t/{table['id']}/k/{table[token]}").status_code == 302
    if seat is not None:
        assert phone.post(f"/t/{table['id']}/seat", data={"seat": str(seat)}).status_code == 302
    return phone


def test_only_the_opener_deletes_the_table_from_its_page(sqlite_app: Flask) -> None:
    table = _open(sqlite_app.test_client(), "Anna", "Bo")
    anna, bo = _phone(sqlite_app, table, "owner_token", 0), _phone(sqlite_app, table, "write_token", 1)
    watcher = _phone(sqlite_app, table, "read_token")
    page = anna.get(f"/t/{table['id']}").get_data(as_text=True)
    # Asked once, without script: a <details> whose button posts the deletion.
    assert 'id="delete-table"' in page and f'action="/t/{table["id"]}/delete"' in page and "data-delete-table" in page
    assert 'data-gone="/?deleted=1"' in page  # where the page's script sends the phone when told
    for other in (bo, watcher):  # a seated phone and a watcher may leave, not delete
        other_page = other.get(f"/t/{table['id']}").get_data(as_text=True)
        assert 'id="delete-table"' not in other_page and 'id="leave-table"' in other_page
        assert other.post(f"/t/{table['id']}/delete").status_code == 403
    assert sqlite_app.test_client().post(f"/t/{table['id']}/delete").status_code == 403
    assert rows(sqlite_app, table["id"])["events"] == 2
    assert "Anna" in anna.get("/").get_data(as_text=True)  # among "your tables"

    response = anna.post(f"/t/{table['id']}/delete")
    assert response.status_code == 302 and response.headers["Location"] == "/?deleted=1"
    assert rows(sqlite_app, table["id"]) == {"tables": 0, "seats": 0, "events": 0}
    home = anna.get(response.headers["Location"]).get_data(as_text=True)
    assert 'id="table-deleted"' in home and "Anna" not in home  # told, and no longer among its tables
    for phone in (bo, watcher):
        assert phone.get(f"/t/{table['id']}").status_code == 404
        assert phone.get(f"/t/{table['id']}/sheet", headers={"HX-Request": "true"}).status_code == 404
    assert bo.post(f"/t/{table['id']}/events", data={"type": "points", "side:int": "0", "points:int": "1"},
                   headers={"HX-Request": "true"}).status_code == 404
    assert rows(sqlite_app, table["id"]) == {"tables": 0, "seats": 0, "events": 0}


def test_a_phone_following_the_table_is_told_and_its_stream_ends(sqlite_app: Flask) -> None:
    sqlite_app.config.update(SSE_PING_SECONDS=5.0, SSE_MAX_SECONDS=30.0)
    table = _open(sqlite_app.test_client(), "Anna", "Bo")
    bo = _phone(sqlite_app, table, "write_token", 1)
    response = bo.get(f"/t/{table['id']}/stream", buffered=False)
    chunks = iter(response.response)
    assert b"retry" in next(chunks) and b'"seq": 2' in next(chunks)
    started = time.monotonic()
    assert sqlite_app.test_client().delete(f"/api/v1/tables/{table['id']}",
                                           headers=bearer(table["owner_token"])).status_code == 200
    rest = b"".join(chunks)  # the stream ends by itself: no ping, no 30 s wait
    response.close()
    assert rest == deleted_message(table["id"])
    assert time.monotonic() - started < 4


def test_a_waiting_stream_hears_the_deletion_at_once() -> None:
    broker = Broker()
    messages = stream("T1", 3, ping_every=10.0, max_seconds=30.0, source=broker)
    assert next(messages).startswith(b"retry") and b'"seq": 3' in next(messages)
    timer = threading.Timer(0.2, broker.deleted, ("T1",))
    timer.start()
    started = time.monotonic()
    assert next(messages) == b'event: deleted\ndata: {"table": "T1"}\n\n'
    assert time.monotonic() - started < 2
    with pytest.raises(StopIteration):
        next(messages)
    other = stream("T2", 0, ping_every=0.05, max_seconds=0.2, source=broker)
    assert b"deleted" not in b"".join(other)  # the other tables' streams go on as before


@pytest.mark.postgres
def test_other_workers_hear_the_deletion_through_postgresql(app: Flask) -> None:
    import secrets

    from scorekeeper.live import start_pg_listener

    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        pytest.skip("LISTEN/NOTIFY is PostgreSQL's")
    table = _open(app.test_client(), "Anna", "Bo")
    dsn = app.config["SQLALCHEMY_DATABASE_URI"].replace("postgresql+psycopg://", "postgresql://")
    other_worker = Broker()  # another worker's broker, fed only by its listener
    name = f"other-{secrets.token_hex(4)}"
    assert start_pg_listener(f"{dsn}?application_name={name}", other_worker) is not None
    messages = stream(table["id"], 2, ping_every=0.2, max_seconds=30.0, source=other_worker)
    next(messages), next(messages)
    try:
        wait_until_listening(dsn, name)
        assert app.test_client().delete(f"/api/v1/tables/{table['id']}",
                                        headers=bearer(table["owner_token"])).status_code == 200
        deadline = time.monotonic() + 10
        while not other_worker.is_deleted(table["id"]) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert other_worker.is_deleted(table["id"])
        assert deleted_message(table["id"]) in list(messages)
    finally:
        other_worker.close()


def test_deleting_forgets_the_table_in_this_process(sqlite_app: Flask) -> None:
    from scorekeeper.service import cache, facts_cache

    client = sqlite_app.test_client()
    table = _open(client, "Anna", "Bo")
    assert facts_cache.get(table["id"]) is not None and cache.latest(table["id"]) is not None
    client.delete(f"/api/v1/tables/{table['id']}", headers=bearer(table["owner_token"]))
    assert facts_cache.get(table["id"]) is None and cache.latest(table["id"]) is None


def test_deleting_while_phones_write_leaves_nothing_behind(app: Flask) -> None:
    """Writers racing the deletion get 201 (before it) or 404 (after), never a 500, and no event of
    theirs survives it."""
    table = app.test_client().post("/api/v1/tables", json={"game": "scorepad", "players": ["Anna", "Bo"],
                                                          "options": {"target": 10_000}}).json  # never over
    statuses: list[int] = []
    writing = threading.Event()

    def phone() -> None:
        client = app.test_client()
        for _ in range(400):  # until the table is gone (a slow machine may take a while to get there)
            response = client.post(f"/api/v1/tables/{table['id']}/events", json={"type": "points", "side": 0, "points": 1},
                                   headers=bearer(table["write_token"]))
            statuses.append(response.status_code)
            if response.status_code == 201:
                writing.set()
            if response.status_code == 404:
                return

    phones = [threading.Thread(target=phone) for _ in range(6)]
    for thread in phones:
        thread.start()
    assert writing.wait(60)  # the deletion comes while the phones are writing, however slow the machine
    assert app.test_client().delete(f"/api/v1/tables/{table['id']}", headers=bearer(table["owner_token"])).status_code == 200
    for thread in phones:
        thread.join(60)
    assert set(statuses) <= {201, 404} and 404 in statuses
    assert rows(app, table["id"]) == {"tables": 0, "seats": 0, "events": 0}


def test_deleting_a_finished_circle_table_erases_its_outcome(app: Flask) -> None:
    """The stored result (names, scores, places) goes with the table at once, not weeks later with
    the expiry sweeps: the circle's standings no longer count it, and nothing of it is left."""
    from tests.web.test_circles import auth, muggins_result, new_circle

    client = app.test_client()
    circle = new_circle(client, ["Anna", "Bo", "Cilla"])
    _, gone = muggins_result(client, circle, ["Anna", "Bo", "Cilla"], [[1], [0], [2]])
    _, kept = muggins_result(client, circle, ["Anna", "Bo", "Cilla"], [[0], [1], [2]])

    def outcomes() -> set[str]:
        with app.app_context():
            return {row[0] for row in db.session.execute(text("SELECT table_id FROM table_outcomes"))}

    assert outcomes() == {gone["id"], kept["id"]}
    assert client.delete(f"/api/v1/tables/{gone['id']}", headers=auth(gone["owner_token"])).status_code == 200
    assert outcomes() == {kept["id"]}
    standings = client.get(f"/api/v1/circles/{circle['id']}", headers=auth(circle["read_token"])).get_json()
    assert [t["id"] for t in standings["tables"]] == [kept["id"]]
