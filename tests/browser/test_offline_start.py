"""How the phone's app starts (templates/sw.js, boot()): the first start takes Pyodide's memory
snapshot with the app made and no table in it; a later start restores it, the saved tables are
then opened from IndexedDB as before; a snapshot that does not restore is made again."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import BrowserContext, Page, Worker, expect

from scorekeeper.offline.build import OUT, version
from tests.browser.conftest import IN_CI
from tests.browser.test_hut import deal_mulle
from tests.browser.test_offline_table import START, open_on_phone, quiet

pytestmark = pytest.mark.skipif(
    version() is None and not IN_CI,
    reason=f"Pyodide and the app's zips are not built here ({OUT}): `make offline` fetches and builds them")


def worker_of(context: BrowserContext) -> Worker:
    return context.service_workers[0]


def stages(context: BrowserContext) -> dict:
    return dict(worker_of(context).evaluate("self.phoneBoot"))


def wait_stage(context: BrowserContext, name: str) -> dict:
    deadline = time.monotonic() + START / 1000
    while time.monotonic() < deadline:
        found = stages(context)
        if name in found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"the worker never reached {name}: {stages(context)}")


def wait_replayed(context: BrowserContext) -> dict:
    """The stages once the worker has looked whether the started app has replayed the kept
    page's table: drawn by the worker (``sheetDrawn``) or by a request of the page (``tableHeld``)."""
    found = wait_stage(context, "ready")
    deadline = time.monotonic() + START / 1000
    while not {"sheetDrawn", "tableHeld"} & set(found):
        assert time.monotonic() < deadline, found
        time.sleep(0.2)
        found = stages(context)
    return found


def dealt(page: Page) -> str:
    """A Mulle deal started on the phone's table; the sheet's sequence number once it is stored."""
    deal_mulle(page)  # type: ignore[arg-type]  (a page has the frame's locators)
    quiet(page)
    sheet = page.locator("#sheet").get_attribute("data-seq")
    assert sheet and int(sheet) >= 1
    return sheet


def restart(context: BrowserContext, page: Page, url: str) -> None:
    """The phone closes the service worker (and its Python); the table page is opened again."""
    cdp = context.new_cdp_session(page)
    cdp.send("ServiceWorker.enable")
    cdp.send("ServiceWorker.stopAllWorkers")  # answers once the workers have stopped
    page.goto(url, timeout=START)


def phone_with_a_table(browser, live_server: str, playwright) -> tuple[BrowserContext, Page, str, dict]:
    """A Pixel 7 that stored the app for offline play, offline, with a Mulle table opened on it:
    the context, its page, the table's address and the worker's stages of that first start (once
    it has stored the memory snapshot)."""
    context = browser.new_context(**playwright.devices["Pixel 7"], locale="en-GB", base_url=live_server)
    context.set_default_timeout(60_000)
    page = context.new_page()
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("data-offline-ready", "1", timeout=START)
    context.set_offline(True)
    open_on_phone(page, "mulle")
    first = wait_stage(context, "snapshotStored")
    return context, page, page.url, first


def test_a_later_start_restores_the_snapshot_then_the_saved_tables(browser, live_server: str, playwright) -> None:
    context, page, table, first = phone_with_a_table(browser, live_server, playwright)
    assert "prepared" in first  # the first start made the app and took the snapshot
    sheet = dealt(page)

    restart(context, page, table)
    expect(page.locator("#sheet")).to_have_attribute("data-seq", sheet)
    later = stages(context)
    assert "ready" in later and "prepared" not in later, later.get("restoreFailed")  # restored, not made again
    # Kept without its pages of zeros (templates/sw.js, sparse): a third of the memory, not read back.
    kept = worker_of(context).evaluate("self.phoneBoot.snapshot")
    assert kept["stored"] < 0.9 * kept["memory"], kept

    # The table's page keeps the worker from its 30 s idle stop: a message on opening, every 20 s
    # and whenever the page comes back into view (Playwright's attachment keeps a worker alive
    # anyway, so the stop itself cannot be shown here; the messages can).
    page.wait_for_function("() => navigator.serviceWorker.controller")
    deadline = time.monotonic() + 10
    while not worker_of(context).evaluate("self.phoneKeptAlive || 0") and time.monotonic() < deadline:
        time.sleep(0.2)
    heard = worker_of(context).evaluate("self.phoneKeptAlive || 0")
    assert heard >= 1
    page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    deadline = time.monotonic() + 10
    while worker_of(context).evaluate("self.phoneKeptAlive || 0") <= heard and time.monotonic() < deadline:
        time.sleep(0.2)
    assert worker_of(context).evaluate("self.phoneKeptAlive || 0") > heard

    # A snapshot that does not restore (a torn write, another Pyodide) is dropped and made again.
    torn = worker_of(context).evaluate("""async () => {
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
          if (!request.url.endsWith("/memory-snapshot")) continue;
          await cache.put(request, new Response(new Uint8Array(64)));
          return request.url;
        }
      }
    }""")
    assert torn
    restart(context, page, table)
    expect(page.locator("#sheet")).to_have_attribute("data-seq", sheet)
    assert "prepared" in wait_stage(context, "snapshotStored")
    context.close()


