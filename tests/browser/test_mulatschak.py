"""Mulatschak on a phone: one whole deal tapped through — cut, bids, trumps, play or stay home,
exchange, five tricks — and the sheet row it writes."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, Playwright, expect

from tests.browser.conftest import NO_WORKER


def quiet(page: Page) -> None:
    """Wait until no htmx request is in flight: the sheet also redraws itself when the event
    stream reports the move, and a tap that lands while it is being swapped would be lost."""
    expect(page.locator(".htmx-request")).to_have_count(0)


def tap(page: Page, label: str) -> None:
    quiet(page)
    page.get_by_role("button", name=label, exact=True).click()


def test_one_deal_on_a_phone(browser: Browser, live_server: str, playwright: Playwright) -> None:
    phone = playwright.devices["Pixel 7"]
    page = browser.new_context(**phone, locale="en-GB", reduced_motion="reduce", **NO_WORKER).new_page()
    page.goto(live_server + "/")
    page.locator("input[name=game][value=mulatschak]").check()
    for i, name in enumerate(["Anna", "Bo", "Cleo"]):
        page.locator(f"#player{i}").fill(name)
    page.get_by_role("button", name="Open the table").click()       # the opener sits as Anna at once
    expect(page.get_by_text("You are Anna")).to_be_visible()
    # The stream is open (its first message, the current seq, is not redrawn: the sheet shows it).
    page.wait_for_function("() => document.querySelector('[sse-connect]')?.['htmx-internal-data']?.sseEventSource?.readyState === 1")
    turn = page.locator(".mu-turn")
    expect(turn).to_have_text("Cleo cuts or knocks")          # Anna deals; Cleo sits on her right

    tap(page, "✂ Cleo cuts")
    expect(turn).to_have_text("Bo bids")
    expect(page.get_by_role("button", name="Bo: weiter (pass)")).to_be_visible()
    tap(page, "Bo bids 2")
    expect(turn).to_have_text("Cleo bids")
    tap(page, "Cleo: weiter (pass)")
    expect(turn).to_have_text("Anna bids")
    expect(page.locator(".mu-hold")).to_have_count(1)         # Anna's own phone: "mit mir" is offered
    tap(page, "Anna: weiter (pass)")

    expect(turn).to_have_text("Bo names trumps")
    trumps = page.locator(".mu-suits button")
    expect(trumps.locator(".mu-suit-name")).to_have_text(["Herz", "Schelle", "Laub", "Eichel"])
    expect(trumps.first).to_contain_text("×2, everyone plays")
    tap(page, "Laub")

    expect(turn).to_have_text("Cleo: play along or stay home?")
    tap(page, "daheim bleiben (stay home)")
    expect(turn).to_have_text("Anna: play along or stay home?")
    expect(page.get_by_role("button", name="daheim bleiben (stay home)")).to_be_disabled()   # the last must play
    tap(page, "Anna plays along")

    expect(turn).to_have_text("Bo exchanges")
    expect(page.locator(".big-stock")).to_have_text("18 cards left in the stock")
    tap(page, "Bo swaps 1 card")
    expect(page.locator(".big-stock")).to_have_text("17 cards left in the stock")
    tap(page, "Anna swaps 2 cards")

    expect(turn).to_have_text("Bo leads")
    tricks = [("AL", "7L"), ("KL", "8L"), ("AH", "KH"), ("7E", "AE"), ("AS", "7S")]
    names = {"A": "Sau", "K": "König", "7": "Siebener", "8": "Achter"}
    suits = {"L": "Laub", "H": "Herz", "E": "Eichel", "S": "Schelle"}
    for number, pair in enumerate(tricks, start=1):
        for code in pair:
            label = f"{suits[code[-1]]}-{names[code[:-1]]}"
            tap(page, label)
            if (number, code) != (5, pair[-1]):   # the last card ends the deal: the next one begins
                expect(page.locator(".mu-felt [role=img]").last).to_have_attribute("aria-label", label)
        if number == 1:
            expect(page.locator(".mu-trick-won")).to_have_text("Trick 1 goes to Bo. Bo leads the next trick.")
            expect(page.locator(".mu-seat.leads .mu-name")).to_have_text("Bo")
        if number == 4:
            expect(page.locator(".mu-seat.leads .mu-name")).to_have_text("Anna you")

    row = page.get_by_role("row", name="Deal 1: Bo bid 2 and made it")
    expect(row).to_be_visible()
    expect(row.locator(".running")).to_have_text(["19", "18", "22"])
    expect(row.locator(".delta")).to_have_text(["-2", "-3", "+1"])
    expect(row).to_contain_text("Laub")
    expect(turn).to_have_text("Anna cuts or knocks")         # deal 2: Bo deals, Anna sits on his right
