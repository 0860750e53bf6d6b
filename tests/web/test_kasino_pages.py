"""Kasino screens: a deal, a capture with its live preview, an illegal capture with its rule link,
hints, the end-of-deal count, tally mode (ties and the tie-break), misär proposals and knock-outs,
Dragkasino's stock and drawn card, and what a watcher sees."""

from __future__ import annotations

import random
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import MultiDict

from scorekeeper.engine.kasino import PACK, Kasino
from scorekeeper.service import TableError
from scorekeeper.web.forms import event_from_form
from tests.web import phone
from tests.web.html import Page
from tests.web.phone import post, sheet, state

HX = {"HX-Request": "true"}
K = Kasino()
NAMES = ["Anna", "Bo", "Cleo", "Dan"]


def words(html: str) -> str:
    """The text of a fragment on one line, without the card pickers (52 cards each)."""
    html = re.sub(r'<fieldset class="picker".*?</fieldset>', " ", html, flags=re.S)
    return Page(html).words()


# --- Opening tables ---------------------------------------------------------------------------------


def open_table(client: FlaskClient, players: int = 2, mode: str = "adjudicate", seat: int | None = 0,
               **options: str) -> str:
    data = {"game": "kasino", "players": NAMES[:players], "mode": mode,
            **{f"opt_kasino_{k}": v for k, v in options.items()}}
    response = client.post("/tables", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)[:500]
    table_id = response.location.rsplit("/", 1)[1]
    if seat is not None:
        assert client.post(f"/t/{table_id}/seat", data={"seat": str(seat)}).status_code == 302
    return table_id


def api_table(client: FlaskClient, events: list[dict[str, Any]], players: int = 2, mode: str = "adjudicate",
              seat: int | None = 0, **options: Any) -> dict[str, Any]:
    return phone.api_table(client, "kasino", events, NAMES[:players], mode, seat, **options)


def preview(client: FlaskClient, table_id: str, data: dict[str, Any] | MultiDict[str, Any]) -> str:
    response = client.get(f"/t/{table_id}/preview", query_string=data)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def pile(prefix: str, cards: int, spades: int, aces: int = 0, tabbes: int = 0) -> dict[str, str]:
    return {f"{prefix}.cards:int": str(cards), f"{prefix}.spades:int": str(spades),
            f"{prefix}.aces:int": str(aces) if aces else "", f"{prefix}.tabbes:int": str(tabbes) if tabbes else ""}


def tally_form(piles: list[dict[str, str]], storan: int, lillan: int, **extra: str) -> dict[str, str]:
    form = {"type": "deal_result", "sides.*.storan": str(storan), "sides.*.lillan": str(lillan), **extra}
    for p in piles:
        form.update(p)
    return form


# --- Forms into events -------------------------------------------------------------------------------


def test_dotted_form_fields_build_one_object_per_side() -> None:
    form = MultiDict([("type", "deal_result"), ("sides.0.cards:int", "28"), ("sides.0.aces:int", ""),
                      ("sides.1.cards:int", "24"), ("sides.*.storan", "1"), ("sides.2:json", "null")])
    assert event_from_form(form) == {"type": "deal_result", "sides": [{"cards": 28}, {"cards": 24, "storan": True}, None]}
    blank = MultiDict([("sides.0.cards:int", "52"), ("sides.1.cards:int", ""), ("sides.1.aces:int", "")])
    assert event_from_form(blank) == {"sides": [{"cards": 52}, {}]}          # a side left blank counts zeros
    for bad in ([("sides.99.cards:int", "1")], [("sides", "x"), ("sides.0.cards:int", "1")]):
        try:
            event_from_form(MultiDict(bad))
        except TableError as exc:
            assert exc.status == 400
        else:
            raise AssertionError(f"{bad} should be refused")


# --- Adjudicate: a deal and the moves ------------------------------------------------------------------


