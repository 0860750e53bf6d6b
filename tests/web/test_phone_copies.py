"""The phone's app (scorekeeper/offline/phone.py) run here under CPython, as the service worker runs
it under Pyodide: a copy saved by an older build is carried over table by table — or kept, never
dropped — and a table put on the server turns the phone's copy read-only with a link to it."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest

from scorekeeper import metrics
from scorekeeper.offline import carry, phone
from scorekeeper.offline.phone import changed_chunks
from scorekeeper.service import cache, facts_cache

HOST = "localhost:5000"
DEAL = {"type": "deal", "dealer:int": "1", "table:list": ["5D", "9C", "4H", "AS"]}


@pytest.fixture
def on_phone() -> Iterator[Any]:
    """Open the phone's app on a snapshot (the engine's caches are cleared around it)."""

    def start(database: bytes | None = None, cookie: str | None = None) -> Any:
        cache.clear()
        facts_cache.clear()
        phone.open_phone(database, cookie, HOST)
        return phone

    yield start
    cache.clear()
    facts_cache.clear()
    metrics.set_counting(True)  # the phone's app switched it off for the whole process


@pytest.fixture
def fresh_phone(on_phone: Any) -> None:
    """The phone's app started with nothing kept."""
    on_phone()


def ask(method: str, path: str, form: dict[str, Any] | None = None) -> tuple[int, dict[str, str], str]:
    body = None
    headers = {"Accept-Language": "en"}
    if form is not None:
        from urllib.parse import urlencode

        body = urlencode(form, doseq=True).encode()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    status, pairs, data, _changed = phone.handle(method, path, "", headers, body)
    return status, dict(pairs), data.decode()


def new_table(game: str = "mulle", players: tuple[str, ...] = ("Anna", "Bo")) -> str:
    status, headers, _ = ask("POST", "/tables", {"game": game, "players": list(players), "where": "phone"})
    assert status == 302, status
    return str(re.search(r"/t/([^/?]+)$", headers["Location"])[1])  # type: ignore[index]


def a_phone_with_two_tables(on_phone: Any) -> tuple[bytes, str, str, str]:
    on_phone()
    mulle, kasino = new_table(), new_table("kasino")
    assert ask("POST", f"/t/{mulle}/events", DEAL)[0] in (200, 302)
    database, cookie = phone.snapshot()
    return database, cookie, mulle, kasino


def older(database: bytes, *statements: str) -> bytes:
    """The same database as an older build wrote it: no schema mark, and ``statements`` applied."""
    old = sqlite3.connect(":memory:")
    old.deserialize(database)
    for statement in statements:
        old.execute(statement)
    old.commit()
    old.execute("PRAGMA user_version = 0")
    return old.serialize()


def test_a_copy_from_a_build_with_fewer_columns_is_carried_over_and_plays_on(on_phone: Any) -> None:
    database, cookie, mulle, kasino = a_phone_with_two_tables(on_phone)
    # An earlier schema: neither the rules version of a table nor the holder of a seat was kept.
    old = older(database, "ALTER TABLE tables DROP COLUMN rules_version", "ALTER TABLE seats DROP COLUMN holder")
    on_phone(old, cookie)
    status, _, page = ask("GET", f"/t/{mulle}")
    assert status == 200 and "You are Anna" in page and 'data-seq="1"' in page
    assert 'id="kept-tables"' not in ask("GET", "/")[2]
    status, _, _ = ask("POST", f"/t/{mulle}/events", {"type": "play", "player:int": "0", "card": "5C"})
    assert ask("GET", f"/t/{mulle}")[2].count('data-seq="2"') == 1
    assert ask("GET", f"/t/{kasino}")[0] == 200
    # Saved again, the copy carries this build's mark and opens as it is.
    marked, cookie = phone.snapshot()
    check = sqlite3.connect(":memory:")
    check.deserialize(marked)
    assert carry.mark_of(check) == carry.schema_mark() != 0


def test_a_table_this_build_cannot_open_is_kept_and_shown_not_dropped(on_phone: Any) -> None:
    database, cookie, mulle, kasino = a_phone_with_two_tables(on_phone)
    # A game an older build played and this one does not.
    old = older(database, f"UPDATE tables SET game = 'tresette' WHERE id = '{kasino}'")
    on_phone(old, cookie)
    assert ask("GET", f"/t/{mulle}")[0] == 200
    assert ask("GET", f"/t/{kasino}")[0] == 404
    home = ask("GET", "/")[2]
    assert 'id="kept-tables"' in home and f'data-kept="{kasino}"' in home and "Anna, Bo" in home
    status, headers, kept = ask("GET", f"/kept/{kasino}.json")
    assert status == 200 and '"tresette"' in kept and "attachment" in headers["Content-Disposition"]
    # Kept through the next start too (the kept rows are part of the copy).
    again, cookie = phone.snapshot()
    on_phone(older(again), cookie)
    assert f'data-kept="{kasino}"' in ask("GET", "/")[2]


