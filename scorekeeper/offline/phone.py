"""The app on the phone: called by the service worker (``templates/sw.js``) under Pyodide.

The whole Flask app runs here — the same views, templates, service and engine as on the server —
on a SQLite database in a file of the phone's memory (Emscripten's file system). The database is
the table's store: after every request that may have changed it, the service worker writes what
changed (``changes()``: the database's pieces SQLite wrote since the stored copy — the worker
watches the file's writes — and the session cookies: the phone's own and each hut guest's,
``offline/guests.py``) to IndexedDB in one transaction
before the page sees the answer, so a crash loses at most the move being written. A move's write
is handed to the worker as soon as it is committed (``handle``'s ``keep``), so IndexedDB stores it
while the sheet is drawn. On
start, ``open_phone`` loads the last snapshot; each table's events are then replayed through the
engine when its page is first read, exactly as a server process does after a restart.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from scorekeeper.phone_pack import CHUNK

PREFIX = "/phone"
_state: dict[str, Any] = {}


def prepare() -> None:
    """Everything of a start that holds no table: the app imported and made, its empty database,
    its templates compiled and the three languages' catalogues and locale data read. The service
    worker takes Pyodide's memory snapshot right after this (``templates/sw.js``), so a later
    start restores it instead of doing it again; nothing of a table is in memory yet."""
    import gc
    import importlib
    import pkgutil

    import sqlalchemy.orm
    from sqlalchemy import event

    from scorekeeper import create_app, metrics, service
    from scorekeeper import phone_marks as marks
    from scorekeeper.engine.fishing import claims, schemes
    from scorekeeper.extensions import db
    from scorekeeper.offline import carry, guests
    from scorekeeper.web import views

    app = create_app({
        "SQLALCHEMY_DATABASE_URI": "sqlite://",
        "SECRET_KEY": "phone",  # the session never leaves this phone's service worker
        "PHONE": True,
        # Every table address holds a random id another site cannot know; and the form a phone
        # table is opened with comes from the server's page, with the server's token.
        "WTF_CSRF_ENABLED": False,
        "RATELIMIT_ENABLED": False,
        "STATIC_MAX_AGE": 0,
        # In memory while the app is made (and the memory snapshot taken); a file from open_phone on.
        "SQLALCHEMY_ENGINE_OPTIONS": {"creator": _connect},
    })
    metrics.set_counting(False)
    _phone_pages(app)
    guests.admit(app)
    with app.app_context():
        event.listen(db.engine.pool, "checkin", _checked_in)
        db.create_all()
        marks.ensure()
        empty = db.engine.raw_connection().driver_connection.serialize()
    sqlalchemy.orm.configure_mappers()
    for view in pkgutil.walk_packages(views.__path__, views.__name__ + "."):  # imported on a game's first page
        importlib.import_module(view.name)
    _translations_once_a_request(app)
    # The phone checks no form's token (WTF_CSRF_ENABLED above) and no server would take one signed
    # with the phone's key: signing a fresh one for every answer was a twentieth of a move's Python.
    app.context_processor(lambda: {"csrf_token": _no_token})  # after Flask-WTF's, so it wins
    for name in app.jinja_env.list_templates():
        if name.endswith(".html"):
            app.jinja_env.get_template(name)
    client = app.test_client()
    for lang in ("en", "sv", "de"):  # pages with no table: the code paths and catalogues warm
        client.get("/", headers={"Accept-Language": lang}, base_url=f"http://phone{PREFIX}/")
        client.get("/rules/mulle", query_string={"lang": lang}, base_url=f"http://phone{PREFIX}/")
    _state["warmed"] = warm(client)
    # Built at a table's first capture of two cards or more otherwise: 35 ms of CPython per
    # scheme, half a second of a move on a 4x slowed phone (bench/README.md).
    claims.build_tables(schemes.SCHEMES)
    with app.app_context():
        db.engine.raw_connection().driver_connection.deserialize(empty)
        db.session.remove()
    service.cache.clear()  # nothing of the warm-up's tables stays
    service.facts_cache.clear()
    carry.schema_mark()  # kept: a start compares the saved copy's mark with it
    gc.collect()
    # Everything made so far (the app, its 120,000 objects) lives as long as the phone's app: out
    # of the cycle collector's sight, which otherwise walked it all now and then — a 70 ms pause
    # under Pyodide in one move in ten, four times that on a slow phone.
    gc.freeze()
    _state.update(app=app, empty=empty)


def _no_token() -> str:
    return ""


# Table cards of a fishing game's first deal in the warm-up: a trail of 5C is legal on them.
_WARM_TABLE = ["5D", "9C", "4H", "AS"]


def warm(client: Any) -> list[tuple[str, int]]:
    """A start's first table page and first move, paid for before the memory snapshot: a table of
    every game opened and read in the three languages, a fishing deal played, previewed, moved and
    undone. A restored start otherwise pays for it (SQLAlchemy compiling its statements, the card
    cells of each language made) on the player's first page: 26 ms of 37 under Pyodide, four
    times that on a slow phone. Returns each request's status (tests check them; a start goes on)."""
    from scorekeeper.engine import RULES

    base = f"http://phone{PREFIX}/"
    hx = {"HX-Request": "true"}
    done: list[tuple[str, int]] = []

    def send(method: str, path: str, **kwargs: Any) -> Any:
        response = client.open(path, method=method, base_url=base, **kwargs)
        done.append((f"{method} {path}", response.status_code))
        return response

    for game, rules in RULES.items():
        players = ["Anna", "Bo", "Cilla"][:max(2, rules.min_players)]
        made = send("POST", "/tables", data={"game": game, "players": players, "where": "phone"})
        table = "/t/" + made.headers.get("Location", "").rsplit("/", 1)[-1]
        for lang in ("en", "sv", "de"):
            send("GET", table, headers={"Accept-Language": lang})
        if game not in ("mulle", "kasino"):
            continue
        send("POST", table + "/seat", data={"seat": "0"})
        send("POST", table + "/events", headers=hx, data={"type": "deal", "dealer:int": "1", "table:list": _WARM_TABLE})
        play = {"type": "play", "player:int": "0", "expected_seq": "1", "card": "5C"}
        send("GET", table + "/preview", headers=hx, query_string=play)
        send("POST", table + "/events", headers=hx, data=play)
        send("POST", table + "/undo", headers=hx, data={"expected_seq": "2"})
    return done


