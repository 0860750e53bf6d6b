"""The hut (issue 39): "Keep this table here". A guest's copy of the log (static/hut.js keeps it)
becomes a table of the guest's own phone app under the same id and origin, replayed through the
engine; the phone's export carries the origin the server makes one table of (docs/api.md)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scorekeeper.offline import phone
from tests.web.test_phone_copies import DEAL, HOST, ask, fresh_phone, new_table, on_phone  # noqa: F401 - the fixtures

pytestmark = pytest.mark.usefixtures("fresh_phone")  # every test on a phone that keeps nothing yet


def keep(table: str, log: dict[str, Any]) -> tuple[int, dict[str, Any] | str]:
    status, _pairs, data, _ = phone.handle("POST", "/hut/keep", "", {"Content-Type": "application/json", "Accept-Language": "en"},
                                           json.dumps({"table": table, "log": log}).encode())
    try:
        return status, json.loads(data)
    except ValueError:
        return status, data.decode()


def played_log() -> tuple[str, dict[str, Any]]:
    table = new_table()
    assert ask("POST", f"/t/{table}/events", DEAL)[0] in (200, 302)
    assert ask("POST", f"/t/{table}/events", {"type": "play", "player:int": "0", "expected_seq": "1", "card": "5C"})[0] in (200, 302)
    return table, json.loads(phone.export(table))


def test_a_guests_copy_is_kept_here_under_its_id_and_origin_and_plays_on() -> None:
    table, log = played_log()
    assert len(log["origin"]) >= 32 and len(log["events"]) == 2
    assert json.loads(ask("GET", f"/t/{table}/export.json")[2])["origin"] == log["origin"]
    phone.open_phone(None, None, HOST)  # another phone, with nothing of the table but the copy
    status, answer = keep(table, log)
    assert status == 200, answer
    assert answer == {"url": f"/phone/t/{table}"}
    mine = json.loads(phone.export(table))
    assert mine["origin"] == log["origin"]
    assert [e["event"] for e in mine["events"]] == [e["event"] for e in log["events"]]
    # This phone keeps it now: the next move is its own.
    status, _, page = ask("POST", f"/t/{table}/events", {"type": "play", "player:int": "1", "expected_seq": "2", "card": "KH"})
    assert status in (200, 302), page
    assert len(json.loads(phone.export(table))["events"]) == 3
    # A shorter copy does not undo what this phone kept; a longer one replaces it.
    assert keep(table, log)[0] == 200
    assert len(json.loads(phone.export(table))["events"]) == 3
    longer = json.loads(phone.export(table))
    longer["events"].append({"event": {"type": "undo"}})
    tampered = json.loads(json.dumps(longer))
    tampered["events"][1]["event"].update(card="KH", capture=["4H"])
    assert keep(table, tampered)[0] == 422
    assert len(json.loads(phone.export(table))["events"]) == 3  # a refused copy replaces nothing
    assert keep(table, longer)[0] == 200
    assert len(json.loads(phone.export(table))["events"]) == 4


def test_a_tampered_copy_is_refused_with_its_rule_and_nothing_is_kept() -> None:
    table, log = played_log()
    phone.open_phone(None, None, HOST)
    log["events"][1]["event"].update(card="KH", capture=["4H"])  # a king takes no four
    status, answer = keep(table, log)
    assert status == 422, answer
    assert "MULLE-CAP-4" in str(answer)
    assert ask("GET", f"/t/{table}")[0] == 404


@pytest.mark.parametrize("body", [{"table": "../x", "log": {"events": []}}, {"table": "abc"}, ["not", "an", "object"]])
def test_what_is_no_copy_is_a_400(body: Any) -> None:
    status, _pairs, data, _ = phone.handle("POST", "/hut/keep", "", {"Content-Type": "application/json"}, json.dumps(body).encode())
    assert status == 400, data
