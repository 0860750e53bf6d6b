"""The circle's page /c/<id> (issue 38): joined by its link, standings rows and cells, the invite,
opening a table in the circle with its last set-up chosen, keeping a table in a circle."""

from __future__ import annotations

import re

from flask import Flask

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
