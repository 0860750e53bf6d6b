"""The HTML side: open a table, join by link, take a seat, play, undo, history, export/import."""

from __future__ import annotations

import io
import json
import re

from flask.testing import FlaskClient

HX = {"HX-Request": "true"}


def open_table(client: FlaskClient, players=("Anna", "Bo"), **fields) -> str:
    data = {"game": "scorepad", "players": list(players), "mode": "adjudicate", **fields}
    response = client.post("/tables", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)[:500]
    return response.location.rsplit("/", 1)[1]


def tokens(app, table_id: str) -> tuple[str, str]:
    from scorekeeper.extensions import db
    from scorekeeper.models import Table

    with app.app_context():
        table = db.session.get(Table, table_id)
        return table.write_token, table.read_token


def test_home_lists_games_and_house_rules(client) -> None:
    page = client.get("/").get_data(as_text=True)
    assert 'value="scorepad"' in page and "opt_scorepad_target" in page
    assert 'name="players"' in page


def test_create_shows_qr_codes_and_seat_picker(client, app) -> None:
    table_id = open_table(client, opt_scorepad_target="16")
    page = client.get(f"/t/{table_id}").get_data(as_text=True)
    write, read = tokens(app, table_id)
    assert f"/t/{table_id}/qr/join.svg" in page and f"/t/{table_id}/qr/watch.svg" in page
    assert f"http://192.0.2.10:5000/t/{table_id}/k/{write}" in page
    # The opener is seated at once (the first player unless the form says otherwise) and the page
    # opens on the invite while seats are free.
    assert "You are Anna" in page and "Who are you?" not in page
    assert 'id="join-qr"' in page and '<details id="invite" class="card invite" open' in page
    assert f'sse-connect="/t/{table_id}/stream"' in page
    svg = client.get(f"/t/{table_id}/qr/join.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"


def test_create_form_errors_rerender_with_message(client) -> None:
    response = client.post("/tables", data={"game": "scorepad", "players": ["Anna", "anna"]})
    assert response.status_code == 422  # one name at the table (TABLE-NAMES-1), though two strings
    assert "share the name" in response.get_data(as_text=True)
    response = client.post("/tables", data={"game": "scorepad", "players": ["Solo"]})
    assert response.status_code == 422 and "SCOREPAD-SETUP-1" in response.get_data(as_text=True)


def test_partnerships_from_the_form(client, app) -> None:
    table_id = open_table(client, players=["A", "B", "C", "D"], teams="pairs")
    write, _ = tokens(app, table_id)
    body = client.get(f"/api/v1/tables/{table_id}", headers={"Authorization": f"Bearer {write}"}).json
    assert body["options"]["teams"] == [[0, 2], [1, 3]] and body["state"]["scores"] == [0, 0]


def test_second_phone_joins_by_link_takes_a_seat_and_plays(client, app) -> None:
    table_id = open_table(client)
    write, _ = tokens(app, table_id)
    phone = app.test_client()
    assert phone.get(f"/t/{table_id}").status_code == 403
    entered = phone.get(f"/t/{table_id}/k/{write}")
    assert entered.status_code == 302 and entered.location == f"/t/{table_id}"
    assert phone.post(f"/t/{table_id}/seat", data={"seat": "1"}).status_code == 302
    page = phone.get(f"/t/{table_id}").get_data(as_text=True)
    assert "You are Bo" in page
    partial = phone.post(f"/t/{table_id}/events", data={"type": "points", "side:int": "0", "points:int": "7",
                                                        "note": "<img src=x onerror=alert(1)>"}, headers=HX)
    assert partial.status_code == 200
    html = partial.get_data(as_text=True)
    assert html.startswith('<section id="sheet"')
    assert "&lt;img src=x onerror=alert(1)&gt;" in html and "<img src=x" not in html
    from scorekeeper.extensions import db
    from scorekeeper.models import Event
    with app.app_context():
        assert db.session.query(Event).one().author == 1


def test_form_without_javascript_redirects_back(client) -> None:
    table_id = open_table(client)
    response = client.post(f"/t/{table_id}/events", data={"type": "points", "side:int": "1", "points:int": "3"})
    assert response.status_code == 302 and response.location == f"/t/{table_id}"
    assert ">3<" in client.get(f"/t/{table_id}").get_data(as_text=True)


def test_illegal_form_move_answers_422_with_rule_link(client) -> None:
    table_id = open_table(client, opt_scorepad_target="5")
    client.post(f"/t/{table_id}/events", data={"type": "points", "side:int": "0", "points:int": "5"}, headers=HX)
    response = client.post(f"/t/{table_id}/events", data={"type": "points", "side:int": "1", "points:int": "1"},
                           headers=HX)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert f'href="/rules/scorepad?table={table_id}&amp;lang=en#SCOREPAD-END-2"' in html
    bad = client.post(f"/t/{table_id}/events", data={"type": "points", "side:int": "x", "points:int": "1"},
                      headers=HX)
    assert bad.status_code == 400


def test_watcher_sees_no_controls_and_cannot_write(client, app) -> None:
    table_id = open_table(client)
    _, read = tokens(app, table_id)
    watcher = app.test_client()
    watcher.get(f"/t/{table_id}/k/{read}")
    page = watcher.get(f"/t/{table_id}").get_data(as_text=True)
    assert "Watching" in page
    assert "<form" not in page.split('id="sheet"')[1].split("</section>")[0]
    assert "Who are you?" not in page and "qr/join.svg" not in page
    assert watcher.get(f"/t/{table_id}/qr/join.svg").status_code == 403
    assert watcher.post(f"/t/{table_id}/events", data={"type": "points", "side:int": "0",
                                                       "points:int": "1"}).status_code == 403
    assert watcher.post(f"/t/{table_id}/undo").status_code == 403
    assert watcher.post(f"/t/{table_id}/seat", data={"seat": "0"}).status_code == 403


def test_watch_link_does_not_downgrade_a_player(client, app) -> None:
    table_id = open_table(client)
    _, read = tokens(app, table_id)
    client.get(f"/t/{table_id}/k/{read}")
    page = client.get(f"/t/{table_id}").get_data(as_text=True)
    assert "You are Anna" in page and "qr/join.svg" in page


def test_wrong_token_link_is_403_and_unknown_table_404(client) -> None:
    table_id = open_table(client)
    assert client.get(f"/t/{table_id}/k/wrong").status_code == 403
    assert client.get("/t/nope").status_code == 404


def test_undo_and_history_strike_through(client) -> None:
    table_id = open_table(client)
    client.post(f"/t/{table_id}/seat", data={"seat": "0"})
    client.post(f"/t/{table_id}/events", data={"type": "points", "side:int": "0", "points:int": "4"}, headers=HX)
    client.post(f"/t/{table_id}/events", data={"type": "points", "side:int": "1", "points:int": "9"}, headers=HX)
    undone = client.post(f"/t/{table_id}/undo", headers=HX)
    assert undone.status_code == 200 and "Undone" in undone.get_data(as_text=True)
    history = client.get(f"/t/{table_id}/history").get_data(as_text=True)
    assert history.count("<del>") == 1 and "+9 → Bo" in history and "undo #2" in history
    assert re.search(r"<td>Anna</td>", history)


def test_export_download_and_import_upload(client) -> None:
    table_id = open_table(client)
    client.post(f"/t/{table_id}/events", data={"type": "points", "side:int": "1", "points:int": "8"}, headers=HX)
    exported = client.get(f"/t/{table_id}/export.json")
    assert exported.status_code == 200 and "attachment" in exported.headers["Content-Disposition"]
    data = json.loads(exported.data)
    response = client.post("/import", data={"file": (io.BytesIO(exported.data), "t.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 302
    new_id = response.location.rsplit("/", 1)[1]
    assert new_id != table_id
    page = client.get(f"/t/{new_id}").get_data(as_text=True)
    assert ">8<" in page
    data["events"][0]["event"]["side"] = 9
    bad = client.post("/import", data={"file": (io.BytesIO(json.dumps(data).encode()), "t.json")},
                      content_type="multipart/form-data")
    assert bad.status_code == 422 and "SCOREPAD-PLAY-1" in bad.get_data(as_text=True)
    junk = client.post("/import", data={"file": (io.BytesIO(b"\x00not json"), "t.json")},
                       content_type="multipart/form-data")
    assert junk.status_code == 400


def test_names_with_script_payloads_are_escaped(client) -> None:
    table_id = open_table(client, players=["<script>alert(1)</script>", "Bo"])
    page = client.get(f"/t/{table_id}").get_data(as_text=True)
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_rule_book_highlights_house_rules(client) -> None:
    table_id = open_table(client, opt_scorepad_target="16")
    page = client.get(f"/rules/scorepad?table={table_id}").get_data(as_text=True)
    assert 'id="SCOREPAD-END-1"' in page
    assert 'class="rule house" id="SCOREPAD-SETUP-3"' in page
    assert client.get("/rules/nothing").status_code == 404


def test_pwa_manifest_service_worker_offline(client) -> None:
    manifest = client.get("/manifest.webmanifest")
    assert manifest.mimetype == "application/manifest+json"
    assert {i["sizes"] for i in manifest.json["icons"]} >= {"192x192", "512x512"}
    worker = client.get("/sw.js").get_data(as_text=True)
    assert "htmx.min." in worker and "/offline" in worker and "/rules/scorepad" in worker
    assert client.get("/offline").status_code == 200
    for path in ("/static/htmx.min.js", "/static/sse.js", "/static/app.css", "/static/icons/icon-192.png"):
        assert client.get(path).status_code == 200, path


def test_language_switch_and_browser_language(client) -> None:
    client.get("/lang/sv")
    assert 'lang="sv"' in client.get("/").get_data(as_text=True)
    fresh = client.application.test_client()
    assert 'lang="de"' in fresh.get("/", headers={"Accept-Language": "de-AT,de;q=0.9"}).get_data(as_text=True)


def test_security_headers(client) -> None:
    response = client.get("/")
    csp = response.headers["Content-Security-Policy"]
    assert "unsafe-inline" not in csp and "script-src 'self'" in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_sheet_partial_and_page_stream(client, app) -> None:
    app.config.update(SSE_PING_SECONDS=0.05, SSE_MAX_SECONDS=0.2)
    table_id = open_table(client)
    partial = client.get(f"/t/{table_id}/sheet", headers=HX).get_data(as_text=True)
    assert partial.startswith('<section id="sheet"') and 'hx-trigger="sse:message, refresh"' in partial
    stream = client.get(f"/t/{table_id}/stream")
    assert stream.mimetype == "text/event-stream" and '"seq": 0' in stream.get_data(as_text=True)


def test_static_files_hashed_compressed_and_cached_for_good(client) -> None:
    import re

    from scorekeeper.assets import build, manifest

    if not manifest():  # `make` builds the hashed copies; a bare checkout builds them here
        build()
        manifest.cache_clear()
    html = client.get("/").get_data(as_text=True)
    css = re.search(r'href="(/static/dist/app\.[0-9a-f]{12}\.css)"', html)
    assert css, "the page should link the hashed stylesheet"
    response = client.get(css.group(1))
    assert response.status_code == 200
    assert "immutable" in response.headers["Cache-Control"]
    page = client.get("/", headers={"Accept-Encoding": "gzip"})
    assert page.headers.get("Content-Encoding") == "gzip"


def test_chart_end_labels_never_overlap() -> None:
    import re

    from scorekeeper.web.charts import line_chart

    svg = str(line_chart(["Anna", "Bo", "Cy"], [[0, 0, 0], [5, 5, 5], [9, 9, 2]], target=20))
    ys = sorted(float(v) for v in re.findall(r'<text class="label s\d" x="[\d.]+" y="([\d.]+)"', svg))
    assert len(ys) == 3 and all(b - a >= 11 for a, b in zip(ys, ys[1:], strict=False))


def test_the_opener_chooses_a_seat_or_none(client) -> None:
    second = open_table(client, players=("Anna", "Bo", "Cleo"), seat="2")
    assert "You are Cleo" in client.get(f"/t/{second}").get_data(as_text=True)
    third = open_table(client, seat="watch")
    page = client.get(f"/t/{third}").get_data(as_text=True)
    assert "Who are you?" in page and "Not seated" in page


def test_taking_a_seat_another_phone_holds_asks_and_tells_that_phone(app, client) -> None:
    table_id = open_table(client)                                  # this phone sits as Anna
    write, _ = tokens(app, table_id)
    other = app.test_client()
    other.get(f"/t/{table_id}/k/{write}")
    page = other.get(f"/t/{table_id}").get_data(as_text=True)
    assert "Who are you?" in page and "on another phone" in page.split("Bo</button>")[0]
    asked = other.post(f"/t/{table_id}/seat", data={"seat": "0"})
    assert asked.status_code == 200
    text = asked.get_data(as_text=True)
    assert "Anna is seated on another phone — take over?" in text
    assert 'name="takeover" value="1"' in text
    assert "You are Anna" in client.get(f"/t/{table_id}").get_data(as_text=True)   # nothing changed yet
    assert other.post(f"/t/{table_id}/seat", data={"seat": "0", "takeover": "1"}).status_code == 302
    assert "You are Anna" in other.get(f"/t/{table_id}").get_data(as_text=True)
    lost = client.get(f"/t/{table_id}").get_data(as_text=True)
    assert "You are Anna" not in lost and "Another phone took over Anna’s seat." in lost
    sheet = client.get(f"/t/{table_id}/sheet", headers=HX).get_data(as_text=True)
    assert "Another phone took over Anna’s seat." in sheet.split('hx-swap-oob="innerHTML:#last-move"')[1]
    # A free seat is taken without asking.
    assert other.post(f"/t/{table_id}/seat", data={"seat": "1"}).status_code == 302


def test_the_seat_change_is_announced_on_the_phones_stream_only() -> None:
    from scorekeeper.live import Broker, stream

    broker = Broker()
    phones = stream("t1", 0, ping_every=0.05, max_seconds=0.3, source=broker, seats=True)
    api = stream("t1", 0, ping_every=0.05, max_seconds=0.3, source=broker)
    assert [next(phones), next(phones)] == [next(api), next(api)]   # retry, then the head
    broker.reseat("t1")
    assert b'"seats": 1' in next(phones)
    assert all(b'"seats"' not in line for line in api)


def test_language_switch_returns_to_the_page_it_was_asked_on(client) -> None:
    table_id = open_table(client)
    page = client.get(f"/t/{table_id}").get_data(as_text=True)
    assert f"/lang/sv?next=/t/{table_id}" in page
    switched = client.get(f"/lang/sv?next=/t/{table_id}")
    assert switched.status_code == 302 and switched.location == f"/t/{table_id}"
    for evil in ("//evil.example/", "https://evil.example/", "/\\evil.example"):
        assert client.get("/lang/de", query_string={"next": evil}).location == "/"


def test_undo_names_the_move_asks_once_and_other_phones_hear_who_undid(app, client) -> None:
    table_id = open_table(client)
    client.post(f"/t/{table_id}/events", data={"type": "points", "side:int": "1", "points:int": "7"})
    page = client.get(f"/t/{table_id}").get_data(as_text=True)
    region = page.split('id="last-move"')[1]
    assert "<details" in region and "Take back “+7 → Bo”?" in region and "Yes, undo it" in region
    stale = client.post(f"/t/{table_id}/undo", data={"expected_seq": "0"}, headers=HX)
    assert stale.status_code == 409                                  # the named move is not the last any more
    assert client.post(f"/t/{table_id}/undo", data={"expected_seq": "1"}, headers=HX).status_code == 200
    write, _ = tokens(app, table_id)
    other = app.test_client()
    other.get(f"/t/{table_id}/k/{write}")
    heard = other.get(f"/t/{table_id}/sheet", headers=HX).get_data(as_text=True)
    assert "Anna undid: +7 → Bo" in heard.split('hx-swap-oob="innerHTML:#last-move"')[1]


def test_the_home_page_lists_this_phones_tables_beside_the_seat_question(client) -> None:
    table_id = open_table(client, players=("Anna", "Bo"))
    home = client.get("/").get_data(as_text=True)
    assert 'id="my-seat"' in home
    assert f'href="/t/{table_id}">Scorepad · Anna, Bo</a>' in home   # not shadowed by the form's seat


def test_score_pad_lines_name_the_side_in_the_readers_language(client) -> None:
    """"+7 → Anna & Cilla", not "side 0": a partnership is named by its players, in any language."""
    table_id = open_table(client, players=("Anna", "Bo", "Cilla", "Dan"), teams="pairs")
    client.post(f"/t/{table_id}/seat", data={"seat": "0"})
    client.post(f"/t/{table_id}/events", data={"type": "points", "side:int": "0", "points:int": "7"}, headers=HX)
    client.post(f"/t/{table_id}/events", data={"type": "points", "side:int": "1", "points:int": "3"}, headers=HX)
    for lang in ("en", "sv", "de"):
        history = client.get(f"/t/{table_id}/history?lang={lang}").get_data(as_text=True)
        assert "+7 → Anna &amp; Cilla" in history and "+3 → Bo &amp; Dan" in history, lang
        assert "side 0" not in history and "sida" not in history, lang
        page = client.get(f"/t/{table_id}?lang={lang}").get_data(as_text=True)
        assert "+3 → Bo &amp; Dan" in page, lang  # the undo button names the move the same way


def test_chart_end_labels_keep_the_number_whole_beside_a_long_name() -> None:
    import re

    from scorekeeper.web.charts import _LABEL_ROOM, _width, line_chart

    names = ["Wolfeschlegelsteinhausenbergerdorffsmith", "W" * 40, "Bo", "Cecilia"]
    svg = str(line_chart(names, [[0, 0, 0, 0], [5, -75, 112, 3]]))
    labels = re.findall(r'<text class="label s\d" x="[\d.]+" y="[\d.]+">([^<]*)</text>', svg)
    assert labels[0].endswith("… 5") and labels[1].endswith("… -75") and labels[2] == "Bo 112"
    assert labels[3] == "Cecilia 3" and all(_width(label) <= _LABEL_ROOM for label in labels)


def test_a_move_refused_because_the_table_moved_meanwhile_shows_the_table_as_it_is_now(sqlite_app, monkeypatch) -> None:
    """A write's view keeps the table it read for the sheet it draws after the write; when nothing
    was written (here a 409: another phone's move landed between the read and the write) the
    sheet is drawn from the table read afresh, at its newest head."""
    from scorekeeper.service import store, writes

    client = sqlite_app.test_client()
    table_id = open_table(client)
    client.post(f"/t/{table_id}/events", data={"type": "points", "side:int": "1", "points:int": "7"})
    real = writes._write_sqlite

    def another_phone_first(facts, step, author, expected_seq):
        monkeypatch.setattr(writes, "_write_sqlite", real)
        with store.pooled() as other:
            assert other.append(facts.id, 1, {"type": "points", "side": 0, "points": 5}, None)
        return real(facts, step, author, expected_seq)

    monkeypatch.setattr(writes, "_write_sqlite", another_phone_first)
    stale = client.post(f"/t/{table_id}/events", headers=HX,
                        data={"type": "points", "side:int": "1", "points:int": "3", "expected_seq": "1"})
    assert stale.status_code == 409
    page = stale.get_data(as_text=True)
    assert 'data-seq="2"' in page and "+5 → Anna" in page
    moved = client.post(f"/t/{table_id}/events", headers=HX,
                        data={"type": "points", "side:int": "1", "points:int": "3", "expected_seq": "2"})
    assert moved.status_code == 200 and 'data-seq="3"' in moved.get_data(as_text=True)


def test_a_move_from_the_sheet_reads_its_table_once(sqlite_app) -> None:
    """The write's view reads the table, the write moves its head in the session, and the sheet
    drawn after it takes it from there: one statement on the tables, not one before and after."""
    from sqlalchemy import event

    from scorekeeper.extensions import db

    client = sqlite_app.test_client()
    table_id = open_table(client)
    client.post(f"/t/{table_id}/events", data={"type": "points", "side:int": "1", "points:int": "7"})
    with sqlite_app.app_context():
        engine = db.engine
    read: list[str] = []

    def note(_conn, _cursor, statement, *_args) -> None:
        if "FROM tables" in statement:
            read.append(statement)

    event.listen(engine, "before_cursor_execute", note)
    try:
        moved = client.post(f"/t/{table_id}/events", headers=HX,
                            data={"type": "points", "side:int": "0", "points:int": "3", "expected_seq": "1"})
    finally:
        event.remove(engine, "before_cursor_execute", note)
    assert moved.status_code == 200 and 'data-seq="2"' in moved.get_data(as_text=True)
    assert len(read) == 1, read
