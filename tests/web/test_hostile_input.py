"""Hostile bodies on every endpoint that reads JSON or an uploaded export: deeply nested arrays and
objects, invalid UTF-8 and an oversize body each get a clear 4xx, change nothing and leave no
traceback in the log (issue 17)."""

from __future__ import annotations

import io
import json
import logging

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web.json_input import MAX_DEPTH, TooDeep, depth, loads

NESTED_ARRAYS = ("[" * 10_000 + "]" * 10_000).encode()
NESTED_OBJECTS = ('{"a": ' * 20_000 + "1" + "}" * 20_000).encode()
# Deep inside an otherwise ordinary body: the limit holds wherever the nesting sits.
DEEP_FIELD = ('{"game": "scorepad", "players": ["A", "B"], "type": "points", "side": 0, "points": 1, "note": '
              + "[" * 5_000 + "]" * 5_000 + "}").encode()
INVALID_UTF8 = b'{"game": "scorepad", "players": ["\xff\xfe\xfa", "B"], "type": "points", "side": 0, "points": 1}'
OVERSIZE = b'{"game": "scorepad", "players": ["A", "B"], "note": "' + b"x" * (3 * 1024 * 1024) + b'"}'

BODIES = {
    "nested_arrays": (NESTED_ARRAYS, 400, "malformed_json"),
    "nested_objects": (NESTED_OBJECTS, 400, "malformed_json"),
    "deep_field": (DEEP_FIELD, 400, "malformed_json"),
    "invalid_utf8": (INVALID_UTF8, 400, "bad_request"),
    "oversize": (OVERSIZE, 413, "request_entity_too_large"),
}


@pytest.fixture
def client(sqlite_app: Flask) -> FlaskClient:
    return sqlite_app.test_client()


def no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    noisy = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not noisy, [r.getMessage() for r in noisy]


def tables_and_events(app: Flask) -> tuple[int, int]:
    from scorekeeper.extensions import db
    from scorekeeper.models import Event, Table

    with app.app_context():
        return db.session.query(Table).count(), db.session.query(Event).count()


def api_error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    assert response.is_json
    error = response.json["error"]
    assert set(error) == {"code", "rule", "message"} and error["code"] == code and error["rule"] is None
    if code == "malformed_json":
        assert str(MAX_DEPTH) in error["message"]
    return error


def open_table(client: FlaskClient) -> dict:
    table = client.post("/api/v1/tables", json={"game": "scorepad", "players": ["Anna", "Bo"]}).json
    headers = {"Authorization": f"Bearer {table['write_token']}"}
    assert client.post(f"/api/v1/tables/{table['id']}/events", json={"type": "points", "side": 0, "points": 3},
                       headers=headers).status_code == 201
    return table


@pytest.mark.parametrize("kind", list(BODIES))
@pytest.mark.parametrize("path", ["/api/v1/tables", "/api/v1/tables/import"])
def test_hostile_bodies_open_no_table(sqlite_app: Flask, client: FlaskClient, caplog, path: str, kind: str) -> None:
    body, status, code = BODIES[kind]
    caplog.set_level(logging.INFO)
    response = client.post(path, data=body, content_type="application/json")
    api_error(response, status, code)
    assert tables_and_events(sqlite_app) == (0, 0)
    no_traceback(caplog)


@pytest.mark.parametrize("kind", list(BODIES))
def test_hostile_bodies_add_no_event(sqlite_app: Flask, client: FlaskClient, caplog, kind: str) -> None:
    body, status, code = BODIES[kind]
    table = open_table(client)
    headers = {"Authorization": f"Bearer {table['write_token']}"}
    before = client.get(f"/api/v1/tables/{table['id']}", headers=headers).json
    caplog.set_level(logging.INFO)
    response = client.post(f"/api/v1/tables/{table['id']}/events", data=body, content_type="application/json",
                           headers=headers)
    api_error(response, status, code)
    assert client.get(f"/api/v1/tables/{table['id']}", headers=headers).json == before
    assert before["seq"] == 1 and tables_and_events(sqlite_app) == (1, 1)
    no_traceback(caplog)


