"""A phone whose stream dropped, or that slept, catches up by itself."""

from __future__ import annotations

import json
import urllib.request

from playwright.sync_api import Browser, Page, expect

OPEN = "() => document.querySelector('[sse-connect]')?.['htmx-internal-data']?.sseEventSource?.readyState === 1"


def api(base: str, path: str, body: dict, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    request = urllib.request.Request(base + path, json.dumps(body).encode(), headers)
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


def watch(browser: Browser, url: str) -> Page:
    page = browser.new_context(locale="en-GB").new_page()
    page.goto(url)
    page.wait_for_function(OPEN)
    return page


def test_stream_ends_reconnects_and_catches_up(browser: Browser, serve) -> None:
    base = serve(SSE_MAX_SECONDS="1")  # the server ends every stream after a second
    table = api(base, "/api/v1/tables", {"game": "scorepad", "players": ["Anna", "Bo"]})
    page = watch(browser, table["watch_url"])
    page.evaluate("() => { window.reopened = 0; document.addEventListener('htmx:sseOpen', () => window.reopened++); }")
    # The first stream has ended and the browser has reconnected by itself (htmx fires sseOpen again).
    page.wait_for_function(f"() => window.reopened > 0 && ({OPEN})()", timeout=10_000)
    api(base, f"/api/v1/tables/{table['id']}/events", {"type": "points", "side": 1, "points": 4}, table["write_token"])
    expect(page.locator(".totals .total").nth(1)).to_have_text("4", timeout=5000)


def test_a_phone_that_slept_catches_up_when_woken(browser: Browser, live_server: str) -> None:
    table = api(live_server, "/api/v1/tables", {"game": "scorepad", "players": ["Anna", "Bo"]})
    page = watch(browser, table["watch_url"])
    awake = watch(browser, table["watch_url"])
    # Asleep: its stream is gone and nothing arrives.
    page.evaluate("() => document.querySelector('[sse-connect]')?.['htmx-internal-data'].sseEventSource.close()")
    api(live_server, f"/api/v1/tables/{table['id']}/events", {"type": "points", "side": 0, "points": 7},
        table["write_token"])
    # A phone that is awake has heard the move by now; the one asleep has not.
    expect(awake.locator(".totals .total").first).to_have_text("7", timeout=3000)
    expect(page.locator(".totals .total").first).to_have_text("0")
    # Woken: the page becomes visible again and fetches the sheet.
    page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    expect(page.locator(".totals .total").first).to_have_text("7", timeout=3000)


# Every listener of the page's stream is deaf to the notice of seq 1, as if the page lost it.
LOSE_SEQ_1 = """(() => {
  const add = EventSource.prototype.addEventListener;
  EventSource.prototype.addEventListener = function (type, listener, options) {
    const deaf = function (event) {
      try { if (type === "message" && JSON.parse(event.data).seq === 1) { window.lost = (window.lost || 0) + 1; return; } }
      catch (e) { /* not a move notice */ }
      return listener.call(this, event);
    };
    return add.call(this, type, deaf, options);
  };
})()"""


def test_a_page_that_lost_a_moves_notice_fetches_it_at_the_keep_alive(browser: Browser, live_server: str) -> None:
    """The page's stream keeps alive with the head (2 s here, 15 s served): a move whose notice the
    page lost is drawn then, with no other move to carry it."""
    table = api(live_server, "/api/v1/tables", {"game": "scorepad", "players": ["Anna", "Bo"]})
    context = browser.new_context(locale="en-GB")
    context.add_init_script(LOSE_SEQ_1)
    page = context.new_page()
    page.goto(table["watch_url"])
    page.wait_for_function(OPEN)
    api(live_server, f"/api/v1/tables/{table['id']}/events", {"type": "points", "side": 0, "points": 7},
        table["write_token"])
    page.wait_for_function("() => window.lost > 0")  # the notice came and was lost
    expect(page.locator(".totals .total").first).to_have_text("7", timeout=6000)
    assert page.locator("#sheet").get_attribute("data-seq") == "1"
    context.close()
