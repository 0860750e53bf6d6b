"""Typed events at the edge: every game's events and state in the OpenAPI document, generated from
the schema models that check each event's shape before the engine sees it (scorekeeper/schemas).
tests/engine/conftest.py holds the other half: every event the engine accepts fits its model."""

from __future__ import annotations

import pytest

from scorekeeper.engine import RULES
from scorekeeper.schemas import GAMES, event_models, event_type_count
from tests.web.conftest import Api

PLAYERS = {"scorepad": 2, "mulle": 2, "kasino": 2, "mulatschak": 4, "mousel": 4, "muggins": 3}


def table_of(api: Api, game: str) -> dict:
    return api.table(game=game, players=[f"P{i}" for i in range(PLAYERS[game])])


def test_the_openapi_document_describes_every_event_type_and_state(client) -> None:
    doc = client.get("/api/v1/openapi.json").json
    schemas = doc["components"]["schemas"]
    assert set(GAMES) == set(RULES)
    described = 0
    for game in RULES:
        union = schemas[f"{game.title()}Event"]
        refs = [ref["$ref"].rsplit("/", 1)[1] for ref in union["oneOf"]]
        types = set()
        for name in refs:
            event = schemas[name]
            assert event["properties"]["type"]["const"] and "type" in event["required"], name
            assert event.get("description"), f"{name} says what it is"
            types.add(event["properties"]["type"]["const"])
            described += not event.get("deprecated")
        assert types == set(event_models(game)), game
        if len(refs) > 1:
            assert union["discriminator"]["propertyName"] == "type"
            assert set(union["discriminator"]["mapping"]) == types
        state = schemas[f"{game.title()}State"]
        assert {"scores", "over", "winner", "to_act"} <= set(state["required"])
        assert state.get("additionalProperties") is False and len(state["properties"]) > 4 or game == "scorepad"
    assert described == event_type_count() >= 45
    body = doc["paths"]["/api/v1/tables/{table_id}/events"]["post"]["requestBody"]["content"]["application/json"]
    assert {ref["$ref"] for ref in body["schema"]["anyOf"]} == {f"#/components/schemas/{g.title()}Event" for g in RULES}
    table = doc["paths"]["/api/v1/tables/{table_id}"]["get"]["responses"]["200"]["content"]["application/json"]
    assert len(table["schema"]["properties"]["state"]["anyOf"]) == len(RULES)
    aliases = [schemas["MouselConfirmRevoke"], schemas["MouselDismissRevoke"]]
    assert all(alias["deprecated"] and "Alias of" in alias["description"] for alias in aliases)


@pytest.mark.parametrize("game, event, message", [
    ("mulle", {"type": "play", "player": 0}, "the event needs 'card'"),
    ("mulle", {"type": "play", "player": "0", "card": "5C"}, "'player' must be a whole number"),
    ("mulatschak", {"type": "cut", "player": 1, "weli": "no"}, "'weli' must be true or false"),
    ("mousel", {"type": "confirm"}, "the event needs 'proposal'"),
    ("muggins", {"type": "turn", "card": "6H", "to": {"pile": "centre"}}, "'to.pile'"),
])
def test_an_event_of_the_wrong_shape_is_400_and_changes_nothing(api: Api, game, event, message) -> None:
    table = table_of(api, game)
    before = api.get(table).json
    response = api.post(table, event)
    assert response.status_code == 400, response.json
    error = response.json["error"]
    assert error["code"] == "malformed_event" and error["rule"] is None
    assert message in error["message"], error["message"]
    assert api.get(table).json == before