@pytest.mark.parametrize("kind", list(BODIES))
def test_hostile_uploads_on_the_import_form(sqlite_app: Flask, client: FlaskClient, caplog, kind: str) -> None:
    body, status, _code = BODIES[kind]
    caplog.set_level(logging.INFO)
    response = client.post("/import", data={"file": (io.BytesIO(body), "export.json")},
                           content_type="multipart/form-data")
    assert response.status_code == status
    page = response.get_data(as_text=True)
    assert "<html" in page and "Traceback" not in page
    if status == 400 and kind != "invalid_utf8":
        assert f"nested more than {MAX_DEPTH} levels" in page
    assert tables_and_events(sqlite_app) == (0, 0)
    no_traceback(caplog)


@pytest.mark.parametrize("kind", ["nested_arrays", "nested_objects"])
def test_deep_json_form_fields_are_refused(sqlite_app: Flask, client: FlaskClient, caplog, kind: str) -> None:
    """Form fields typed ``:json`` go through the same parser (the sheet form and the preview)."""
    table = open_table(client)
    assert client.get(f"/t/{table['id']}/k/{table['write_token']}").status_code == 302
    value = BODIES[kind][0].decode()
    caplog.set_level(logging.INFO)
    posted = client.post(f"/t/{table['id']}/events", data={"type": "points", "side:int": "0", "extra:json": value},
                         headers={"HX-Request": "true"})
    assert posted.status_code == 400 and f"nested more than {MAX_DEPTH} levels" in posted.get_data(as_text=True)
    previewed = client.get(f"/t/{table['id']}/preview", query_string={"type": "points", "extra:json": value})
    assert previewed.status_code == 200 and f"nested more than {MAX_DEPTH} levels" in previewed.get_data(as_text=True)
    assert tables_and_events(sqlite_app) == (1, 1)
    no_traceback(caplog)


def test_the_limit_is_exact_and_strings_do_not_count() -> None:
    at_limit = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert depth(at_limit) == MAX_DEPTH and loads(at_limit) is not None
    with pytest.raises(TooDeep) as refused:
        loads("[" + at_limit + "]")
    assert refused.value.depth == MAX_DEPTH + 1 and refused.value.code == "malformed_json"
    # brackets and escaped quotes inside strings are text, not nesting
    tricky = json.dumps({"name": "[" * 500 + '\\"{{{' + "}" * 9, "x": [[1]]})
    assert depth(tricky) == 3 and loads(tricky)["x"] == [[1]]
    assert depth('"[[["') == 0 and depth("") == 0
    with pytest.raises(ValueError):
        loads("NaN")
    with pytest.raises(ValueError):
        loads(b"\xff")
    with pytest.raises(ValueError):
        loads("1" * 5_000)  # a number of thousands of digits is refused, not computed
    assert loads(b"\xef\xbb\xbf{}") == {}  # an export saved with a byte-order mark still reads


def test_bodies_within_the_limit_reach_validation(client: FlaskClient) -> None:
    """Nesting alone is not an error: a 60-deep note is refused by event validation as usual."""
    table = open_table(client)
    note = json.loads("[" * 60 + "]" * 60)
    response = client.post(f"/api/v1/tables/{table['id']}/events",
                           json={"type": "points", "side": 0, "points": 1, "note": note},
                           headers={"Authorization": f"Bearer {table['write_token']}"})
    assert response.status_code == 400 and response.json["error"]["code"] == "malformed_event"


# --- text that is not text (found by the sweep) ---------------------------------------------------

UNSTORABLE = ["\\u0000", "\\ud800", "\\udfff x"]  # JSON escapes: NUL and lone surrogates


@pytest.mark.parametrize("escape", UNSTORABLE + ["\\u001b[31m"])
def test_names_with_control_characters_are_refused(app: Flask, escape: str) -> None:
    """PostgreSQL refuses NUL in text, SQLite lone surrogates: both answered 500 before."""
    client = app.test_client()
    body = '{"game": "scorepad", "players": ["An' + escape + 'na", "Bo"]}'
    response = client.post("/api/v1/tables", data=body, content_type="application/json")
    assert response.status_code == 400 and response.json["error"]["message"] == "a player's name holds a control character"
    html = client.post("/tables", data={"game": "scorepad", "players": ["A\x00", "B"]})
    assert html.status_code == 400
    assert tables_and_events(app) == (0, 0)


