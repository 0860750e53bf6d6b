"""Mousel screens: each phase's controls post the right event (deal, turn-up, take/refuse,
exchange/fold, discard, the tricks); an illegal move shows its rule link; the settlement table of a
deal; the settle-up at the end; tally mode's deal_result; revoke proposals; the ledger; what a
watcher sees. The deals are the worked examples MOUSEL-EX-1…3 of the rules."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web.views.mousel import proposal_words, transfers_words
from tests.web.html import Page
from tests.web.phone import events, state, watcher_of

HX = {"HX-Request": "true"}
NAMES = ["Anna", "Bo", "Cleo", "Dan"]   # A, B, C, D of the worked examples


def open_table(client: FlaskClient, mode: str = "adjudicate", seat: str | None = "0",
               names: list[str] | None = None, **fields: str) -> str:
    response = client.post("/tables", data={"game": "mousel", "players": names or NAMES, "mode": mode, **fields})
    assert response.status_code == 302, response.get_data(as_text=True)[:500]
    table_id = response.location.rsplit("/", 1)[1]
    if seat is not None:
        assert client.post(f"/t/{table_id}/seat", data={"seat": seat}).status_code == 302
    return table_id


def sheet(client: FlaskClient, table_id: str) -> str:
    response = client.get(f"/t/{table_id}/sheet", headers=HX)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def post(client: FlaskClient, table_id: str, data: dict[str, Any], status: int = 200) -> str:
    response = client.post(f"/t/{table_id}/events", data=data, headers=HX)
    assert response.status_code == status, response.get_data(as_text=True)[:3000]
    return response.get_data(as_text=True)


def hidden(form: dict[str, Any]) -> dict[str, list[str]]:
    data: dict[str, list[str]] = {}
    for f in form["fields"]:
        if f.get("type") == "hidden":
            data.setdefault(f["name"], []).append(f["value"])
    return data


def check_form(table_id: str, form: dict[str, Any]) -> None:
    assert form["attrs"]["method"] == "post" and form["attrs"]["hx-post"] == f"/t/{table_id}/events"
    names = {f.get("name") for f in form["fields"]}
    assert "csrf_token" in names and "expected_seq" in names


def press(client: FlaskClient, table_id: str, html: str, name: str, value: str, status: int = 200,
          **extra: Any) -> str:
    """Submit the form holding the button ``name=value`` as a browser would: its hidden fields,
    its checked radios, the button, and whatever the test fills in."""
    form, button = Page(html).button(name, value)
    assert "disabled" not in button, f"{name}={value} is disabled"
    check_form(table_id, form)
    data: dict[str, Any] = hidden(form)
    for f in form["fields"]:
        if f.get("type") in ("radio", "checkbox") and "checked" in f:
            data.setdefault(f["name"], []).append(f["value"])
    data[name] = value
    data.update(extra)
    return post(client, table_id, data, status)


def pick(client: FlaskClient, table_id: str, html: str, code: str, status: int = 200, **extra: Any) -> str:
    """Tap a card in the picker: the form posts its hidden fields, the chosen player and the card."""
    page = Page(html)
    form = page.form_with("card", code)
    check_form(table_id, form)
    radio = next(f for f in form["fields"] if f.get("name") == "card" and f.get("value") == code)
    assert "disabled" not in radio, f"{code} is greyed"
    data: dict[str, Any] = hidden(form)
    for f in form["fields"]:
        if f.get("type") == "radio" and f.get("name") != "card" and "checked" in f:
            data[f["name"]] = f["value"]
    if '<select name="player:int"' in html:                          # "Played by": its chosen player
        data["player:int"] = next(o["value"] for o in played_by(html) if "selected" in o)
    data["card"] = code
    data.update(extra)
    return post(client, table_id, data, status)


def part(html: str, marker: str, end: str) -> str:
    """The element holding ``marker`` in its start tag, up to the first ``end`` after it."""
    at = html.index(marker)
    start = html.rindex("<", 0, at)
    return html[start:html.index(end, at) + len(end)]


def plays(*cards: tuple[int, str]) -> list[dict[str, Any]]:
    return [{"type": "play", "player": p, "card": c} for p, c in cards]


# MOUSEL-EX-1: Dan deals; 8C refused all round and set aside; KS offered round, Bo takes it.
EX1 = [{"type": "deal", "dealer": 3}, {"type": "turn_up", "card": "8C"}, {"type": "refuse", "player": 3},
       {"type": "refuse", "player": 0}, {"type": "refuse", "player": 1}, {"type": "refuse", "player": 2},
       {"type": "refuse", "player": 3}, {"type": "turn_up", "card": "KS"}, {"type": "refuse", "player": 0},
       {"type": "take", "player": 1}]
# MOUSEL-EX-2: Bo 2, Cleo folds, Anna 1, Dan 3 (last: he may not fold); tricks Bo 2, Anna 1, Dan 1.
EX2_DECIDE = [{"type": "exchange", "player": 1, "count": 2}, {"type": "fold", "player": 2},
              {"type": "exchange", "player": 0, "count": 1}, {"type": "exchange", "player": 3, "count": 3},
              {"type": "discard", "player": 1}]
EX2_TRICKS = plays((1, "AS"), (3, "9S"), (0, "8S"), (1, "QH"), (3, "7H"), (0, "AH"),
                   (0, "KD"), (1, "JS"), (3, "8D"), (1, "10C"), (3, "AC"), (0, "7C"))
EX2 = EX1 + EX2_DECIDE + EX2_TRICKS
# MOUSEL-EX-3: Anna deals; Cleo takes hearts; Bo folds; tricks Cleo 1, Anna 3, Dan 0: penalties.
EX3 = [{"type": "deal"}, {"type": "turn_up", "card": "9H"}, {"type": "refuse", "player": 0},
       {"type": "refuse", "player": 1}, {"type": "take", "player": 2},
       {"type": "exchange", "player": 2, "count": 0}, {"type": "exchange", "player": 3, "count": 0},
       {"type": "fold", "player": 1}, {"type": "exchange", "player": 0, "count": 0}, {"type": "discard", "player": 2}] \
    + plays((2, "7D"), (3, "8D"), (0, "AD"), (0, "AC"), (2, "7C"), (3, "8C"), (0, "KC"), (2, "9C"), (3, "10C"),
            (0, "7S"), (2, "AS"), (3, "9S"))


# --- between deals, the turn-up ---------------------------------------------------------------------------


def test_first_deal_asks_the_dealer_and_shows_the_pot(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    html = sheet(client, table_id)
    assert "Deal 1: who deals?" in html and "After the antes: 4, 1 a trick" in html
    buttons = [b for f in Page(html).forms for b in f["buttons"] if b.get("name") == "dealer:int"]
    assert [b["text"] for b in buttons] == NAMES and buttons[0]["aria-label"] == "Anna deals"
    dealt = press(client, table_id, html, "dealer:int", "3")
    data = state(sqlite_app, table_id)
    assert data["deal"]["dealer"] == 3 and data["pot"] == 4 and data["balances"] == [-1, -1, -1, -1]
    pot = Page(part(dealt, 'class="ms-pot"', "</section>"))
    assert pot.text == ["Pot", "4", "1 token a trick"]
    assert "Dan turns up a card" in dealt and "4 antes into the pot" in dealt
    assert len(Page(dealt).find("span", **{"class": "ms-balance neg"})) == 4
    assert all(f"{n}: balance -1" in Page(dealt).text for n in NAMES)   # spoken beside the big figure


def test_turn_up_offer_round_and_set_aside(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    html = events(client, table_id, EX1[0])
    picker = Page(html).find("input", name="card", type="radio")
    assert [a["value"] for a in picker][:8] == ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S"]
    assert len(picker) == 32                                        # the 32-card pack, 7 to ace
    assert Page(html).form_with("card")["attrs"]["hx-trigger"].startswith("submit, change")
    html = pick(client, table_id, html, "8C")
    assert state(sqlite_app, table_id)["deal"]["turned"] == "8C"
    assert "Dan may take it blind" in html and "Dan takes it blind" in html
    html = press(client, table_id, html, "type", "refuse")         # Dan: not blind
    assert "Offered to Anna" in html
    asked = [a["class"] for a in Page(html).find("li") if a.get("class") in ("refused", "asked", "waiting")]
    assert asked == ["asked", "waiting", "waiting", "waiting"]
    for _ in range(4):                                              # Anna, Bo, Cleo, then Dan refuse
        html = press(client, table_id, html, "type", "refuse")
    deal = state(sqlite_app, table_id)["deal"]
    assert deal["set_aside"] == ["8C"] and deal["stock"] == 15 and deal["dealer_looked"]
    assert "Refused and set aside:" in html and "#MOUSEL-TRUMP-5" in html
    gone = Page(html).find("input", name="card", value="8C")[0]
    assert "disabled" in gone                                       # out of play: greyed in the picker
    html = pick(client, table_id, html, "KS")
    assert "Offered to Anna" in html and "blind" not in Page(html).button("type", "take")[1]["text"]
    html = press(client, table_id, html, "type", "refuse")
    html = press(client, table_id, html, "type", "take")            # Bo takes the K♠
    data = state(sqlite_app, table_id)
    assert data["deal"]["taker"] == 1 and data["deal"]["trump"] == "S" and data["deal"]["stock"] == 14
    trumps = html.split('class="ms-trumps"')[1].split("</div>")[0]
    assert "Trumps: spades" in trumps and "Bo took the king of spades" in trumps and "♠" in trumps


def test_look_button_posts_look(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    html = events(client, table_id, EX1[0])
    assert 'value="look"' not in html                                # nothing on offer yet (MOUSEL-TRUMP-1)
    html = pick(client, table_id, html, "8C")
    html = post(client, table_id, hidden(Page(html).form_with("type", "look")))
    assert state(sqlite_app, table_id)["deal"]["dealer_looked"]
    assert "Offered to Anna" in html                                 # no blind take after looking


# --- exchanges and folds -----------------------------------------------------------------------------------


def test_exchange_counts_stock_and_fold(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    html = events(client, table_id, *EX1)
    assert "Bo exchanges" in html and "14 cards left in the stock" in html
    page = Page(html)
    counts = [b for f in page.forms for b in f["buttons"] if b.get("name") == "count:int"]
    assert [b["value"] for b in counts] == ["0", "1", "2", "3", "4", "5"]     # the taker holds N+1
    assert counts[0]["aria-label"] == "Bo stands pat" and counts[2]["aria-label"] == "Bo exchanges 2 cards"
    assert "can never fold" in html and "#MOUSEL-EXCH-2" in html
    html = press(client, table_id, html, "count:int", "2")
    assert "12 cards left in the stock" in html and "Cleo: exchange or fold?" in html
    fold = next(f for f in Page(html).forms if hidden(f).get("type") == ["fold"])
    assert hidden(fold)["player:int"] == ["2"]
    html = post(client, table_id, hidden(fold))
    html = press(client, table_id, html, "count:int", "1")          # Anna
    decisions = Page(html.split('class="ms-decisions"')[1].split("</ol>")[0]).all_text()
    assert "Bo exchanged 2 cards" in decisions and "Cleo folded" in decisions and "Dan decides now" in decisions
    html = press(client, table_id, html, "count:int", "3")          # Dan, last
    data = state(sqlite_app, table_id)
    assert data["phase"] == "discard" and data["deal"]["stock"] == 8 and data["deal"]["folded"] == [2]
    assert "Bo throws away one more card" in html
    html = post(client, table_id, hidden(Page(html).form_with("type", "discard")))
    assert state(sqlite_app, table_id)["phase"] == "play" and "Bo leads" in html


def test_the_last_opponent_may_not_fold(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    html = events(client, table_id, *EX1, {"type": "exchange", "player": 1, "count": 0},
                  {"type": "fold", "player": 2}, {"type": "fold", "player": 0})
    assert "Dan: exchange or fold?" in html
    fold = next(b for f in Page(html).forms for b in f["buttons"] if b["text"] == "Dan folds")
    assert "disabled" in fold
    assert "Everyone else has folded, so Dan must play against the taker." in html and "#MOUSEL-EXCH-3" in html


def test_short_stock_limits_the_exchange(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client, names=["A", "B", "C", "D", "E"])   # 25 dealt, 7 in the stock (MOUSEL-EX-5)
    html = events(client, table_id, {"type": "deal", "dealer": 0}, {"type": "turn_up", "card": "7C"},
                  *[{"type": "refuse", "player": p} for p in (0, 1, 2, 3, 4, 0)], {"type": "turn_up", "card": "8C"},
                  {"type": "refuse", "player": 1}, {"type": "take", "player": 2},
                  {"type": "exchange", "player": 2, "count": 3}, {"type": "exchange", "player": 3, "count": 2})
    counts = [b["value"] for f in Page(html).forms for b in f["buttons"] if b.get("name") == "count:int"]
    assert counts == ["0"] and "Only 0 cards left in the stock." in html and "#MOUSEL-EXCH-5" in html


# --- the tricks ---------------------------------------------------------------------------------------------


def played_by(html: str) -> list[dict[str, str]]:
    """The "Played by" list of the card form: whose turn it is comes chosen."""
    return Page(html.split('<select name="player:int"')[1].split("</select>")[0]).find("option")


def test_tap_each_card_trick_winner_and_greyed_cards(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    html = events(client, table_id, *EX1, *EX2_DECIDE)
    page = Page(html)
    players = played_by(html)
    assert [p["value"] for p in players] == ["0", "1", "3"]          # Cleo folded
    assert "selected" in players[1]                                   # Bo, the taker, leads
    ks = page.find("input", name="card", value="KS")[0]
    assert "disabled" not in ks                                       # in Bo's own hand
    html = pick(client, table_id, html, "AS")
    page = Page(html)
    assert "Dan plays" in html and "selected" in played_by(html)[2]
    assert "disabled" in page.find("input", name="card", value="AS")[0]
    assert "disabled" in page.find("input", name="card", value="KS")[0]   # the trump card is Bo's
    html = pick(client, table_id, html, "9S")
    html = pick(client, table_id, html, "8S")
    assert "Trick 1 goes to Bo." in html and "Bo leads the next trick." in html
    felt = Page(html.split('class="ms-felt"')[1].split("</ul>")[0])
    assert [a["aria-label"] for a in felt.find("span", role="img")] == ["ace of spades", "nine of spades",
                                                                         "eight of spades"]
    assert len(Page(html).find("li", **{"class": "ms-seat acting leads taker"})) == 1
    assert "1 trick" in Page(html).all_text()


def test_illegal_move_shows_its_rule_link(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    html = events(client, table_id, *EX1, *EX2_DECIDE)
    refused = pick(client, table_id, html, "AS", status=422, **{"player:int": "0"})   # Anna, but Bo leads
    error = Page(refused.split('class="error"')[1].split("</div>")[0])
    links = error.find("a", **{"class": "rule"})
    assert links and links[0]["href"].endswith(f"/rules/mousel?table={table_id}&lang=en#MOUSEL-PLAY-1")
    assert "it is Bo&#39;s turn to play, not Anna&#39;s" in refused
    assert Page(refused).form_with("card", "AS")                     # the picker is there to try again
    wrong = post(client, table_id, {**hidden(Page(refused).form_with("card")), "player:int": "1", "card": "6S"},
                 status=422)
    assert "#MOUSEL-COMP-1" in wrong and "32-card pack" in wrong


def test_preview_dry_run_of_a_card(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    events(client, table_id, *EX1, *EX2_DECIDE)
    bad = client.get(f"/t/{table_id}/preview", query_string={"type": "play", "player:int": "1", "card": "8C"})
    text = bad.get_data(as_text=True)
    assert "✘" in text and "set aside" in text and "#MOUSEL-COMP-1" in text


# --- settlement, settle-up, ledger, chart -------------------------------------------------------------------


def test_settlement_table_of_each_deal(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    html = events(client, table_id, *EX2)
    data = state(sqlite_app, table_id)
    assert data["balances"] == [0, 1, -1, 0] and data["pot"] == 0
    table = html.split('id="ms-deal-1"')[1].split("</table>")[0]
    rows = [r for r in table.split("<tr")[2:]]
    cells = [Page("<tr" + r).text for r in rows]
    assert cells[0] == ["Anna", "1", "+1", "0", "0"]
    assert cells[1] == ["Bo", "took trumps", "2", "+2", "0", "+1"]
    assert cells[2] == ["Cleo", "folded", "–", "0", "0", "-1"]
    assert cells[3] == ["Dan", "1", "+1", "0", "0"]
    assert "Deal 1: Bo took trumps; pot 4, 1 a trick." in table
    assert "Next pot: 0 left over + 0 in penalties + 4 antes = 4" in table
    assert "Anna: share +1" in html and "Bo: share +2" in html          # what this deal paid, by name

    html = events(client, table_id, *EX3)
    data = state(sqlite_app, table_id)
    assert data["balances"] == [2, 0, -5, -5] and data["pot"] == 8 and data["value_per_trick"] == 3
    pot = Page(part(html, 'class="ms-pot"', "</section>"))
    assert pot.text == ["Pot", "8", "After the antes: 12, 3 a trick"]
    table = html.split('id="ms-deal-2"')[1].split("</table>")[0]
    cells = [Page("<tr" + r).text for r in table.split("<tr")[2:]]
    assert cells[2] == ["Cleo", "took trumps", "1", "+1", "-4", "-5"]
    assert cells[3] == ["Dan", "0", "0", "-4", "-5"]
    assert "Next pot: 0 left over + 8 in penalties + 4 antes = 12" in table
    assert "Cleo: penalty -4" in html and "Dan: penalty -4" in html
    assert "1 earlier deal" in html                                    # deal 1 folded away below
    # The redraw leaves the folded deal out, to be fetched when it is opened; the part has it.
    older = html.split('class="ms-more ms-older"')[1].split("</details>")[0]
    assert 'id="ms-deal-1"' not in html and f'hx-get="/t/{table_id}/sheet/older"' in older
    assert 'hx-trigger="toggle once from:closest details"' in older
    fetched = client.get(f"/t/{table_id}/sheet/older", headers=HX)
    assert fetched.status_code == 200 and 'id="ms-deal-1"' in fetched.text and 'id="ms-deal-2"' not in fetched.text
    assert "Deal 1: Bo took trumps; pot 4, 1 a trick." in fetched.text
    # A whole page folds them so too; its link (no script) opens the page with every deal, newest first.
    page = client.get(f"/t/{table_id}").text
    assert 'id="ms-deal-1"' not in page and f'href="/t/{table_id}?history=1#ms-older"' in page
    page = client.get(f"/t/{table_id}?history=1").text
    assert page.index('id="ms-deal-2"') < page.index('id="ms-deal-1"') < page.index("</details>", page.index("ms-older"))
    assert '<details class="ms-more ms-older" id="ms-older" open>' in page
    assert 'aria-label="The pot and the balances over the deals"' in html
    assert "Dan -5" in html and "pot 8" in html                        # the chart's line labels


def test_ledger_lists_every_token_movement(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    html = events(client, table_id, *EX2, *EX3)
    folded = html.split('class="ms-more ms-ledger"')[1].split("</details>")[0]
    assert "The ledger: 15 token movements" in folded              # 8 antes, 5 shares, 2 penalties
    assert "<tbody>" not in folded and f'hx-get="/t/{table_id}/sheet/ledger"' in folded
    ledger = client.get(f"/t/{table_id}/sheet/ledger", headers=HX).text.strip()
    assert ledger == client.get(f"/t/{table_id}?history=1").text.split('class="ms-more ms-ledger"')[1].split(
        "</summary>")[1].split("</details>")[0].strip()            # the whole history's page has the same
    rows = [Page("<tr" + r).text for r in ledger.split("<tbody>")[1].split("<tr")[1:]]
    assert len(rows) == len(state(sqlite_app, table_id)["ledger"]) == 15
    assert rows[0] == ["1", "ante", "Anna", "pot", "1", "MOUSEL-DEAL-1"]
    assert ["2", "penalty", "Cleo", "pot", "4", "MOUSEL-POT-4"] in rows
    assert ["2", "penalty", "Dan", "pot", "4", "MOUSEL-POT-5"] in rows
    assert ["1", "share", "pot", "Bo", "2", "MOUSEL-POT-1"] in rows


def test_a_sheet_part_is_the_tables_own_and_named(sqlite_app: Flask) -> None:
    """Only a game's folded parts are served (404 otherwise), to the phones the table let in (403)."""
    client = sqlite_app.test_client()
    table_id = open_table(client)
    events(client, table_id, *EX2)
    assert client.get(f"/t/{table_id}/sheet/ledger").status_code == 200
    assert client.get(f"/t/{table_id}/sheet/chart").status_code == 404
    stranger = sqlite_app.test_client()
    assert stranger.get(f"/t/{table_id}/sheet/ledger").status_code == 403
    assert stranger.get(f"/t/{table_id}/sheet/chart").status_code == 403  # nothing told, not even the parts
    assert client.get("/t/nosuchtable/sheet/ledger").status_code == 404
    mulle = client.post("/tables", data={"game": "mulle", "players": ["Anna", "Bo"]}).location.rsplit("/", 1)[1]
    assert client.get(f"/t/{mulle}/sheet").status_code == 200           # its own table, whose game has no parts
    assert client.get(f"/t/{mulle}/sheet/ledger").status_code == 404
    watcher = watcher_of(sqlite_app, table_id)
    assert watcher.get(f"/t/{table_id}/sheet/older").status_code == 200


