"""Every decision of a deal on the first screen (issue 26): a whole deal of each game — the trick
games, the fishing games (Kasino, Dragkasino, Mulle), Muggins and the score pad — tapped through on
a 390×664 CSS px phone (and on a 320 px one where it fits), and after every tap the controls of the
decision of the moment (`#decision`) and what lies on the table (`#table-cards`) are inside the
viewport, above the status bar pinned to the bottom, with the page never scrolled (window.scrollY
stays 0: the test scrolls nothing, and Playwright scrolls only to reach a control off the screen).

All the misses of a deal are collected and reported together, each with the step it happened at."""

from __future__ import annotations

import json
import os
import re
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, Playwright, expect

from tests.browser.conftest import NO_WORKER
from tests.browser.test_muggins import DEALER_CHOICES

PHONE = {"width": 390, "height": 664}
NARROW = {"width": 320, "height": 664}
SHOTS = os.environ.get("FIRST_SCREEN_SHOTS")     # a folder: a screenshot of the screen at every miss     # the narrowest phones still sold (iPhone SE 1st gen: 320×568 + bars)

# Where a visible control of the decision, or the table cards, sit outside the first screen:
# above the top, below the status bar (#last-move, pinned to the bottom), or beyond the edges.
OFF_SCREEN = """(root, whole) => {
  const bar = document.getElementById('last-move');
  const floor = bar ? bar.getBoundingClientRect().top : innerHeight;
  const controls = whole ? [root]
    : [...root.querySelectorAll('button, label, select, summary, a.button, input:not([type=hidden])')];
  // checkVisibility: a closed <details> keeps boxes for its content (content-visibility: hidden).
  return controls.filter(el => el.checkVisibility({visibilityProperty: true})).map(el => {
    const r = el.getBoundingClientRect();
    return (r.top < 0 || r.bottom > floor + 0.5 || r.left < 0 || r.right > innerWidth + 0.5)
      ? `${(el.getAttribute('aria-label') || el.textContent || el.id).trim().replace(/\\s+/g, ' ').slice(0, 40)}`
        + ` at y ${Math.round(r.top)}–${Math.round(r.bottom)} (floor ${Math.round(floor)})` : null;
  }).filter(Boolean);
}"""

# A visible control smaller than a fingertip (44×44 CSS px): Muggins' whole-pack grid drew cells
# 26 px wide at 390 px (issue 40), where a finger covers two cards.
THUMB = """root => [...root.querySelectorAll('button, a.button, summary, label[data-card], label[data-rank], label.choice')]
  .filter(el => el.checkVisibility({visibilityProperty: true})).map(el => [el, el.getBoundingClientRect()])
  .filter(([, r]) => r.width < 43.5 || r.height < 43.5)
  .map(([el, r]) => `${el.dataset.card || el.dataset.rank || (el.getAttribute('aria-label') || el.textContent).trim().slice(0, 30)}`
    + ` ${Math.round(r.width)}×${Math.round(r.height)}`)"""


# All that `look` reads, in one call once htmx is done (null until then, so wait_for_function polls
# again): a round trip for each check made a deal's taps half again as slow. A scrolled page is
# put back at the top first, so the step is judged on its own.
LOOK = f"""([decisionSel, table, thumbSel]) => {{
  if (document.querySelector('.htmx-request')) return null;
  const offScreen = {OFF_SCREEN}, thumb = {THUMB};
  const decisions = document.querySelectorAll(decisionSel);
  const seen = {{decisions: decisions.length, scrolled: scrollY, off: [], cards: null, cardsOff: [],
                thumbs: null, small: []}};
  if (decisions.length !== 1) return seen;
  if (scrollY) scrollTo(0, 0);
  seen.off = offScreen(decisions[0], false);
  if (table) {{
    const cards = document.querySelectorAll('#table-cards');
    seen.cards = cards.length;
    if (cards.length === 1) seen.cardsOff = offScreen(cards[0], true);
  }}
  if (thumbSel) {{
    const roots = document.querySelectorAll(thumbSel);
    seen.thumbs = roots.length;
    if (roots.length === 1) seen.small = thumb(roots[0]);
  }}
  return seen;
}}"""


