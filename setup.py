"""The wheel carries everything the app serves. ``templates/`` and ``static/`` stay at the top of
the repository and are copied into the package at build time (``scorekeeper.paths`` finds them
there once installed); the translations are compiled to ``.mo`` and the static files hashed and
compressed as ``make`` does in a checkout. What a phone downloads to keep a table with no server
(``build/offline``, made by ``make offline``: it needs the network and ``node``) is copied in as
``scorekeeper/phone-pack`` when it was built, after checking it was built from these very sources;
without it the wheel's server keeps tables on the server only and its create form says why
(``SCOREKEEPER_PHONE_PACK=required`` makes that an error). Everything else is in ``pyproject.toml``."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
GENERATED = shutil.ignore_patterns("dist", "*.gz", "*.br", "__pycache__")
PACK = HERE / "build" / "offline"
PACK_DIR = "phone-pack"  # scorekeeper.paths.PHONE_PACK_DIR (setup.py cannot import the package)


def _assets_module():  # scorekeeper.assets without importing the package (no Flask at build time)
    spec = importlib.util.spec_from_file_location("_scorekeeper_assets", HERE / "scorekeeper" / "assets.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildWithAppFiles(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:  # an editable install serves the checkout itself
            return
        package = Path(self.build_lib) / "scorekeeper"
        for name in ("templates", "static"):
            target = package / name
            if target.exists():
                shutil.rmtree(target)
            shutil.copytree(HERE / name, target, ignore=GENERATED)
        self._compile_catalogs(package / "translations")
        _assets_module().build(package / "static")
        from whitenoise.compress import main as compress

        compress(["-q", str(package / "static")])
        self._copy_phone_pack(package)

    @staticmethod
    def _copy_phone_pack(package: Path) -> None:
        target = package / PACK_DIR
        if target.exists():
            shutil.rmtree(target)
        if not (PACK / "version.json").exists():  # written last by `make offline`: the pack is whole
            message = (f"{PACK} is not built (`make offline`): this wheel keeps tables on the server only, "
                       "with no table kept on a phone")
            if os.environ.get("SCOREKEEPER_PHONE_PACK") == "required":
                raise SystemExit(message)
            print(f"warning: {message}", file=sys.stderr)
            return
        stale = _stale_in_pack(package)
        if stale:
            raise SystemExit(f"{PACK} was built from other sources than these ({', '.join(stale[:5])}): "
                             "run `make offline` again before building the wheel")
        shutil.copytree(PACK, target)

    @staticmethod
    def _compile_catalogs(translations: Path) -> None:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in translations.glob("*/LC_MESSAGES/*.po"):
            with po.open("rb") as source:
                catalog = read_po(source, locale=po.parent.parent.name)
            with po.with_suffix(".mo").open("wb") as target:
                write_mo(target, catalog, use_fuzzy=False)


def _pack_index(pack: Path) -> dict[str, bytes]:
    """The files of a pack (scorekeeper/offline/precompile.mjs): a 4-byte little-endian length,
    that many bytes of JSON [[path, size], ...], then the files one after another."""
    data = pack.read_bytes()
    head = int.from_bytes(data[:4], "little")
    files, at = {}, 4 + head
    for name, size in json.loads(data[4:at]):
        files[name] = data[at:at + size]
        at += size
    return files


def _stale_in_pack(package: Path) -> list[str]:
    """What the phone's app pack holds otherwise than the wheel: its pages link the hashed static
    files of its own manifest, so a pack built before a change to app.js would ask the server for
    names it no longer has. Templates, rule books, the manifest and which modules there are are
    compared (the modules' bytecode is Pyodide's, not comparable here)."""
    packed = _pack_index(PACK / "app.pack")
    ours: dict[str, bytes | None] = {"static/dist/manifest.json": (package / "static/dist/manifest.json").read_bytes()}
    for path in (HERE / "templates").rglob("*"):
        if path.is_file():
            ours[path.relative_to(HERE).as_posix()] = path.read_bytes()
    for path in (HERE / "scorekeeper").rglob("*"):
        rel = path.relative_to(HERE).as_posix()
        if "__pycache__" in rel or "/migrations/" in rel or "/offline/site/" in rel or not path.is_file():
            continue
        if path.suffix == ".md":
            ours[rel] = path.read_bytes()
        elif path.suffix == ".py":
            ours[rel + "c"] = None  # there, whatever its bytecode
    theirs = {name for name in packed if name.endswith((".md", ".pyc")) or name.startswith(("templates/", "static/"))}
    differ = sorted(set(ours) ^ theirs)
    differ += sorted(name for name, data in ours.items() if data is not None and packed.get(name, data) != data)
    return differ


setup(cmdclass={"build_py": BuildWithAppFiles})