def test_a_deal_then_a_tabbe_with_its_preview(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    first = sheet(client, table_id)
    tags = Page(first)
    assert tags.find("select", name="dealer:int") and "New deal" in first
    assert len(tags.find("input", type="checkbox", name="table:list")) == 52
    for form in re.findall(r'<form[^>]*method="post"[^>]*>\s*<[^>]*>', first):   # CSRF token right after the tag
        assert form.endswith('<input type="hidden" name="csrf_token" value="">') or 'name="csrf_token"' in form

    # Three cards tapped and the fourth typed the Swedish way (s8 = 8♠).
    dealt = post(client, table_id, MultiDict([("type", "deal"), ("dealer:int", "1"), ("table:list", "3H"),
                                              ("table:list", "5S"), ("table:list", "8D"), ("table:list", "s8")]))
    tags = Page(dealt)
    assert [a["value"] for a in tags.find("input", type="checkbox", name="capture:list")] == ["3H", "5S", "8D", "8S"]
    assert "Your turn, Anna!" in dealt and "Round 1 of 6" in dealt and "Bo dealt" in dealt
    assert "disabled" in tags.find("input", type="radio", name="card", value="8D")[0]    # on the table: greyed
    assert "disabled" not in tags.find("input", type="radio", name="card", value="8C")[0]
    move = dealt.split('<form class="move"')[1].split("</form>")[0]
    hidden = {a["name"]: a["value"] for a in Page(move).find("input", type="hidden")}
    assert hidden["type"] == "play" and hidden["player:int"] == "0" and "csrf_token" in hidden
    assert "/desk/?game=kasino&amp;table=3H+5S+8D+8S&amp;variant=standard" in dealt

    assert "Tap the card played." in preview(client, table_id, {"type": "play", "player:int": "0",
                                                                 "capture:list": ["3H"]})
    dry = preview(client, table_id, MultiDict([("type", "play"), ("player:int", "0"), ("card", "8C"),
                                               ("capture:list", "3H"), ("capture:list", "5S"),
                                               ("capture:list", "8D"), ("capture:list", "8S")]))
    assert "✔" in dry and "3♥+5♠ = 8" in dry and "8♦" in dry and "tabbe" in dry
    assert state(sqlite_app, table_id)["plays"] == 0          # a dry run stores nothing

    after = post(client, table_id, MultiDict([("type", "play"), ("player:int", "0"), ("card", "8C"),
                                              ("capture:list", "3H"), ("capture:list", "5S"),
                                              ("capture:list", "8D"), ("capture:list", "8S")]))
    text = words(after)
    assert "Anna: 8♣ as 8 takes" in text and "— tabbe" in text
    assert "Anna: Tabbe +1" in text
    assert "The table is empty." in text and "Bo to play" in text
    data = state(sqlite_app, table_id)
    assert data["piles"][0] == {"cards": 5, "spades": 2, "storan": False, "lillan": False, "aces": 0, "tabbes": 1,
                                "sistan": False}

    storan = post(client, table_id, {"type": "play", "player:int": "1", "card": "10D"})   # a trail
    assert "Bo: 10♦ trailed" in words(storan)
    ace = post(client, table_id, {"type": "play", "player:int": "0", "card": "hE", "capture:list": "10D"}, 422)
    assert "A♥ cannot take 10♦" in ace and "#KASINO-CAP-4" in ace
    took = words(post(client, table_id, {"type": "play", "player:int": "0", "card": "10C", "capture:list": "10D"}))
    assert "Anna: Storan +2" in took and "Anna: 10♣ as 10 takes 10♦" in took


def test_an_illegal_capture_is_refused_with_its_rule_and_keeps_the_taps(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table = api_table(client, [{"type": "deal", "dealer": 1, "table": ["3H", "5S", "8D", "KC"]}])
    move = MultiDict([("type", "play"), ("player:int", "0"), ("card", "9C"), ("capture:list", "3H"),
                      ("capture:list", "5S")])
    dry = preview(client, table["id"], move)
    assert "✘" in dry and f'href="/rules/kasino?table={table["id"]}&amp;lang=en#KASINO-CAP-4"' in dry
    refused = post(client, table["id"], move, status=422)
    tags = Page(refused)
    assert any(a.get("href", "").endswith("#KASINO-CAP-4") for a in tags.find("a", **{"class": "rule"}))
    assert 'role="alert"' in refused and "9♣ cannot take 3♥ 5♠" in refused
    ticked = [a["value"] for a in tags.find("input", name="capture:list") if "checked" in a]
    assert ticked == ["3H", "5S"] and "checked" in tags.find("input", type="radio", name="card", value="9C")[0]
    assert state(sqlite_app, table["id"])["plays"] == 0

    typed = post(client, table["id"], {"type": "play", "player:int": "0", "card": "s7", "capture:list": "KC"}, 422)
    assert "KASINO-CAP-4" in typed and "7♠" in typed


def test_the_hints_picker_is_drawn_only_while_the_box_is_open(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table = api_table(client, [{"type": "deal", "dealer": 1, "table": ["3C", "4D", "5H", "7S"]}])
    closed = Page(sheet(client, table["id"]))
    [box] = closed.find("details", **{"class": "card ks-hints"})
    assert "open" not in box and box["hx-get"].endswith("?hints=1") and box["hx-trigger"] == "toggle once"
    assert not closed.find("input", type="radio", name="hint")
    opened = Page(sheet(client, table["id"], hints="1"))
    assert opened.find("details", **{"class": "card ks-hints", "open": ""})
    assert len(opened.find("input", type="radio", name="hint")) == 52
    assert "7♥ as 7 takes 7♠" in words(sheet(client, table["id"], hints="1", hint="h7"))


def test_hints_list_every_capture_of_a_card_and_misar_marks_the_barred_ones(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table = api_table(client, [{"type": "deal", "dealer": 2, "table": ["3C", "4D", "5H", "7S"]}], players=3,
                      variant="misar")
    html = sheet(client, table["id"], hint="h7")
    tags = Page(html)
    assert tags.find("details", **{"class": "card ks-hints", "open": ""})
    text = words(html)
    assert "7♥ as 7 takes 7♠" in text and "7♥ as 7 takes 3♣+4♦ = 7, 7♠" in text
    assert text.count("not allowed: a bigger capture exists") == 2        # {7S} and {3C,4D} (KASINO-TV-13)
    assert "can capture, so it must" in text
    plays = [a for a in tags.find("input", type="hidden", name="capture:list")]
    assert [a["value"] for a in plays] == ["3C", "4D", "7S"]              # only the allowed one can be played
    assert "/desk/?game=kasino&amp;table=3C+4D+5H+7S&amp;variant=standard&amp;played=7H" in html
    assert "lies on the table" in sheet(client, table["id"], hint="7S")
    assert "is not a card" in sheet(client, table["id"], hint="Z9")
    # Typed beside the grid: the grid's empty value comes first, the typed one wins (as in Mulle).
    assert "7♥ as 7 takes 7♠" in words(sheet(client, table["id"], hint=["", "h7"]))


# --- The end of a deal, the score sheet, the end of the game ----------------------------------------------


def _full_deal(seed: int, players: int = 2, **options: Any) -> list[dict[str, Any]]:
    """A legal random deal: every play takes its biggest allowed capture or trails."""
    rnd = random.Random(seed)
    s = K.new(NAMES[:players], options)
    pack = [str(c) for c in PACK]
    rnd.shuffle(pack)
    events: list[dict[str, Any]] = [{"type": "deal", "dealer": 0, "table": pack[:4]}]
    s = K.apply(s, events[0])
    for code in pack[4:]:
        caps = [c for c in K.captures_for(s, code)["captures"] if c["allowed"]]
        event: dict[str, Any] = {"type": "play", "player": s.to_act, "card": code}
        if caps and rnd.random() < 0.7:
            event["capture"] = max(caps, key=lambda c: len(c["capture"]))["capture"]
        s = K.apply(s, event)
        events.append(event)
    return events


def test_the_end_of_a_deal_shows_the_count_and_the_score_sheet(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table = api_table(client, _full_deal(7), sistan=True)
    data = state(sqlite_app, table["id"])
    summary = data["summary"]
    assert data["phase"] == "between"
    html = sheet(client, table["id"])
    text = words(html)
    assert "Deal 1: the count" in text and "Bo deals next." in text
    for name, facts in zip(("Anna", "Bo"), summary["facts"], strict=True):
        assert f"{name} {facts['cards']} {facts['spades']} {facts['aces']} {facts['tabbes']}" in text
    assert f"This deal {summary['points'][0]} {summary['points'][1]}" in text
    assert "Sistan (last capture)" in text and "Most spades" in text
    if summary["leftovers"]:
        assert "takes the cards left on the table (not a tabbe)" in text
    for s in data["scored"]:                                         # scoring shown as it happens
        assert f"{['Anna', 'Bo'][s['side']]}: " in text
    assert "Score sheet" in text and 'class="chart"' in html and "dealt by Anna" in text
    assert Page(html).find("form", **{"class": "card deal"}) and "Bo deals." in text


def test_tally_scores_a_deal_with_a_tie_and_names_the_winner_by_the_spade_tie_break(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client, players=3, mode="tally")
    form = Page(sheet(client, table_id))
    assert form.find("input", name="sides.2.cards:int", required="")
    assert len(form.find("input", type="radio", name="sides.*.storan")) == 3
    assert not form.find("input", name="sides.*.sistan")                   # only with the option

    wrong = tally_form([pile("sides.0", 30, 9, 4, 2), pile("sides.1", 20, 4), pile("sides.2", 0, 0)], 0, 0)
    dry = preview(client, table_id, wrong)
    assert "✘" in dry and "50 cards, not 52" in dry and "#KASINO-SCORE-2" in dry
    half_done = {"type": "deal_result", "sides.0.cards:int": "30", "sides.1.cards:int": "", "sides.2.cards:int": ""}
    assert "30 cards, not 52" in preview(client, table_id, half_done)       # while typing: the arithmetic

    # Deal 1: Anna 12; deal 2: Bo 14 (tabbes add up); deal 3 is KASINO-EX-2 from there.
    post(client, table_id, tally_form([pile("sides.0", 30, 9, 4, 2), pile("sides.1", 22, 4), pile("sides.2", 0, 0)],
                                      0, 0, **{"dealer:int": "2"}))
    dry = preview(client, table_id, tally_form([pile("sides.0", 22, 4), pile("sides.1", 30, 9, 4, 4),
                                                pile("sides.2", 0, 0)], 1, 1))
    assert "✔" in dry and "Bo: 9 spades +2" in dry and "Bo: 30 cards +1" in dry and "Anna:" not in dry
    post(client, table_id, tally_form([pile("sides.0", 22, 4), pile("sides.1", 30, 9, 4, 4), pile("sides.2", 0, 0)],
                                      1, 1))
    assert state(sqlite_app, table_id)["scores"] == [12, 14, 0]
    assert "Bo dealt this deal." in words(sheet(client, table_id))    # Cleo, Anna, then Bo

    end = post(client, table_id, tally_form([pile("sides.0", 18, 5), pile("sides.1", 18, 4, 1),
                                             pile("sides.2", 16, 4, 3)], 0, 1))
    text = words(end)
    assert state(sqlite_app, table_id)["winner"] == 0
    assert "Anna wins!" in text
    assert "Anna and Bo tie on 16 points, so the most spades in the last deal decide: Anna 5 and Bo 4." in text
    assert "Anna and Bo tie: nobody scores it (1 point lost)." in text
    assert "9 points given out in this deal." in text
    assert "#KASINO-END-3" in end and not Page(end).find("form", **{"class": "card ks-tally"})


# --- Misär ---------------------------------------------------------------------------------------------

MISSED_TABBE = [
    {"type": "deal", "dealer": 2, "table": ["2H", "3D", "4C", "5S"]},
    {"type": "play", "player": 0, "card": "9C", "capture": ["2H", "3D", "4C"]},
    {"type": "play", "player": 1, "card": "3C"},          # Bo trails although his 5♦ sweeps the 5♠
    {"type": "play", "player": 2, "card": "KH"},
    {"type": "play", "player": 0, "card": "QH"},
    {"type": "play", "player": 1, "card": "5D", "capture": ["5S"]},   # … which this play proves
]


def test_misar_proposal_shows_its_evidence_and_is_confirmed(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table = api_table(client, MISSED_TABBE, players=3, variant="misar")
    html = sheet(client, table["id"])
    text = words(html)
    assert "Penalties to decide" in text and "Penalty for Bo? +5" in text
    assert "At play 2 the table was 5♠. Bo trailed 3♣." in text
    assert "Bo held 5♦, which takes the whole table: 5♠." in text
    assert "Proof: Bo played 5♦ at play 5 in the same hand." in text
    evidence = html.split('class="ks-evidence"')[1].split("</div>\n      <p>")[0]
    assert 'aria-label="five of diamonds"' in evidence and 'aria-label="three of clubs"' in evidence
    assert "#KASINO-MIS-1" in html and "#KASINO-MIS-5" in html
    buttons = Page(html).find("button", name="type")
    assert {b["value"] for b in buttons} == {"confirm", "dismiss"}

    done = post(client, table["id"], {"type": "confirm", "proposal:int": "1"})
    assert state(sqlite_app, table["id"])["scores"] == [0, 5, 0]
    assert "Bo: Penalty +5" in words(done) and "Penalties to decide" not in done


def test_misar_tally_penalties_and_a_knock_out(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client, players=3, mode="tally", variant="misar")
    for _ in range(5):
        post(client, table_id, {"type": "penalty", "player:int": "2"})
    assert state(sqlite_app, table_id)["scores"] == [0, 0, 25]
    html = post(client, table_id, tally_form([pile("sides.0", 20, 5, 2), pile("sides.1", 20, 4, 1),
                                              pile("sides.2", 12, 4, 1)], 0, 1))
    text = words(html)
    assert "Cleo is knocked out." in text and "Out: Cleo" in text and "knocked out" in text
    assert Page(html).find("input", type="hidden", name="sides.2:json", value="null")
    assert not Page(html).find("input", name="sides.2.cards:int")
    assert "15 points from the knock-out" in text and "19 points from the knock-out" in text


# --- Dragkasino, watchers ---------------------------------------------------------------------------------


def test_dragkasino_shows_the_stock_and_takes_the_drawn_card(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table = api_table(client, [{"type": "deal", "dealer": 1, "table": ["3H", "5S", "8D", "KC"]}], variant="drag")
    html = sheet(client, table["id"])
    assert "40 cards left in the stock" in words(html)
    assert Page(html).find("input", type="radio", name="draw", value="7C")
    post(client, table["id"], {"type": "play", "player:int": "0", "card": "2H", "draw": "7C"})
    post(client, table["id"], {"type": "play", "player:int": "1", "card": "9D"})
    back = sheet(client, table["id"])
    assert "drew" in words(back) and 'aria-label="seven of clubs"' in back
    seven = Page(back).find("input", type="radio", name="card", value="7C")[0]
    assert "disabled" not in seven                                   # Anna may play the card she drew
    assert "38 cards left in the stock" in words(back)


def test_dragkasino_a_move_with_no_card_drawn_entered(sqlite_app: Flask) -> None:
    """The drawn card is optional: its typed field, sent blank by every move that leaves it out,
    is no card (it was read as one: "empty card", and every such move was refused)."""
    client = sqlite_app.test_client()
    table = api_table(client, [{"type": "deal", "dealer": 1, "table": ["3H", "5S", "8D", "KC"]}], variant="drag")
    html = sheet(client, table["id"])
    typed = Page(html).find("input", name="draw:opt")
    assert typed and not Page(html).find("input", type=None, name="draw")
    move = {"type": "play", "player:int": "0", "expected_seq": "1", "card": "2H", "card-rank": "2", "draw:opt": ""}
    assert "✔" in preview(client, table["id"], move)
    assert "✔" in preview(client, table["id"], {**move, "draw": "7C"})
    assert "✔" in preview(client, table["id"], {**move, "draw:opt": "7c"})                # typed
    assert "KASINO-COMP-1" in preview(client, table["id"], {**move, "draw:opt": "2H"})  # read as a card
    post(client, table["id"], move)
    assert "Anna: 2♥ trailed" in words(sheet(client, table["id"]))


def test_a_watcher_sees_the_table_but_no_controls(sqlite_app: Flask) -> None:
    owner = sqlite_app.test_client()
    table = api_table(owner, MISSED_TABBE, players=3, variant="misar")
    watcher = sqlite_app.test_client()
    assert watcher.get(f"/t/{table['id']}/k/{table['read_token']}").status_code == 302
    html = sheet(watcher, table["id"])
    assert "<form" not in html and "<button" not in html
    assert "Penalty for Bo? +5" in words(html) and 'aria-label="three of clubs"' in html
    assert "Cleo to play" in words(html)
    assert watcher.post(f"/t/{table['id']}/events", data={"type": "confirm", "proposal:int": "1"},
                        headers=HX).status_code == 403


# --- The first dealer, partnerships, claims -------------------------------------------------------------


def test_the_draw_for_the_first_dealer_then_the_deal_form_knows_the_dealer(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client, players=3)
    tie = post(client, table_id, {"type": "draw_dealer", "cards.0": "KH", "cards.1": "5S", "cards.2": "hK"}, 422)
    assert "KASINO-COMP-1" in tie                                          # the same card twice
    tie = post(client, table_id, {"type": "draw_dealer", "cards.0": "KH", "cards.1": "5S", "cards.2": "KD"})
    assert "Anna and Cleo tie for the highest card and draw again." in words(tie)
    tags = Page(tie)
    assert tags.find("input", type="hidden", name="cards.1:json", value="null")
    assert tags.find("input", name="cards.0") and tags.find("input", name="cards.2")
    drawn = post(client, table_id, {"type": "draw_dealer", "cards.0": "3C", "cards.1:json": "null", "cards.2": "9D"})
    assert state(sqlite_app, table_id)["next_dealer"] == 2
    deal_form = drawn.split('class="card deal"')[1].split("</form>")[0]
    assert "Cleo deals." in words(deal_form) and 'name="dealer:int"' not in deal_form
    post(client, table_id, {"type": "deal", "table:list": "5D 9S KH AC"})
    assert state(sqlite_app, table_id)["dealer"] == 2


def test_partnerships_are_labelled_by_both_partners_and_a_claim_is_offered_at_16(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    response = client.post("/tables", data={"game": "kasino", "players": NAMES, "mode": "tally", "teams": "pairs",
                                            "opt_kasino_claim": "on"})
    table_id = response.location.rsplit("/", 1)[1]
    html = sheet(client, table_id)
    text = words(html)
    assert "Anna & Cleo" in text and "Bo & Dan" in text
    assert Page(html).find("input", name="sides.1.cards:int") and not Page(html).find("input", name="sides.2.cards:int")
    assert "Claim 16 during a deal" in text
    post(client, table_id, tally_form([pile("sides.0", 40, 13, 4, 4), pile("sides.1", 12, 0)], 0, 0))   # 14
    refused = post(client, table_id, {"type": "claim", "player:int": "2", "aces:int": "1"}, 422)
    assert "#KASINO-VAR-CLAIM" in refused and "only 15 settled points" in refused
    won = post(client, table_id, {"type": "claim", "player:int": "2", "storan:bool": "1", "aces:int": "0"})
    assert "Anna &amp; Cleo wins!" in won and "claimed 16" in won


def test_adjudicated_claims_are_offered_to_the_sides_that_reached_16() -> None:
    from scorekeeper.web.views.kasino import claims

    data = {"claimable": [16, 9], "phase": "play", "mode": "adjudicate", "sides": [[0, 2], [1, 3]]}
    assert claims(data, ["Anna & Cleo", "Bo & Dan"]) == [
        {"player": 0, "label": "Anna & Cleo", "text": "Anna & Cleo claims 16 (16 settled)"}]
    assert claims({**data, "phase": "between"}, ["A", "B"]) == []


def test_a_crowded_table_lists_the_first_captures_and_says_how_many_are_left_out(sqlite_app: Flask) -> None:
    from scorekeeper.web.views.kasino import HINT_LIMIT, hints

    s = K.apply(K.new(NAMES[:2], {}), {"type": "deal", "dealer": 1, "table": ["AC", "AD", "AH", "2C"]})
    for code in ("3C", "3D", "4C", "4D", "5C", "5D", "6C", "6D", "2D", "2H"):   # a table of 14 small cards
        s = K.apply(s, {"type": "play", "player": s.to_act, "card": code})
    total = K.captures_for(s, "QS")["count"]
    assert total > HINT_LIMIT
    with sqlite_app.test_request_context():
        shown = hints(K, s, K.to_json(s), "QS", {})
    assert len(shown["captures"]) == HINT_LIMIT
    assert shown["more"] == f"{total - HINT_LIMIT} more captures are not listed here."


def test_confirm_skips_the_browsers_form_check_which_the_move_form_has_nothing_for(sqlite_app: Flask) -> None:
    # formnovalidate spares htmx a validation event for each of the form's seventy inputs before
    # a move is sent; it is safe only while no field of the form carries a constraint.
    client = sqlite_app.test_client()
    for variant in ("standard", "drag"):
        table = api_table(client, [{"type": "deal", "dealer": 1, "table": ["3H", "5S", "8D", "KC"]}], variant=variant)
        html = sheet(client, table["id"])
        move = Page('<form class="move"' + html.split('<form class="move"')[1].split("</form>")[0] + "</form>")
        assert move.find("button", id="confirm-move")[0].get("formnovalidate") == ""
        constrained = [a for t, a in move.tags if t in ("input", "select", "textarea")
                       and {"required", "pattern", "min", "max", "minlength", "maxlength"} & a.keys()]
        assert constrained == [] and len(move.find("input")) > 60, variant