@pytest.mark.parametrize("where", ["note", "key", "type"])
@pytest.mark.parametrize("escape", UNSTORABLE)
def test_events_with_unstorable_text_are_refused(app: Flask, where: str, escape: str) -> None:
    client = app.test_client()
    table = open_table(client)
    body = {"note": '{"type": "points", "side": 0, "points": 1, "note": "x' + escape + '"}',
            "key": '{"type": "points", "side": 0, "points": 1, "x' + escape + '": 1}',
            "type": '{"type": "points' + escape + '", "side": 0, "points": 1}'}[where]
    response = client.post(f"/api/v1/tables/{table['id']}/events", data=body, content_type="application/json",
                           headers={"Authorization": f"Bearer {table['write_token']}"})
    assert response.status_code == 400 and response.json["error"]["code"] == "malformed_event"
    assert tables_and_events(app) == (1, 1)


def test_a_form_note_with_nul_is_refused(app: Flask) -> None:
    client = app.test_client()
    table = open_table(client)
    assert client.get(f"/t/{table['id']}/k/{table['write_token']}").status_code == 302
    response = client.post(f"/t/{table['id']}/events", data={"type": "points", "side:int": "0", "points:int": "1",
                                                              "note": "a\x00b"}, headers={"HX-Request": "true"})
    assert response.status_code == 400
    assert tables_and_events(app) == (1, 1)


def test_invisible_formatting_is_dropped_from_names(client: FlaskClient) -> None:
    """A bidi override would reverse the text beside a name on every phone; a zero-width space
    would make two players who look alike. Joiners inside emoji stay."""
    made = client.post("/api/v1/tables", json={"game": "scorepad",
                                               "players": ["\u202eAnna\u202c", "Bo\u200b", "👩\u200d👩 Cy"]})
    assert made.status_code == 201
    shown = client.get(f"/api/v1/tables/{made.json['id']}",
                       headers={"Authorization": f"Bearer {made.json['read_token']}"}).json["players"]
    assert shown == ["Anna", "Bo", "👩\u200d👩 Cy"]
    for twins in (["Anna", "An\u200bna"], ["Anna", "An\u200dna"], ["Anna", "ＡＮＮＡ"]):
        twin = client.post("/api/v1/tables", json={"game": "scorepad", "players": twins})
        assert twin.status_code == 422 and "share the name" in twin.json["error"]["message"]
        assert twin.json["error"]["rule"] == "TABLE-NAMES-1"


@pytest.mark.parametrize("by", [10 ** 30, -1, 2, True])
def test_an_import_with_a_strange_author_keeps_its_moves_without_one(app: Flask, by) -> None:
    """``by`` names the seat that entered a move; a number that is no seat (or too big for the
    database: 500 before) is dropped, the move kept."""
    client = app.test_client()
    export = {"format": "scorekeeper/1", "game": "scorepad", "mode": "adjudicate", "options": {},
              "players": ["Anna", "Bo"], "events": [{"seq": 1, "by": by, "event": {"type": "points", "side": 0,
                                                                                     "points": 4}}]}
    response = client.post("/api/v1/tables/import", json=export)
    assert response.status_code == 201, response.get_data(as_text=True)[:300]
    events = client.get(f"/api/v1/tables/{response.json['id']}/events",
                        headers={"Authorization": f"Bearer {response.json['read_token']}"}).json["events"]
    assert [(e["by"], e["event"]["points"]) for e in events] == [(None, 4)]


@pytest.mark.parametrize("game", ["scorepad", "mulle", "kasino", "mulatschak", "mousel", "muggins"])
def test_a_dotted_form_name_cannot_nest_an_event_deeply(sqlite_app: Flask, client: FlaskClient, caplog,
                                                        game: str) -> None:
    """``a.a.a….b`` builds nested objects from a flat form: five thousand parts answered 500
    (RecursionError while the event was measured) on every game's sheet before."""
    players = ["Anna", "Bo", "Cy", "Di"]
    table = client.post("/api/v1/tables", json={"game": game, "players": players}).json
    assert client.get(f"/t/{table['id']}/k/{table['write_token']}").status_code == 302
    deep = ".".join(["a"] * 5_000) + ".b"
    caplog.set_level(logging.INFO)
    posted = client.post(f"/t/{table['id']}/events", data={"type": "deal", deep: "x"}, headers={"HX-Request": "true"})
    assert posted.status_code == 400 and "more than 8 dotted parts" in posted.get_data(as_text=True)
    previewed = client.get(f"/t/{table['id']}/preview", query_string={"type": "deal", deep: "x"})
    assert previewed.status_code == 200 and "more than 8 dotted parts" in previewed.get_data(as_text=True)
    assert tables_and_events(sqlite_app) == (1, 0)
    no_traceback(caplog)


