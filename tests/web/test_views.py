"""The per-game view registry: every game has a view and a template folder; a missing view is an
error, not an empty page."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from scorekeeper.engine import RULES
from scorekeeper.web import views
from scorekeeper.web.views import MissingView, view_for

TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "games"


def test_unknown_game_raises_missing_view() -> None:
    with pytest.raises(MissingView, match="no view for game 'nosuchgame'") as err:
        view_for("nosuchgame", {})
    assert err.value.game == "nosuchgame"
    assert "nosuchgame" not in views.VIEWS  # no silent empty view left behind for the next call


def test_module_without_registration_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.import_module
    monkeypatch.setattr(importlib, "import_module",
                        lambda name, *a: None if name == "scorekeeper.web.views.quiet" else real(name, *a))
    with pytest.raises(MissingView, match="registers no view"):
        view_for("quiet", {})


def test_import_error_inside_a_view_module_is_not_masked(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(name: str, *a: object) -> object:
        raise ModuleNotFoundError("No module named 'some_dependency'", name="some_dependency")
    monkeypatch.setattr(importlib, "import_module", broken)
    with pytest.raises(ModuleNotFoundError, match="some_dependency"):
        view_for("broken", {})


@pytest.mark.parametrize("game", sorted(RULES))
def test_every_game_has_a_view_module_and_template_folder(game: str) -> None:
    importlib.import_module(f"scorekeeper.web.views.{game}")
    assert game in views.VIEWS
    assert (TEMPLATES / game / "main.html").is_file()
