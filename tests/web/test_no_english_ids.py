"""No internal id inside a Swedish or German message (issue 26): "går inte nu (fas: turn up)",
"(Phase: turn up)", "sida 1", "Vorschlag bereits confirmed" read as a bug to a player.

The engine is driven through whole simulated sessions of every game and mode (tests/scenes.py).
At every moment a page can show, every message it can produce is rendered in Swedish and German
with the table's names: the state as the screens read it, the history line of each event, and
the refusal of every kind of move the sessions ever made, tried from every moment (wrong phase,
wrong turn, a card already seen, a proposal already settled …). Then the same through the
service and the pages, whose call sites choose the names a message is rendered with.
"""

from __future__ import annotations

import ast
import html
import re
import typing
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from babel.support import Translations
from flask import Flask

from scorekeeper.engine import RULES
from scorekeeper.engine.base import RuleViolation
from scorekeeper.engine.core.errors import MalformedEvent, SetupError
from scorekeeper.engine.messages import Msg, TableNames, render
from tests.scenes import NAMES, Scene, moment, scenes

ROOT = Path(__file__).resolve().parent.parent.parent
ENGINE = ROOT / "scorekeeper" / "engine"


def _literals() -> set[str]:
    """Every phase and status id the engine's states declare (``Phase = Literal[…]`` …)."""
    from scorekeeper.engine.core import proposal
    from scorekeeper.engine.kasino import state as kasino
    from scorekeeper.engine.mousel import state as mousel
    from scorekeeper.engine.muggins import state as muggins
    from scorekeeper.engine.mulatschak import state as mulatschak
    from scorekeeper.engine.mulle import state as mulle

    found = {"between_deals", "ended"}  # MouselState.phase outside a deal
    for module in (mulle, kasino, mousel, mulatschak, muggins):
        found |= set(typing.get_args(module.Phase))
    found |= set(typing.get_args(mousel.Status)) | set(typing.get_args(proposal.Status))
    return found


# "in" is a Swedish and German word; every other id is English only.
IDS = sorted(_literals() - {"in"})
ID_WORDS = re.compile(r"(?<![\w-])(" + "|".join(re.escape(i) for i in IDS) + r"|"
                      + "|".join(re.escape(i.replace("_", " ")) for i in IDS if "_" in i) + r")(?![\w-])")
SEATS = re.compile(r"\b(side|sida|Seite|player|spelare|Spieler) \d+\b")


def leaks(text: str) -> list[str]:
    """The internal ids in a rendered message: a phase or status id, a side or seat by its number."""
    return [m.group(0) for m in ID_WORDS.finditer(text)] + [m.group(0) for m in SEATS.finditer(text)]


def test_the_leak_finder_finds_the_issues_examples() -> None:
    assert leaks("att ta det vända kortet går inte nu (fas: turn up)") == ["turn up"]
    assert leaks("(Phase: turn_up)") == ["turn_up"]
    assert leaks("Vorschlag #2 ist bereits confirmed") == ["confirmed"]
    assert leaks("+3 → sida 1") == ["sida 1"] and leaks("+3 → Seite 0") == ["Seite 0"]
    assert leaks("Anna: 3 stick, Bo vann i förhand") == []
    assert {"turn_up", "offer", "confirmed", "dismissed", "bidding", "settling"} <= set(IDS)


@cache
def _catalog(lang: str) -> Translations:
    return Translations.load(str(ROOT / "scorekeeper" / "translations"), [lang])


def _messages(value: Any) -> Iterator[Msg]:
    """The messages in a state's JSON (its other strings are data: ``"phase": "turn_up"`` is a field)."""
    if isinstance(value, Msg):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _messages(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _messages(item)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)


def _names(scene: Scene, state_json: dict[str, Any]) -> TableNames:
    players = NAMES[:scene.players]
    sides = state_json.get("sides")
    teams = scene.options.get("teams")
    if isinstance(sides, list) and sides and all(isinstance(t, list) for t in sides):
        labels = [" & ".join(players[i] for i in team) for team in sides]
    elif teams:
        labels = [" & ".join(players[i] for i in team) for team in teams]
    else:
        labels = list(players)
    return TableNames(players, labels)


