"""The dispute desk for every game and the post-deal review, through the API and the pages."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.conftest import Api
from tests.web.html import Page

HX = {"HX-Request": "true"}
ISSUE_TRICK = {"trump": "H", "trick": [{"player": 0, "card": "9S"}, {"player": 1, "card": "7H"}],
               "later": [{"player": 1, "card": "8S"}]}


def desk(client: FlaskClient, game: str, body: Any, lang: str = "en") -> Any:
    return client.post(f"/api/v1/desk/{game}", json=body, headers={"Accept-Language": lang})


# --- POST /api/v1/desk/<game> ------------------------------------------------------------------


def test_issue_trick_example(sqlite_app: Flask) -> None:
    response = desk(sqlite_app.test_client(), "mousel", ISSUE_TRICK)
    assert response.status_code == 200
    data = response.get_json()
    assert data["winner"] == 1 and data["rule"] == "MOUSEL-PLAY-4"
    revoke = data["verdicts"][1]
    assert {k: revoke[k] for k in ("player", "card", "legal", "rule", "evidence")} == \
        {"player": 1, "card": "7H", "legal": False, "rule": "MOUSEL-PLAY-2", "evidence": ["8S"]}
    assert "8♠" in revoke["text"] and data["text"]


@pytest.mark.parametrize(("game", "body", "status", "code", "rule"), [
    ("mousel", {"trump": "H", "trick": "9S"}, 400, "bad_request", None),
    ("mousel", {"trump": "H", "trick": [{"player": 0, "card": "9X"}]}, 400, "bad_notation", None),
    ("mousel", {"trump": "H", "trick": [{"player": 0, "card": "9S"}, {"player": 1, "card": "9S"}]}, 422,
     "illegal_position", "MOUSEL-COMP-1"),
    ("mousel", {"kind": "sheet", "trick": []}, 400, "bad_request", None),
    ("mulatschak", {"kind": "sheet", "declarer": 0, "bid": 2, "trump": "E", "tricks": [3, 3, 0]}, 422,
     "illegal_position", "MULAT-SCORE-6"),
    ("mousel", {"kind": "pot", "pot": 4, "taker": 0, "tricks": [1, 1, 1, 0, None]}, 422, "illegal_position",
     "MOUSEL-COMP-3"),
    ("muggins", {"card": "7D", "muggins": ["7D"], "discards": [None, None, None]}, 422, "illegal_position",
     "MUGGINS-COMP-1"),
    ("kasino", {"table": ["5D", "5D"], "played": "5C"}, 422, "illegal_position", "KASINO-COMP-1"),
    # The fuzzer's find (seed 24): more cards in hand than the pack holds (it once ran out of memory).
    ("muggins", {"card": "6H", "muggins": ["5C"], "discards": [None, None, None], "cards": [53, 0, 0]}, 422,
     "illegal_position", "MUGGINS-COMP-1"),
    # The fuzzer's find: later cards of a seat that has no card in the trick (a schema cannot tie the two).
    ("mulatschak", {"trick": [{"card": "KE", "player": 0}, {"card": "W", "player": 1}], "trump": "E",
                    "later": [{"card": "OS", "player": 4}]}, 422, "illegal_position", "MULAT-SCORE-9"),
    ("chess", {}, 404, "not_found", None),
])
def test_malformed_and_impossible_positions(sqlite_app: Flask, game: str, body: Any, status: int, code: str,
                                            rule: str | None) -> None:
    response = desk(sqlite_app.test_client(), game, body)
    assert response.status_code == status
    assert response.get_json()["error"]["code"] == code and response.get_json()["error"]["rule"] == rule
    not_json = sqlite_app.test_client().post("/api/v1/desk/mousel", data="trick")
    assert not_json.status_code == 400 and not_json.get_json()["error"]["code"] == "bad_request"


def test_every_kind_answers_with_its_rules(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    pot = desk(client, "mousel", {"kind": "pot", "pot": 4, "taker": 0, "tricks": [1, 3, 0, None]}).get_json()
    assert pot["shares"] == [1, 3, 0, 0] and pot["next_pot"] == 12
    assert [line["rule"] for line in pot["lines"]][-1] == "MOUSEL-POT-7" and all(line["text"] for line in pot["lines"])
    sheet = desk(client, "mulatschak", {"kind": "sheet", "declarer": 1, "bid": 2, "trump": "H",
                                        "tricks": [1, 3, 1, None]}).get_json()
    assert sheet["totals"] == [19, 15, 19, 23] and sheet["lines"][0]["rule"] == "MULAT-SCORE-2"
    muggins = desk(client, "muggins", {"card": "6H", "muggins": ["5C", "QD"], "discards": [None, "7S", None]})
    places = muggins.get_json()["placements"]
    assert [(p["to"]["pile"], p["muggins_proof"], p["rule"]) for p in places] == [
        ("muggins", True, "MUGGINS-PLAY-2"), ("discard", False, "MUGGINS-PEN-1"), ("own", False, "MUGGINS-PEN-1")]
    misar = desk(client, "kasino", {"table": ["7C", "2D", "9S"], "played": "7H",
                                    "options": {"variant": "misar"}}).get_json()
    assert not misar["legal"] and misar["rule"] == "KASINO-MIS-2"
    assert misar["duties"][0]["must_take"] == [["7C"]] and misar["duties"][0]["text"]
    capture = desk(client, "mulle", {"table": ["10D", "6C", "4H", "9S"], "played": "10D", "capture": ["10D"]})
    assert capture.get_json()["mulle"] and capture.get_json()["rule"] == "MULLE-CAP-4"
    trick = desk(client, "mulatschak", {"trump": "E", "trick": [{"player": 0, "card": "KE"}, {"player": 1, "card": "W"}],
                                        "options": {"no_stichzwang": True}}).get_json()
    assert trick["winner"] == 1 and trick["weli"] and "Weli" in trick["text"]


def test_texts_follow_accept_language(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    english = desk(client, "mousel", ISSUE_TRICK).get_json()["verdicts"][1]["text"]
    swedish = desk(client, "mousel", ISSUE_TRICK, "sv").get_json()["verdicts"][1]["text"]
    german = desk(client, "mousel", ISSUE_TRICK, "de").get_json()["verdicts"][1]["text"]
    assert "had to follow" in english and "8♠" in english
    assert "måste bekänna" in swedish and "8♠" in swedish
    assert "musste" in german and "bedienen" in german and "8♠" in german
    twice = {"trump": "H", "trick": [{"player": 0, "card": "9S"}, {"player": 1, "card": "9S"}]}
    assert "förekommer två gånger" in desk(client, "mousel", twice, "sv").get_json()["error"]["message"]
    misar = {"table": ["7C", "2D", "9S"], "played": "7H", "options": {"variant": "misar"}}
    assert "im Misär" in desk(client, "kasino", misar, "de").get_json()["why"]


# --- GET /api/v1/tables/<id>/review ------------------------------------------------------------


def mulle_table(api: Api, **options: Any) -> dict[str, Any]:
    table = api.table(game="mulle", players=["Anna", "Bo"], options=options)
    assert api.post(table, {"type": "deal", "dealer": 1, "table": ["10D", "6C", "4H", "9S"]}).status_code == 201
    assert api.post(table, {"type": "play", "player": 0, "card": "10D", "capture": ["10D", "6C"]}).status_code == 201
    return table


def review(api: Api, table: dict[str, Any], token: str | None = "read", **query: Any) -> Any:
    headers = {"Authorization": f"Bearer {table[token + '_token']}"} if token else {}
    return api.client.get(f"/api/v1/tables/{table['id']}/review", query_string=query, headers=headers)


def test_review_issue_example(api: Api) -> None:
    table = mulle_table(api)
    response = review(api, table, deal=1)
    assert response.status_code == 200
    data = response.get_json()
    assert data["deal"] == 1 and data["over"] is False and data["hidden"] is False
    [line] = data["lines"]
    assert {k: line[k] for k in ("seq", "player", "card", "gain", "rule")} == \
        {"seq": 2, "player": 0, "card": "10D", "gain": 3, "rule": "MULLE-SCORE-3"}
    assert line["played"] == {"type": "play", "player": 0, "card": "10D", "capture": ["10D", "6C"]}
    assert line["better"]["capture"] == ["10D"] and "Anna" in line["text"]
    assert review(api, table, token="write").status_code == 200


def test_review_needs_the_read_token_and_a_real_deal(api: Api) -> None:
    table = mulle_table(api)
    assert review(api, table, token=None).status_code == 401
    assert review(api, table, token=None).get_json()["error"]["code"] == "unauthorized"
    assert review(api, table, deal=7).status_code == 404
    assert review(api, table, deal="x").status_code == 400


def test_review_after_deal_option_hides_an_open_deal(api: Api) -> None:
    table = mulle_table(api, review_after_deal=True)
    data = review(api, table).get_json()
    assert data["hidden"] is True and data["lines"] == []
    bad = api.create(game="mulle", players=["A", "B"], options={"review_after_deal": "yes"})
    assert bad.status_code == 422
    assert api.get(table).get_json()["options"] == {"review_after_deal": True}


def test_review_after_deal_shows_a_finished_deal(api: Api) -> None:
    table = api.table(game="mousel", players=["A", "B", "C", "D"], options={"review_after_deal": True})
    from tests.engine import test_mousel as TS

    events = [*TS.EX1, *TS.EX2_REST[:5], *TS.plays((1, "AS"), (3, "7S"), (0, "8D")),
              *TS.plays((1, "KS"), (3, "9S"), (0, "10S"))]
    for event in events:
        assert api.post(table, event).status_code == 201, event
    assert review(api, table).get_json()["hidden"] is True
    for event in [*TS.plays((1, "7D"), (3, "AD"), (0, "9D"), (3, "KH"), (0, "AH"), (1, "9H")),
                  {"type": "confirm_revoke", "id": 1}]:
        assert api.post(table, event).status_code == 201, event
    data = review(api, table, deal=1).get_json()
    assert data["hidden"] is False and data["over"] is True
    [line] = data["lines"]
    assert (line["player"], line["card"], line["rule"], line["gain"]) == (0, "8D", "MOUSEL-PLAY-2", 5)
    assert line["better"] == {"type": "play", "player": 0, "card": "10S"}


# --- pages ---------------------------------------------------------------------------------------


def entered(api: Api, table: dict[str, Any]) -> None:
    api.client.get(f"/t/{table['id']}/k/{table['write_token']}")


def test_review_page_and_the_links_to_it(api: Api) -> None:
    table = mulle_table(api)
    assert api.client.get(f"/t/{table['id']}/review").status_code == 403
    entered(api, table)
    page = api.client.get(f"/t/{table['id']}/review").get_data(as_text=True)
    assert 'data-rule="MULLE-SCORE-3"' in page and 'data-gain="3"' in page and "Anna" in page
    review_url = f"/t/{table['id']}/review"
    assert review_url in api.client.get(f"/t/{table['id']}").get_data(as_text=True)
    assert review_url in api.client.get(f"/t/{table['id']}/history").get_data(as_text=True)


def test_review_link_in_the_end_of_deal_summary(api: Api) -> None:
    table = api.table(game="mulatschak", players=["A", "B", "C", "D"])
    from tests.engine import test_mulatschak as TM

    events: list[dict[str, Any]] = []
    original = TM.R.apply

    def keep(state: Any, event: dict[str, Any]) -> Any:
        events.append(dict(event))
        return original(state, event)

    TM.R.apply = keep
    try:
        TM.run(TM.to_play(), *TM.tricks(*TM.REVOKE_DEAL), {"type": "confirm", "proposal": 1})
    finally:
        TM.R.apply = original
    for event in events:
        assert api.post(table, event).status_code == 201, event
    entered(api, table)
    page = api.client.get(f"/t/{table['id']}").get_data(as_text=True)
    assert f"/t/{table['id']}/review?deal=1" in page
    lines = review(api, table, deal=1).get_json()["lines"]
    assert [(line["player"], line["rule"], line["gain"]) for line in lines] == [(2, "MULAT-PLAY-3", 10)]


def test_desk_prefilled_from_a_table(api: Api) -> None:
    table = api.table(game="mulle", players=["Anna", "Bo"], options={"strict_value": True})
    api.post(table, {"type": "deal", "dealer": 1, "table": ["10D", "6C", "4H", "9S"]})
    outsider = api.client.get(f"/desk/?at={table['id']}").get_data(as_text=True)
    assert 'value="10D" checked' not in outsider  # no link to the table: nothing is shown
    entered(api, table)
    page = api.client.get(f"/desk/?at={table['id']}").get_data(as_text=True)
    for code in ("10D", "6C", "4H", "9S"):
        assert f'value="{code}"  checked' in page or f'value="{code}" checked' in page
    assert re.search(r'name="strict_value" checked', page)
    judged = api.client.get(f"/desk/?at={table['id']}&played=10D&taken=10D", headers=HX).get_data(as_text=True)
    assert "Mulle!" in judged


def test_desk_pages_for_the_trick_games_and_muggins(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    trick = client.get("/desk/", query_string={"game": "mousel", "kind": "trick", "players": 2, "trump": "H",
                                               "c1": "9S", "c2": "7H", "later1": "8S"}, headers=HX)
    html = trick.get_data(as_text=True)
    assert 'data-winner="1"' in html and 'data-rule="MOUSEL-PLAY-2"' in html and "illegal" in html
    pot = client.get("/desk/", query_string={"game": "mousel", "kind": "pot", "players": 4, "pot": 4, "taker": 0,
                                             "t0": 1, "t1": 3, "t2": 0}, headers=HX).get_data(as_text=True)
    assert 'data-rule="MOUSEL-POT-4"' in pot and 'data-rule="MOUSEL-POT-6"' in pot
    sheet = client.get("/desk/", query_string={"game": "mulatschak", "kind": "sheet", "players": 3, "declarer": 0,
                                               "bid": 5, "trump": "E", "t0": 5, "t1": 0, "t2": 0},
                       headers=HX).get_data(as_text=True)
    assert 'data-rule="MULAT-SCORE-4"' in sheet
    muggins = client.get("/desk/", query_string={"game": "muggins", "players": 3, "card": "6H",
                                                 "muggins": "5C QD", "d1": "7S"}, headers=HX).get_data(as_text=True)
    assert 'data-rule="MUGGINS-PLAY-2"' in muggins and 'data-rule="MUGGINS-PEN-1"' in muggins
    bad = client.get("/desk/", query_string={"game": "mousel", "kind": "trick", "trump": "H", "c1": "9S",
                                             "c2": "9S"}, headers=HX).get_data(as_text=True)
    assert 'role="alert"' in bad and "MOUSEL-COMP-1" in bad
    full = client.get("/desk/?game=mulatschak").get_data(as_text=True)
    assert 'data-game="mulatschak"' in full and 'data-pack="german"' in full


def test_the_desk_picker_has_the_weli_where_the_pack_has_it(sqlite_app: Flask) -> None:
    """Mulatschak's pack holds the Weli (MULAT-COMP-1); with the 36-card option it is the
    Schellen-6 itself, so that card is not offered beside it. Mousel's French pack has none."""
    client = sqlite_app.test_client()
    query = {"game": "mulatschak", "kind": "trick", "players": 3, "trump": "E"}
    page = Page(client.get("/desk/", query_string=query).get_data(as_text=True))
    for k in (1, 2, 3):
        assert [i["value"] for i in page.find("input", name=f"c{k}") if i.get("value") == "W"] == ["W"]
        assert not [i for i in page.find("input", name=f"c{k}") if i.get("value") == "6S"]
    sixes = Page(client.get("/desk/", query_string={**query, "pack36": "on"}).get_data(as_text=True))
    offered = {i.get("value") for i in sixes.find("input", name="c1")}
    assert {"W", "6H", "6L", "6E"} <= offered and "6S" not in offered
    tapped = client.get("/desk/", query_string={**query, "c1": "KE", "c2": "W", "p1": 0, "p2": 1},
                        headers=HX).get_data(as_text=True)
    assert 'data-winner="1"' in tapped, "the Weli tapped on the picker beats the trump king"
    mousel = Page(client.get("/desk/", query_string={**query, "game": "mousel"}).get_data(as_text=True))
    assert not [i for i in mousel.find("input", name="c1") if i.get("value") == "W"]