# Before a tap, in one call (three round trips made a deal's taps a fifth slower): htmx done and
# the control visible, waited for frame by frame as Playwright would, then where it lies; null if a
# swap took the element away meanwhile (the locator is resolved again).
READY_TO_TAP = f"""el => new Promise((resolve, reject) => {{
  const offScreen = {OFF_SCREEN}, until = performance.now() + 30000;
  const poll = () => {{
    const busy = document.querySelector('.htmx-request');
    if (!busy && !el.isConnected) resolve(null);
    else if (!busy && el.checkVisibility({{visibilityProperty: true}})) resolve(offScreen(el, true));
    else if (performance.now() > until) reject(new Error('htmx still busy, or the control hidden, after 30 s'));
    else requestAnimationFrame(poll);
  }};
  poll();
}})"""


class Phone:
    """One phone at the table: taps only what it sees, and notes every miss of the first screen."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.misses: list[str] = []
        self.step = "opened"
        self.decision = "#decision"      # what holds the controls of the decision of the moment
        self.thumb = ""                  # where every control must be a thumb wide (THUMB), if anywhere

    def quiet(self) -> None:
        self.page.wait_for_function("() => !document.querySelector('.htmx-request')")

    def look(self, table: bool = True) -> None:
        """The decision of the moment and the table cards are on the first screen, unscrolled."""
        seen = self.page.wait_for_function(LOOK, arg=[self.decision, table, self.thumb]).json_value()
        if seen["decisions"] != 1:
            self.misses.append(f"{self.step}: {seen['decisions']} {self.decision}")
            return
        before = len(self.misses)
        if seen["scrolled"]:
            self.misses.append(f"{self.step}: the page is scrolled to {seen['scrolled']}")
        self.misses += [f"{self.step}: {where}" for where in seen["off"]]
        if table and seen["cards"] != 1:
            self.misses.append(f"{self.step}: no #table-cards")
        self.misses += [f"{self.step}: table cards {where}" for where in seen["cardsOff"]]
        assert seen["thumbs"] in (None, 1), f"{self.step}: {seen['thumbs']} {self.thumb}"
        self.misses += [f"{self.step}: smaller than a thumb: {small}" for small in seen["small"]]
        if len(self.misses) > before:
            self.shoot()

    def shoot(self) -> None:
        if SHOTS:
            os.makedirs(SHOTS, exist_ok=True)
            slug = re.sub(r"[^\w.-]+", "_", self.step)[:60]
            self.page.screenshot(path=f"{SHOTS}/{len(self.misses):03d}-{slug}.png")

    def tap(self, target: Locator, step: str, table: bool = True) -> None:
        self.step = step
        target = target.first
        off = None
        for _ in range(5):
            off = target.evaluate(READY_TO_TAP)
            if off is not None:
                break
        assert off is not None, f"{step}: the control was swapped away five times"
        if off:
            self.misses.append(f"{step}: the control tapped is off the screen: {off[0]}")
            self.shoot()
        target.click()
        self.look(table)

    def button(self, label: str, table: bool = True) -> None:
        self.tap(self.page.get_by_role("button", name=label, exact=True), label, table)

    def card(self, code: str, name: str = "card", table: bool = True) -> None:
        """A card of a picker or a tap grid (one tap plays it), or of a chooser: its rank, then its suit."""
        rank = self.page.locator(f"{self.decision} [data-rank='{code[:-1]}']")
        if rank.count():
            self.tap(rank, f"the rank of {code}", table)
        grid = self.page.locator(f"{self.decision} [data-card='{code}']:is(button, label:has(> input[name='{name}']))")
        self.tap(grid, f"the card {code}", table)

    def done(self) -> None:
        assert not self.misses, "off the first screen:\n" + "\n".join(self.misses)


@pytest.fixture
def phones(browser: Browser, playwright: Playwright) -> Iterator[Callable[..., Phone]]:
    """Phones of a given viewport and language."""
    contexts = []

    def make(viewport: dict[str, int] = PHONE, locale: str = "en-GB") -> Phone:
        contexts.append(browser.new_context(**{**playwright.devices["Pixel 7"], "viewport": viewport},
                                            locale=locale, reduced_motion="reduce", **NO_WORKER))
        return Phone(contexts[-1].new_page())

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def phone(phones: Callable[..., Phone]) -> Phone:
    return phones()


def api(base: str, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    with urllib.request.urlopen(urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                                       headers=headers)) as response:
        return json.load(response)


def open_table(phone: Phone, base: str, game: str, names: list[str]) -> None:
    page = phone.page
    page.goto(base + "/")
    page.locator(f"input[name=game][value={game}]").check()
    for i, name in enumerate(names):
        page.locator(f"#player{i}").fill(name)
    page.get_by_role("button", name="Open the table").click()       # the opener sits as Anna at once
    expect(page.get_by_text("You are Anna")).to_be_visible()
    page.wait_for_function(
        "() => document.querySelector('[sse-connect]')?.['htmx-internal-data']?.sseEventSource?.readyState === 1")
    # A new table opens on its invite (seats are free); one tap at the top folds it away.
    phone.tap(page.locator("#invite > summary"), "fold the invite", table=False)


def reopen(phone: Phone, table: bool = True) -> None:
    """Opening the page in the middle of the deal shows the decision too."""
    phone.page.reload()
    phone.step = f"{phone.step}, page opened again"
    phone.look(table)


@pytest.mark.parametrize("viewport", [PHONE, NARROW], ids=["390", "320"])
def test_mousel_three_players_a_whole_deal_on_the_first_screen(phones: Callable[..., Phone], live_server: str,
                                                               viewport: dict[str, int]) -> None:
    phone = phones(viewport)
    open_table(phone, live_server, "mousel", ["Anna", "Bo", "Cleo"])
    phone.look(table=False)
    phone.button("Anna deals")
    phone.card("8C")
    reopen(phone)
    phone.button("Not blind: offer it round")
    phone.button("Bo refuses")
    phone.button("Cleo takes it")
    phone.button("Cleo exchanges 1 card")
    phone.button("Bo folds")
    reopen(phone)
    phone.button("Anna exchanges 2 cards")
    phone.button("Done: Cleo leads")
    for code in ("AC", "7C", "KC", "9H", "QC"):
        phone.card(code)
        expect(phone.page.locator("#table-cards [data-card]").last).to_have_attribute("data-card", code)
    reopen(phone)
    phone.card("10H", table=False)                       # the deal is over: the next one is up
    expect(phone.page.locator(".ms-turn")).to_have_text("Deal 2: Bo deals")
    phone.done()


@pytest.mark.parametrize("viewport", [PHONE, NARROW], ids=["390", "320"])
def test_mulatschak_four_players_a_whole_deal_on_the_first_screen(phones: Callable[..., Phone], live_server: str,
                                                                  viewport: dict[str, int]) -> None:
    phone = phones(viewport)
    open_table(phone, live_server, "mulatschak", ["Anna", "Bo", "Cleo", "Dora"])
    phone.look(table=False)
    phone.button("✂ Dora cuts")
    phone.button("Bo bids 2")
    reopen(phone)
    phone.button("Cleo: weiter (pass)")
    phone.button("Dora: weiter (pass)")
    phone.button("Anna: weiter (pass)")
    phone.button("Laub")
    phone.button("Cleo plays along")
    reopen(phone)
    phone.button("daheim bleiben (stay home)")
    phone.button("Anna plays along")
    phone.button("Bo swaps 1 card")
    phone.button("Cleo keeps all five")
    phone.button("Anna swaps 2 cards")
    tricks = [("AL", "7L", "8L"), ("KL", "9L", "10L"), ("AH", "KH", "7H"), ("7E", "AE", "8E"), ("AS", "7S", "8S")]
    for number, trick in enumerate(tricks, start=1):
        for code in trick:
            last = (number, code) == (5, trick[-1])
            phone.card(code, table=not last)
            if not last:
                expect(phone.page.locator("#table-cards [data-card]").last).to_have_attribute("data-card", code)
        if number == 2:
            reopen(phone)
    expect(phone.page.locator(".mu-turn")).to_have_text("Anna cuts or knocks")
    phone.done()


@pytest.mark.parametrize("viewport", [PHONE, NARROW], ids=["390", "320"])
def test_muggins_turns_on_the_first_screen(phones: Callable[..., Phone], live_server: str,
                                           viewport: dict[str, int]) -> None:
    phone = phones(viewport)
    open_table(phone, live_server, "muggins", ["Anna", "Bo", "Cleo"])
    phone.look(table=False)
    for code in ("5H", "9C", "KD", "2S"):
        phone.card(code, "pick", table=False)
    phone.tap(phone.page.get_by_label("Cleo", exact=True), "Cleo deals", table=False)
    phone.button("Start the game")
    for code, pile in (("4H", "Put the 4♥ on muggins pile 1, on the 5♥"), ("7C", "Put the 7♣ on Anna's own pile"),
                       ("6D", "Put the 6♦ on Anna's pile, on the 7♣"), ("3S", "Put the 3♠ on muggins pile 1, on the 4♥")):
        reopen(phone)
        phone.card(code)
        phone.button(pile)
    expect(phone.page.locator("#table-cards [data-card='3S']")).to_have_count(1)
    phone.done()


# How many muggins piles each number of players lays out (MUGGINS-DEAL-1).
MUGGINS_PILES = {3: 4, 4: 4, 5: 2, 6: 4, 7: 3}


# Three to four players at both widths; five to seven in pairs: each number of players in each
# language, and each at both widths, as each language is (9 cases of the 18, the narrow width
# twice as often: it is the tighter one). All 18 were seen failing on the old seats, and passing.
_MANY = [("en-GB", 5, PHONE), ("sv-SE", 5, NARROW), ("de-DE", 5, NARROW),
         ("en-GB", 6, NARROW), ("sv-SE", 6, PHONE), ("de-DE", 6, NARROW),
         ("en-GB", 7, NARROW), ("sv-SE", 7, NARROW), ("de-DE", 7, PHONE)]


@pytest.mark.parametrize(("locale", "players", "viewport"),
                         [(locale, players, viewport) for locale, players in (("en-GB", 3), ("sv-SE", 3), ("de-DE", 4))
                          for viewport in (PHONE, NARROW)] + _MANY,
                         ids=lambda v: str(v["width"]) if isinstance(v, dict) else str(v))
def test_muggins_cards_are_a_thumb_wide_on_the_first_screen(phones: Callable[..., Phone], live_server: str,
                                                            viewport: dict[str, int], locale: str, players: int) -> None:
    """Issue 40, item 6: every control of Muggins' play area (a rank, a suit, a pile, a card taken
    back, a dealer) at least 44×44 CSS px, at every step of the set-up and of a turn, and each
    decision still on the first screen — with four players too (their fourth seat on a row of its
    own pushed the suits under the status bar), and five to seven (two rows of seats, whose card
    counts in words, three or four lines a seat, pushed the ranks under the status bar)."""
    phone = phones(viewport, locale)
    names = ["Anna", "Bo", "Cleo", "Dora", "Egon", "Frida", "Gustav"][:players]
    _sit(phone, live_server, "muggins", {}, names, decision="#decision")
    page = phone.page
    phone.thumb = ".mg"
    phone.step = "the set-up"
    phone.look(table=False)
    picks = ("5H", "9C", "KD", "2S")[:MUGGINS_PILES[players]]
    for code in picks:
        phone.card(code, "pick", table=False)
    phone.tap(page.locator("#decision .mg-chosen a.button").last, f"take back {picks[-1]}", table=False)
    phone.card(picks[-1], "pick", table=False)
    expect(page.locator("#decision .mg-chosen .cardface:not(.mg-empty)")).to_have_count(len(picks))
    assert page.evaluate(DEALER_CHOICES) == [], f"{locale} {viewport['width']} px: who deals"
    dealer = f"#decision label.choice:has(> input[name='dealer:int'][value='{players - 1}'])"
    phone.tap(page.locator(dealer).last, f"{names[-1]} deals", table=False)     # so Anna starts
    phone.tap(page.locator("#decision button[type=submit]"), "start the game")
    # Anna's 4 on the 5♥, her 7 on her own pile (her turn ends), Bo's 6 on Anna's 7, his 3 on the 4.
    for code, pile in (("4H", "[data-card='5H']"), ("7C", ":is(.acting *)"), ("6D", "[data-card='7C']"),
                       ("3S", "[data-card='4H']")):
        phone.card(code)
        phone.tap(page.locator(f"#decision button.mg-pile{pile}"), f"{code} on {pile}")
    expect(page.locator("#table-cards [data-card='3S']")).to_have_count(1)
    phone.done()


@pytest.mark.parametrize("viewport", [PHONE, NARROW], ids=["390", "320"])
def test_score_pad_entries_on_the_first_screen(phones: Callable[..., Phone], live_server: str,
                                               viewport: dict[str, int]) -> None:
    phone = phones(viewport)
    open_table(phone, live_server, "scorepad", ["Anna", "Bo", "Cleo", "Dora"])
    phone.look(table=False)
    for name in ("Anna", "Bo", "Cleo", "Dora"):
        phone.button(f"+5 points for {name}", table=False)
    page = phone.page
    for name, points in (("Dora", "12"), ("Anna", "3")):
        field = page.get_by_role("spinbutton", name=f"Points for {name}")
        phone.tap(field, f"points for {name}", table=False)
        field.fill(points)
        phone.tap(field.locator("xpath=following-sibling::button"), f"add for {name}", table=False)
    expect(page.locator(".side .total")).to_have_text(["8", "5", "5", "17"])
    phone.done()


# A placeholder is drawn inside the field's content box and clipped at its edge, where no layout
# check sees it (it lives in the browser's own shadow tree): measured with the field's own font.
PLACEHOLDER_CUT = """root => [...root.querySelectorAll('input[placeholder]')]
  .filter(el => el.checkVisibility() && el.placeholder).map(el => {
    const s = getComputedStyle(el);
    const pen = document.createElement('canvas').getContext('2d');
    pen.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
    const room = el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
    const need = pen.measureText(el.placeholder).width;
    return need > room + 0.5 ? `"${el.placeholder}" needs ${Math.ceil(need)} px in ${Math.floor(room)}` : null;
  }).filter(Boolean)"""


@pytest.mark.parametrize("viewport", [PHONE, NARROW], ids=["390", "320"])
@pytest.mark.parametrize("locale", ["en-GB", "sv-SE", "de-DE"])
def test_the_score_pads_fields_show_their_whole_placeholder(phones: Callable[..., Phone], live_server: str,
                                                            viewport: dict[str, int], locale: str) -> None:
    """The note field read "Noti…" in German at 320 px: a player saw no word, only its stump."""
    phone = phones(viewport, locale)
    _sit(phone, live_server, "scorepad", {}, ["Anna", "Bo", "Cleo", "Dora"], decision="#decision")
    decision = phone.page.locator("#decision")
    expect(decision.locator("input[name=note]")).to_have_count(4)
    assert decision.evaluate(PLACEHOLDER_CUT) == []


def test_the_deal_form_on_one_screen(phone: Phone, live_server: str) -> None:
    """Issue 26, item 4: a deal's four table cards chosen rank, then suit, without a scroll."""
    phone.decision = "form.deal"
    open_table(phone, live_server, "mulle", ["Anna", "Bo"])
    page = phone.page
    for code in ("3H", "5S", "8D", "8S"):
        phone.card(code, "table:list", table=False)
    expect(page.locator("form.deal input[name='table:list']:checked")).to_have_count(4)   # kept across ranks
    expect(page.locator("form.deal .rank[data-rank='8']")).to_have_css("font-weight", "800")  # marked: chosen
    phone.decision = "#composer"                                              # next: the first move
    phone.tap(page.get_by_role("button", name="Start the deal"), "start the deal")
    expect(page.get_by_text("Bo to play", exact=True)).to_be_visible()                  # Anna dealt
    expect(page.locator("#table-cards [data-card]")).to_have_count(4)
    phone.done()


