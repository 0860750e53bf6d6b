"""Two phones and a watcher share one live sheet; the QR code is read off the screen with a real decoder."""

from __future__ import annotations

from io import BytesIO

import pytest
from playwright.sync_api import Browser, Locator, Page, Route, expect


def decode_qr(img: Locator) -> str:
    import zxingcpp
    from PIL import Image

    # The image has its size before it has its pixels: screenshotted as soon as it was visible, a
    # loaded machine once caught it blank. decode() waits for it to be loaded and decoded.
    img.evaluate("img => img.decode()")
    results = zxingcpp.read_barcodes(Image.open(BytesIO(img.screenshot())))
    assert results, "no QR code found in the screenshot"
    return results[0].text


# Counts the sheet's redraws asked for and held back (static/app.js: not while a field is typed in),
# and keeps the sheet to tell whether it was replaced instead. Registered after app.js's own
# listener, so it sees that listener's preventDefault.
HELD_BACK = """() => { window.heldBack = 0; window.sheetBefore = document.getElementById('sheet');
    document.addEventListener('htmx:beforeRequest', e => {
        if (e.detail.elt.id === 'sheet' && e.defaultPrevented) window.heldBack++; }); }"""
REDRAWN = "() => document.getElementById('sheet') !== window.sheetBefore"


def quiet(page: Page) -> None:
    page.wait_for_function("() => !document.querySelector('.htmx-request')")


def create_scorepad(page: Page, base: str, players: list[str], target: str = "61") -> None:
    page.goto(base + "/")
    page.get_by_label("Score pad").check()
    for i, name in enumerate(players):
        page.locator(f"#player{i}").fill(name)
    page.locator("input[name=opt_scorepad_target]").fill(target)
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#sheet")).to_be_visible()


# A move reaches the other phones within a second: with another test's Chromium and server on the
# second core it once took longer, so this one runs alone.
@pytest.mark.quiet
def test_two_phones_and_a_watcher_share_one_live_sheet(browser: Browser, live_server: str) -> None:
    phone_a = browser.new_context(locale="en-GB").new_page()
    create_scorepad(phone_a, live_server, ["Anna", "Bo"])
    expect(phone_a.get_by_text("You are Anna")).to_be_visible()   # the opener is seated at once

    qr = phone_a.locator("#join-qr")                            # and the page opens on the invite
    expect(qr).to_be_visible()
    join_url = decode_qr(qr)
    assert join_url.startswith(live_server + "/t/")
    watch = phone_a.locator(".qr-watch img")
    watch.evaluate("el => el.scrollIntoView({block: 'start'})")   # clear of the status bar at the bottom
    watch_url = decode_qr(watch)
    assert watch_url != join_url and watch_url.startswith(live_server)

    phone_b = browser.new_context(locale="en-GB").new_page()
    phone_b.goto(join_url)
    phone_b.get_by_role("button", name="Bo", exact=True).click()
    expect(phone_b.get_by_text("You are Bo")).to_be_visible()

    watcher = browser.new_context(locale="en-GB").new_page()
    watcher.goto(watch_url)
    expect(watcher.get_by_text("Watching")).to_be_visible()
    for page in (phone_b, watcher):  # wait until each phone's event stream is open
        page.wait_for_function("() => document.querySelector('[sse-connect]')?.['htmx-internal-data']?.sseEventSource?.readyState === 1")

    phone_a.get_by_label("+5 points for Anna").click()
    expect(phone_a.locator(".totals .total").first).to_have_text("5")
    expect(phone_b.locator(".totals .total").first).to_have_text("5", timeout=1000)
    expect(watcher.locator(".totals .total").first).to_have_text("5", timeout=1000)

    phone_b.get_by_role("spinbutton", name="Points for Bo").fill("12")
    phone_b.get_by_role("spinbutton", name="Points for Bo").press("Enter")
    expect(phone_a.locator(".totals .total").nth(1)).to_have_text("12", timeout=1000)

    phone_b.locator("#last-move summary").click()                 # undo names the move and asks once
    expect(phone_b.locator("#last-move")).to_contain_text("Take back “+12 → Bo”?")
    phone_b.get_by_role("button", name="Yes, undo it").click()
    expect(phone_b.locator(".totals .total").nth(1)).to_have_text("0")
    expect(phone_a.locator(".totals .total").nth(1)).to_have_text("0", timeout=1000)
    expect(watcher.locator(".totals .total").nth(1)).to_have_text("0", timeout=1000)
    expect(watcher.locator(".totals .total").first).to_have_text("5")

    assert watcher.locator("#sheet form").count() == 0
    assert watcher.locator("button:has-text('Undo')").count() == 0
    assert watcher.locator(".qr-join").count() == 0