def test_a_new_seat_count_redraws_the_form_not_just_the_verdict(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    query = {"game": "mousel", "kind": "pot", "players": 4, "drawn": "4|8|"}
    same = client.get("/desk/", query_string=query, headers=HX)
    assert "HX-Retarget" not in same.headers and 'id="desk-main"' not in same.get_data(as_text=True)
    more = client.get("/desk/", query_string={**query, "players": 5}, headers=HX)
    assert more.headers["HX-Retarget"] == "#desk-main" and more.headers["HX-Reswap"] == "outerHTML"
    html = more.get_data(as_text=True)
    assert 'name="t4"' in html and 'value="5|8|"' in html and 'id="verdict"' in html


def test_desk_is_linked_from_the_rule_book_and_the_home_page(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    assert "/desk/?game=mousel" in client.get("/rules/mousel").get_data(as_text=True)
    assert "/desk/" in client.get("/").get_data(as_text=True)


# --- hostile positions -----------------------------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

CARDS = st.sampled_from(["9S", "7H", "8S", "AH", "KE", "W", "OS", "10D", "2S", "5C", "6H", "QD", "hE", "ZZ", ""])
VALUE = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 9) | CARDS | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.sampled_from(["player", "card", "x"]), inner,
                                                                 max_size=3),
    max_leaves=12,
)
PLAYS = st.lists(st.fixed_dictionaries({"player": st.integers(-1, 7) | st.none(), "card": CARDS}), max_size=6)
FIELDS = ["kind", "trump", "trick", "later", "options", "pot", "taker", "tricks", "revokers", "declarer", "bid",
          "revokes", "scores", "collapses", "knocked", "breaker", "card", "player", "muggins", "discards", "cards",
          "table", "played", "capture", "hand", "last"]
