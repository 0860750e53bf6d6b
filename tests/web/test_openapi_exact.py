"""The OpenAPI document's NewTable and Export say exactly what the server accepts: random set-ups
(games, player lists, options, teams) are valid by the document exactly when the server opens
the table — except the two rules the document states in words (names equal after folding, a
score pad's target equal to its start), which the server alone refuses."""

from __future__ import annotations

import unicodedata
from typing import Any

import jsonschema_rs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import service
from scorekeeper.engine import RULES
from scorekeeper.service import TableError
from scorekeeper.service.tables import INVISIBLE

NAMES = st.sampled_from(["Anna", "anna", "Bo", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "", " ", "\u200b", "\u202eX",
                         "Ann\tA", "x" * 40, "y" * 41, " " + "z" * 40, "A\x01", "A\x85B", "\u00ad", "ﬁ", "fi", "Åsa"])
VALUES = st.sampled_from([True, False, None, 0, 1, 5, -1, 61, 100_001, "x", "standard", "misar", "drag", [], {}])
TEAMS = st.sampled_from([None, [], False, 0, [[0, 2], [1, 3]], [[3, 1], [2, 0]], [[0, 1], [2, 3]], [[0], [1]],
                         [[1], [0], [2]], [[0], [1], [2], [3]], [[0, 1, 2]], [[0, 1], [2]], [[0, 0], [1]], [[0], []],
                         [[0, 1], [1, 2]], [[True], [1]], "pairs"])


def _fold(name: str) -> str:
    text = " ".join(INVISIBLE.sub("", name).split())
    return "".join(c for c in unicodedata.normalize("NFKC", text).casefold() if unicodedata.category(c) != "Cf")


def _unsayable(body: Any) -> bool:
    """Does this set-up break one of the rules the document states only in words (NAMES_RULE)?"""
    if not isinstance(body, dict):
        return False
    players = body.get("players")
    if isinstance(players, list) and all(isinstance(p, str) for p in players):
        folded = [_fold(p) for p in players]
        if len(set(folded)) < len(folded):
            return True
    options = body.get("options") or {}
    if body.get("game") == "scorepad" and isinstance(options, dict):
        return options.get("start", 0) == options.get("target", 61)
    return False


GOOD = ["Anna", "Bo", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]


def _good_value(spec: Any) -> st.SearchStrategy[Any]:
    if spec.kind == "bool":
        return st.booleans()
    if spec.kind == "int":
        return st.sampled_from([spec.default, spec.minimum, spec.maximum])
    return st.sampled_from(spec.choices)


@st.composite
def setups(draw: st.DrawFn) -> dict[str, Any]:
    """Mostly near the line: good names in a good number, options of the right type, then a
    few things wrong at once."""
    game = draw(st.sampled_from(sorted(RULES)))
    rules = RULES[game]
    specs = {spec.key: spec for spec in rules.option_specs}
    keys = [*specs, "teams", "review_after_deal", "nope"]
    options: dict[str, Any] = {}
    for key in draw(st.lists(st.sampled_from(keys), max_size=4, unique=True)):
        if key == "teams":
            options[key] = draw(TEAMS)
        elif key in specs and draw(st.integers(0, 4)):
            options[key] = draw(_good_value(specs[key]))
        else:
            options[key] = draw(st.booleans() if key == "review_after_deal" and draw(st.booleans()) else VALUES)
    n = draw(st.integers(rules.min_players - 1, rules.max_players + 1))
    players = GOOD[:n] if draw(st.integers(0, 3)) else draw(st.lists(NAMES, min_size=max(n - 1, 0), max_size=n + 1))
    body: dict[str, Any] = {"game": game, "players": players}
    if draw(st.booleans()):
        body["options"] = draw(st.sampled_from([options, options, options, None, [], "x"]))
    if draw(st.booleans()):
        body["mode"] = draw(st.sampled_from(["adjudicate", "tally", None, "x", 1]))
    return body


def _validator(client: Any, name: str) -> jsonschema_rs.Validator:
    doc = client.get("/api/v1/openapi.json").json
    return jsonschema_rs.Draft202012Validator({"$ref": f"#/components/schemas/{name}",
                                                "components": doc["components"]})


def _accepted(body: dict[str, Any], importing: bool) -> bool:
    try:
        if importing:
            service.import_table(body)
        else:
            service.create_table(body.get("game"), body.get("players"), body.get("mode"), body.get("options"))
    except TableError as exc:
        assert exc.status in (400, 422), exc
        return False
    return True


@pytest.mark.parametrize("importing", [False, True], ids=["create", "import"])
def test_the_document_accepts_exactly_the_set_ups_the_server_opens(sqlite_app, importing: bool) -> None:
    client = sqlite_app.test_client()
    validator = _validator(client, "Export" if importing else "NewTable")
    seen = {True: 0, False: 0}

    @settings(max_examples=600, suppress_health_check=list(HealthCheck), deadline=None)
    @given(body=setups())
    def check(body: dict[str, Any]) -> None:
        if importing:
            body = {**body, "format": "scorekeeper/1", "events": []}
        valid = validator.is_valid(body)
        with sqlite_app.app_context():
            accepted = _accepted(body, importing)
        seen[accepted] += 1
        if valid and not accepted:
            assert _unsayable(body), f"the document admits what the server refuses: {body}"
        else:
            assert valid == accepted, f"document {'admits' if valid else 'refuses'} {body}"

    check()
    assert seen[True] > 30 and seen[False] > 30, seen  # both sides of the line were tried
