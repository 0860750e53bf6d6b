"""Muggins screens: set-up, a turn in two taps, "Muggins!" with its explanation, the winner, tally
mode, what a watcher sees. The sound file is checked against the generator that made it."""

from __future__ import annotations

import json
import math
import wave
from dataclasses import replace
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.cards import parse_card
from scorekeeper.engine.muggins import Hand, Muggins
from scorekeeper.web.views.muggins import compose, result
from tests.web.html import Page
from tests.web.phone import post, sheet, state, watcher_of

HX = {"HX-Request": "true"}
STATIC = Path(__file__).resolve().parents[2] / "static"
SETUP = ["5H", "9C", "KD", "2S"]
MUGGINS_PILE = [{"pile": "muggins", "index": i} for i in range(4)]


def open_table(client: FlaskClient, players: list[str] | None = None, mode: str = "adjudicate",
               **fields: str) -> str:
    data = {"game": "muggins", "players": players or ["Anna", "Bo", "Cleo", "Dan"], "mode": mode, **fields}
    response = client.post("/tables", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)[:500]
    table_id = response.location.rsplit("/", 1)[1]
    assert client.post(f"/t/{table_id}/seat", data={"seat": "0"}).status_code == 302
    return table_id


def started(client: FlaskClient, dealer: int = 3, **fields: str) -> str:
    table_id = open_table(client, **fields)
    post(client, table_id, {"type": "setup", "muggins:list": SETUP, "dealer:int": str(dealer)})
    return table_id


def destinations(html: str) -> dict[str, dict[str, str]]:
    """The pile buttons of the second tap, keyed by the JSON each one sends."""
    return {json.dumps(json.loads(b["value"]), sort_keys=True): b for b in Page(html).find("button", name="to:json")}


def key(place: dict[str, Any]) -> str:
    return json.dumps(place, sort_keys=True)


def turn(client: FlaskClient, table_id: str, card: str, to: dict[str, Any], player: int, status: int = 200) -> str:
    return post(client, table_id, {"type": "turn", "player:int": str(player), "card": card,
                                   "to:json": json.dumps(to)}, status)


# --- Set-up ------------------------------------------------------------------------------------


