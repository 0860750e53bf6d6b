"""Build what a phone needs to keep a table with no server: ``python -m scorekeeper.offline.build``.

Pyodide itself comes from the npm registry (``make pyodide``, pinned by its sha256). This module
zips the app's Python for it: the ``scorekeeper`` package, templates, the hashed-asset manifest,
and the installed pure-Python packages the app imports, taken from this checkout's ``.venv``
(so the versions are those of ``requirements.lock``). Compiled extensions are left out: MarkupSafe
and SQLAlchemy fall back to their pure-Python code; orjson is replaced at its import seam by
``scorekeeper/offline/site``; pydantic is not imported on the phone. Every file lands in the
zip with a fixed timestamp, so the same checkout builds the same bytes.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import re
import sys
import zipfile
from importlib import metadata
from pathlib import Path

from scorekeeper.paths import PACKAGE, STATIC, TEMPLATES

# Where the pack lands, its files and version: the server's pages read them too (phone_pack).
from scorekeeper.phone_pack import OFFLINE_FILES as OFFLINE_FILES
from scorekeeper.phone_pack import OUT
from scorekeeper.phone_pack import version as version

ROOT = PACKAGE.parent
SOURCES = ROOT / "build" / "phone-sources"  # the zips of source, compiled into OUT's packs (precompile.mjs)
# Compiled, or not needed on the phone: the app imports them only for what the phone never does
# (serving under gunicorn and gevent, PostgreSQL, the OpenAPI schema, compressed answers,
# migrations, rate limits, metrics: create_app leaves those out with PHONE set) or a stand-in in
# site/ takes their place. gevent with zope and cffi was 5 MB of the pack that nothing on the
# phone imports.
LEFT_OUT = {"scorekeeper", "gunicorn", "orjson", "brotli", "brotlicffi", "pydantic", "pydantic-core",
            "annotated-types", "typing-inspection", "psycopg", "psycopg-binary", "greenlet",
            "backports-zstd", "importlib-metadata", "tomli", "inspect2",
            "gevent", "zope-event", "zope-interface", "cffi", "pycparser",
            "flask-compress", "flask-migrate", "alembic", "mako", "limits", "deprecated", "wrapt",
            "packaging", "prometheus-client"}
STAMP = (2020, 1, 1, 0, 0, 0)
# Only what the phone's pages read: babel's data for our three languages, no time-zone database
# (the app keeps times in UTC), no SQL dialect but SQLite's and no SQLAlchemy extension (the
# phone's database is SQLite, reached through the ORM alone), no test suites, catalogue tools,
# debugger or C sources: none is read on the phone.
_SKIP = re.compile(r"(__pycache__|\.pyc$|\.so$|\.pyd$|\.pyi$|py\.typed$|\.dist-info/(?!METADATA$)"
                   r"|^babel/locale-data/(?!(root|en|sv|de)\.dat$)"
                   r"|^pytz/zoneinfo/(?!(UTC|Etc/UTC)$)|^sqlalchemy/testing/"
                   r"|^qrcode/tests/|^wtforms/locale/|^werkzeug/debug/"
                   r"|^sqlalchemy/dialects/(?!(__init__|_typing)\.py$|sqlite/)|^sqlalchemy/ext/"
                   r"|^babel/messages/|\.[ch]$)")
# Pyodide's standard library, less what a WSGI app in a service worker never imports: the
# test and documentation tools, mail and RPC clients, processes, and the codecs of legacy code
# pages (the app reads and writes UTF-8; Latin-1, ASCII and IDNA stay for HTTP and URLs, and
# cp437 for zipfile, which reads names with it: without it the build's own compile step failed).
_STDLIB_SKIP = re.compile(
    r"^(unittest|idlelib|tkinter|turtledemo|lib2to3|ensurepip|venv|xmlrpc|__phello__|multiprocessing"
    r"|pydoc_data)/|^(doctest|pydoc|turtle|imaplib|ftplib|smtplib|poplib|nntplib|mailbox|tabnanny|this"
    r"|antigravity)\.py$|^encodings/(cp(?!437\.)\d+|mac_\w+|iso8859_(?!1\.)\d+|koi8_\w+|kz1048|ptcp154|tis_620|hp_roman8"
    r"|palmos|big5\w*|euc_\w+|gb\w+|hz|iso2022_\w+|johab|shift_jis\w*|mbcs|oem)\.py$")


def _dependencies(name: str) -> list[metadata.Distribution]:
    """``name`` and what it needs at run time (no extras, no packages for other platforms)."""
    found: dict[str, metadata.Distribution] = {}
    todo = [name]
    while todo:
        key = re.sub(r"[-_.]+", "-", todo.pop()).lower()
        if key in found or key in LEFT_OUT and key != name:
            continue
        try:
            dist = metadata.distribution(key)
        except metadata.PackageNotFoundError:
            continue  # a dependency only for older Pythons
        found[key] = dist
        for requirement in dist.requires or []:
            if "extra ==" in requirement:
                continue
            todo.append(re.split(r"[ ;<>=!~\[(]", requirement, maxsplit=1)[0])
    return [dist for key, dist in sorted(found.items()) if key != name]


def _add(archive: zipfile.ZipFile, name: str, data: bytes) -> None:
    info = zipfile.ZipInfo(name, STAMP)
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, data, compresslevel=9)


def site_files() -> dict[str, Path]:
    files: dict[str, Path] = {}
    for dist in _dependencies("scorekeeper"):
        for entry in dist.files or []:
            rel = entry.as_posix()
            if rel.startswith("..") or _SKIP.search(rel):
                continue
            path = Path(str(dist.locate_file(entry)))
            if path.is_file():
                files[rel] = path
    for path in (PACKAGE / "offline" / "site").glob("*.py"):
        files[path.name] = path
    return files


def app_files() -> dict[str, Path]:
    files: dict[str, Path] = {}
    for path in sorted(PACKAGE.rglob("*")):
        rel = path.relative_to(ROOT).as_posix()
        if path.is_dir() or "__pycache__" in rel or "/migrations/" in rel or "/offline/site/" in rel:
            continue
        if path.suffix in {".py", ".mo", ".md"}:
            files[rel] = path
    for path in sorted(TEMPLATES.rglob("*")):
        if path.is_file():
            files[path.relative_to(ROOT).as_posix()] = path
    manifest = STATIC / "dist" / "manifest.json"
    if manifest.exists():  # the hashed names the pages link to (`make assets`)
        files["static/dist/manifest.json"] = manifest
    return files


def write_zip(target: Path, files: dict[str, Path]) -> int:
    target.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(target, "w") as archive:
        for rel in sorted(files):
            _add(archive, rel, files[rel].read_bytes())
    return target.stat().st_size


def write_version(out: Path = OUT) -> str:
    """One hash of everything the phone downloads: the service worker's cache is named by it, so
    a new build replaces the phone's copy and an unchanged one is never fetched again."""
    digest = hashlib.sha256()
    for path in sorted(out.iterdir()):
        if path.is_file() and path.suffix not in (".gz", ".br") and path.name != "version.json":
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    version = digest.hexdigest()[:16]
    (out / "version.json").write_text(json.dumps({"version": version}))
    return version


