"""``flask check-tables``: every stored table replayed with this version's rules, the tables holding
a move judged otherwise counted per game and rule id — and nothing changed."""

from __future__ import annotations

from typing import Any

from flask import Flask
from sqlalchemy import text

from tests.web.conftest import Api
from tests.web.test_stored_moves import IMPOSSIBLE, REFUSED_NOW, mulle, stored


def everything(app: Flask) -> dict[str, list[Any]]:
    from scorekeeper.extensions import db

    with app.app_context():
        return {name: [tuple(row) for row in db.session.execute(text(f"SELECT * FROM {name} ORDER BY 1"))]
                for name in ("tables", "seats", "events")}


def test_check_tables_counts_per_game_and_rule_and_changes_nothing(app: Flask, api: Api) -> None:
    for payload in (REFUSED_NOW, REFUSED_NOW, IMPOSSIBLE):
        stored(app, mulle(api), payload)
    both = mulle(api)
    stored(app, both, REFUSED_NOW)
    stored(app, both, {"type": "play", "player": 0, "card": "8D", "capture": ["7D"]})  # 8♦ takes 7♦: CAP-4 again
    clean = mulle(api)
    assert api.post(clean, {"type": "play", "player": 1, "card": "9C", "capture": ["9S"]}).status_code == 201
    pad = api.table()
    stored(app, pad, ["points", 0, 3])
    cut = '{"type": "play", "player": 1, "card": "9'
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        stored(app, mulle(api), cut)  # PostgreSQL holds no text that is not JSON: the closest it can
    else:
        stored(app, mulle(api), {"type": "play"}, raw=cut)
    before = everything(app)
    result = app.test_cli_runner().invoke(args=["check-tables"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("checked 7 table(s)")
    rows = {tuple(line.split("\t")[:3]) for line in lines[1:]}
    assert rows == {("mulle", "MULLE-CAP-4", "3 table(s)"), ("mulle", "MULLE-TURN-2", "1 table(s)"),
                    ("mulle", "damaged", "1 table(s)"), ("scorepad", "damaged", "1 table(s)")}
    assert any("stands 4" in line for line in lines if "MULLE-CAP-4" in line)
    assert any("set_aside 1" in line for line in lines if "MULLE-TURN-2" in line)
    assert everything(app) == before
    failing = app.test_cli_runner().invoke(args=["check-tables", "--fail"])
    assert failing.exit_code == 1
    assert everything(app) == before


def test_check_tables_on_a_clean_database(app: Flask, api: Api) -> None:
    mulle(api)
    result = app.test_cli_runner().invoke(args=["check-tables", "--fail"])
    assert result.exit_code == 0 and "every stored move is judged as it was accepted" in result.output
