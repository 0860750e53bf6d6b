"""400 or 422 (docs/api.md, "Errors"): a body that does not fit the OpenAPI document is 400; one
that fits it but that this table (its game, mode or position) cannot take is 422 with a rule id,
as the fuzz test (tests/web/test_openapi_fuzz.py) holds the server to."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Api


def error_of(response: Any) -> dict[str, Any]:
    return response.json["error"]


def test_another_games_event_is_422_table_event_1(api: Api) -> None:
    table = api.table(game="mulle", players=["Anna", "Bo"])
    # A score pad's event fits the document's body (every game's events), not a Mulle table.
    answer = api.post(table, {"type": "points", "side": 0, "points": 1})
    assert answer.status_code == 422
    assert error_of(answer)["rule"] == "TABLE-EVENT-1"
    assert api.get(table).json["seq"] == 0


def test_a_field_the_position_needs_is_422_table_event_2(api: Api) -> None:
    table = api.table(game="mulatschak", players=["Anna", "Bo", "Cai"], mode="tally")
    answer = api.post(table, {"type": "deal_result", "trump": "", "causes": [], "thrown_in": False})
    assert answer.status_code == 422, answer.json
    assert error_of(answer)["rule"] == "TABLE-EVENT-2"
    assert "declarer" in error_of(answer)["message"]
    assert api.get(table).json["seq"] == 0


def test_the_same_in_an_import_names_the_event(client) -> None:
    export = {"format": "scorekeeper/1", "game": "mulatschak", "mode": "tally", "players": ["Anna", "Bo", "Cai"],
              "events": [{"event": {"type": "deal_result", "trump": "", "causes": [], "thrown_in": False}}]}
    answer = client.post("/api/v1/tables/import", json=export)
    assert answer.status_code == 422, answer.json
    assert answer.json["error"]["rule"] == "TABLE-EVENT-2"
    assert answer.json["error"]["message"].startswith("event 1:")


def test_an_import_of_a_game_there_is_none_of_is_400_with_events_or_without(client) -> None:
    """A new seed of the fuzzer (1282789246) found a 500: the events of an unknown game's export
    were looked up by their game for the mode check. Refused as an export with no events is, by
    both imports."""
    export = {"format": "scorekeeper/1", "game": "tresette", "players": ["Anna", "Bo"],
              "events": [{"event": {"type": "points", "side": 0, "points": 3}}]}
    for events in (export["events"], [{"event": {"type": "undo"}}, *export["events"]], []):
        answer = client.post("/api/v1/tables/import", json={**export, "events": events})
        assert answer.status_code == 400, answer.json
        assert answer.json["error"]["message"] == "unknown game 'tresette'"
        circle = {"format": "scorekeeper-circle/1", "name": "Fridays", "tables": [{**export, "events": events}]}
        answer = client.post("/api/v1/circles/import", json=circle)
        assert answer.status_code == 400, answer.json
        assert answer.json["error"]["message"] == "table 1: unknown game 'tresette'"


def test_an_event_that_fits_no_schema_stays_400(api: Api) -> None:
    table = api.table(game="scorepad", players=["Anna", "Bo"])
    answer = api.post(table, {"type": "points", "side": "first", "points": 1})
    assert answer.status_code == 400
    assert error_of(answer)["code"] == "malformed_event"


def test_names_equal_ignoring_case_are_422_with_a_rule(client) -> None:
    answer = client.post("/api/v1/tables", json={"game": "scorepad", "players": ["Anna", "anna"]})
    assert answer.status_code == 422
    assert answer.json["error"] == {"code": "unsupported", "rule": "TABLE-NAMES-1",
                                    "message": answer.json["error"]["message"]}
    # The very same string twice breaks the schema's uniqueItems: a malformed body.
    assert client.post("/api/v1/tables", json={"game": "scorepad", "players": ["Anna", "Anna"]}).status_code == 400


def _desk_validator(client, game: str):
    import jsonschema_rs

    doc = client.get("/api/v1/openapi.json").json
    body = doc["paths"][f"/api/v1/desk/{game}"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    return jsonschema_rs.validator_for({**body, "components": doc["components"]})


def test_the_desk_document_ties_seats_and_lists_to_the_number_of_seats(client) -> None:
    """A seat beyond the lists, or lists of different lengths, do not fit the desk's schema (400)."""
    muggins = _desk_validator(client, "muggins")
    assert muggins.is_valid({"card": "6H", "discards": [None, "7S", None], "muggins": ["5C"], "player": 2})
    assert not muggins.is_valid({"card": "6H", "discards": [None, "7S", None], "muggins": ["5C"], "player": 5})
    mulatschak = _desk_validator(client, "mulatschak")
    sheet = {"kind": "sheet", "declarer": 1, "bid": 2, "trump": "H", "tricks": [1, 3, 1, None]}
    assert mulatschak.is_valid({**sheet, "scores": [21, 21, 21, 21]})
    assert not mulatschak.is_valid({**sheet, "scores": [21, 21, 21]})
    mousel = _desk_validator(client, "mousel")
    pot = {"kind": "pot", "pot": 4, "tricks": [1, 3, 0, None]}
    assert mousel.is_valid({**pot, "taker": 3}) and not mousel.is_valid({**pot, "taker": 5})
    kasino = _desk_validator(client, "kasino")
    assert not kasino.is_valid({"played": "7H", "options": {"variant": "drag", "drag_misar": None}})
    assert kasino.is_valid({"played": "7H", "options": {"variant": "standard", "drag_misar": None}})