BODY = st.dictionaries(st.sampled_from(FIELDS), VALUE | PLAYS, max_size=8)


@settings(max_examples=150, suppress_health_check=list(HealthCheck), deadline=None)
@given(game=st.sampled_from(["mulle", "kasino", "mousel", "mulatschak", "muggins"]), body=BODY,
       kind=st.sampled_from([None, "trick", "pot", "sheet", "placement", "capture"]))
def test_hostile_positions_get_an_error_never_a_crash(sqlite_app: Flask, game: str, body: dict[str, Any],
                                                       kind: str | None) -> None:
    if kind is not None:
        body = {**body, "kind": kind}
    response = sqlite_app.test_client().post(f"/api/v1/desk/{game}", json=body)
    assert response.status_code in (200, 400, 404, 422), (body, response.get_data(as_text=True)[:300])
    if response.status_code != 200:
        assert set(response.get_json()["error"]) == {"code", "rule", "message"}


def test_desk_starts_from_a_trick_table_and_its_house_rules(api: Api) -> None:
    from tests.engine import test_mousel as TS

    table = api.table(game="mousel", players=["A", "B", "C", "D"], options={"round_largest": True})
    for event in [*TS.EX1, *TS.EX2_REST[:5], *TS.plays((1, "AS"), (3, "7S"))]:
        assert api.post(table, event).status_code == 201, event
    entered(api, table)
    page = api.client.get(f"/desk/?at={table['id']}").get_data(as_text=True)
    assert 'data-game="mousel"' in page and 'data-kind="trick"' in page
    assert re.search(r'name="c1" value="AS"\s+checked', page) and re.search(r'name="c2" value="7S"\s+checked', page)
    assert re.search(r'<option value="S"\s+selected', page)  # the turned-up KS made spades trumps
    assert 'data-winner="1"' in page  # B's ace wins the trick so far
    pot = api.client.get(f"/desk/?at={table['id']}&kind=pot").get_data(as_text=True)
    assert re.search(r'name="round_largest" checked', pot) and 'name="pot" min="0" value="4"' in pot


