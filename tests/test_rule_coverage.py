"""Every rule id an engine raises is named in that game's engine tests (each of which asserts the
rule id of the refusal it provokes): a new refusal without a test fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PREFIX = {"scorepad": "SCOREPAD", "mulle": "MULLE", "kasino": "KASINO", "mulatschak": "MULAT",
          "mousel": "MOUSEL", "muggins": "MUGGINS"}


@pytest.mark.parametrize("game", sorted(PREFIX))
def test_every_raised_rule_id_has_a_test(game: str) -> None:
    engine = ROOT / "scorekeeper" / "engine"
    paths = [engine / f"{game}.py"] if (engine / f"{game}.py").exists() else sorted((engine / game).rglob("*.py"))
    source = "".join(path.read_text(encoding="utf-8") for path in paths)
    raised = set(re.findall(rf'(?:RuleViolation|SetupError)\(\s*"({PREFIX[game]}-[A-Z]+-[A-Z0-9-]*[A-Z0-9])"', source))
    assert raised, f"no rule ids found in {game}.py"
    tests = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests" / "engine").glob(f"test_{game}*.py"))
    assert sorted(r for r in raised if r not in tests) == []