def test_a_table_put_on_the_server_turns_read_only_and_links_there(on_phone: Any) -> None:
    on_phone()
    mulle = new_table()
    before = ask("GET", f"/t/{mulle}")[2]
    assert 'id="to-server"' in before and 'class="card deal"' in before
    phone.moved(mulle, "http://192.0.2.10:5000/t/abc/k/secret")
    page = ask("GET", f"/t/{mulle}")[2]
    assert 'id="moved-to"' in page and 'href="http://192.0.2.10:5000/t/abc/k/secret"' in page
    assert 'id="to-server"' not in page and 'class="card deal"' not in page
    assert ask("POST", f"/t/{mulle}/events", DEAL)[0] == 403
    home = ask("GET", "/")[2]
    assert f'data-moved="{mulle}"' in home and "moved to the server" in home
    # The mark is in the copy the phone stores.
    database, cookie = phone.snapshot()
    on_phone(database, cookie)
    assert 'id="moved-to"' in ask("GET", f"/t/{mulle}")[2]


def test_a_copy_sqlite_cannot_read_is_kept_whole_and_the_phone_starts(on_phone: Any) -> None:
    import base64
    import json

    garbage = b"not a database, perhaps half written by a crashed build " * 80
    on_phone(garbage, None)
    home = ask("GET", "/")[2]
    found = re.search(r'data-kept="(copy-[0-9a-f]{8})"', home)
    assert found and "DatabaseError" in home
    status, _, kept = ask("GET", f"/kept/{found[1]}.json")
    assert status == 200 and base64.b64decode(json.loads(kept)["database_base64"]) == garbage
    new_table()                                      # and the phone keeps tables again


def remove_form(home: str, hook: str, table_id: str) -> str:
    """The action of the remove form inside ``<details hook="table_id">`` (asked once: summary, then button)."""
    found = re.search(rf'<details [^>]*{hook}="{re.escape(table_id)}"[^>]*>.*?<form method="post" action="([^"]+)"',
                      home, re.S)
    assert found, f"no {hook} for {table_id}"
    return str(found[1]).removeprefix("/phone")


def test_a_moved_copy_is_removed_from_the_phone_once_asked_and_stays_removed(on_phone: Any) -> None:
    on_phone()
    mulle, kept_here = new_table(), new_table("kasino")
    phone.moved(mulle, "http://192.0.2.10:5000/t/abc/k/secret")
    home = ask("GET", "/")[2]
    action = remove_form(home, "data-remove-moved", mulle)
    assert "Remove it from this phone" in home
    # A table kept here only is the one copy there is: the phone's home offers no removal of it,
    # and a forged request changes nothing.
    assert f'data-remove-moved="{kept_here}"' not in home
    assert ask("POST", action.replace(mulle, kept_here), {})[0] == 409
    assert ask("GET", f"/t/{kept_here}")[0] == 200
    status, headers, _ = ask("POST", action, {})
    assert status == 302 and headers["Location"].endswith("/?removed=1")
    home = phone.handle("GET", "/", "removed=1", {"Accept-Language": "en"}, None)[2].decode()
    assert f'data-moved="{mulle}"' not in home and 'id="table-removed"' in home and kept_here in home
    assert ask("GET", f"/t/{mulle}")[0] == 404
    database, cookie = phone.snapshot()
    on_phone(database, cookie)
    assert ask("GET", f"/t/{mulle}")[0] == 404 and ask("GET", f"/t/{kept_here}")[0] == 200


def test_a_kept_table_says_why_in_plain_words_and_is_removed_only_after_its_download(on_phone: Any) -> None:
    database, cookie, mulle, kasino = a_phone_with_two_tables(on_phone)
    old = older(database, f"UPDATE tables SET game = 'tresette' WHERE id = '{kasino}'")
    on_phone(old, cookie)
    home = ask("GET", "/")[2]
    kept = re.search(rf'<li data-kept="{kasino}">(.*?)</li>', home, re.S)
    assert kept, home
    plain, detail = kept[1].split("<details", 1)
    assert "does not know this game" in plain and "KeyError" not in plain
    assert plain.lower().count("tresette") == 1                  # named once, by the line, not again by its reason
    assert "KeyError" in detail
    action = remove_form(home, "data-remove-kept", kasino)
    assert re.search(rf'<details [^>]*data-remove-kept="{kasino}"[^>]*hidden', home)  # not before the download
    assert ask("POST", action, {})[0] == 409
    assert f'data-kept="{kasino}"' in ask("GET", "/")[2]
    assert ask("GET", f"/kept/{kasino}.json")[0] == 200
    home = ask("GET", "/")[2]
    assert not re.search(rf'<details [^>]*data-remove-kept="{kasino}"[^>]*hidden', home)
    status, headers, _ = ask("POST", action, {})
    assert status == 302 and headers["Location"].endswith("/?removed=1")
    assert f'data-kept="{kasino}"' not in ask("GET", "/")[2] and ask("GET", f"/kept/{kasino}.json")[0] == 404
    assert ask("GET", f"/t/{mulle}")[0] == 200


