"""The last-move line a write draws from the event it just wrote (``Snapshot.head``) is the line
drawn from that event read back from the database: every game and mode of the golden logs, their
undos, a seated phone's own move and undo, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from scorekeeper import service
from tests.web.phone import HX, api_table, sheet

LOGS = sorted((Path(__file__).parent.parent / "golden" / "logs").glob("*.json"))
TOKEN = re.compile(r'name="csrf_token" value="[^"]*"')


def drawn_both_ways(app: Flask, client: Any, table_id: str) -> tuple[str, str, bool]:
    """The sheet as the write left it in the cache, then with the event read back."""
    with app.app_context():
        head = service.cache.latest(table_id)
    written = TOKEN.sub("", sheet(client, table_id))
    service.cache.clear()
    read = TOKEN.sub("", sheet(client, table_id))
    return written, read, head is not None and head.head is not None


@pytest.mark.parametrize("log", LOGS, ids=[p.stem for p in LOGS])
def test_the_line_from_the_written_event_is_the_line_read_back(app: Flask, log: Path) -> None:
    data = json.loads(log.read_text())
    client = app.test_client()
    table = api_table(client, data["game"], [], data["players"], data["mode"], None, **data["options"])
    for i, entry in enumerate(data["events"][:60]):
        undo = entry["event"]["type"] == "undo"  # the log's undo took back the newest move, as this does
        response = client.post(f"/api/v1/tables/{table['id']}/{'undo' if undo else 'events'}",
                               json=None if undo else entry["event"],
                               headers={"Authorization": f"Bearer {table['write_token']}"})
        assert response.status_code == (200 if undo else 201), (entry, response.json)
        if i < 8 or undo or i % 5 == 0:  # every undo, a sample of the rest (each check draws twice)
            written, read, from_head = drawn_both_ways(app, client, table["id"])
            assert from_head and written == read, entry
    service.cache.clear()


def test_a_seated_phones_own_move_and_undo_name_it_alike_both_ways(app: Flask) -> None:
    client = app.test_client()
    table = api_table(client, "mulle", [{"type": "deal", "dealer": 1, "table": ["5D", "9C", "4H", "AS"]}],
                      ["Anna", "Bo"])
    moved = client.post(f"/t/{table['id']}/events", headers=HX,
                        data={"type": "play", "player:int": "0", "expected_seq": "1", "card": "5C"})
    assert moved.status_code == 200
    written, read, from_head = drawn_both_ways(app, client, table["id"])
    assert from_head and written == read and "5♣" in written
    back = client.post(f"/t/{table['id']}/undo", headers=HX, data={"expected_seq": "2"})
    assert back.status_code == 200
    written, read, from_head = drawn_both_ways(app, client, table["id"])
    assert from_head and written == read and "Anna undid" in written
    service.cache.clear()


def test_every_form_that_redraws_the_sheet_from_outside_it_names_the_sheets_swap_itself() -> None:
    """A control outside the sheet that targets it (hx-target="#sheet": the status bar's undo) is
    redrawn out of band before the sheet, so htmx looks for the sheet's swap from a control no
    longer in the page: without hx-ext="sheet" on the control it drew the new sheet inside the old.
    Controls inside the sheet target it with "closest .sheet" and stay in the page until the swap."""
    root = Path(__file__).resolve().parents[2] / "templates"
    outside = [(path.name, tag) for path in root.rglob("*.html")
               for tag in re.findall(r"<[a-z]+\b[^>]*\bhx-target=\"#sheet\"[^>]*>", path.read_text())]
    assert outside, "the status bar's undo targets #sheet"
    assert [(name, tag) for name, tag in outside if 'hx-ext="sheet"' not in tag] == []
