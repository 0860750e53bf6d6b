"""A table kept on the phone alone, with the browser offline: the app itself answers it inside the
service worker under Pyodide (templates/sw.js, scorekeeper/offline/). A Mulle deal with a refused
selection and a Mousel trick tapped through the same hooks as on the server, a reload that keeps
the table, then — back online — the table put on the server and the two logs compared."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser, Page, Playwright, expect

from scorekeeper.offline.build import OUT, version
from scorekeeper.offline.phone import CHUNK
from tests.browser.conftest import IN_CI

pytestmark = pytest.mark.skipif(
    version() is None and not IN_CI,
    reason=f"Pyodide and the app's zips are not built here ({OUT}): `make offline` fetches and builds them")

# Under a loaded CI machine Pyodide's first start (compiling 9.6 MB of WebAssembly) takes a while.
START = 240_000


def quiet(page: Page) -> None:
    page.wait_for_function("() => !document.querySelector('.htmx-request')")


def open_on_phone(page: Page, game: str) -> None:
    page.goto("/")
    page.locator(f"input[name=game][value={game}]").check()
    page.locator("#player0").fill("Anna")
    page.locator("#player1").fill("Bo")
    page.locator("input[name='where'][value='phone']").check()
    page.get_by_role("button", name="Open the table").click(no_wait_after=True)
    page.wait_for_url("**/phone/t/*", timeout=START)
    expect(page.get_by_text("You are Anna")).to_be_visible()


def tap_card(page: Page, code: str) -> None:
    page.locator(f"#card-chooser [data-rank='{code[:-1]}']").click()
    page.locator(f"#card-chooser [data-card='{code}']").click()


def exported(page: Page, path: str) -> dict:
    return json.loads(page.evaluate("(p) => fetch(p).then((r) => r.text())", path))


STORED = """() => new Promise((resolve, reject) => {
  const open = indexedDB.open("scorekeeper-phone", 1);
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const store = open.result.transaction("store").objectStore("store");
    const range = IDBKeyRange.bound(["db", 0], ["db", Infinity]);
    const head = store.get("tables"), keys = store.getAllKeys(range), pieces = store.getAll(range);
    store.transaction.oncomplete = () => {
      open.result.close();
      resolve([head.result, keys.result.map((key) => key[1]), pieces.result.map((piece) => piece.byteLength)]);
    };
  };
})"""


# In the service worker: IndexedDB refuses every write while self.storageFull, as a full phone does.
STORAGE_FULL = """() => {
  const transaction = IDBDatabase.prototype.transaction;
  self.storageFull = true;
  IDBDatabase.prototype.transaction = function (names, mode, options) {
    if (mode === "readwrite" && self.storageFull) throw new DOMException("The phone's storage is full", "QuotaExceededError");
    return transaction.call(this, names, mode, options);
  };
}"""


def test_a_phone_only_table_plays_offline_survives_a_reload_and_goes_to_the_server(
        browser: Browser, live_app: tuple[str, object], playwright: Playwright) -> None:
    live_server, app = live_app
    context = browser.new_context(**playwright.devices["Pixel 7"], locale="en-GB", base_url=live_server,
                                  reduced_motion="reduce")
    context.set_default_timeout(60_000)
    page = context.new_page()
    errors: list[str] = []  # the console's errors while a phone table is played (none expected)
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("data-offline-ready", "1", timeout=START)
    expect(page.locator("#offline-ready")).to_be_visible()

    context.set_offline(True)
    page.reload()                                               # the home page opens offline
    open_on_phone(page, "mulle")
    mulle = page.url
    expect(page.locator("#offline")).to_be_hidden()             # a phone table is never "offline"

    # A Mulle deal (MULLE-EX-1's opening): the deal form's [data-card], a trail, a refused
    # selection with its rule, then a capture — every verdict from the server's own engine code.
    page.get_by_label("Dealer").select_option("1")
    for code in ("5D", "9C", "4H", "AS"):  # the deal form's chooser: the rank, then the card
        page.locator(f"form.deal [data-rank='{code[:-1]}']").first.click()
        page.locator(f"form.deal [data-card='{code}']").first.click()
    page.get_by_role("button", name="Start the deal").click()
    expect(page.get_by_text("Your turn, Anna!")).to_be_visible()
    tap_card(page, "5C")
    expect(page.locator("form.move .preview")).to_contain_text("trail")
    page.locator("#confirm-move").click()
    expect(page.get_by_text("Bo to play")).to_be_visible()
    tap_card(page, "KH")
    page.locator("#table-cards [data-card='4H']").click()
    preview = page.locator("form.move .preview")
    expect(preview).to_contain_text("✘")
    expect(preview.locator("a.rule")).to_have_text("MULLE-CAP-4")
    page.locator("#table-cards [data-card='4H']").click()
    tap_card(page, "AH")
    for code in ("AS", "9C", "5D"):
        page.locator(f"#table-cards [data-card='{code}']").click()
    page.locator("#confirm-move").click()
    expect(page.locator("#last-move")).to_contain_text("A♥")
    quiet(page)
    # None but htmx's note of a request it aborted on purpose (a preview overtaken by the next
    # tap: hx-sync replace); e.g. a redraw's out-of-band part with no place on a phone's page.
    assert [e for e in errors if not e.startswith(("htmx:sendAbort,", "htmx:afterRequest,"))] == []

    # The phone closes everything (the service worker and its Python with it): on the reload the
    # table comes back from IndexedDB, its log replayed through the engine.
    cdp = context.new_cdp_session(page)
    cdp.send("ServiceWorker.enable")
    cdp.send("ServiceWorker.stopAllWorkers")
    page.reload()
    expect(page.get_by_text("Your turn, Anna!")).to_be_visible()
    expect(page.locator("#last-move")).to_contain_text("A♥")
    # Kept in pieces (templates/sw.js): a head with the size and the cookie, and every piece of it.
    head, numbers, sizes = page.evaluate(STORED)
    assert "db" not in head and head["cookie"] and head["size"] > 0, head
    assert numbers == list(range(-(-head["size"] // CHUNK))) and sum(sizes) >= head["size"], (numbers, head)

    # The phone's storage refuses a write (full, say): the undo is not kept, the page says so and
    # offers it again, and the sheet shows what the phone keeps; sent again, it is one undo.
    seq = int(page.locator("#sheet").get_attribute("data-seq") or "0")
    worker = context.service_workers[0]
    worker.evaluate(STORAGE_FULL)
    page.locator("#last-move details.lm-undo summary").click()
    page.locator("#last-move details.lm-undo button.primary").click()
    status = page.locator("#last-move")
    expect(status).to_contain_text("Not kept: the app on this phone did not answer.")
    page.reload()  # what the phone holds now: the move before the undo, still there
    expect(page.locator("#sheet")).to_have_attribute("data-seq", str(seq))
    expect(page.locator("#last-move")).to_contain_text("A♥")
    page.locator("#last-move details.lm-undo summary").click()
    page.locator("#last-move details.lm-undo button.primary").click()
    expect(status).to_contain_text("Not kept: the app on this phone did not answer.")
    worker.evaluate("() => { self.storageFull = false; }")  # room again
    status.get_by_role("button", name="Send again").click()
    expect(page.locator("#sheet")).to_have_attribute("data-seq", str(seq + 1))
    expect(status).not_to_contain_text("Not kept")
    quiet(page)
    cdp.send("ServiceWorker.stopAllWorkers")  # and it is what the store holds
    page.reload()
    expect(page.locator("#sheet")).to_have_attribute("data-seq", str(seq + 1))

    # The history: the same page as on the server.
    page.goto(mulle + "/history")
    expect(page.locator("main")).to_contain_text("A♥")

    # A Mousel trick on a second phone table.
    open_on_phone(page, "mousel")
    mousel = page.url
    page.get_by_role("button", name="Anna deals", exact=True).click()
    quiet(page)
    page.locator("label.pick:has(> input[name='card'][value='8C'])").click()
    quiet(page)
    page.get_by_role("button", name="Anna takes it blind", exact=True).click()
    quiet(page)
    page.get_by_role("button", name="Anna exchanges 1 card", exact=True).click()
    quiet(page)
    page.get_by_role("button", name="Bo stands pat", exact=True).click()
    quiet(page)
    page.get_by_role("button", name="Done: Anna leads", exact=True).click()
    for code in ("AC", "7H"):
        quiet(page)
        page.locator(f"label.pick:has(> input[name='card'][value='{code}'])").click()
    expect(page.locator(".ms-trick-won")).to_have_text("Trick 1 goes to Anna. Anna leads the next trick.")

    # The rule book and another language, offline too.
    page.locator("a[hreflang=sv]").click()
    expect(page.locator("html")).to_have_attribute("lang", "sv")
    expect(page.locator("#to-server")).to_be_visible()

    # Back online: the Mulle table goes to the server through its import and shows the invite.
    context.set_offline(False)
    page.goto(mulle)
    phone_log = exported(page, mulle + "/export.json")
    page.locator("#to-server").click()
    page.wait_for_url(f"{live_server}/t/*")
    expect(page.locator("#join-qr")).to_be_attached()
    join = page.locator(".qr-join a.url").get_attribute("href") or ""
    assert join.startswith(page.url + "/k/")
    server_log = exported(page, page.url + "/export.json")
    assert [e["event"] for e in server_log["events"]] == [e["event"] for e in phone_log["events"]]
    assert (server_log["game"], server_log["players"]) == ("mulle", ["Anna", "Bo"])
    expect(page.locator("#sheet")).to_have_attribute("data-seq", str(len(phone_log["events"])))
    # The phone that opened the table owns it on the server: it alone may delete it or make new codes.
    expect(page.locator("#delete-table")).to_be_attached()
    expect(page.locator("#new-codes")).to_be_attached()

    # The phone's copy says it moved and links to the server's table; no second copy is played on.
    server_table = page.url
    page.goto(mulle)
    expect(page.locator("#moved")).to_be_visible()
    expect(page.locator("#moved-to")).to_have_attribute("href", join)
    expect(page.locator("#to-server")).to_have_count(0)
    expect(page.locator("#card-chooser")).to_have_count(0)
    expect(page.locator("#sheet")).to_have_attribute("data-seq", str(len(phone_log["events"])))  # all still there
    page.locator("a[hreflang=en]").click()
    page.goto("/phone/")
    expect(page.locator(f"li[data-moved='{mulle.rsplit('/', 1)[1]}']")).to_contain_text("moved to the server")
    page.locator("#moved-to, li[data-moved] small a").first.click()
    page.wait_for_url(server_table)

    # A double tap on the Mousel table's #to-server, and one more once it has moved: one server table.
    def on_the_server() -> int:
        from scorekeeper.models import Table

        with app.app_context():  # type: ignore[attr-defined]
            return int(Table.query.count())

    before = on_the_server()
    twice = page.evaluate("(u) => Promise.all([1, 2].map(() => fetch(u, {method: 'POST'}).then((r) => r.url)))",
                          mousel + "/to-server")
    again = page.evaluate("(u) => fetch(u, {method: 'POST'}).then((r) => r.url)", mousel + "/to-server")
    assert on_the_server() == before + 1
    assert twice[0] == twice[1] == again and again.startswith(f"{live_server}/t/")
    context.close()