def test_a_page_opened_again_during_a_start_is_the_kept_one_and_never_one_older_than_the_store(
        browser, live_server: str, playwright) -> None:
    """While the app starts (seconds on a slow phone) the page last shown is shown at once, as the
    app drew it, and its requests wait for the app. A change of the store deletes it: a page kept
    before a move is never shown after the move (templates/sw.js, keptPage)."""
    context, page, table, _ = phone_with_a_table(browser, live_server, playwright)
    sheet = dealt(page)
    page.goto(table)  # drawn by the app with the deal stored: kept
    expect(page.locator("#sheet")).to_have_attribute("data-seq", sheet)

    page.add_init_script("""document.addEventListener("DOMContentLoaded", () => {
      const note = document.getElementById("phone-starting");
      window.startingSaid = [document.documentElement.hasAttribute("data-kept-page"), Boolean(note && !note.hidden)];
    })""")
    restart(context, page, table)
    expect(page.locator("#sheet")).to_have_attribute("data-seq", sheet)
    shown = wait_stage(context, "ready")
    assert shown["keptPage"] < shown["ready"], shown  # shown before the app could answer
    assert page.evaluate("window.startingSaid") == [True, True]  # it said the table was starting
    # Once started, the table's log is replayed before the player's first tap: by the worker
    # drawing its sheet, or by a request of the page's made meanwhile (then not drawn again).
    replayed = wait_replayed(context)
    assert {"sheetDrawn", "tableHeld"} & set(replayed) and replayed.get("sheetDrawn", replayed["ready"]) >= replayed["ready"]
    expect(page.locator("#phone-starting")).to_be_hidden()  # until the app answered
    expect(page.locator("html")).not_to_have_attribute("data-kept-page", "")
    # Its requests wait for the app: the undo (a change) is answered once it has started.
    page.locator("#last-move details.lm-undo summary").click()
    page.locator("#last-move details.lm-undo button.primary").click()
    expect(page.locator("#sheet")).not_to_have_attribute("data-seq", sheet)
    quiet(page)
    undone = page.locator("#sheet").get_attribute("data-seq")

    # The kept page showed the deal; the store now holds the undo, with no page drawn since.
    restart(context, page, table)
    expect(page.locator("#sheet")).to_have_attribute("data-seq", undone)
    assert "keptPage" not in wait_stage(context, "ready")
    assert page.evaluate("window.startingSaid") == [False, False]  # drawn by the app: nothing to say
    # Swedish chosen (kept in the phone's session, so in the store): the English page kept goes,
    # and the page the choice leads back to, drawn in Swedish, is kept in its place.
    page.locator("a[hreflang=sv]").first.click()
    expect(page.locator("html")).to_have_attribute("lang", "sv")
    quiet(page)
    restart(context, page, table)
    expect(page.locator("html")).to_have_attribute("lang", "sv")
    expect(page.locator("#sheet")).to_have_attribute("data-seq", undone)
    assert "keptPage" in wait_stage(context, "ready")

    # A change (the phone leaves its seat) deletes the kept page; the page going out of view (the
    # phone locked) has it drawn and kept again, as it is now: the next start shows it at once.
    page.evaluate("() => fetch(location.pathname + '/seat', {method: 'POST', body: new URLSearchParams({seat: 'watch'})})")
    page.evaluate(HIDDEN)
    drawn = wait_stage(context, "keptAgain")
    restart(context, page, table)
    assert "keptPage" in wait_stage(context, "ready"), drawn
    expect(page.locator("section.seats")).to_be_visible()  # no seat: the page offers them
    expect(page.locator("html")).to_have_attribute("lang", "sv")
    # Out of view with nothing changed since it was kept: not drawn again.
    page.evaluate(HIDDEN)
    time.sleep(1)
    assert "keptAgain" not in stages(context)

    # A tap made while the app starts (a request of the page's own for this table) is answered
    # first and pays for the table's first request itself: the worker does not draw the sheet too,
    # which would have kept that tap waiting behind it.
    page.add_init_script("""document.addEventListener("DOMContentLoaded", () => {
      if (!sessionStorage.getItem("tapWhileStarting")) return;
      sessionStorage.removeItem("tapWhileStarting");
      fetch(location.pathname + "/sheet", {headers: {"HX-Request": "true"}}).then((r) => { window.tapAnswered = r.status; });
    })""")
    page.evaluate("() => sessionStorage.setItem('tapWhileStarting', '1')")
    restart(context, page, table)
    page.wait_for_function("() => window.tapAnswered === 200", timeout=START)
    found = wait_replayed(context)
    assert "tableHeld" in found and "sheetDrawn" not in found, found
    assert page.evaluate("window.startingSaid") == [True, True]  # the page kept, shown while the app started
    context.close()