def test_settle_up_at_the_end(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    html = events(client, table_id, *EX2, *EX3)
    stop = html.split('class="ms-more ms-stop"')[1].split("</details>")[0]
    assert "The pot of 8 is split equally." in stop                    # a dry run before stopping
    assert "Cleo pays Anna 3" in stop and "🏆" not in stop
    html = post(client, table_id, hidden(Page(html).form_with("type", "end_session")))
    data = state(sqlite_app, table_id)
    assert data["over"] and data["end"]["settle_up"] == [{"from": 2, "to": 0, "amount": 3},
                                                         {"from": 3, "to": 1, "amount": 2},
                                                         {"from": 3, "to": 0, "amount": 1}]
    end = html.split('class="ms-end"')[1].split("</section>")[0]
    page = Page(end)
    assert "Anna is up the most: 4" in page.all_text()
    assert [t for t in page.text if " pays " in t] == ["Cleo pays Anna 3", "Dan pays Bo 2", "Dan pays Anna 1"]
    assert "3 transfers clear every balance." in page.all_text()
    assert "Anna +2" in page.text and "Dan +2" in page.text            # the pot split
    assert [f for f in Page(html).forms if "undo" not in f["attrs"].get("class", "")] == []


def test_settle_up_words_with_an_unallocated_token() -> None:
    from scorekeeper import create_app

    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "t"})
    with app.test_request_context():
        words = transfers_words([{"from": 0, "to": 1, "amount": 3}, {"from": 2, "to": "pot", "amount": 1}], NAMES)
    assert [w["text"] for w in words] == ["Anna pays Bo 3", "Cleo leaves 1 in the pot (unallocated)"]


