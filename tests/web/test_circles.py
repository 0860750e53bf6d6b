"""Circles (issue 38): tables of every game played to the end through the API, the standings
checked against a count made here from the tables' own final states; refusals; owner-only
deletion and codes; export and import; expiry."""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import Circle, Outcome, Table, utcnow
from scorekeeper.service.circles import IMPORT_BATCH

LOGS = Path(__file__).resolve().parents[1] / "golden" / "logs"
# Finished tables of every game (and both modes), played here move by move through the API.
PLAYED = ["03-mulle-adjudicate-4p-strict_value-no_last_sweep-mulle_alone", "04-mulle-tally-3p-plain",
          "06-kasino-adjudicate-4p-variant_misar-misar_penalty_b", "09-kasino-tally-3p-variant_misar",
          "10-mulatschak-adjudicate-4p-plain", "12-mulatschak-tally-4p-plain", "15-mousel-tally-5p-plain",
          "16-muggins-adjudicate-4p-plain", "17-muggins-tally-4p-plain"]
MEMBERS = ["Anna", {"name": "Bo", "aliases": ["Bosse"]}, "Cilla", "Dag", "P0", "P1", "P2", "P3", "P4", "A", "B", "C", "D"]


def described(client: FlaskClient, name: str, body: Any) -> None:
    """``body`` is what the OpenAPI document's schema ``name`` says."""
    import jsonschema_rs

    doc = client.get("/api/v1/openapi.json").get_json()
    jsonschema_rs.Draft202012Validator({"$ref": f"#/components/schemas/{name}",
                                        "components": doc["components"]}).validate(body)


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_circle(client: FlaskClient, members: list[Any] | None = None, name: str = "Torsdag") -> dict[str, Any]:
    r = client.post("/api/v1/circles", json={"name": name, "members": MEMBERS if members is None else members})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def play(client: FlaskClient, circle: dict[str, Any], log: dict[str, Any], players: list[str] | None = None) -> str:
    """Open the log's table in the circle and post every move (undos through …/undo)."""
    r = client.post("/api/v1/tables", headers=auth(circle["write_token"]),
                    json={"game": log["game"], "players": players or log["players"], "mode": log["mode"],
                          "options": log["options"], "circle": circle["id"]})
    assert r.status_code == 201, r.get_json()
    table = r.get_json()
    for entry in log["events"]:
        event = entry["event"]
        if event["type"] == "undo":
            r = client.post(f"/api/v1/tables/{table['id']}/undo", headers=auth(table["write_token"]))
        else:
            r = client.post(f"/api/v1/tables/{table['id']}/events", headers=auth(table["write_token"]), json=event)
        assert r.status_code in (200, 201), (entry, r.get_json())
    return str(table["id"])


def scorepad_log() -> dict[str, Any]:
    events = [{"event": {"type": "points", "side": side, "points": points}}
              for side, points in [(0, 30), (1, 20), (2, 5), (0, 20), (1, 45)]]
    return {"game": "scorepad", "mode": "adjudicate", "options": {}, "players": ["Anna", "Bosse", "Cilla"],
            "events": events}


