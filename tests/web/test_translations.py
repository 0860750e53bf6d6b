"""Swedish and German: every string of the web app is translated, and the pages speak the language.

The catalogs come from ``pybabel extract`` (see ``babel.cfg``); strings that templates translate at
run time (game names, house-rule labels, scoring facts …) are listed in
``scorekeeper/web/i18n_labels.py``, which the last tests keep in step with the registry.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Flask

from scorekeeper.engine import RULES
from scorekeeper.web import i18n_labels

ROOT = Path(__file__).resolve().parent.parent.parent
TRANSLATIONS = ROOT / "scorekeeper" / "translations"
POT = TRANSLATIONS / "messages.pot"
LANGUAGES = ("sv", "de")
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")
HX = {"HX-Request": "true"}


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as fh:
        return read_po(fh, locale=locale)


def _po(lang: str) -> Path:
    return TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po"


def _key(message_id: str | tuple[str, ...]) -> str:
    return message_id if isinstance(message_id, str) else message_id[0]


def _placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


# --- (a) the catalogs --------------------------------------------------------------------------------


def test_the_template_is_up_to_date_with_the_sources(tmp_path: Path) -> None:
    """A string added to a template or a view without running extract + update + translate fails here."""
    fresh = tmp_path / "fresh.pot"
    subprocess.run([str(Path(sys.executable).parent / "pybabel"), "-q", "extract", "-F", "babel.cfg",
                    "-k", "_l", "-k", "lazy_gettext", "-k", "M", "-k", "tr", "-o", str(fresh), "."],
                   cwd=ROOT, check=True, capture_output=True)
    extracted = {_key(m.id) for m in _read(fresh) if m.id}
    stored = {_key(m.id) for m in _read(POT) if m.id}
    assert not extracted - stored, f"run pybabel extract/update and translate: {sorted(extracted - stored)[:10]}"
    assert not stored - extracted, f"stale strings in messages.pot: {sorted(stored - extracted)[:10]}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_string_is_translated(lang: str) -> None:
    template = {_key(m.id): m for m in _read(POT) if m.id}
    catalog = _read(_po(lang), locale=lang)
    problems: list[str] = []
    for key, wanted in template.items():
        message = catalog.get(wanted.id)
        if message is None:
            problems.append(f"missing: {key!r}")
            continue
        if message.fuzzy:
            problems.append(f"fuzzy: {key!r}")
        if isinstance(wanted.id, str):
            if not message.string:
                problems.append(f"untranslated: {key!r}")
            elif _placeholders(message.string) != _placeholders(wanted.id):
                problems.append(f"placeholders differ: {key!r} → {message.string!r}")
            continue
        forms = message.string if isinstance(message.string, (list, tuple)) else (message.string,)
        if len(forms) != catalog.num_plurals or not all(forms):
            problems.append(f"untranslated plural: {key!r}")
            continue
        names = _placeholders(wanted.id[0]) | _placeholders(wanted.id[1])
        for form in forms:
            # %(num)s is the count; a singular form may spell it out ("one card" / "Ess").
            if not (names - {"num"}) <= _placeholders(form) <= names:
                problems.append(f"placeholders differ: {key!r} → {form!r}")
    assert not problems, "\n".join(problems[:40])
    assert not [m for m in catalog if m.id and m.fuzzy], "fuzzy entries left"


# --- (b) the pages ------------------------------------------------------------------------------------

# Phrases of the English interface that must not show on a translated page.
ENGLISH = ("Open a table", "Players in seat order", "House rules", "Start score", "Score pad", "Adjudicate",
           "Import a table", "Your tables", "Rule book", "Skip to content", "Who are you?", "Invite players",
           "Scan to join", "Yes, undo it", "Score sheet", "Points for", "Quick points", "to go",
           "Tally mode", "Adjudicate mode", "Change seat", "History", "Export")

EXPECTED = {
    "sv": {"home": ("Öppna ett bord", "Spelare i sittordning", "Poängblock", "Husregler: Tomelilla Mulle",
                    "Startpoäng", "Ingen knackning", "Regelbok", "Tvister"),
           "table": ("Domarläge", "Vem är du?", "Bjud in spelare", "Skanna för att delta och spela",
                     "Poäng för Anna", "Historik"),
           "sheet": ("Ja, ångra det", "Protokoll", "poäng +3")},
    "de": {"home": ("Einen Tisch eröffnen", "Spieler in Sitzreihenfolge", "Punkteblock",
                    "Hausregeln: Tomelilla Mulle", "Startpunkte", "Kein Klopfen", "Regelbuch", "Streitfälle"),
           "table": ("Schiedsrichtermodus", "Wer bist du?", "Spieler einladen", "Scannen zum Mitspielen",
                     "Punkte für Anna", "Verlauf"),
           "sheet": ("Ja, rückgängig machen", "Punkteliste", "Punkte +3")},
}


@pytest.fixture(scope="module", autouse=True)
def compiled_catalogs() -> Iterator[None]:
    """``make`` compiles the catalogs before the tests; a bare pytest run after editing a .po
    compiles it here, so the pages never run on a stale .mo."""
    for lang in LANGUAGES:
        po, mo = _po(lang), _po(lang).with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        fd, tmp = tempfile.mkstemp(dir=mo.parent, suffix=".mo")
        with os.fdopen(fd, "wb") as fh:
            write_mo(fh, _read(po, locale=lang))
        os.replace(tmp, mo)
    yield


def _visible(page: str) -> str:
    """The words a person sees or hears: text and the labels of the page, without markup."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    labels = " ".join(re.findall(r'(?:aria-label|title|placeholder|alt)="([^"]*)"', page))
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page) + " " + labels)


