"""What the server's pages and the phone's app both know of the phone's pack: which files a phone
stores (built by ``python -m scorekeeper.offline.build``), the build's version, and the size of
the pieces the phone's store keeps its database in. The server's service worker is written from
these; the phone's app writes its pieces by them. Here, below both, so the web layer never
imports the phone's app (an import-linter contract in pyproject.toml)."""

from __future__ import annotations

import json
from pathlib import Path

from scorekeeper.paths import OFFLINE

OUT = OFFLINE
# Served under /offline/ and stored by the phone (templates/sw.js): Pyodide's files, then ours.
# The first two the service worker imports itself (importScripts, offline/build.py CLASSIC): the
# browser keeps them with the worker, so the worker does not store them a second time.
WORKER_SCRIPTS = ("pyodide.classic.js", "pyodide.asm.classic.js")
OFFLINE_FILES = (*WORKER_SCRIPTS, "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json", "site.pack", "app.pack")

# The database is stored in pieces of this many bytes, one IndexedDB record each: a move changes a
# few of SQLite's 4 KiB pages (the new event's, the table's row, their indexes' and the header), so
# it rewrites a few pieces, not a database that grows with every table the phone has kept.
CHUNK = 16 * 1024


def version(out: Path = OUT) -> str | None:
    """The built pack's version (``offline.build.write_version``), or None with no build."""
    try:
        return str(json.loads((out / "version.json").read_text())["version"])
    except (FileNotFoundError, ValueError, KeyError):
        return None
