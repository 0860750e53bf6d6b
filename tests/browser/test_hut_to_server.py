"""The hut (issue 39 item 3): back online, a guest's copy goes to the server itself
(``#peer-to-server``), without keeping the table on its phone first. The server's import keeps one
table per origin: the first copy there makes it and the phone that put it there owns it; a longer
copy after it adds its moves and is sent the watch link; a copy of another history, or a tampered
one, is refused with the server's words, and nothing changes."""

from __future__ import annotations

import copy as copying
import json
import sqlite3
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, Playwright, expect

from tests.browser.conftest import NO_WORKER, SERVER_ENV
from tests.browser.test_hut import pytestmark  # noqa: F401 - the home page offers the hut only with the phone's files
from tests.browser.test_hut_where import SEED, copy_of

ORIGIN = "hut-to-server-0123456789abcdef"


def log_of(*points: int, origin: str = ORIGIN) -> dict[str, Any]:
    return {"format": "scorekeeper/1", "game": "scorepad", "mode": "adjudicate", "players": ["Anna", "Bo"],
            "origin": origin, "events": [{"seq": n, "event": {"type": "points", "side": 0, "points": p}}
                                         for n, p in enumerate(points, start=1)]}


def guest_with(browser: Browser, live_server: str, locale: str, log: dict[str, Any]) -> Page:
    """A phone that was a guest at the hut: its copy in scorekeeper-hut, the join bar open."""
    context = browser.new_context(viewport={"width": 390, "height": 800}, locale=locale, base_url=live_server,
                                  **NO_WORKER)
    page = context.new_page()
    page.goto("/")
    page.evaluate(SEED, [{"table": "phone-hut", "log": log, "movedTo": None, "at": int(time.time() * 1000)}])
    page.reload()
    page.locator("#peer-join > summary").click()
    return page


def on_the_server(watch_url: str) -> dict[str, Any]:
    table, token = watch_url.rsplit("/t/", 1)[1].split("/k/")
    base = watch_url.rsplit("/t/", 1)[0]
    request = urllib.request.Request(f"{base}/api/v1/tables/{table}", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())  # type: ignore[no-any-return]


def test_a_guests_copy_goes_to_the_server_itself_and_that_phone_owns_it(browser: Browser, live_server: str) -> None:
    anna = guest_with(browser, live_server, "en-GB", log_of(3))
    put = anna.locator("#peer-to-server")
    expect(put).to_be_visible()
    expect(put).to_have_attribute("data-table", "phone-hut")
    assert (put.bounding_box() or {"height": 0})["height"] >= 44  # a thumb's target
    assert anna.evaluate("document.documentElement.scrollWidth") <= 390
    put.click()
    anna.wait_for_url(lambda u: "/t/" in u and "/k/" not in u)  # the owner's link: its token left the address
    # It put the table there, so it owns it there: it alone deletes it or makes new codes.
    expect(anna.locator("#delete-table")).to_be_attached()
    expect(anna.locator("#new-codes")).to_be_attached()
    expect(anna.locator("#join-qr")).to_be_attached()  # and invites the others
    kept = copy_of(anna, "phone-hut")
    assert kept["opened"] is True and "/k/" in kept["movedTo"]
    server = on_the_server(kept["movedTo"])
    assert server["seq"] == 1 and server["state"]["scores"] == [3, 0]
    assert anna.url.endswith(f"/t/{server['id']}")
    # Once: the copy is no longer offered, to keep or to put there again.
    anna.goto("/")
    anna.locator("#peer-join > summary").click()
    expect(anna.locator("#peer-takeover")).to_be_hidden()
    expect(put).to_be_hidden()
    expect(anna.locator("#peer-moved")).to_be_hidden()  # it went there itself: nothing to tell

    # Bo's copy goes one move further. Asked where its table went (/hut/where), it learns the table
    # is there and that it has a move the server's has not: it offers to put it there. The server
    # adds it, and Bo is sent the watch link (not the owner's, not the join code: that comes from a
    # phone at the table).
    bo = guest_with(browser, live_server, "sv-SE", log_of(3, 4))
    moved = bo.locator("#peer-moved")
    expect(moved).to_contain_text("Kopian på den här telefonen har drag som serverns bord saknar.")
    expect(bo.locator("#peer-to-server")).to_be_hidden()  # not a table to make: one to add to
    add = moved.locator("[data-peer-put='phone-hut']")
    assert (add.bounding_box() or {"height": 0})["height"] >= 44
    assert bo.evaluate("document.documentElement.scrollWidth") <= 390
    add.click()
    bo.wait_for_url(lambda u: u.endswith(f"/t/{server['id']}"))
    expect(bo.locator("#delete-table")).to_have_count(0)
    assert on_the_server(kept["movedTo"])["seq"] == 2
    assert copy_of(bo, "phone-hut")["movedTo"] == kept["movedTo"] and copy_of(bo, "phone-hut")["ahead"] is False
    bo.goto("/")
    expect(bo.locator("#peer-moved")).to_be_hidden()  # put there and opened: nothing more to say
    for page in (anna, bo):
        page.context.close()