HIDDEN = """() => {
  Object.defineProperty(document, "visibilityState", {value: "hidden", configurable: true});
  document.dispatchEvent(new Event("visibilitychange"));
}"""


# The worker as builds before 2026-11-29 had it: a module importing Pyodide's own ES modules
# (the server still serves them), everything else as today's.
MODULE_HEAD = ('import { loadPyodide } from "/offline/pyodide.mjs";\n'
               'import createPyodideModule from "/offline/pyodide.asm.mjs";\n')


def each_worker(context: BrowserContext, expression: str) -> list:
    """``expression`` in every worker of the context that is still there (a replaced one closes)."""
    found = []
    for worker in context.service_workers:
        try:
            found.append(worker.evaluate(expression))
        except Exception:  # closed meanwhile
            continue
    return found


def as_module_worker(route) -> None:
    classic = route.fetch()
    text = classic.text()
    start = text.index("self.pyodideModuleURL")
    end = text.index("const { loadPyodide, createPyodideModule } = self;\n") + len("const { loadPyodide, createPyodideModule } = self;\n")
    route.fulfill(response=classic, body=text[:start] + MODULE_HEAD + text[end:])


def test_a_phone_whose_worker_was_a_module_gets_the_classic_one_and_keeps_its_table(browser, live_server: str,
                                                                                      playwright) -> None:
    """A phone that installed the module worker of an earlier build: the next page registers the
    classic one (static/app.js), the browser replaces the worker (a registration's type is part of
    what register() updates), and the table the module worker kept opens with its moves."""
    context = browser.new_context(**playwright.devices["Pixel 7"], locale="en-GB", base_url=live_server)
    context.set_default_timeout(60_000)
    context.route("**/sw.js", as_module_worker)
    page = context.new_page()
    page.goto("/offline")  # app.js's classic registration of the module code fails; the module one holds
    page.evaluate("() => navigator.serviceWorker.register('/sw.js', {scope: '/', type: 'module'})"
                  ".then(() => navigator.serviceWorker.ready)")
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("data-offline-ready", "1", timeout=START)
    assert worker_of(context).evaluate("typeof self.pyodideModuleURL") == "undefined"  # the module worker
    open_on_phone(page, "mulle")
    table = page.url
    sheet = dealt(page)
    started = "Boolean(self.phoneBoot && 'ready' in self.phoneBoot)"
    module = each_worker(context, f"[typeof self.loadPyodide, {started}]")
    assert ["undefined", True] in module and ["function", True] not in module, module  # the module worker kept it

    context.unroute("**/sw.js")
    page.goto("/")  # this build's app.js registers this build's classic worker
    deadline = time.monotonic() + 60
    # A global only once importScripts has run, and the worker in the module worker's place
    # (installed, skipWaiting, clients.claim).
    classic = "typeof self.loadPyodide === 'function'"
    active = f"{classic} && self.serviceWorker.state === 'activated'"
    while not any(each_worker(context, active)):
        assert time.monotonic() < deadline, "the classic worker never took over"
        time.sleep(0.2)
    page.goto(table, timeout=START)
    expect(page.locator("#sheet")).to_have_attribute("data-seq", sheet)
    # The page may be the one kept (shown while the app starts): the app then starts after it.
    deadline = time.monotonic() + START / 1000
    while [True, True] not in (answered := each_worker(context, f"[{classic}, {started}]")):
        assert time.monotonic() < deadline, answered  # the classic worker opened the module worker's table
        time.sleep(0.2)
    context.close()
