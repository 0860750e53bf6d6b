"""Every game and mode on a table kept on the phone alone, with the browser offline (issue 27,
item 1): Kasino with an undo that survives the phone closing everything, Dragkasino in German,
Mulatschak, Muggins, the score pad in Swedish, Mulle in tally mode, the history and the rule book —
all through the same hooks as on the server, answered by the app under Pyodide in the service worker.

One phone (one browser context, one service worker, one Pyodide start) serves the whole module:
the start is the slow part, and a phone keeps several tables anyway."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Playwright, expect

from scorekeeper.offline.build import OUT, version
from tests.browser.conftest import IN_CI

pytestmark = [
    pytest.mark.skipif(version() is None and not IN_CI,
                       reason=f"Pyodide and the app's zips are not built here ({OUT}): `make offline` fetches and builds them"),
    # One worker under `pytest -n`: the module's phone (Pyodide's first start, the costly part) is then
    # started once, not once on each worker.
    pytest.mark.xdist_group("offline_games"),
]

START = 240_000  # Pyodide's first start on a loaded CI machine (see test_offline_table.py)


@pytest.fixture(scope="module")
def phone(browser: Browser, browser_server: tuple[str, Path], playwright: Playwright) -> Iterator[Page]:
    context = browser.new_context(**playwright.devices["Pixel 7"], locale="en-GB", base_url=browser_server[0],
                                  reduced_motion="reduce")
    context.set_default_timeout(60_000)
    page = context.new_page()
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("data-offline-ready", "1", timeout=START)
    context.set_offline(True)
    page.goto("/phone/", timeout=START)                # the phone's own home: its app has started
    yield page
    context.close()


def quiet(page: Page) -> None:
    page.wait_for_function("() => !document.querySelector('.htmx-request')")


def open_on_phone(page: Page, game: str, names: list[str], lang: str = "en", mode: str = "adjudicate",
                  **house: str) -> str:
    """A table opened from the phone's own home page, in ``lang``; its address."""
    page.goto(f"/phone/lang/{lang}?next=/phone/")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    page.locator(f"input[name=game][value={game}]").check()
    for i, name in enumerate(names):
        page.locator(f"#player{i}").fill(name)
    page.locator(f"input[name=mode][value={mode}]").check()
    for field, value in house.items():
        page.locator(f"[name={field}]").select_option(value)
    page.locator("form.create button[type=submit]").click()
    page.wait_for_url("**/phone/t/*")
    expect(page.locator("#kept-here")).to_be_visible()
    expect(page.locator("#offline")).to_be_hidden()
    return page.url


def chosen(page: Page, where: str, code: str) -> None:
    """A card of a chooser: its rank, then the card (`data-rank`, then `data-card`)."""
    page.locator(f"{where} [data-rank='{code[:-1]}']").first.click()
    page.locator(f"{where} [data-card='{code}']").first.click()


def deal(page: Page, dealer: str, cards: tuple[str, ...]) -> None:
    page.locator("form.deal select[name='dealer:int']").select_option(dealer)
    for code in cards:
        chosen(page, "form.deal", code)
    page.locator("form.deal button[type=submit]").click()
    quiet(page)


