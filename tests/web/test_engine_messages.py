"""Engine messages as data, rendered in the reader's language (issue 14).

Every refusal, capture explanation, history line and summary the engine hands out is a ``Msg``
(template + parameters). These tests hold the engine to that, hold the catalogs to a Swedish and
a German text for every template and every card name, and check that the API answers in the
language the client asks for.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from flask import Flask

from scorekeeper.cards import (
    FRENCH_RANKS,
    FRENCH_SUITS,
    GERMAN_RANKS,
    GERMAN_SUITS,
    Card,
    card_text,
    german_pack,
    suit_text,
)
from scorekeeper.engine.base import RuleViolation
from scorekeeper.engine.capture import explain_failure, mulle_scheme
from scorekeeper.engine.messages import M, Msg, Seat, render
from tests.web.conftest import Api

ROOT = Path(__file__).resolve().parent.parent.parent
ENGINE = ROOT / "scorekeeper" / "engine"
TRANSLATIONS = ROOT / "scorekeeper" / "translations"
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")
RAISED = {"RuleViolation", "SetupError", "MalformedEvent", "Outcome"}
# Every engine module by its path under engine/ (games are packages: "mousel/play"), messages.py aside.
GAMES = sorted(str(p.relative_to(ENGINE).with_suffix("")) for p in ENGINE.rglob("*.py")
               if p.name != "__init__.py" and p.stem != "messages")


def _templates(path: Path) -> list[tuple[int, str]]:
    """Every ``M("…")`` template of one engine module (the texts ``pybabel extract -k M`` collects)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "M"
                and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            found.append((node.lineno, node.args[0].value))
    return found


def _catalog(lang: str) -> dict[str, str]:
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as fh:
        return {m.id: m.string for m in read_po(fh, locale=lang) if isinstance(m.id, str) and m.id and not m.fuzzy}


@pytest.mark.parametrize("module", GAMES)
def test_the_engine_raises_messages_not_sentences(module: str) -> None:
    """A refusal built from an f-string or a literal cannot be translated: it must be ``M(…)``."""
    tree = ast.parse((ENGINE / f"{module}.py").read_text())
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in RAISED:
            text = node.args[1] if len(node.args) > 1 else None
            if node.func.id == "MalformedEvent":
                text = node.args[0] if node.args else None
            if isinstance(text, (ast.Constant, ast.JoinedStr, ast.BinOp)):
                bad.append(f"{module}.py:{node.lineno}")
    assert not bad, f"finished English sentences instead of M(…): {bad}"


@pytest.mark.parametrize("lang", ["sv", "de"])
@pytest.mark.parametrize("module", GAMES)
def test_every_engine_message_has_a_translation_keeping_its_parameters(module: str, lang: str) -> None:
    catalog = _catalog(lang)
    problems = []
    for line, template in _templates(ENGINE / f"{module}.py"):
        text = catalog.get(template)
        if not text:
            problems.append(f"{module}.py:{line} untranslated: {template!r}")
        elif set(PLACEHOLDER.findall(text)) != set(PLACEHOLDER.findall(template)):
            problems.append(f"{module}.py:{line} drops or adds a parameter: {text!r}")
    assert not problems, "\n".join(problems[:30])


def test_the_checks_above_can_fail() -> None:
    """The placeholder rule is the one that matters: a translation without %(card)s would hide the card."""
    assert set(PLACEHOLDER.findall("%(card)s kan inte ta in %(taken)s")) != set(
        PLACEHOLDER.findall("%(card)s cannot take %(taken)s: %(why)s"))
    assert any(_templates(ENGINE / f"{module}.py") for module in GAMES if module.startswith("mulle")), \
        "no M(…) found: the scan is broken"


# --- Card names in running text --------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["sv", "de"])
def test_every_french_card_has_its_own_name_in_running_text(lang: str) -> None:
    names = {card_text(Card(r, s), lang) for r in FRENCH_RANKS for s in FRENCH_SUITS}
    assert len(names) == 52
    assert not any("♠" in n or "♥" in n or "♦" in n or "♣" in n for n in names)
    for s in FRENCH_SUITS:
        assert suit_text(s, lang) != suit_text(s, "en")


def test_the_names_players_say() -> None:
    assert card_text(Card("8", "C"), "sv") == "klöver åtta"
    assert card_text(Card("10", "D"), "sv") == "ruter tia"
    assert card_text(Card("2", "S"), "sv") == "spader tvåa"
    assert card_text(Card("Q", "H"), "de") == "Herz-Dame"
    assert card_text(Card("J", "C"), "de") == "Kreuz-Bube"
    assert card_text(Card("A", "S"), "de") == "Pik-Ass"
    assert card_text(Card("Q", "H"), "en") == "Q♥"