def count(client: FlaskClient, tables: list[tuple[str, str]], token_of: dict[str, str]) -> dict[str, Any]:
    """Played and won per game and player, and the engine's figures, from each table's final state."""
    expect: dict[str, dict[str, dict[str, int]]] = defaultdict(lambda: defaultdict(lambda: defaultdict(int)))
    balances: dict[str, int] = defaultdict(int)
    for game, table_id in tables:
        body = client.get(f"/api/v1/tables/{table_id}", headers=auth(token_of[table_id])).get_json()
        state, players = body["state"], ["Bo" if p == "Bosse" else p for p in body["players"]]
        assert state["over"] is True
        sides = state.get("sides") or [[i] for i in range(len(players))]
        winners = state["winner"] if isinstance(state["winner"], list) else [state["winner"]]
        for side, seats in enumerate(sides):
            for seat in seats:
                line = expect[game][players[seat]]
                line["played"] += 1
                line["won"] += side in winners
                if game == "mulle":
                    line["mullar"] += sum(row["mulles"][side] for row in state["history"])
                    line["tabbe"] += sum(row["sweeps"][side] for row in state["history"])
                if game == "kasino":
                    line["misar_penalties"] += sum(row["penalties"][side] for row in state["history"])
                if game == "mulatschak":
                    line["revokes"] += sum(row["revokes"].count(seat) for row in state["sheet"])
                    line["deals_won"] += sum(1 for row in state["sheet"] if row["declarer"] == seat and row["made"])
                    line["mulatschaks_bid"] += sum(1 for row in state["sheet"] if row["declarer"] == seat and row["muli"])
                if game == "muggins":
                    line["muggins"] += sum(1 for p in state["placements"] if p["player"] == seat and p["muggins"])
                if game == "mousel":
                    line["balance"] += state["scores"][seat]
                    # deals whose whole pot this seat took (every trick, no revoke)
                    line["pots_won"] += sum(1 for row in state["settlements"]
                                            if not row["void"] and row["pot"] > 0 and row["shares"][seat] == row["pot"])
                    balances[players[seat]] += state["scores"][seat]
    return {"lines": expect, "balances": balances}