def stop_the_worker(page: Page) -> None:
    """The phone closes everything: the service worker and its Python go; IndexedDB stays."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("ServiceWorker.enable")
    cdp.send("ServiceWorker.stopAllWorkers")
    cdp.detach()


def test_kasino_a_tabbe_an_undo_that_survives_a_reload_the_history_and_the_rule_book(phone: Page) -> None:
    page = phone
    table = open_on_phone(page, "kasino", ["Anna", "Bo"])
    deal(page, "1", ("3H", "5S", "8D", "8S"))
    expect(page.get_by_text("Your turn, Anna!")).to_be_visible()
    chosen(page, "#card-chooser", "8C")
    for code in ("3H", "5S", "8D", "8S"):
        page.locator(f"#table-cards [data-card='{code}']").click()
    preview = page.locator("form.move .preview")
    expect(preview).to_contain_text("✔ 8♣ as 8 takes 3♥+5♠ = 8")
    page.locator("#confirm-move").click()
    expect(page.locator(".ks-just")).to_contain_text("Anna: Tabbe +1")
    chosen(page, "#card-chooser", "10D")
    page.locator("#confirm-move").click()
    expect(page.locator("#last-move")).to_contain_text("10♦")
    quiet(page)

    # Undo, offline: asked once, then the move is gone — and stays gone when the phone reopens.
    page.locator("#last-move summary").click()
    expect(page.locator("#last-move")).to_contain_text("Take back")
    page.locator("#last-move form.undo button[type=submit]").click()
    expect(page.locator("#last-move")).to_contain_text("Anna undid")
    expect(page.get_by_text("Bo to play")).to_be_visible()
    expect(page.locator("#table-cards [data-card]")).to_have_count(0)
    quiet(page)
    # The undo's form sits in the status bar, which the answer redraws before the sheet: the sheet
    # is still replaced whole, not drawn inside the old one (no stream here heals it).
    assert page.evaluate("document.querySelectorAll('[id=sheet]').length") == 1
    stop_the_worker(page)
    page.reload()
    expect(page.get_by_text("Bo to play")).to_be_visible()
    expect(page.locator("#last-move")).to_contain_text("Anna undid")
    expect(page.locator("#sheet")).to_have_attribute("data-seq", "4")     # deal, play, play, undo

    page.goto(table + "/history")
    expect(page.locator("main")).to_contain_text("10♦")
    expect(page.locator("main")).to_contain_text("8♣")
    for where, heading in (("/review", "Review of deal 1"), ("", "Kasino")):  # the review, the table again
        response = page.goto(table + where)
        assert response is not None and response.ok
        expect(page.locator("main h1")).to_contain_text(heading)
    page.locator(".rules-link").click()
    expect(page.locator("main")).to_contain_text("KASINO-")
    expect(page.locator("h1")).to_contain_text("Kasino")


def test_dragkasino_in_german_a_trail_with_the_drawn_card(phone: Page) -> None:
    page = phone
    open_on_phone(page, "kasino", ["Anna", "Bo"], "de", opt_kasino_variant="drag")
    expect(page.locator("#kept-here")).to_contain_text("nur auf diesem Handy")
    deal(page, "1", ("3H", "5S", "8D", "KC"))
    chosen(page, "#card-chooser", "2H")
    page.locator(".ks-drawn > summary").click()
    chosen(page, "#draw-chooser", "7C")
    page.locator("#confirm-move").click()
    expect(page.locator("#last-move")).to_contain_text("Anna: Herz-Zwei abgelegt")
    expect(page.locator("#table-cards [data-card='2H']")).to_have_count(1)
    # A refused move shows its rule, in German too: the 2♥ cannot take the 8♦.
    chosen(page, "#card-chooser", "4S")
    page.locator("#table-cards [data-card='8D']").click()
    preview = page.locator("form.move .preview")
    expect(preview).to_contain_text("✘")
    expect(preview.locator("a.rule")).to_contain_text("KASINO-")
    expect(page.locator("#confirm-move")).to_be_disabled()


def test_mulatschak_cut_bids_trumps_and_a_trick(phone: Page) -> None:
    page = phone
    open_on_phone(page, "mulatschak", ["Anna", "Bo", "Cleo"])
    turn = page.locator(".mu-turn")
    for label in ("✂ Cleo cuts", "Bo bids 2", "Cleo: weiter (pass)", "Anna: weiter (pass)", "Laub",
                  "daheim bleiben (stay home)", "Anna plays along", "Bo swaps 1 card", "Anna swaps 2 cards"):
        quiet(page)
        page.get_by_role("button", name=label, exact=True).click()
    expect(turn).to_have_text("Bo leads")
    for label in ("Laub-Sau", "Laub-Siebener"):
        quiet(page)
        page.get_by_role("button", name=label, exact=True).click()
    expect(page.locator(".mu-trick-won")).to_have_text("Trick 1 goes to Bo. Bo leads the next trick.")


def test_muggins_the_layout_and_a_card_on_a_pile(phone: Page) -> None:
    page = phone
    open_on_phone(page, "muggins", ["Anna", "Bo", "Cleo"])
    for n, code in enumerate(("5H", "9C", "KD", "2S"), start=1):
        page.locator(f"#card-chooser [data-rank='{code[:-1]}']").click()          # the rank, then the suit
        page.locator(f"label:has(> input[name='pick'][value='{code}'])").click()
        expect(page.locator(".mg-chosen .cardface:not(.mg-empty)")).to_have_count(n)
    page.get_by_label("Cleo", exact=True).check()
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_text("Your turn, Anna!")).to_be_visible()
    page.locator("#card-chooser [data-rank='4']").click()
    page.locator("label:has(> input[name='card'][value='4H'])").click()
    page.locator("button.mg-pile", has_text="Muggins pile 1").click()
    expect(page.get_by_text("Anna goes on: turn the next card.")).to_be_visible()
    expect(page.locator("#table-cards [data-card='4H']")).to_have_count(1)


def test_the_score_pad_in_swedish(phone: Page) -> None:
    page = phone
    open_on_phone(page, "scorepad", ["Anna", "Bo"], "sv")
    expect(page.locator("#kept-here")).to_contain_text("bara på den här telefonen")
    page.locator("form:has(input[name='side:int'][value='0']):has(input[name='points:int'][value='5']) button").click()
    quiet(page)
    page.locator("#pts-1").fill("12")
    page.locator("form.add:has(#pts-1) button[type=submit]").click()
    expect(page.locator(".side .total")).to_have_text(["5", "12"])
    quiet(page)
    stop_the_worker(page)
    page.reload()
    expect(page.locator(".side .total")).to_have_text(["5", "12"])


def test_mulle_in_tally_mode(phone: Page) -> None:
    page = phone
    open_on_phone(page, "mulle", ["Anna", "Bo"], mode="tally")
    page.locator("form.ml-newdeal button[type=submit]").click()
    quiet(page)
    page.locator("form.t1 button[name=what][value=mulle]").click()
    quiet(page)
    page.locator("form.t0 button[name=what][value=ten_of_diamonds]").click()
    expect(page.locator(".ml-scores .total")).to_have_text(["2", "3"])
    expect(page.locator(".meta-mode")).to_contain_text("Tally")



def test_mousel_in_tally_mode_a_refusal_and_a_settled_deal(phone: Page) -> None:
    page = phone
    open_on_phone(page, "mousel", ["Anna", "Bo", "Cleo", "Dora"], mode="tally")

    def chip(name: str, value: str) -> None:
        page.locator(f"label.ms-chip:has(input[name='{name}'][value='{value}'])").click()

    chip("dealer:int", "3")
    chip("taker:int", "1")
    chip("folded:intlist", "2")
    for seat, tricks in enumerate(("1", "2", "1", "1")):      # a folded player took a trick: refused
        page.locator(f"#ms-tricks-{seat}").select_option(tricks)
    page.locator("form:has(input[name=type][value=deal_result]) button.primary").click()
    refused = page.locator(".error[role=alert]")
    expect(refused).to_contain_text("Cleo did not play this deal and cannot win tricks")
    expect(refused.locator("a.rule")).to_have_text("MOUSEL-EXCH-7")
    expect(page.locator("#sheet")).to_have_attribute("data-seq", "0")
    page.locator("#ms-tricks-2").select_option("0")
    page.locator("form:has(input[name=type][value=deal_result]) button.primary").click()
    expect(page.locator("#sheet")).to_have_attribute("data-seq", "1")
    expect(page.locator("#last-move")).to_contain_text("Bo")


def test_kasino_in_tally_mode_in_swedish_the_preview_refuses_then_scores(phone: Page) -> None:
    page = phone
    open_on_phone(page, "kasino", ["Anna", "Bo"], "sv", mode="tally")
    form = page.locator("form.ks-tally")
    for name, value in (("sides.0.cards:int", "30"), ("sides.0.spades:int", "9"), ("sides.0.aces:int", "4"),
                        ("sides.0.tabbes:int", "2"), ("sides.1.cards:int", "20"), ("sides.1.spades:int", "4")):
        form.locator(f"input[name='{name}']").fill(value)
    for flag in ("storan", "lillan"):
        form.locator(f"label.choice:has(input[name='sides.*.{flag}'][value='0'])").click()
    preview = form.locator(".preview")
    expect(preview).to_contain_text("✘")                       # 50 cards, not 52: the live preview, offline
    expect(preview.locator("a.rule")).to_have_text("KASINO-SCORE-2")
    form.locator("input[name='sides.1.cards:int']").fill("")
    form.locator("input[name='sides.1.cards:int']").press_sequentially("22")   # typed: keyup redraws the preview
    expect(preview).to_contain_text("✔")
    form.locator("button.primary").click()
    expect(page.locator("#sheet")).to_have_attribute("data-seq", "1")
    expect(page.locator(".ks-side .total")).to_have_text(["12", "0"])


def test_mulatschak_in_tally_mode_in_german(phone: Page) -> None:
    page = phone
    open_on_phone(page, "mulatschak", ["Anna", "Bo", "Cleo", "Dora"], "de", mode="tally")

    def chip(name: str, value: str) -> None:
        page.locator(f"label.mu-chip:has(input[name='{name}'][value='{value}'])").click()

    chip("declarer:int", "1")
    chip("bid:int", "2")
    chip("trump", "L")
    for seat, tricks in enumerate(("1", "1", "1", "1")):         # four tricks of five: refused
        page.locator(f"#mu-tricks-{seat}").select_option(tricks)
    page.locator("form:has(input[name='declarer:int']) button.primary").click()
    refused = page.locator(".error[role=alert]")
    expect(refused.locator("a.rule")).to_have_text("MULAT-SCORE-6")
    expect(page.locator("#sheet")).to_have_attribute("data-seq", "0")
    page.locator("#mu-tricks-1").select_option("2")
    page.locator("form:has(input[name='declarer:int']) button.primary").click()
    expect(page.locator("#sheet")).to_have_attribute("data-seq", "1")
    expect(page.locator(".mu-turn, h2").first).to_be_visible()


# The phone's store as an older build wrote it (templates/sw.js now keeps it in pieces): one
# record, the database's bytes and the cookie.
PUT_RECORD = """([bytes, cookie]) => new Promise((resolve, reject) => {
  const open = indexedDB.open("scorekeeper-phone", 1);
  open.onupgradeneeded = () => open.result.createObjectStore("store");
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const tx = open.result.transaction("store", "readwrite");
    tx.objectStore("store").put({ db: new Uint8Array(bytes), cookie, at: Date.now() }, "tables");
    tx.oncomplete = () => { open.result.close(); resolve(true); };
    tx.onerror = () => reject(tx.error);
  };
})"""


def test_a_copy_saved_by_an_older_build_is_carried_over_under_pyodide(
        phone: Page, browser_server: tuple[str, Path]) -> None:
    """Item 3, nothing lost: the phone's record replaced by one an older schema wrote (no mark, two
    columns fewer, a game this build lacks); the worker starts on it, carries the Mulle table over —
    it plays on and is stored again — and keeps the other one. Last in the module: it replaces the
    phone's store."""
    import sqlite3
    from urllib.parse import urlencode, urlsplit

    from scorekeeper.offline import phone as phone_app
    from scorekeeper.service import cache, facts_cache

    phone_app.open_phone(None, None, urlsplit(browser_server[0]).netloc)  # the same app, run here

    def opened(game: str) -> str:
        body = urlencode({"game": game, "players": ["Anna", "Bo"], "where": "phone"}, doseq=True).encode()
        answer = phone_app.handle("POST", "/tables", "", {"Content-Type": "application/x-www-form-urlencoded"}, body)
        return str(dict(answer[1])["Location"]).rsplit("/", 1)[1]

    mulle, lost = opened("mulle"), opened("kasino")
    body = urlencode({"type": "deal", "dealer:int": "1", "table:list": ["5D", "9C", "4H", "AS"]}, doseq=True).encode()
    phone_app.handle("POST", f"/t/{mulle}/events", "", {"Content-Type": "application/x-www-form-urlencoded"}, body)
    database, cookie = phone_app.snapshot()
    cache.clear()
    facts_cache.clear()
    old = sqlite3.connect(":memory:")
    old.deserialize(database)
    for statement in ("ALTER TABLE tables DROP COLUMN rules_version", "ALTER TABLE seats DROP COLUMN holder",
                      f"UPDATE tables SET game = 'tresette' WHERE id = '{lost}'"):
        old.execute(statement)
    old.commit()
    old.execute("PRAGMA user_version = 0")

    page = phone
    # Away from a phone table first: its page's requests would start the worker again at once,
    # on the record as it was, before the older one is put in its place.
    page.goto("/rules/mulle?lang=en")
    stop_the_worker(page)
    page.evaluate(PUT_RECORD, [list(old.serialize()), cookie])
    page.goto(f"/phone/lang/en?next=/phone/t/{mulle}")
    expect(page.get_by_text("Your turn, Anna!")).to_be_visible()
    expect(page.locator("#sheet")).to_have_attribute("data-seq", "1")
    chosen(page, "#card-chooser", "5C")
    page.locator("#confirm-move").click()
    expect(page.get_by_text("Bo to play")).to_be_visible()
    quiet(page)
    stop_the_worker(page)
    page.goto("/phone/")
    expect(page.locator(f"#kept-tables li[data-kept='{lost}']")).to_contain_text("Anna, Bo")
    page.goto(f"/phone/t/{mulle}")
    expect(page.locator("#sheet")).to_have_attribute("data-seq", "2")