def test_dragkasinos_drawn_card_on_one_screen(phone: Phone, live_server: str) -> None:
    """Issue 26, item 4: the card drawn from the stock chosen rank, then suit, where the phone shows it."""
    table = api(live_server, "/api/v1/tables", {"game": "kasino", "players": ["Anna", "Bo"], "options": {"variant": "drag"}})
    api(live_server, f"/api/v1/tables/{table['id']}/events", {"type": "deal", "dealer": 1, "table": ["3H", "5S", "8D", "KC"]},
        table["write_token"])
    page = phone.page
    page.goto(table["join_url"])
    page.get_by_role("button", name="Anna", exact=True).click()
    expect(page.get_by_text("Your turn, Anna!")).to_be_visible()
    if page.locator("#invite[open]").count():
        phone.tap(page.locator("#invite > summary"), "fold the invite", table=False)
    phone.decision = "#card-chooser"
    phone.card("2H", table=False)
    phone.decision = "#draw-chooser"
    phone.tap(page.locator(".ks-drawn > summary"), "open the drawn card", table=False)
    phone.card("7C", "draw", table=False)
    phone.done()
    page.locator("#confirm-move").click()
    expect(page.locator("#last-move")).to_contain_text("Anna plays 2♥ (trail) and draws")


# --- The fishing games (Kasino, Dragkasino, Mulle): the deal form, then every move of the deal ----