@pytest.mark.parametrize(("lang", "words"), [("sv", "spelet"), ("de", "Spiel")])
def test_a_kept_tables_reason_reads_in_the_phones_language(on_phone: Any, lang: str, words: str) -> None:
    database, cookie, _mulle, kasino = a_phone_with_two_tables(on_phone)
    on_phone(older(database, f"UPDATE tables SET game = 'tresette' WHERE id = '{kasino}'"), cookie)
    phone.handle("GET", f"/lang/{lang}", "", {}, None)
    kept = re.search(rf'<li data-kept="{kasino}">(.*?)<details', ask("GET", "/")[2], re.S)
    assert kept and words in kept[1] and kept[1].lower().count("tresette") == 1


def test_a_column_this_build_cannot_fill_and_a_damaged_copy_read_in_plain_words(on_phone: Any) -> None:
    from scorekeeper import phone_marks as marks

    on_phone()
    from flask import current_app  # noqa: F401

    with phone._state["app"].test_request_context(headers={"Accept-Language": "en"}):
        assert "column" in marks.plain_reason("mulle", "IntegrityError: NOT NULL constraint failed: seats.holder")
        assert "damaged" in marks.plain_reason("?", "DatabaseError: file is not a database")
        assert marks.plain_reason("tresette", "KeyError: 'tresette'") == "this version does not know this game"
        assert marks.plain_reason("mulle", "IllegalMove: MULLE-CAP-4") != ""


def test_a_phone_tables_delete_question_and_notice_speak_of_the_phone_not_a_server(on_phone: Any) -> None:
    """A table kept here only is on no server and has no other phones: the question says what
    deleting it does here, and the home page afterwards says it is gone from this phone."""
    on_phone()
    mulle = new_table()
    page = ask("GET", f"/t/{mulle}")[2]
    question = re.search(r'<details id="delete-table".*?</details>', page, re.S)
    assert question and "this phone" in question[0]
    assert "server" not in question[0] and "other phones" not in question[0] and "everyone" not in question[0]
    status, headers, _ = ask("POST", f"/t/{mulle}/delete", {})
    assert status == 302
    home = phone.handle("GET", "/", "deleted=1", {"Accept-Language": "en"}, None)[2].decode()
    notice = re.search(r'<p id="table-deleted"[^>]*>(.*?)</p>', home, re.S)
    assert notice and "this phone" in notice[1] and "server" not in notice[1]
    assert ask("GET", f"/t/{mulle}")[0] == 404


def test_a_moved_tables_own_page_offers_its_removal_too(on_phone: Any) -> None:
    on_phone()
    mulle = new_table()
    phone.moved(mulle, "http://192.0.2.10:5000/t/abc/k/secret")
    page = ask("GET", f"/t/{mulle}")[2]
    action = remove_form(page, "data-remove-moved", mulle)
    assert ask("POST", action, {})[0] == 302 and ask("GET", f"/t/{mulle}")[0] == 404


def test_the_phones_home_lists_its_tables_before_the_create_form_and_speaks_of_the_phone(on_phone: Any) -> None:
    """At the cottage the phone's home is where a table is found again: first, not under the form;
    and its lead says what a table kept here is, not that the others scan a QR code."""
    on_phone()
    mulle = new_table()
    home = ask("GET", "/")[2]
    assert home.index(f"/t/{mulle}") < home.index('name="players"')
    lead = re.search(r'<p class="lead">(.*?)</p>', home, re.S)
    assert lead and "QR" not in lead[1] and "signal" in lead[1]


# What tells the table to do something now: each game's line of whose turn it is and what to do
# ("Choose the dealer, deal 5 cards …, then tap the table cards", "Cleo bids", "Anna to play").
PROMPT = re.compile(r'<p class="(ml-status|ks-status|ms-turn|mu-turn|mg-turn|turn)"')
CONTROL = re.compile(r'<(form|input|select|textarea)\b[^>]*>|<button\b(?![^>]*type="button")[^>]*>')


