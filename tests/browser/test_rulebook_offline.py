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
