"""The circle's page /c/<id> (issue 38): joined by its link, standings rows and cells, the invite,
opening a table in the circle with its last set-up chosen, keeping a table in a circle."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from flask import Flask
from flask.testing import FlaskClient

from tests.web.test_circles import auth, muggins_result, new_circle


def test_the_page_shows_standings_and_the_invite_to_who_joined(sqlite_app: Flask) -> None:
    api, phone, stranger = sqlite_app.test_client(), sqlite_app.test_client(), sqlite_app.test_client()
    circle = new_circle(api, ["Anna", "Bertil", "Cilla"])
    muggins_result(api, circle, ["Anna", "bertil", "Cilla"], [[1], [0], [2]])
    assert stranger.get(f"/c/{circle['id']}").status_code == 403
    assert phone.get(f"/c/{circle['id']}/k/{circle['write_token']}").status_code == 302
    page = phone.get(f"/c/{circle['id']}").get_data(as_text=True)
    assert 'id="circle-qr"' in page and 'id="standings"' in page
    row = re.search(r'<tr data-member="Bertil">(.*?)</tr>', page, re.S)
    assert row is not None
    assert re.search(r'data-stat="played">1<', row.group(1)) and re.search(r'data-stat="won">1<', row.group(1))
    assert phone.get(f"/c/{circle['id']}/qr/join.svg").mimetype == "image/svg+xml"
    # the season form as a browser sends it, empty fields and all
    assert phone.get(f"/c/{circle['id']}?season=&from=&to=").status_code == 200
    assert 'data-member="Bertil"' not in phone.get(f"/c/{circle['id']}?season=2001&from=&to=").get_data(as_text=True)
    # the watch link: standings, no join code, no form
    watcher = sqlite_app.test_client()
    watcher.get(f"/c/{circle['id']}/k/{circle['read_token']}")
    seen = watcher.get(f"/c/{circle['id']}").get_data(as_text=True)
    assert 'data-member="Anna"' in seen and "circle-open" not in seen
    assert watcher.get(f"/c/{circle['id']}/qr/join.svg").status_code == 403
    # new codes: the old join link's phone loses the circle
    api.post(f"/api/v1/circles/{circle['id']}/codes", headers=auth(circle["owner_token"]))
    assert phone.get(f"/c/{circle['id']}").status_code == 403


def test_a_table_opened_from_the_page_keeps_the_last_set_up(sqlite_app: Flask) -> None:
    phone = sqlite_app.test_client()
    made = phone.post("/circles", data={"name": "Stugan", "members": "Anna, Bo, Cilla"})
    assert made.status_code == 302
    url = made.headers["Location"]
    opened = phone.post(f"{url}/tables", data={"game": "kasino", "players": ["Anna", "Bo", "Cilla"], "mode": "tally",
                                                "opt_kasino_variant": "misar"})
    assert opened.status_code == 302 and "/t/" in opened.headers["Location"]
    page = phone.get(url).get_data(as_text=True)
    assert re.search(r'name="game" value="kasino" checked', page)
    assert re.search(r'value="tally" checked', page)
    assert 'value="Cilla"' in page
    refused = phone.post(f"{url}/tables", data={"game": "kasino", "players": ["Anna", "Bo", "Dag"]})
    assert refused.status_code == 422 and "Dag" in refused.get_data(as_text=True)


def test_keep_a_table_in_a_new_circle(sqlite_app: Flask) -> None:
    phone = sqlite_app.test_client()
    phone.post("/tables", data={"game": "muggins", "players": ["Anna", "Bo", "Cilla"], "mode": "tally"})
    home = phone.get("/").get_data(as_text=True)
    table_id = re.search(r'href="/t/([^"]+)"', home).group(1)
    page = phone.get(f"/t/{table_id}").get_data(as_text=True)
    assert "keep-in-circle" in page and 'id="open-circle"' in home
    kept = phone.post(f"/t/{table_id}/circle", data={"name": "Fredagar"})
    assert kept.status_code == 302
    circle_page = phone.get(kept.headers["Location"]).get_data(as_text=True)
    assert "Fredagar" in circle_page and f'data-table="{table_id}"' in circle_page
    assert "Fredagar" in phone.get("/").get_data(as_text=True)


def joined(app: Flask, circle: dict[str, str], token: str = "write_token") -> FlaskClient:
    phone = app.test_client()
    assert phone.get(f"/c/{circle['id']}/k/{circle[token]}").status_code == 302
    return phone


def test_a_table_is_taken_out_of_the_circle_from_its_page(sqlite_app: Flask) -> None:
    api = sqlite_app.test_client()
    circle = new_circle(api, ["Anna", "Bertil", "Cilla"])
    _, kept = muggins_result(api, circle, ["Anna", "Bertil", "Cilla"], [[1], [0], [2]])
    _, other = muggins_result(api, circle, ["Anna", "Bertil", "Cilla"], [[0], [1], [2]])
    phone, watcher = joined(sqlite_app, circle), joined(sqlite_app, circle, "read_token")
    action = f"/c/{circle['id']}/tables/{kept['id']}/remove"
    page = phone.get(f"/c/{circle['id']}").get_data(as_text=True)
    # a confirm step without script: the form opens from its summary, its button says what it does
    form = re.search(rf'<details class="remove-table">.*?<form[^>]*action="{re.escape(action)}".*?</form>\s*</details>',
                     page, re.S)
    assert form is not None and 'name="csrf_token"' in form.group(0) and 'type="submit"' in form.group(0)
    # each table's summary and button named apart for a screen reader: its game and its players
    names = {re.sub(r"<[^>]+>|\s+", " ", m).strip() for m in re.findall(r"<summary>(.*?)</summary>", page, re.S)
             if "Remove" in m}
    day = datetime.now(UTC).date().isoformat()
    assert names == {f"Remove… : Muggins · Anna, Bertil, Cilla, {day}, won by {who}" for who in ("Anna", "Bertil")}
    assert page.count(f">{day}</time>") == 2
    assert action not in watcher.get(f"/c/{circle['id']}").get_data(as_text=True)
    assert watcher.post(action).status_code == 403
    done = phone.post(action)
    assert done.status_code == 302 and done.headers["Location"].endswith(f"/c/{circle['id']}")
    page = phone.get(f"/c/{circle['id']}").get_data(as_text=True)
    assert f'data-table="{kept["id"]}"' not in page and f'data-table="{other["id"]}"' in page
    row = re.search(r'<tr data-member="Anna">(.*?)</tr>', page, re.S)
    assert row is not None and re.search(r'data-stat="played">1<', row.group(1))
    assert api.get(f"/api/v1/tables/{kept['id']}", headers=auth(kept["read_token"])).status_code == 200
    assert phone.post(action).status_code == 404  # no longer in this circle


def test_other_names_are_given_and_taken_away_on_the_page(sqlite_app: Flask) -> None:
    api = sqlite_app.test_client()
    circle = new_circle(api, ["Anna", "Bertil"])
    phone, watcher = joined(sqlite_app, circle), joined(sqlite_app, circle, "read_token")
    url = f"/c/{circle['id']}/aliases"
    assert 'id="circle-aliases"' in phone.get(f"/c/{circle['id']}").get_data(as_text=True)
    assert 'id="circle-aliases"' not in watcher.get(f"/c/{circle['id']}").get_data(as_text=True)
    given = phone.post(url, data={"member": "Bertil", "alias": "Berra"})
    assert given.status_code == 302
    members = api.get(f"/api/v1/circles/{circle['id']}", headers=auth(circle["read_token"])).get_json()["members"]
    assert members == [{"name": "Anna", "aliases": []}, {"name": "Bertil", "aliases": ["Berra"]}]
    page = phone.get(f"/c/{circle['id']}").get_data(as_text=True)
    assert re.search(r'name="alias" value="Berra"', page)  # its own form to take it away
    # the reader's language: names one once folded (TABLE-NAMES-1), and another member's name
    refused = phone.post(url, data={"member": "Bertil", "alias": "BERTIL"}, headers={"Accept-Language": "sv"})
    assert refused.status_code == 422 and "två medlemmar delar namnet" in refused.get_data(as_text=True)
    refused = phone.post(url, data={"member": "Bertil", "alias": "anna"}, headers={"Accept-Language": "de"})
    assert refused.status_code == 409
    assert "ist schon der Name eines anderen Mitglieds" in refused.get_data(as_text=True)
    refused = phone.post(url, data={"member": "Cilla", "alias": "Cissi"}, headers={"Accept-Language": "sv"})
    assert refused.status_code == 422 and "Cilla" in refused.get_data(as_text=True)
    taken = phone.post(url, data={"member": "Bertil", "alias": "Berra", "remove": "1"})
    assert taken.status_code == 302
    members = api.get(f"/api/v1/circles/{circle['id']}", headers=auth(circle["read_token"])).get_json()["members"]
    assert members == [{"name": "Anna", "aliases": []}, {"name": "Bertil", "aliases": []}]
    gone = phone.post(url, data={"member": "Bertil", "alias": "Berra", "remove": "1"})
    assert gone.status_code == 404 and "is not another name of" in gone.get_data(as_text=True)
