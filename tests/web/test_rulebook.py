"""Every rule id the engines cite has its entry in the rule book, so each rejected move's link lands."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scorekeeper.engine import RULES
from scorekeeper.web.rulebook import load_book

ENGINE = Path(__file__).resolve().parents[2] / "scorekeeper" / "engine"
PREFIX = {"scorepad": "SCOREPAD", "mulle": "MULLE", "kasino": "KASINO", "mulatschak": "MULAT",
          "mousel": "MOUSEL", "muggins": "MUGGINS"}


def cited(game: str) -> set[str]:
    source = (ENGINE / f"{game}.py").read_text(encoding="utf-8")
    if game in ("mulle", "kasino"):
        source += (ENGINE / "capture.py").read_text(encoding="utf-8")
    return set(re.findall(rf'"({PREFIX[game]}-[A-Z]+-[A-Z0-9-]*[A-Z0-9])"', source))


@pytest.mark.parametrize("game", sorted(RULES))
def test_every_cited_rule_is_in_the_book(game: str) -> None:
    book = load_book(game)
    assert book is not None, f"no rule book for {game}"
    ids = {rule.id for section in book.sections for rule in section.rules}
    missing = sorted(cited(game) - ids)
    assert not missing, f"{game}: rule ids cited by the engine but missing from its rule book: {missing}"


@pytest.mark.parametrize("game", sorted(RULES))
def test_every_option_rule_is_in_the_book(game: str) -> None:
    book = load_book(game)
    ids = {rule.id for section in book.sections for rule in section.rules}
    for spec in RULES[game].option_specs:
        assert spec.rule is None or spec.rule in ids, f"{game}: option {spec.key} cites {spec.rule}"


def test_rule_pages_render_with_anchors(sqlite_app) -> None:
    client = sqlite_app.test_client()
    for game in RULES:
        page = client.get(f"/rules/{game}").get_data(as_text=True)
        assert page.count('class="rule') > 5, game
