"""The hut (issue 39): each guest phone holds a seat of its own at the table its host keeps. Three
phones with the server stopped: the host sits in Anna's seat, one guest takes Bo's and the other
Cilla's; every phone's page names its own seat, a guest's move is entered by its seat in the
history, a guest that pairs again is still in its seat, and a guest asking for a seat another
phone holds is asked before it takes it over — as on the server."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import Browser, FrameLocator, Locator, Playwright, expect

from tests.browser.test_hut import (  # noqa: F401 - the same skip
    START,
    deal_mulle,
    open_on_the_phone,
    pair,
    phone,
    phones_with_no_server,
    pytestmark,
    tap_card,
)


def seat_button(frame: FrameLocator, name: str) -> Locator:
    return frame.locator(".seats").get_by_role("button", name=re.compile(rf"^{name}\b"))  # not "Nobody"


def sit(frame: FrameLocator, name: str) -> None:
    seat_button(frame, name).click()


def test_each_guest_holds_its_own_seat(browser: Browser, playwright: Playwright, tmp_path: Path) -> None:
    _, (host, bo, cilla) = phones_with_no_server(browser, playwright, tmp_path / "hut.sqlite")
    table = open_on_the_phone(host, "mulle", ("Anna", "Bo", "Cilla"))
    mine = host.frame_locator("#hut-frame")
    expect(mine.locator(".table-head .meta")).to_contain_text("You are Anna")

    on_bo, first = pair(host, bo)
    on_cilla, second = pair(host, cilla, after=first)
    # A guest is a phone of its own at the table: not in the host's seat, asked who it is.
    for frame in (on_bo, on_cilla):
        expect(frame.locator(".table-head .meta")).to_contain_text("Not seated")
        expect(frame.locator("#seats-h")).to_have_text("Who are you?")
    sit(on_bo, "Bo")
    expect(on_bo.locator(".table-head .meta")).to_contain_text("You are Bo")
    sit(on_cilla, "Cilla")
    expect(on_cilla.locator(".table-head .meta")).to_contain_text("You are Cilla")
    # The host sees three seats held, by three phones (its own named), as the guests' do.
    for frame in (mine, on_bo, on_cilla):
        expect(frame.locator("#seat-list li[data-seated='1']")).to_have_count(3)
    expect(mine.locator("#seat-list li").first).to_contain_text("this phone")
    expect(on_bo.locator("#seat-list li").nth(1)).to_contain_text("this phone")

    # Bo's phone deals (Anna deals: Bo plays first) and its own turn is named as its own.
    deal_mulle(on_bo, "0", table=("5D", "9C", "4H", "AS", "7S"))
    expect(on_bo.get_by_text("Your turn, Bo!")).to_be_visible()
    expect(mine.get_by_text("Bo to play")).to_be_visible()
    expect(on_cilla.get_by_text("Bo to play")).to_be_visible()
    tap_card(on_bo, "5C")
    expect(on_bo.locator("form.move .preview")).to_contain_text("trail")
    on_bo.locator("#confirm-move").click()
    expect(on_cilla.get_by_text("Your turn, Cilla!")).to_be_visible()

    # Entered by Bo's seat: in the log and on the history page.
    log = json.loads(host.evaluate("(p) => fetch(p).then((r) => r.text())", f"/phone/t/{table}/export.json"))
    assert [e["by"] for e in log["events"]] == [1, 1], log["events"]
    on_bo.locator("a[href$='/history']").first.click()
    row = on_bo.locator("table.history tbody tr").filter(has_text="5♣")
    expect(row.locator("td").nth(2)).to_have_text("Bo")
    on_bo.locator("a", has_text="Back to the table").click()

    # Bo's phone reloads (the channel goes) and pairs again: it is still in Bo's seat.
    bo.reload()
    on_bo, _ = pair(host, bo, after=second)
    expect(on_bo.locator(".table-head .meta")).to_contain_text("You are Bo")

    # Cilla's phone asks for Bo's seat: it is asked first, and only then takes it over.
    on_cilla.get_by_role("button", name="Change seat").click()
    expect(seat_button(on_cilla, "Bo")).to_contain_text("on another phone")
    sit(on_cilla, "Bo")
    expect(on_cilla.locator("#seats-h")).to_have_text("Bo is seated on another phone — take over?")
    expect(on_bo.locator(".table-head .meta")).to_contain_text("You are Bo")
    on_cilla.get_by_role("button", name="Take over Bo’s seat").click()
    expect(on_cilla.locator(".table-head .meta")).to_contain_text("You are Bo")
    bo.evaluate("() => document.getElementById('hut-frame').contentWindow.location.reload()")
    expect(on_bo.locator(".seats .error")).to_contain_text("Another phone took over Bo’s seat.")
    # The host's own page keeps the host's seat throughout.
    expect(mine.locator(".table-head .meta")).to_contain_text("You are Anna")
    for context in (page.context for page in (host, bo, cilla)):
        context.close()
