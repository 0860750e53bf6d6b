"""The rule book works offline in every language: the service worker caches each language's pages."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, expect


def test_rule_books_open_offline_in_swedish_and_german(browser: Browser, tmp_path: Path) -> None:
    from tests.servers import Server, migrate

    url = f"sqlite:///{tmp_path / 'o.sqlite'}"
    migrate(url)
    # Our own server, so the test can really take it away (not only emulate a dropped network).
    server = Server(url, SECRET_KEY="offline")
    base = server.base
    try:
        context = browser.new_context(locale="sv-SE", service_workers="allow")
        page = context.new_page()
        page.goto(base + "/rules/?lang=sv")
        expect(page.locator("h1")).to_have_text("Regelbok")
        # The worker is active only once its install has cached the whole shell.
        assert page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
    finally:
        server.kill()  # gone, as at the hut (a graceful stop waits on the page's connections)

    page.goto(base + "/rules/kasino?lang=sv#KASINO-TURN-5")
    expect(page.locator("html")).to_have_attribute("lang", "sv")
    expect(page.locator("#KASINO-TURN-5")).to_contain_text("Den som tar in alla kort på bordet gör en tabbe")
    page.goto(base + "/rules/mulatschak?lang=de#MULAT-COMP-3")
    expect(page.locator("#MULAT-COMP-3")).to_contain_text("Der Weli ist immer Trumpf")
    page.goto(base + "/rules/mulle?lang=en")
    expect(page.locator("#MULLE-CAP-7")).to_contain_text("is a mulle")
    # A table's link (never visited online) still opens the book in the language it names.
    page.goto(base + "/rules/muggins?table=t1&lang=de#MUGGINS-FIT-1")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("#MUGGINS-FIT-1")).to_contain_text("Eine Karte passt auf eine oberste Karte")
    context.close()


# What the page fetches through the service worker: the status and the first bytes.
FETCHED = """(path) => fetch(path).then((r) => r.text().then((t) => [r.status, t.slice(0, 200)]))"""


def test_another_builds_files_are_answered_with_this_builds(browser: Browser, tmp_path: Path) -> None:
    """A hut table's phone that updated since this phone did relays pages naming its build's hashed
    files, which this phone never stored and no server can send: unstyled and without its script,
    the page was not usable. The worker answers with its own build's file of the same name, online
    (the server has moved on: 404) and with no server at all. A file it has no name for stays 404."""
    from tests.servers import Server, migrate

    url = f"sqlite:///{tmp_path / 'o.sqlite'}"
    migrate(url)
    server = Server(url, SECRET_KEY="offline")
    base = server.base
    try:
        context = browser.new_context(locale="en-GB", service_workers="allow")
        page = context.new_page()
        page.goto(base + "/")
        assert page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
        page.reload()  # now the worker answers the page's fetches
        mine = page.evaluate(FETCHED, page.locator("link[rel=stylesheet]").get_attribute("href"))
        assert mine[0] == 200 and mine[1]
        other = "/static/dist/app.0123456789ab.css"
        assert page.evaluate(FETCHED, other) == mine  # the server has it not: this build's
        unknown = page.evaluate(FETCHED, "/static/dist/nothing.0123456789ab.css")
        assert unknown[0] == 404
    finally:
        server.kill()
    assert page.evaluate(FETCHED, "/static/dist/app.fedcba987654.css") == mine  # no server at all
    assert page.evaluate(FETCHED, "/phone/static/dist/app.fedcba987654.css") == mine  # a relayed page's
    context.close()
