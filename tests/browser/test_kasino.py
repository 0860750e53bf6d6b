"""Kasino on a phone: deal, a tabbe and a storan capture tapped with the live preview; the rest of
the deal arrives from another writer, and the phone shows the count and the scores."""

from __future__ import annotations

import json
import random
import urllib.request
from typing import Any

from playwright.sync_api import Browser, Page, Playwright, expect

from scorekeeper.engine.kasino import PACK, Kasino
from tests.browser.conftest import NO_WORKER

K = Kasino()
OPENING = [
    {"type": "deal", "dealer": 1, "table": ["3H", "5S", "8D", "8S"]},
    {"type": "play", "player": 0, "card": "8C", "capture": ["3H", "5S", "8D", "8S"]},
    {"type": "play", "player": 1, "card": "10D"},
    {"type": "play", "player": 0, "card": "10C", "capture": ["10D"]},
]


def api(base: str, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def rest_of_the_deal() -> tuple[list[dict[str, Any]], list[int]]:
    """Legal plays after the opening, and the totals they lead to."""
    s = K.new(["Anna", "Bo"], {})
    for event in OPENING:
        s = K.apply(s, event)
    cards = [str(c) for c in PACK if c not in s.seen]
    random.Random(5).shuffle(cards)
    events = []
    for code in cards:
        allowed = [c for c in K.captures_for(s, code)["captures"] if c["allowed"]]
        event: dict[str, Any] = {"type": "play", "player": s.to_act, "card": code}
        if allowed and len(events) % 3:
            event["capture"] = max(allowed, key=lambda c: len(c["capture"]))["capture"]
        s = K.apply(s, event)
        events.append(event)
    assert s.phase == "between"
    return events, list(s.scores)


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


def test_a_phone_plays_a_tabbe_and_a_capture_and_sees_the_scores(browser: Browser, live_server: str,
                                                                  playwright: Playwright) -> None:
    table = api(live_server, "/api/v1/tables", {"game": "kasino", "players": ["Anna", "Bo"]})
    page = browser.new_context(**playwright.devices["Pixel 7"], locale="en-GB", **NO_WORKER).new_page()
    live = "() => document.querySelector('[sse-connect]')?.['htmx-internal-data']?.sseEventSource?.readyState === 1"
    page.goto(table["join_url"])
    page.wait_for_function(live)
    page.get_by_role("button", name="Anna", exact=True).click()
    expect(page.get_by_text("You are Anna")).to_be_visible()
    page.wait_for_function(live)

    page.get_by_label("Dealer").select_option("1")
    for code in ("3H", "5S", "8D", "8S"):
        tap(page, "table:list", code)
    page.get_by_role("button", name="Start the deal").click()
    expect(page.get_by_text("Your turn, Anna!")).to_be_visible()

    # 1 + 4 + 1 taps: the 8♣ takes 3♥+5♠, 8♦ and 8♠ — a tabbe, previewed before confirming.
    tap(page, "card", "8C")
    for code in ("3H", "5S", "8D", "8S"):
        tap(page, "capture:list", code)
    preview = page.locator("form.move .preview")
    expect(preview).to_contain_text("✔ 8♣ as 8 takes 3♥+5♠ = 8")
    expect(preview).to_contain_text("tabbe")
    page.get_by_role("button", name="Confirm move").click()
    expect(page.locator(".ks-just")).to_contain_text("Anna: Tabbe +1")
    expect(page.get_by_text("Bo to play")).to_be_visible()

    tap(page, "card", "10D")                                   # Bo trails storan
    expect(preview).to_contain_text("10♦ trailed")
    page.get_by_role("button", name="Confirm move").click()
    expect(page.get_by_text("Your turn, Anna!")).to_be_visible()

    page.get_by_label("Type it", exact=True).click()                   # the typed field stays, one tap away
    page.locator("form.move input[name=card]:not([type=radio])").fill("c10")   # typed, Swedish order
    tap(page, "capture:list", "10D")
    expect(preview).to_contain_text("✔ 10♣ as 10 takes 10♦")
    page.get_by_role("button", name="Confirm move").click()
    expect(page.locator(".ks-just")).to_contain_text("Anna: Storan +2")
    expect(page.locator(".ks-piles tbody tr").first.locator("td")).to_have_text(["7", "2", "0", "2", "storan"])  # both were tabbes

    events, totals = rest_of_the_deal()                        # another phone enters the rest
    for event in events:
        api(live_server, f"/api/v1/tables/{table['id']}/events", event, table["write_token"])
    expect(page.get_by_role("heading", name="Deal 1: the count")).to_be_visible(timeout=10_000)
    scores = page.locator(".ks-side .total")
    expect(scores).to_have_text([str(t) for t in totals])
    expect(page.locator(".ks-count tfoot td")).to_have_text([str(t) for t in totals])   # all from this deal
    expect(page.get_by_text("Anna deals next.")).to_be_visible()