def _no_english(text: str) -> None:
    found = [phrase for phrase in ENGLISH if re.search(rf"\b{re.escape(phrase)}\b", text)]
    assert not found, f"English left on the page: {found}"


def _pages(app: Flask, lang: str, headers: dict[str, str] | None = None) -> dict[str, str]:
    client = app.test_client()
    query = f"?lang={lang}" if headers is None else ""
    home = client.get(f"/{query}", headers=headers).get_data(as_text=True)
    opened = client.post(f"/tables{query}", headers=headers,
                         data={"game": "scorepad", "players": ["Anna", "Bo"], "mode": "adjudicate",
                               "seat": "watch"})  # unseated: the page asks who this phone is
    assert opened.status_code == 302
    table = opened.location.rsplit("/", 1)[1]
    page = client.get(f"/t/{table}{query}", headers=headers).get_data(as_text=True)
    client.post(f"/t/{table}/seat{query}", data={"seat": "0"}, headers=headers)
    client.post(f"/t/{table}/events{query}", data={"type": "points", "side:int": "0", "points:int": "7"},
                headers=headers)
    sheet = client.post(f"/t/{table}/events{query}", data={"type": "points", "side:int": "1", "points:int": "3"},
                        headers={**HX, **(headers or {})})
    assert sheet.status_code == 200
    return {"home": _visible(home), "table": _visible(page), "sheet": _visible(sheet.get_data(as_text=True))}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_home_and_score_pad_pages_are_translated(sqlite_app: Flask, lang: str) -> None:
    pages = _pages(sqlite_app, lang)
    for name, phrases in EXPECTED[lang].items():
        missing = [p for p in phrases if p not in pages[name]]
        assert not missing, f"{name} page in {lang} lacks {missing}"
        _no_english(pages[name])
    assert f'<html lang="{lang}">' in sqlite_app.test_client().get(f"/?lang={lang}").get_data(as_text=True)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_browser_language_is_followed(sqlite_app: Flask, lang: str) -> None:
    pages = _pages(sqlite_app, lang, headers={"Accept-Language": f"{lang},en;q=0.5"})
    assert EXPECTED[lang]["home"][0] in pages["home"] and EXPECTED[lang]["table"][1] in pages["table"]
    _no_english(pages["home"])


def test_english_stays_english(sqlite_app: Flask) -> None:
    pages = _pages(sqlite_app, "en")
    assert "Open a table" in pages["home"] and "Who are you?" in pages["table"]


def test_a_missing_table_says_so_in_the_language(sqlite_app: Flask) -> None:
    page = _visible(sqlite_app.test_client().get("/t/nope?lang=de").get_data(as_text=True))
    assert "404 · Nicht gefunden" in page and "Diesen Tisch gibt es nicht" in page


# --- (c) strings translated at run time -----------------------------------------------------------------


def _once(values: list[str]) -> set[str]:
    return set(values)


def test_labels_cover_every_game_and_house_rule() -> None:
    rules = list(RULES.values())
    assert _once(i18n_labels.GAME_NAMES) == {r.name for r in rules}
    assert _once(i18n_labels.GAME_IDS) == {r.id.capitalize() for r in rules}
    assert _once(i18n_labels.OPTION_LABELS) == {o.label for r in rules for o in r.option_specs}
    assert _once(i18n_labels.OPTION_CHOICES) == {
        c for r in rules for o in r.option_specs for c in o.choices if isinstance(c, str)}


