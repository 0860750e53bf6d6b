"""Muggins on a phone: a short scripted game with a muggins penalty, played by tapping cards and piles."""

from __future__ import annotations

import json
import urllib.request

import pytest
from playwright.sync_api import Browser, Page, Playwright, expect

from tests.browser.conftest import NO_WORKER


def fits_the_phone(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth"))


def tap_card(page: Page, name: str, code: str) -> None:
    """Tap a card in the chooser (the set-up's and the turn's alike): its rank, then its suit. The
    radio hides behind the face."""
    page.locator(f"#card-chooser [data-rank='{code[:-1]}']").click()
    page.locator(f"label:has(> input[name='{name}'][value='{code}'])").click()


def test_a_short_game_with_a_muggins_penalty(browser: Browser, live_server: str, playwright: Playwright) -> None:
    phone = playwright.devices["Pixel 7"]
    page = browser.new_context(**phone, locale="en-GB", reduced_motion="reduce", **NO_WORKER).new_page()
    page.goto(live_server + "/")
    page.locator("input[name=game][value=muggins]").check()
    for i, name in enumerate(["Anna", "Bo", "Cleo"]):
        page.locator(f"#player{i}").fill(name)
    page.get_by_role("button", name="Open the table").click()       # the opener sits as Anna at once
    expect(page.get_by_text("You are Anna")).to_be_visible()
    expect(page.get_by_text("Lay out the muggins cards")).to_be_visible()

    for n, code in enumerate(("5H", "9C", "KD", "2S"), start=1):  # each tap redraws the sheet
        tap_card(page, "pick", code)
        expect(page.locator(".mg-chosen .cardface:not(.mg-empty)")).to_have_count(n)
    page.get_by_label("Cleo", exact=True).check()
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_text("Your turn, Anna!")).to_be_visible()

    sound = page.locator("[data-mg-sound]")  # the app script shows the switch; it starts off
    expect(sound).to_have_attribute("aria-pressed", "false")
    sound.click()
    expect(sound).to_have_attribute("aria-pressed", "true")

    # Anna turns a 4 and puts it on the 5♥. No pile is marked (no coach on this table): the
    # recorder is not handed the answer.
    tap_card(page, "card", "4H")
    expect(page.get_by_text("Where did Anna put the 4♥? Tap that pile.")).to_be_visible()
    expect(page.locator("button.mg-pile.right")).to_have_count(0)
    expect(page.locator(".mg-here")).to_have_count(0)
    assert fits_the_phone(page)
    page.locator("button.mg-pile", has_text="Muggins pile 1").click()
    expect(page.get_by_text("Anna goes on: turn the next card.")).to_be_visible()

    # A 7 fits nowhere: her own pile, and Bo's turn.
    tap_card(page, "card", "7C")
    page.get_by_role("button", name="Put the 7♣ on Anna's own pile").click()
    expect(page.get_by_text("Bo's turn")).to_be_visible()

    # Bo turns a 6, which belongs on Anna's 7, but puts it on his own pile: Muggins!
    tap_card(page, "card", "6D")
    page.get_by_role("button", name="Put the 6♦ on Bo's own pile").click()
    banner = page.locator(".mg-call")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Muggins!")
    expect(banner).to_contain_text("Cleo and Anna each gave Bo a card: 2 cards go under Bo's draw pile.")
    expect(banner).to_contain_text("The 6♦ was moved to Anna's pile.")
    expect(banner.get_by_role("link", name="MUGGINS-PEN-2")).to_be_visible()
    expect(page.locator(".sheet > .scored")).to_be_hidden()  # the banner says it all
    expect(page.get_by_text("Bo holds 17 cards", exact=False)).to_have_count(1)
    expect(page.get_by_text("Cleo's turn")).to_be_visible()
    assert fits_the_phone(page)

    # Cleo turns a 3 onto the 4♥ and then they agree to stop: fewest cards wins.
    tap_card(page, "card", "3S")
    page.locator("button.mg-pile", has_text="Muggins pile 1").click()
    expect(page.locator(".mg-call")).to_have_count(0)
    page.get_by_text("Going round in circles?").click()
    page.get_by_role("button", name="Stop: fewest cards wins").click()
    expect(page.locator(".mg-won")).to_contain_text("Cleo wins!")
    expect(page.locator(".mg-won")).to_contain_text("1. Cleo · 14 cards")

    page.get_by_role("link", name="The whole game, move by move").click()
    expect(page.get_by_text("Bo turned 6♦ and put it on their own discard pile")).to_be_visible()


