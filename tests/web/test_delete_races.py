"""A write racing the table's deletion (issue 40 item 5): whatever the moment the table goes, the
write is told 404 (the page: its 404 page), never 503 "busy" or a 500."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable
from contextlib import closing
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.engine import RULES
from scorekeeper.service import writes
from tests.web.test_delete import bearer, rows


def _open(app: Flask) -> dict[str, Any]:
    table = app.test_client().post("/api/v1/tables", json={"game": "scorepad", "players": ["Anna", "Bo"]}).json
    api = app.test_client()
    for side in (0, 1):
        assert api.post(f"/api/v1/tables/{table['id']}/events", json={"type": "points", "side": side, "points": 2},
                        headers=bearer(table["write_token"])).status_code == 201
    return dict(table)


def _delete(app: Flask, table: dict[str, Any]) -> None:
    """Another phone deletes the table, on a thread (and so a session) of its own."""
    answers: list[int] = []
    thread = threading.Thread(target=lambda: answers.append(
        app.test_client().delete(f"/api/v1/tables/{table['id']}", headers=bearer(table["owner_token"])).status_code))
    thread.start()
    thread.join(30)
    assert answers == [200]


def _deleted_once_authorised(monkeypatch: pytest.MonkeyPatch, app: Flask, table: dict[str, Any]) -> None:
    """The table goes after the view authorised the write and before the write reads its head."""
    release = writes._release_session
    done: list[bool] = []

    def then_deleted() -> None:
        release()
        if not done:
            done.append(True)
            _delete(app, table)

    monkeypatch.setattr(writes, "_release_session", then_deleted)


def _phone(app: Flask, table: dict[str, Any]) -> FlaskClient:
    phone = app.test_client()
    assert phone.get(f"/t/{table['id']}/k/{table['write_token']}").status_code == 302
    return phone


WRITES: dict[str, Callable[[FlaskClient, dict[str, Any]], Any]] = {
    "api_event": lambda c, t: c.post(f"/api/v1/tables/{t['id']}/events", json={"type": "points", "side": 0, "points": 1},
                                     headers=bearer(t["write_token"])),
    "api_undo": lambda c, t: c.post(f"/api/v1/tables/{t['id']}/undo", headers=bearer(t["write_token"])),
    "form_event": lambda c, t: c.post(f"/t/{t['id']}/events", data={"type": "points", "side:int": "0", "points:int": "1"}),
    "htmx_event": lambda c, t: c.post(f"/t/{t['id']}/events", data={"type": "points", "side:int": "0", "points:int": "1"},
                                      headers={"HX-Request": "true"}),
    "form_undo": lambda c, t: c.post(f"/t/{t['id']}/undo"),
    "htmx_undo": lambda c, t: c.post(f"/t/{t['id']}/undo", headers={"HX-Request": "true"}),
}


@pytest.mark.parametrize("write", list(WRITES))
def test_a_write_to_a_table_deleted_under_it_is_told_404(app: Flask, monkeypatch: pytest.MonkeyPatch,
                                                          write: str) -> None:
    table = _open(app)
    phone = _phone(app, table) if not write.startswith("api") else app.test_client()
    _deleted_once_authorised(monkeypatch, app, table)
    response = WRITES[write](phone, table)
    assert response.status_code == 404, response.get_data(as_text=True)[:500]
    if write.startswith("api"):
        assert response.json["error"]["code"] == "not_found"
    else:  # the page's own 404, not an error of the API's
        assert response.mimetype == "text/html"
    assert rows(app, table["id"]) == {"tables": 0, "seats": 0, "events": 0}


@pytest.mark.parametrize("seat", ["0", "watch"])
def test_taking_a_seat_at_a_table_deleted_under_it_is_told_404(app: Flask, monkeypatch: pytest.MonkeyPatch,
                                                               seat: str) -> None:
    from scorekeeper.web import access

    table = _open(app)
    phone = _phone(app, table)
    assert phone.post(f"/t/{table['id']}/seat", data={"seat": "1"}).status_code == 302
    take_seat = access.take_seat

    def after_the_deletion(*args: Any) -> bool:
        _delete(app, table)
        return take_seat(*args)

    monkeypatch.setattr(access, "take_seat", after_the_deletion)
    response = phone.post(f"/t/{table['id']}/seat", data={"seat": seat})
    assert response.status_code == 404, response.get_data(as_text=True)[:500]
    assert rows(app, table["id"]) == {"tables": 0, "seats": 0, "events": 0}


class _Meanwhile:
    """The game's rules, but each time a phone works its move out something else happens first
    (``meanwhile``, told the how-many-th time): another phone moves, the table is deleted."""

    def __init__(self, rules: Any, meanwhile: Callable[[int], None]) -> None:
        self._rules, self._meanwhile, self.calls = rules, meanwhile, 0

    def apply(self, state: Any, event: dict[str, Any]) -> Any:
        if event.get("side") == 0:  # the phone under test; the others score for side 1
            self.calls += 1
            self._meanwhile(self.calls)
        return self._rules.apply(state, event)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rules, name)


def _meanwhile(monkeypatch: pytest.MonkeyPatch, meanwhile: Callable[[int], None]) -> _Meanwhile:
    rules = _Meanwhile(RULES["scorepad"], meanwhile)
    monkeypatch.setattr(writes, "rules_for", lambda _table: rules)
    return rules


def _score(client: FlaskClient, table: dict[str, Any], side: int) -> Any:
    return client.post(f"/api/v1/tables/{table['id']}/events", json={"type": "points", "side": side, "points": 1},
                       headers=bearer(table["write_token"]))


def _another_worker_moves(app: Flask, table_id: str) -> None:
    """A phone of another worker process scores for side 1: on the database file itself, as that
    process's writer would (claim the next seq, insert its event), behind this process's back."""
    path = app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")
    with closing(sqlite3.connect(path)) as other, other:
        other.execute("UPDATE tables SET head_seq = head_seq + 1 WHERE id = ?", (table_id,))
        other.execute("INSERT INTO events (table_id, seq, type, payload, author, created_at) "
                      "SELECT id, head_seq, 'points', ?, NULL, ? FROM tables WHERE id = ?",
                      (json.dumps({"type": "points", "side": 1, "points": 1}), "2025-01-01 00:00:00.000000", table_id))


def test_a_write_that_lost_every_race_to_other_workers_and_then_the_table_is_told_404(
        sqlite_app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """The make-test failure of issue 40: the phone's last try lost because the table was deleted,
    and it was told the table was busy."""
    table = _open(sqlite_app)

    def meanwhile(attempt: int) -> None:
        if attempt < writes.ATTEMPTS:
            _another_worker_moves(sqlite_app, table["id"])
        else:
            _delete(sqlite_app, table)

    rules = _meanwhile(monkeypatch, meanwhile)
    response = _score(sqlite_app.test_client(), table, 0)
    assert rules.calls == writes.ATTEMPTS  # the table went during its last try
    assert response.status_code == 404 and response.json["error"]["code"] == "not_found"
    assert rows(sqlite_app, table["id"]) == {"tables": 0, "seats": 0, "events": 0}


def test_a_write_that_loses_every_race_to_other_workers_is_told_busy(
        sqlite_app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """So the test above tells a deletion from a busy table: with the table there, 503 is right."""
    table = _open(sqlite_app)
    rules = _meanwhile(monkeypatch, lambda _attempt: _another_worker_moves(sqlite_app, table["id"]))
    response = _score(sqlite_app.test_client(), table, 0)
    assert rules.calls == writes.ATTEMPTS
    assert response.status_code == 503 and response.json["error"]["code"] == "busy"
    assert rows(sqlite_app, table["id"])["events"] == 2 + writes.ATTEMPTS  # the other worker's moves alone


def test_the_phones_of_one_worker_do_not_starve_a_phone_of_it(sqlite_app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another phone of this worker moves each time the phone works its move out, whenever the
    worker's writers let it: the phone is still written within a few tries, not told busy."""
    table = _open(sqlite_app)
    others: list[int] = []

    def another_phone_moves(_attempt: int) -> None:
        if writes._sqlite_writer.locked():  # the phone holds the writers' queue: nobody of this worker goes first
            return
        thread = threading.Thread(target=lambda: others.append(_score(sqlite_app.test_client(), table, 1).status_code))
        thread.start()
        thread.join(30)

    rules = _meanwhile(monkeypatch, another_phone_moves)
    response = _score(sqlite_app.test_client(), table, 0)
    assert response.status_code == 201, response.json
    assert others == [201] * len(others) and rules.calls == len(others) + 1 <= 5
    assert response.json["seq"] == 2 + len(others) + 1
    assert response.json["state"]["scores"] == [3, 2 + len(others)]