def _controls(page: str) -> list[str]:
    """Every form and control a move could be entered with: all but the question that removes the copy."""
    main = page[page.index("<main"):page.index("</main>")]
    main = re.sub(r'<details [^>]*data-remove-moved=.*?</details>', "", main, flags=re.S)
    return [found[0] for found in CONTROL.finditer(main) if 'type="hidden"' not in found[0]]


@pytest.mark.parametrize("label", ["mulle-2", "mulle-tally", "kasino-3", "mousel-3", "mousel-tally",
                                   "mulatschak-4", "muggins-4", "scorepad-3"])
@pytest.mark.parametrize("moves", [0, 6])
def test_a_moved_copy_asks_for_no_move_and_offers_no_control_to_enter_one(on_phone: Any, label: str,
                                                                          moves: int) -> None:
    """Read-only once on the server: the copy shows the table as it stands, and neither the deal's
    prompt nor any control for a move (they would be refused: 403) — only its way to the server."""
    from scorekeeper import service
    from tests.scenes import scenes

    scene = next(s for s in scenes() if s.label == label)
    on_phone()
    status, headers, _ = ask("POST", "/tables", {"game": scene.game, "players": ["Anna", "Bo", "Cleo", "Dora"][:scene.players],
                                                 "where": "phone", "mode": scene.mode})
    table_id = headers["Location"].rsplit("/", 1)[1]
    with phone._state["app"].app_context():
        for event in scene.events[:min(moves, len(scene.events) - 1)]:  # a game under way, not over
            service.record(table_id, event)
    before = ask("GET", f"/t/{table_id}")[2]
    assert _controls(before), "the table kept here offers its controls"
    if scene.game != "scorepad":  # the pad asks nothing: its sides' fields are its prompt
        assert PROMPT.search(before), "the table kept here says what to do now"
    phone.moved(table_id, "http://192.0.2.10:5000/t/abc/k/secret")
    page = ask("GET", f"/t/{table_id}")[2]
    assert 'id="moved"' in page
    assert not PROMPT.search(page), PROMPT.search(page)[0]  # type: ignore[index]
    assert _controls(page) == []


def _repeated(line: str) -> list[str]:
    """Pairs of words said twice in one line, each word cut to five letters so that an inflected
    repeat counts too (Swedish "sparad kopia" … "sparade kopian")."""
    words = [w[:5] for w in re.findall(r"\w+", line.lower())]
    pairs = [" ".join(words[i:i + 2]) for i in range(len(words) - 1)]
    return sorted({pair for pair in pairs if pairs.count(pair) > 1})


@pytest.mark.parametrize("lang", ["en", "sv", "de"])
def test_each_kept_tables_line_says_its_reason_once(on_phone: Any, lang: str) -> None:
    """The damaged copy's line read "A saved copy · Not opened: the saved copy is damaged: this
    version cannot read it." — the copy named twice, and not opening it said twice."""
    import html

    def kept_lines() -> dict[str, str]:
        phone.handle("GET", f"/lang/{lang}", "", {}, None)
        home = ask("GET", "/")[2]
        return {found[1]: re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", found[2]))).strip()
                for found in re.finditer(r'<li data-kept="([^"]+)">(.*?)<a href', home, re.S)}

    on_phone(b"not a database, perhaps half written by a crashed build " * 80, None)
    lines = kept_lines()
    assert [key for key in lines if key.startswith("copy-")], lines
    database, cookie, _mulle, kasino = a_phone_with_two_tables(on_phone)
    on_phone(older(database, f"UPDATE tables SET game = 'tresette' WHERE id = '{kasino}'"), cookie)
    lines.update(kept_lines())
    assert kasino in lines, lines
    for line in lines.values():
        assert not _repeated(line), f"{line!r} repeats {_repeated(line)}"


def test_the_warm_up_before_the_memory_snapshot_opens_every_game_and_keeps_no_table(on_phone: Any) -> None:
    """phone.prepare() plays a little of every game before the snapshot is taken, so a restored
    start does not pay for its first page and move; every request of it must have worked, and none
    of its tables may be on the phone afterwards."""
    from scorekeeper.engine import RULES

    on_phone()
    warmed = phone._state["warmed"]
    assert [status for _, status in warmed if status >= 400] == [], warmed
    assert sum(path == "POST /tables" for path, _ in warmed) == len(RULES)
    for step in ("POST /t/{}/events", "GET /t/{}/preview", "POST /t/{}/undo"):
        assert any(re.fullmatch(step.format("[^/]+"), path) for path, _ in warmed), step
    tables = {m[1] for path, _ in warmed if (m := re.match(r"GET /t/([^/]+)$", path))}
    assert len(tables) == len(RULES)
    home = ask("GET", "/")[2]
    for table_id in tables:
        assert ask("GET", f"/t/{table_id}")[0] == 404 and f"/t/{table_id}" not in home