def test_setup_cards_tapped_one_by_one_then_dealer(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    html = sheet(client, table_id)
    assert "Set up the table" in html and "Lay out 4 cards face up" in html
    assert Page(html).find("input", type="radio", name="pick", value="5H")
    two = Page(sheet(client, table_id, pick=["5H", "9c"]))
    assert [a["value"] for a in two.find("input", type="hidden", name="pick")] == ["5H", "9C"]
    assert "disabled" in two.find("input", type="radio", name="pick", value="5H")[0]   # already laid out
    assert "disabled" not in two.find("input", type="radio", name="pick", value="KD")[0]
    assert any("Muggins card 3 of 4" in t for t in two.text)
    takeback = [a for a in two.find("a") if a.get("aria-label") == "Take back five of hearts"]
    assert takeback and "pick=9C" in takeback[0]["href"] and "5H" not in takeback[0]["href"]

    ready = sheet(client, table_id, pick=["5H 9C", "kd", "2♠"])     # typed in one go works too
    tags = Page(ready)
    assert [a["value"] for a in tags.find("input", name="muggins:list")] == SETUP
    assert "Then deal 12 cards to every player" in ready and "Let the app choose" in ready
    dealers = tags.find("input", type="radio", name="dealer:int")
    assert len(dealers) == 5 and "checked" in dealers[0] and 0 <= int(dealers[0]["value"]) < 4
    assert tags.find("button", type="submit") and "Start the game" in ready

    started_html = post(client, table_id, {"type": "setup", "muggins:list": SETUP, "dealer:int": "1"})
    data = state(sqlite_app, table_id)
    assert data["phase"] == "play" and data["dealer"] == 1 and data["to_act"] == 2
    assert "Cleo&#39;s turn" in started_html and "Bo dealt, so Cleo starts." in started_html


def test_setup_typo_is_explained(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    html = sheet(client, table_id, pick=["5H", "ZZ"])
    assert 'role="alert"' in html and "ZZ" in html
    assert [a["value"] for a in Page(html).find("input", type="hidden", name="pick")] == ["5H"]


# --- A turn ----------------------------------------------------------------------------------------


def test_a_turn_card_then_pile_with_no_pile_marked(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = started(client)                 # Dan deals, Anna starts; muggins 5H 9C KD 2S
    first = sheet(client, table_id)
    assert "Your turn, Anna!" in first and "Which card did Anna turn?" in first
    picker = Page(first)
    assert "disabled" in picker.find("input", type="radio", name="card", value="KD")[0]   # lies face up
    assert not picker.find("button", name="to:json")

    second = sheet(client, table_id, card="4h")
    assert "Where did Anna put the 4♥? Tap that pile." in second
    piles = destinations(second)
    assert set(piles) == {key(p) for p in MUGGINS_PILE} | {key({"pile": "own"})}   # nobody else has a pile yet
    # Without coach (the default) no pile is marked: the recorder is not handed the answer.
    assert all("right" not in b["class"].split() for b in piles.values())
    assert "✓" not in second and not any(b["aria-label"].endswith("the right place") for b in piles.values())
    form = Page(second).find("form", **{"class": "mg-board"})[0]
    assert form["method"] == "post" and form["hx-post"] == f"/t/{table_id}/events"
    board = second.split('class="mg-board"')[1].split("</form>")[0]
    hidden = {a["name"]: a["value"] for a in Page(board).find("input", type="hidden")}
    assert hidden["type"] == "turn" and hidden["card"] == "4H" and hidden["player:int"] == "0"

    after = turn(client, table_id, "4H", MUGGINS_PILE[0], 0)
    assert "Anna goes on: turn the next card." in after and "Muggins!" not in after
    assert "Anna: 4♥ on muggins pile 1" in after
    assert state(sqlite_app, table_id)["muggins"][0]["top"] == "4H"

    turn(client, table_id, "7C", {"pile": "own"}, 0)             # nothing fits: own pile ends the turn
    bo = sheet(client, table_id, card="6D")
    assert key({"pile": "discard", "player": 0}) in destinations(bo)
    assert "Bo&#39;s turn" in bo


def test_both_taps_work_without_javascript(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = started(client)
    page = client.get(f"/t/{table_id}/sheet", query_string={"card": ["", "4H"]})   # typed beside the grid
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "<html" in html and destinations(html)
    done = client.post(f"/t/{table_id}/events", data={"type": "turn", "player:int": "0", "card": "4H",
                                                      "to:json": json.dumps(MUGGINS_PILE[0]), "expected_seq": "1"})
    assert done.status_code == 302 and done.location == f"/t/{table_id}"
    stale = post(client, table_id, {"type": "turn", "player:int": "0", "card": "7C", "to:json": '{"pile": "own"}',
                                    "expected_seq": "1"}, status=409)
    assert 'role="alert"' in stale and destinations(stale)   # someone else moved first: tap again
    assert len(state(sqlite_app, table_id)["placements"]) == 1


def test_a_card_that_cannot_be_turned_is_refused_with_its_rule(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = started(client)
    html = sheet(client, table_id, card="9C")                     # it is a muggins card
    assert "MUGGINS-COMP-1" in html and 'role="alert"' in html
    assert not destinations(html) and Page(html).find("input", name="card", type="radio")
    typo = sheet(client, table_id, card="11X")
    assert "is not a card" in typo and not destinations(typo)


def test_muggins_banner_explains_the_penalty(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = started(client)
    html = turn(client, table_id, "4H", {"pile": "own"}, 0)      # the 5♥ muggins pile fitted
    tags = Page(html)
    call = tags.find("div", **{"class": "mg-call"})
    assert call and call[0]["role"] == "alert" and "/muggins." in call[0]["data-sound"]
    sound = client.get(call[0]["data-sound"])                   # the plain or the hashed copy
    assert sound.status_code == 200 and sound.data[:4] == b"RIFF"
    text = " ".join(tags.text)
    assert "Muggins!" in text and "Anna put the 4♥ on their own pile." in text
    assert "A muggins pile comes first." in text and "It belonged on muggins pile 1." in text
    assert "Bo, Cleo and Dan each gave Anna a card: 3 cards go under Anna's draw pile." in text
    assert "The 4♥ was moved to muggins pile 1. Anna's turn is over." in text
    for rule in ("MUGGINS-PEN-1", "MUGGINS-PEN-2", "MUGGINS-PEN-3"):
        assert f'href="/rules/muggins?table={table_id}&amp;lang=en#{rule}"' in html
    assert "mg-hide-pops" in html                               # the banner replaces the small pop
    assert "Anna: 4♥ on own pile — Muggins! moved to muggins pile 1" in html
    data = state(sqlite_app, table_id)
    assert [p["cards"] for p in data["players"]] == [14, 11, 11, 11] and data["to_act"] == 1

    other_phone = watcher_of(sqlite_app, table_id)             # every phone shows it
    again = sheet(other_phone, table_id)
    assert "Muggins!" in again and "mg-hide-pops" not in again
    later = turn(client, table_id, "JD", {"pile": "own"}, 1)
    assert "mg-call" not in later                               # only right after the breach


def test_a_card_that_does_not_fit_is_a_muggins_too(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = started(client)
    html = turn(client, table_id, "9H", MUGGINS_PILE[0], 0)      # a 9 on the 5: it fits nowhere
    text = " ".join(Page(html).text)
    assert "It does not fit there: a card goes on a card one higher or one lower." in text
    assert "It belonged on Anna's own pile." in text and "MUGGINS-FIT-1" in html


def test_coach_refuses_and_keeps_the_card_on_screen(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = started(client, opt_muggins_coach="on")
    html = turn(client, table_id, "4H", {"pile": "own"}, 0, status=422)
    assert "MUGGINS-PLAY-2" in html and "Muggins!" not in html and "Coach mode" in html
    piles = destinations(html)                                  # tap again, no need to pick the card again
    assert "right" in piles[key(MUGGINS_PILE[0])]["class"]
    misfit = turn(client, table_id, "4H", MUGGINS_PILE[1], 0, status=422)
    assert f"/rules/muggins?table={table_id}&amp;lang=en#MUGGINS-FIT-1" in misfit and destinations(misfit)
    assert state(sqlite_app, table_id)["placements"] == []


def test_watcher_sees_the_table_but_no_controls(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = started(client)
    turn(client, table_id, "4H", {"pile": "own"}, 0)
    watcher = watcher_of(sqlite_app, table_id)
    for html in (sheet(watcher, table_id), sheet(watcher, table_id, card="8H"),
                 watcher.get(f"/t/{table_id}").get_data(as_text=True)):
        # The sheet only: below it a watcher may leave the table (a form of its own, not a move).
        part = html.split('id="sheet"')[1].split('<details class="card invite"')[0].split('<nav class="table-actions"')[0]
        assert "<form" not in part and 'name="to:json"' not in part and 'name="card"' not in part
        assert "Muggins!" in part and "Bo&#39;s turn" in part and "4♥" in part


def test_watcher_during_setup_sees_no_picker(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client)
    html = sheet(watcher_of(sqlite_app, table_id), table_id, pick="5H")
    assert "Lay out the muggins cards" in html and "<form" not in html


# --- The end, the story ------------------------------------------------------------------------------


def test_stop_celebrates_the_player_with_fewest_cards_and_history_reads_well(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = started(client)
    turn(client, table_id, "4H", MUGGINS_PILE[0], 0)
    turn(client, table_id, "7C", {"pile": "own"}, 0)
    html = post(client, table_id, {"type": "stop"})
    text = " ".join(Page(html).text)
    assert "🏆" in text and "Anna wins!" in text and "The players agreed to stop." in text
    assert "1. Anna · 11 cards" in text and "2. Bo · 12 cards" in text
    assert "Going round in circles?" not in html and "Which card" not in html
    history = client.get(f"/t/{table_id}/history").get_data(as_text=True)
    assert "Muggins cards laid out: 5♥ 9♣ K♦ 2♠; Dan deals, Anna starts" in history
    assert "Anna turned 4♥ and put it on muggins pile 1" in history
    assert "Anna turned 7♣ and put it on their own discard pile" in history


def test_result_for_a_winner_who_got_rid_of_every_card(sqlite_app: Flask) -> None:
    rules = Muggins()
    base = rules.apply(rules.new(["Anna", "Bo", "Cleo"], {}), {"type": "setup", "muggins": ["5S", "10S", "JS", "2S"]})
    last_card = replace(base, hands=(Hand(draw=(None,) * 5), Hand(draw=(parse_card("4C"),)), Hand(draw=(None,) * 5)),
                        to_act=1)
    done = rules.apply(last_card, {"type": "turn", "card": "4C", "to": {"pile": "muggins", "index": 0}})
    with sqlite_app.test_request_context("/"):
        shown = result(rules.to_json(done), ["Anna", "Bo", "Cleo"])
    assert shown["headline"] == "Bo wins!" and shown["why"] == "No cards left!" and shown["rule"] == "MUGGINS-END-1"


def test_next_card_known_after_turning_over_skips_the_picker(sqlite_app: Flask) -> None:
    rules = Muggins()
    base = rules.apply(rules.new(["Anna", "Bo", "Cleo"], {"coach": True}),
                       {"type": "setup", "muggins": ["5S", "10S", "JS", "2S"]})
    cards = [parse_card(c) for c in ("4C", "9C")]
    state_ = replace(base, hands=(Hand(draw=(None,) * 5), Hand(discard=tuple(cards)), Hand(draw=(None,) * 5)),
                     to_act=1)
    with sqlite_app.test_request_context("/?card=KH"):
        shown = compose(rules, state_, rules.to_json(state_), ["Anna", "Bo", "Cleo"], {"card": ["KH"]})
    assert shown["fixed"] and shown["card"] == "4C"              # the turned-over pile's order is known
    assert [d["correct"] for d in shown["destinations"].values()][0] is True


# --- Tally mode ------------------------------------------------------------------------------------


def test_tally_winner_in_one_tap(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client, mode="tally")
    html = sheet(client, table_id)
    buttons = Page(html).find("button", name="winner:int")
    assert [b["value"] for b in buttons] == ["0", "1", "2", "3"] and buttons[2]["aria-label"] == "Cleo won"
    done = post(client, table_id, {"type": "result", "winner:int": "2"})
    assert "Cleo wins!" in done and 'name="winner:int"' not in done
    assert state(sqlite_app, table_id)["winner"] == 2


def test_tally_placings_tapped_in_order(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = open_table(client, mode="tally")
    html = sheet(client, table_id, order=["2", "0"])
    tags = Page(html)
    assert "1. Cleo" in tags.text and "2. Anna" in tags.text and "Place 3: who?" in html
    assert not tags.find("input", name="placings:json")
    done = Page(sheet(client, table_id, order=["2", "0", "3"]))
    placings = done.find("input", name="placings:json")[0]["value"]
    assert json.loads(placings) == [[2], [0], [3], [1]]
    final = post(client, table_id, {"type": "result", "placings:json": placings})
    assert "Cleo wins!" in final and "4. Bo" in final
    shared_table = open_table(client, mode="tally")
    shared = post(client, shared_table, {"type": "result", "winner:intlist": ["1", "3"]})
    assert "Bo and Dan share the win!" in shared


# --- The sound ---------------------------------------------------------------------------------------


RATE = 11025
NOTES = [(392.0, 0.22), (370.0, 0.22), (349.2, 0.22), (329.6, 0.70)]  # "wah, wah, wah, waaah"


def muggins_sound() -> bytes:
    """The samples of static/muggins.wav (8-bit mono): four falling trombone-ish notes, the last
    one wobbling. Made with this function and Python's wave module; nothing was downloaded."""
    out = []
    phase = 0.0
    for k, (freq, length) in enumerate(NOTES):
        last = k == len(NOTES) - 1
        for i in range(int(RATE * length)):
            t = i / RATE
            f = freq * (1 + (0.03 * math.sin(2 * math.pi * 6 * t) if last else 0.0))
            phase += 2 * math.pi * f / RATE
            tone = (math.sin(phase) + 0.5 * math.sin(2 * phase) + 0.3 * math.sin(3 * phase)
                    + 0.15 * math.sin(4 * phase)) / 1.95
            envelope = min(1.0, t / 0.02) * min(1.0, (length - t) / (0.25 if last else 0.05))
            out.append(max(0, min(255, round(128 + 127 * tone * envelope * 0.9))))
    return bytes(out)


def test_sound_file_is_the_generated_one(tmp_path: Path) -> None:
    with wave.open(str(STATIC / "muggins.wav"), "rb") as stored:
        assert (stored.getnchannels(), stored.getsampwidth(), stored.getframerate()) == (1, 1, RATE)
        frames = stored.readframes(stored.getnframes())
    made = muggins_sound()
    assert len(frames) == len(made) and 1.0 < len(made) / RATE < 1.6
    assert max(abs(a - b) for a, b in zip(frames, made, strict=True)) <= 1  # the last bit may round either way
    assert (STATIC / "muggins.wav").stat().st_size < 20_000


def test_sound_is_only_played_when_switched_on() -> None:
    script = (STATIC / "app.js").read_text()
    section = script[script.index("// muggins:"):]
    assert 'getItem(KEY) === "on"' in section and "on() && call.dataset.sound" in section


def test_sound_is_served(sqlite_app: Flask) -> None:
    response = sqlite_app.test_client().get("/static/muggins.wav")
    assert response.status_code == 200 and response.data[:4] == b"RIFF"


def test_coach_marks_the_right_pile(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table_id = started(client, opt_muggins_coach="on")
    piles = destinations(sheet(client, table_id, card="4h"))
    right = piles[key(MUGGINS_PILE[0])]
    assert "right" in right["class"].split() and right["aria-label"].endswith("the right place")
    assert all("right" not in b["class"].split() for k, b in piles.items() if k != key(MUGGINS_PILE[0]))
    turn(client, table_id, "4H", MUGGINS_PILE[0], 0)
    turn(client, table_id, "7C", {"pile": "own"}, 0)
    piles = destinations(sheet(client, table_id, card="6D"))
    assert "right" in piles[key({"pile": "discard", "player": 0})]["class"]   # Anna's 7♣ is Bo's left pile
