"""Taps and scrolls per action at the table, on a 390×664 CSS px phone (Debian Chromium).

    .venv/bin/python bench/bench_taps.py            # about a minute

The trick games, Muggins and the score pad are measured over a whole deal, summed per phase.

Each action is driven the way a person would: before every tap the control is looked for on
the screen; when it is not fully visible (off-screen, or under the bar pinned to the bottom) that
is one scroll, then the tap. Typing a field counts as one tap. After a move, reading its result
counts one more scroll when the result is not on the screen. The script knows both the old
markup (a 52-card picker of radio labels) and the new one (the `#composer` hooks of issue 13),
so the same script measures before and after. Prints figures; asserts nothing.
"""

from __future__ import annotations

import json
import sys
import tempfile
import threading
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import Locator, Page, sync_playwright  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402

VIEWPORT = {"width": 390, "height": 664}
VERBOSE = "-v" in sys.argv
VISIBLE = """el => {
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) return false;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !!hit && (el.contains(hit) || hit.contains(el) || (el.control && el.control === hit));
}"""

WHOLE = """el => {
  const r = el.getBoundingClientRect(), bar = document.getElementById('last-move');
  return r.top >= 0 && r.bottom <= (bar ? bar.getBoundingClientRect().top : innerHeight);
}"""


@dataclass
class Count:
    taps: int = 0
    scrolls: int = 0
    unseen: int = 0     # taps after which the cards on the table were not wholly on the screen


class Phone:
    def __init__(self, page: Page) -> None:
        self.page = page
        self.count = Count()

    def reset(self) -> Count:
        done, self.count = self.count, Count()
        return done

    def quiet(self) -> None:
        self.page.wait_for_function("() => !document.querySelector('.htmx-request')")

    def see(self, loc: Locator) -> None:
        """Bring a control (or a result) onto the screen, counting a scroll when it was not."""
        loc.wait_for(state="visible")
        if not loc.evaluate(VISIBLE):
            self.count.scrolls += 1
            if VERBOSE:
                print("  scroll to", loc, loc.evaluate("el => el.getBoundingClientRect().top"), file=sys.stderr)
            loc.evaluate("el => el.scrollIntoView({block: 'center'})")

    def tap(self, loc: Locator) -> None:
        self.quiet()
        loc = loc.first
        self.see(loc)
        loc.click()
        self.count.taps += 1

    def type(self, loc: Locator, text: str) -> None:
        self.see(loc.first)
        loc.first.fill(text)
        self.count.taps += 1

    def select(self, loc: Locator, value: str) -> None:
        self.see(loc.first)
        loc.first.select_option(value)
        self.count.taps += 2  # open the list, choose

    def has(self, selector: str) -> bool:
        return self.page.locator(selector).count() > 0

    # --- the fishing games' move, old or new markup ---------------------------------------

    def played(self, code: str) -> None:
        if self.has("#card-chooser [data-rank]"):
            rank = code[:-1]
            self.tap(self.page.locator(f"#card-chooser [data-rank='{rank}']"))
            self.tap(self.page.locator(f"#card-chooser [data-card='{code}']"))
        else:
            self.tap(self.page.locator(f"label:has(> input[name='card'][value='{code}'])"))

    def taken(self, code: str) -> None:
        if self.has("#table-cards [data-card]"):
            self.tap(self.page.locator(f"#table-cards [data-card='{code}']"))
        else:
            self.tap(self.page.locator(f"label:has(> input[name='capture:list'][value='{code}'])"))

    def confirm(self) -> None:
        self.tap(self.page.locator("#confirm-move") if self.has("#confirm-move")
                 else self.page.get_by_role("button", name="Confirm move"))

    def result(self, fallback: str) -> None:
        """Read what the move did: the status region when there is one, else the old box."""
        self.quiet()
        self.see(self.page.locator("#last-move") if self.has("#last-move") else self.page.locator(fallback))

    def deal_card(self, code: str) -> None:
        if self.has("form.deal [data-rank]"):
            self.tap(self.page.locator(f"form.deal [data-rank='{code[:-1]}']"))
            self.tap(self.page.locator(f"form.deal [data-card='{code}']"))
        elif self.has("form.deal [data-card]"):
            self.tap(self.page.locator(f"form.deal [data-card='{code}']"))
        else:
            self.tap(self.page.locator(f"label:has(> input[name='table:list'][value='{code}'])"))

    def pick(self, name: str, code: str) -> None:
        self.tap(self.page.locator(f"label.pick:has(input[name='{name}'][value='{code}'])"))