def test_the_apps_objects_are_kept_out_of_the_cycle_collectors_walks(on_phone: Any) -> None:
    """phone.prepare() freezes what it made (gc.freeze): under Pyodide a collection that walked
    the app's objects paused a move for 70 ms, four times that on a slow phone."""
    import gc

    on_phone()
    assert gc.get_freeze_count() > 10_000


def test_a_table_this_phone_does_not_keep_says_so(on_phone: Any) -> None:
    on_phone()
    status, _, page = ask("GET", "/t/AbCdEf1234")
    assert status == 404
    assert 'data-why="not-on-this-phone"' in page and "opens only on the phone that opened it" in page
    status, _, page = ask("GET", "/rules/no-such-game")  # not a table: the plain 404
    assert status == 404 and "data-why" not in page


TRANSLATED = ("{{ _('Invite players') }}|{{ _('%(name)s to play', name=who) }}|"
              "{{ ngettext('%(num)s seat free', '%(num)s seats free', n) }}|{{ _('%(n)s%%', n=5) }}|"
              "{% trans %}Rule book{% endtrans %}|{% trans name=who %}{{ name }} to play{% endtrans %}|"
              "{{ _('%(name)s to play', name=marked) }}")


@pytest.mark.parametrize("lang", ["en", "sv", "de"])
def test_the_phones_templates_translate_and_escape_as_the_servers_do(on_phone: Any, sqlite_app: Any, lang: str) -> None:
    """The phone calls its catalogue straight from the templates (one call a string, not Jinja's
    three): the same words, a name escaped once, %-formatting and plurals as Jinja's i18n does."""
    from flask import render_template_string
    from markupsafe import Markup

    on_phone()
    said = {}
    for name, app in (("phone", phone._state["app"]), ("server", sqlite_app)):
        with app.test_request_context("/", headers={"Accept-Language": lang}):
            said[name] = [render_template_string(TRANSLATED, who="<b>Bo & Co</b>", marked=Markup("<i>Bo</i>"), n=n)
                          for n in (1, 2)]
    assert said["phone"] == said["server"]
    one, two = said["phone"]
    assert "&lt;b&gt;Bo &amp; Co&lt;/b&gt;" in one and "<b>" not in one and "5%" in one and one != two
    assert "<i>Bo</i>" in one                                  # markup given as a name stays markup
    assert phone._state["app"].jinja_env.globals["_"] is phone._state["app"].jinja_env.globals["gettext"]


def test_the_phones_forms_carry_no_signed_token(on_phone: Any) -> None:
    """The phone checks no form's token and no server would take one signed with the phone's key:
    its forms carry an empty one instead of one signed afresh for every answer."""
    on_phone()
    table = new_table()
    status, _, page = ask("GET", f"/t/{table}")
    assert status == 200 and page.count('name="csrf_token" value=""') >= 2
    assert not re.search(r'name="csrf_token" value="[^"]', page)
    assert ask("POST", f"/t/{table}/events", DEAL)[0] in (200, 302)   # and a move is taken without one


def test_a_requests_answer_on_where_a_table_moved_follows_its_marks(on_phone: Any) -> None:
    """moved_to's answer is kept: marking and forgetting change the kept answer too."""
    from scorekeeper import phone_marks as marks

    on_phone()
    table = new_table()
    app = phone._state["app"]
    with app.test_request_context("/"):
        assert marks.moved_to(table) is None
        marks.mark_moved(table, "https://example.org/t/x")
        assert marks.moved_to(table) == "https://example.org/t/x"
        marks.forget_moved(table)
        assert marks.moved_to(table) is None


def test_where_a_table_moved_is_read_once_for_the_apps_life_and_again_on_a_database_opened_anew(on_phone: Any) -> None:
    """Every move asks whether its table moved to the server: the answer is kept across requests
    (only this app writes it), and forgotten when the phone opens a database anew."""
    from sqlalchemy import event

    from scorekeeper import phone_marks as marks
    from scorekeeper.extensions import db

    on_phone()
    table = new_table()
    app = phone._state["app"]
    asked: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if "phone_moved" in statement:
            asked.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        for _ in range(3):
            assert ask("GET", f"/t/{table}")[0] == 200
        assert len(asked) <= 1
        database, cookie = phone.snapshot()
        with app.app_context():
            marks.mark_moved(table, "https://example.org/t/x")
        assert "https://example.org/t/x" in ask("GET", f"/t/{table}")[2]
        on_phone(database, cookie)                  # the copy from before the mark: not moved
        asked.clear()
        status, _, page = ask("GET", f"/t/{table}")
        assert status == 200 and "https://example.org/t/x" not in page and len(asked) == 1
    finally:
        event.remove(engine, "before_cursor_execute", note)