# Pyodide's loader links its module as a main module that side modules (compiled packages) may
# load against: before any runs, every exported function (thousands of CPython's) gets a slot of
# the function table and an entry of the global offset table. The phone loads no side module
# (pure-Python packages only), and an export no module imported through the table would be found
# when asked for all the same (``reportUndefinedSymbols`` resolves by name). Skipping those took a
# third off the module's setup at every start (Node: 110 -> 70 ms, four times that on a slow
# phone). The first start (the memory snapshot) and every restore run the same file, so the table
# is laid out alike in both.
_GOT = "var updateGOT=(exports,replace)=>{for(var symName in exports){if(isInternalSym(symName)){continue}"
_GOT_ONLY_ASKED = ("var updateGOT=(exports,replace)=>{for(var symName in exports){"
                   "if(isInternalSym(symName)||!replace&&!(symName in GOT)){continue}")


# Emscripten gives each JavaScript function the module's table must hold (the offset table's
# entries for functions of Pyodide's own JavaScript: 262 at every start) a wasm wrapper of its own:
# a module of 40 bytes compiled, then instantiated with the function. The module depends only on
# the function's signature (52 of them), so it is compiled once per signature and only the
# instance made per function (Chromium, unthrottled: the compiles were 9–27 ms of the 38–97 ms of
# the module's setup). The table's slots are taken in the same order as before.
_WRAPPER = re.compile(r"var convertJsFunctionToWasm=\(func,sig\)=>\{var bytes=(Uint8Array\.of\([^;]*\));"
                      r"var module=new WebAssembly\.Module\(bytes\);")
_WRAPPER_ONCE = ("var wrapperModules={};var convertJsFunctionToWasm=(func,sig)=>{var module=wrapperModules[sig];"
                 "if(!module){var bytes={bytes};module=wrapperModules[sig]=new WebAssembly.Module(bytes)}")


# Before it adds a function to the table, Emscripten looks for it there: at its first look it maps
# every slot of the table (8,700, a JavaScript wrapper made for each). A function of JavaScript's
# own source (every one a start adds) can be in the table only if it was added, so it is looked for
# among the added ones and the table is mapped only when something else is looked for (a function
# of wasm, a bound one or a built-in: its source reads "[native code]", whatever its toString).
_LOOKUP = ("var getFunctionAddress=func=>{if(!functionsInTableMap){functionsInTableMap=new WeakMap;"
           "updateTableMap(0,wasmTable.length)}return functionsInTableMap.get(func)||0};")
