"""The wheel carries everything the app serves. ``templates/`` and ``static/`` stay at the top of
the repository and are copied into the package at build time (``scorekeeper.paths`` finds them
there once installed); the translations are compiled to ``.mo`` and the static files hashed and
compressed as ``make`` does in a checkout. Everything else is in ``pyproject.toml``."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
GENERATED = shutil.ignore_patterns("dist", "*.gz", "*.br", "__pycache__")


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

    @staticmethod
    def _compile_catalogs(translations: Path) -> None:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in translations.glob("*/LC_MESSAGES/*.po"):
            with po.open("rb") as source:
                catalog = read_po(source, locale=po.parent.parent.name)
            with po.with_suffix(".mo").open("wb") as target:
                write_mo(target, catalog, use_fuzzy=False)


setup(cmdclass={"build_py": BuildWithAppFiles})