def _translations_once_a_request(app: Any) -> None:
    """The templates' gettext with the request's catalogue looked up once: Flask-Babel finds it
    again for every string (the locale's name built, the cache searched), a sixth of a sheet's
    rendering under Pyodide. The locale is chosen once a request (the app never forces another).

    Called straight from the templates, with Jinja's newstyle meaning (autoescaped, always
    %-formatted with its keywords): the i18n extension's ``_`` resolves ``gettext`` and calls it,
    which calls the function given to it, three of Jinja's checked calls for each of a sheet's
    forty strings."""
    from jinja2 import pass_eval_context
    from markupsafe import Markup

    from scorekeeper.localize import catalogue

    def done(eval_ctx: Any, text: str, variables: dict[str, Any]) -> Any:
        return (Markup(text) if eval_ctx.autoescape else text) % variables

    @pass_eval_context
    def gettext(eval_ctx: Any, string: str, /, **variables: Any) -> Any:
        return done(eval_ctx, catalogue().ugettext(string), variables)

    @pass_eval_context
    def ngettext(eval_ctx: Any, singular: str, plural: str, num: int, /, **variables: Any) -> Any:
        variables.setdefault("num", num)
        return done(eval_ctx, catalogue().ungettext(singular, plural, num), variables)

    @pass_eval_context
    def pgettext(eval_ctx: Any, context: str, string: str, /, **variables: Any) -> Any:
        variables.setdefault("context", context)
        return done(eval_ctx, catalogue().upgettext(context, string), variables)

    @pass_eval_context
    def npgettext(eval_ctx: Any, context: str, singular: str, plural: str, num: int, /, **variables: Any) -> Any:
        variables.setdefault("context", context)
        variables.setdefault("num", num)
        return done(eval_ctx, catalogue().unpgettext(context, singular, plural, num), variables)

    app.jinja_env.globals.update(_=gettext, gettext=gettext, ngettext=ngettext, pgettext=pgettext,
                                 npgettext=npgettext)