# --- revokes ------------------------------------------------------------------------------------------------

TWO = ["Anna", "Bo"]
REVOKE_DEAL = [{"type": "deal", "dealer": 0}, {"type": "turn_up", "card": "7H"}, {"type": "take", "player": 0},
               {"type": "exchange", "player": 0, "count": 0}, {"type": "exchange", "player": 1, "count": 0},
               {"type": "discard", "player": 0}] + plays((0, "7S"), (1, "8D"), (0, "AC"), (1, "9S"))


def test_revoke_in_words_and_cards_then_confirmed(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client, names=TWO)
    html = events(client, table_id, *REVOKE_DEAL)
    assert state(sqlite_app, table_id)["phase"] == "review"
    assert "All tricks are played" in html and "A revoke to check: see below" in html
    box = html.split('class="ms-revoke"')[1].split("</article>")[0]
    assert "In trick 1 Bo played the eight of diamonds although spades were led." in box
    assert "But Bo played the nine of spades later, in trick 2, so Bo held spades then." in box
    assert [a["aria-label"] for a in Page(box).find("span", role="img")] == ["eight of diamonds", "nine of spades"]
    assert "#MOUSEL-PLAY-2" in box and "#MOUSEL-POT-8" in box
    html = press(client, table_id, html, "type", "confirm")
    data = state(sqlite_app, table_id)
    row = data["settlements"][0]
    assert row["revokers"] == [1] and row["penalties"] == [0, 2] and data["phase"] == "between_deals"
    table = html.split('id="ms-deal-1"')[1].split("</table>")[0]
    assert "revoke" in table


