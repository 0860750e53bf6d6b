"""Every page on the narrowest phones, in English, Swedish and German: nothing scrolls sideways,
nothing sticks out past the right edge, no word is broken inside (only after a hyphen or a
slash), and no sentence is squeezed into a column a word or two wide.

The last round's review page wrapped "Player" letter by letter on every phone while every test
of its hooks passed: a rule meant for long names (``overflow-wrap: anywhere`` on ``body``) let
each table cell shrink to one letter. So this looks at what a player sees, page by page: each
game's table in every phase a simulated session passes through (tests/browser/scenes.py), its
history, review and dispute desk, the home page, the rule books, the import and error pages —
at 390 and 320 CSS px, in the three languages.

A tap target (button, card, rank, choice) is at least 24×24 CSS px; a card's face holds its rank
and suit, inside what is tapped, and no card to tap lies over the next; a list shows its chosen
entry whole. A word's rendering is read with ``Range.getClientRects``: a word whose pieces sit on two lines was
broken (a spelt-out link is no word). A box may scroll sideways inside itself only if it is
marked ``data-scrolls``: a score table reads on the narrowest phone without a swipe.
``SWEEP_SHOTS=dir`` saves a screenshot of every page looked at, for a person to look too.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright

from tests.browser.conftest import NO_WORKER
from tests.browser.phone_app import PhoneApp
from tests.browser.spills import SPILLS
from tests.scenes import NAMES, Scene, moment, scenes
from tests.scenes import _kasino_tally as tally_kasino
from tests.scenes import _mulatschak_tally as tally_mulatschak

LANGS = {"en": "en-GB", "sv": "sv-SE", "de": "de-DE"}
WIDTHS = (390, 320)
SHOTS = os.environ.get("SWEEP_SHOTS")
GAMES = ["mulle", "kasino", "mousel", "mulatschak", "muggins", "scorepad"]

# What a player sees, measured in the page: problems as short sentences.
CHECK = r"""
() => {
  const vw = document.documentElement.clientWidth;
  const root = document.documentElement;
  const out = [];
  const wide = Math.max(root.scrollWidth, document.body.scrollWidth);
  if (wide > vw) out.push(`the page scrolls sideways (${wide} px in ${vw})`);
  // Inside a closed <details> only the summary is laid out (the rest keeps stale boxes).
  const hidden = 'script, style, noscript, template, .sr-only, [hidden], svg, details:not([open]) > :not(summary)';
  const name = (el) => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id; else if (el.classList.length) s += '.' + [...el.classList].join('.');
    const t = (el.innerText || el.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 50);
    return t ? `${s} "${t}"` : s;
  };
  // A scroll container made so on purpose lets its content run past the edge: it scrolls itself.
  const scroller = (el) => {
    for (let a = el.parentElement; a && a !== document.body && a !== root; a = a.parentElement) {
      const o = getComputedStyle(a).overflowX;
      if (o === 'auto' || o === 'scroll') return a;
    }
    return null;
  };
  // ... but only a box marked data-scrolls: anything else that scrolls sideways inside hides its
  // right part from a player who does not think to swipe it — a score table too (issue 26: the
  // Kasino piles in Swedish at 320 px hid their last columns).
  for (const el of document.body.querySelectorAll('*')) {
    const o = getComputedStyle(el).overflowX;
    if ((o === 'auto' || o === 'scroll') && el.scrollWidth > el.clientWidth + 1
        && !el.closest('[data-scrolls]')
        && el.getClientRects().length && !el.closest(hidden)) {
      out.push(`scrolls sideways inside (${el.scrollWidth} px in ${el.clientWidth}): ${name(el)}`);
    }
  }
  // A tap target squeezed below 24×24 CSS px (WCAG 2.5.8) by a layout that went wrong: the
  // whole pack's grid in a flex or grid box not meant for it drew 8 px wide cards.
  for (const el of document.body.querySelectorAll('button, a.button, summary, label[data-card], label[data-rank], label.choice')) {
    if (el.closest(hidden) || !el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
    const r = el.getBoundingClientRect();
    if (r.width < 23.5 || r.height < 23.5) out.push(`tap target too small (${Math.round(r.width)}×${Math.round(r.height)} px): ${name(el)}`);
  }
  // A card's face holds its rank and suit, and sits inside what is tapped to choose it: Mousel's
  // eight columns at 320 px drew "10♠" and Swedish "Kn♠" past the face's edge, touching the
  // next card, and no right-edge check sees a spill inside the page.
  for (const face of document.body.querySelectorAll('.cardface')) {
    if (face.closest(hidden) || !face.getClientRects().length || getComputedStyle(face).visibility === 'hidden') continue;
    if (face.scrollWidth > face.clientWidth + 0.5) {
      out.push(`a card's text spills out of its face (${face.scrollWidth} px in ${face.clientWidth}): ${name(face)}`);
      continue;
    }
    const tap = face.parentElement && face.parentElement.closest('button, label');
    if (!tap) continue;
    const r = face.getBoundingClientRect(), t = tap.getBoundingClientRect();
    if (r.left < t.left - 0.5 || r.right > t.right + 0.5) {
      out.push(`a card's face sticks out of what is tapped (${Math.round(r.width)} px in ${Math.round(t.width)}): ${name(tap)}`);
    }
  }
  // ... and a card to tap never lies over the next one: a grid column narrower than a card's
  // least width lets each card run under its neighbour, where a tap hits the wrong card.
  for (const el of document.body.querySelectorAll('label[data-card], button[data-card]')) {
    const next = el.nextElementSibling;
    if (!next || !next.matches('label[data-card], button[data-card]') || el.closest(hidden)) continue;
    const a = el.getBoundingClientRect(), b = next.getBoundingClientRect();
    if (!a.width || !b.width || a.bottom <= b.top || b.bottom <= a.top) continue;
    const over = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    if (over > 0.5) out.push(`cards to tap overlap (${Math.round(over)} px): ${name(el)} and ${name(next)}`);
  }
  // A control's own words stay inside it (Muggins' "Who deals?" at 320 px ran names together).
  for (const el of SPILLS(hidden)) out.push(`words past the edge of their control: ${name(el)}`);
  // A list shows its chosen entry whole: Mousel's "Gespielt von" at 390 px squeezed the list of
  // players until Bo read "B.". Measured with the list's font, beside room for its arrow (15-21 px).
  for (const el of document.body.querySelectorAll('select')) {
    if (el.closest(hidden) || !el.checkVisibility({visibilityProperty: true}) || el.selectedIndex < 0) continue;
    const s = getComputedStyle(el);
    const pen = document.createElement('canvas').getContext('2d');
    pen.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
    const chosen = el.options[el.selectedIndex].text.trim();
    const room = el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) - 20;
    if (pen.measureText(chosen).width > room + 0.5) out.push(`a list cuts its chosen entry (${Math.ceil(pen.measureText(chosen).width)} px in ${Math.floor(room)}): ${name(el)} "${chosen}"`);
  }
  const cut = new Set();
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest(hidden)) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || r.right <= vw + 0.5) continue;
    if (getComputedStyle(el).visibility === 'hidden') continue;
    const box = scroller(el);
    if (box && box.getBoundingClientRect().right <= vw + 0.5) continue;
    cut.add(el);
    if (el.parentElement && cut.has(el.parentElement)) continue;  // the outermost one says it
    out.push(`cut at the right edge (${Math.round(r.right)} > ${vw}): ${name(el)}`);
  }
  // Words: a run of letters between spaces, hyphens and slashes is set on one line.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  const word = /[^\s\-\/\u2010\u2011\u00ad\u2013\u2014]{2,}/g;
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const p = n.parentElement;
    if (!p || p.closest(hidden) || !p.getClientRects().length) continue;
    if (/^\s*https?:\/\//.test(n.data)) continue;  // a link spelt out is no word: it may break anywhere
    if (getComputedStyle(p).visibility === 'hidden') continue;
    for (const m of n.data.matchAll(word)) {
      range.setStart(n, m.index);
      range.setEnd(n, m.index + m[0].length);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
      if (rects.length < 2) continue;
      const tops = rects.map((r) => r.top);
      if (Math.max(...tops) - Math.min(...tops) > rects[0].height / 2) {
        const pieces = [];
        let line = null;
        for (let i = 0; i < m[0].length; i++) {
          range.setStart(n, m.index + i);
          range.setEnd(n, m.index + i + 1);
          const top = Math.round(range.getBoundingClientRect().top);
          if (line !== null && Math.abs(top - line) > rects[0].height / 2) pieces.push('|');
          pieces.push(m[0][i]);
          line = top;
        }
        out.push(`word broken: "${pieces.join('')}" in ${name(p)}`);
      }
    }
  }
  // A sentence squeezed into a column a word or two wide (a hint beside its radio at 320 px):
  // no word is broken, and yet it reads as a ladder of single words.
  const words = /\S+/g;
  const walker2 = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker2.nextNode(); n; n = walker2.nextNode()) {
    const p = n.parentElement;
    if (!p || p.closest(hidden) || !p.getClientRects().length) continue;
    const found = [...n.data.matchAll(words)];
    // Long words in a full-width heading wrap so too: only a narrow column is a ladder.
    const box = p.getBoundingClientRect();
    if (found.length < 6 || box.width > 0.45 * vw) continue;
    const tops = new Set();
    let seen = 0;
    for (const m of found) {
      range.setStart(n, m.index);
      range.setEnd(n, m.index + m[0].length);
      const r = range.getClientRects()[0];
      if (!r || r.top >= box.bottom - 1) continue;  // clamped away (a line-clamped last move)
      seen += 1;
      tops.add(Math.round(r.top));
    }
    if (seen >= 6 && tops.size >= 0.75 * seen) {
      out.push(`a ladder of single words (${seen} words on ${tops.size} lines): ${name(p)}`);
    }
  }
  return out;
}
"""

CHECK = CHECK.replace("SPILLS", SPILLS)

# null (and so waited for again) while htmx is still busy with a request.
READY_CHECK = f"() => document.querySelector('.htmx-request') ? null : ({CHECK})()"


class Sweep:
    """Pages looked at, and what was wrong on each."""

    def __init__(self) -> None:
        self.problems: dict[str, list[str]] = defaultdict(list)
        self.pages = 0

    def look(self, page: Page, where: str) -> None:
        # At the width the page is at first, then the other: a resize fewer a page. One call a
        # width, that waits for htmx to be done too (a round trip less each).
        now = (page.viewport_size or {"width": WIDTHS[0]})["width"]
        for width in sorted(WIDTHS, key=lambda w: w != now):
            if width != now:
                page.set_viewport_size({"width": width, "height": 800})
            self.pages += 1
            for problem in page.wait_for_function(READY_CHECK).json_value():
                self.problems[problem].append(f"{where} @{width}")
            if SHOTS:
                Path(SHOTS).mkdir(parents=True, exist_ok=True)
                slug = re.sub(r"[^\w.-]+", "_", f"{where}-{width}")[:150]
                page.screenshot(path=f"{SHOTS}/{slug}.png", full_page=True)

    def visit(self, page: Page, url: str, where: str) -> None:
        response = page.goto(url)
        assert response is not None
        self.look(page, where)

    def verdict(self) -> None:
        assert self.pages, "nothing was looked at"
        lines = [f"{problem}\n      on {len(at)} page(s), e.g. {', '.join(at[:3])}"
                 for problem, at in sorted(self.problems.items(), key=lambda item: -len(item[1]))]
        assert not lines, f"{len(lines)} problems on {self.pages} pages looked at:\n" + "\n".join(lines[:80])


def _phones(browser: Browser, playwright: Playwright, **options: str) -> Iterator[dict[str, BrowserContext]]:
    device = {k: v for k, v in playwright.devices["Pixel 7"].items() if k != "viewport"}
    contexts = {lang: browser.new_context(**device, viewport={"width": 390, "height": 800}, locale=locale,
                                          reduced_motion="reduce", **options) for lang, locale in LANGS.items()}
    yield contexts
    for context in contexts.values():
        context.close()


@pytest.fixture
def phones(browser: Browser, playwright: Playwright) -> Iterator[dict[str, BrowserContext]]:
    """A phone a language, as a player's: the service worker installs and stores the phone's files."""
    yield from _phones(browser, playwright)


@pytest.fixture
def table_phones(browser: Browser, playwright: Playwright) -> Iterator[dict[str, BrowserContext]]:
    """Phones for a table's pages, with no service worker (``NO_WORKER``): each page's load went
    from 165 to 109 ms without it here, and the table sweeps from 539 to 337 s of a whole run's time (one run each)."""
    yield from _phones(browser, playwright, **NO_WORKER)


