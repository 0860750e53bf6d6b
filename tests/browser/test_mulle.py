"""Tomelilla Mulle on a phone: a scripted opening (MULLE-EX-1) tapped through the UI — the deal,
a trail that sets up a mulle, a capture by value, an illegal selection refused by the preview,
the mulle itself and a sweep — with the pegs on the cribbage board read after each score."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from playwright.sync_api import Browser, Page, Playwright, expect

from tests.browser.conftest import NO_WORKER


def api(base: str, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def tap(page: Page, name: str, code: str) -> None:
    """Tap a card through the page's hooks: a table card, the played card (its rank, then its
    suit: `data-rank`, then `data-card`), or a card of the deal form."""
    if name == "capture:list":
        page.locator(f"#table-cards [data-card='{code}']").click()
    elif name == "card":
        page.locator(f"#card-chooser [data-rank='{code[:-1]}']").click()
        page.locator(f"#card-chooser [data-card='{code}']").click()
    else:                                                    # the deal form's chooser, the same way
        page.locator(f"form.deal [data-rank='{code[:-1]}']").click()
        page.locator(f"form.deal [data-card='{code}']").click()


def front_pegs(page: Page) -> list[str]:
    return [page.locator(f"svg.board circle[data-side='{side}'][data-peg='front']").get_attribute("data-hole") or ""
            for side in (0, 1)]


def back_peg(page: Page, side: int) -> str:
    return page.locator(f"svg.board circle[data-side='{side}'][data-peg='back']").get_attribute("data-hole") or ""


def move(page: Page, card: str, *taken: str, expect_preview: str) -> None:
    """1 + k + 1 taps: the card played, the table cards it takes, confirm — after the preview agrees."""
    tap(page, "card", card)
    for code in taken:
        tap(page, "capture:list", code)
    expect(page.locator("form.move .preview")).to_contain_text(expect_preview)
    page.locator("#confirm-move").click()


def test_a_phone_plays_a_mulle_and_a_sweep_and_the_pegs_move(browser: Browser, live_server: str,
                                                              playwright: Playwright) -> None:
    table = api(live_server, "/api/v1/tables", {"game": "mulle", "players": ["Anna", "Bo"]})
    page = browser.new_context(**playwright.devices["Pixel 7"], locale="en-GB", **NO_WORKER).new_page()
    page.goto(table["join_url"])
    page.get_by_role("button", name="Anna", exact=True).click()
    page.wait_for_function("() => document.querySelector('[sse-connect]')?.['htmx-internal-data']?.sseEventSource?.readyState === 1")
    assert front_pegs(page) == ["0", "0"]

    page.get_by_label("Dealer").select_option("1")
    for code in ("5D", "9C", "4H", "AS"):
        tap(page, "table:list", code)
    page.get_by_role("button", name="Start the deal").click()
    expect(page.get_by_text("Your turn, Anna!")).to_be_visible()
    expect(page.locator(".ml-status")).to_contain_text("round 1 of 10")

    move(page, "5C", expect_preview="trail: 5♣ stays on the table")      # sets up the mulle
    expect(page.get_by_text("Bo to play")).to_be_visible()

    tap(page, "card", "KH")                                               # an illegal selection first
    tap(page, "capture:list", "4H")
    preview = page.locator("form.move .preview")
    expect(preview).to_contain_text("✘")
    expect(preview.locator("a.rule")).to_have_text("MULLE-CAP-4")
    tap(page, "capture:list", "4H")                                       # untick it, choose again
    move(page, "AH", "AS", "9C", "5D", expect_preview="5♦+9♣ = 14")
    expect(page.locator(".ml-just")).to_contain_text("Bo: A♥ +1")
    assert front_pegs(page) == ["0", "2"]

    move(page, "5C", "5C", expect_preview="Mulle! +3")
    expect(page.locator(".ml-just")).to_contain_text("Anna: Mulle! +3")
    assert front_pegs(page) == ["3", "2"] and back_peg(page, 0) == "0"

    move(page, "4C", "4H", expect_preview="Tabbe +1")                     # the table is swept
    expect(page.locator(".ml-just")).to_contain_text("Bo: Tabbe +1")
    expect(page.locator("form.move .table-cards")).to_contain_text("The table is empty.")
    assert front_pegs(page) == ["3", "3"] and back_peg(page, 1) == "2"  # Bo's back peg leapfrogged

    page.locator("#last-move summary").click()                            # undo names the move, asks once
    expect(page.locator("#last-move")).to_contain_text("Take back “Bo: 4♣ takes 4♥”?")
    page.get_by_role("button", name="Yes, undo it").click()
    expect(page.locator("svg.board circle[data-side='1'][data-peg='front']")).to_have_attribute("data-hole", "2")
    expect(page.get_by_text("Bo to play")).to_be_visible()

    # Hints: the box comes without its picker; opening it brings the picker, a tap lists the captures.
    hints = page.locator("details.ml-hints")
    expect(hints.locator("input[type=radio][name=hint]")).to_have_count(0)
    hints.locator("summary").click()
    expect(page.locator("details.ml-hints[open] input[type=radio][name=hint]")).to_have_count(52)
    page.locator("details.ml-hints [data-card='4C'] .cardface").click()
    expect(page.locator("details.ml-hints[open] .ml-options")).to_contain_text("4♥")
    expect(page.locator("details.ml-hints[open] .ml-options")).to_contain_text("as 4: 4♥ tabbe +1")
