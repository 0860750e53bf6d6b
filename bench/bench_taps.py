"""Taps and scrolls per action at the table, on a 390×664 CSS px phone (Debian Chromium).

    .venv/bin/python bench/bench_taps.py            # about a minute

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


@dataclass
class Count:
    taps: int = 0
    scrolls: int = 0


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


def tricks(browser: Any, base: str, report: dict[str, Count]) -> None:
    ctx = {"viewport": VIEWPORT, "is_mobile": True, "has_touch": True, "locale": "en-GB", "reduced_motion": "reduce"}
    p = Phone(browser.new_context(**ctx).new_page())
    page = p.page
    open_table(p, base, "mulatschak", ["Anna", "Bo", "Cleo"])
    live(page)
    if p.has("#invite[open]"):
        page.locator("#invite > summary").click()
    for label in ("✂ Cleo cuts", "Bo bids 2", "Cleo: weiter (pass)", "Anna: weiter (pass)", "Laub",
                  "daheim bleiben (stay home)", "Anna plays along", "Bo swaps 1 card", "Anna swaps 2 cards"):
        p.quiet()
        page.get_by_role("button", name=label, exact=True).click()
    page.locator(".mu-turn", has_text="Bo leads").wait_for()

    def trick() -> None:
        for label in ("Laub-Sau", "Laub-Siebener"):
            p.tap(page.get_by_role("button", name=label, exact=True))
        p.quiet()
        p.see(page.locator("#last-move") if p.has("#last-move") else page.locator(".mu-trick-won"))
    measure(report, "Mulatschak: one trick (2 players' cards)", p, trick)

    m = Phone(browser.new_context(**ctx).new_page())
    page = m.page
    open_table(m, base, "mousel", ["Anna", "Bo"])
    live(page)
    if m.has("#invite[open]"):
        page.locator("#invite > summary").click()
    page.get_by_role("button", name="Anna deals", exact=True).click()
    m.quiet()
    page.locator("label.pick:has(input[name='card'][value='8C'])").click()
    for label in ("Anna takes it blind", "Anna exchanges 1 card", "Bo stands pat", "Done: Anna leads"):
        m.quiet()
        page.get_by_role("button", name=label, exact=True).click()
    page.locator(".ms-turn", has_text="Anna leads").wait_for()

    def mtrick() -> None:
        for code in ("AC", "7H"):
            m.pick("card", code)
            m.quiet()
        m.see(page.locator("#last-move") if m.has("#last-move") else page.locator(".ms-trick-won"))
    measure(report, "Mousel: one trick (2 cards)", m, mtrick)

    g = Phone(browser.new_context(**ctx).new_page())
    page = g.page
    open_table(g, base, "muggins", ["Anna", "Bo", "Cleo"])
    if g.has("#invite[open]"):
        page.locator("#invite > summary").click()
    for code in ("5H", "9C", "KD", "2S"):
        g.quiet()
        page.locator(f"label.pick:has(input[name='pick'][value='{code}'])").click()
    g.quiet()
    page.get_by_label("Cleo", exact=True).check()
    page.get_by_role("button", name="Start the game").click()
    page.get_by_text("Your turn, Anna!").wait_for()

    def muggins() -> None:
        g.pick("card", "4H")
        g.tap(page.get_by_role("button", name="Muggins pile 1"))
        g.quiet()
        g.see(page.locator("#last-move") if g.has("#last-move") else page.get_by_text("Anna goes on"))
    measure(report, "Muggins: one card (turned, put on a pile)", g, muggins)


def main() -> None:
    base, server = serve()
    report: dict[str, Count] = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium",
                                     args=["--headless", "--no-sandbox", "--disable-gpu"])
        fishing(browser, base, report)
        tricks(browser, base, report)
        browser.close()
    server.shutdown()
    print(f"Taps and scrolls per action on a {VIEWPORT['width']}×{VIEWPORT['height']} viewport")
    print(f"{'action':62} {'taps':>5} {'scrolls':>8}")
    for name, c in report.items():
        print(f"{name:62} {c.taps:5d} {c.scrolls:8d}")


if __name__ == "__main__":
    main()
