"""The hut (issue 39), nothing lost: every phone keeps a copy of the table's log. Three phones with
the server stopped: a guest that reloads pairs again and is sent what it missed; the host's phone
goes, a guest keeps the table ("Keep this table here") and the other guest, whose move waited
meanwhile, pairs with it and plays on; back online, the table goes to the server once — the old
host's own copy finds it there and makes no second table — and the server's log is the phones'."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, FrameLocator, Page, Playwright, expect

from tests.browser.conftest import SERVER_ENV
from tests.browser.test_hut import (  # noqa: F401 - the same skip
    START,
    code_of,
    deal_mulle,
    open_on_the_phone,
    pair,
    phone,
    phones_with_no_server,
    pytestmark,
    tap_card,
)


def exported(page: Page, table: str) -> dict[str, Any]:
    return json.loads(page.evaluate("(p) => fetch(p).then((r) => r.text())", f"/phone/t/{table}/export.json"))


def copy_of(page: Page, table: str) -> dict[str, Any] | None:
    return page.evaluate("(t) => scorekeeperHut.copyOf(t)", table)  # type: ignore[no-any-return]


def copied(page: Page, table: str, log: dict[str, Any]) -> None:
    """The guest's copy in its IndexedDB is the host's log, entry for entry."""
    deadline = time.monotonic() + 15
    while True:
        copy = copy_of(page, table)
        if copy and copy["log"]["events"] == log["events"]:
            assert {k: v for k, v in copy["log"].items() if k != "events"} == {k: v for k, v in log.items() if k != "events"}
            return
        assert time.monotonic() < deadline, (copy and len(copy["log"]["events"]), len(log["events"]))
        time.sleep(0.1)


def repair(host: Page, guest: Page, after: str) -> FrameLocator:
    """A guest pairs again from the bar above its frame, without a reload (a waiting move stays)."""
    invite = host.locator("#peer-invite")
    expect(invite.locator("[data-peer-code]")).not_to_have_text(after, timeout=30_000)
    offer = code_of(invite)
    join = guest.locator("#peer-join")
    join.locator("textarea#peer-code").fill(offer)
    join.get_by_role("button", name="Join").click()
    answer = code_of(join)
    assert answer.startswith("1~A~"), answer
    invite.locator("textarea#peer-code").fill(answer)
    invite.get_by_role("button", name="Connect").click()
    return guest.frame_locator("#hut-frame")


def test_a_guest_catches_up_a_guest_keeps_the_table_and_it_goes_to_the_server_once(
        browser: Browser, playwright: Playwright, tmp_path: Path) -> None:
    from tests.servers import Server

    db_file = tmp_path / "hut.sqlite"
    url = f"sqlite:///{db_file}"
    server, (host, anna, bo) = phones_with_no_server(browser, playwright, db_file)
    port = server.port
    table = open_on_the_phone(host, "mulle", ("Anna", "Bo"))
    mine = host.frame_locator("#hut-frame")
    expect(mine.locator("#sheet")).to_be_attached()
    on_anna, code = pair(host, anna)
    on_bo, code = pair(host, bo, after=code)

    # Anna deals and trails: every guest's copy is the host's log.
    deal_mulle(on_anna)
    tap_card(on_anna, "5C")
    on_anna.locator("#confirm-move").click()
    expect(on_bo.get_by_text("Bo to play")).to_be_visible()
    log = exported(host, table)
    assert len(log["events"]) == 2 and log["origin"]
    copied(anna, table, log)
    copied(bo, table, log)

    # Anna's phone sleeps (a reload: the channel is gone) while Bo trails; paired again, it is sent
    # the one entry it missed, not the whole log.
    anna.reload()
    tap_card(on_bo, "KH")
    on_bo.locator("#confirm-move").click()
    expect(mine.locator("#sheet p.turn").first).to_contain_text("Anna")
    on_anna, code = pair(host, anna, after=code)
    log = exported(host, table)
    assert len(log["events"]) == 3
    copied(anna, table, log)
    assert anna.evaluate("() => scorekeeperHut.stats.logs") == [2], "sent only what it missed"
    expect(on_anna.locator("#sheet p.turn").first).to_contain_text("Anna")

    # The host's phone goes (its battery). Bo's tap for Anna waits, as a move with no signal does.
    host.close()
    expect(bo.locator("#peer-join [data-peer-status]")).to_contain_text("gone", timeout=60_000)
    tap_card(on_bo, "AH")
    on_bo.locator("#confirm-move").click()
    expect(on_bo.locator("#last-move")).to_contain_text("Waiting")
    expect(on_bo.get_by_role("button", name="Send again")).to_be_visible()

    # Anna keeps the table here: her own phone app takes her copy, and she invites Bo.
    takeover = anna.locator("#peer-takeover")
    expect(takeover).to_be_visible(timeout=60_000)
    box = takeover.bounding_box()
    assert box and box["height"] >= 44
    takeover.click()
    anna.wait_for_url(f"**/phone/t/{table}", timeout=START)
    assert len(exported(anna, table)["events"]) == 3
    anna.locator("#peer-invite summary").click()
    on_anna = anna.frame_locator("#hut-frame")
    expect(on_anna.locator("#sheet p.turn").first).to_contain_text("Anna")
    on_bo = repair(anna, bo, after="")
    # Paired again, Bo's waiting move is sent by itself and kept by Anna's phone: nothing lost.
    expect(on_anna.locator("#last-move")).to_contain_text("A♥", timeout=30_000)
    expect(on_bo.locator("#last-move")).to_contain_text("A♥")
    log = exported(anna, table)
    assert len(log["events"]) == 4 and log["origin"] == copy_of(bo, table)["log"]["origin"]
    copied(bo, table, log)
    on_bo.locator("#last-move details.lm-undo summary").click()
    on_bo.locator("#last-move details.lm-undo button.primary").click()
    expect(on_anna.locator("#sheet p.turn").first).to_contain_text("Anna")
    log = exported(anna, table)
    copied(bo, table, log)

    # Back online: Anna's phone puts the table on the server.
    server = Server(url, port=port, **SERVER_ENV)
    try:
        anna.goto(f"/phone/t/{table}")
        anna.locator("#to-server").click()
        anna.wait_for_url(lambda u: "/phone/" not in u, timeout=60_000)
        # The old host's phone comes back with its older copy: the server has the table already.
        old = host.context.new_page()
        old.goto(f"/phone/t/{table}", timeout=START)
        old.locator("#to-server").click()
        old.wait_for_url(lambda u: "/phone/" not in u, timeout=60_000)
        old.goto(f"/phone/t/{table}")
        expect(old.locator("#moved")).to_be_visible()
        with sqlite3.connect(db_file) as db:
            rows = db.execute("SELECT id, read_token FROM tables").fetchall()
        assert len(rows) == 1, rows  # once
        server_id, read_token = rows[0]
        got = server.request("GET", f"/api/v1/tables/{server_id}", token=read_token)
        events = server.request("GET", f"/api/v1/tables/{server_id}/events", token=read_token)
        assert [e["event"] for e in events[1]["events"]] == [e["event"] for e in log["events"]]
        assert got[1]["seq"] == len(log["events"])
    finally:
        for context in (page.context for page in (host, anna, bo)):
            context.close()
        server.kill()