@pytest.mark.parametrize("lang", ["en", "sv", "de"])
def test_the_german_pack_keeps_its_own_names(lang: str) -> None:
    names = {card_text(c, lang, "german") for c in german_pack()}
    assert len(names) == 33
    assert {"Herz-Sau", "Schellen-Ober", "Laub-Unter", "Eichel-König", "Weli"} <= names
    assert {suit_text(s, lang, "german") for s in GERMAN_SUITS} == {"Herz", "Schelle", "Laub", "Eichel"}
    assert all(card_text(Card(r, "E"), lang, "german").startswith("Eichel-") for r in GERMAN_RANKS)


# --- Rendering ---------------------------------------------------------------------------------------


def test_a_message_is_its_english_text_and_renders_per_language() -> None:
    why = explain_failure(Card("Q", "H"), [Card("4", "H"), Card("9", "D")], mulle_scheme())
    assert isinstance(why, Msg)
    assert why == ("Q♥ counts 12; no group of 4♥ 9♦ adds up to 12 (together they make 13)")
    sv = {"%(played)s counts %(values)s; %(reasons)s": "%(played)s räknas som %(values)s; %(reasons)s",
          "no group of %(cards)s adds up to %(value)s (together they make %(total)s)":
          "ingen grupp av %(cards)s blir %(value)s (tillsammans blir de %(total)s)"}
    assert why.render("sv", translate=lambda t: sv.get(t, t)) == (
        "hjärter dam räknas som 12; ingen grupp av hjärter fyra, ruter nia blir 12 (tillsammans blir de 13)")


def test_seats_are_named_by_the_players_names() -> None:
    msg = M("it is %(to_act)s's turn to bid, not %(player)s's", to_act=Seat(2), player=Seat(0))
    assert msg.render("en", ["Anna", "Bo", "Cy"]) == "it is Cy's turn to bid, not Anna's"
    assert render({"a": [msg]}, "en", ["Anna", "Bo", "Cy"]) == {"a": ["it is Cy's turn to bid, not Anna's"]}


def test_a_translation_that_lost_a_parameter_falls_back_to_english() -> None:
    msg = M("%(card)s cannot take %(taken)s: %(why)s", card=Card("7", "H"), taken="5♣", why="no")
    assert msg.render("sv", translate=lambda t: "%(card)s kan inte %(missing)s") == "hjärter sjua cannot take 5♣: no"


def test_a_rule_violation_keeps_its_english_message_and_its_data() -> None:
    exc = RuleViolation("X-1", M("%(card)s is not on the table", card=Card("7", "H")))
    assert exc.message == "7♥ is not on the table" and str(exc) == "X-1: 7♥ is not on the table"
    assert isinstance(exc.message, Msg) and exc.message.params["card"] == Card("7", "H")


# --- The API speaks the client's language ------------------------------------------------------------


def _refused_mulle(api: Api, lang: str | None) -> dict:
    table = api.table(game="mulle", players=["Anna", "Bo"])
    assert api.post(table, {"type": "deal", "dealer": 0, "table": ["4H", "9D", "KS", "3C"]}).status_code == 201
    headers = {"Authorization": f"Bearer {table['write_token']}"}
    if lang:
        headers["Accept-Language"] = lang
    response = api.client.post(f"/api/v1/tables/{table['id']}/events", headers=headers,
                               json={"type": "play", "player": 1, "card": "QH", "capture": ["4H", "9D"]})
    assert response.status_code == 422
    return response.json["error"]


@pytest.mark.parametrize(("lang", "text"), [
    (None, "Q♥ cannot take 4♥ 9♦: Q♥ counts 12; no group of 4♥ 9♦ adds up to 12 (together they make 13)"),
    ("fr", "Q♥ cannot take 4♥ 9♦: Q♥ counts 12; no group of 4♥ 9♦ adds up to 12 (together they make 13)"),
    ("sv", "hjärter dam kan inte ta in hjärter fyra, ruter nia: hjärter dam räknas som 12; ingen grupp av "
           "hjärter fyra, ruter nia blir 12 (tillsammans blir de 13)"),
    ("de", "Herz-Dame kann Herz-Vier, Karo-Neun nicht nehmen: Herz-Dame zählt 12; keine Gruppe aus "
           "Herz-Vier, Karo-Neun ergibt 12 (zusammen ergeben sie 13)"),
])
def test_error_message_in_the_clients_language(api: Api, lang: str | None, text: str) -> None:
    error = _refused_mulle(api, lang)
    assert error == {"code": "illegal_move", "rule": "MULLE-CAP-4", "message": text}