def _sit(page: Page, seat: int) -> None:
    """Take a seat on the seat question (and take it over if another phone holds it)."""
    page.locator(f"form.seat-buttons button[name=seat][value='{seat}']").first.click()
    page.wait_for_load_state()
    over = page.locator("form.seat-buttons button.primary[name=seat]")
    if over.count():
        over.first.click()
        page.wait_for_load_state()


@pytest.mark.parametrize("scene", list(scenes()), ids=lambda s: s.label)
def test_every_phase_of_a_table_fits_a_phone(scene: Scene, live_app: tuple[str, object],
                                             table_phones: dict[str, BrowserContext]) -> None:
    from scorekeeper import service
    from scorekeeper.engine import RULES

    url, app = live_app
    sweep = Sweep()
    players = NAMES[:scene.players]
    with app.app_context():  # type: ignore[attr-defined]
        table = service.create_table(scene.game, players, scene.mode, scene.options)
        table_id, token = table.id, table.write_token
    rules = RULES[scene.game]
    state = rules.new(players, scene.options, scene.mode)  # type: ignore[call-arg]
    pages = {lang: context.new_page() for lang, context in table_phones.items()}
    for i, (lang, page) in enumerate(pages.items()):
        sweep.visit(page, f"{url}/t/{table_id}/k/{token}", f"{scene.label} {lang} seat question")
        _sit(page, i % scene.players)
    seen = set()
    events = [None, *scene.events]
    for n, event in enumerate(events):
        if event is not None:
            with app.app_context():  # type: ignore[attr-defined]
                service.record(table_id, event)
            state = rules.apply(state, event)
        key = moment(state, event)
        if key in seen and n != len(events) - 1:
            continue
        seen.add(key)
        for lang, page in pages.items():
            sweep.visit(page, f"{url}/t/{table_id}", f"{scene.label} {lang} #{n} {key[:3]}")
    if scene.events:  # the last move taken back: the status bar says who undid what, in full
        with app.app_context():  # type: ignore[attr-defined]
            service.undo(table_id, author=0)
        for lang, page in pages.items():
            sweep.visit(page, f"{url}/t/{table_id}", f"{scene.label} {lang} after an undo")
    for lang, page in pages.items():
        sweep.visit(page, f"{url}/t/{table_id}/history", f"{scene.label} {lang} history")
        sweep.visit(page, f"{url}/t/{table_id}/review", f"{scene.label} {lang} review")
        if page.locator(".review-deals a").count() > 1:
            sweep.visit(page, f"{url}/t/{table_id}/review?deal=1", f"{scene.label} {lang} review of deal 1")
        sweep.visit(page, f"{url}/desk/?at={table_id}", f"{scene.label} {lang} desk from the table")
    sweep.verdict()