def test_set_up_and_a_turn_without_javascript(browser: Browser, live_server: str, playwright: Playwright) -> None:
    """Issue 40: the card chosen rank, then suit, on a phone with no script — the rank opens its
    suits by CSS alone, the form's own button sends the card, the pile's button posts the turn."""
    phone = {**playwright.devices["Pixel 7"], "viewport": {"width": 320, "height": 664}}
    page = browser.new_context(**phone, locale="en-GB", java_script_enabled=False).new_page()
    page.goto(live_server + "/")
    page.locator("input[name=game][value=muggins]").check()
    for i, name in enumerate(["Anna", "Bo", "Cleo"]):
        page.locator(f"#player{i}").fill(name)
    page.get_by_role("button", name="Open the table").click()
    expect(page.get_by_text("Lay out the muggins cards")).to_be_visible()
    for n, code in enumerate(("5H", "9C", "KD", "2S"), start=1):
        suit = page.locator(f"#card-chooser label[data-card='{code}']")
        expect(suit).to_be_hidden()
        page.locator(f"#card-chooser [data-rank='{code[:-1]}']").click()
        suit.click()
        page.get_by_role("button", name="Add").click()
        expect(page.locator(".mg-chosen .cardface:not(.mg-empty)")).to_have_count(n)
    page.get_by_label("Cleo", exact=True).check()
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_text("Your turn, Anna!")).to_be_visible()
    page.locator("#card-chooser [data-rank='4']").click()
    page.locator("#card-chooser label[data-card='4H']").click()
    page.get_by_role("button", name="Next: where did it go?").click()
    expect(page.get_by_text("Where did Anna put the 4♥? Tap that pile.")).to_be_visible()
    page.locator("button.mg-pile", has_text="Muggins pile 1").click()
    expect(page.get_by_text("Anna goes on: turn the next card.")).to_be_visible()
    expect(page.locator("#table-cards [data-card='4H']")).to_have_count(1)


# Each "Who deals?" name against its own choice: text past the label's box, two labels on each
# other, or a name broken inside a word that its own row had room for.
DEALER_CHOICES = """() => {
  const labels = [...document.querySelectorAll("#decision label.choice:has(> input[name='dealer:int'])")];
  const fieldset = labels[0].parentElement, row = fieldset.getBoundingClientRect(), pad = getComputedStyle(fieldset);
  const inner = fieldset.clientWidth - parseFloat(pad.paddingLeft) - parseFloat(pad.paddingRight);
  const boxes = labels.map(l => l.getBoundingClientRect());
  const wrong = [];
  labels.forEach((label, i) => {
    const name = label.textContent.trim(), box = boxes[i];
    const text = document.createRange();
    text.selectNodeContents(label);
    const lines = [...text.getClientRects()].filter(r => r.width > 0);
    if (lines.some(r => r.left < box.left - 0.5 || r.right > box.right + 0.5)) wrong.push(`${name}: text past its choice`);
    if (box.right > row.right + 0.5) wrong.push(`${name}: past the fieldset`);
    boxes.forEach((other, j) => {
      if (j > i && other.left < box.right - 0.5 && box.left < other.right - 0.5
          && other.top < box.bottom - 0.5 && box.top < other.bottom - 0.5) wrong.push(`${name} on ${labels[j].textContent.trim()}`);
    });
    const words = name.split(/\\s+/).length;
    const tops = new Set([...label.childNodes].filter(n => n.nodeType === 3 && n.textContent.trim()).flatMap(n => {
      const r = document.createRange(); r.selectNodeContents(n); return [...r.getClientRects()].map(x => Math.round(x.top));
    }));
    if (tops.size > words && box.width < inner - 1) wrong.push(`${name}: broken in a word with room beside it`);
  });
  return wrong;
}"""


@pytest.mark.parametrize("locale", ["sv-SE", "de-DE"])
def test_who_deals_keeps_long_names_apart_on_a_small_phone(browser: Browser, live_server: str, locale: str) -> None:
    """The dealer choice is three columns of 85 px at 320 px. Names longer than a column once ran
    into the next one ("Christoffer" under the next radio, "Maximiliane" past the fieldset); now a
    long name takes a row of two or its own, and only a name wider than the row breaks."""
    names = ["Christoffer", "Maximiliane", "Bo", "Anna", "Sven-Göran", "Ulrika", "Wolfeschlegelsteinhausenbergerdorffsmith"]
    table = json.load(urllib.request.urlopen(urllib.request.Request(
        f"{live_server}/api/v1/tables", json.dumps({"game": "muggins", "players": names}).encode(),
        {"Content-Type": "application/json"})))
    page = browser.new_context(viewport={"width": 320, "height": 664}, is_mobile=True, has_touch=True,
                               device_scale_factor=2, locale=locale, **NO_WORKER).new_page()
    page.goto(table["join_url"])
    page.locator("form.seat-buttons button").first.click()
    for n, code in enumerate(("5H", "9C", "KD"), start=1):  # seven players: three muggins piles
        tap_card(page, "pick", code)
        expect(page.locator(".mg-chosen .cardface:not(.mg-empty)")).to_have_count(n)
    expect(page.locator("#decision input[name='dealer:int']")).to_have_count(len(names) + 1)
    assert page.evaluate(DEALER_CHOICES) == []
    assert fits_the_phone(page)
    # The last card laid brings the whole choice on screen, "Start the game" clear of the status
    # bar (it was half under it, 18-27 px, with seven players at 390 and 320 px).
    start = page.locator("#decision button[type=submit]").bounding_box()
    bar = page.locator("#last-move").bounding_box()
    assert start and bar and start["y"] >= 0 and start["y"] + start["height"] <= bar["y"], (start, bar)
    page.locator("#decision label.choice", has_text="Sven-Göran").click()
    page.locator("#decision button[type=submit]").click()
    expect(page.locator("#decision [data-rank]").first).to_be_visible()