def test_the_desk_from_a_mousel_table_of_the_full_pack_judges_with_the_full_pack(api: Api) -> None:
    """The game's option is ``52`` and the desk's form field ``pack52``: a table of six played with
    the full pack opened the desk on the short pack's ranks (no 2 to 6) and its trick order."""
    table = api.table(game="mousel", players=["A", "B", "C", "D", "E", "F"], options={"52": True})
    entered(api, table)
    page = api.client.get(f"/desk/?at={table['id']}").get_data(as_text=True)
    assert re.search(r'name="pack52" checked', page)
    assert 'data-rank="2"' in page or 'value="2S"' in page  # the full pack's ranks to tap
    # The API takes a table's options as they are, under the game's own key.
    body = {"kind": "trick", "trump": "H", "trick": [{"player": 0, "card": "6S"}, {"player": 1, "card": "2S"}]}
    for options in ({"52": True}, {"pack52": True}):
        judged = api.client.post("/api/v1/desk/mousel", json={**body, "options": options})
        assert judged.status_code == 200, judged.json
        assert judged.json["winner"] == 0, judged.json  # 6 beats 2 in the full pack's order
    short = api.client.post("/api/v1/desk/mousel", json=body)
    assert short.status_code in (400, 422), short.json  # no 6 or 2 in the short pack


