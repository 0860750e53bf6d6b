"""The dispute desk and the review on a phone: cards tapped in the pickers, the verdict swapped in
by htmx; a table's review reached from its page."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, Playwright, expect

from tests.browser.conftest import NO_WORKER


def quiet(page: Page) -> None:
    page.wait_for_function("() => !document.querySelector('.htmx-request')")


def pick(page: Page, name: str, code: str) -> None:
    """Tap a card of the picker called ``name`` (the radio hides behind the card face)."""
    quiet(page)
    page.locator(f"label.pick:has(> input[name='{name}'][value='{code}'])").click()


def test_a_trick_judged_from_tapped_cards(browser: Browser, live_server: str, playwright: Playwright) -> None:
    page = browser.new_context(**playwright.devices["Pixel 7"], locale="en-GB", **NO_WORKER).new_page()
    page.goto(live_server + "/desk/?game=mousel&kind=trick&players=2")
    page.locator("select[name=trump]").select_option("H")
    pick(page, "c1", "9S")
    pick(page, "c2", "7H")
    verdict = page.locator("#verdict")
    expect(verdict.locator(".desk-winner")).to_have_attribute("data-winner", "1")
    expect(verdict.locator(".desk-card.illegal")).to_have_count(0)
    quiet(page)
    page.locator("input[name=later1]").fill("8S")
    page.locator("input[name=later1]").press("Enter")
    revoke = verdict.locator(".desk-card.illegal")
    expect(revoke).to_have_attribute("data-rule", "MOUSEL-PLAY-2")
    expect(revoke).to_contain_text("8♠")
    expect(verdict.locator(".desk-winner")).to_have_attribute("data-winner", "1")  # the trump still wins
    quiet(page)
    page.locator("input[name=players]").fill("3")
    page.locator("input[name=players]").press("Tab")  # a change: the form comes back with a third seat
    expect(page.locator("input[name=later2]")).to_have_count(1)
    expect(page.locator("input[name=c3]")).not_to_have_count(0)
    expect(page.locator("#verdict .desk-card.illegal")).to_have_attribute("data-rule", "MOUSEL-PLAY-2")


def test_the_review_is_one_tap_from_the_table(browser: Browser, live_server: str, playwright: Playwright) -> None:
    context = browser.new_context(**playwright.devices["Pixel 7"], locale="en-GB", **NO_WORKER)
    page = context.new_page()
    made = page.request.post(live_server + "/api/v1/tables", data={"game": "mulle", "players": ["Anna", "Bo"]})
    table = made.json()
    auth = {"Authorization": f"Bearer {table['write_token']}"}
    for event in ({"type": "deal", "dealer": 1, "table": ["10D", "6C", "4H", "9S"]},
                  {"type": "play", "player": 0, "card": "10D", "capture": ["10D", "6C"]}):
        assert page.request.post(f"{live_server}/api/v1/tables/{table['id']}/events", data=event,
                                 headers=auth).status == 201
    page.goto(table["join_url"].replace("http://192.0.2.10:5000", live_server))
    page.locator("a[data-review]").first.click()
    line = page.locator(".review-line")
    expect(line).to_have_count(1)
    expect(line).to_have_attribute("data-rule", "MULLE-SCORE-3")
    expect(line).to_have_attribute("data-gain", "3")
    expect(page.locator(".review-line .review-text")).to_contain_text("mulle")