def test_every_other_page_fits_a_phone(live_app: tuple[str, object], phones: dict[str, BrowserContext],
                                       tmp_path: Path) -> None:
    from scorekeeper import service

    url, app = live_app
    sweep = Sweep()
    with app.app_context():  # type: ignore[attr-defined]
        stranger = service.create_table("mulle", ["Anna", "Bo"]).id
    bad = tmp_path / "table.json"
    bad.write_text('{"format": "scorekeeper/1", "game": "mulle", "players": []}')
    for lang, context in phones.items():
        page = context.new_page()
        sweep.visit(page, f"{url}/", f"home {lang}")
        for game in GAMES:
            page.locator(f"input[name=game][value={game}]").check()
            sweep.look(page, f"home {lang} choosing {game}")
        page.locator("input[name=file]").set_input_files(str(bad))
        page.locator("form[action$='/import'] button[type=submit]").click()
        page.wait_for_load_state()
        sweep.look(page, f"import refused {lang}")
        sweep.visit(page, f"{url}/rules/", f"rule books {lang}")
        for game in GAMES:
            sweep.visit(page, f"{url}/rules/{game}", f"rule book {game} {lang}")
            sweep.visit(page, f"{url}/desk/?game={game}", f"desk {game} {lang}")
        sweep.visit(page, f"{url}/desk/?game=mulle&table=4H+9D&played=QH&taken=4H+9D",
                    f"desk verdict {lang}")
        sweep.visit(page, f"{url}/offline", f"offline {lang}")
        page.goto(f"{url}/t/no-such-table")
        sweep.look(page, f"not found {lang}")
        page.goto(f"{url}/t/{stranger}")
        sweep.look(page, f"forbidden {lang}")
    sweep.verdict()