_NATIVE = 'Function.prototype.toString.call(func).endsWith("[native code] }")'  # wasm, bound or built-in
_LOOKUP_ADDED = ("var addedFunctions=new WeakMap;var getFunctionAddress=func=>{var added=addedFunctions.get(func);"
                 f"if(added||!{_NATIVE}){{return added||0}}"
                 "if(!functionsInTableMap){functionsInTableMap=new WeakMap;"
                 "updateTableMap(0,wasmTable.length)}return functionsInTableMap.get(func)||0};")
_ADDED = "functionsInTableMap.set(func,ret);return ret};"
_ADDED_KEPT = "addedFunctions.set(func,ret);if(functionsInTableMap)functionsInTableMap.set(func,ret);return ret};"
# And such a function is wrapped at once: put in the table as it is, it throws (a TypeError, with
# its stack taken) before it is wrapped, 262 times a start.
_SET = "var ret=getEmptyTableSlot();try{setWasmTableEntry(ret,func)}catch(err){"
_SET_WRAPPED = (f"var ret=getEmptyTableSlot();if(!{_NATIVE}){{"
                "setWasmTableEntry(ret,convertJsFunctionToWasm(func,sig))}else try{setWasmTableEntry(ret,func)}catch(err){")
_PATCHES = ((_GOT, _GOT_ONLY_ASKED, "updateGOT"), (_LOOKUP, _LOOKUP_ADDED, "getFunctionAddress"),
            (_ADDED, _ADDED_KEPT, "addFunction"), (_SET, _SET_WRAPPED, "addFunction's table entry"))


def patch_pyodide(out: Path = OUT) -> bool:
    """Link only the exports a module asked for (``_GOT``), compile a function wrapper's module
    once per signature (``_WRAPPER``), look for a JavaScript function among the ones added
    (``_LOOKUP``, ``_ADDED``) and wrap it at once (``_SET``). True if the file was changed; an
    unknown loader (another Pyodide) stops the build rather than being left slow or half-patched."""
    loader = out / "pyodide.asm.mjs"
    text = loader.read_text(encoding="utf-8")
    before = text
    for original, patched, name in _PATCHES:
        if text.count(patched) == 1:
            continue
        if text.count(original) != 1:
            raise SystemExit(f"{loader}: Pyodide's {name} is not the one this build patches; "
                             "check scorekeeper/offline/build.py (_PATCHES) against the new Pyodide")
        text = text.replace(original, patched)
    if "var wrapperModules={};" not in text:
        wrappers = _WRAPPER.findall(text)
        if len(wrappers) != 1:
            raise SystemExit(f"{loader}: Pyodide's convertJsFunctionToWasm is not the one this build patches; "
                             "check scorekeeper/offline/build.py (_WRAPPER) against the new Pyodide")
        text = _WRAPPER.sub(lambda found: _WRAPPER_ONCE.replace("{bytes}", found[1]), text)
    if text == before:
        return False
    loader.write_text(text, encoding="utf-8")
    return True


# Pyodide ships its loader and its Emscripten module as ES modules, and a service worker that
# imports modules gets no V8 code cache for them: each start of the phone's app compiled the
# module's 1.25 MB of JavaScript again, function by function as the start called them. Chromium
# keeps a whole code cache (every function) of the scripts a classic service worker imports with
# importScripts once it is installed, and reads it back at each start instead. So the worker is
# a classic script (templates/sw.js) and imports these classic copies: the loader inside a
# function of its own (its short names stay out of the worker's globals) that hands over
# loadPyodide, the module handing over its factory, and the module's own address (which
# Emscripten reads from import.meta, which a classic script has not) set by the worker first.
CLASSIC = {"pyodide.mjs": "pyodide.classic.js", "pyodide.asm.mjs": "pyodide.asm.classic.js"}
_LOADER_EXPORT = re.compile(r"export\{(\w+) as loadPyodide,\w+ as version\};")
_MODULE_EXPORT = "export default _createPyodideModule;"
MODULE_URL = "self.pyodideModuleURL"


def classic_scripts(out: Path = OUT) -> None:
    """Write ``CLASSIC``'s copies; another Pyodide (other exports) stops the build, as ``_GOT`` does."""
    loader = (out / "pyodide.mjs").read_text(encoding="utf-8")
    module = (out / "pyodide.asm.mjs").read_text(encoding="utf-8")
    if len(_LOADER_EXPORT.findall(loader)) != 1 or "import.meta" in loader or module.count(_MODULE_EXPORT) != 1:
        raise SystemExit(f"{out}: Pyodide's loader or module does not export what the build makes classic "
                         "copies of; check scorekeeper/offline/build.py (classic_scripts) against the new Pyodide")
    loader = _LOADER_EXPORT.sub(r"self.loadPyodide=\1;", loader)
    loader = re.sub(r"^//# sourceMappingURL=.*$", "", loader, flags=re.M)  # the map is not shipped
    (out / CLASSIC["pyodide.mjs"]).write_text("(()=>{" + loader + "\n})();\n", encoding="utf-8")
    module = module.replace(_MODULE_EXPORT, "self.createPyodideModule=_createPyodideModule;")
    (out / CLASSIC["pyodide.asm.mjs"]).write_text(module.replace("import.meta.url", MODULE_URL), encoding="utf-8")


