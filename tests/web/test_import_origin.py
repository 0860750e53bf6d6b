"""A table carried from a phone is put on the server once (issue 39, the hut): every phone holds a
copy of its log with the table's ``origin``; the first import makes the table, a later one of the
same origin finds it (200 ``imported_before``), appending the moves it has beyond the server's,
and one whose log parts from the server's is 409 and changes nothing (service/origins.py)."""

from __future__ import annotations

import copy
from typing import Any

from tests.web.conftest import Api
from tests.web.test_api import error_of

ORIGIN = "phone-origin-" + "x" * 30


def a_phone_log(api: Api, *points: int) -> dict[str, Any]:
    table = api.table(options={"target": 100})
    for side, n in enumerate(points):
        api.post(table, {"type": "points", "side": side % 2, "points": n})
    exported = api.events(table).json
    return {**exported, "origin": ORIGIN}


def tables(app: Any) -> int:
    from scorekeeper.extensions import db
    from scorekeeper.models import Table

    with app.app_context():
        return db.session.query(Table).filter(Table.origin.isnot(None)).count()


def test_two_phones_copies_make_one_table_and_the_longer_brings_it_up(api: Api, client, app) -> None:
    log = a_phone_log(api, 5, 7, 9)
    older = {**log, "events": log["events"][:2]}
    first = client.post("/api/v1/tables/import", json=older)
    assert first.status_code == 201, first.json
    again = client.post("/api/v1/tables/import", json=older)
    assert again.status_code == 200, again.json
    assert again.json["id"] == first.json["id"] and again.json["imported_before"] is True
    # The origin travels with every copy (a guest's, a downloaded file): a later one gets the watch code only.
    assert not {"owner_token", "write_token", "join_url"} & set(again.json), again.json
    assert again.json["read_token"] == first.json["read_token"] and again.json["watch_url"] == first.json["watch_url"]
    longer = client.post("/api/v1/tables/import", json=log)
    assert longer.status_code == 200 and longer.json["id"] == first.json["id"]
    assert longer.json["seq"] == 3 and longer.json["state"]["scores"] == [14, 7]
    shorter = client.post("/api/v1/tables/import", json=older)  # an older copy takes nothing back
    assert shorter.json["seq"] == 3
    assert tables(app) == 1


def test_a_copy_whose_moves_part_from_the_servers_is_409_and_changes_nothing(api: Api, client, app) -> None:
    log = a_phone_log(api, 5, 7)
    assert client.post("/api/v1/tables/import", json=log).status_code == 201
    other = copy.deepcopy(log)
    other["events"][1]["event"]["points"] = 8
    other["events"].append({"event": {"type": "points", "side": 0, "points": 1}})
    refused = client.post("/api/v1/tables/import", json=other)
    assert refused.status_code == 409 and error_of(refused)["code"] == "diverged"
    assert client.post("/api/v1/tables/import", json=log).json["seq"] == 2
    assert tables(app) == 1


def test_an_export_without_an_origin_makes_a_new_table_each_time(api: Api, client) -> None:
    log = a_phone_log(api, 5)
    del log["origin"]
    ids = {client.post("/api/v1/tables/import", json=log).json["id"] for _ in range(2)}
    assert len(ids) == 2


def test_after_new_codes_a_copy_is_no_way_back_in(api: Api, client, app) -> None:
    """The owner made new codes to shut a phone out: the copy that phone kept opens nothing,
    appends nothing, and learns none of the new codes."""
    log = a_phone_log(api, 5, 7, 9)
    first = client.post("/api/v1/tables/import", json={**log, "events": log["events"][:2]})
    renewed = client.post(f"/api/v1/tables/{first.json['id']}/codes",
                          headers={"Authorization": f"Bearer {first.json['owner_token']}"})
    assert renewed.status_code == 200, renewed.json
    refused = client.post("/api/v1/tables/import", json=log)
    assert refused.status_code == 403 and error_of(refused)["code"] == "forbidden", refused.json
    assert renewed.json["write_token"] not in refused.get_data(as_text=True)
    assert renewed.json["read_token"] not in refused.get_data(as_text=True)
    seen = client.get(f"/api/v1/tables/{first.json['id']}", headers={"Authorization": f"Bearer {renewed.json['read_token']}"})
    assert seen.json["seq"] == 2
    assert tables(app) == 1


def test_an_origin_that_is_no_phones_fits_no_document_and_makes_nothing(api: Api, client, app) -> None:
    """The fuzzer's find: ``"origin": {}`` was read as no origin, and the import made a table."""
    log = a_phone_log(api, 5)
    for origin in ({}, [], 7, "short", "x" * 65, "bad origin with spaces!!"):
        refused = client.post("/api/v1/tables/import", json={**log, "origin": origin})
        assert refused.status_code == 400 and error_of(refused)["code"] == "bad_request", (origin, refused.json)
        circle = client.post("/api/v1/circles/import", json={"format": "scorekeeper-circle/1", "name": "c",
                                                              "members": [], "tables": [{**log, "origin": origin}]})
        assert circle.status_code == 400, (origin, circle.json)
    assert tables(app) == 0