def test_the_turn_refusal_names_the_players(api: Api) -> None:
    table = api.table(game="mulle", players=["Anna", "Bo"])
    api.post(table, {"type": "deal", "dealer": 0, "table": ["4H", "9D", "KS", "3C"]})
    response = api.client.post(f"/api/v1/tables/{table['id']}/events", json={"type": "play", "player": 0, "card": "QH"},
                               headers={"Authorization": f"Bearer {table['write_token']}", "Accept-Language": "sv"})
    assert response.json["error"]["message"] == "det är Bo som står på tur, inte Anna"


def test_human_text_in_the_state_follows_the_language(api: Api) -> None:
    table = api.table(game="mulle", players=["Anna", "Bo"])
    api.post(table, {"type": "deal", "dealer": 0, "table": ["4H", "5D", "KS", "3C"]})
    api.post(table, {"type": "play", "player": 1, "card": "9S", "capture": ["4H", "5D"]})
    headers = {"Authorization": f"Bearer {table['read_token']}"}
    english = api.client.get(f"/api/v1/tables/{table['id']}", headers=headers).json["state"]["last_move"]
    swedish = api.client.get(f"/api/v1/tables/{table['id']}", headers={**headers, "Accept-Language": "sv"}).json
    german = api.client.get(f"/api/v1/tables/{table['id']}", headers={**headers, "Accept-Language": "de-AT"}).json
    assert english["describe"] == "9♠ as 9 takes 4♥+5♦ = 9"
    assert swedish["state"]["last_move"]["describe"] == "spader nia som 9 tar hjärter fyra + ruter femma = 9"
    assert german["state"]["last_move"]["describe"] == "Pik-Neun als 9 nimmt Herz-Vier + Karo-Fünf = 9"
    # Field names, codes and card codes never change with the language.
    assert swedish["state"]["last_move"]["capture"] == english["capture"] == ["4H", "5D"]
    assert swedish["state"].keys() == german["state"].keys()


def test_history_lines_follow_the_language(sqlite_app: Flask) -> None:
    from scorekeeper import service

    with sqlite_app.app_context():
        table = service.create_table("mulle", ["Anna", "Bo"])
        service.record(table.id, {"type": "deal", "dealer": 0, "table": ["4H", "5D", "KS", "3C"]})
        service.record(table.id, {"type": "play", "player": 1, "card": "9S", "capture": ["4H", "5D"]})
        with sqlite_app.test_request_context(headers={"Accept-Language": "sv"}):
            lines = [row.text for row in service.history(service.get_table(table.id))]
    assert lines == ["Anna ger; på bordet hjärter fyra, ruter femma, spader kung, klöver trea",
                     "Bo: spader nia tar in hjärter fyra, ruter femma"]


def _post(api: Api, table: dict, event: dict, lang: str) -> dict:
    response = api.client.post(f"/api/v1/tables/{table['id']}/events", json=event,
                               headers={"Authorization": f"Bearer {table['write_token']}", "Accept-Language": lang})
    return {"status": response.status_code, **response.json["error"]}


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "it is Bo's turn to bid, not Anna's"),
    ("sv", "det är Bo som ska bjuda, inte Anna"),
    ("de", "Bo ist mit Bieten an der Reihe, nicht Anna"),
])
def test_mulatschak_names_players_not_seat_numbers(api: Api, lang: str, text: str) -> None:
    """The issue's example: "it is player 1's turn to bid, not player 2's" named seats from 0."""
    table = api.table(game="mulatschak", players=["Anna", "Bo", "Cy"])
    assert api.post(table, {"type": "cut", "player": 2}).status_code == 201
    error = _post(api, table, {"type": "bid", "player": 0, "tricks": 2}, lang)
    assert error == {"status": 422, "code": "illegal_move", "rule": "MULAT-BID-2", "message": text}


def test_german_pack_cards_are_named_the_austrian_way(api: Api) -> None:
    table = api.table(game="mulatschak", players=["Anna", "Bo", "Cy"])
    api.post(table, {"type": "cut", "player": 2})
    error = _post(api, table, {"type": "collapse", "player": 1, "cards": ["AH", "OS", "7L", "8E", "9H"]}, "de")
    assert error["rule"] == "MULAT-DEAL-7"
    assert error["message"].startswith("die Hand hat Herz-Sau, Schellen-Ober: nur eine Hand ohne etwas über dem Zehner")