def test_a_copy_the_server_refuses_stays_and_says_why_in_the_phones_language(browser: Browser, live_server: str) -> None:
    first = guest_with(browser, live_server, "en-GB", log_of(5, origin=ORIGIN + "-other"))
    first.locator("#peer-to-server").click()
    first.wait_for_url(lambda u: "/t/" in u)
    watch = copy_of(first, "phone-hut")["movedTo"]
    first.context.close()

    # A copy of another history of the same table, longer than the server's: offered, as its moves
    # may go further, and refused there (409 diverged), in German; it stays here.
    parted = guest_with(browser, live_server, "de-DE", log_of(6, 1, origin=ORIGIN + "-other"))
    add = parted.locator("#peer-moved [data-peer-put]")
    add.click()
    status = parted.locator("#peer-moved [data-peer-status]")
    expect(status).to_contain_text("Der Server hat diesen Tisch abgelehnt: dieser Tisch ist schon auf dem Server,"
                                   " mit anderen Zügen als in dieser Kopie")
    assert "/t/" not in parted.url  # still home
    expect(add).to_be_enabled()  # it may try again
    assert copy_of(parted, "phone-hut")["ahead"] is True
    assert on_the_server(watch)["seq"] == 1  # nothing changed there
    parted.context.close()

    # A tampered copy (a seat the table has not): refused with its rule, in Swedish; no table made.
    tampered = log_of(2, origin=ORIGIN + "-tampered")
    broken = copying.deepcopy(tampered)
    broken["events"][0]["event"]["side"] = 7
    sv = guest_with(browser, live_server, "sv-SE", broken)
    sv.locator("#peer-to-server").click()
    status = sv.locator("#peer-join [data-peer-status]")
    expect(status).to_have_text("Servern tog inte emot bordet: händelse 1: det finns ingen sida 7; det här bordet har 2"
                                " (SCOREPAD-PLAY-1)")
    assert copy_of(sv, "phone-hut")["movedTo"] is None
    sv.context.close()


def test_no_answer_from_the_server_says_so_and_the_copy_stays(browser: Browser, live_server: str) -> None:
    """A hotspot with no internet counts as online: the import never reaches the server."""
    page = guest_with(browser, live_server, "en-GB", log_of(1, origin=ORIGIN + "-unreached"))
    page.route("**/api/v1/tables/import", lambda route: route.abort("internetdisconnected"))
    page.locator("#peer-to-server").click()
    expect(page.locator("#peer-join [data-peer-status]")).to_have_text(
        "No connection to the server: try again when there is a signal.")
    expect(page.locator("#peer-to-server")).to_be_enabled()
    expect(page.locator("#peer-takeover")).to_be_enabled()
    assert copy_of(page, "phone-hut")["movedTo"] is None
    page.context.close()