def _first_deal(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The simulated game's first deal: its deal event and the plays up to the next deal."""
    deal = [events[0]]
    for event in events[1:]:
        if event["type"] == "deal":
            break
        deal.append(event)
    assert {e["type"] for e in deal} == {"deal", "play"}
    return deal


def _sit(phone: Phone, base: str, game: str, options: dict[str, Any], names: list[str],
         decision: str = "form.deal", mode: str = "adjudicate", look: bool = True) -> tuple[str, str]:
    """A table made by another phone (the API); this one follows its join link and sits as the first.
    ``look=False``: the invite is folded without looking at the decision (a long form, judged by
    its top alone: ``_start``)."""
    table = api(base, "/api/v1/tables", {"game": game, "players": names, "options": options, "mode": mode})
    page = phone.page
    page.goto(table["join_url"])
    page.get_by_role("button", name=names[0], exact=True).click()
    expect(page.locator(".table-head .meta")).to_contain_text(names[0])
    page.wait_for_function(
        "() => document.querySelector('[sse-connect]')?.['htmx-internal-data']?.sseEventSource?.readyState === 1")
    phone.decision = decision
    if page.locator("#invite[open]").count():
        if look:
            phone.tap(page.locator("#invite > summary"), "fold the invite", table=False)
        else:
            page.locator("#invite > summary").click()
    return table["id"], table["write_token"]


def _deal_form(phone: Phone, deal: dict[str, Any]) -> None:
    """A deal entered on the phone: the dealer (when asked), the table cards, Start."""
    page = phone.page
    phone.decision = "form.deal"
    phone.step = "the deal form"
    phone.look(table=False)
    dealer = page.locator("form.deal select[name='dealer:int']")
    if dealer.count():
        off = dealer.evaluate(OFF_SCREEN, True)
        if off:
            phone.misses.append(f"the dealer: off the screen: {off[0]}")
        dealer.select_option(str(deal["dealer"]))
    for code in deal["table"]:
        phone.card(code, "table:list", table=False)
    phone.decision = "#composer"
    phone.tap(page.locator("form.deal button[type=submit]"), "start the deal")


def _move(phone: Phone, event: dict[str, Any], last: bool = False) -> None:
    """One play entered on the phone: the card played (rank, suit), the table cards it takes, the
    card drawn (Dragkasino), Confirm."""
    page = phone.page
    phone.decision = "#composer"
    phone.card(event["card"])
    seen: Counter[str] = Counter()
    for code in event["capture"]:        # two packs (Mulle): the second 8♦ is the second on the table
        phone.tap(page.locator(f"#table-cards [data-card='{code}']").nth(seen[code]), f"take {code}")
        seen[code] += 1
    if event.get("draw"):
        phone.decision = "#draw-chooser"
        if not page.locator(".ks-drawn[open]").count():
            phone.tap(page.locator(".ks-drawn > summary"), f"open the card drawn ({event['draw']})", table=False)
        phone.card(event["draw"], "draw", table=False)
        phone.decision = "#composer"
    phone.quiet()
    bad = page.locator("#composer .preview.bad")
    assert not bad.count(), f"{event}: {bad.inner_text()}"
    if last:
        phone.decision = "form.deal"          # the deal is over: the next one is to be dealt
    phone.tap(page.locator("#confirm-move"), f"confirm {event['card']} takes {event['capture']}", table=not last)
    if event.get("draw"):
        expect(page.locator("#last-move")).to_contain_text("draws")   # the card drawn was entered


def _play_through(phone: Phone, base: str, table_id: str, token: str, plays: list[dict[str, Any]],
                  by_phone: Callable[[int], bool]) -> None:
    """The plays in order: those `by_phone` picks tapped on the phone, the others sent by another
    phone through the API (the page follows them live); the last one leaves the next deal's form."""
    for n, event in enumerate(plays):
        if by_phone(n):
            phone.step = f"move {n + 1}"
            _move(phone, event, last=n + 1 == len(plays))
        else:
            api(base, f"/api/v1/tables/{table_id}/events", event, token)
            if n + 1 < len(plays) and by_phone(n + 1):
                reopen(phone)              # opening the page mid-deal shows the move to make
    phone.decision = "form.deal"
    phone.step = "the deal is over"
    expect(phone.page.locator("form.deal")).to_be_visible()
    phone.look(table=False)


@pytest.mark.parametrize("viewport", [PHONE, NARROW], ids=["390", "320"])
@pytest.mark.parametrize("variant", ["kasino", "drag"])
def test_a_whole_kasino_deal_on_the_first_screen(phones: Callable[..., Phone], live_server: str,
                                                 viewport: dict[str, int], variant: str) -> None:
    """Issue 26: the deal form on opening the page, then every move of a whole deal (48 cards
    played; Dragkasino's drawn cards too), and the next deal's form, with no scroll."""
    from tests.scenes import _kasino

    options = {"variant": variant} if variant != "kasino" else {}
    deal = _first_deal(_kasino(2, options, 13))
    phone = phones(viewport)
    table_id, token = _sit(phone, live_server, "kasino", options, ["Anna", "Bo"])
    _deal_form(phone, deal[0])
    phone.look()
    _play_through(phone, live_server, table_id, token, deal[1:], lambda n: True)
    phone.done()


@pytest.mark.parametrize("viewport", [PHONE, NARROW], ids=["390", "320"])
def test_mulle_a_deal_on_the_first_screen(phones: Callable[..., Phone], live_server: str,
                                          viewport: dict[str, int]) -> None:
    """Mulle's deal is 100 cards: the phone enters the deal and the first 16 plays and the last 4,
    another phone the rest; the page is opened again in between."""
    from tests.scenes import _mulle

    deal = _first_deal(_mulle(2, {}, 3, 1))
    plays = deal[1:]
    phone = phones(viewport)
    table_id, token = _sit(phone, live_server, "mulle", {}, ["Anna", "Bo"])
    _deal_form(phone, deal[0])
    phone.look()
    _play_through(phone, live_server, table_id, token, plays, lambda n: n < 16 or n >= len(plays) - 4)
    phone.done()


@pytest.mark.parametrize("locale", ["sv-SE", "de-DE"])
def test_mulatschak_cut_or_knock_in_swedish_and_german_at_320(phones: Callable[..., Phone], live_server: str,
                                                              locale: str) -> None:
    """The longest words of the first decision (Swedish "knackar", German "klopft") at 320 px: who
    deals, the Weli, cut and knock on the first screen; then the bids."""
    phone = phones(NARROW, locale)
    _sit(phone, live_server, "mulatschak", {}, ["Anna", "Bo", "Cleo", "Dora"], decision="#decision")
    phone.step = "opened"
    phone.look(table=False)
    expect(phone.page.locator("#decision button[name=type][value=knock]")).to_be_visible()
    phone.tap(phone.page.locator("#decision button[name=type][value=cut]"), "cut")
    expect(phone.page.locator("#decision .mu-bid button.mu-pass")).to_be_visible()
    reopen(phone)
    phone.done()


# --- Tally modes, and Mousel's revoke review -------------------------------------------------------

def _start(phone: Phone, decision: str) -> None:
    """A long form (a deal's facts in tally mode) starts on the first screen: nothing above it but
    the headers, its first controls in view unscrolled. (It is filled top to bottom like any form;
    only its top must need no scroll.)"""
    page = phone.page
    phone.quiet()
    form = page.locator(decision)
    assert form.count() == 1, f"{phone.step}: {form.count()} {decision}"
    first = form.locator("button, label, select, input:not([type=hidden])").first
    for where in first.evaluate(OFF_SCREEN, True):
        phone.misses.append(f"{phone.step}: the form's first control {where}")
    if page.evaluate("scrollY"):
        phone.misses.append(f"{phone.step}: the page is scrolled")


@pytest.mark.parametrize("viewport", [PHONE, NARROW], ids=["390", "320"])
def test_mulle_tally_pegs_on_the_first_screen(phones: Callable[..., Phone], live_server: str,
                                              viewport: dict[str, int]) -> None:
    """Mulle's tally mode: every pegging button of both sides and the deal's button in view, after
    every peg too."""
    phone = phones(viewport)
    _sit(phone, live_server, "mulle", {}, ["Anna", "Bo"], decision="#decision", mode="tally")
    page = phone.page
    phone.step = "opened"
    phone.look(table=False)
    phone.tap(page.locator("#decision .ml-newdeal button[type=submit]"), "mark the first deal", table=False)
    for side, what in ((1, "mulle"), (0, "ace"), (1, "ten_of_diamonds"), (0, "tabbe")):
        phone.tap(page.locator(f"#decision form.t{side} button[value={what}]"), f"side {side}: {what}", table=False)
    reopen(phone, table=False)
    expect(page.locator("#last-move")).to_contain_text("Anna")
    phone.done()


@pytest.mark.parametrize("game, players", [("kasino", 3), ("mousel", 4), ("mulatschak", 3), ("muggins", 4)])
@pytest.mark.parametrize("viewport", [PHONE, NARROW], ids=["390", "320"])
def test_a_tally_form_starts_on_the_first_screen(phones: Callable[..., Phone], live_server: str,
                                                 viewport: dict[str, int], game: str, players: int) -> None:
    """Every other game's tally mode: the deal's form (Muggins: who won) comes first, unscrolled."""
    phone = phones(viewport)
    _sit(phone, live_server, game, {}, ["Anna", "Bo", "Cleo", "Dora"][:players], decision="#decision", mode="tally",
         look=False)
    phone.step = "opened"
    if game == "muggins":
        phone.look(table=False)                         # a few buttons: all of them in view
    else:
        _start(phone, "#decision")
    phone.done()


def test_mousels_revoke_review_on_the_first_screen(phones: Callable[..., Phone], live_server: str) -> None:
    """All tricks played and a revoke to check: the evidence's Confirm and Dismiss are the decision
    of the moment, on the first screen (they were under the deal, "see below")."""
    phone = phones(PHONE)
    table_id, token = _sit(phone, live_server, "mousel", {}, ["Anna", "Bo"], decision="#decision")
    plays = [(0, "7S"), (1, "8D"), (0, "AC"), (1, "9S")]
    for event in [{"type": "deal", "dealer": 0}, {"type": "turn_up", "card": "7H"}, {"type": "take", "player": 0},
                  {"type": "exchange", "player": 0, "count": 0}, {"type": "exchange", "player": 1, "count": 0},
                  {"type": "discard", "player": 0}, *({"type": "play", "player": p, "card": c} for p, c in plays)]:
        api(live_server, f"/api/v1/tables/{table_id}/events", event, token)
    page = phone.page
    phone.decision = ".ms-revokes"
    reopen(phone, table=False)
    expect(page.locator(".ms-revokes button[value=confirm]")).to_be_visible()
    phone.decision = "#decision"                   # then the next deal's button
    phone.tap(page.locator(".ms-revokes button[value=confirm]"), "confirm the revoke", table=False)
    expect(page.locator(".ms-revokes button[value=confirm]")).to_have_count(0)
    phone.done()