def test_the_desk_refuses_a_house_rule_the_game_has_not_in_the_readers_language(api: Api) -> None:
    """A misspelt house rule would be ignored and the dispute settled under the other rule: 422
    ``TABLE-OPTION-1``, as when a table is opened. The game's options that change no verdict are
    taken (a table's dispute sends the table's options whole)."""
    body = {"kind": "trick", "trump": "L", "trick": [{"player": 0, "card": "AL"}, {"player": 1, "card": "KL"}]}
    for lang, said in (("en", "Mulatschak has no option 'no_stichzwng'"), ("sv", "Mulatschak har ingen husregel 'no_stichzwng'"),
                       ("de", "Mulatschak hat keine Hausregel 'no_stichzwng'")):
        refused = api.client.post("/api/v1/desk/mulatschak", json={**body, "options": {"no_stichzwng": True}},
                                  headers={"Accept-Language": lang})
        assert refused.status_code == 422, refused.json
        assert refused.json["error"]["rule"] == "TABLE-OPTION-1"
        assert refused.json["error"]["message"].startswith(said), refused.json
    taken = api.client.post("/api/v1/desk/mulatschak", json={**body, "options": {"no_stichzwang": True, "no_knock": True,
                                                                                  "teams": None}})
    assert taken.status_code == 200, taken.json
    for lang, said in (("sv", "Mulatschak-positioner är"), ("de", "Mulatschak-Stellungen sind")):
        wrong = api.client.post("/api/v1/desk/mulatschak", json={**body, "kind": "capture"}, headers={"Accept-Language": lang})
        assert wrong.status_code == 400 and wrong.json["error"]["message"].startswith(said), wrong.json
    gone = api.client.post("/api/v1/desk/skat", json=body, headers={"Accept-Language": "de"})
    assert gone.status_code == 404 and gone.json["error"]["message"].startswith("die Schiedsstelle kennt"), gone.json


def test_a_review_of_a_deal_there_is_none_of_is_refused_in_the_readers_language(api: Api) -> None:
    table = mulle_table(api)
    headers = {"Authorization": f"Bearer {table['read_token']}"}
    for lang, nothing, bad in (("en", f"table {table['id']} has no deal 7", "'deal' must be a deal number, not 'x'"),
                               ("sv", f"bordet {table['id']} har ingen giv 7", "'deal' måste vara ett givnummer, inte 'x'"),
                               ("de", f"Tisch {table['id']} hat kein Spiel 7", "'deal' muss eine Spielnummer sein, nicht 'x'")):
        missing = api.client.get(f"/api/v1/tables/{table['id']}/review?deal=7", headers={**headers, "Accept-Language": lang})
        assert missing.status_code == 404 and missing.json["error"]["message"] == nothing, missing.json
        unread = api.client.get(f"/api/v1/tables/{table['id']}/review?deal=x", headers={**headers, "Accept-Language": lang})
        assert unread.status_code == 400 and unread.json["error"]["message"] == bad, unread.json
