"""Verdicts an independent check of whole random games found wrong (issue 11), replayed through
the JSON API from their repros: the events, the status and the rule id the refusal must cite."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.engine.mousel import Mousel
from scorekeeper.engine.mulatschak import Mulatschak
from scorekeeper.web.views.mousel import unseen
from scorekeeper.web.views.mulatschak import exchange_controls as mulat_exchange_controls
from scorekeeper.web.views.mulatschak import unseen as mulat_unseen
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


def plays(text: str) -> list[dict[str, Any]]:
    """``"1 7H, 2 AL"`` → play events."""
    return [{"type": "play", "player": int(p), "card": c} for p, c in (item.split() for item in text.split(", "))]


def test_mulatschak_revoke_proposal_relabelled_by_later_evidence(api: Api) -> None:
    table = table_after(api, "mulatschak", THREE, [
        {"type": "bid", "player": 1, "tricks": 1}, {"type": "pass", "player": 2},
        {"type": "pass", "player": 0}, {"type": "trump", "player": 1, "suit": "E"},
        {"type": "join", "player": 2}, {"type": "join", "player": 0},
        *[{"type": "exchange", "player": p, "count": 0} for p in (1, 2, 0)],
        *plays("1 7H, 2 AL, 0 KH, 0 AS, 1 7S, 2 9E, 2 8H, 0 AH, 1 9H, 0 8L, 1 10L, 2 UL, 2 OL, 0 9L, 1 10S")])
    [proposal] = api.get(table).json["state"]["proposals"]
    assert (proposal["id"], proposal["player"], proposal["trick"], proposal["card"]) == (1, 2, 1, "AL")
    assert (proposal["rule"], proposal["kind"], proposal["evidence"], proposal["evidence_trick"]) == \
        ("MULAT-PLAY-3", "follow", "8H", 3)
    assert proposal["status"] == "pending"


MOUSEL_RESHUFFLE = [
    {"type": "deal", "dealer": 3}, {"type": "turn_up", "card": "AS"},
    *[{"type": "refuse", "player": p} for p in (4, 0, 1, 2, 3)],
    {"type": "turn_up", "card": "9C"}, {"type": "take", "player": 4},
    {"type": "exchange", "player": 4, "count": 5}, {"type": "fold", "player": 0},
    {"type": "exchange", "player": 1, "count": 1}, {"type": "exchange", "player": 2, "count": 0},
    {"type": "fold", "player": 3}, {"type": "discard", "player": 4},
    {"type": "play", "player": 4, "card": "8S"}, {"type": "play", "player": 1, "card": "JS"}]


def test_mousel_turn_up_only_from_a_player_who_could_draw_it(api: Api) -> None:
    players = ["Anna", "Bo", "Cia", "Dag", "Eva"]
    options = {"reshuffle": True, "dealer_must_take": True, "end_refund": True}
    table = table_after(api, "mousel", players, MOUSEL_RESHUFFLE, **options)
    error = refused(api, table, {"type": "play", "player": 2, "card": "9C"})
    assert (error["code"], error["rule"]) == ("illegal_move", "MOUSEL-COMP-1")
    legal = table_after(api, "mousel", players, MOUSEL_RESHUFFLE[:-1], **options)
    assert api.post(legal, {"type": "play", "player": 1, "card": "9C"}).status_code == 201


def test_mousel_dealer_look_before_any_turn_up_is_refused(api: Api) -> None:
    table = table_after(api, "mousel", ["Anna", "Bo", "Cia", "Dag"], [{"type": "deal", "dealer": 3}])
    error = refused(api, table, {"type": "look", "player": 3})
    assert (error["code"], error["rule"]) == ("illegal_move", "MOUSEL-TRUMP-1")
    assert api.post(table, {"type": "turn_up", "card": "8C"}).status_code == 201
    assert api.post(table, {"type": "look", "player": 3}).status_code == 201


ONE_OF_HEARTS = [
    ("mulle", 2, {"type": "deal", "dealer": 0, "table": ["1H", "9C", "4H", "AS"]}),
    ("kasino", 2, {"type": "deal", "dealer": 0, "table": ["1H", "9S", "KH", "AC"]}),
    ("mousel", 4, {"type": "turn_up", "card": "1H"}),
    ("muggins", 3, {"type": "setup", "muggins": ["1H", "9C", "KD", "2S"], "dealer": 2}),
    ("mulatschak", 4, {"type": "hand", "player": 1, "cards": ["1H", "KS", "OS", "US", "10S"]}),
]


@pytest.mark.parametrize("game, players, event", ONE_OF_HEARTS, ids=[g for g, _, _ in ONE_OF_HEARTS])
def test_rank_1_is_bad_notation_with_a_hint_in_every_game(api: Api, game: str, players: int,
                                                         event: dict[str, Any]) -> None:
    before = [{"type": "deal", "dealer": 0}] if game == "mousel" else []
    table = table_after(api, game, [f"P{i}" for i in range(players)], before)
    error = refused(api, table, event, status=400)
    assert error["code"] == "bad_notation" and error["rule"] is None
    assert "did you mean AH or 10H?" in error["message"]


def test_mousel_card_picker_offers_the_turn_up_only_to_who_can_hold_it() -> None:
    rules = Mousel()
    state = rules.new(["Anna", "Bo", "Cia", "Dag", "Eva"],
                      {"reshuffle": True, "dealer_must_take": True, "end_refund": True})
    for event in MOUSEL_RESHUFFLE:
        state = rules.apply(state, event)
    data = rules.to_json(state)
    assert unseen(data, state, 2)["9C"] == 0 and unseen(data, state, 1)["9C"] == 1
    assert unseen(data, state, 4)["9C"] == 1


def test_mulatschak_pickers_follow_a_card_reshuffled_into_the_new_stock() -> None:
    rules = Mulatschak()
    state = rules.new(["A", "B", "C", "D", "E"], {"reshuffle": True})
    for event in [{"type": "bid", "player": 1, "tricks": 1}, *[{"type": "pass", "player": p} for p in (2, 3, 4, 0)],
                  {"type": "trump", "player": 1, "suit": "E"}, *[{"type": "join", "player": p} for p in (2, 3, 4, 0)],
                  {"type": "exchange", "player": 1, "kind": "sight", "card": "AE", "keep": False},
                  {"type": "exchange", "player": 2, "count": 5}, {"type": "exchange", "player": 3, "count": 3}]:
        state = rules.apply(state, event)
    assert mulat_unseen(state, 2)["AE"] == 0 and mulat_unseen(state, 3)["AE"] == 1
    controls = mulat_exchange_controls(rules.to_json(state), state, rules.hints(state))
    assert controls["sau"] is False                      # player 4 cannot hold the Eichel-Sau


# --- issue 40: a confirmed revoke takes the duty later cards prove ------------------------------

REPROS = Path(__file__).resolve().parent / "repros"


def test_mulatschak_confirmed_revoke_names_the_duty_later_cards_prove(api: Api) -> None:
    """Deal 18, trick 1: P3 led the Laub-Sau (Schelle trumps) and P0 played the Eichel-Ober. His 8S
    (trick 2) proved only a missed trump, and the table confirmed that; his 7L (trick 5) proves he
    could follow Laub, so the confirmed proposal names MULAT-PLAY-3 with 7L, as the review does."""
    repro = json.loads((REPROS / "mulatschak-revoke-kind.json").read_text())
    table = table_after(api, "mulatschak", repro["players"], repro["events"])
    state = api.get(table).json["state"]
    [p0] = [p for p in state["proposals"] if p["player"] == 0]
    assert (p0["id"], p0["deal"], p0["trick"], p0["card"], p0["status"]) == (20, 18, 1, "OE", "confirmed")
    assert (p0["kind"], p0["rule"], p0["evidence"], p0["evidence_trick"]) == ("follow", "MULAT-PLAY-3", "7L", 5)
    assert "must follow Laub" in p0["message"] and "Laub-Siebener (trick 5)" in p0["message"]
    lines = api.client.get(f"/api/v1/tables/{table['id']}/review", query_string={"deal": 18},
                           headers={"Authorization": f"Bearer {table['read_token']}"}).json["lines"]
    [line] = [x for x in lines if x["player"] == 0 and x["facts"]["trick"] == 1]
    assert (line["rule"], line["facts"]["kind"], line["facts"]["evidence"], line["facts"]["evidence_trick"]) == \
        (p0["rule"], p0["kind"], p0["evidence"], p0["evidence_trick"])
    # The verdict stands: P0 is booked as a revoker (MULAT-SCORE-9) once the last proposal is settled.
    pending = [p["id"] for p in state["proposals"] if p["status"] == "pending"]
    for ident in pending:
        assert api.post(table, {"type": "dismiss", "proposal": ident}).status_code == 201
    row = api.get(table).json["state"]["sheet"][-1]
    assert row["deal"] == 18 and row["revokes"] == [0]
