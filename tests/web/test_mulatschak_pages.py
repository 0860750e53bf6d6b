"""Mulatschak screens: every phase of a deal renders its controls and they post the right event;
an illegal bid shows its rule link; the sheet with its multiplier causes; a revoke proposal
confirmed; tally mode's deal_result; German table terms; what a watcher sees."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web.views.mulatschak import proposal_words, row_words
from tests.web.html import Page
from tests.web.phone import events, state, watcher_of

HX = {"HX-Request": "true"}
NAMES = ["Anna", "Bo", "Cleo", "Dan"]   # Anna deals the first deal, Dan (on her right) cuts, Bo bids first
FRENCH = "♥♦♠♣"


def open_table(client: FlaskClient, mode: str = "adjudicate", seat: str | None = "0", **fields: str) -> str:
    response = client.post("/tables", data={"game": "mulatschak", "players": NAMES, "mode": mode, **fields})
    assert response.status_code == 302, response.get_data(as_text=True)[:500]
    table_id = response.location.rsplit("/", 1)[1]
    if seat is not None:
        assert client.post(f"/t/{table_id}/seat", data={"seat": seat}).status_code == 302
    return table_id


def sheet(client: FlaskClient, table_id: str, **args: Any) -> str:
    response = client.get(f"/t/{table_id}/sheet", query_string=args, headers=HX)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def post(client: FlaskClient, table_id: str, data: dict[str, Any], status: int = 200) -> str:
    response = client.post(f"/t/{table_id}/events", data=data, headers=HX)
    assert response.status_code == status, response.get_data(as_text=True)[:3000]
    return response.get_data(as_text=True)


def press(client: FlaskClient, table_id: str, html: str, name: str, value: str, status: int = 200,
          **extra: Any) -> str:
    """Submit the form holding the button ``name=value`` as a browser would: its hidden fields,
    the button, and whatever the test fills in."""
    form, button = Page(html).button(name, value)
    assert "disabled" not in button, f"{name}={value} is disabled"
    assert form["attrs"]["method"] == "post" and form["attrs"]["hx-post"] == f"/t/{table_id}/events"
    data: dict[str, Any] = {}
    for f in form["fields"]:
        if f.get("type") == "hidden":
            data.setdefault(f["name"], []).append(f["value"])
    assert "csrf_token" in data and "expected_seq" in data
    data[name] = value
    data.update(extra)
    return post(client, table_id, data, status)


BIDDING = [{"type": "cut", "player": 3}]
TO_TRUMP = BIDDING + [{"type": "bid", "player": 1, "tricks": 2}, {"type": "pass", "player": 2},
                      {"type": "pass", "player": 3}, {"type": "pass", "player": 0}]          # Bo declares 2
TO_STAY = TO_TRUMP + [{"type": "trump", "player": 1, "suit": "L"}]
TO_EXCHANGE = TO_STAY + [{"type": "join", "player": 2}, {"type": "stay_home", "player": 3},
                         {"type": "join", "player": 0}]
TO_PLAY = TO_EXCHANGE + [{"type": "exchange", "player": p, "count": 1} for p in (1, 2, 0)]


# --- cut, bidding --------------------------------------------------------------------------------------


def test_cut_phase_dealer_and_cut_or_knock(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    html = sheet(client, table_id)
    page = Page(html)
    assert "Dan cuts or knocks" in html and "Anna deals; Dan sits on the dealer&#39;s right." in html
    dealer_buttons = [b for f in page.forms for b in f["buttons"] if b.get("name") == "player:int"]
    assert [b["text"] for b in dealer_buttons] == NAMES and dealer_buttons[0]["aria-pressed"] == "true"

    moved = press(client, table_id, html, "player:int", "2")          # Cleo deals first after all
    assert state(sqlite_app, table_id)["dealer"] == 2 and "Bo cuts or knocks" in moved
    press(client, table_id, moved, "type", "knock", **{"weli:bool": "true"})
    deal = state(sqlite_app, table_id)["deal"]
    assert deal["cut"] == "knock" and deal["weli_to"] == 1 and deal["causes"] == ["knock"]
    after = sheet(client, table_id)
    assert "Bo knocked: the deal counts double." in after and "Bo kept the Weli." in after
    assert "Dan bids" in after   # Dan sits on Cleo's left


def test_no_knock_table_has_no_knock_button(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client, opt_mulatschak_no_knock="on")
    page = Page(sheet(client, table_id))
    page.button("type", "cut")
    with pytest.raises(AssertionError):
        page.button("type", "knock")


def test_bidding_buttons_post_bids_and_weiter(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    html = events(client, table_id, *BIDDING)
    page = Page(html)
    assert "Bo bids" in html
    weiter = page.button("tricks:int", "0")[1]
    assert weiter["aria-label"] == "Bo: weiter (pass)" and weiter["text"] == "weiter (pass)"
    assert '<span class="mu-de" lang="de">weiter</span>' in html
    muli = page.button("tricks:int", "5")[1]
    assert "Muli" in muli["text"] and "disabled" not in muli
    after = press(client, table_id, html, "tricks:int", "2")
    assert state(sqlite_app, table_id)["deal"]["high_bid"] == 2
    page = Page(after)
    assert "disabled" in page.button("tricks:int", "2")[1] and "disabled" not in page.button("tricks:int", "3")[1]
    assert "A bid must be at least 3." in after and "#MULAT-BID-3" in after
    assert "Bo: 2" in page.all_text()
    press(client, table_id, after, "tricks:int", "0")               # Cleo: weiter
    data = state(sqlite_app, table_id)
    assert data["deal"]["bids"][-1] == {"player": 2, "call": "pass", "tricks": 0} and data["to_act"] == 3


def test_illegal_bid_shows_its_rule_link(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    events(client, table_id, *BIDDING, {"type": "bid", "player": 1, "tricks": 3})
    refused = post(client, table_id, {"type": "bid", "player:int": "2", "tricks:int": "2"}, status=422)
    error = Page(refused.split('class="error"')[1].split("</div>")[0])
    links = error.find("a", **{"class": "rule"})
    assert links and links[0]["href"].endswith("/rules/mulatschak?table=" + table_id + "&lang=en#MULAT-BID-3")
    assert "a bid must be at least 4" in refused
    out_of_turn = post(client, table_id, {"type": "bid", "player:int": "0", "tricks:int": "4"}, status=422)
    assert "#MULAT-BID-2" in out_of_turn
    assert Page(out_of_turn).button("tricks:int", "4")   # the controls are still there to try again


def hold_form(html: str) -> dict[str, str] | None:
    forms = [f for f in Page(html).forms if any(x.get("value") == "hold" for x in f["fields"])]
    return {x["name"]: x["value"] for x in forms[0]["fields"] if x.get("type") == "hidden"} if forms else None


def test_mit_mir_only_on_the_dealers_phone(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client, seat="1")             # Bo's phone: no "mit mir" for Anna
    events(client, table_id, *BIDDING, {"type": "bid", "player": 1, "tricks": 2}, {"type": "pass", "player": 2},
           {"type": "pass", "player": 3})
    bo = sheet(client, table_id)
    assert "Anna bids" in bo and hold_form(bo) is None and 'lang="de">mit mir' not in bo
    assert Page(bo).button("tricks:int", "3")            # Anna's other calls are there on every phone
    assert client.post(f"/t/{table_id}/seat", data={"seat": "watch"}).status_code == 302
    assert hold_form(sheet(client, table_id)) is not None   # a phone without a seat shows it
    assert client.post(f"/t/{table_id}/seat", data={"seat": "0"}).status_code == 302
    anna = sheet(client, table_id)
    data = hold_form(anna)
    assert data is not None and data["player:int"] == "0" and "expected_seq" in data
    button = next(b for f in Page(anna).forms for b in f["buttons"] if "mit mir" in b["text"])
    assert button["aria-label"] == "Anna: mit mir (I hold: the dealer takes the bid), takes the bid of 2"
    duel = post(client, table_id, data)
    deal = state(sqlite_app, table_id)["deal"]
    assert deal["duel"] == {"dealer": 0, "displaced": 1} and deal["to_act"] == 1
    assert "Anna held: only Anna and Bo bid on." in duel
    assert "Anna: mit mir" in Page(duel).all_text()


def test_collapse_and_muli_out_of_turn_before_the_first_bid(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    html = events(client, table_id, *BIDDING)
    assert "unter dem Hund" in html
    section = html.split('class="mu-more mu-collapse"')[1].split("</details>")[0]
    picker = Page(section).find("input", name="cards:list", type="checkbox")
    assert "10H" in {a["value"] for a in picker} and "OH" not in {a["value"] for a in picker}   # only low cards
    preview = client.get(f"/t/{table_id}/preview", query_string={"type": "collapse", "player:int": "2",
                                                                 "cards:list": ["7S", "8L", "9E", "10H", "10L"]})
    assert "✔" in preview.get_data(as_text=True)
    redealt = post(client, table_id, {"type": "collapse", "player:int": "2",
                                      "cards:list": ["7S", "8L", "9E", "10H", "10L"]})
    data = state(sqlite_app, table_id)
    assert data["deal"]["collapses"] == 1 and data["deal"]["phase"] == "cut" and data["deal"]["dealer"] == 0
    assert "Dealt again after 1 weak hand" in redealt and "collapse ×2" in redealt
    bidding = events(client, table_id, *BIDDING)
    press(client, table_id, bidding, "player:int", "3")            # Dan: Muli!
    data = state(sqlite_app, table_id)["deal"]
    assert data["declarer"] == 3 and data["muli"] and data["phase"] == "trump"


# --- trumps, staying home, exchanging -------------------------------------------------------------------


def test_trump_picker_shows_german_suits_by_name_and_colour(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    html = events(client, table_id, *TO_TRUMP)
    form = next(f for f in Page(html).forms if any(b.get("name") == "suit" for b in f["buttons"]))
    suits = {b["value"]: b for b in form["buttons"]}
    assert set(suits) == {"H", "S", "L", "E"}
    assert [suits[s]["text"].split()[0] for s in "HSLE"] == ["Herz", "Schelle", "Laub", "Eichel"]
    assert "g-H" in suits["H"]["class"] and "×2, everyone plays" in suits["H"]["text"]
    section = html.split('class="mu-trump"')[1].split("</form>")[0]
    assert not any(sym in section for sym in FRENCH)
    assert "Bo must take 2 tricks." in html
    press(client, table_id, html, "suit", "L")
    data = state(sqlite_app, table_id)
    assert data["deal"]["trump"] == "L" and data["deal"]["phase"] == "stay"


def test_packerl_asks_the_suit_then_the_face_up_cards(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    html = events(client, table_id, *TO_TRUMP)
    assert 'lang="de">Packerl</span>' in html
    links = [a["href"] for a in Page(html).find("a") if "packerl=" in a.get("href", "")]
    assert len(links) == 4
    step = sheet(client, table_id, packerl="E")
    boxes = [a["value"] for a in Page(step).find("input", name="face_up:list", type="checkbox")]
    assert boxes[0] == "W" and boxes[1:9] == ["AE", "KE", "OE", "UE", "10E", "9E", "8E", "7E"]   # trumps first
    form = next(f for f in Page(step).forms if any(x.get("name") == "delayed:bool" for x in f["fields"]))
    data = {x["name"]: x["value"] for x in form["fields"] if x.get("type") == "hidden"}
    assert data["suit"] == "E"
    post(client, table_id, {**data, "face_up:list": ["KE", "9H"]})   # checkbox order: the trump, then the last
    deal = state(sqlite_app, table_id)["deal"]
    assert deal["trump"] == "E" and deal["exchanges"][0]["kind"] == "trump"


def test_stay_phase_play_along_or_daheim_bleiben(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    html = events(client, table_id, *TO_STAY)
    assert "Cleo: play along or stay home?" in html
    home = Page(html).button("type", "stay_home")[1]
    assert home["aria-label"] == "daheim bleiben (stay home)" and "+1" in home["text"]
    after = press(client, table_id, html, "type", "stay_home")
    after = press(client, table_id, after, "type", "stay_home")   # Dan too: Anna, the last, must play
    last = Page(after).button("type", "stay_home")[1]
    assert "disabled" in last and "#MULAT-STAY-4" in after
    press(client, table_id, after, "type", "join")
    deal = state(sqlite_app, table_id)["deal"]
    assert deal["decisions"] == ["play", "declarer", "home", "home"] and deal["phase"] == "exchange"


def test_exchange_kind_and_count_with_the_stock_left(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    html = events(client, table_id, *TO_EXCHANGE)
    assert "13 cards left in the stock" in html and "Bo exchanges" in html
    page = Page(html)
    assert [b["value"] for f in page.forms for b in f["buttons"] if b.get("name") == "count:int"] == \
        ["0", "1", "2", "3", "4", "5"]
    page.button("keep:bool", "false")
    page.button("kind", "bridge")
    after = press(client, table_id, html, "count:int", "3")
    assert "10 cards left in the stock" in after and "Bo exchanged 3 cards." in after
    sight = press(client, table_id, after, "keep:bool", "false", card="9E")   # Cleo: one on sight, thrown away
    data = state(sqlite_app, table_id)["deal"]
    assert data["exchanges"][-1] == {"player": 2, "kind": "sight", "thrown": 1, "drawn": 2, "face_up": ["9E"],
                                     "kept": False, "served": True}
    assert "Cleo took one on sight, threw it away and took the next:" in sight
    assert data["to_act"] == 0 and data["stock_available"] == 8


# --- the tricks ------------------------------------------------------------------------------------------


def test_tap_each_card_trick_winner_and_next_leader(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    html = events(client, table_id, *TO_PLAY)
    page = Page(html)
    cards = [b for f in page.forms for b in f["buttons"] if b.get("name") == "card"]
    assert len(cards) == 33 and "Which card did Bo play?" in html and "Bo leads" in html
    assert cards[0]["aria-label"] == "Herz-Sau" and all("disabled" not in b for b in cards)
    html = press(client, table_id, html, "card", "AL")
    assert "disabled" in Page(html).button("card", "AL")[1]      # played: greyed for the rest of the deal
    html = press(client, table_id, html, "card", "KL")
    html = press(client, table_id, html, "card", "OL")
    assert "Trick 1 goes to Bo." in html and "Bo leads the next trick." in html
    seat = Page(html).find("li", **{"class": "mu-seat acting leads"})
    assert len(seat) == 1
    assert "1 trick" in Page(html).all_text()


def test_an_entered_hand_offers_only_its_legal_cards(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    events(client, table_id, *TO_PLAY)
    post(client, table_id, {"type": "hand", "player:int": "2", "cards:list": ["KL", "9H", "8H", "7E", "8E"]})
    html = events(client, table_id, {"type": "play", "player": 1, "card": "AH"})
    hand = {b["value"]: b for f in Page(html).forms for b in f["buttons"] if b.get("name") == "card"}
    assert set(hand) == {"KL", "9H", "8H", "7E", "8E"}
    assert [c for c, b in hand.items() if "disabled" not in b] == ["9H", "8H"]
    assert "must follow suit" in html and "#MULAT-PLAY-3" in html
    press(client, table_id, html, "card", "9H")
    assert state(sqlite_app, table_id)["deal"]["tricks"][0]["cards"][-1] == {"player": 2, "card": "9H"}


# --- revokes and the sheet ------------------------------------------------------------------------------

HEARTS_KNOCKED = [{"type": "knock", "player": 3}, {"type": "bid", "player": 1, "tricks": 2},
                  {"type": "pass", "player": 2}, {"type": "pass", "player": 3}, {"type": "pass", "player": 0},
                  {"type": "trump", "player": 1, "suit": "H"}] + \
    [{"type": "exchange", "player": p, "count": 1} for p in (1, 2, 3, 0)]
TRICKS = [(1, "AH"), (2, "7H"), (3, "10H"), (0, "7L"),      # Anna throws a Laub on the Herz lead...
          (1, "KH"), (2, "8H"), (3, "7E"), (0, "UH"),       # ...and then plays a Herz: a revoke
          (1, "OH"), (2, "9H"), (3, "8E"), (0, "8L"), (1, "AS"), (2, "7S"), (3, "9E"), (0, "9L"),
          (1, "KS"), (2, "8S"), (3, "10E"), (0, "10L")]


def test_revoke_shown_in_words_and_cards_then_confirmed(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    plays = [{"type": "play", "player": p, "card": c} for p, c in TRICKS]
    html = events(client, table_id, *HEARTS_KNOCKED, *plays[:8])
    assert "A revoke to check: see below" in html
    box = html.split('class="mu-revoke"')[1].split("</article>")[0]
    assert "In trick 1 Anna played the Laub-Siebener although Herz was led." in box
    assert "But Anna played the Herz-Unter later, in trick 2, so Anna held it then." in box
    faces = [a["aria-label"] for a in Page(box).find("span", role="img")]
    assert faces == ["Laub-Siebener", "Herz-Unter"]
    assert "#MULAT-PLAY-3" in box and "#MULAT-SCORE-9" in box
    html = events(client, table_id, *plays[8:])
    assert state(sqlite_app, table_id)["phase"] == "review" and "All five tricks are played" in html
    scored = press(client, table_id, html, "type", "confirm")
    data = state(sqlite_app, table_id)
    row = data["sheet"][0]
    assert row["revokes"] == [0] and row["changes"] == [20, -20, 20, 20] and data["proposals"] == []
    toast = Page(scored.split('class="mu-scored mu-hide-pops" role="status">')[1].split("</div>")[0]).text
    assert toast[:2] == ["Deal 1 scored", "· ×4"] and "Anna +20" in toast and "Bo -20" in toast
    cells = scored.split('aria-label="Deal 1: Bo bid 2 and made it"')[1].split("</tr>")[0]
    assert "revoke" in cells and "+20" in cells


def test_a_dismissed_revoke_scores_normally(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    html = events(client, table_id, *HEARTS_KNOCKED, *[{"type": "play", "player": p, "card": c} for p, c in TRICKS])
    press(client, table_id, html, "type", "dismiss")
    assert state(sqlite_app, table_id)["sheet"][0]["changes"][0] == 20   # no trick: +5 × 4


def test_sheet_row_with_multiplier_causes_totals_and_chart(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    html = events(client, table_id, *HEARTS_KNOCKED, *[{"type": "play", "player": p, "card": c} for p, c in TRICKS],
                  {"type": "confirm", "proposal": 1})
    box = html.split('class="mu-sheet-box"')[1]
    page = Page(box)
    assert [a for a in page.text if a.startswith("×")] == ["×4"]
    assert "♥ Herz ×2" in page.text and "knock ×2" in page.text
    assert page.all_text().count("21") >= 4                    # the start row
    for total in ("41", "1"):
        assert total in page.text
    assert "<svg" in box and "Points over the deals" in box


# --- tally mode ---------------------------------------------------------------------------------------------


def tally_form(html: str) -> dict[str, Any]:
    form = next(f for f in Page(html).forms if any(x.get("value") == "deal_result" for x in f["fields"])
                and any(x.get("name") == "declarer:int" for x in f["fields"]))
    return {x["name"]: x["value"] for x in form["fields"] if x.get("type") == "hidden"}


def test_tally_deal_result_fills_the_same_sheet(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client, mode="tally")
    html = sheet(client, table_id)
    page = Page(html)
    assert {a["value"] for a in page.find("input", name="trump")} == {"H", "S", "L", "E"}
    assert len(page.find("select", name="tricks:intlist")) == 4
    assert "daheim bleiben" in html and "Muli" in html
    data = {**tally_form(html), "declarer:int": "3", "bid:int": "4", "trump": "E", "home:intlist": ["0"],
            "tricks:intlist": ["0", "1", "0", "4"], "causes:list": ["knock", "collapse"], "breaker:json": "null"}
    done = post(client, table_id, data)
    row = state(sqlite_app, table_id)["sheet"][0]
    assert row["causes"] == ["collapse", "knock"] and row["changes"] == [4, -4, 20, -16]
    box = Page(done.split('class="mu-sheet-box"')[1])
    assert "×4" in box.text and "collapse ×2" in box.text and "knock ×2" in box.text
    assert "Eichel" in box.all_text() and "daheim bleiben (stay home)" in box.all_text()
    assert "Deal 2" in done and "Bo deals" in done


def test_tally_refused_keeps_what_was_entered(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client, mode="tally")
    data = {**tally_form(sheet(client, table_id)), "declarer:int": "1", "bid:int": "2", "trump": "L",
            "tricks:intlist": ["1", "1", "1", "1"]}
    refused = post(client, table_id, data, status=422)
    assert "#MULAT-SCORE-6" in refused and "the tricks add up to 4, not 5" in refused
    page = Page(refused)
    assert "checked" in page.find("input", name="declarer:int", value="1")[0]
    assert "checked" in page.find("input", name="trump", value="L")[0]


def test_tally_winner_at_zero(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client, mode="tally")
    data = {**tally_form(sheet(client, table_id)), "declarer:int": "1", "bid:int": "5", "trump": "H",
            "tricks:intlist": ["0", "5", "0", "0"], "causes:list": ["knock"]}
    html = post(client, table_id, data)
    assert "Bo wins with -19 points!" in html and "🏆" in html
    assert not any(f for f in Page(html).forms if any(x.get("value") == "deal_result" for x in f["fields"]))
    won = [a for t, a in Page(html).tags if t in ("td", "th") and "won" in a.get("class", "").split()]
    assert len(won) == 2      # Bo's column head and Bo's final total
    assert "#MULAT-END-1" in html


# --- languages, watchers, helpers ----------------------------------------------------------------------------


def test_german_terms_in_every_language(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    events(client, table_id, *BIDDING)
    client.get("/lang/sv")
    swedish = sheet(client, table_id)
    assert '<span class="mu-de" lang="de">weiter</span> <span class="mu-gloss">(' in swedish
    assert '<span class="mu-de" lang="de">Sau</span>' in swedish and 'lang="de">Weli</span>' in swedish
    client.get("/lang/de")
    german = sheet(client, table_id)
    assert '<span class="mu-de" lang="de">weiter</span></button>' in german   # no gloss needed in German


def test_watcher_sees_the_sheet_but_no_controls(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    events(client, table_id, *TO_PLAY, {"type": "play", "player": 1, "card": "AL"})
    watcher = watcher_of(sqlite_app, table_id)
    html = sheet(watcher, table_id)
    page = Page(html)
    assert page.forms == [] and not page.find("button")
    assert "Bo leads" not in html and "Cleo plays" in html and "Score sheet" in html
    assert [a["aria-label"] for a in page.find("span", role="img")] == ["Laub-Sau"]
    assert watcher.post(f"/t/{table_id}/events", data={"type": "play", "player:int": "2",
                                                        "card": "KL"}).status_code == 403


def test_words_for_the_sheet_and_revokes(sqlite_app: Flask) -> None:
    with sqlite_app.test_request_context():
        assert row_words({"deal": 3, "declarer": 1, "bid": 4, "made": False}, NAMES) == "Deal 3: Bo bid 4 and failed"
        deal = {"trump": "S", "declarer": 1, "tricks": [{"cards": [{"player": 0, "card": "W"}]}]}
        words = proposal_words({"player": 2, "trick": 1, "card": "9H", "evidence": "AS", "evidence_trick": None,
                                "kind": "head"}, deal, NAMES)
        assert words["what"] == "In trick 1 Cleo played the Herz-Neuner, which does not beat the trick."
        assert words["proof"] == "The Schelle-Sau is in the hand Cleo entered, so Cleo held it then."
        assert "+5" in words["penalty"]
        trump = proposal_words({"player": 1, "trick": 1, "card": "9H", "evidence": "7S", "evidence_trick": 3,
                                "kind": "trump"}, {**deal, "tricks": [{"cards": [{"player": 0, "card": "AL"}]}]},
                               NAMES)
        assert trump["what"] == ("In trick 1 Bo could not follow Laub and played the Herz-Neuner, not a trump.")
        assert "+10" in trump["penalty"]