def test_the_phones_own_pages_fit_a_phone(live_app: tuple[str, object], phones: dict[str, BrowserContext],
                                          phone_app: PhoneApp, monkeypatch: pytest.MonkeyPatch) -> None:
    """What only a table kept on the phone shows (issue 27): its note and #to-server, a refusal, a
    table moved to the server, the phone's home with moved and kept tables — answered here by the
    phone's app itself (scorekeeper/offline/phone.py, as the service worker runs it), so the sweep
    needs no Pyodide; and the server's home when it has no offline files to give."""
    from scorekeeper.offline import build, phone

    url, app = live_app
    kept_here = phone_app.opened("mousel", NAMES[:4])
    moved = phone_app.opened("kasino", NAMES[:4])
    lost = phone_app.opened("mulle", NAMES[:2])
    phone_app.moved(moved)
    phone_app.kept(lost)  # the mulle table is kept, not opened

    sweep = Sweep()
    for lang, context in phones.items():
        page = context.new_page()
        phone_app.serve(page)
        phone.handle("GET", f"/lang/{lang}", "", {}, None)
        sweep.visit(page, f"{url}/phone/", f"phone home {lang}")
        sweep.visit(page, f"{url}/phone/t/{kept_here}", f"phone table {lang}")
        sweep.visit(page, f"{url}/phone/t/{kept_here}?to_server=refused&why=event+3:+MULLE-CAP-4",
                    f"phone table refused by the server {lang}")
        sweep.visit(page, f"{url}/phone/t/{kept_here}?to_server=offline", f"phone table with no signal {lang}")
        sweep.visit(page, f"{url}/phone/t/{moved}", f"phone table moved {lang}")
        # The home's own questions, opened: removing a moved copy, and a kept table once downloaded.
        phone.handle("GET", f"/kept/{lost}.json", "", {}, None)
        sweep.visit(page, f"{url}/phone/?removed=1", f"phone home after a removal {lang}")
        for question in (f"[data-remove-moved='{moved}']", f"[data-remove-kept='{lost}']", "details.kept-detail"):
            page.locator(f"{question} summary").click()
        sweep.look(page, f"phone home with its questions open {lang}")
        page.close()

    with monkeypatch.context() as bare:
        bare.setattr(build, "version", lambda out=build.OUT: None)
        client = app.test_client()  # type: ignore[attr-defined]
        for lang, context in phones.items():
            page = context.new_page()
            page.route(f"{url}/", lambda route: route.fulfill(  # type: ignore[attr-defined]
                status=200, content_type="text/html",
                body=client.get("/", headers={"Accept-Language": route.request.headers.get("accept-language", "")}
                                ).get_data()))
            sweep.visit(page, f"{url}/", f"home without the phone's files {lang}")
            page.close()
    sweep.verdict()


