"""Hostile names in a real browser (issue 17): every game's table page, the sheet fragment the event
stream brings, the history and the list of one's tables, on a 390×664 phone. Names carrying
``<script>``, ``"><img onerror>``, a bidi override, zero-width characters and 40 characters without
a space stay inert text and never push the page sideways."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.conftest import NO_WORKER
from tests.browser.spills import SPILLS

SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(2)>'
LONG = "Wolfeschlegelsteinhausenbergerdorffsmith"  # 40 letters, no place to break
WIDE = "W" * 40
RTL = "\u202eSara\u202c שרה"  # a right-to-left override, then Hebrew
ZERO_WIDTH = "Bo\u200b\u200bZ\u2060"
NAMES = [SCRIPT, IMG, LONG, RTL, ZERO_WIDTH, WIDE]
SHOWN = {RTL: "Sara שרה", ZERO_WIDTH: "BoZ"}  # the formatting characters are dropped when the table opens

# a legal first move per game, so the event stream brings a fresh sheet
GAMES: dict[str, tuple[int, dict[str, Any]]] = {
    "scorepad": (6, {"type": "points", "side": 2, "points": 5}),
    "mulle": (4, {"type": "deal", "dealer": 1, "table": ["5D", "9C", "4H", "AS"]}),
    "kasino": (4, {"type": "deal", "dealer": 0, "table": ["5D", "9S", "KH", "AC"]}),
    "mulatschak": (4, {"type": "dealer", "player": 1}),
    "mousel": (4, {"type": "deal", "dealer": 0}),
    "muggins": (4, {"type": "setup", "muggins": ["5H", "9C", "KD", "2S"], "dealer": 2}),
}

CHECK = """() => {
  const root = document.documentElement;
  const width = root.clientWidth;
  // text, not boxes: a word too long for its box spills out of it without widening the box
  const cut = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.textContent.trim() || node.parentElement.closest('.sr-only, .skip')) continue;  // off-screen on purpose
    const range = document.createRange();
    range.selectNodeContents(node);
    // a box that clips (ellipsis, an SVG's edge) keeps what it hides inside the page
    let right = Infinity, left = -Infinity;
    for (let el = node.parentElement; el && el !== document.body; el = el.parentElement) {
      if (getComputedStyle(el).overflowX !== 'visible') {
        const box = el.getBoundingClientRect();
        right = Math.min(right, box.right);
        left = Math.max(left, box.left);
      }
    }
    if ([...range.getClientRects()].some(r => r.width > 0 && (Math.min(r.right, right) > width + 1
                                                              || Math.max(r.left, left) < -1))) {
      cut.push(node.parentElement.tagName + '.' + node.parentElement.className + ': ' + node.textContent.trim().slice(0, 40));
    }
  }
  // a control's own words inside it: a name past its radio's label runs into the next one
  const spill = SPILLS('.sr-only, .skip').map(el => el.tagName + '.' + el.className + ': ' + el.textContent.trim().slice(0, 40));
  return {
    scrollWidth: Math.max(root.scrollWidth, document.body.scrollWidth), width,
    cut: cut.slice(0, 5), spill: spill.slice(0, 5),
    injected: document.querySelectorAll('img[src="x"], script:not([src])').length,
    text: document.body.innerText,
    // overrides and embeddings reorder what follows them; the page's own isolates (FSI…PDI around
    // a right-to-left name) are the safe way and must come in pairs
    bidiControls: /[\\u202a-\\u202e\\u2066\\u2067]/.test(document.body.innerText),
    isolatesOpen: (document.body.innerText.match(/\\u2068/g) || []).length,
    isolatesClosed: (document.body.innerText.match(/\\u2069/g) || []).length,
  };
}"""

CHECK = CHECK.replace("SPILLS", SPILLS)


def phone(browser: Browser) -> tuple[Page, list[str]]:
    context = browser.new_context(viewport={"width": 390, "height": 664}, is_mobile=True, has_touch=True,
                                  device_scale_factor=2, locale="en-GB", **NO_WORKER)
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    return page, dialogs


def holds(page: Page, dialogs: list[str], names: list[str], where: str) -> None:
    seen = page.evaluate(CHECK)
    assert dialogs == [], (where, dialogs)
    assert seen["injected"] == 0, where
    assert not seen["bidiControls"], where
    assert seen["isolatesOpen"] == seen["isolatesClosed"], where
    for name in names:
        assert SHOWN.get(name, name) in seen["text"], (where, name)
    assert seen["scrollWidth"] <= seen["width"], (where, seen["scrollWidth"], seen["cut"])
    assert seen["cut"] == [], (where, seen["cut"])
    assert seen["spill"] == [], (where, seen["spill"])


def post_json(url: str, body: dict, token: str) -> dict:
    request = urllib.request.Request(url, json.dumps(body).encode(),
                                     {"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


@pytest.mark.parametrize("game", list(GAMES))
def test_hostile_names_stay_text_and_fit_the_phone(browser: Browser, live_app, game: str) -> None:
    base, app = live_app
    players, first_move = GAMES[game]
    names = NAMES[:players]
    api = app.test_client()
    table = api.post("/api/v1/tables", json={"game": game, "players": names}).json
    assert "id" in table, table

    page, dialogs = phone(browser)
    page.goto(f"{base}/t/{table['id']}/k/{table['write_token']}")
    holds(page, dialogs, names, f"{game}: seat picker")
    page.locator("form.seat-buttons button").first.click()
    page.wait_for_selector("#sheet")
    holds(page, dialogs, [], f"{game}: sheet")
    page.wait_for_function("() => document.querySelector('[sse-connect]')?.['htmx-internal-data']"
                           "?.sseEventSource?.readyState === 1")

    with page.expect_response(lambda r: f"/t/{table['id']}/sheet" in r.url):
        # Through the server, whose stream tells the phone (the local app's broker would not).
        moved = post_json(f"{base}/api/v1/tables/{table['id']}/events", first_move, table["write_token"])
        assert "seq" in moved, moved
    page.wait_for_selector("#sheet[data-seq='1']")
    holds(page, dialogs, [], f"{game}: sheet after the stream")

    page.goto(f"{base}/t/{table['id']}/history")
    holds(page, dialogs, [], f"{game}: history")
    page.goto(f"{base}/")
    holds(page, dialogs, names, f"{game}: your tables")
    page.context.close()


def test_a_refused_form_gives_hostile_names_back_as_values(browser: Browser, live_server: str) -> None:
    """The opening form, refused (a target that is not a number), shows the names typed back in
    their fields, as values, and names the bad field: nothing runs, nothing spills sideways."""
    page, dialogs = phone(browser)
    page.goto(live_server + "/")
    page.get_by_label("Score pad").check()
    names = [SCRIPT, IMG, LONG, WIDE]
    for i, name in enumerate(names):
        page.locator(f"#player{i}").fill(name)
    page.locator("input[name=opt_scorepad_target]").evaluate("el => { el.type = 'text'; el.value = '6x'; }")
    with page.expect_response(lambda r: r.url.endswith("/tables")) as answer:
        page.get_by_role("button", name="Open the table").click()
    assert answer.value.status == 400
    holds(page, dialogs, [], "refused opening form")
    assert [page.locator(f"#player{i}").input_value() for i in range(len(names))] == names


def _finished_kasino_deal() -> list[dict[str, Any]]:
    import random

    from tests.engine.test_kasino_playouts import Sim

    sim = Sim(4, {}, random.Random(7))
    sim.play_game()
    second = [i for i, e in enumerate(sim.events) if e["type"] == "deal"][1]
    return sim.events[:second]


def _ended_mousel_session() -> list[dict[str, Any]]:
    from tests.engine.test_mousel_playouts import simulate_session

    _, events = simulate_session(4, 3, {}, seed=5, mode="adjudicate")
    return [*events, {"type": "end_session"}] if events[-1]["type"] != "end_session" else events


@pytest.mark.parametrize("game, events", [("kasino", _finished_kasino_deal), ("mousel", _ended_mousel_session)])
def test_hostile_names_fit_the_end_of_a_deal(browser: Browser, live_app, game: str, events: Any) -> None:
    """The count at the end of a Kasino deal (names as column heads) and Mousel's settlements,
    chart and end-of-session split (names in chips): a 40-letter name once widened the page."""
    base, app = live_app
    names = [LONG, WIDE, SCRIPT, "Cecilia Maria Johansson"]
    table = app.test_client().post("/api/v1/tables/import", json={
        "format": "scorekeeper/1", "game": game, "mode": "adjudicate", "options": {}, "players": names,
        "events": [{"event": e} for e in events()]}).json  # the export's shape
    assert "id" in table, table
    page, dialogs = phone(browser)
    page.goto(f"{base}/t/{table['id']}/k/{table['write_token']}")
    page.locator("form.seat-buttons button").first.click()
    page.wait_for_selector(".ks-count" if game == "kasino" else ".ms-settle")
    holds(page, dialogs, [], f"{game}: the end of a deal")
    page.context.close()