def test_a_dismissed_revoke_settles_normally(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client, names=TWO)
    html = events(client, table_id, *REVOKE_DEAL)
    press(client, table_id, html, "type", "dismiss")
    row = state(sqlite_app, table_id)["settlements"][0]
    assert row["revokers"] == [] and row["tricks"] == [2, 0] and row["penalties"] == [0, 2]


def test_words_for_a_revoke(sqlite_app: Flask) -> None:
    with sqlite_app.test_request_context():
        deal = {"taker": 2, "trump_card": "KH"}
        words = proposal_words({"player": 2, "kind": "trumpcard", "trick": 4, "card": "9C", "evidence": "KH",
                                "evidence_trick": None, "led_suit": None}, deal, NAMES)
        assert words["what"] == ("Cleo played the last card, the nine of clubs, in trick 4 without ever playing "
                                 "the turned-up king of hearts.")
        assert "twice the pot" in words["penalty"]


# --- tally mode ---------------------------------------------------------------------------------------------


def tally_form(html: str) -> dict[str, Any]:
    return Page(html).form_with("taker:int")


def test_tally_deal_result_settles_the_same_ledger(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client, mode="tally")
    html = sheet(client, table_id)
    form = tally_form(html)
    check_form(table_id, form)
    page = Page(html)
    assert {a["value"] for a in page.find("input", name="taker:int")} == {"0", "1", "2", "3"}
    assert len(page.find("select", name="tricks:intlist")) == 4
    assert [a["value"] for a in page.find("input", name="dealer:int", type="radio")] == ["0", "1", "2", "3"]
    data = {**hidden(form), "dealer:int": "3", "taker:int": "1", "folded:intlist": ["2"],
            "tricks:intlist": ["1", "2", "0", "1"]}
    preview = client.get(f"/t/{table_id}/preview", query_string=data).get_data(as_text=True)
    assert "✔" in preview and "Bo: 2 tricks +2" in preview
    done = post(client, table_id, data)
    state1 = state(sqlite_app, table_id)
    assert state1["balances"] == [0, 1, -1, 0] and state1["settlements"][0]["dealer"] == 3
    assert "Deal 2 · Anna deals" in done
    data = {**hidden(tally_form(done)), "taker:int": "2", "folded:intlist": ["1"],
            "tricks:intlist": ["3", "0", "1", "0"]}
    done = post(client, table_id, data)
    state2 = state(sqlite_app, table_id)
    assert state2["balances"] == [2, 0, -5, -5] and state2["pot"] == 8
    table = done.split('id="ms-deal-2"')[1].split("</table>")[0]
    assert "Next pot: 0 left over + 8 in penalties + 4 antes = 12" in table
    assert [e["kind"] for e in state2["ledger"]].count("penalty") == 2