# Each fits another game's event (the document's body takes every game's), so the body is
# well-formed and it is this table's game that takes no such event.
@pytest.mark.parametrize("game, event, message", [
    ("mulle", {"type": "play", "player": 0, "card": "5C", "capture": {"5C": 1}}, "'capture'"),
    ("kasino", {"type": "deal_result", "sides": [{"cards": -1}, {}]}, "'sides.0"),
    ("muggins", {"type": "deal"}, "muggins has no 'deal' event (events: result, setup, stop, turn)"),
])
def test_another_games_event_is_422_and_changes_nothing(api: Api, game, event, message) -> None:
    table = table_of(api, game)
    before = api.get(table).json
    response = api.post(table, event)
    assert response.status_code == 422, response.json
    error = response.json["error"]
    assert error["code"] == "illegal_move" and error["rule"] == "TABLE-EVENT-1"
    assert message in error["message"], error["message"]
    assert api.get(table).json == before


def test_the_engine_still_judges_cards_and_rules(api: Api) -> None:
    table = table_of(api, "mulle")
    deal = api.post(table, {"type": "deal", "dealer": 1, "table": ["5D", "9C", "4H", "AS"]})
    assert deal.status_code == 201
    unreadable = api.post(table, {"type": "play", "player": 0, "card": "11D"})
    # No pack's notation (the document's card patterns refuse it too): bad notation, 400.
    assert unreadable.status_code == 400 and unreadable.json["error"]["code"] == "bad_notation"
    other_pack = api.post(table, {"type": "play", "player": 0, "card": "OS"})
    # A card of the German pack, which the document's events (every game's) admit: this table's refusal.
    assert other_pack.status_code == 422 and other_pack.json["error"]["rule"] == "TABLE-EVENT-2"
    illegal = api.post(table, {"type": "play", "player": 0, "card": "9H", "capture": ["5D"]})
    assert illegal.status_code == 422 and illegal.json["error"]["rule"] == "MULLE-CAP-4"


def test_extra_fields_and_card_strings_are_accepted_as_before(api: Api) -> None:
    table = table_of(api, "mulle")
    response = api.post(table, {"type": "deal", "dealer": 1, "table": "5D 9C 4H AS", "phone": "Anna's", "n": 3})
    assert response.status_code == 201, response.json
    response = api.post(table, {"type": "play", "player": 0, "card": "5C", "capture": "5D", "expected_seq": 1})
    assert response.status_code == 201, response.json


def test_mousels_old_revoke_words_still_work(api: Api) -> None:
    """confirm_revoke / dismiss_revoke with `id` are aliases of confirm / dismiss with `proposal`."""
    table = table_of(api, "mousel")
    refused = api.post(table, {"type": "confirm_revoke", "id": 1})
    assert refused.status_code == 422 and refused.json["error"]["rule"] == "MOUSEL-POT-8"
    malformed = api.post(table, {"type": "dismiss_revoke", "id": "one"})
    assert malformed.status_code == 400 and malformed.json["error"]["code"] == "malformed_event"


@pytest.mark.parametrize("game", sorted(RULES))
def test_create_table_describes_each_games_options_and_its_defaults_are_accepted(client, game: str) -> None:
    """createTable's ``options`` is each game's OptionSpec list (type, default, bounds, rule id),
    and a table opened with every documented default is accepted."""
    doc = client.get("/api/v1/openapi.json").json
    body = doc["paths"]["/api/v1/tables"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    setups = doc["components"]["schemas"][body["$ref"].rsplit("/", 1)[1]]["anyOf"]
    refs = {ref["$ref"].rsplit("/", 1)[1] for setup in setups for ref in setup["properties"]["options"]["anyOf"]
            if "$ref" in ref}
    assert f"{game.title()}Options" in refs
    described = doc["components"]["schemas"][f"{game.title()}Options"]["properties"]
    for spec in RULES[game].option_specs:
        prop = described[spec.key]
        assert prop["default"] == spec.default and (spec.rule or "") in prop["description"]
        assert prop.get("type") == {"bool": "boolean", "int": "integer"}.get(spec.kind) or prop["enum"]
    defaults = {key: prop["default"] for key, prop in described.items() if "default" in prop}
    players = [f"P{i}" for i in range(PLAYERS[game])]
    made = client.post("/api/v1/tables", json={"game": game, "players": players, "options": defaults})
    assert made.status_code == 201, made.json
