"""The phone's files compressed for the download (scorekeeper/offline/build.py, `compress`), on
small files: `make run`, `make serve`, `make offline` and a deploy's build step run it on the real
pack (a minute and a half of CPU), `make test` does not, so this is where CI checks it."""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import brotli

from scorekeeper.offline import build

FILES = ("app.pack", "tiny.mjs")


def _pack(out: Path) -> None:
    out.mkdir(exist_ok=True)
    (out / "app.pack").write_bytes(b"scorekeeper " * 4000)  # compresses well
    (out / "tiny.mjs").write_bytes(b"x")  # not smaller compressed


def test_each_file_gets_a_brotli_and_a_gzip_copy_that_opens_to_it(tmp_path: Path) -> None:
    out = tmp_path / "offline"
    _pack(out)
    build.compress(out, FILES)
    data = (out / "app.pack").read_bytes()
    assert brotli.decompress((out / "app.pack.br").read_bytes()) == data
    assert gzip.decompress((out / "app.pack.gz").read_bytes()) == data
    # A copy no smaller than the file is not kept: the server sends the file itself.
    assert not (out / "tiny.mjs.br").exists() and not (out / "tiny.mjs.gz").exists()
    # Written beside the pack's folder and renamed in whole: no part is left in the pack.
    assert sorted(p.name for p in out.iterdir()) == ["app.pack", "app.pack.br", "app.pack.gz", "tiny.mjs"]
    assert not list((tmp_path / "offline-parts").iterdir())


def test_only_a_changed_file_is_compressed_again_and_its_old_copies_go_first(tmp_path: Path) -> None:
    out = tmp_path / "offline"
    _pack(out)
    build.compress(out, FILES)
    before = (out / "app.pack.br").stat().st_mtime_ns
    build.compress(out, FILES)
    assert (out / "app.pack.br").stat().st_mtime_ns == before  # unchanged: not done again

    (out / "app.pack").write_bytes(b"changed " * 5000)
    later = (out / "app.pack.br").stat().st_mtime + 10
    os.utime(out / "app.pack", (later, later))
    build.drop_stale(out, FILES)  # before any server lists the pack (`offline-files`' last step)
    assert not (out / "app.pack.br").exists() and not (out / "app.pack.gz").exists()
    build.compress(out, FILES)
    assert brotli.decompress((out / "app.pack.br").read_bytes()) == b"changed " * 5000
