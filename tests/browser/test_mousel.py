"""Mousel on a phone: two whole deals for two players (hands of two cards) tapped through the UI —
the dealer, the turn-up, a blind take and an offer round, exchanges, the taker's discard, every
card — with the pot, its value per trick and both balances read after each deal. With two players
every deal ends in a penalty: Bo is set in the first, Bo as taker wins only one trick in the second."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, Playwright, expect

from tests.browser.conftest import NO_WORKER


def quiet(page: Page) -> None:
    """Wait until no htmx request is in flight: the sheet also redraws itself when the event
    stream reports the move, and a tap that lands while it is being swapped would be lost."""
    page.wait_for_function("() => !document.querySelector('.htmx-request')")


def tap(page: Page, label: str) -> None:
    quiet(page)
    page.get_by_role("button", name=label, exact=True).click()


def card(page: Page, code: str) -> None:
    """Tap a card of the picker (the radio itself hides behind the card face; a tap posts it)."""
    quiet(page)
    page.locator(f"label.pick:has(> input[name='card'][value='{code}'])").click()


def test_a_phone_plays_two_deals_with_penalties(browser: Browser, live_server: str, playwright: Playwright) -> None:
    page = browser.new_context(**playwright.devices["Pixel 7"], locale="en-GB", reduced_motion="reduce", **NO_WORKER).new_page()
    page.goto(live_server + "/")
    page.locator("input[name=game][value=mousel]").check()
    page.locator("#player0").fill("Anna")
    page.locator("#player1").fill("Bo")
    page.get_by_role("button", name="Open the table").click()       # the opener sits as Anna at once
    expect(page.get_by_text("You are Anna")).to_be_visible()
    page.wait_for_function(
        "() => document.querySelector('[sse-connect]')?.['htmx-internal-data']?.sseEventSource?.readyState === 1")
    turn = page.locator(".ms-turn")
    pot = page.locator(".ms-pot-n")
    per = page.locator(".ms-pot-note")
    balances = page.locator(".ms-balance")
    expect(turn).to_have_text("Deal 1: who deals?")

    # Deal 1: Anna deals and takes the 8♣ blind; Bo wins no trick and pays the pot (MOUSEL-POT-5).
    tap(page, "Anna deals")
    expect(pot).to_have_text("2")
    expect(per).to_have_text("1 token a trick")
    expect(balances).to_have_text(["-1", "-1"])
    card(page, "8C")
    expect(page.locator(".ms-turned [role=img]")).to_have_attribute("aria-label", "eight of clubs")
    tap(page, "Anna takes it blind")
    expect(page.locator(".ms-trumps")).to_contain_text("Trumps: clubs")
    expect(page.locator(".big-stock")).to_have_text("27 cards left in the stock")
    tap(page, "Anna exchanges 1 card")
    expect(page.locator(".big-stock")).to_have_text("26 cards left in the stock")
    tap(page, "Bo stands pat")
    tap(page, "Done: Anna leads")
    expect(turn).to_have_text("Anna leads")
    for code, next_turn in (("AC", "Bo plays"), ("7H", "Anna leads"), ("KC", "Bo plays")):
        card(page, code)
        expect(turn).to_have_text(next_turn)
        if code == "7H":
            expect(page.locator(".ms-trick-won")).to_have_text("Trick 1 goes to Anna. Anna leads the next trick.")
    card(page, "8H")
    expect(turn).to_have_text("Deal 2: Bo deals")
    expect(pot).to_have_text("2")                                 # Bo's penalty, for the next pot
    expect(per).to_have_text("After the antes: 4, 2 a trick")
    expect(balances).to_have_text(["+1", "-3"])
    row = page.locator("#ms-deal-1 tbody tr")
    expect(row.nth(1)).to_contain_text("Bo")
    expect(row.nth(1).locator(".ms-penalty")).to_have_text("-2")

    # Deal 2: Bo deals, passes on the blind take; Anna refuses; Bo takes the 9♠ after all and wins
    # only one trick: he keeps his share and pays the pot (MOUSEL-POT-4).
    tap(page, "Bo deals")
    expect(pot).to_have_text("4")
    expect(per).to_have_text("2 tokens a trick")
    card(page, "9S")
    tap(page, "Not blind: offer it round")
    expect(turn).to_have_text("Offered to Anna")
    tap(page, "Anna refuses")
    expect(turn).to_have_text("Offered to Bo")
    tap(page, "Bo takes it")
    expect(page.locator(".ms-trumps")).to_contain_text("Trumps: spades")
    tap(page, "Bo stands pat")
    tap(page, "Anna exchanges 2 cards")
    tap(page, "Done: Bo leads")
    for code, label in (("AS", "ace of spades"), ("7S", "seven of spades"), ("8D", "eight of diamonds")):
        card(page, code)
        expect(page.locator(".ms-felt [role=img]").last).to_have_attribute("aria-label", label)
    card(page, "AD")                                               # the last card settles the deal
    expect(turn).to_have_text("Deal 3: Anna deals")
    expect(pot).to_have_text("4")
    expect(per).to_have_text("After the antes: 6, 3 a trick")
    expect(balances).to_have_text(["+2", "-6"])
    expect(page.locator("#ms-deal-2 tfoot")).to_have_text("Next pot: 0 left over + 4 in penalties + 2 antes = 6")
    expect(page.get_by_role("img", name="The pot and the balances over the deals")).to_be_visible()


def test_a_long_evenings_history_opens_when_asked(browser: Browser, live_app: tuple[str, object],
                                                  playwright: Playwright) -> None:
    """The earlier deals and the ledger (most of a long evening's sheet, drawn again at every
    redraw) come folded and empty; opened, each fetches its rows, in the phone's language, and
    stays open across a redraw; it fits a phone of 390 and of 320 px. With no script, the folded
    part's link opens the page with the whole history."""
    import json
    from pathlib import Path

    base, app = live_app
    log = json.loads((Path(__file__).parents[1] / "golden" / "logs" / "13-mousel-adjudicate-5p-plain.json").read_text())
    made = app.test_client().post("/api/v1/tables/import", json=log).json  # type: ignore[attr-defined]
    deals = len(made["state"]["settlements"])
    entries = len(made["state"]["ledger"])
    assert deals > 5 and entries > 100
    address = f"{base}/t/{made['id']}/k/{made['read_token']}"
    for locale, width, words in (("en-GB", 390, "earlier deals"), ("sv-SE", 320, "tidigare givar"),
                                 ("de-DE", 320, "frühere Spiele")):
        context = browser.new_context(**{**playwright.devices["Pixel 7"], "viewport": {"width": width, "height": 700}},
                                      locale=locale, **NO_WORKER)
        page = context.new_page()
        page.goto(address)
        older, ledger = page.locator("#ms-older"), page.locator("#ms-ledger")
        expect(older.locator(".ms-part[hx-get]")).to_have_count(1)
        expect(older.locator("table.ms-settle")).to_have_count(0)
        expect(older.locator("summary")).to_contain_text(words)
        older.locator("summary").click()
        expect(older.locator("table.ms-settle")).to_have_count(deals - 1)
        expect(ledger.locator("tbody tr")).to_have_count(0)
        ledger.locator("summary").click()
        expect(ledger.locator("tbody tr")).to_have_count(entries)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        # A redraw (another phone's move) keeps what this player opened open, its rows fetched anew.
        page.evaluate("document.querySelector('#ms-ledger tbody').dataset.old = '1'")
        page.evaluate("htmx.trigger('#sheet', 'refresh')")
        expect(ledger.locator("tbody[data-old]")).to_have_count(0)
        expect(ledger).to_have_attribute("open", "")
        expect(ledger.locator("tbody tr")).to_have_count(entries)
        expect(older.locator("table.ms-settle")).to_have_count(deals - 1)
        ledger.locator("summary").click()                                            # closed, it stays closed
        page.evaluate("htmx.trigger('#sheet', 'refresh')")
        expect(ledger.locator(".ms-part[hx-get]")).to_have_count(1)                 # the redraw is in
        expect(ledger).not_to_have_attribute("open", "")
        expect(older.locator("table.ms-settle")).to_have_count(deals - 1)
        context.close()
    context = browser.new_context(**playwright.devices["Pixel 7"], locale="en-GB", java_script_enabled=False,
                                  **NO_WORKER)
    page = context.new_page()
    page.goto(address)
    page.locator("#ms-ledger summary").click()
    page.get_by_role("link", name="Show the whole history").last.click()
    expect(page.locator("#ms-ledger tbody tr")).to_have_count(entries)
    expect(page.locator("#ms-older table.ms-settle")).to_have_count(deals - 1)
    context.close()
