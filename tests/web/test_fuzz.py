"""Hostile input: the OpenAPI description fuzzed with schemathesis, and random event streams for
every game. No 5xx, and a refused request leaves the table exactly as it was."""

from __future__ import annotations

from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.engine import RULES
from tests.web.conftest import make_app

_app = make_app("sqlite:///" + str(Path(__import__("tempfile").mkdtemp()) / "fuzz.sqlite"))
PLAYERS = {"scorepad": 2, "mulle": 2, "kasino": 2, "mulatschak": 4, "mousel": 4, "muggins": 3}
schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", _app)


# One test per API operation, each with its own id: schemathesis' own parametrisation gives
# them all one node id, and pytest-xdist then runs only one of them.
OPERATIONS = {op.definition.raw["operationId"]: op for op in (r.ok() for r in schema.get_all_operations())}


@pytest.mark.parametrize("operation", sorted(OPERATIONS))
@settings(max_examples=25, suppress_health_check=list(HealthCheck), deadline=None)
@given(data=st.data())
def test_api_never_answers_5xx(operation: str, data) -> None:
    case = data.draw(OPERATIONS[operation].as_strategy())
    if "table_id" in (case.path_parameters or {}) and data.draw(st.booleans(), label="on a real table"):
        # A made-up id stops at 401/404; half the cases reach the body checks of a real table.
        game = data.draw(st.sampled_from(sorted(PLAYERS)), label="game")
        client = _app.test_client()
        table = client.post("/api/v1/tables", json={"game": game, "players": [f"P{i}" for i in range(PLAYERS[game])]}).json
        case.path_parameters = {**case.path_parameters, "table_id": table["id"]}
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {table['write_token']}"}
    response = case.call()
    assert response.status_code < 500, (case.method, case.path, case.body, response.text[:300])


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 60) | st.text(max_size=6)
    | st.sampled_from(["5D", "AS", "10D", "OS", "W", "KH", "2S", "hE"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
KEYS = ["type", "player", "card", "capture", "side", "points", "table", "dealer", "cards", "to", "what", "bid",
        "suit", "count", "proposal", "seat"]


def events_for(game: str):
    types = st.sampled_from(["deal", "play", "points", "tally", "bid", "pass", "trump", "exchange", "fold",
                             "setup", "turn", "confirm", "dismiss", "take", "refuse", "deal_result", "x"])
    return st.dictionaries(st.sampled_from(KEYS), JSONISH, max_size=5).flatmap(
        lambda d: types.map(lambda t: {**d, "type": t}))


@pytest.mark.parametrize("game", [g for g in PLAYERS if g in RULES])
@settings(max_examples=40, suppress_health_check=list(HealthCheck), deadline=None)
@given(data=st.data())
def test_random_events_never_break_a_table(game: str, data) -> None:
    client = _app.test_client()
    table = client.post("/api/v1/tables", json={"game": game, "players": [f"P{i}" for i in range(PLAYERS[game])]}).json
    headers = {"Authorization": f"Bearer {table['write_token']}"}
    url = f"/api/v1/tables/{table['id']}"
    for event in data.draw(st.lists(events_for(game), min_size=1, max_size=6)):
        before = client.get(url, headers=headers).json
        response = client.post(f"{url}/events", json=event, headers=headers)
        assert response.status_code < 500, (event, response.text[:300])
        if response.status_code != 201:
            assert response.status_code in (400, 409, 422)
            assert client.get(url, headers=headers).json == before