def test_labels_cover_the_dispute_desk_and_error_pages() -> None:
    from werkzeug.exceptions import default_exceptions

    from scorekeeper.web import desk

    assert _once(i18n_labels.DESK_VARIANTS) == set(desk.KASINO_VARIANTS)
    assert {g[0] for g in desk.GAMES.values()} <= _once(i18n_labels.GAME_NAMES)
    assert _once(i18n_labels.HTTP_ERRORS) == {default_exceptions[c]().name for c in i18n_labels.HTTP_ERROR_CODES}


def test_generated_block_matches_the_module() -> None:
    """``python -m scorekeeper.web.i18n_labels`` regenerates exactly what the module lists."""
    generated: dict[str, object] = {"N_": i18n_labels.N_}
    exec(i18n_labels.generate(), generated)  # noqa: S102 - our own generated literals
    for name in ("GAME_NAMES", "GAME_IDS", "OPTION_LABELS", "OPTION_CHOICES", "DESK_VARIANTS", "HTTP_ERRORS"):
        assert generated[name] == getattr(i18n_labels, name), name


def _scored_kinds_in_the_engine() -> set[str]:
    """Every fixed ``what`` of a scoring fact: ``Scored(side, points, "what", …)``, a Kasino
    ``Category("what", …)``, a ``("what", "…-SCORE-n")`` pair, and Mulle's tally names."""
    from scorekeeper.engine.mulle import TALLY

    kinds: set[str] = set(TALLY)

    def constants(node: ast.expr) -> Iterator[str]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.value
        elif isinstance(node, ast.IfExp):
            yield from constants(node.body)
            yield from constants(node.orelse)

    for path in (ROOT / "scorekeeper" / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                position = {"Scored": 2, "Category": 0}.get(node.func.id)
                if position is None:
                    continue
                if len(node.args) > position:
                    kinds.update(constants(node.args[position]))
                kinds.update(v for k in node.keywords if k.arg == "what" for v in constants(k.value))
            elif isinstance(node, ast.Tuple):
                for what, rule in zip(node.elts, node.elts[1:], strict=False):
                    if (isinstance(what, ast.Constant) and isinstance(what.value, str)
                            and isinstance(rule, ast.Constant) and isinstance(rule.value, str)
                            and re.fullmatch(r"[A-Z]+-SCORE-\d+", rule.value)):
                        kinds.add(what.value)
    return kinds


def test_labels_cover_every_scoring_fact() -> None:
    kinds = _scored_kinds_in_the_engine()
    assert {"points", "penalty", "ante", "muggins", "stayed home", "ten_of_diamonds"} <= kinds
    assert kinds <= _once(i18n_labels.SCORED_KINDS), sorted(kinds - _once(i18n_labels.SCORED_KINDS))


def test_a_sheet_finds_its_language_and_catalogue_once_and_the_next_request_its_own(
        sqlite_app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """Flask-Babel looks the locale and catalogue up again on every call (a Mulle sheet made about
    eighty); the app asks it once a request (localize._reader), and a request in another language
    right after gets its own."""
    import flask_babel

    from scorekeeper import localize
    from tests.web.phone import HX, api_table

    client = sqlite_app.test_client()
    table = api_table(client, "mulle", [{"type": "deal", "dealer": 1, "table": ["5D", "9C", "4H", "AS"]}], ["Anna", "Bo"])
    calls = {"locale": 0, "catalogue": 0}
    locale, catalogue = flask_babel.get_locale, flask_babel.get_translations

    def counted_locale() -> Any:
        calls["locale"] += 1
        return locale()

    def counted_catalogue() -> Any:
        calls["catalogue"] += 1
        return catalogue()

    monkeypatch.setattr(localize, "get_locale", counted_locale)
    monkeypatch.setattr(localize, "get_translations", counted_catalogue)
    pages = {}
    for lang in ("sv", "de", "en"):
        calls.update(locale=0, catalogue=0)
        response = client.get(f"/t/{table['id']}/sheet", headers={**HX, "Accept-Language": lang})
        assert response.status_code == 200
        pages[lang] = response.get_data(as_text=True)
        assert calls == {"locale": 1, "catalogue": 1}, lang
    assert "osedda" in pages["sv"] and "ungesehen" in pages["de"] and "unseen" in pages["en"]
    assert "five of clubs" in pages["en"] and "five of clubs" not in pages["sv"] + pages["de"]