def test_script_in_a_name_stays_inert(browser: Browser, live_server: str) -> None:
    page = browser.new_context().new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    create_scorepad(page, live_server, ["<img src=x onerror=alert(1)>", "<script>alert(2)</script>"])
    page.wait_for_function("() => document.querySelector('[sse-connect]')?.['htmx-internal-data']?.sseEventSource?.readyState === 1")
    page.locator(".add input[name='note']").first.fill("<script>alert(3)</script>")
    page.locator(".add input[name='points:int']").first.fill("3")
    page.locator(".add button").first.click()
    expect(page.locator(".rounds")).to_contain_text("<script>alert(3)</script>")
    expect(page.locator(".totals .name").first).to_have_text("<img src=x onerror=alert(1)>")
    assert dialogs == []


def test_points_being_typed_are_not_wiped_when_another_phone_moves(browser: Browser, live_server: str) -> None:
    """A phone's sheet redraws itself when another phone moves; a number being typed into the score
    pad must not vanish under the player's thumb. The redraw waits until the field is left."""
    phone_a = browser.new_context(locale="en-GB").new_page()
    create_scorepad(phone_a, live_server, ["Anna", "Bo"])
    join_url = phone_a.locator(".qr-join a").first.get_attribute("href")
    phone_b = browser.new_context(locale="en-GB").new_page()
    phone_b.goto(join_url)
    phone_b.get_by_role("button", name="Bo", exact=True).click()
    expect(phone_b.get_by_text("You are Bo")).to_be_visible()
    for page in (phone_a, phone_b):
        page.wait_for_function("() => document.querySelector('[sse-connect]')?.['htmx-internal-data']?.sseEventSource?.readyState === 1")
    expect(phone_a.locator("#seat-list [data-seated='1']")).to_have_count(2)  # the seat taken above is drawn
    quiet(phone_a)

    phone_a.evaluate(HELD_BACK)
    typing = phone_a.get_by_role("spinbutton", name="Points for Anna")
    typing.fill("7")                                               # the thumb is still in the field
    phone_b.get_by_label("+5 points for Bo").click()
    expect(phone_b.locator(".totals .total").nth(1)).to_have_text("5")
    # The stream's notice has come and gone: its redraw and the catch-up that follows it 250 ms later
    # (static/app.js, catchUp) were both asked for and held back.
    phone_a.wait_for_function(f"() => window.heldBack >= 2 || ({REDRAWN})()")
    expect(typing).to_have_value("7")
    expect(phone_a.locator(".totals .total").nth(1)).to_have_text("0")
    typing.blur()                                                  # left the field: now it redraws
    expect(phone_a.locator(".totals .total").nth(1)).to_have_text("5")


def test_a_redraw_already_on_its_way_does_not_land_on_points_being_typed(browser: Browser, live_server: str) -> None:
    """The stream's catch-up as it opens asks for a redraw before the player starts typing; its
    answer must not empty the field the player has since typed into."""
    page = browser.new_context(locale="en-GB").new_page()
    create_scorepad(page, live_server, ["Anna", "Bo"])
    page.wait_for_function("() => document.querySelector('[sse-connect]')?.['htmx-internal-data']?.sseEventSource?.readyState === 1")
    quiet(page)

    held: list[Route] = []
    page.route("**/sheet*", lambda r: held.append(r))                         # the redraw's answer is on its way...
    with page.expect_request("**/sheet*"):
        page.evaluate("() => htmx.trigger(document.getElementById('sheet'), 'refresh')")
    typing = page.get_by_role("spinbutton", name="Points for Anna")
    typing.fill("7")                                                # ...while the player types
    assert held
    page.evaluate("""() => { window.answered = 0; document.addEventListener('htmx:beforeSwap', e => {
        if (e.detail.elt.id === 'sheet') window.answered++; }); }""")
    for route in held:
        route.continue_()
    page.wait_for_function("n => window.answered >= n", arg=len(held))    # ...and has come (swapped or not)
    expect(typing).to_have_value("7")
    page.unroute("**/sheet*")