def open_phone(database: Any, cookie: Any, host: str, chunked: bool = False, guest_cookies: Any = None) -> None:
    """Start the app on the last snapshot (IndexedDB's Uint8Array and cookie, or nulls).
    ``chunked``: the store holds it in pieces (``CHUNK``), so a change rewrites only the pieces it
    changed; an older build's single record (or none) is written whole at the first change.
    ``guest_cookies``: the hut's guests' session cookies as stored (``guests.saved``), or null."""
    import random

    from scorekeeper import phone_marks as marks
    from scorekeeper.extensions import db
    from scorekeeper.offline import carry, guests

    if hasattr(database, "to_bytes"):
        database = database.to_bytes()
    database = database if isinstance(database, bytes) and database else None
    cookie = cookie if isinstance(cookie, str) else None
    if "app" not in _state:
        prepare()
    random.seed()  # a start from the memory snapshot would otherwise draw what every phone draws
    app = _state["app"]
    _state.setdefault("file", _file())
    with app.app_context():
        marks.forget_all()
        older = None
        marked = bool(database) and _opened_as_marked(database)
        if not marked:
            # No table of an earlier open (tests open again). A copy this build wrote is opened
            # once, on the line above: not the empty database first and then the copy, since each
            # opening writes the file and connects again (open_phone's Python calls 1609 -> 1082).
            _reopen(_state["empty"])
        if database and not marked:
            older = sqlite3.connect(":memory:")
            older.deserialize(database)
            if carry.mark_of(older) == carry.schema_mark():
                _reopen(database)  # written by this schema: opened as it is
                older = None
        connection = _database()
        if database is None or older is not None:  # a copy of this schema has every table already
            db.create_all()
            marks.ensure()
            carry.set_mark(connection)
        if older is not None:
            carry.carry_over(older)  # an older build's copy: carried table by table, none dropped
            older.close()
        opened_as_stored = chunked and database is not None and older is None
        _state["base"] = (_Copy(database), connection.total_changes) if opened_as_stored and database else None
        _state["handed"] = set()
    client = app.test_client()
    if cookie:
        client.set_cookie("session", cookie, domain=host.split(":")[0])
    _state.update(app=app, client=client, host=host, guest_client=app.test_client(),
                  guests=guests.loaded(guest_cookies))


# SQLite's file header: its first 16 bytes, and where it keeps PRAGMA user_version (the schema mark).
_HEADER = b"SQLite format 3\x00"
_USER_VERSION = slice(60, 64)


def _opened_as_marked(database: bytes) -> bool:
    """Open a copy this build's schema wrote straight as the app's database, its mark read from
    the header's bytes. A copy is otherwise opened twice, once only to read its mark: each opening
    copies the whole database (300 kept tables: 14 MB), a tenth of such a start on a slow phone.
    SQLite confirms the mark once it is open; bytes it cannot read go the way of any other copy
    (the caller then opens the empty database over them)."""
    from scorekeeper.offline import carry

    if not database.startswith(_HEADER) or int.from_bytes(database[_USER_VERSION], "big") != carry.schema_mark():
        return False
    return bool(carry.mark_of(_reopen(database)) == carry.schema_mark())


class _OwnPragmas(sqlite3.Connection):
    own_pragmas = True  # scorekeeper._sqlite_pragmas leaves it as _connect set it


def _file() -> str:
    """Where the app's database is kept while it runs: a file, so that what SQLite writes is seen
    (``_written``). Under Pyodide a file in memory (Emscripten's MEMFS); under CPython (the tests)
    one file a process."""
    import os
    import tempfile

    try:
        import js  # noqa: F401  (Pyodide)
    except ImportError:
        folder = tempfile.mkdtemp(prefix="scorekeeper-phone-")
        import atexit
        import shutil

        atexit.register(shutil.rmtree, folder, True)
        return os.path.join(folder, "db.sqlite")
    os.makedirs("/phone", exist_ok=True)
    return "/phone/db.sqlite"


def _connect() -> sqlite3.Connection:
    """The app's one connection (SQLAlchemy's pool holds it): in memory until ``open_phone`` names
    the file. One writer, no other reader: the journal in memory and the file held exclusively, so
    SQLite keeps its page cache between requests and writes each page once, at the commit. The
    store's copy in IndexedDB is what survives a crash, not this file."""
    path = _state.get("file")
    if not path:
        return sqlite3.connect(":memory:", check_same_thread=False)  # the app's own pragmas, as on the server
    connection = sqlite3.connect(path, check_same_thread=False, factory=_OwnPragmas)
    try:
        for pragma in ("locking_mode=EXCLUSIVE", "journal_mode=MEMORY", "synchronous=OFF", "temp_store=MEMORY",
                       "busy_timeout=5000", "foreign_keys=ON"):
            connection.execute("PRAGMA " + pragma)
    except sqlite3.DatabaseError:
        pass  # bytes SQLite cannot read: open_phone finds so (carry.mark_of) and opens an empty copy
    return connection


