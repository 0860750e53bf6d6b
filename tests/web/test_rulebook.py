"""Every rule id the engines cite has its entry in the rule book, in every language the app speaks, under
the same anchor, so each rejected move's link lands on the rule in the reader's language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scorekeeper.engine import RULES
from scorekeeper.web.rulebook import book_path, load_book, parse_book

ENGINE = Path(__file__).resolve().parents[2] / "scorekeeper" / "engine"
PREFIX = {"scorepad": "SCOREPAD", "mulle": "MULLE", "kasino": "KASINO", "mulatschak": "MULAT",
          "mousel": "MOUSEL", "muggins": "MUGGINS"}
LANGS = ("en", "sv", "de")
TRANSLATED = ("sv", "de")
RULE_ANCHOR = re.compile(r'<div class="rule[^"]*" id="([A-Z0-9-]+)"')


def engine_source(name: str) -> str:
    """The text of an engine module, or of every module of an engine package (a game's, say)."""
    module, package = ENGINE / f"{name}.py", ENGINE / name
    paths = [module] if module.exists() else sorted(package.rglob("*.py")) if package.is_dir() else []
    return "".join(path.read_text(encoding="utf-8") for path in paths)


def cited(game: str) -> set[str]:
    source = engine_source(game)
    if game in ("mulle", "kasino"):
        source += engine_source("capture") + engine_source("fishing")
    return set(re.findall(rf'"({PREFIX[game]}-[A-Z]+-[A-Z0-9-]*[A-Z0-9])"', source))


def rule_ids(game: str, lang: str) -> list[str]:
    book = load_book(game, lang)
    assert book is not None, f"no {lang} rule book for {game} ({book_path(game, lang).name})"
    return [rule.id for section in book.sections for rule in section.rules]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", sorted(RULES))
def test_every_cited_rule_is_in_the_book(game: str, lang: str) -> None:
    missing = sorted(cited(game) - set(rule_ids(game, lang)))
    assert not missing, f"{game} ({lang}): rule ids cited by the engine but missing from its rule book: {missing}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", sorted(RULES))
def test_every_option_rule_is_in_the_book(game: str, lang: str) -> None:
    ids = set(rule_ids(game, lang))
    for spec in RULES[game].option_specs:
        assert spec.rule is None or spec.rule in ids, f"{game} ({lang}): option {spec.key} cites {spec.rule}"


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("game", sorted(RULES))
def test_translated_book_exists(game: str, lang: str) -> None:
    assert book_path(game, lang).is_file(), f"{game}: no {lang} rule book at {book_path(game, lang)}"


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("game", sorted(RULES))
def test_translated_book_has_exactly_the_english_rules_in_order(game: str, lang: str) -> None:
    english, translated = rule_ids(game, "en"), rule_ids(game, lang)
    missing = [r for r in english if r not in translated]
    extra = [r for r in translated if r not in english]
    assert not missing, f"{game}: rules of the English book missing from the {lang} book: {missing}"
    assert not extra, f"{game}: rules in the {lang} book that the English book does not have: {extra}"
    assert len(translated) == len(set(translated)), f"{game} ({lang}): a rule id appears twice"
    assert translated == english, f"{game} ({lang}): the rules are not in the English book's order"


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("game", sorted(RULES))
def test_every_rule_is_translated(game: str, lang: str) -> None:
    """A rule left in English (copied over and forgotten) is not a translation."""
    english, translated = load_book(game, "en"), load_book(game, lang)
    assert english is not None and translated is not None
    untranslated = [rule.id for section in translated.sections for rule in section.rules
                    if (original := english.rule(rule.id)) is not None and rule.text == original.text]
    assert not untranslated, f"{game} ({lang}): rules still in English: {untranslated}"
    assert translated.intro and translated.intro != english.intro, f"{game} ({lang}): introduction"
    assert len(translated.sections) == len(english.sections), f"{game} ({lang}): sections differ"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", sorted(RULES))
def test_paragraphs_are_whole_sentences(game: str, lang: str) -> None:
    """The books wrap their paragraphs over several lines; each paragraph must render as one."""
    book = load_book(game, lang)
    assert book is not None
    paragraphs = book.intro + [p for section in book.sections for p in section.intro]
    broken = [p for p in paragraphs if not re.search(r"[.!?:)”“\"]$", p)]
    assert not broken, f"{game} ({lang}): paragraphs broken off mid-sentence: {broken}"


def test_wrapped_lines_make_one_paragraph_and_one_rule() -> None:
    book = parse_book("# T\n\nOne sentence\nwrapped here.\n\nA second\nparagraph.\n\n## S\n\nSection\nintro.\n\n"
                      "* **MULLE-COMP-1** A rule\n  that wraps\nlazily.\n* **MULLE-COMP-2** Next.\n")
    assert book.title == "T"
    assert book.intro == ["One sentence wrapped here.", "A second paragraph."]
    assert book.sections[0].intro == ["Section intro."]
    assert [(r.id, r.text) for r in book.sections[0].rules] == [
        ("MULLE-COMP-1", "A rule that wraps lazily."), ("MULLE-COMP-2", "Next.")]