def _probes(events: list[dict[str, Any]], players: int) -> list[dict[str, Any]]:
    """One event of every kind the session made, and each of them by every other player."""
    kinds: dict[tuple[Any, ...], dict[str, Any]] = {}
    for event in events:
        kinds.setdefault((event.get("type"), tuple(sorted(event))), event)
    probes = []
    for event in kinds.values():
        probes.append(event)
        if isinstance(event.get("player"), int):
            probes += [{**event, "player": (event["player"] + k) % players} for k in range(1, players)]
    return probes


SCENES = list(scenes())


@pytest.mark.parametrize("scene", SCENES, ids=lambda s: s.label)
def test_no_internal_id_in_any_swedish_or_german_engine_message(scene: Scene) -> None:
    rules = RULES[scene.game]
    players = NAMES[:scene.players]
    state = rules.new(players, scene.options, scene.mode)  # type: ignore[call-arg]
    probes = _probes(scene.events, scene.players)
    found: dict[str, set[str]] = {}
    seen: set[tuple[Any, ...]] = set()
    rendered = 0

    def check(value: Any, names: TableNames, where: str) -> None:
        nonlocal rendered
        for lang in ("sv", "de"):
            for text in (render(message, lang, names, _catalog(lang).gettext) for message in _messages(value)):
                rendered += 1
                for leak in leaks(text):
                    found.setdefault(f"{leak!r} in {lang}: {text[:160]!r}", set()).add(where)

    for event in [None, *scene.events]:
        if event is not None:
            check(rules.describe(event, players), _names(scene, rules.to_json(state)), "history line")
            state = rules.apply(state, event)
        key = moment(state, event)
        if key in seen:
            continue
        seen.add(key)
        data = rules.to_json(state)
        names = _names(scene, data)
        check(data, names, f"state at {key[:3]}")
        for probe in probes:
            try:
                rules.apply(state, probe)
            except (RuleViolation, MalformedEvent, SetupError) as exc:
                check(exc.message, names, f"refusal of {probe.get('type')} at {key[:3]}")
    assert rendered, "the session rendered no message: the scan is broken"
    assert not found, "\n".join(f"{text}  ({', '.join(sorted(at)[:3])})" for text, at in sorted(found.items())[:40])


def test_no_message_is_built_from_a_phase_or_status_attribute() -> None:
    """``M("… %(now)s", now=state.phase)`` puts the id itself into every language."""
    bad = []
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("M", "Msg"):
                for kw in node.keywords:
                    value = kw.value
                    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
                        value = value.func.value  # state.phase.replace("_", " ") is the id still
                    if isinstance(value, ast.Attribute) and value.attr in ("phase", "status"):
                        bad.append(f"{path.relative_to(ENGINE)}:{node.lineno} {kw.arg}=….{value.attr}")
    assert not bad, bad


# --- Through the service and the pages: the call sites choose the names ----------------------------


def _request(app: Flask, lang: str) -> Any:
    return app.test_request_context(headers={"Accept-Language": lang})