ODD_NUMBERS = ["²", "٣٣", "9" * 5_000, "-1", " 1 2"]  # "²".isdigit() is True, int("²") raises


@pytest.mark.parametrize("text", ODD_NUMBERS)
def test_odd_numbers_in_forms_are_refused_not_crashed(sqlite_app: Flask, client: FlaskClient, caplog,
                                                      text: str) -> None:
    """Form fields read as numbers outside the ``:int`` suffix: the seat, ``expected_seq``, the
    tally forms' tricks and finishing order. A superscript digit answered 500 on each before."""
    caplog.set_level(logging.INFO)
    hx = {"HX-Request": "true"}
    table = open_table(client)
    assert client.get(f"/t/{table['id']}/k/{table['write_token']}").status_code == 302
    assert client.post(f"/t/{table['id']}/seat", data={"seat": text}).status_code == 400
    posted = client.post(f"/t/{table['id']}/events", data={"type": "points", "side:int": "0", "points:int": "1",
                                                            "expected_seq": text}, headers=hx)
    assert posted.status_code == 200  # an unreadable expected_seq is no expectation
    for game, fields in [("mousel", {"type": "deal_result", "tricks:intlist": [text] * 4}),
                         ("mulatschak", {"type": "deal_result", "tricks:intlist": [text] * 4}),
                         ("muggins", {"type": "result", "order": [text, text]})]:
        other = client.post("/api/v1/tables", json={"game": game, "players": ["Anna", "Bo", "Cy", "Di"],
                                                    "mode": "tally"}).json
        assert client.get(f"/t/{other['id']}/k/{other['write_token']}").status_code == 302
        assert client.post(f"/t/{other['id']}/seat", data={"seat": "0"}).status_code == 302
        assert client.post(f"/t/{other['id']}/events", data=fields, headers=hx).status_code == 400, game
        assert client.get(f"/t/{other['id']}/sheet", query_string=fields, headers=hx).status_code == 200, game
        assert client.get(f"/t/{other['id']}/preview", query_string=fields).status_code == 200, game
    assert tables_and_events(sqlite_app)[1] == 2
    no_traceback(caplog)


# --- every field of every form on every game's sheet ----------------------------------------------

HOSTILE_VALUES = ["²", "9" * 5_000, "a\x00b", "[" * 3_000, "-1", "x" * 20_000, "NaN", "{}"]
FIRST_MOVES = {"mulle": {"type": "deal", "dealer": 1, "table": ["5D", "9C", "4H", "AS"]},
               "kasino": {"type": "deal", "dealer": 0, "table": ["5D", "9S", "KH", "AC"]}}


@pytest.mark.parametrize("mode", ["adjudicate", "tally"])
@pytest.mark.parametrize("game", ["scorepad", "mulle", "kasino", "mulatschak", "mousel", "muggins"])
def test_every_sheet_form_field_takes_hostile_values(sqlite_app: Flask, client: FlaskClient, caplog,
                                                     game: str, mode: str) -> None:
    """Each field a sheet's forms submit, replaced in turn by each hostile value, posted and
    previewed: never a 5xx, never a traceback in the log (SECURITY.md counts the tries)."""
    from tests.web.html import Page

    table = client.post("/api/v1/tables", json={"game": game, "players": ["Anna", "Bo", "Cy", "Di"],
                                                "mode": mode}).json
    if mode == "adjudicate" and game in FIRST_MOVES:
        assert client.post(f"/api/v1/tables/{table['id']}/events", json=FIRST_MOVES[game],
                           headers={"Authorization": f"Bearer {table['write_token']}"}).status_code == 201
    assert client.get(f"/t/{table['id']}/k/{table['write_token']}").status_code == 302
    assert client.post(f"/t/{table['id']}/seat", data={"seat": "0"}).status_code == 302
    page = Page(client.get(f"/t/{table['id']}/sheet", headers={"HX-Request": "true"}).get_data(as_text=True))
    caplog.set_level(logging.INFO)
    tried, seen = 0, set()
    for form in page.forms:
        action = form["attrs"].get("action", "")
        controls = [f for f in form["fields"] + form["buttons"] if f.get("name") and f["name"] != "csrf_token"]
        shape = (action, frozenset(f["name"] for f in controls))
        if f"/t/{table['id']}/" not in action or shape in seen:
            continue  # one of each kind: the score pad repeats its form per side
        seen.add(shape)
        base = {f["name"]: f.get("value", "") for f in controls
                if f.get("type") not in ("radio", "checkbox", "submit") and "text" not in f}
        for name in {f["name"] for f in controls}:
            for value in HOSTILE_VALUES:
                data = {**base, name: value}
                if form["attrs"].get("method", "get").lower() == "post":
                    response = client.post(action, data=data, headers={"HX-Request": "true"})
                else:
                    response = client.get(action, query_string=data, headers={"HX-Request": "true"})
                previewed = client.get(f"/t/{table['id']}/preview", query_string=data)
                assert response.status_code < 500 and previewed.status_code < 500, (action, name, value[:12])
                tried += 2
    assert tried >= 2 * len(HOSTILE_VALUES)
    print(f"{game}/{mode}: {tried} hostile form submissions, none answered 5xx")
    no_traceback(caplog)


