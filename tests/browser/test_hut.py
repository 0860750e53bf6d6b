"""The hut (issue 39): three phones, no server and no internet. The app is stored for offline play,
then the server is stopped (Playwright's ``set_offline`` would block WebRTC too), so every page comes
from the service worker's cache. One phone keeps a Mulle table; two more pair with it by the text
codes (``#peer-invite`` / ``#peer-join``) over a WebRTC data channel with no STUN or TURN, and all
three play one deal on one sheet: a refusal shows on the phone that made it, and two phones
confirming at once make one move, never two or none."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, FrameLocator, Page, Playwright, expect

from scorekeeper.offline.build import OUT, version
from tests.browser.conftest import IN_CI, SERVER_ENV

pytestmark = pytest.mark.skipif(
    version() is None and not IN_CI,
    reason=f"Pyodide and the app's zips are not built here ({OUT}): `make offline` fetches and builds them")

START = 240_000


def phone(browser: Browser, playwright: Playwright, base: str) -> tuple[BrowserContext, Page]:
    context = browser.new_context(**playwright.devices["Pixel 7"], locale="en-GB", base_url=base,
                                  reduced_motion="reduce")
    context.set_default_timeout(60_000)
    # Chromium shows a page its phone's local addresses (not mDNS names) once it may use the camera,
    # as a phone that scanned a code may; nothing here would resolve the names.
    context.grant_permissions(["camera"], origin=base)
    page = context.new_page()
    page.on("console", lambda m: print("console", m.type, m.text))
    page.on("pageerror", lambda e: print("pageerror", e))
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("data-offline-ready", "1", timeout=START)
    return context, page


def code_of(box: object) -> str:
    shown = box.locator("[data-peer-code]")  # type: ignore[attr-defined]
    expect(shown).to_be_visible(timeout=30_000)
    return str(shown.text_content()).strip()


def pair(host: Page, guest: Page, after: str = "") -> tuple[FrameLocator, str]:
    """The guest reads the host's invite and the host reads the guest's answer, both as text."""
    invite = host.locator("#peer-invite")
    expect(invite.locator("[data-peer-code]")).not_to_have_text(after, timeout=30_000)
    offer = code_of(invite)
    assert len(offer) < 300, offer  # one small QR code
    guest.goto("/")  # from the service worker's cache: the server is stopped
    join = guest.locator("#peer-join")
    join.locator("summary").first.click()
    join.locator("textarea#peer-code").fill(offer)
    join.get_by_role("button", name="Join").click()
    answer = code_of(join)
    assert answer.startswith("1~A~") and len(answer) < 300, answer
    invite.locator("textarea#peer-code").fill(answer)
    invite.get_by_role("button", name="Connect").click()
    frame = guest.frame_locator("#hut-frame")
    expect(frame.locator("#sheet")).to_be_attached(timeout=30_000)
    return frame, offer


def seq(frame: FrameLocator) -> int:
    return int(frame.locator("#sheet").get_attribute("data-seq") or "-1")


REACHED: list[float] = []  # seconds from a move's tap until every phone's sheet shows it


def everyone_at(frames: dict[str, FrameLocator], target: int, since: float) -> None:
    """Every phone's sheet redrawn at seq ``target``: the host told each one of the move."""
    deadline = time.monotonic() + 10
    while True:
        now = {name: seq(frame) for name, frame in frames.items()}
        if all(s == target for s in now.values()):
            REACHED.append(time.monotonic() - since)
            return
        assert time.monotonic() < deadline, f"not every phone at seq {target}: {now} " + str([
            (f.locator("#sheet").evaluate("(s) => [s.className, scorekeeperHut.stats, window.parent.scorekeeperHut.stats]"))
            for f in frames.values()])
        time.sleep(0.02)