def _reopen(data: bytes) -> Any:
    """The app's database replaced by ``data``: the connection closed, the file written, opened
    again. Returns the new connection (the caller is in an app context)."""
    from scorekeeper.extensions import db

    db.session.remove()
    db.engine.dispose()
    with open(_state["file"], "wb") as file:
        file.write(data)
    _written()  # this is the copy opened, not a change to it
    _state.pop("changes", None)  # a new connection counts its changes from 0
    return db.engine.raw_connection().driver_connection


def _written() -> set[int] | None:
    """The pieces of the file written since last asked, as the service worker saw Emscripten's
    file system write them (``templates/sw.js``); None where nothing watches (CPython, the tests),
    and the pieces are then found by comparing the whole database with the stored copy."""
    try:
        import js
    except ImportError:
        return None
    drain = getattr(js, "phoneWritten", None)
    if drain is None:
        return None
    found = drain()
    try:
        return {int(number) for number in found}
    finally:
        if hasattr(found, "destroy"):
            found.destroy()


class _Copy:
    """The database as the store holds it: the bytes it was opened with and the pieces written
    over them since, made whole only when needed (``unstored``, or a store with no watch on the
    file): a move's write costs the pieces it wrote, not a copy of the whole database."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pieces: dict[int, bytes] = {}
        self.size = len(data)

    def patch(self, pieces: list[tuple[int, bytes]], size: int) -> _Copy:
        self.pieces.update(pieces)
        self.size = size
        return self

    def whole(self) -> bytes:
        if not self.pieces and self.size == len(self.data):
            return self.data
        out = bytearray(self.data[:self.size])
        for number in sorted(self.pieces):
            at = number * CHUNK
            if at >= self.size:
                continue
            if at > len(out):
                out.extend(bytes(at - len(out)))
            out[at:at + CHUNK] = self.pieces[number][:self.size - at]
        return bytes(out)


def _phone_pages(app: Any) -> None:
    """What only the phone's app shows: tables moved to the server, tables kept from an older copy."""
    from flask import Response, abort, session

    from scorekeeper import phone_marks as marks

    app.jinja_env.globals.update(moved_to=marks.moved_to, kept_tables=marks.kept,
                                 kept_downloaded=lambda: session.get("kept_downloaded") or [])

    def kept_file(table_id: str) -> Response:
        rows = marks.kept_rows(table_id)
        if rows is None:
            abort(404)
        downloaded = session.get("kept_downloaded") or []
        if table_id not in downloaded:  # a changed session is stored: removing it is offered from now on
            session["kept_downloaded"] = [*downloaded, table_id]
        return Response(rows, mimetype="application/json", headers={
            "Content-Disposition": f'attachment; filename="scorekeeper-kept-{table_id}.json"'})

    app.add_url_rule("/kept/<table_id>.json", "phone_kept", kept_file)
    app.add_url_rule("/hut/qr", "phone_hut_qr", _hut_qr)
    app.add_url_rule("/hut/keep", "phone_hut_keep", _hut_keep, methods=["POST"])
    app.add_url_rule("/moved/<table_id>/remove", "phone_remove_moved", _remove_moved, methods=["POST"])
    app.add_url_rule("/kept/<table_id>/remove", "phone_remove_kept", _remove_kept, methods=["POST"])


# A pairing code (static/hut.js) is about 150 characters; anything much longer is not one.
HUT_CODE_MAX = 600