# Names as long as real ones get: Kasino's four columns fit 320 px with "Anna" and "Bo" alone.
LONGER_NAMES = ["Annika", "Bengt", "Christina", "Dieter", "Elisabeth", "Fredrik", "Gustav", "Helena"]


def _score_pad(players: int) -> list[dict[str, int | str]]:
    return [{"type": "points", "side": (i * 5) % players, "points": 1 + i % 9} for i in range(3 * players)]


@pytest.mark.parametrize(("game", "players"), [("kasino", 4), ("mulatschak", 5), ("mulatschak", 6), ("scorepad", 8)])
def test_a_score_sheet_of_many_players_fits_a_phone(game: str, players: int, live_app: tuple[str, object],
                                                     table_phones: dict[str, BrowserContext]) -> None:
    """A sheet of a column a player, with the most players the game takes and a few deals on it:
    the scenes above have three or four players, and with four (Kasino) or five and six
    (Mulatschak) the columns ran past a 320 px screen and the sheet scrolled inside itself."""
    from scorekeeper import service

    url, app = live_app
    sweep = Sweep()
    with app.app_context():  # type: ignore[attr-defined]
        table = service.create_table(game, LONGER_NAMES[:players], "tally")
        table_id, token = table.id, table.write_token
        events = {"kasino": lambda: tally_kasino(players, {}, 17), "mulatschak": lambda: tally_mulatschak(players, {}, 31),
                  "scorepad": lambda: _score_pad(players)}[game]()
        for event in events:
            service.record(table_id, event)
    for lang, context in table_phones.items():
        page = context.new_page()
        page.goto(f"{url}/t/{table_id}/k/{token}")
        _sit(page, 0)
        sweep.visit(page, f"{url}/t/{table_id}", f"{game}-{players} sheet {lang}")
        assert page.locator("table.ks-sheet, table.mu-sheet, .pad table.rounds").locator("tbody tr").count() >= 3
        page.close()
    sweep.verdict()