def test_a_muli_breaker_who_won_no_trick_is_422_with_the_rule(client) -> None:
    sheet = {"kind": "sheet", "declarer": 0, "bid": 5, "trump": "H", "tricks": [4, 1, 0], "breaker": 2}
    answer = client.post("/api/v1/desk/mulatschak", json=sheet)
    assert answer.status_code == 422, answer.json
    assert answer.json["error"]["rule"] == "MULAT-OPT-MULI-BREAKER"


def test_a_trick_seat_is_bounded_by_the_games_largest_table(client) -> None:
    mousel = _desk_validator(client, "mousel")
    assert mousel.is_valid({"trick": [{"card": "9S", "player": 4}], "trump": "H"})
    assert not mousel.is_valid({"trick": [{"card": "9S", "player": 5}], "trump": "H"})


def test_an_option_the_game_has_not_or_a_value_it_takes_not_is_422_table_option_1(app, client) -> None:
    """An unsupported option is 422 by the contract (DESIGN §2, as an unsupported number of
    players): one the game does not have, or a value it does not take, names the platform's rule
    where the game's rules name none, and no table is made."""
    def refused(game: str, options: dict[str, Any]) -> dict[str, Any]:
        answer = client.post("/api/v1/tables", json={"game": game, "players": ["Anna", "Bo"], "options": options})
        assert answer.status_code == 422, answer.json
        return error_of(answer)

    unknown = refused("mulle", {"partnerships": True})
    assert unknown["code"] == "unsupported" and unknown["rule"] == "TABLE-OPTION-1"
    assert "'partnerships'" in unknown["message"] and "teams" in unknown["message"]  # what there is instead
    assert refused("kasino", {"variant": "nope"})["rule"] == "TABLE-OPTION-1"
    assert refused("scorepad", {"review_after_deal": "yes"})["rule"] == "TABLE-OPTION-1"   # the platform's own
    for lang, said in (("en", "option 'review_after_deal' must be true or false, not 'yes'"),
                       ("sv", "husregeln 'review_after_deal' måste vara true eller false, inte 'yes'"),
                       ("de", "die Hausregel 'review_after_deal' muss true oder false sein, nicht 'yes'")):
        answer = client.post("/api/v1/tables", headers={"Accept-Language": lang},
                             json={"game": "scorepad", "players": ["Anna", "Bo"], "options": {"review_after_deal": "yes"}})
        assert error_of(answer)["message"] == said  # in the table's language, as the game's own options
    # A refusal the game's rules name keeps their rule.
    assert refused("kasino", {"drag_misar": True})["rule"] == "KASINO-OPT-DRAG-MISAR"
    # An import reads its options as an opening does (it replays the log before it opens the table).
    imported = client.post("/api/v1/tables/import", json={
        "format": "scorekeeper/1", "game": "mulle", "mode": "adjudicate", "players": ["Anna", "Bo"],
        "options": {"partnerships": True}, "events": []})
    assert imported.status_code == 422 and error_of(imported)["rule"] == "TABLE-OPTION-1", imported.json
    with app.app_context():
        from scorekeeper.extensions import db
        from scorekeeper.models import Table

        assert db.session.query(Table).count() == 0