def test_a_deep_body_is_refused_even_where_no_view_reads_it(sqlite_app: Flask, client: FlaskClient, caplog) -> None:
    """The body is read before the view runs: undo takes no body, yet a deep one is refused and
    nothing is undone, and a validator reading the raw bytes later can only meet a bounded body."""
    table = open_table(client)
    caplog.set_level(logging.INFO)
    response = client.post(f"/api/v1/tables/{table['id']}/undo", data=NESTED_ARRAYS, content_type="application/json",
                           headers={"Authorization": f"Bearer {table['write_token']}"})
    api_error(response, 400, "malformed_json")
    assert tables_and_events(sqlite_app) == (1, 1)
    no_traceback(caplog)


def test_superscript_digits_in_numbers_of_the_review_desk_and_create_form_are_refused_not_500(
        sqlite_app: Flask) -> None:
    """``"²".isdigit()`` is True but ``int("²")`` raises: every typed number goes through
    ``forms.whole_number``."""
    client = sqlite_app.test_client()
    table = client.post("/api/v1/tables", json={"game": "mulle", "players": ["Anna", "Bo"]}).json
    read = {"Authorization": f"Bearer {table['read_token']}"}
    answer = client.get(f"/api/v1/tables/{table['id']}/review?deal=²", headers=read)
    assert answer.status_code == 400 and answer.json["error"]["code"] == "bad_request"
    client.get(f"/t/{table['id']}/k/{table['write_token']}")
    assert client.get(f"/t/{table['id']}/review?deal=²").status_code == 200
    assert client.get("/desk/?game=mousel&players=²").status_code == 200
    assert client.get("/desk/?game=mousel&kind=pot&players=3&t0=²&t1=1&t2=²").status_code < 500
    assert client.get("/desk/?game=mulatschak&kind=sheet&players=3&s0=²&s1=-²").status_code < 500
    sqlite_app.config["WTF_CSRF_ENABLED"] = False
    opened = client.post("/tables", data={"game": "scorepad", "players": ["Anna", "Bo"], "seat": "²"})
    assert opened.status_code == 302


@pytest.mark.parametrize(("lang", "field", "value", "said"), [
    ("sv", "side:int", "x", "fältet 'side': 'x' är inget heltal"),
    ("de", "side:int", "x", "das Feld 'side': 'x' ist keine ganze Zahl"),
    ("de", "sides.99.cards:int", "1", "das Feld 'sides.99.cards': '99' ist kein Listenindex (0–63)"),
    ("sv", "data:json", "{", "fältet 'data': inte giltig JSON"),
    ("de", "seats:intlist", "x", "das Feld 'seats': 'x' ist keine ganze Zahl"),
    ("sv", "a.b.c.d.e.f.g.h.i", "1", "fältet 'a.b.c.d.e.f.g.h.i'… har fler än 8 punktade delar"),
])
def test_a_malformed_form_field_is_refused_in_the_readers_language(sqlite_app: Flask, client: FlaskClient,
                                                                    lang: str, field: str, value: str, said: str) -> None:
    """A form's field the page never sends (a hand-made request, an old page's) is refused 400 in
    the reader's words, as every other refusal is; it was English only."""
    table = open_table(client)
    assert client.get(f"/t/{table['id']}/k/{table['write_token']}").status_code == 302
    posted = client.post(f"/t/{table['id']}/events", data={"type": "points", "points:int": "1", field: value},
                         headers={"HX-Request": "true", "Accept-Language": lang})
    assert posted.status_code == 400
    assert said in posted.get_data(as_text=True).replace("&#39;", "'")
    assert tables_and_events(sqlite_app) == (1, 1)  # open_table's one move, nothing more
