"""Hashed static file names, so browsers may cache them for a year.

``python -m scorekeeper.assets`` (run by ``make``) copies every file of ``static/`` to
``static/dist/<name>.<hash>.<ext>`` and writes ``static/dist/manifest.json``; WhiteNoise then
serves the copies (and their .gz/.br siblings) as immutable. Templates ask ``asset("app.css")``;
without a manifest (a bare checkout) they fall back to the plain file.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from functools import lru_cache
from pathlib import Path

HASHED = re.compile(r"\.[0-9a-f]{12}\.\w+$")


def _static() -> Path:
    # Imported late: ``setup.py`` loads this module on its own (no Flask) to hash a wheel's files.
    from scorekeeper.paths import STATIC

    return STATIC


def build(static: Path | None = None) -> dict[str, str]:
    static = static or _static()
    dist = static / "dist"
    if dist.exists():
        shutil.rmtree(dist)
    dist.mkdir()
    manifest: dict[str, str] = {}
    for path in sorted(static.rglob("*")):
        if path.is_dir() or dist in path.parents or path.suffix in {".gz", ".br"}:
            continue
        rel = path.relative_to(static).as_posix()
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
        hashed = re.sub(r"(\.\w+)$", rf".{digest}\1", rel) if "." in path.name else f"{rel}.{digest}"
        target = dist / hashed
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
        manifest[rel] = f"dist/{hashed}"
    (dist / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True))
    return manifest


@lru_cache(maxsize=1)
def manifest() -> dict[str, str]:
    try:
        data: dict[str, str] = json.loads((_static() / "dist" / "manifest.json").read_text())
        return data
    except (FileNotFoundError, json.JSONDecodeError):
        return {}


def hashed_name(filename: str) -> str:
    return manifest().get(filename, filename)


def is_immutable(path: str, url: str) -> bool:
    """WhiteNoise's test: hashed copies never change, so they may be cached for good."""
    return "/dist/" in url and bool(HASHED.search(url))


if __name__ == "__main__":
    print(f"hashed {len(build())} static files into {_static() / 'dist'}")
