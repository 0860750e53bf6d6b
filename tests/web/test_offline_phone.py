"""The server's side of a table kept on the phone: the form's choice when the phone is not ready,
what the service worker is told to store, and the pure stand-ins the phone's build uses."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import orjson

from scorekeeper import phone_pack
from scorekeeper.models import Table
from scorekeeper.offline import build


def test_a_phone_table_that_reaches_the_server_is_refused_and_nothing_is_created(client, app, monkeypatch) -> None:
    monkeypatch.setattr(phone_pack, "version", lambda out=phone_pack.OUT: "abc123")
    page = client.get("/")
    assert 'name="where" value="phone"' in page.text and 'id="no-phone"' not in page.text
    answer = client.post("/tables", data={"game": "mulle", "players": ["Anna", "Bo"], "where": "phone"})
    assert answer.status_code == 400
    assert "not yet stored" in answer.text
    with app.app_context():
        assert Table.query.count() == 0


def test_a_server_without_the_phones_files_does_not_offer_a_phone_table(client, monkeypatch) -> None:
    """An installed wheel or `make serve` without `make offline`: no choice that would end in a 400."""
    monkeypatch.setattr(phone_pack, "version", lambda out=phone_pack.OUT: None)
    for lang in ("en", "sv", "de"):
        page = client.get("/", headers={"Accept-Language": lang}).text
        assert 'value="phone"' not in page and 'id="no-phone"' in page


def test_the_service_worker_lists_the_phone_files_only_when_they_are_built(client, monkeypatch) -> None:
    monkeypatch.setattr(phone_pack, "version", lambda out=phone_pack.OUT: "abc123")
    body = client.get("/sw.js").text
    assert '"/offline/pyodide.asm.wasm"' in body and "scorekeeper-phone-abc123" in body
    assert "wasm-unsafe-eval" in client.get("/sw.js").headers["Content-Security-Policy"]
    monkeypatch.setattr(phone_pack, "version", lambda out=phone_pack.OUT: None)
    body = client.get("/sw.js").text
    assert "const PHONE_FILES = [];" in body and "import {" not in body


def _stand_in(name: str):  # type: ignore[no-untyped-def]
    path = Path(build.PACKAGE) / "offline" / "site" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"phone_{name}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_phones_orjson_writes_what_orjson_writes_with_the_apps_options() -> None:
    phone = _stand_in("orjson")
    value = {"b": [1, 2.5, None, True], "a": {"ü": "Kör", 3: "x"}, "seq": 12}
    for flags in ("OPT_SORT_KEYS", "OPT_NON_STR_KEYS"):
        assert getattr(phone, flags) is not None
    options = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS
    mine = phone.OPT_SORT_KEYS | phone.OPT_NON_STR_KEYS
    assert phone.dumps(value, option=mine) == orjson.dumps(value, option=options)


def test_the_phones_build_leaves_out_compiled_code_and_keeps_what_the_app_imports() -> None:
    files = build.site_files()
    assert "flask/__init__.py" in files and "sqlalchemy/__init__.py" in files and "orjson.py" in files
    assert not [name for name in files if name.endswith((".so", ".pyd"))]
    assert not [name for name in files if name.startswith(("pydantic", "gunicorn", "psycopg"))]
    # The server's gevent and what it brings, and what the phone never imports.
    assert not [name for name in files if name.startswith(("gevent/", "zope/", "cffi/", "pycparser/",
                                                           "sqlalchemy/dialects/mysql/", "sqlalchemy/ext/asyncio/",
                                                           "werkzeug/debug/", "babel/messages/"))]
    assert "sqlalchemy/dialects/sqlite/pysqlite.py" in files
    # Only a server compresses, migrates, limits and is scraped: create_app with PHONE set binds none
    # of these (test_the_phones_app_imports_no_server_package), so the pack leaves them out.
    assert not [name for name in files if name.startswith((
        "sqlalchemy/dialects/postgresql/", "sqlalchemy/ext/", "flask_compress/", "flask_migrate/", "alembic/",
        "mako/", "limits/", "deprecated/", "wrapt/", "packaging/", "prometheus_client/", "brotli"))]
    assert [name for name in files if name.startswith("babel/locale-data/")] == [
        f"babel/locale-data/{code}.dat" for code in ("de", "en", "root", "sv")]


SERVER_ONLY = ("flask_compress", "flask_migrate", "alembic", "mako", "pygments", "limits", "deprecated", "wrapt",
               "packaging", "prometheus_client", "brotli", "gunicorn", "gevent", "psycopg", "pydantic")


def test_the_phones_app_imports_no_server_package() -> None:
    """What the phone's app imports is in its memory snapshot, read back at every start: made and
    warmed (every game's pages) as on the phone, it has imported nothing only a server uses."""
    code = ("import sys; from scorekeeper.offline import phone; phone.prepare(); "
            "print(sorted({m.split('.')[0] for m in sys.modules} & set(sys.argv[1].split(','))))")
    out = subprocess.run([sys.executable, "-c", code, ",".join(SERVER_ONLY)], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == "[]", out.stdout


def test_the_phones_snapshot_holds_every_schemes_capture_tables() -> None:
    """The capture check's tables (built at a scheme's first claim of two cards or more: 35 ms of
    CPython, half a second of a move on a slowed phone) are made before the memory snapshot, for
    every scheme a table's options can choose."""
    code = ("from scorekeeper.offline import phone; phone.prepare(); "
            "from scorekeeper.engine.fishing import claims, schemes; "
            "print(sorted(s.name for s in schemes.SCHEMES if s not in claims._claim_by_value))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == "[]", out.stdout


def test_the_no_connection_page_leads_to_the_tables_kept_on_this_phone(client, monkeypatch) -> None:
    """At the cottage a reload of a server page falls back to /offline: the tables this phone keeps
    by itself are one tap away there — when this server gave the phone what it needs for them."""
    monkeypatch.setattr(phone_pack, "version", lambda out=phone_pack.OUT: "abc123")
    for lang, words in (("en", "Tables kept on this phone"), ("sv", "Bord som finns på den här telefonen"),
                        ("de", "Tische auf diesem Handy")):
        page = client.get("/offline", headers={"Accept-Language": lang}).text
        assert 'id="phone-tables"' in page and 'href="/phone/"' in page and words in page
    monkeypatch.setattr(phone_pack, "version", lambda out=phone_pack.OUT: None)
    assert 'href="/phone/"' not in client.get("/offline").text


def test_a_phone_tables_link_opened_elsewhere_says_the_table_is_on_one_phone(client) -> None:
    """A phone table's address sent to a friend reaches the server, which has no such table: it
    says where the table is and how to share it, in the reader's language."""
    words = {"en": "only that phone can open it", "sv": "bara den telefonen kan öppna det",
             "de": "nur dieses Handy kann ihn öffnen"}
    for lang, said in words.items():
        page = client.get("/phone/t/AbCdEf1234", headers={"Accept-Language": lang})
        assert page.status_code == 404
        assert 'data-why="kept-on-a-phone"' in page.text and said in page.text
    for elsewhere in ("/t/AbCdEf1234", "/phone/", "/phone/rules/mulle"):  # not a phone table's address
        other = client.get(elsewhere)
        assert other.status_code == 404 and "data-why" not in other.text, elsewhere


WRAPPER = ("var convertJsFunctionToWasm=(func,sig)=>{var bytes=Uint8Array.of(0,97,...pack(sig.slice(1)),0);"
           "var module=new WebAssembly.Module(bytes);var instance=new WebAssembly.Instance(module,{e:{f:func}});"
           "return instance.exports.f};")


def test_pyodides_loader_links_only_the_exports_a_module_asked_for(tmp_path) -> None:
    """The build's changes to Pyodide (build._PATCHES, build._WRAPPER): applied once, left alone
    when done, and an unknown loader stops the build instead of shipping it unpatched."""
    import pytest

    loader = tmp_path / "pyodide.asm.mjs"
    unpatched = ("var a=1;" + build._GOT + "var value=exports[symName];}}" + WRAPPER + build._LOOKUP
                 + "var addFunction=(func,sig)=>{" + build._SET + "wrap(func)}" + build._ADDED)
    loader.write_text(unpatched, encoding="utf-8")
    assert build.patch_pyodide(tmp_path)
    patched = loader.read_text(encoding="utf-8")
    for original, change, _ in build._PATCHES:
        assert patched.count(change) == 1 and original not in patched.replace(change, "")
    # The wrapper's module compiled once per signature, its bytes as Pyodide builds them.
    assert ("var module=wrapperModules[sig];if(!module){var bytes=Uint8Array.of(0,97,...pack(sig.slice(1)),0);"
            "module=wrapperModules[sig]=new WebAssembly.Module(bytes)}var instance=") in patched
    assert patched.count("new WebAssembly.Module(") == 1
    assert not build.patch_pyodide(tmp_path)
    assert loader.read_text(encoding="utf-8") == patched
    for original, _, name in build._PATCHES:  # each of them missing stops the build
        loader.write_text(unpatched.replace(original, "var other=1;"), encoding="utf-8")
        with pytest.raises(SystemExit, match=name):
            build.patch_pyodide(tmp_path)
    loader.write_text(unpatched.replace(WRAPPER, "var convertJsFunctionToWasm=(func,sig)=>{return func};"), encoding="utf-8")
    with pytest.raises(SystemExit, match="convertJsFunctionToWasm"):
        build.patch_pyodide(tmp_path)


def test_the_built_pyodide_is_the_patched_one() -> None:
    import pytest

    loader = build.OUT / "pyodide.asm.mjs"
    if not loader.exists():
        pytest.skip("make offline has not run")
    classic = (build.OUT / build.CLASSIC["pyodide.asm.mjs"]).read_text(encoding="utf-8")  # what the worker imports
    for text in (loader.read_text(encoding="utf-8"), classic):
        assert all(text.count(patched) == 1 for _, patched, _ in build._PATCHES)
        assert text.count("var wrapperModules={};") == 1


def test_pyodides_classic_copies_hand_over_what_the_modules_export(tmp_path) -> None:
    """The worker imports classic copies of Pyodide's two modules (build.classic_scripts): each
    hands over what the module exported, the loader's names stay inside its own function, the
    module's address comes from the worker; a Pyodide that exports otherwise stops the build."""
    import pytest

    (tmp_path / "pyodide.mjs").write_text(
        'var o=1;async function dt(e){return o}export{dt as loadPyodide,U as version};\n'
        "//# sourceMappingURL=pyodide.mjs.map\n", encoding="utf-8")
    (tmp_path / "pyodide.asm.mjs").write_text(
        "async function _createPyodideModule(m={}){var s=import.meta.url;return new URL('x',import.meta.url)}"
        "export default _createPyodideModule;", encoding="utf-8")
    build.classic_scripts(tmp_path)
    loader = (tmp_path / "pyodide.classic.js").read_text(encoding="utf-8")
    module = (tmp_path / "pyodide.asm.classic.js").read_text(encoding="utf-8")
    assert loader.startswith("(()=>{var o=1;") and "self.loadPyodide=dt;" in loader and loader.endswith("})();\n")
    assert "export" not in loader and "sourceMappingURL" not in loader
    assert "self.createPyodideModule=_createPyodideModule;" in module and "export" not in module
    assert "import.meta" not in module and module.count(build.MODULE_URL) == 2
    (tmp_path / "pyodide.mjs").write_text("export{dt as loadPyodide};", encoding="utf-8")
    with pytest.raises(SystemExit, match="classic_scripts"):
        build.classic_scripts(tmp_path)


def test_the_built_classic_copies_are_classic_scripts() -> None:
    """What the worker imports parses as a classic script (no import, export or import.meta:
    importScripts would fail the worker's install, and with it the phone's app)."""
    import shutil

    import pytest

    built = [build.OUT / name for name in build.CLASSIC.values()]
    if not all(path.exists() for path in built) or not shutil.which("node"):
        pytest.skip("make offline has not run")
    for path in built:
        checked = subprocess.run(["node", "--check", str(path)], capture_output=True, text=True)
        assert checked.returncode == 0, (path.name, checked.stderr[-500:])
    assert set(build.CLASSIC.values()) == set(phone_pack.WORKER_SCRIPTS)


def test_the_service_worker_is_a_classic_script_that_imports_pyodide(client, monkeypatch) -> None:
    monkeypatch.setattr(phone_pack, "version", lambda out=phone_pack.OUT: "abc123")
    worker = client.get("/sw.js").text
    assert 'importScripts(...["/offline/pyodide.classic.js", "/offline/pyodide.asm.classic.js"]);' in worker
    assert not [line for line in worker.splitlines() if line.startswith(("import ", "export "))]
    stored = worker.split("const PHONE_FILES = ", 1)[1].split(";", 1)[0]
    assert "pyodide.asm.wasm" in stored and "classic.js" not in stored  # kept with the worker, not stored twice
    monkeypatch.setattr(phone_pack, "version", lambda out=phone_pack.OUT: None)
    assert "importScripts" not in client.get("/sw.js").text