def test_rule_pages_render_with_anchors(sqlite_app) -> None:
    client = sqlite_app.test_client()
    for game in RULES:
        page = client.get(f"/rules/{game}").get_data(as_text=True)
        assert page.count('class="rule') > 5, game


@pytest.mark.parametrize("game", sorted(RULES))
def test_anchors_are_the_same_in_every_language(sqlite_app, game: str) -> None:
    client = sqlite_app.test_client()
    anchors = {lang: RULE_ANCHOR.findall(client.get(f"/rules/{game}?lang={lang}").get_data(as_text=True))
               for lang in LANGS}
    assert len(anchors["en"]) > 5
    for lang in TRANSLATED:
        assert anchors[lang] == anchors["en"], f"{game}: the {lang} page's rule anchors differ from English"


def test_rule_book_page_serves_the_translated_text(sqlite_app) -> None:
    client = sqlite_app.test_client()
    swedish = client.get("/rules/kasino?lang=sv").get_data(as_text=True)
    assert '<html lang="sv">' in swedish and '<article class="book" lang="sv">' in swedish
    assert "Den som tar in alla kort på bordet gör en <strong>tabbe</strong>" in swedish
    assert "Taking every card on the table" not in swedish
    english = client.get("/rules/kasino?lang=en").get_data(as_text=True)
    assert "Taking every card on the table is a <strong>tabbe</strong>" in english
    # The language chosen in the header (the session) picks the book too, not only ?lang=.
    client.get("/lang/de")
    german = client.get("/rules/mulatschak").get_data(as_text=True)
    assert '<article class="book" lang="de">' in german
    assert "Der Weli ist immer Trumpf" in german and "The Weli is always a trump" not in german
    index = client.get("/rules/").get_data(as_text=True)
    assert 'href="/rules/mulle?lang=de"' in index and "Tomelilla Mulle" in index


def test_every_book_page_is_translated_in_each_language(sqlite_app) -> None:
    """The measure of issue 14: rule-book pages per language."""
    client = sqlite_app.test_client()
    for lang in LANGS:
        for game in RULES:
            page = client.get(f"/rules/{game}?lang={lang}").get_data(as_text=True)
            assert f'<article class="book" lang="{lang}">' in page, (game, lang)


def test_rule_links_name_the_reader_language(sqlite_app) -> None:
    from flask import url_for

    for lang in LANGS:
        with sqlite_app.test_request_context(f"/?lang={lang}"):
            assert url_for("rulebook.book", game="mulle", table="t1") == f"/rules/mulle?table=t1&lang={lang}"
            assert url_for("rulebook.index") == f"/rules/?lang={lang}"
    client = sqlite_app.test_client()
    client.get("/lang/sv")
    page = client.get("/rules/mulle").get_data(as_text=True)
    assert 'href="/rules/mulle?lang=de" lang="de" hreflang="de"' in page
    assert 'href="/rules/?lang=sv"' in page


def test_switching_language_on_a_book_page_opens_the_book_in_the_new_language(sqlite_app) -> None:
    client = sqlite_app.test_client()
    response = client.get("/lang/de", headers={"Referer": "http://localhost/rules/mulle?table=t1&lang=sv"})
    assert response.status_code == 302 and response.location.endswith("/rules/mulle?table=t1")
    page = client.get("/rules/mulle?table=t1").get_data(as_text=True)
    assert '<article class="book" lang="de">' in page


def test_service_worker_caches_the_book_in_every_language(sqlite_app) -> None:
    worker = sqlite_app.test_client().get("/sw.js").get_data(as_text=True)
    for lang in LANGS:
        assert f'"/rules/?lang={lang}"' in worker, lang
        for game in RULES:
            assert f'"/rules/{game}?lang={lang}"' in worker, (game, lang)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_refusal_links_to_its_rule_in_the_reader_language(sqlite_app, lang: str) -> None:
    client = sqlite_app.test_client()
    client.get(f"/lang/{lang}")
    opened = client.post("/tables", data={"game": "scorepad", "players": ["Anna", "Bo"], "mode": "adjudicate",
                                          "opt_scorepad_target": "5"})
    table_id = opened.location.rsplit("/", 1)[1]
    hx = {"HX-Request": "true"}
    client.post(f"/t/{table_id}/events", data={"type": "points", "side:int": "0", "points:int": "5"}, headers=hx)
    refused = client.post(f"/t/{table_id}/events", data={"type": "points", "side:int": "1", "points:int": "1"},
                          headers=hx)
    assert refused.status_code == 422
    link = re.search(r'href="(/rules/scorepad\?[^"#]*)#(SCOREPAD-END-2)"', refused.get_data(as_text=True))
    assert link and link.group(1) == f"/rules/scorepad?table={table_id}&amp;lang={lang}"
    book = client.get(link.group(1).replace("&amp;", "&")).get_data(as_text=True)
    assert f'<article class="book" lang="{lang}">' in book and f'id="{link.group(2)}"' in book


def test_a_link_built_outside_a_request_leaves_the_language_to_the_reader(sqlite_app) -> None:
    from flask import url_for

    sqlite_app.config["SERVER_NAME"] = "table.test"
    with sqlite_app.app_context():
        assert url_for("rulebook.book", game="mulle") == "http://table.test/rules/mulle"
