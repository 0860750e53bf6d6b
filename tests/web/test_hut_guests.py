"""The hut (issue 39): a guest's requests, relayed by the host's page, are answered by the host's
phone app with the guest's own session (scorekeeper/offline/guests.py): each guest is a phone of
its own at the table — asked who it is, in a seat of its own, its moves entered by that seat — at
that table only; the guests' sessions are stored with the database and come back with it."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urlencode

import pytest

from scorekeeper.offline import phone
from scorekeeper.service import cache, facts_cache
from tests.web.test_phone_copies import DEAL, HOST, ask, fresh_phone, new_table, on_phone  # noqa: F401 - the fixtures

pytestmark = pytest.mark.usefixtures("fresh_phone")  # every test on a phone that keeps nothing yet

ONE = "g1-" + "a" * 20
TWO = "g2-" + "b" * 20


def as_guest(guest: str, table: str, method: str, path: str, form: dict[str, Any] | None = None) -> tuple[int, dict[str, str], str, str]:
    body = urlencode(form, doseq=True).encode() if form is not None else None
    headers = {"Accept-Language": "en", "Content-Type": "application/x-www-form-urlencoded"}
    status, pairs, data, store = phone.handle(method, path, "", headers, body, None, guest, table)
    return status, dict(pairs), data.decode(), store


def meta(page: str) -> str:
    found = re.search(r'<p class="meta">(.*?)</p>', page, re.S)
    assert found, page[:500]
    return " ".join(re.sub(r"<[^>]+>", " ", found[1]).split())


def test_each_guest_has_a_session_and_a_seat_of_its_own() -> None:
    table = new_table(players=("Anna", "Bo", "Cilla"))  # the host sits in Anna's seat
    assert "You are Anna" in meta(ask("GET", f"/t/{table}")[2])

    status, _, page, store = as_guest(ONE, table, "GET", f"/t/{table}")
    assert status == 200 and "Not seated" in meta(page) and "Who are you?" in page
    assert store == "store"  # the guest's new session is kept with the database
    assert as_guest(ONE, table, "POST", f"/t/{table}/seat", {"seat": "1"})[0] == 302
    assert "You are Bo" in meta(as_guest(ONE, table, "GET", f"/t/{table}")[2])
    assert as_guest(TWO, table, "POST", f"/t/{table}/seat", {"seat": "2"})[0] == 302
    assert "You are Cilla" in meta(as_guest(TWO, table, "GET", f"/t/{table}")[2])
    assert "You are Anna" in meta(ask("GET", f"/t/{table}")[2])  # the host's own session, as before
    assert ask("GET", f"/t/{table}")[2].count('data-seated="1"') == 3

    # The second guest asks for Bo's seat: asked first, as on the server.
    assert as_guest(TWO, table, "POST", f"/t/{table}/seat", {"seat": "watch"})[0] == 302  # "Change seat"
    status, _, page, _ = as_guest(TWO, table, "POST", f"/t/{table}/seat", {"seat": "1"})
    assert status == 200 and "Bo is seated on another phone — take over?" in page
    assert "You are Bo" in meta(as_guest(ONE, table, "GET", f"/t/{table}")[2])

    # A guest's moves are entered by its seat.
    deal = {**DEAL, "dealer:int": "0", "table:list": ["5D", "9C", "4H", "AS", "7S"]}
    assert as_guest(ONE, table, "POST", f"/t/{table}/events", deal)[0] == 302
    assert as_guest(ONE, table, "POST", f"/t/{table}/events",
                    {"type": "play", "player:int": "1", "expected_seq": "1", "card": "5C"})[0] == 302
    assert [e["by"] for e in json.loads(phone.export(table))["events"]] == [1, 1]


def test_a_guest_reaches_only_the_table_it_was_invited_to() -> None:
    table, other = new_table(), new_table()
    assert as_guest(ONE, table, "GET", f"/t/{other}")[0] == 403
    assert as_guest(ONE, table, "POST", f"/t/{other}/delete")[0] == 403
    assert as_guest(ONE, table, "GET", "/")[0] == 403
    assert as_guest(ONE, table, "GET", f"/t/{table}")[0] == 200
    assert as_guest(ONE, table, "POST", f"/t/{table}/delete")[0] == 403  # a guest does not own the table
    assert ask("GET", f"/t/{other}")[0] == 200
    for guest, at in (("short", table), (ONE, "../x"), (None, table)):
        assert phone.handle("GET", f"/t/{table}", "", {}, None, None, guest, at)[0] == 400


def test_the_guests_sessions_are_stored_and_come_back() -> None:
    table = new_table(players=("Anna", "Bo"))
    as_guest(ONE, table, "POST", f"/t/{table}/seat", {"seat": "1"})
    _pieces, _size, cookie, guest_cookies = phone.changes()
    assert set(json.loads(guest_cookies)) == {ONE}
    database, _ = phone.snapshot()
    cache.clear()
    facts_cache.clear()
    phone.open_phone(database, cookie, HOST, False, guest_cookies)  # the host's worker started again
    assert "You are Bo" in meta(as_guest(ONE, table, "GET", f"/t/{table}")[2])
    assert "Not seated" in meta(as_guest(TWO, table, "GET", f"/t/{table}")[2])
    assert "You are Anna" in meta(ask("GET", f"/t/{table}")[2])
    phone.open_phone(database, cookie, HOST, False, "not json")  # an older build's store: no guests
    assert "Not seated" in meta(as_guest(ONE, table, "GET", f"/t/{table}")[2])