def _hut_qr() -> Any:
    """A hut's pairing code as a QR code, drawn by the phone's own app as the server draws its join
    codes: the code is made in the page (WebRTC), so it cannot be drawn into the page's template."""
    from flask import Response, abort, request

    from scorekeeper.web.links import qr_svg

    code = request.args.get("code", "")
    if not code or len(code) > HUT_CODE_MAX:
        abort(400)
    return Response(qr_svg(code), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")
_ORIGIN = re.compile(r"[A-Za-z0-9_-]{16,64}")


def _hut_keep() -> Any:
    """"Keep this table here": a guest's copy of the log (static/hut.js) becomes a table of this
    phone's own, under the table's id, so the other phones pair with this one and go on where the
    log ends. Replayed through the engine like any import (a tampered copy is refused with its
    rule). A table of that id already here is kept if it has the copy's moves or more (a phone
    that kept it before), else it gives way to the longer copy."""
    from flask import jsonify, request, url_for

    from scorekeeper import phone_marks as marks
    from scorekeeper import service
    from scorekeeper.extensions import db
    from scorekeeper.localize import gettext as _
    from scorekeeper.models import Table
    from scorekeeper.service import TableError
    from scorekeeper.web import access, json_input

    try:
        try:
            data = json_input.loads(request.get_data())
        except ValueError as exc:
            raise TableError(400, "bad_request", _("That is not a copy of a table.")) from exc
        table_id = data.get("table") if isinstance(data, dict) else None
        log = data.get("log") if isinstance(data, dict) else None
        if not isinstance(table_id, str) or not _TABLE_ID.fullmatch(table_id) or not isinstance(log, dict) \
                or not isinstance(log.get("events"), list):
            raise TableError(400, "bad_request", _("That is not a copy of a table."))
        table = db.session.get(Table, table_id)
        if table is not None and table.head_seq < len(log["events"]):
            trial = service.import_table(log)  # replayed before it replaces anything: a refusal keeps this phone's
            service.delete_table(trial)
            service.delete_table(table)
            table = None
        if table is None:
            table = service.import_table(log, table_id=table_id)
    except TableError as exc:  # the page (hut.js) reads it: the JSON API's shape
        return jsonify(error={"code": exc.code, "rule": exc.rule, "message": exc.message}), exc.status
    origin = log.get("origin")
    if isinstance(origin, str) and _ORIGIN.fullmatch(origin):
        marks.set_origin(table.id, origin)
        db.session.commit()
    access.grant(table, "write", owner=True)
    return jsonify(url=url_for("tables.show", table_id=table.id))


def _remove_moved(table_id: str) -> Any:
    """Remove the read-only copy of a table now on the server (the home page asked once)."""
    from flask import redirect, url_for

    from scorekeeper import phone_marks as marks
    from scorekeeper import service
    from scorekeeper.extensions import db
    from scorekeeper.localize import gettext as _
    from scorekeeper.service import TableError
    from scorekeeper.web import access

    if not marks.moved_to(table_id):
        # Not on the server: this is the table's one copy, and only its own page deletes it.
        raise TableError(409, "not_moved", _("This table is kept on this phone only: it is not on the server, so it is not removed from here."))
    try:
        service.delete_table(service.get_table(table_id))
    except TableError:
        pass  # its rows are already gone; the mark and the home page's entry go below
    marks.forget_moved(table_id)
    db.session.commit()
    access.forget(table_id)
    return redirect(url_for("tables.index", removed=1))


def _remove_kept(table_id: str) -> Any:
    """Remove a table kept from an older copy, once this phone downloaded it (nothing lost)."""
    from flask import abort, redirect, request, session, url_for

    from scorekeeper import phone_marks as marks
    from scorekeeper.localize import gettext as _
    from scorekeeper.service import TableError

    downloaded = session.get("kept_downloaded") or []
    if marks.kept_rows(table_id) is None:
        abort(404)
    # The worker saw the file go out, or the page saw the tap on its link (app.js: a download
    # need not pass through the service worker).
    if table_id not in downloaded and request.form.get("downloaded") != "1":
        raise TableError(409, "not_downloaded", _("Download this table first: then it can be removed from the phone."))
    marks.forget_kept(table_id)
    session["kept_downloaded"] = [t for t in downloaded if t != table_id]
    return redirect(url_for("tables.index", removed=1))


def moved_to(table_id: str) -> str | None:
    """Where the table went, if this phone put it on the server already."""
    from scorekeeper import phone_marks as marks

    with _state["app"].app_context():
        return marks.moved_to(table_id)


def held(table_id: str) -> bool:
    """Whether the app holds a state of the table already: a request since the start replayed
    its log (the service worker then need not draw its sheet to have that done before a tap)."""
    from scorekeeper import service

    return service.cache.latest(table_id) is not None


def moved(table_id: str, url: str) -> None:
    """The table is on the server now (its join link): the phone's copy turns read-only."""
    from scorekeeper import phone_marks as marks

    with _state["app"].app_context():
        marks.mark_moved(table_id, url)


def _checked_in(connection: Any, _record: Any) -> None:
    """A connection back in the pool after a write (SQLite's count of changed rows moved): while
    a request is answered, what it changed is handed to ``keep`` at once — the move is committed,
    and IndexedDB can store it while the app draws the sheet (8–14 ms of a move on a 4× slowed
    phone, bench/README.md)."""
    changes = getattr(connection, "total_changes", None)
    if changes is None or changes == _state.get("changes"):
        return
    _state["changes"] = changes
    keep = _state.get("keep")
    if keep is not None:
        pieces, size, (cookie, guest_cookies) = _changes_since_stored(connection)
        keep(_to_js(pieces), size, cookie, guest_cookies)


def changed_chunks(data: bytes, base: bytes | None, also: frozenset[int] = frozenset()) -> list[tuple[int, bytes]]:
    """The pieces of ``data`` that differ from ``base`` (every piece without one), and the pieces
    numbered in ``also``, by number."""
    return [(i // CHUNK, data[i:i + CHUNK]) for i in range(0, len(data), CHUNK)
            if base is None or i // CHUNK in also or data[i:i + CHUNK] != base[i:i + CHUNK]]


def _changes_since_stored(connection: Any) -> tuple[list[tuple[int, bytes]], int, tuple[str, str]]:
    """What the store needs to hold this database and the cookies (``_cookies``): the pieces that differ from the copy
    it was last confirmed to hold (``_state["base"]``, by ``stored()``), the database's size, the
    cookies. Every write until the next confirmation is worked out against that same copy and
    rewrites every piece a write since then was given (``_state["handed"]``: a piece changed by
    one write and changed back by the next is rewritten too), so whichever of them lands last,
    the store holds one whole database — also if one before it failed."""
    import os

    cookie = _cookies()
    base = _state.get("base")
    handed: set[int] = _state.setdefault("handed", set())
    changes = connection.total_changes
    written = _written()
    data: _Copy | list[tuple[int, bytes]]
    if base is not None and changes == base[1] and not handed and not written:
        pieces, data, size = [], [], base[0].size  # nothing written since it was stored: the cookie only
    elif base is not None and written is not None:
        # What SQLite wrote since the stored copy, read back from the file: a few pieces, whatever
        # the number of tables kept (comparing the whole database was most of a move on a phone
        # that keeps 300, bench/README.md).
        handed.update(written)
        size = os.path.getsize(_state["file"])
        with open(_state["file"], "rb") as file:
            pieces = []
            for number in sorted(n for n in handed if n * CHUNK < size):
                file.seek(number * CHUNK)
                pieces.append((number, file.read(CHUNK)))
        data = pieces
    else:
        with open(_state["file"], "rb") as file:
            whole = file.read()
        size = len(whole)
        pieces = changed_chunks(whole, base[0].whole() if base is not None else None, frozenset(handed))
        handed.update(number for number, _ in pieces)
        data = _Copy(whole)
    _state["kept"] = (data, changes, cookie, size)
    return pieces, size, cookie


def stored() -> None:
    """The worker stored the request's last change: later changes are worked out against it."""
    kept = _state.pop("kept", None)
    if kept is not None:
        data, changes, _cookie, size = kept
        _state["base"] = (data if isinstance(data, _Copy) else _state["base"][0].patch(data, size), changes)
        _state["handed"] = set()


def unstored() -> None:
    """A write to the store failed (the phone's storage full, say). The app goes back to the copy
    the store was last confirmed to hold, so what the phone shows is what it keeps: the page says
    the move was not kept and offers to send it again (``data-failed``), and sent again it is the
    same move, not a second one. The pieces handed over since stay marked (``handed``): a write of
    this request may have landed, and the next write puts them back. With no confirmed copy (the
    first write after an older build's record) the app keeps what it has, and the next write is
    the database whole."""
    from scorekeeper import phone_marks as marks
    from scorekeeper import service

    _state.pop("kept", None)
    base = _state.get("base")
    if base is None:
        _state["handed"] = set()
        return
    with _state["app"].app_context():
        connection = _reopen(base[0].whole())
        _state["base"] = (base[0], connection.total_changes)
        marks.forget_all()
    service.cache.clear()  # states replayed from rows that are gone
    service.facts_cache.clear()


def _to_js(pieces: list[tuple[int, bytes]]) -> Any:
    try:
        from pyodide.ffi import to_js  # [number, Uint8Array] pairs, each piece a copy of its own
    except ImportError:  # CPython: the tests
        return pieces
    return to_js(pieces)


def handle(method: str, path: str, query: str, headers: Any, body: Any,
           keep: Any = None, guest: Any = None, table: Any = None) -> tuple[int, list[list[str]], bytes, str]:
    """One request of the page, ``path`` without the ``/phone`` prefix. The last value says what
    the phone's store needs before the page sees the answer: "" nothing, "store" the
    ``changes()``, "kept" nothing more than what was handed to ``keep(pieces, size, cookie,
    guest_cookies)`` during the request (called after each committed write) — the state after the
    request. Once the store holds it, the worker calls ``stored()`` (``unstored()`` if it failed).

    ``guest``, ``table``: a hut guest's request, relayed by the host's page (the worker read the
    guest's id from it), answered with that guest's own session and only at ``table``
    (``offline/guests.py``)."""
    from scorekeeper.offline import guests

    client = _state["client"]
    environ = None
    if isinstance(guest, str) or isinstance(table, str):  # JavaScript's null is not None under Pyodide
        if not guests.valid(guest, table):
            return 400, [["Content-Type", "text/plain"]], b"not a guest of a table", ""
        client = _state["guest_client"]
        domain = _state["host"].split(":")[0]
        client.delete_cookie("session", domain=domain)
        if _state["guests"].get(guest):
            client.set_cookie("session", _state["guests"][guest], domain=domain)
        environ = {guests.TABLE_KEY: table}
    if hasattr(body, "to_bytes"):
        body = body.to_bytes()  # a JavaScript Uint8Array, as the service worker read it
    elif not isinstance(body, bytes):
        body = None  # JavaScript's null
    if not isinstance(headers, dict):
        headers = headers.to_py()
    sent = {k: v for k, v in dict(headers).items() if k.lower() not in {"cookie", "accept-encoding", "host", "x-hut-guest"}}
    cookies_before = _cookies()
    _state.update(keep=keep, kept=None)
    try:
        response = client.open(path, method=method, query_string=query, headers=sent, data=body or b"",
                               base_url=f"http://{_state['host']}{PREFIX}/", environ_base=environ or {})
        data = response.get_data()
    finally:
        _state["keep"] = None
        if environ is not None:
            guests.remember(_state["guests"], guest, _cookie(client))
    kept = _state.get("kept") if keep is not None else None
    store = ""
    if method not in ("GET", "HEAD") or _cookies() != cookies_before:
        # What was handed over last still holds if SQLite has changed no row since and the cookies
        # are the same (a refusal after a write, a new table's cookie: the store is asked again).
        store = "kept" if kept is not None and kept[1:3] == (_database().total_changes, _cookies()) else "store"
    return (response.status_code, [[k, v] for k, v in response.headers.items() if k.lower() != "set-cookie"],
            data, store)


def _cookie(client: Any) -> str:
    cookie = client.get_cookie("session", domain=_state["host"].split(":")[0])
    return cookie.value if cookie else ""


def _cookies() -> tuple[str, str]:
    """What the store keeps of the sessions: the phone's own cookie, and the hut guests' (JSON)."""
    from scorekeeper.offline import guests

    return _cookie(_state["client"]), guests.saved(_state.get("guests") or {})


def _database() -> Any:
    """The app's one SQLite connection (in memory; SQLAlchemy's pool holds it)."""
    from scorekeeper.extensions import db

    with _state["app"].app_context():
        return db.engine.raw_connection().driver_connection


def changes() -> tuple[Any, int, str, str]:
    """What the store needs after a request that ``handle`` said to "store": the database's
    pieces that differ from what the store holds, its size, the phone's cookie and the hut
    guests' cookies."""
    pieces, size, (cookie, guest_cookies) = _changes_since_stored(_database())
    return _to_js(pieces), size, cookie, guest_cookies


def snapshot() -> tuple[bytes, str]:
    """The database's bytes and the session cookie: everything the phone keeps."""
    return bytes(_database().serialize()), _cookie(_state["client"])


def export(table_id: str) -> str:
    """The table as the server's import takes it (``service.export``)."""
    import json

    from scorekeeper import phone_marks as marks
    from scorekeeper import service

    with _state["app"].app_context():
        table = service.get_table(table_id)
        return json.dumps({**service.export(table), "origin": marks.origin_of(table)})