def prune_stdlib(out: Path = OUT) -> tuple[int, int]:
    """Pyodide's ``python_stdlib.zip`` rewritten without ``_STDLIB_SKIP`` and stored, not deflated:
    the server compresses the whole file (brotli finds what repeats across modules, which
    per-file deflate cannot: 2.5 MB deflated, 1.3 MB as brotli sends it). Its (size before, after)."""
    path = out / "python_stdlib.zip"
    before = path.stat().st_size
    buffer = io.BytesIO()
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as pruned:
        for info in source.infolist():
            if not _STDLIB_SKIP.search(info.filename):
                pruned.writestr(info, source.read(info), compress_type=zipfile.ZIP_STORED)
    path.write_bytes(buffer.getvalue())
    return before, path.stat().st_size


def _squeeze(path: Path, suffix: str) -> None:
    import brotli

    data = path.read_bytes()
    # A 16 MB window (lgwin 24, the most a browser's decoder takes) finds repeats further apart
    # than the default 4 MB, and is quicker on the site pack: 8.66 MB in all against 8.72.
    packed = brotli.compress(data, quality=11, lgwin=24) if suffix == ".br" else gzip.compress(data, 9, mtime=0)
    target = path.with_name(path.name + suffix)
    if len(packed) < len(data):
        # Whole or not at all: a server starting meanwhile (WhiteNoise lists the files once) or a
        # wheel's copy of the pack must never find half a file. Written beside the pack's
        # directory, not in it, so nothing copies a part.
        part = path.parent.with_name(path.parent.name + "-parts") / target.name
        part.parent.mkdir(exist_ok=True)
        part.write_bytes(packed)
        os.replace(part, target)
    else:
        target.unlink(missing_ok=True)


def _stale(out: Path, files: tuple[str, ...]) -> list[tuple[Path, str]]:
    """Each (file, suffix) whose compressed copy is missing or older than the file."""
    return [(out / name, suffix) for name in files for suffix in (".br", ".gz")
            if not (out / (name + suffix)).exists()
            or (out / (name + suffix)).stat().st_mtime < (out / name).stat().st_mtime]


def drop_stale(out: Path = OUT, files: tuple[str, ...] = OFFLINE_FILES) -> None:
    """The compressed copies of changed files removed, before any server lists the pack: `make
    test` does not compress, and WhiteNoise would send a changed file's old copy (and once sent a
    copy replaced since with the old length: the phone's download failed). Copies that appear
    later are not sent by a server already running, which sends the file itself."""
    for path, suffix in _stale(out, files):
        path.with_name(path.name + suffix).unlink(missing_ok=True)


def compress(out: Path = OUT, files: tuple[str, ...] = OFFLINE_FILES) -> None:
    """A ``.br`` and a ``.gz`` beside each file the phone downloads, which WhiteNoise sends by the
    phone's Accept-Encoding.
    WhiteNoise's own command skips ``.zip`` (python_stdlib.zip is stored, so it compresses well),
    and brotli's best takes a minute and a half of CPU on the packs: a file is compressed again only
    when changed, and the files on every core at once, the largest first (a clean build: 100 s → 50 s)."""
    from concurrent.futures import ProcessPoolExecutor

    stale = _stale(out, files)
    stale.sort(key=lambda job: (-job[0].stat().st_size, job[1]))
    with ProcessPoolExecutor(max_workers=max(1, min(len(stale), os.cpu_count() or 1))) as pool:
        for done in [pool.submit(_squeeze, path, suffix) for path, suffix in stale]:
            done.result()


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "all"
    if what == "pyodide":
        patch_pyodide()
        classic_scripts()
        print("python_stdlib.zip {:.0f} -> {:.0f} kB (pruned, stored)".format(*(n / 1024 for n in prune_stdlib())),
              file=sys.stderr)
    if what in ("site", "all"):
        print(f"site.zip {write_zip(SOURCES / 'site.zip', site_files()) / 1024:.0f} kB (source)", file=sys.stderr)
    if what in ("app", "all"):
        print(f"app.zip {write_zip(SOURCES / 'app.zip', app_files()) / 1024:.0f} kB (source)", file=sys.stderr)
    if what in ("version", "all"):
        write_version()
        drop_stale()
    if what in ("compress", "all"):
        compress()
