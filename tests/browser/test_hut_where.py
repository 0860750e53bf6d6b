"""The hut (issue 39 item 3): a guest's copy learns where its table went. Back online, the home
page asks the server (``POST /hut/where``, the copy's origin) for each copy it has no address for;
a copy some phone has put on the server since is said so once, with its watch link, and is no
longer offered to keep here. A copy not on the server is left as it was."""

from __future__ import annotations

import time
import urllib.request
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import NO_WORKER
from tests.browser.test_hut import pytestmark  # noqa: F401 - the home page offers the hut only with the phone's files

PUT = "hut-where-put-0123456789abcdef"  # the origin of a copy a phone put on the server
KEPT = "hut-where-kept-0123456789abcdef"  # one nobody did


def log_of(origin: str) -> dict[str, Any]:
    return {"format": "scorekeeper/1", "game": "scorepad", "mode": "adjudicate", "players": ["Anna", "Bo"],
            "origin": origin, "events": [{"seq": 1, "event": {"type": "points", "side": 0, "points": 3}}]}


# A copy as static/hut.js keeps one (scorekeeper-hut, store "copies", by table id).
SEED = """(copies) => new Promise((resolve, reject) => {
  const open = indexedDB.open("scorekeeper-hut", 1);
  open.onupgradeneeded = () => open.result.createObjectStore("copies");
  open.onsuccess = () => {
    const tx = open.result.transaction("copies", "readwrite");
    for (const copy of copies) tx.objectStore("copies").put(copy, copy.table);
    tx.oncomplete = () => { open.result.close(); resolve(); };
    tx.onerror = () => reject(tx.error);
  };
})"""


def put_on_server(base: str, origin: str) -> dict[str, Any]:
    import json

    request = urllib.request.Request(f"{base}/api/v1/tables/import", json.dumps(log_of(origin)).encode(),
                                     {"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())  # type: ignore[no-any-return]


def copy_of(page: Page, table: str) -> dict[str, Any]:
    return page.evaluate("(t) => scorekeeperHut.copyOf(t)", table)  # type: ignore[no-any-return]


def test_a_copy_learns_online_that_its_table_is_on_the_server(browser: Browser, live_server: str) -> None:
    put = put_on_server(live_server, PUT)
    context = browser.new_context(viewport={"width": 390, "height": 800}, locale="sv-SE", base_url=live_server,
                                  **NO_WORKER)
    page = context.new_page()
    page.goto("/")
    now = int(time.time() * 1000)
    page.evaluate(SEED, [{"table": "phone-put", "log": log_of(PUT), "movedTo": None, "at": now - 1000},
                         {"table": "phone-kept", "log": log_of(KEPT), "movedTo": None, "at": now - 2000}])
    page.reload()

    moved = page.locator("#peer-moved")
    expect(moved).to_be_visible()
    expect(moved).to_contain_text("Bordet med Anna, Bo finns på servern nu.")
    link = moved.locator("a[data-peer-moved='phone-put']")
    expect(link).to_have_attribute("href", put["watch_url"])
    assert (link.bounding_box() or {"height": 0})["height"] >= 44  # a thumb's target
    assert copy_of(page, "phone-put")["movedTo"] == put["watch_url"]
    assert copy_of(page, "phone-kept")["movedTo"] is None  # not on the server: left as it was
    # The copy on the server is no longer offered to keep here; the other one is.
    expect(page.locator("#peer-takeover")).to_have_attribute("data-table", "phone-kept")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    assert copy_of(page, "phone-kept")["askedAt"] > 0

    link.click()
    page.wait_for_url(f"**/t/{put['id']}**")  # the watch page (its code goes into the session)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/hut/where") else None)
    page.goto("/")
    expect(page.locator("#peer-takeover")).to_have_attribute("data-table", "phone-kept")
    expect(moved).to_be_hidden()  # said once: its link was followed
    assert copy_of(page, "phone-put")["opened"] is True
    assert asked == []  # one is on the server, the other was asked within the hour
    context.close()


def test_the_offer_to_keep_a_copy_does_not_wait_for_the_server(browser: Browser, live_server: str) -> None:
    """At a hut the phones share a hotspot with no internet, which a phone counts as online: the
    question to the server may hang, and "Keep this table here" must not wait for its answer."""
    context = browser.new_context(viewport={"width": 390, "height": 800}, locale="en-GB", base_url=live_server,
                                  **NO_WORKER)
    page = context.new_page()
    pending: list[Any] = []
    page.route("**/hut/where", lambda route: pending.append(route))  # never answered: a server out of reach
    page.goto("/")
    page.evaluate(SEED, [{"table": "phone-hut", "log": log_of(KEPT + "-hut"), "movedTo": None, "at": 1}])
    page.reload()
    expect(page.locator("#peer-takeover")).to_have_attribute("data-table", "phone-hut", timeout=3000)
    assert pending, "the page asked the server"
    expect(page.locator("#peer-moved")).to_be_hidden()
    context.close()
