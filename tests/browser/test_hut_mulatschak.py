"""The hut (issue 39, item 5): a Mulatschak trick from different phones. The server is stopped; the
host keeps a three-player Mulatschak table and two guests pair with it by the text codes. The
guests sit as Bo and Anna, the host keeps Cleo's part; each step of the cut, the bids and the
trumps is made on its player's phone, then each card of the first trick on a different phone: every phone's sheet follows each step, and all three name the trick's
winner. (The Mulle deal, a refusal and two taps at once: test_hut.py.)"""

from __future__ import annotations

import time
from pathlib import Path

from playwright.sync_api import Browser, FrameLocator, Playwright, expect

from tests.browser.test_hut import (  # noqa: F401 - the same skip
    START,
    everyone_at,
    open_on_the_phone,
    pair,
    phone,
    phones_with_no_server,
    pytestmark,
    seq,
)


def press(frame: FrameLocator, label: str) -> None:
    frame.locator("body:not(:has(.htmx-request))").wait_for()
    frame.get_by_role("button", name=label, exact=True).click()


def test_a_mulatschak_trick_from_three_phones_with_no_server(browser: Browser, playwright: Playwright,
                                                             tmp_path: Path) -> None:
    _, (host, first, second) = phones_with_no_server(browser, playwright, tmp_path / "hut.sqlite")
    open_on_the_phone(host, "mulatschak", ("Anna", "Bo", "Cleo"), watch=True)  # the host keeps Cleo's score
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

    def press_and_follow(frame: FrameLocator, label: str) -> None:
        before = seq(frame)
        t0 = time.monotonic()
        press(frame, label)
        everyone_at(phones, before + 1, t0)

    for frame, label in steps:
        press_and_follow(frame, label)
    for frame in order:
        expect(frame.locator(".mu-turn")).to_have_text("Bo leads")

    # Bo's card from his phone, Anna's from hers: the trick is one on every phone.
    for frame, card in ((on_first, "Laub-Sau"), (on_second, "Laub-Siebener")):
        press_and_follow(frame, card)
    for frame in order:
        expect(frame.locator(".mu-trick-won")).to_have_text("Trick 1 goes to Bo. Bo leads the next trick.")
    for context in (page.context for page in (host, first, second)):
        context.close()
