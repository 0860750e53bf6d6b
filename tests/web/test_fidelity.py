"""Verdicts an independent check of whole random games found wrong (issue 11), replayed through
the JSON API from their repros: the events, the status and the rule id the refusal must cite."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Api

THREE = ["Anna", "Bo", "Cia"]


def table_after(api: Api, game: str, players: list[str], events: list[dict[str, Any]],
                **options: Any) -> dict[str, Any]:
    table = api.table(game=game, players=players, options=options)
    for event in events:
        response = api.post(table, event)
        assert response.status_code == 201, (event, response.json)
    return table


def refused(api: Api, table: dict[str, Any], event: dict[str, Any], status: int = 422) -> dict[str, Any]:
    """The event is refused with ``status`` and changes nothing; the error body is returned."""
    before = api.get(table).json
    response = api.post(table, event)
    assert response.status_code == status, response.json
    assert api.get(table).json == before
    error: dict[str, Any] = response.json["error"]
    return error


def test_mulatschak_staying_home_under_herz_cites_stay_2(api: Api) -> None:
    table = table_after(api, "mulatschak", THREE, [
        {"type": "bid", "player": 1, "tricks": 1}, {"type": "pass", "player": 2},
        {"type": "pass", "player": 0}, {"type": "trump", "player": 1, "suit": "H"}])
    error = refused(api, table, {"type": "stay_home", "player": 2})
    assert (error["code"], error["rule"]) == ("illegal_move", "MULAT-STAY-2")