@pytest.mark.parametrize("lang", ["sv", "de"])
def test_sides_are_named_on_every_path_a_message_takes(sqlite_app: Flask, lang: str) -> None:
    """A score pad and a Mulle tally name a side by its players on the page, in the history, in the
    preview of a move and in the JSON — never "sida 1" / "Seite 1"."""
    from scorekeeper import service

    client = sqlite_app.test_client()
    headers = {"Accept-Language": lang}
    with sqlite_app.app_context():
        pad = service.create_table("scorepad", ["Anna", "Bo", "Cilla", "Dieter"], "adjudicate",
                                   {"teams": [[0, 2], [1, 3]]})
        mulle = service.create_table("mulle", ["Anna", "Bo"], "tally")
        for event in ({"type": "points", "side": 1, "points": 7}, {"type": "points", "side": 0, "points": 5}):
            service.record(pad.id, event)
        service.record(mulle.id, {"type": "deal", "dealer": 0})
        service.record(mulle.id, {"type": "tally", "side": 1, "what": "mulle"})
        ids = {pad.id: pad.write_token, mulle.id: mulle.write_token}
    texts: list[str] = []  # pages as text: "Bo &amp; Dieter" read as "Bo & Dieter"
    for table_id, token in ids.items():
        client.get(f"/t/{table_id}/k/{token}")
        texts.append(html.unescape(client.get(f"/t/{table_id}", headers=headers).get_data(as_text=True)))
        texts.append(html.unescape(client.get(f"/t/{table_id}/history", headers=headers).get_data(as_text=True)))
        texts += list(_strings(client.get(f"/api/v1/tables/{table_id}",
                                          headers={**headers, "Authorization": f"Bearer {token}"}).json))
    texts.append(html.unescape(client.get(f"/t/{pad.id}/preview", query_string={"type": "points", "side:int": "1", "points:int": "3"},
                            headers=headers).get_data(as_text=True)))
    texts.append(html.unescape(client.get(f"/t/{mulle.id}/preview", query_string={"type": "tally", "side:int": "0", "what": "ace"},
                            headers=headers).get_data(as_text=True)))
    refused = client.post(f"/api/v1/tables/{mulle.id}/events", json={"type": "tally", "side": 1, "what": "mulle"},
                          headers={**headers, "Authorization": f"Bearer {ids[mulle.id]}"})
    texts.append(str(refused.json))
    problems = [leak for text in texts for leak in SEATS.findall(text)]
    assert not problems, problems
    assert any("Bo & Dieter" in text for text in texts) and any("Bo" in text for text in texts)


@pytest.mark.parametrize("lang", ["sv", "de"])
def test_a_refusal_names_the_phase_in_the_readers_words(client: Any, lang: str) -> None:
    """The issue's example: taking the turned-up card before one is turned up."""
    made = client.post("/api/v1/tables", json={"game": "mousel", "players": ["Anna", "Bo", "Cilla"]}).json
    auth = {"Authorization": f"Bearer {made['write_token']}", "Accept-Language": lang}
    assert client.post(f"/api/v1/tables/{made['id']}/events", json={"type": "deal", "dealer": 0},
                       headers=auth).status_code == 201
    error = client.post(f"/api/v1/tables/{made['id']}/events", json={"type": "take", "player": 1},
                        headers=auth).json["error"]
    assert error["rule"] and not leaks(error["message"]), error["message"]
    assert ("fas:" in error["message"]) if lang == "sv" else ("Phase:" in error["message"])


FACES_EN = re.compile(r"(?<![\w])([JQ])([♠♥♦♣])")
FACES = {"sv": {"J": "Kn", "Q": "D", "A": "E"}, "de": {"J": "B", "Q": "D"}}


def test_the_review_names_cards_with_the_tables_letters(sqlite_app: Flask) -> None:
    """"hade Q♣" in a Swedish review, "Besser: Q♣" in a German one: the queen is D(am/e) on the
    cards the players hold, and on the page's own card buttons."""
    from scorekeeper import service

    scene = next(s for s in scenes() if s.label == "kasino-3")
    client = sqlite_app.test_client()
    with sqlite_app.app_context():
        table = service.create_table(scene.game, NAMES[:scene.players], scene.mode, scene.options)
        for event in scene.events:
            service.record(table.id, event)
        table_id, token = table.id, table.write_token
    client.get(f"/t/{table_id}/k/{token}")
    checked = 0
    for deal in range(1, 12):
        english = html.unescape(client.get(f"/t/{table_id}/review?deal={deal}", headers={"Accept-Language": "en"})
                                .get_data(as_text=True))
        faces = FACES_EN.findall(english)
        if not faces:
            continue
        for lang, letters in FACES.items():
            text = html.unescape(client.get(f"/t/{table_id}/review?deal={deal}", headers={"Accept-Language": lang})
                                 .get_data(as_text=True))
            assert not FACES_EN.findall(text), (lang, deal, FACES_EN.findall(text))
            for rank, suit in faces:
                assert letters[rank] + suit in text, (lang, deal, rank + suit)
        checked += 1
    assert checked, "no review of this session shows a queen or a knave"
