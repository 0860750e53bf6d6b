"""The golden logs replay as they always did (make_corpus.py says how they were made and how to
update them, with the reason, when a change alters one on purpose)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.golden.make_corpus import CASES, EXPECTED, LOGS, logs, replayed

HOW = ('if the change is meant, run: .venv/bin/python tests/golden/make_corpus.py --update "why" '
       "(tests/golden/REASONS.md keeps the reason)")


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_the_corpus_holds_every_game_and_mode() -> None:
    made = {(log["game"], log["mode"]) for log in map(load, logs())}
    assert made == {(game, mode) for game, mode, *_ in CASES}
    assert len(logs()) == len(CASES) == len(list(EXPECTED.glob("*.json")))
    assert all(load(p)["undos"] for p in EXPECTED.glob("*.json") if load(p)["effective"] > 20)


@pytest.mark.parametrize("path", logs(), ids=lambda p: p.stem)
def test_a_golden_log_replays_to_its_expected_state(path: Path) -> None:
    expected = load(EXPECTED / path.name)
    now = replayed(load(path))
    # A later version's verdict on one of its moves shows in stored_moves, as a table would show it.
    assert now == expected, f"{path.name} replays otherwise than expected; {HOW}"


def test_a_changed_verdict_fails_the_corpus(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: a rule that pegs one point more for a Mulle sweep changes the replay."""
    from scorekeeper.engine.mulle import state as mulle_state

    log = load(LOGS / next(p.name for p in logs() if "-mulle-adjudicate-2p" in p.name))
    before = replayed(log)
    original = mulle_state.move_points

    def one_more(*args: Any, **kwargs: Any) -> Any:
        return [(points + 1, *rest) for points, *rest in original(*args, **kwargs)]

    monkeypatch.setattr("scorekeeper.engine.mulle.play.move_points", one_more)
    assert replayed(log)["digest"] != before["digest"]


def test_every_golden_log_imports_and_reads_back_the_same(tmp_path: Path) -> None:
    """Through the app: each log imported as a table (undos and all) shows the expected state."""
    import hashlib

    from tests.web.conftest import make_app

    sqlite_app = make_app(f"sqlite:///{tmp_path / 'golden.sqlite'}")

    from scorekeeper.extensions import db
    from scorekeeper.localize import localize
    from scorekeeper.service import TableError, cache, import_table, snapshot, stored_moves
    from scorekeeper.service.snapshots import rules_for

    for path in logs():
        log, expected = load(path), load(EXPECTED / path.name)
        with sqlite_app.app_context():
            if expected["stored_moves"]:  # an import is judged by the current rules, move by move
                with pytest.raises(TableError):
                    import_table(log)
                continue
            table = import_table(log)
            cache.clear()  # read back from the database, not from the import's snapshot
            snap = snapshot(table)
            data = localize(dict(rules_for(table).to_json(snap.state)), table.players)
            notes = [[v.seq, v.status, v.rule] for v in snap.verdicts]
            text = json.dumps([data, notes], sort_keys=True, ensure_ascii=False, default=str)
            assert hashlib.sha256(text.encode()).hexdigest() == expected["digest"], path.name
            assert snap.seq == expected["seq"] and len(snap.effective) == expected["effective"]
            assert [[m["seq"], m["status"], m["rule"]] for m in stored_moves(table, snap)] == expected["stored_moves"]
            db.session.remove()
    with sqlite_app.app_context():
        db.engine.dispose()