def test_tally_refused_shows_the_rule_and_keeps_what_was_entered(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client, mode="tally")
    data = {**hidden(tally_form(sheet(client, table_id))), "taker:int": "1", "folded:intlist": ["2"],
            "tricks:intlist": ["1", "1", "0", "1"]}
    refused = post(client, table_id, data, status=422)
    assert "#MOUSEL-EXCH-6" in refused and "so there are 4 tricks, not 3" in refused
    page = Page(refused)
    assert "checked" in page.find("input", name="taker:int", value="1")[0]
    assert "checked" in page.find("input", name="folded:intlist", value="2")[0]
    tricks = refused.split('id="ms-tricks-1"')[1].split("</select>")[0]
    assert '<option value="1" selected>' in tricks


def test_tally_void_deal(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client, mode="tally")
    html = sheet(client, table_id)
    post(client, table_id, hidden(Page(html).form_with("void:bool")))
    data = state(sqlite_app, table_id)
    assert data["settlements"][0]["void"] and data["pot"] == 4


# --- watchers -----------------------------------------------------------------------------------------------


def test_watcher_sees_the_sheet_but_no_controls(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    events(client, table_id, *EX2, *EX3[:12])
    watcher = watcher_of(sqlite_app, table_id)
    html = sheet(watcher, table_id)
    page = Page(html)
    assert page.forms == [] and not page.find("button") and not page.find("input")
    assert "Anna plays" in html and "Trumps: hearts" in html and 'id="ms-deal-1"' in html
    felt = Page(html.split('class="ms-felt"')[1].split("</ul>")[0])
    assert [a["aria-label"] for a in felt.find("span", role="img")] == ["seven of diamonds", "eight of diamonds"]
    assert watcher.post(f"/t/{table_id}/events", data={"type": "play", "player:int": "3",
                                                        "card": "8D"}).status_code == 403


# --- house rules, leaving -----------------------------------------------------------------------------------


def test_the_52_card_pack_picker_for_six_players(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client, names=["A", "B", "C", "D", "E", "F"], opt_mousel_52="on")
    html = events(client, table_id, {"type": "deal", "dealer": 0})
    cards = [a["value"] for a in Page(html).find("input", name="card", type="radio")]
    assert len(cards) == 52 and cards[:13] == ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S", "4S",
                                               "3S", "2S"]
    assert "Stock: 16 cards left" in html


def test_announced_last_deal_and_a_player_leaving(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client, opt_mousel_end_lastdeal="on")
    html = events(client, table_id, *EX2)
    assert "Announce it as the last deal (no penalties)" in html
    leave = Page(html.split("Someone leaves the table")[1]).button("player:int", "2")[0]
    check_form(table_id, leave)
    html = post(client, table_id, {**hidden(leave), "player:int": "2"})
    data = state(sqlite_app, table_id)
    assert data["status"] == ["in", "in", "left", "in"] and "left the table" in html
    assert "After the antes: 3, 1 a trick" in html                    # three antes now
    leavers = Page(html.split("Someone leaves the table")[1].split("</details>")[0]).forms[0]["buttons"]
    assert [b["value"] for b in leavers] == ["0", "1", "3"]           # one more may go: two must stay
    html = post(client, table_id, {**hidden(Page(html).form_with("type", "deal")), "last:bool": "true"})
    data = state(sqlite_app, table_id)
    assert data["deal"]["last"] and data["deal"]["seats"] == [0, 1, 3] and data["pot"] == 3
    assert "last deal" in html