def deal_mulle(frame: FrameLocator, dealer: str = "1", table: tuple[str, ...] = ("5D", "9C", "4H", "AS")) -> None:
    """The deal's form of a Mulle table, through a phone's frame: the dealer, the cards laid on the
    table (the chooser: the rank, then the card), then started."""
    frame.get_by_label("Dealer").select_option(dealer)
    for code in table:
        frame.locator(f"form.deal [data-rank='{code[:-1]}']").first.click()
        frame.locator(f"form.deal [data-card='{code}']").first.click()
    frame.get_by_role("button", name="Start the deal").click()


def tap_card(frame: FrameLocator, code: str) -> None:
    frame.locator(f"#card-chooser [data-rank='{code[:-1]}']").click()
    frame.locator(f"#card-chooser [data-card='{code}']").click()


def phones_with_no_server(browser: Browser, playwright: Playwright, db_file: Path,
                          count: int = 3) -> tuple[Any, list[Page]]:
    """``count`` phones that opened the app once online (stored for offline play), then the server
    stopped: no server and no internet from here on. The server comes back stopped, for a test that
    brings it back on its port."""
    from tests.servers import Server, migrate

    url = f"sqlite:///{db_file}"
    migrate(url)
    server = Server(url, **SERVER_ENV)
    pages: list[Page] = []
    try:
        for _ in range(count):
            pages.append(phone(browser, playwright, server.base)[1])
    finally:
        # Killed, not stopped: the phones' open connections made a graceful stop wait its whole 5 s,
        # and a server that is simply gone is what the phones meet at the hut.
        server.kill()
    return server, pages


def open_on_the_phone(host: Page, game: str, names: tuple[str, ...], watch: bool = False) -> str:
    """The host opens a table kept on the phone from its home page (from the cache), with its
    invite open; its id. ``watch``: the host keeps score and sits nowhere."""
    host.reload()
    host.locator(f"input[name=game][value={game}]").check()
    for i, name in enumerate(names):
        host.locator(f"#player{i}").fill(name)
    if watch:
        host.locator("#my-seat").select_option("watch")
    host.locator("input[name='where'][value='phone']").check()
    host.get_by_role("button", name="Open the table").click(no_wait_after=True)
    host.wait_for_url("**/phone/t/*", timeout=START)
    host.locator("#peer-invite summary").click()
    return host.url.rsplit("/", 1)[1]