class Store:
    """The worker's IndexedDB as templates/sw.js writes it: the database's pieces by number, its
    size and the cookie, each write all or nothing; ``lose`` drops that many of the next writes."""

    def __init__(self) -> None:
        self.pieces: dict[int, bytes] = {}
        self.size = 0
        self.cookie = ""
        self.writes: list[int] = []  # how many pieces each write held
        self.lose = 0

    def put(self, pieces: list[tuple[int, bytes]], size: int, cookie: str, guest_cookies: str = "") -> None:
        if self.lose:
            self.lose -= 1
            return
        self.pieces.update(pieces)
        self.pieces = {n: b for n, b in self.pieces.items() if n * phone.CHUNK < size}
        self.size, self.cookie = size, cookie
        self.writes.append(len(pieces))

    def database(self) -> bytes:
        data = b"".join(self.pieces[n] for n in sorted(self.pieces))
        assert len(data) == self.size and sorted(self.pieces) == list(range(len(self.pieces)))
        return data

    def read(self, sql: str) -> Any:
        copy = sqlite3.connect(":memory:")
        copy.deserialize(self.database())
        return copy.execute(sql).fetchone()[0]

    def send(self, method: str, path: str, form: dict[str, Any] | None = None, keep: bool = True) -> tuple[int, str]:
        """One request as the worker makes it: the answer's "store" written, then confirmed."""
        from urllib.parse import urlencode

        body = urlencode(form, doseq=True).encode() if form is not None else None
        headers = {"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"}
        status, _, _, store = phone.handle(method, path, "", headers, body, self.put if keep else None)
        if store == "store":
            self.put(*phone.changes())
        if store:
            phone.stored()
        return status, store