def test_old_copies_of_tables_on_the_server_go_and_a_copy_may_be_removed(browser: Browser, live_server: str) -> None:
    """Copies were never removed. A copy whose table is on the server, said and opened, goes a month
    after it was last written; one the phone has moves for, or one not on the server, stays until
    the player removes it ("Remove this copy from the phone", asked once)."""
    day = 24 * 3600 * 1000
    now = int(time.time() * 1000)
    there = "http://example.invalid/t/x/k/y"
    context = browser.new_context(viewport={"width": 320, "height": 664}, locale="de-DE", base_url=live_server,
                                  **NO_WORKER)
    page = context.new_page()
    page.route("**/hut/where", lambda route: route.fulfill(status=404, json={}))  # nothing more is learnt
    page.goto("/")
    page.evaluate(SEED, [
        {"table": "old-opened", "log": log_of(1, origin=ORIGIN + "-a"), "movedTo": there, "opened": True, "at": now - 31 * day},
        {"table": "new-opened", "log": log_of(1, origin=ORIGIN + "-b"), "movedTo": there, "opened": True, "at": now - day},
        {"table": "old-ahead", "log": log_of(1, 2, origin=ORIGIN + "-c"), "movedTo": there, "opened": True, "ahead": True,
         "at": now - 40 * day},
        {"table": "old-here", "log": log_of(1, origin=ORIGIN + "-d"), "movedTo": None, "at": now - 90 * day},
        {"table": "older-here", "log": log_of(1, origin=ORIGIN + "-e"), "movedTo": None, "at": now - 100 * day},
    ])
    page.reload()
    join = page.locator("#peer-join")
    join.locator("> summary").click()
    expect(page.locator("#peer-takeover")).to_have_attribute("data-table", "old-here")
    assert copy_of(page, "old-opened") is None  # said, opened, on the server a month: gone
    for kept in ("new-opened", "old-ahead", "old-here", "older-here"):
        assert copy_of(page, kept) is not None, kept

    forget = page.locator("#peer-forget")
    expect(forget).to_be_visible()
    forget.locator("summary").click()
    expect(forget).to_contain_text("Die Kopie des Tisches von diesem Handy entfernen?")
    remove = forget.get_by_role("button", name="Kopie entfernen")
    assert (remove.bounding_box() or {"height": 0})["height"] >= 44
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    remove.click()
    # The next copy is offered in its place.
    expect(page.locator("#peer-takeover")).to_have_attribute("data-table", "older-here")
    assert copy_of(page, "old-here") is None and copy_of(page, "older-here") is not None
    context.close()


def test_a_copy_the_server_has_not_is_offered_in_sight(browser: Browser, live_server: str) -> None:
    """Back home a guest does not look under "Join a table nearby (no internet)": once the server
    says it has not the newest copy's table (404), the home page offers it in sight, and that
    copy goes there as from the join bar."""
    origin = ORIGIN + "-in-sight"
    context = browser.new_context(viewport={"width": 320, "height": 664}, locale="sv-SE", base_url=live_server,
                                  **NO_WORKER)
    page = context.new_page()
    page.goto("/")
    page.evaluate(SEED, [{"table": "phone-hut", "log": log_of(2, 5, origin=origin), "movedTo": None,
                          "at": int(time.time() * 1000)}])
    page.reload()
    here = page.locator("#peer-here")
    expect(here).to_contain_text("Den här telefonen har en kopia av bordet med Anna, Bo, som inte finns på någon server än.")
    put = here.locator("[data-peer-put='phone-hut']")
    assert (put.bounding_box() or {"height": 0})["height"] >= 44
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    assert copy_of(page, "phone-hut")["notThere"] is True
    put.click()
    page.wait_for_url(lambda u: "/t/" in u and "/k/" not in u)
    expect(page.locator("#delete-table")).to_be_attached()  # it put it there: it owns it
    assert on_the_server(copy_of(page, "phone-hut")["movedTo"])["seq"] == 2
    page.goto("/")
    expect(here).to_be_hidden()  # there now, and said
    context.close()