def test_a_circle_of_every_game_counts_its_standings(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    circle = new_circle(client)
    tables: list[tuple[str, str]] = []
    token_of: dict[str, str] = {}
    logs = [json.loads((LOGS / f"{name}.json").read_text()) for name in PLAYED]
    logs.append(json.loads((LOGS / "15-mousel-tally-5p-plain.json").read_text()))  # a second evening of Mousel
    logs[-1]["players"] = ["P4", "P3", "P2", "P1", "P0"]
    logs.append(scorepad_log())
    for log in logs:
        table_id = play(client, circle, log, log["players"])
        tables.append((log["game"], table_id))
    with sqlite_app.app_context():
        for table in db.session.query(Table).all():
            token_of[table.id] = table.read_token
    # one more, still under way: listed, not counted
    open_id = play(client, circle, {**scorepad_log(), "events": scorepad_log()["events"][:2]})

    view = client.get(f"/api/v1/circles/{circle['id']}", headers=auth(circle["read_token"])).get_json()
    described(client, "Circle", view)
    expected = count(client, tables, token_of)
    assert {t["id"] for t in view["tables"]} == {tid for _, tid in tables} | {open_id}
    under_way = next(t for t in view["tables"] if t["id"] == open_id)
    assert under_way["over"] is False and under_way["winner"] == [] and under_way["finished"] is None
    assert set(view["standings"]) == {game for game, _ in tables}
    for game, lines in expected["lines"].items():
        got = {row["member"]: row for row in view["standings"][game]}
        assert set(got) == set(lines), game
        for member, line in lines.items():
            row = got[member]
            assert (row["played"], row["won"]) == (line["played"], line["won"]), (game, member)
            assert row["win_rate"] == round(line["won"] / line["played"], 3)
            for key, value in line.items():
                if key not in ("played", "won"):
                    assert row["figures"][key] == value, (game, member, key)
    # "Bosse" at the score pad is Bo
    assert "Bosse" not in {row["member"] for rows in view["standings"].values() for row in rows}
    # the season's Mousel settle-up brings every member's balance to zero
    owed = dict(expected["balances"])
    for transfer in view["settle_up"]:
        owed[transfer["from"]] += transfer["amount"]
        owed[transfer["to"]] -= transfer["amount"]
    assert set(owed.values()) == {0}
    # a winner is named as the member
    finished = {t["id"]: t for t in view["tables"] if t["over"]}
    assert all(t["winner"] and t["finished"] for t in finished.values())


@pytest.fixture
def circle_client(app: Flask) -> FlaskClient:
    """On SQLite and on PostgreSQL (whose writes announce a finished table by NOTIFY)."""
    return app.test_client()


def muggins_result(client: FlaskClient, circle: dict[str, Any], players: list[str], placings: list[list[int]],
                   **extra: Any) -> tuple[int, dict[str, Any]]:
    r = client.post("/api/v1/tables", headers=auth(circle["write_token"]),
                    json={"game": "muggins", "players": players, "mode": "tally", "circle": circle["id"], **extra})
    if r.status_code != 201:
        return r.status_code, r.get_json()
    table = r.get_json()
    done = client.post(f"/api/v1/tables/{table['id']}/events", headers=auth(table["write_token"]),
                       json={"type": "result", "placings": placings})
    assert done.status_code == 201, done.get_json()
    return 201, table


def standings(client: FlaskClient, circle: dict[str, Any], query: str = "") -> dict[str, Any]:
    r = client.get(f"/api/v1/circles/{circle['id']}{query}", headers=auth(circle["read_token"]))
    assert r.status_code == 200, r.get_json()
    return r.get_json()  # type: ignore[no-any-return]


def test_players_who_are_not_members_are_named_or_added(circle_client: FlaskClient) -> None:
    circle = new_circle(circle_client, ["Anna", "Bertil"])
    status, body = muggins_result(circle_client, circle, ["anna", "Cilla", "Dag"], [[0], [1], [2]])
    assert status == 422 and body["error"]["code"] == "not_members"
    assert "Cilla" in body["error"]["message"] and "Dag" in body["error"]["message"]
    assert "anna" not in body["error"]["message"]
    assert standings(circle_client, circle)["tables"] == []
    status, _ = muggins_result(circle_client, circle, ["BERTIL", "Cilla", "anna"], [[1], [0], [2]], add_members=True)
    assert status == 201
    view = standings(circle_client, circle)
    assert [m["name"] for m in view["members"]] == ["Anna", "Bertil", "Cilla"]
    assert {r["member"]: r["won"] for r in view["standings"]["muggins"]} == {"Anna": 0, "Bertil": 0, "Cilla": 1}


def test_an_existing_table_is_added_once_and_to_one_circle(circle_client: FlaskClient) -> None:
    first, second = new_circle(circle_client, ["Anna", "Bo", "Cilla"]), new_circle(circle_client, ["Anna", "Bo"], "Other")
    table = circle_client.post("/api/v1/tables", json={"game": "muggins", "players": ["Anna", "Bo", "Cilla"], "mode": "tally"}).get_json()
    circle_client.post(f"/api/v1/tables/{table['id']}/events", headers=auth(table["write_token"]),
                       json={"type": "result", "placings": [[0], [1], [2]]})
    url = f"/api/v1/circles/{first['id']}/tables"
    # the table's read token does not add it
    r = circle_client.post(url, headers=auth(first["write_token"]), json={"table_id": table["id"], "token": table["read_token"]})
    assert r.status_code == 403
    r = circle_client.post(url, headers=auth(first["read_token"]), json={"table_id": table["id"], "token": table["write_token"]})
    assert r.status_code == 403
    r = circle_client.post(url, headers=auth(first["write_token"]), json={"table_id": table["id"], "token": table["write_token"]})
    assert r.status_code == 201 and r.get_json()["added"] is True
    assert standings(circle_client, first)["standings"]["muggins"][0] == {**standings(circle_client, first)["standings"]["muggins"][0], "member": "Anna", "won": 1}
    r = circle_client.post(url, headers=auth(first["write_token"]), json={"table_id": table["id"], "token": table["write_token"]})
    assert r.status_code == 200 and r.get_json()["added"] is False
    r = circle_client.post(f"/api/v1/circles/{second['id']}/tables", headers=auth(second["write_token"]),
                           json={"table_id": table["id"], "token": table["write_token"]})
    assert r.status_code == 409 and r.get_json()["error"]["code"] == "in_another_circle"
    assert standings(circle_client, second)["tables"] == []
    # deleted, the table drops out of the standings
    assert circle_client.delete(f"/api/v1/tables/{table['id']}", headers=auth(table["owner_token"])).status_code == 200
    assert standings(circle_client, first) | {"members": None} == standings(circle_client, first) | {"members": None}
    assert standings(circle_client, first)["standings"] == {} and standings(circle_client, first)["tables"] == []


@pytest.mark.parametrize("body", [{}, {"name": ""}, {"name": 5}, {"name": "x", "members": "Anna"},
                                  {"name": "x", "members": ["Anna", "anna"]},
                                  {"name": "x", "members": [{"name": "Bo", "aliases": ["anna"]}, "Anna"]},
                                  {"name": "x" * 81}, {"name": "x", "members": ["\u0000"]}])
def test_a_circle_that_cannot_be_opened_is_refused(circle_client: FlaskClient, body: dict[str, Any]) -> None:
    r = circle_client.post("/api/v1/circles", json=body)
    # Names the document lets through (they differ as strings) that would be one member: 422 with
    # the rule (TABLE-NAMES-1); every other refusal here breaks the document itself: 400.
    one_name = any(isinstance(m, str) and m == "Anna" for m in body.get("members") or [])
    assert r.status_code == (422 if one_name else 400)
    assert r.get_json()["error"]["rule"] == ("TABLE-NAMES-1" if one_name else None)
    assert set(r.get_json()["error"]) == {"code", "rule", "message"} and r.get_json()["error"]["message"]
    with circle_client.application.app_context():
        assert db.session.query(Circle).count() == 0


def test_tokens_read_write_and_owner(circle_client: FlaskClient) -> None:
    circle = new_circle(circle_client, ["Anna", "Bo", "Cilla"])
    cid = circle["id"]
    assert len(circle["write_token"]) >= 32 and len({circle["write_token"], circle["read_token"], circle["owner_token"]}) == 3
    assert circle_client.get(f"/api/v1/circles/{cid}").status_code == 401
    assert circle_client.get(f"/api/v1/circles/{cid}?token={circle['read_token']}").status_code == 401
    assert circle_client.get(f"/api/v1/circles/{cid}", headers=auth("nope")).status_code == 403
    assert circle_client.get("/api/v1/circles/nothere", headers=auth(circle["read_token"])).status_code == 404
    status, body = muggins_result(circle_client, {**circle, "write_token": circle["read_token"]}, ["Anna", "Bo", "Cilla"], [[0], [1], [2]])
    assert status == 403
    for token in (circle["read_token"], circle["write_token"]):
        assert circle_client.delete(f"/api/v1/circles/{cid}", headers=auth(token)).status_code == 403
        assert circle_client.post(f"/api/v1/circles/{cid}/codes", headers=auth(token)).status_code == 403
    fresh = circle_client.post(f"/api/v1/circles/{cid}/codes", headers=auth(circle["owner_token"]))
    assert fresh.status_code == 200
    codes = fresh.get_json()
    assert "owner_token" not in codes
    assert circle_client.get(f"/api/v1/circles/{cid}", headers=auth(circle["read_token"])).status_code == 403
    assert circle_client.get(f"/api/v1/circles/{cid}", headers=auth(codes["read_token"])).status_code == 200
    status, table = muggins_result(circle_client, {**circle, "write_token": codes["write_token"]}, ["Anna", "Bo", "Cilla"], [[0], [1], [2]])
    assert status == 201
    gone = circle_client.delete(f"/api/v1/circles/{cid}", headers=auth(circle["owner_token"]))
    assert gone.status_code == 200 and gone.get_json() == {"id": cid, "deleted": True, "tables": 1}
    assert circle_client.get(f"/api/v1/tables/{table['id']}", headers=auth(table["read_token"])).status_code == 404
    assert circle_client.get(f"/api/v1/circles/{cid}", headers=auth(codes["read_token"])).status_code == 404


def test_season_filter(circle_client: FlaskClient) -> None:
    circle = new_circle(circle_client, ["Anna", "Bo", "Cilla"])
    _, old = muggins_result(circle_client, circle, ["Anna", "Bo", "Cilla"], [[0], [1], [2]])
    muggins_result(circle_client, circle, ["Anna", "Bo", "Cilla"], [[1], [0], [2]])
    with circle_client.application.app_context():
        db.session.get(Outcome, old["id"]).finished_at = utcnow().replace(year=2024)
        db.session.commit()
    year = utcnow().year
    assert {r["member"]: r["won"] for r in standings(circle_client, circle, f"?season={year}")["standings"]["muggins"]} == {"Anna": 0, "Bo": 1, "Cilla": 0}
    assert {r["member"]: r["won"] for r in standings(circle_client, circle, "?season=2024")["standings"]["muggins"]} == {"Anna": 1, "Bo": 0, "Cilla": 0}
    assert {r["member"]: r["played"] for r in standings(circle_client, circle, "?from=2024-01-01")["standings"]["muggins"]} == {"Anna": 2, "Bo": 2, "Cilla": 2}
    assert standings(circle_client, circle, "?to=2023-12-31")["standings"] == {}
    r = circle_client.get(f"/api/v1/circles/{circle['id']}?from=yesterday", headers=auth(circle["read_token"]))
    assert r.status_code == 400 and "YYYY-MM-DD" in r.get_json()["error"]["message"]
    for year in ("0000", "26", "２０２６", "-202", ""):  # the year 0 was a 500 (found by the fuzzer)
        r = circle_client.get(f"/api/v1/circles/{circle['id']}?season={year}", headers=auth(circle["read_token"]))
        assert r.status_code == 400 and r.get_json()["error"]["code"] == "bad_request"


def test_an_outcome_is_worked_out_again_after_an_undo_or_a_new_rules_version(circle_client: FlaskClient) -> None:
    circle = new_circle(circle_client, ["Anna", "Bo", "Cilla"])
    _, table = muggins_result(circle_client, circle, ["Anna", "Bo", "Cilla"], [[0], [1], [2]])
    with circle_client.application.app_context():
        db.session.get(Outcome, table["id"]).rules_version = 1  # as if counted under an older engine
        db.session.get(Outcome, table["id"]).data = {**db.session.get(Outcome, table["id"]).data, "winners": [1]}
        db.session.commit()
    assert {r["member"]: r["won"] for r in standings(circle_client, circle)["standings"]["muggins"]} == {"Anna": 1, "Bo": 0, "Cilla": 0}
    circle_client.post(f"/api/v1/tables/{table['id']}/undo", headers=auth(table["write_token"]))
    view = standings(circle_client, circle)
    assert view["standings"] == {} and view["tables"][0]["over"] is False


def test_export_and_import_round_trip(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    circle = new_circle(client)
    for name in ("12-mulatschak-tally-4p-plain", "17-muggins-tally-4p-plain", "09-kasino-tally-3p-variant_misar"):
        play(client, circle, json.loads((LOGS / f"{name}.json").read_text()))
    play(client, circle, {**scorepad_log(), "events": scorepad_log()["events"][:2]})
    exported = client.get(f"/api/v1/circles/{circle['id']}/export", headers=auth(circle["read_token"]))
    assert exported.status_code == 200
    data = exported.get_json()
    assert data["format"] == "scorekeeper-circle/1" and len(data["tables"]) == 4
    again = client.post("/api/v1/circles/import", json=data)
    assert again.status_code == 201, again.get_json()
    copy = again.get_json()
    before, after = standings(client, circle), standings(client, copy)
    described(client, "CircleExport", data)
    described(client, "Circle", before)
    described(client, "CircleImported", copy)
    # the answer names the new tables, in the export's order (the circle's token takes one out again)
    assert copy["tables"] == [t["id"] for t in after["tables"]] and len(copy["tables"]) == 4
    r = client.delete(f"/api/v1/circles/{copy['id']}/tables/{copy['tables'][0]}", headers=auth(copy["write_token"]))
    assert r.status_code == 200 and len(standings(client, copy)["tables"]) == 3
    assert after["name"] == before["name"] and after["members"] == before["members"]
    assert after["standings"] == before["standings"]
    strip = [{k: v for k, v in t.items() if k != "id"} for t in before["tables"]]
    assert [{k: v for k, v in t.items() if k != "id"} for t in after["tables"]] == strip
    # a tampered table refuses the whole file, and nothing of it is kept
    data["tables"][0]["events"][0]["event"]["tricks"] = "lots"
    with sqlite_app.app_context():
        circles_before = db.session.query(Circle).count()
        tables_before = db.session.query(Table).count()
        outcomes_before = db.session.query(Outcome).count()
    bad = client.post("/api/v1/circles/import", json=data)
    assert bad.status_code in (400, 422) and bad.get_json()["error"]["message"].startswith("table 1:")
    with sqlite_app.app_context():
        assert db.session.query(Circle).count() == circles_before
        assert db.session.query(Table).count() == tables_before
    # …and so does one after the tables written before it were committed (IMPORT_BATCH at a time)
    good = exported.get_json()["tables"]
    late = IMPORT_BATCH + 2
    pad = next(t for t in good if t["game"] == "scorepad")
    beyond = {**pad, "events": [*pad["events"], {"event": {"type": "points", "side": 7, "points": 5}}]}  # 3 sides
    data["tables"] = [good[i % len(good)] for i in range(late - 1)] + [beyond]
    bad = client.post("/api/v1/circles/import", json=data)
    assert bad.status_code == 422 and bad.get_json()["error"]["message"].startswith(f"table {late}:"), bad.get_json()
    with sqlite_app.app_context():
        assert db.session.query(Circle).count() == circles_before
        assert db.session.query(Table).count() == tables_before
        assert db.session.query(Outcome).count() == outcomes_before


def test_tables_in_a_circle_do_not_expire_until_the_circle_does(sqlite_app: Flask) -> None:
    from scorekeeper.commands import expire_tables
    from scorekeeper.service.circles import expire_circles

    client = sqlite_app.test_client()
    circle = new_circle(client, ["Anna", "Bo", "Cilla"])
    _, kept = muggins_result(client, circle, ["Anna", "Bo", "Cilla"], [[0], [1], [2]])
    loose = client.post("/api/v1/tables", json={"game": "muggins", "players": ["Anna", "Bo", "Cilla"], "mode": "tally"}).get_json()
    with sqlite_app.app_context():
        long_ago = utcnow() - timedelta(days=100)
        for table in db.session.query(Table).all():
            table.updated_at = long_ago
        db.session.get(Circle, circle["id"]).updated_at = long_ago
        db.session.commit()
        assert expire_tables(30) == 1
        assert {t.id for t in db.session.query(Table).all()} == {kept["id"]}
        assert expire_circles(400) == (0, 0)
        older = utcnow() - timedelta(days=401)
        db.session.get(Table, kept["id"]).updated_at = older
        db.session.get(Circle, circle["id"]).updated_at = older
        db.session.commit()
        assert expire_circles(400) == (1, 1)
        assert db.session.query(Table).count() == 0 and db.session.query(Circle).count() == 0
    assert loose["id"] not in {None}


def test_a_table_removed_from_a_circle_stays_and_leaves_the_standings(circle_client: FlaskClient,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from scorekeeper.service import circles as circles_service

    told: list[str] = []
    announce = circles_service.announce
    monkeypatch.setattr(circles_service, "announce", lambda cid: (told.append(cid), announce(cid)))
    circle, other = new_circle(circle_client, ["Anna", "Bo", "Cilla"]), new_circle(circle_client, ["Anna", "Bo", "Cilla"], "B")
    _, first = muggins_result(circle_client, circle, ["Anna", "Bo", "Cilla"], [[0], [1], [2]])
    _, second = muggins_result(circle_client, circle, ["Anna", "Bo", "Cilla"], [[1], [0], [2]])
    url = f"/api/v1/circles/{circle['id']}/tables/{first['id']}"
    for token in (circle["read_token"], other["write_token"]):
        assert circle_client.delete(url, headers=auth(token)).status_code == 403
    assert circle_client.delete(url).status_code == 401
    assert len(standings(circle_client, circle)["tables"]) == 2
    told.clear()
    r = circle_client.delete(url, headers=auth(circle["write_token"]))
    assert r.status_code == 200 and r.get_json() == {"circle": circle["id"], "table_id": first["id"], "removed": True}
    described(circle_client, "CircleTableRemoved", r.get_json())
    assert told == [circle["id"]]
    view = standings(circle_client, circle)
    assert [t["id"] for t in view["tables"]] == [second["id"]]
    assert {r["member"]: (r["played"], r["won"]) for r in view["standings"]["muggins"]} == {
        "Anna": (1, 0), "Bo": (1, 1), "Cilla": (1, 0)}
    # the table itself stays, with its tokens, and may be kept in another circle
    assert circle_client.get(f"/api/v1/tables/{first['id']}", headers=auth(first["read_token"])).status_code == 200
    again = circle_client.delete(url, headers=auth(circle["write_token"]))
    assert again.status_code == 404 and again.get_json()["error"]["code"] == "not_found"
    r = circle_client.delete(f"/api/v1/circles/{other['id']}/tables/{second['id']}", headers=auth(other["write_token"]))
    assert r.status_code == 404 and len(standings(circle_client, circle)["tables"]) == 1
    assert circle_client.delete(f"/api/v1/circles/{circle['id']}/tables/nothere",
                                headers=auth(circle["write_token"])).status_code == 404
    moved = circle_client.post(f"/api/v1/circles/{other['id']}/tables", headers=auth(other["write_token"]),
                               json={"table_id": first["id"], "token": first["write_token"]})
    assert moved.status_code == 201
    # the owner's token may remove one too
    r = circle_client.delete(f"/api/v1/circles/{circle['id']}/tables/{second['id']}", headers=auth(circle["owner_token"]))
    assert r.status_code == 200 and standings(circle_client, circle)["standings"] == {}


def test_mousel_pots_won_are_counted_and_old_outcomes_counted_again(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    circle = new_circle(client, ["P0", "P1", "P2", "P3", "P4"])
    log = json.loads((LOGS / "15-mousel-tally-5p-plain.json").read_text())
    table_id = play(client, circle, log)
    with sqlite_app.app_context():
        token = db.session.get(Table, table_id).read_token
    expected = count(client, [("mousel", table_id)], {table_id: token})["lines"]["mousel"]
    assert sum(line["pots_won"] for line in expected.values()) > 0  # the log has whole pots taken
    rows = {r["member"]: r for r in standings(client, circle)["standings"]["mousel"]}
    assert {m: r["figures"]["pots_won"] for m, r in rows.items()} == {m: line["pots_won"] for m, line in expected.items()}
    assert {m: r["figures"]["balance"] for m, r in rows.items()} == {m: line["balance"] for m, line in expected.items()}
    # an outcome stored before pots were counted (same rules version) is worked out again, once
    with sqlite_app.app_context():
        from scorekeeper.service.standings import views

        stored = db.session.get(Outcome, table_id)
        old = {k: v for k, v in stored.data.items() if k != "format"}
        stored.data = {**old, "figures": [{"balance": f["balance"]} for f in old["figures"]]}
        db.session.commit()
        views.clear()
    rows = {r["member"]: r for r in standings(client, circle)["standings"]["mousel"]}
    assert {m: r["figures"]["pots_won"] for m, r in rows.items()} == {m: line["pots_won"] for m, line in expected.items()}
    with sqlite_app.app_context():
        assert "pots_won" in db.session.get(Outcome, table_id).data["figures"][0]
