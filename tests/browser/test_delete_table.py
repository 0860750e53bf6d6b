"""Deleting a table from its page: asked once, with or without script; the other phones are sent home."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import NO_WORKER
from tests.browser.test_table_platform import create_scorepad

STREAM_OPEN = "() => document.querySelector('[sse-connect]')?.['htmx-internal-data']?.sseEventSource?.readyState === 1"


def _delete(page: Page) -> None:
    page.locator("#delete-table summary").click()
    expect(page.locator("#delete-table")).to_contain_text("Delete it for everyone?")
    page.get_by_role("button", name="Delete for everyone").click()


def test_the_other_phones_are_told_and_sent_home(browser: Browser, live_server: str) -> None:
    anna = browser.new_context(locale="en-GB", **NO_WORKER).new_page()
    create_scorepad(anna, live_server, ["Anna", "Bo"])
    join_url = anna.locator(".qr-join a.url").inner_text()
    watch_url = anna.locator(".qr-watch a.url").inner_text()
    bo = browser.new_context(locale="en-GB", **NO_WORKER).new_page()
    bo.goto(join_url)
    bo.get_by_role("button", name="Bo", exact=True).click()
    watcher = browser.new_context(locale="en-GB", **NO_WORKER).new_page()
    watcher.goto(watch_url)
    assert watcher.locator("#delete-table").count() == 0  # a watch code cannot delete
    for page in (bo, watcher):
        page.wait_for_function(STREAM_OPEN)
    table_url = anna.url
    _delete(anna)
    for page in (anna, bo, watcher):
        expect(page.locator("#table-deleted")).to_be_visible(timeout=10000)
        assert page.url == live_server + "/?deleted=1"
    assert "Anna" not in anna.locator("main").inner_text()  # no longer among Anna's tables
    response = bo.goto(table_url)
    assert response is not None and response.status == 404


def test_deleting_works_without_script(browser: Browser, live_server: str) -> None:
    page = browser.new_context(locale="en-GB", java_script_enabled=False).new_page()
    page.goto(live_server + "/")
    page.get_by_label("Score pad").check()
    page.locator("#player0").fill("Cy")
    page.locator("#player1").fill("Di")
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#sheet")).to_be_visible()
    table_url = page.url
    _delete(page)
    expect(page.locator("#table-deleted")).to_be_visible()
    assert page.goto(table_url).status == 404


def test_only_the_opener_deletes_and_a_new_code_locks_out_a_photo_of_the_old_one(browser: Browser, live_server: str) -> None:
    anna = browser.new_context(locale="en-GB", **NO_WORKER).new_page()
    create_scorepad(anna, live_server, ["Anna", "Bo"])
    old_join = anna.locator(".qr-join a.url").inner_text()
    bo = browser.new_context(locale="en-GB", **NO_WORKER).new_page()
    bo.goto(old_join)
    bo.get_by_role("button", name="Bo", exact=True).click()
    expect(bo.locator("#leave-table")).to_be_visible()
    assert bo.locator("#delete-table").count() == 0 and bo.locator("#new-codes").count() == 0
    neighbour = browser.new_context(locale="en-GB", **NO_WORKER).new_page()  # scanned a photo of the code, took no seat
    neighbour.goto(old_join)
    expect(neighbour.locator("#seats-h")).to_be_visible()

    anna.locator("#new-codes summary").click()
    anna.get_by_role("button", name="Make new codes").click()
    expect(anna.locator("#codes-recoded")).to_be_visible()
    new_join = anna.locator(".qr-join a.url").inner_text()
    assert new_join != old_join
    response = neighbour.reload()
    assert response is not None and response.status == 403
    response = browser.new_context(locale="en-GB", **NO_WORKER).new_page().goto(old_join)
    assert response is not None and response.status == 403
    bo.reload()
    expect(bo.locator(".meta")).to_contain_text("You are Bo")  # seated: still at the table
    late = browser.new_context(locale="en-GB", **NO_WORKER).new_page()
    late.goto(new_join)
    expect(late.locator("#seats-h")).to_be_visible()