def test_a_guest_whose_table_phone_is_gone_puts_its_copy_on_the_server_from_the_bar(
        browser: Browser, playwright: Playwright, tmp_path: Path) -> None:
    """The whole way, with the hut's real phones: a guest paired with the table's phone, a move,
    the table's phone gone. While the server is still out of reach the guest's "Put this copy on the
    server" says so and keeps the copy; back online the same button puts it there, the guest owns
    it, and the server's log is the one the phones played."""
    from tests.browser.test_hut import (
        START,
        deal_mulle,
        open_on_the_phone,
        pair,
        phones_with_no_server,
        tap_card,
    )
    from tests.browser.test_hut_copy import copied, exported
    from tests.servers import Server

    db_file = tmp_path / "hut.sqlite"
    server, (host, anna) = phones_with_no_server(browser, playwright, db_file, count=2)
    table = open_on_the_phone(host, "mulle", ("Anna", "Bo"), watch=True)
    expect(host.frame_locator("#hut-frame").locator("#sheet")).to_be_attached()
    on_anna, _ = pair(host, anna)
    deal_mulle(on_anna)
    tap_card(on_anna, "5C")
    on_anna.locator("#confirm-move").click()
    expect(on_anna.locator("#last-move")).to_contain_text("5♣")
    log = exported(host, table)
    copied(anna, table, log)  # the guest's copy is the host's log

    host.close()  # its battery
    bar = anna.locator("#peer-join")
    expect(bar.locator("[data-peer-status]")).to_contain_text("gone", timeout=60_000)
    put = bar.locator("#peer-to-server")
    expect(put).to_be_visible()  # the phone counts as online: a hotspot with no internet does
    put.click()
    expect(bar.locator("[data-peer-status]")).to_have_text(
        "No connection to the server: try again when there is a signal.", timeout=45_000)
    assert copy_of(anna, table)["movedTo"] is None

    server = Server(f"sqlite:///{db_file}", port=server.port, **SERVER_ENV)
    try:
        put.click()
        anna.wait_for_url(lambda u: "/phone/" not in u and "/t/" in u and "/k/" not in u, timeout=START)
        expect(anna.locator("#delete-table")).to_be_attached()  # the guest put it there: it owns it
        server_id = anna.url.rsplit("/", 1)[1]
        with sqlite3.connect(db_file) as db:
            read_token = db.execute("SELECT read_token FROM tables WHERE id = ?", (server_id,)).fetchone()[0]
        events = server.request("GET", f"/api/v1/tables/{server_id}/events", token=read_token)
        assert [e["event"] for e in events[1]["events"]] == [e["event"] for e in log["events"]]
    finally:
        anna.context.close()
        server.kill()


def test_a_home_page_opened_with_no_signal_asks_once_the_signal_is_back(browser: Browser, live_server: str) -> None:
    """At the hut the home page opens from the phone's cache with no signal, and its copies ask
    nothing. When the signal comes back, they ask then, not at the next visit."""
    context = browser.new_context(viewport={"width": 390, "height": 800}, locale="en-GB", base_url=live_server)
    page = context.new_page()
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("data-offline-ready", "1", timeout=240_000)
    page.evaluate(SEED, [{"table": "phone-hut", "log": log_of(4, origin=ORIGIN + "-signal"), "movedTo": None,
                          "at": int(time.time() * 1000)}])
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/hut/where") else None)
    context.set_offline(True)
    page.reload()  # the home page from the worker's cache
    expect(page.locator("#peer-takeover")).to_have_attribute("data-table", "phone-hut")
    expect(page.locator("#peer-here")).to_be_hidden()
    assert asked == []
    context.set_offline(False)
    expect(page.locator("#peer-here")).to_contain_text("This phone has a copy of the table of Anna, Bo")
    assert len(asked) == 1
    context.close()