def watch_the_file(monkeypatch: Any) -> None:
    """What the service worker does under Pyodide (templates/sw.js, trackWrites): it sees the file
    system write the database's file and tells ``phone._written`` which pieces. Here the pieces
    are found by comparing the file with itself as last asked; comparing the whole database with
    the stored copy (``changed_chunks``) is then never needed."""
    seen = {"data": b""}

    def written() -> set[int]:
        with open(phone._state["file"], "rb") as file:
            data = file.read()
        before, seen["data"] = seen["data"], data
        return {n for n in range(-(-max(len(data), len(before)) // phone.CHUNK))
                if data[n * phone.CHUNK:(n + 1) * phone.CHUNK] != before[n * phone.CHUNK:(n + 1) * phone.CHUNK]}

    def not_needed(*_: Any) -> Any:
        raise AssertionError("the whole database compared although the writes were watched")

    monkeypatch.setattr(phone, "_written", written)
    monkeypatch.setattr(phone, "changed_chunks", not_needed)


WATCHED = pytest.mark.parametrize("watched", [False, True], ids=["compared", "watched"])


@WATCHED
def test_a_write_is_handed_to_the_store_when_committed_and_the_answer_says_whether_that_holds(
        on_phone: Any, monkeypatch: Any, watched: bool) -> None:
    """The worker's ``keep`` gets what a move changed as soon as it is written, so IndexedDB stores
    it while the sheet is drawn; the answer then needs no second write unless something changed after."""
    if watched:
        watch_the_file(monkeypatch)
    on_phone()
    if watched:  # no copy stored yet: the first write is the database whole, read from the file
        monkeypatch.setattr(phone, "changed_chunks", changed_chunks)
    store = Store()
    assert store.send("POST", "/tables", {"game": "mulle", "players": ["Anna", "Bo"], "where": "phone"})[1] == "store"
    assert set(store.writes) == {len(store.pieces)}  # nothing stored before: the database whole, each time
    table = store.read("SELECT id FROM tables")
    assert store.send("POST", f"/t/{table}/seat", {"seat": "0"}) == (302, "store") and store.writes[-1] == 0  # the cookie only
    assert store.cookie == phone.snapshot()[1]
    assert store.send("POST", f"/t/{table}/events", DEAL) == (200, "kept") and store.read("SELECT count(*) FROM events") == 1
    writes = len(store.writes)
    assert store.send("GET", f"/t/{table}") == (200, "") and len(store.writes) == writes
    play = {"type": "play", "player:int": "0", "expected_seq": "1", "card": "5C"}
    assert store.send("POST", f"/t/{table}/events", play) == (200, "kept") and store.read("SELECT count(*) FROM events") == 2
    refused = {"type": "play", "player:int": "1", "expected_seq": "2", "card": "KH", "capture:list": "4H"}
    writes = len(store.writes)
    assert store.send("POST", f"/t/{table}/events", refused) == (422, "store") and store.writes[writes:] == [0]  # nothing written
    assert store.send("POST", f"/t/{table}/undo", {"expected_seq": "2"}) == (200, "kept")
    assert (store.database(), store.cookie) == phone.snapshot()  # byte for byte what the phone holds
    again = {**play, "expected_seq": "3"}
    assert store.send("POST", f"/t/{table}/events", again, keep=False) == (200, "store")  # no keep: stored after the answer
    assert store.read("SELECT count(*) FROM events") == 4 and (store.database(), store.cookie) == phone.snapshot()
    # A new table is written, then the phone's cookie changes (it may write there): what was kept
    # is not the last state, so the answer asks for the store again.
    made = {"game": "kasino", "players": ["Anna", "Bo"], "where": "phone"}
    assert store.send("POST", "/tables", made) == (302, "store")
    assert (store.database(), store.cookie) == phone.snapshot()


def keep_golden_games() -> None:
    """The phone keeps the golden games twice over (tests/golden/logs: 34 finished tables, 1.5 MB)."""
    import json
    from pathlib import Path

    from scorekeeper import service
    from scorekeeper.extensions import db

    with phone._state["app"].app_context():
        for path in sorted((Path(__file__).resolve().parents[1] / "golden" / "logs").glob("*.json")) * 2:
            service.import_table(json.loads(path.read_text()))
        db.session.commit()


@WATCHED
def test_a_move_rewrites_a_few_pieces_of_a_phone_that_keeps_many_tables(on_phone: Any, monkeypatch: Any,
                                                                         watched: bool) -> None:
    """A phone after a summer of evenings: a move stores what it changed, not every table again."""
    on_phone()
    keep_golden_games()
    store = Store()
    store.send("POST", "/tables", {"game": "mulle", "players": ["Anna", "Bo"], "where": "phone"})
    if watched:  # from the first confirmed copy on, the writes are watched
        watch_the_file(monkeypatch)
        phone._written()
    whole, made = store.writes[-1], len(store.writes)
    table = store.read("SELECT id FROM tables ORDER BY created_at DESC, rowid DESC")
    assert store.send("POST", f"/t/{table}/events", DEAL) == (200, "kept")
    assert store.send("POST", f"/t/{table}/events", {"type": "play", "player:int": "0", "expected_seq": "1",
                                                      "card": "5C"}) == (200, "kept")
    # A handful of pages: the event, its index entry, the table's row and its index entries, the header.
    assert whole > 60 and len(store.writes) == made + 2 and max(store.writes[made:]) <= 10, (whole, store.writes)
    assert (store.database(), store.cookie) == phone.snapshot()


@WATCHED
def test_whichever_write_lands_the_store_holds_a_whole_database(on_phone: Any, monkeypatch: Any, watched: bool) -> None:
    """Each write is worked out against the copy last confirmed stored, and rewrites every piece a
    write since then was given: a failed write is not built upon, and a piece one write changed and
    the next changed back is not left as the first wrote it."""
    from urllib.parse import urlencode

    on_phone()
    store = Store()
    store.send("POST", "/tables", {"game": "mulle", "players": ["Anna", "Bo"], "where": "phone"})
    if watched:
        watch_the_file(monkeypatch)
        phone._written()
    table = store.read("SELECT id FROM tables")
    store.send("POST", f"/t/{table}/seat", {"seat": "0"})
    store.lose = 1  # the deal's write fails; the answer says so, and nothing is confirmed
    assert phone.handle("POST", f"/t/{table}/events", "", {"Content-Type": "application/x-www-form-urlencoded"},
                        urlencode(DEAL, doseq=True).encode(), store.put)[3] == "kept"
    phone.unstored()
    # The move being written is lost, nothing else — on the phone's page too: it shows what it keeps,
    # so "not kept, send it again" (data-failed) holds, and sent again it is one deal, not two.
    assert store.read("SELECT count(*) FROM events") == 0
    assert (store.database(), store.cookie) == phone.snapshot()
    assert 'data-seq="0"' in ask("GET", f"/t/{table}")[2]
    assert store.send("POST", f"/t/{table}/events", DEAL) == (200, "kept")
    play = {"type": "play", "player:int": "0", "expected_seq": "1", "card": "5C"}
    assert store.send("POST", f"/t/{table}/events", play) == (200, "kept")
    assert store.read("SELECT count(*) FROM events") == 2
    assert (store.database(), store.cookie) == phone.snapshot()
    # A write that landed before one that failed: the app goes back to the confirmed copy, and the
    # next write puts back the pieces the landed one changed.
    undo = {"expected_seq": "2"}

    def land_then_fail(pieces: list[tuple[int, bytes]], size: int, cookie: str, guest_cookies: str) -> None:
        store.put(pieces, size, cookie, guest_cookies)
        store.lose = 1

    phone.handle("POST", f"/t/{table}/undo", "", {"Content-Type": "application/x-www-form-urlencoded"},
                 urlencode(undo).encode(), land_then_fail)
    assert store.read("SELECT count(*) FROM events") == 3  # the undo landed; say its answer's write then failed
    store.lose = 0
    phone.unstored()
    assert phone.snapshot()[0] != store.database()  # the phone went back; the store is ahead of it
    assert store.send("POST", f"/t/{table}/seat", {"seat": "1"})[1] == "store"
    assert (store.database(), store.cookie) == phone.snapshot()
    assert store.read("SELECT count(*) FROM events") == 2
    # Two writes before a confirmation: the first changes a seat's name in a piece of its own,
    # the second changes it back. The second must rewrite that piece too: the first may land.
    from sqlalchemy import text

    from scorekeeper.extensions import db

    keep_golden_games()
    store.send("POST", f"/t/{table}/seat", {"seat": "1"})  # all of that stored and confirmed
    seat = store.read("SELECT max(id) FROM seats")
    name = store.read(f"SELECT name FROM seats WHERE id = {seat}")
    given: list[set[int]] = []

    def keep(pieces: list[tuple[int, bytes]], size: int, cookie: str, guest_cookies: str) -> None:
        given.append({n for n, _ in pieces})
        store.put(pieces, size, cookie, guest_cookies)

    phone._state["keep"] = keep  # as handle() sets it for its request
    try:
        with phone._state["app"].app_context():
            for written in (name.swapcase(), name):  # as long: SQLite writes it over itself
                db.session.execute(text("UPDATE seats SET name = :name WHERE id = :id"), {"name": written, "id": seat})
                db.session.commit()
    finally:
        phone._state["keep"] = None
    assert len(given) == 2 and given[0] - {0} and given[1] >= given[0], given
    assert (store.database(), store.cookie) == phone.snapshot()
    assert changed_chunks(b"ab" * phone.CHUNK, b"ab" * phone.CHUNK, frozenset({1})) == [(1, b"ab" * (phone.CHUNK // 2))]


def test_a_copy_this_build_wrote_is_opened_once_not_copied_again_to_read_its_mark(on_phone: Any, monkeypatch: Any) -> None:
    database, cookie, mulle, _ = a_phone_with_two_tables(on_phone)
    opened: list[Any] = []
    connect = sqlite3.connect
    monkeypatch.setattr(phone.sqlite3, "connect", lambda *a, **k: opened.append(a) or connect(*a, **k))
    on_phone(database, cookie)
    assert (":memory:",) not in opened  # no second copy made only to read the mark
    # and opened once: not the empty database first and then the copy over it
    assert [args[0] for args in opened].count(phone._state["file"]) == 1, opened
    assert ask("POST", f"/t/{mulle}/events", {"type": "play", "player:int": "0", "card": "5C"})[0] in (200, 302)
    assert ask("GET", f"/t/{mulle}")[2].count('data-seq="2"') == 1


def test_a_copy_whose_header_bears_this_builds_mark_but_sqlite_cannot_read_is_kept_whole(on_phone: Any) -> None:
    import base64
    import json

    header = bytearray(b"SQLite format 3\x00" + b"\xff" * 84)  # a page size SQLite refuses
    header[60:64] = carry.schema_mark().to_bytes(4, "big")
    damaged = bytes(header) + b"half written " * 400
    on_phone(damaged, None)
    home = ask("GET", "/")[2]
    found = re.search(r'data-kept="(copy-[0-9a-f]{8})"', home)
    assert found and "DatabaseError" in home
    assert base64.b64decode(json.loads(ask("GET", f"/kept/{found[1]}.json")[2])["database_base64"]) == damaged
    new_table()


def test_the_app_says_whether_a_table_was_replayed_since_its_start(on_phone: Any) -> None:
    """The service worker draws a table's sheet once the app has started (its log replayed before
    a tap) unless a request did that already: ``held`` says which, for that table alone."""
    database, cookie, mulle, kasino = a_phone_with_two_tables(on_phone)
    on_phone(database, cookie)  # a start: nothing replayed yet
    assert not phone.held(mulle) and not phone.held(kasino)
    assert ask("GET", f"/t/{mulle}/qr/join.svg")[0] == 200  # a request of the table that replays nothing
    assert not phone.held(mulle)
    assert ask("GET", f"/t/{mulle}/sheet")[0] == 200
    assert phone.held(mulle) and not phone.held(kasino)
    assert not phone.held("no-such-table")
