"""The phone's home in Chromium (issue 27): a copy moved to the server is removed once asked, a
table kept from an older copy offers its removal at the tap that downloads it. The pages are
answered by the phone's app itself (scorekeeper/offline/phone.py, as the service worker runs it),
so no Pyodide is needed here."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.phone_app import PhoneApp


@pytest.fixture
def phone_home(phone_app: PhoneApp) -> dict[str, Any]:
    moved, lost, here = (phone_app.opened(game, ["Anna", "Bo"]) for game in ("kasino", "mulle", "mulle"))
    phone_app.moved(moved)
    phone_app.kept(lost)
    return {"url": phone_app.url, "app": phone_app, "moved": moved, "lost": lost, "here": here}


def test_the_phones_home_removes_a_moved_copy_and_a_kept_table_once_downloaded(page: Page,
                                                                                phone_home: dict[str, Any]) -> None:
    url, moved, lost, here = phone_home["url"], phone_home["moved"], phone_home["lost"], phone_home["here"]
    page.set_viewport_size({"width": 320, "height": 700})
    phone_home["app"].serve(page)
    page.goto(f"{url}/phone/")
    kept = page.locator(f"li[data-kept='{lost}']")
    expect(kept.locator(".kept-why")).to_contain_text("does not know this game")
    expect(kept.locator(".kept-detail code")).to_be_hidden()        # the technical text, on request
    expect(kept.locator(f"[data-remove-kept='{lost}']")).to_be_hidden()
    with page.expect_download() as download:
        kept.locator("a[data-kept-download]").click()
    assert lost in download.value.suggested_filename
    expect(kept.locator(f"[data-remove-kept='{lost}']")).to_be_visible()
    kept.locator(f"[data-remove-kept='{lost}'] summary").click()
    kept.locator(f"[data-remove-kept='{lost}'] button.danger").click()
    expect(page.locator("#table-removed")).to_be_visible()
    expect(page.locator(f"li[data-kept='{lost}']")).to_have_count(0)

    row = page.locator(f"li[data-moved='{moved}']")
    expect(row.locator("form")).to_be_hidden()                      # asked first
    row.locator("summary").click()
    row.locator("button.danger").click()
    expect(page.locator("#table-removed")).to_be_visible()
    expect(page.locator(f"li[data-moved='{moved}']")).to_have_count(0)
    expect(page.locator(f"a[href$='/t/{here}']")).to_have_count(1)  # the table kept here only stays


def test_a_move_the_phones_app_does_not_answer_says_so_not_that_the_phone_is_offline(
        page: Page, phone_home: dict[str, Any]) -> None:
    """At the cottage the phone is offline all the time, and a table kept on it needs no network:
    if its app fails to answer (the worker could not start), the move is not "waiting for the
    banner to go" — no banner ever shows there — it is to be tapped again."""
    url, here = phone_home["url"], phone_home["here"]
    phone_home["app"].serve(page)
    page.goto(f"{url}/phone/t/{here}")
    page.route(re.compile(re.escape(url) + r"/phone/t/[^/]+/events"),
               lambda route: route.fulfill(status=503, body="This phone could not start its tables"))
    page.context.set_offline(True)
    page.evaluate("id => htmx.ajax('POST', '/phone/t/' + id + '/events', "
                  "{source: '#last-move', values: {type: 'deal'}, swap: 'none'})", here)
    last = page.locator("#last-move")
    expect(last).to_contain_text("did not answer")
    expect(last).not_to_contain_text("offline")
    expect(page.locator("#offline")).to_be_hidden()
    page.context.set_offline(False)
