"""The hut (issue 39, item 5): a Mulatschak trick from different phones. The server is stopped; the
host keeps a three-player Mulatschak table and two guests pair with it by the text codes. The
cut, the bids and the trumps are made on one phone and another, then each card of the first
trick on a different phone: every phone's sheet follows each step, and all three name the trick's
winner. (The Mulle deal, a refusal and two taps at once: test_hut.py.)"""

from __future__ import annotations

import time
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, FrameLocator, Playwright, expect

from tests.browser.conftest import SERVER_ENV
from tests.browser.test_hut import START, everyone_at, pair, phone, pytestmark, seq  # noqa: F401 - the same skip


def press(frame: FrameLocator, label: str) -> None:
    frame.locator("body:not(:has(.htmx-request))").wait_for()
    frame.get_by_role("button", name=label, exact=True).click()


def test_a_mulatschak_trick_from_three_phones_with_no_server(browser: Browser, playwright: Playwright,
                                                             tmp_path: Path) -> None:
    from tests.servers import Server, migrate

    url = f"sqlite:///{tmp_path / 'hut.sqlite'}"
    migrate(url)
    server = Server(url, **SERVER_ENV)
    contexts: list[BrowserContext] = []
    try:
        for _ in range(3):
            contexts.append(phone(browser, playwright, server.base)[0])
    finally:
        server.stop()  # no server and no internet from here on
    host, first, second = (context.pages[0] for context in contexts)

    host.reload()  # the home page from the cache
    host.locator("input[name=game][value=mulatschak]").check()
    for i, name in enumerate(("Anna", "Bo", "Cleo")):
        host.locator(f"#player{i}").fill(name)
    host.locator("input[name='where'][value='phone']").check()
    host.get_by_role("button", name="Open the table").click(no_wait_after=True)
    host.wait_for_url("**/phone/t/*", timeout=START)
    host.locator("#peer-invite summary").click()
    mine = host.frame_locator("#hut-frame")
    expect(mine.locator("#sheet")).to_be_attached()
    on_first, offer = pair(host, first)
    on_second, _ = pair(host, second, after=offer)
    phones = {"host": mine, "first": on_first, "second": on_second}

    # The set-up, a step on each phone in turn; every sheet follows each step.
    steps = ["✂ Cleo cuts", "Bo bids 2", "Cleo: weiter (pass)", "Anna: weiter (pass)", "Laub",
             "daheim bleiben (stay home)", "Anna plays along", "Bo swaps 1 card", "Anna swaps 2 cards"]
    order = [mine, on_first, on_second]
    for n, label in enumerate(steps):
        frame = order[n % 3]
        before = seq(frame)
        t0 = time.monotonic()
        press(frame, label)
        everyone_at(phones, before + 1, t0)
    for frame in order:
        expect(frame.locator(".mu-turn")).to_have_text("Bo leads")

    # Bo's card from the first guest, Anna's from the second: the trick is one on every phone.
    for frame, card in ((on_first, "Laub-Sau"), (on_second, "Laub-Siebener")):
        before = seq(frame)
        t0 = time.monotonic()
        press(frame, card)
        everyone_at(phones, before + 1, t0)
    for frame in order:
        expect(frame.locator(".mu-trick-won")).to_have_text("Trick 1 goes to Bo. Bo leads the next trick.")
    for context in contexts:
        context.close()