def test_three_phones_play_one_sheet_with_no_server(browser: Browser, playwright: Playwright, tmp_path: Path) -> None:
    _, (host, anna, bo) = phones_with_no_server(browser, playwright, tmp_path / "hut.sqlite")
    table = open_on_the_phone(host, "mulle", ("Anna", "Bo"), watch=True)  # the host only keeps score
    mine = host.frame_locator("#hut-frame")  # the host's own sheet, framed so a link keeps the connections
    expect(mine.locator("#sheet")).to_be_attached()
    expect(mine.locator("#peer-invite")).to_be_hidden()
    on_anna, first = pair(host, anna)
    on_bo, _ = pair(host, bo, after=first)  # each phone answers an offer of its own
    expect(host.locator("[data-peer-guests]")).to_have_text("2")
    expect(host.locator("#peer-invite .peer-qr svg")).to_be_attached(timeout=START)  # drawn by the phone's own app
    for frame in (on_anna, on_bo):
        expect(frame.get_by_label("Dealer")).to_be_visible()
        assert frame.locator("a[href*='/history']").first.get_attribute("href") == f"/phone/t/{table}/history"

    # Anna's phone takes her seat (each phone holds its own: test_hut_seats.py), deals (a whole form
    # posted and redirected, relayed) and trails. Bo's phone keeps score without a seat.
    on_anna.locator(".seats").get_by_role("button", name="Anna", exact=True).click()
    expect(on_anna.locator(".table-head .meta")).to_contain_text("You are Anna")
    deal_mulle(on_anna)
    expect(on_anna.get_by_text("Your turn, Anna!")).to_be_visible()
    tap_card(on_anna, "5C")
    expect(on_anna.locator("form.move .preview")).to_contain_text("trail")
    phones = {"anna": on_anna, "bo": on_bo, "host": mine}
    dealt = seq(on_anna)
    t0 = time.monotonic()
    on_anna.locator("#confirm-move").click()
    everyone_at(phones, dealt + 1, t0)
    for frame in (on_anna, on_bo, mine):  # every phone's sheet follows within moments
        expect(frame.get_by_text("Bo to play")).to_be_visible()
        expect(frame.locator("#last-move")).to_contain_text("5♣")

    # Bo's phone tries a capture the rules refuse: the rule shows there, and only there.
    tap_card(on_bo, "KH")
    on_bo.locator("#table-cards [data-card='4H']").click()
    preview = on_bo.locator("form.move .preview")
    expect(preview).to_contain_text("✘")
    expect(preview.locator("a.rule")).to_have_text("MULLE-CAP-4")
    expect(on_bo.locator("#confirm-move")).to_be_disabled()
    for frame in (on_anna, mine):
        expect(frame.locator("a.rule")).to_have_count(0)
    on_bo.locator("#table-cards [data-card='4H']").click()

    # Bo's phone and the host confirm a move for Bo at the same moment: Bo's tap leaves before the
    # notice of the host's move reaches it (held back here, so the race is the same on every run).
    before = seq(mine)
    assert seq(on_bo) == before
    on_bo.locator("#sheet").evaluate("""() => {
      window.held = (event) => { if (event.detail.elt && event.detail.elt.id === "sheet") event.preventDefault(); };
      document.addEventListener("htmx:beforeRequest", window.held, true);
    }""")
    tap_card(on_bo, "KH")  # a trail
    tap_card(mine, "AH")
    for code in ("AS", "9C", "5D"):
        mine.locator(f"#table-cards [data-card='{code}']").click()
    t0 = time.monotonic()
    mine.locator("#confirm-move").click()
    everyone_at({"anna": on_anna, "host": mine}, before + 1, t0)
    assert seq(on_bo) == before
    on_bo.locator("#confirm-move").click()
    # The host's copy took the first and refused the second (409): Bo's phone is told, with the
    # fresh sheet, and nothing of its move was kept.
    expect(on_bo.locator("#sheet .error")).to_contain_text("moved on")
    expect(on_bo.locator("#sheet")).to_have_attribute("data-seq", str(before + 1))
    expect(mine.locator("#sheet .error")).to_have_count(0)
    on_bo.locator("#sheet").evaluate("() => document.removeEventListener('htmx:beforeRequest', window.held, true)")
    log = json.loads(host.evaluate("(p) => fetch(p).then((r) => r.text())", f"/phone/t/{table}/export.json"))
    assert len(log["events"]) == before + 1
    assert "AH" in json.dumps(log["events"][-1]["event"]) and "KH" not in json.dumps(log["events"])
    expect(on_anna.locator("#last-move")).to_contain_text("A♥")

    # Undo from a guest, and the history through the relay.
    on_anna.locator("#last-move details.lm-undo summary").click()
    t0 = time.monotonic()
    on_anna.locator("#last-move details.lm-undo button.primary").click()
    everyone_at(phones, before + 2, t0)
    for frame in (on_anna, on_bo, mine):
        expect(frame.get_by_text("Bo to play")).to_be_visible()
    on_bo.locator("a[href$='/history']").first.click()
    expect(on_bo.locator("main")).to_contain_text("5♣")

    stats = [page.evaluate("() => window.scorekeeperHut.stats") for page in (host, anna, bo)]
    print(f"\nhut: channel open (ms) host {stats[0]['opened']} guests {stats[1]['opened']} {stats[2]['opened']}; "
          f"relayed writes' round trips (ms) {stats[1]['trips']} {stats[2]['trips']}; "
          f"tap to every phone's sheet (ms) {[round(1000 * r) for r in REACHED]}")
    assert all(r < 2 for r in REACHED), REACHED  # issue 39 asks 500 ms; a loaded test machine gets room
    for context in (page.context for page in (host, anna, bo)):
        context.close()
