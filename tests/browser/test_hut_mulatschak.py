"""The hut (issue 39, item 5): a Mulatschak trick from different phones. The server is stopped; the
host keeps a three-player Mulatschak table and two guests pair with it by the text codes. The
guests sit as Bo and Anna, the host keeps Cleo's part; each step of the cut, the bids and the
trumps is made on its player's phone, then each card of the first trick on a different phone: every phone's sheet follows each step, and all three name the trick's
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
    host.locator("#my-seat").select_option("watch")  # the phone that keeps the table keeps Cleo's score
    host.locator("input[name='where'][value='phone']").check()
    host.get_by_role("button", name="Open the table").click(no_wait_after=True)
    host.wait_for_url("**/phone/t/*", timeout=START)
    host.locator("#peer-invite summary").click()
    mine = host.frame_locator("#hut-frame")
    expect(mine.locator("#sheet")).to_be_attached()
    on_first, offer = pair(host, first)
    on_second, _ = pair(host, second, after=offer)
    phones = {"host": mine, "bo": on_first, "anna": on_second}
    for frame, name in ((on_first, "Bo"), (on_second, "Anna")):  # each guest its own seat
        frame.locator(".seats").get_by_role("button", name=name, exact=True).click()
        expect(frame.locator(".table-head .meta")).to_contain_text(f"You are {name}")

    # The set-up, each step on the phone of the player who makes it (Cleo's on the host's); every
    # sheet follows each step.
    steps = [(mine, "✂ Cleo cuts"), (on_first, "Bo bids 2"), (mine, "Cleo: weiter (pass)"),
             (on_second, "Anna: weiter (pass)"), (on_first, "Laub"), (mine, "daheim bleiben (stay home)"),
             (on_second, "Anna plays along"), (on_first, "Bo swaps 1 card"), (on_second, "Anna swaps 2 cards")]
    order = [mine, on_first, on_second]
    for frame, label in steps:
        before = seq(frame)
        t0 = time.monotonic()
        press(frame, label)
        everyone_at(phones, before + 1, t0)
    for frame in order:
        expect(frame.locator(".mu-turn")).to_have_text("Bo leads")

    # Bo's card from his phone, Anna's from hers: the trick is one on every phone.
    for frame, card in ((on_first, "Laub-Sau"), (on_second, "Laub-Siebener")):
        before = seq(frame)
        t0 = time.monotonic()
        press(frame, card)
        everyone_at(phones, before + 1, t0)
    for frame in order:
        expect(frame.locator(".mu-trick-won")).to_have_text("Trick 1 goes to Bo. Bo leads the next trick.")
    for context in contexts:
        context.close()