def serve() -> tuple[str, Any]:
    import logging

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    from scorekeeper import create_app
    from scorekeeper.extensions import db

    folder = tempfile.mkdtemp(prefix="sk-taps-")
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/t.sqlite", "SECRET_KEY": "taps",
                      "SSE_PING_SECONDS": 2.0, "SSE_MAX_SECONDS": 60.0,
                      "RATE_LIMIT_CREATE": "1000/minute", "RATE_LIMIT_EVENTS": "10000/minute"})
    with app.app_context():
        db.create_all()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    url = f"http://127.0.0.1:{server.server_port}"
    app.config["PUBLIC_URL"] = url
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return url, server


def api(base: str, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(req) as response:
        return json.load(response)


def open_table(phone: Phone, base: str, game: str, names: list[str]) -> None:
    """Home page to seated at the table with the join QR code on the screen."""
    page = phone.page
    page.goto(base + "/")
    phone.tap(page.locator(f"input[name=game][value={game}]"))
    for i, name in enumerate(names):
        phone.type(page.locator(f"#player{i}"), name)
    phone.tap(page.get_by_role("button", name="Open the table"))
    page.wait_for_load_state()
    if page.get_by_role("button", name=names[0], exact=True).count():
        phone.tap(page.get_by_role("button", name=names[0], exact=True))
    qr = page.locator("#join-qr") if phone.has("#join-qr") else page.locator(".qr-join img")
    if not qr.is_visible():
        phone.tap(page.locator("summary", has_text="Invite"))
    phone.see(qr)


def live(page: Page) -> None:
    page.wait_for_function(
        "() => document.querySelector('[sse-connect]')['htmx-internal-data']?.sseEventSource?.readyState === 1")


def measure(report: dict[str, Count], name: str, phone: Phone, action: Callable[[], None]) -> None:
    phone.reset()
    action()
    report[name] = phone.reset()


def fishing(browser: Any, base: str, report: dict[str, Count]) -> None:
    anna = Phone(browser.new_context(viewport=VIEWPORT, is_mobile=True, has_touch=True, locale="en-GB",
                                     reduced_motion="reduce").new_page())
    measure(report, "open a table (Mulle, 2 names typed)", anna, lambda: open_table(anna, base, "mulle", ["Anna", "Bo"]))
    join = anna.page.locator("#join-qr").get_attribute("data-url") if anna.has("#join-qr[data-url]") else None
    join = join or anna.page.locator(".qr-join a.url, .invite a.url").first.get_attribute("href")
    bo = Phone(browser.new_context(viewport=VIEWPORT, is_mobile=True, has_touch=True, locale="en-GB",
                                   reduced_motion="reduce").new_page())

    def joined() -> None:
        bo.page.goto(str(join))
        bo.tap(bo.page.get_by_role("button", name="Bo", exact=True))
        bo.page.wait_for_load_state()
    measure(report, "join (scan, tap the seat)", bo, joined)
    page = anna.page
    page.goto(page.url)
    live(page)

    def deal() -> None:
        if anna.has("#invite[open]"):
            anna.tap(page.locator("#invite > summary"))
        anna.select(page.get_by_label("Dealer"), "1")
        for code in ("5D", "9C", "4H", "AS"):
            anna.deal_card(code)
        anna.tap(page.get_by_role("button", name="Start the deal"))
        page.get_by_text("Your turn, Anna!").wait_for()
    measure(report, "Mulle: the deal (dealer + 4 table cards)", anna, deal)

    def trail() -> None:
        anna.played("5C")
        page.locator(".preview.ok").wait_for()
        anna.confirm()
        anna.result(".ml-just")
    measure(report, "Mulle: trail", anna, trail)

    def illegal_then_fix() -> None:
        anna.played("KH")
        anna.taken("4H")
        page.locator(".preview.bad").wait_for()
        anna.see(page.locator(".preview.bad"))
        anna.taken("4H")                  # untick, choose again
        anna.played("AH")
        for code in ("AS", "9C", "5D"):
            anna.taken(code)
        page.locator(".preview.ok").wait_for()
        anna.confirm()
        anna.result(".ml-just")
    measure(report, "Mulle: illegal attempt and fix (then a sum capture of 3)", anna, illegal_then_fix)

    def mulle() -> None:
        anna.played("5C")
        anna.taken("5C")
        page.locator(".preview.ok").wait_for()
        anna.confirm()
        anna.result(".ml-just")
    measure(report, "Mulle: mulle (5♣ takes 5♣, k=1)", anna, mulle)

    def sweep() -> None:
        anna.played("4C")
        anna.taken("4H")
        page.locator(".preview.ok").wait_for()
        anna.confirm()
        anna.result(".ml-just")
    measure(report, "Mulle: sum capture k=1 with a tabbe", anna, sweep)

    # A sum capture of 3 on a fresh deal, as its own action.
    table = api(base, "/api/v1/tables", {"game": "mulle", "players": ["Anna", "Bo"]})
    api(base, f"/api/v1/tables/{table['id']}/events",
        {"type": "deal", "dealer": 1, "table": ["3H", "5S", "8D", "KS"]}, table["write_token"])
    anna.page.goto(table["join_url"])
    anna.page.get_by_role("button", name="Anna", exact=True).click()
    live(anna.page)
    if anna.has("#invite[open]"):
        anna.page.locator("#invite > summary").click()

    def capture3() -> None:
        anna.played("8C")
        for code in ("3H", "5S", "8D"):
            anna.taken(code)
        page.locator(".preview.ok").wait_for()
        anna.confirm()
        anna.result(".ml-just")
    measure(report, "Mulle: sum capture k=3 (8♣ takes 3♥+5♠, 8♦)", anna, capture3)

    table = api(base, "/api/v1/tables", {"game": "kasino", "players": ["Anna", "Bo"]})
    api(base, f"/api/v1/tables/{table['id']}/events",
        {"type": "deal", "dealer": 1, "table": ["3H", "5S", "8D", "8S"]}, table["write_token"])
    anna.page.goto(table["join_url"])
    anna.page.get_by_role("button", name="Anna", exact=True).click()
    live(anna.page)
    if anna.has("#invite[open]"):
        anna.page.locator("#invite > summary").click()

    def kasino() -> None:
        anna.played("8C")
        for code in ("3H", "5S", "8D", "8S"):
            anna.taken(code)
        page.locator(".preview.ok").wait_for()
        anna.confirm()
        anna.result(".ks-just")
    measure(report, "Kasino: build capture k=4 (8♣ takes 3♥+5♠, 8♦, 8♠)", anna, kasino)


def choose(phone: Phone, name: str, code: str) -> None:
    """A card of a picker or tap grid (one tap), or of a chooser (its rank, then its suit)."""
    page = phone.page
    chooser = page.locator(f".chooser:has(input[name='{name}']) [data-rank='{code[:-1]}']")
    if chooser.count():
        phone.tap(chooser)
    phone.tap(page.locator(f"[data-card='{code}']:is(button, label:has(> input[name='{name}']))"))


class Phases:
    """Taps and scrolls of a whole deal, summed per game and phase."""

    def __init__(self, report: dict[str, Count], phone: Phone, game: str) -> None:
        self.report, self.phone, self.game = report, phone, game

    def __call__(self, phase: str, action: Callable[[], None]) -> None:
        self.phone.reset()
        action()
        self.phone.quiet()
        done = self.phone.reset()
        row = self.report.setdefault(f"{self.game}: {phase}", Count())
        row.taps += done.taps
        row.scrolls += done.scrolls
        # What lies on the table (the trick, the turned card, the piles), old markup or new.
        table = self.phone.page.locator("#table-cards, .ms-felt, .mu-felt, .mg-piles").first
        if table.count() and not table.evaluate(WHOLE):
            row.unseen += 1

    def buttons(self, phase: str, *labels: str) -> None:
        for label in labels:
            self(phase, lambda label=label: self.phone.tap(self.phone.page.get_by_role("button", name=label, exact=True)))

    def cards(self, phase: str, name: str, *codes: str) -> None:
        for code in codes:
            self(phase, lambda code=code: choose(self.phone, name, code))


def new_phone(browser: Any, base: str, game: str, names: list[str]) -> Phone:
    ctx = {"viewport": VIEWPORT, "is_mobile": True, "has_touch": True, "locale": "en-GB", "reduced_motion": "reduce"}
    p = Phone(browser.new_context(**ctx).new_page())
    open_table(p, base, game, names)
    live(p.page)
    if p.has("#invite[open]"):
        p.tap(p.page.locator("#invite > summary"))    # a new table opens on its invite: one tap folds it
    p.reset()
    return p


def tricks(browser: Any, base: str, report: dict[str, Count]) -> None:
    """A whole deal of each trick game, Muggins turns and score-pad entries, per phase (issue 26)."""
    p = new_phone(browser, base, "mousel", ["Anna", "Bo", "Cleo"])
    ms = Phases(report, p, "Mousel, 3 players")
    ms.buttons("who deals", "Anna deals")
    ms.cards("turn-up", "card", "8C")
    ms.buttons("offer (blind, round, take)", "Not blind: offer it round", "Bo refuses", "Cleo takes it")
    ms.buttons("exchanges and folds", "Cleo exchanges 1 card", "Bo folds", "Anna exchanges 2 cards")
    ms.buttons("taker's discard", "Done: Cleo leads")
    ms.cards("tricks (6 cards)", "card", "AC", "7C", "KC", "9H", "QC", "10H")
    p.page.locator(".ms-turn", has_text="Deal 2: Bo deals").wait_for()

    p = new_phone(browser, base, "mulatschak", ["Anna", "Bo", "Cleo", "Dora"])
    mu = Phases(report, p, "Mulatschak, 4 players")
    mu.buttons("cut", "✂ Dora cuts")
    mu.buttons("bidding", "Bo bids 2", "Cleo: weiter (pass)", "Dora: weiter (pass)", "Anna: weiter (pass)")
    mu.buttons("trumps", "Laub")
    mu.buttons("play along or stay home", "Cleo plays along", "daheim bleiben (stay home)", "Anna plays along")
    mu.buttons("exchanges", "Bo swaps 1 card", "Cleo keeps all five", "Anna swaps 2 cards")
    words = {"A": "Sau", "K": "König", "7": "Siebener", "8": "Achter", "9": "Neuner", "10": "Zehner"}
    suits = {"L": "Laub", "H": "Herz", "E": "Eichel", "S": "Schelle"}
    mu.buttons("tricks (15 cards)", *[f"{suits[c[-1]]}-{words[c[:-1]]}" for c in
                                      ("AL", "7L", "8L", "KL", "9L", "10L", "AH", "KH", "7H", "7E", "AE", "8E",
                                       "AS", "7S", "8S")])
    p.page.locator(".mu-turn", has_text="Anna cuts or knocks").wait_for()

    p = new_phone(browser, base, "muggins", ["Anna", "Bo", "Cleo"])
    mg = Phases(report, p, "Muggins, 3 players")
    mg.cards("set up (4 cards, dealer, start)", "pick", "5H", "9C", "KD", "2S")
    mg("set up (4 cards, dealer, start)", lambda: p.tap(p.page.get_by_label("Cleo", exact=True)))
    mg.buttons("set up (4 cards, dealer, start)", "Start the game")
    for code, pile in (("4H", "Put the 4♥ on muggins pile 1, on the 5♥"), ("7C", "Put the 7♣ on Anna's own pile"),
                       ("6D", "Put the 6♦ on Anna's pile, on the 7♣"), ("3S", "Put the 3♠ on muggins pile 1, on the 4♥")):
        mg.cards("4 turns: the card turned", "card", code)
        mg.buttons("4 turns: the pile", pile)

    p = new_phone(browser, base, "scorepad", ["Anna", "Bo", "Cleo", "Dora"])
    pad = Phases(report, p, "Score pad, 4 sides")
    pad.buttons("4 quick points", *[f"+5 points for {n}" for n in ("Anna", "Bo", "Cleo", "Dora")])
    for name in ("Dora", "Anna"):
        def typed(name: str = name) -> None:
            field = p.page.get_by_role("spinbutton", name=f"Points for {name}")
            p.type(field, "7")
            p.tap(field.locator("xpath=following-sibling::button"))
        pad("2 typed points", typed)


def kasino_deals(browser: Any, base: str, report: dict[str, Count]) -> None:
    """Kasino's deal form on a fresh table (issue 26: it sat under the scores, one scroll down),
    and a Dragkasino move with the card drawn entered (Confirm was one scroll down)."""
    p = new_phone(browser, base, "kasino", ["Anna", "Bo"])
    ks = Phases(report, p, "Kasino, 2 players")

    def deal() -> None:
        p.select(p.page.get_by_label("Dealer"), "1")
        for code in ("3H", "5S", "8D", "KC"):
            p.deal_card(code)
        p.tap(p.page.get_by_role("button", name="Start the deal"))
        p.page.get_by_text("Your turn, Anna!").wait_for()
    ks("the deal (dealer + 4 table cards + start)", deal)

    dk = Phases(report, p, "Dragkasino, 2 players")
    drag = api(base, "/api/v1/tables", {"game": "kasino", "players": ["Anna", "Bo"], "options": {"variant": "drag"}})
    api(base, f"/api/v1/tables/{drag['id']}/events", {"type": "deal", "dealer": 1, "table": ["3H", "5S", "8D", "KC"]},
        drag["write_token"])
    p.page.goto(drag["join_url"])
    p.page.get_by_role("button", name="Anna", exact=True).click()
    live(p.page)
    if p.has("#invite[open]"):
        p.page.locator("#invite > summary").click()
    p.reset()

    def move_with_draw() -> None:
        p.played("8C")
        for code in ("3H", "5S", "8D"):
            p.taken(code)
        p.tap(p.page.locator(".ks-drawn > summary"))
        p.tap(p.page.locator("#draw-chooser [data-rank='7']"))
        p.tap(p.page.locator("#draw-chooser [data-card='7C']"))
        p.confirm()
        p.result(".ks-just")
    dk("a capture k=3 and the card drawn", move_with_draw)


def main() -> None:
    base, server = serve()
    report: dict[str, Count] = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium",
                                     args=["--headless", "--no-sandbox", "--disable-gpu"])
        fishing(browser, base, report)
        tricks(browser, base, report)
        kasino_deals(browser, base, report)
        browser.close()
    server.shutdown()
    print(f"Taps and scrolls per action on a {VIEWPORT['width']}×{VIEWPORT['height']} viewport")
    print(f"{'action':62} {'taps':>5} {'scrolls':>8} {'table unseen':>13}")
    for name, c in report.items():
        print(f"{name:62} {c.taps:5d} {c.scrolls:8d} {c.unseen:13d}")


if __name__ == "__main__":
    main()
