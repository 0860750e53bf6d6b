"""Where the app's files lie: in a checkout ``templates/`` and ``static/`` sit beside the package;
an installed wheel carries them inside it (``setup.py`` copies them in at build time), and the
phone's offline pack too when it was built."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def _shipped(name: str) -> Path:
    inside = PACKAGE / name
    return inside if inside.is_dir() else PACKAGE.parent / name


TEMPLATES = _shipped("templates")
STATIC = _shipped("static")
TRANSLATIONS = PACKAGE / "translations"
MIGRATIONS = PACKAGE / "migrations"
# What a phone downloads to keep a table with no server (`make offline`): a checkout serves its
# build/offline; a wheel built after `make offline` carries a copy inside the package (setup.py).
PHONE_PACK_DIR = "phone-pack"
OFFLINE = PACKAGE / PHONE_PACK_DIR if (PACKAGE / PHONE_PACK_DIR).is_dir() else PACKAGE.parent / "build" / "offline"