@pytest.mark.parametrize(("lang", "message"), [
    (None, "send the table's token as 'Authorization: Bearer <token>'"),
    ("sv", "skicka bordets token som 'Authorization: Bearer <token>'"),
    ("de", "schicke das Token des Tisches als 'Authorization: Bearer <token>'"),
])
def test_service_refusals_follow_the_language_too(client, lang: str | None, message: str) -> None:
    headers = {"Accept-Language": lang} if lang else {}
    response = client.post("/api/v1/tables/nope/events", json={"type": "x"}, headers=headers)
    assert response.status_code == 401
    assert response.json["error"] == {"code": "unauthorized", "rule": None, "message": message}


@pytest.mark.parametrize(("lang", "message"), [
    ("en", "cannot read 'ZZ' as a card of the french pack"),
    ("sv", "kan inte läsa 'ZZ' som ett kort (kortlek: french)"),
])
def test_bad_notation_follows_the_language(api: Api, lang: str, message: str) -> None:
    table = api.table(game="mulle", players=["Anna", "Bo"])
    api.post(table, {"type": "deal", "dealer": 0, "table": ["4H", "9D", "KS", "3C"]})
    error = _post(api, table, {"type": "play", "player": 1, "card": "ZZ"}, lang)
    assert error == {"status": 400, "code": "bad_notation", "rule": None, "message": message}


def test_the_dispute_desk_speaks_swedish(client) -> None:
    page = client.get("/desk/?game=mulle&table=4H+9D&played=QH&taken=4H+9D&lang=sv").get_data(as_text=True)
    assert "hjärter dam räknas som 12; ingen grupp av hjärter fyra, ruter nia blir 12" in page


def test_http_errors_of_the_api_follow_the_language(client) -> None:
    english = client.get("/api/v1/no-such-route").json["error"]
    swedish = client.get("/api/v1/no-such-route", headers={"Accept-Language": "sv"}).json["error"]
    assert english["code"] == swedish["code"] == "not_found"
    assert swedish["message"] == "det finns inget på den här adressen" != english["message"]


def test_right_to_left_names_are_isolated_in_running_text() -> None:
    """An Arabic or Hebrew name keeps its place in a left-to-right sentence (and vice versa)."""
    message = M("%(player)s takes %(n)s", player=Seat(0), n=3)
    assert render(message, "en", ["سارة"]) == "\u2068سارة\u2069 takes 3"
    assert render(message, "sv", ["דנה"]).startswith("\u2068דנה\u2069")
    assert render(message, "en", ["Åsa"]) == "Åsa takes 3"  # left-to-right names stay as typed


def test_a_table_page_isolates_a_right_to_left_name_once(client) -> None:
    made = client.post("/api/v1/tables", json={"game": "scorepad", "players": ["سارة", "Bo"]}).json
    client.post(f"/api/v1/tables/{made['id']}/events", json={"type": "points", "side": 0, "points": 7},
                headers={"Authorization": f"Bearer {made['write_token']}"})
    client.get(f"/t/{made['id']}/k/{made['write_token']}")
    page = client.get(f"/t/{made['id']}").get_data(as_text=True)
    assert "\u2068سارة\u2069" in page and "\u2068\u2068" not in page
    table = client.get(f"/api/v1/tables/{made['id']}", headers={"Authorization": f"Bearer {made['read_token']}"}).json
    assert table["players"] == ["سارة", "Bo"]  # stored and served as typed


@pytest.mark.parametrize("lang", ["en", "sv", "de"])
def test_the_views_gettext_says_what_flask_babels_says(app: Flask, lang: str) -> None:
    """The views' ``gettext`` and ``ngettext`` (``scorekeeper.localize``: the catalogue found once
    a request) answer as Flask-Babel's own, in the reader's language."""
    import flask_babel

    from scorekeeper import localize

    plural = "%(player)s revoked: the share for %(num)s trick stays in the pot."
    with app.test_request_context("/", headers={"Accept-Language": lang}):
        assert localize.gettext("Confirm move") == flask_babel.gettext("Confirm move")
        assert localize.gettext("Deal %(n)s: the count", n=3) == flask_babel.gettext("Deal %(n)s: the count", n=3)
        for num in (1, 2):
            assert (localize.ngettext(plural, plural.replace("trick", "tricks"), num, player="Bo")
                    == flask_babel.ngettext(plural, plural.replace("trick", "tricks"), num, player="Bo"))
        said = localize.gettext("Confirm move")
    assert said == {"en": "Confirm move", "sv": "Bekräfta draget", "de": said}[lang]
    if lang == "de":
        assert said != "Confirm move"
