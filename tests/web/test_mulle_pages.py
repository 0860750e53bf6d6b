"""Tomelilla Mulle screens: the deal form, a capture through the move form, the live preview of a
legal and an illegal selection (with its rule), the score pops ("Mulle! +3", "Tabbe +1", "10♦ +2"),
the last-round call, the end-of-deal count, the winner, hints (capped on a crowded table), the
tally buttons pegging, the cribbage board's pegs, the dispute-desk link and what a watcher sees."""

from __future__ import annotations

import random
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import MultiDict

from scorekeeper.engine.mulle import ALL_CARDS, Mulle, MulleState
from scorekeeper.web.boards import cribbage_board, hole_xy
from scorekeeper.web.views.mulle import HINTS_SHOWN, fact_text
from tests.web import phone
from tests.web.html import Page
from tests.web.phone import post, sheet, state

HX = {"HX-Request": "true"}
M = Mulle()
NAMES = ["Anna", "Bo", "Cid", "Dag"]


def words(html: str) -> str:
    """The text of a fragment on one line, without the card pickers (52 cards each) and the board."""
    html = re.sub(r'<fieldset class="picker".*?</fieldset>', " ", html, flags=re.S)
    html = re.sub(r"<svg.*?</svg>", " ", html, flags=re.S)
    return Page(html).words()


def pegs(html: str) -> dict[tuple[int, str], int]:
    """(side, front|back) → the hole its peg stands in, read from the board SVG."""
    board = re.search(r'<svg class="board".*?</svg>', html, flags=re.S)
    assert board, "no cribbage board on the page"
    return {(int(a["data-side"]), a["data-peg"]): int(a["data-hole"])
            for a in Page(board.group(0)).find("circle") if "data-peg" in a}


# --- Tables, forms, state ------------------------------------------------------------------------


def api_table(client: FlaskClient, events: list[dict[str, Any]], players: int = 2, mode: str = "adjudicate",
              seat: int | None = 0, **options: Any) -> dict[str, Any]:
    return phone.api_table(client, "mulle", events, NAMES[:players], mode, seat, **options)


def play(player: int, card: str, *taken: str) -> MultiDict[str, str]:
    """The move form as the phone sends it: the card's radio button and one checkbox per table card."""
    return MultiDict([("type", "play"), ("player:int", str(player)), ("card", card),
                      *(("capture:list", code) for code in taken)])


def preview(client: FlaskClient, table_id: str, data: dict[str, Any] | MultiDict[str, Any]) -> str:
    response = client.get(f"/t/{table_id}/preview", query_string=data)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def playout(players: int, seed: int, stop: Any = None, deals: int = 1) -> tuple[list[dict[str, Any]], MulleState]:
    """Legal events for whole deals from a shuffled double pack (captures chosen by ``hints_for``),
    stopping early when ``stop(state)`` says so."""
    rng = random.Random(seed)
    s = M.new(NAMES[:players], {})
    events: list[dict[str, Any]] = []
    for number in range(deals):
        pack = [str(c) for c in ALL_CARDS] * 2
        rng.shuffle(pack)
        deal: dict[str, Any] = {"type": "deal", "table": pack[:s.table_size]}
        if number == 0:
            deal["dealer"] = 0
        s = M.apply(s, deal)
        events.append(deal)
        for code in pack[s.table_size:]:
            if s.over or (stop and stop(s)):
                return events, s
            captures = M.hints_for(s, code) if len(s.table) < 10 else []
            event: dict[str, Any] = {"type": "play", "player": s.to_act, "card": code}
            if captures and rng.random() < 0.85:
                event["capture"] = max(captures, key=lambda c: (c["points"], len(c["capture"])))["capture"]
            s = M.apply(s, event)
            events.append(event)
    return events, s


# --- The deal -------------------------------------------------------------------------------------


def test_the_deal_form_starts_a_deal_with_tapped_and_typed_table_cards(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    response = client.post("/tables", data={"game": "mulle", "players": NAMES[:2]})
    assert response.status_code == 302
    table_id = response.location.rsplit("/", 1)[1]
    client.post(f"/t/{table_id}/seat", data={"seat": "0"})
    first = sheet(client, table_id)
    tags = Page(first)
    assert tags.find("select", name="dealer:int") and "New deal" in first
    boxes = tags.find("input", type="checkbox", name="table:list")
    assert len(boxes) == 52 and not any("disabled" in b for b in boxes)
    assert "deal 5 cards to each player and 4 face up to the table" in words(first)

    refused = post(client, table_id, MultiDict([("type", "deal"), ("dealer:int", "1"), ("table:list", "3H")]), 422)
    assert "#MULLE-DEAL-3" in refused and 'role="alert"' in refused

    dealt = post(client, table_id, MultiDict([("type", "deal"), ("dealer:int", "1"), ("table:list", "3H"),
                                              ("table:list", "5S"), ("table:list", "8D"), ("table:list", "s8")]))
    tags = Page(dealt)
    assert [a["value"] for a in tags.find("input", type="checkbox", name="capture:list")] == ["3H", "5S", "8D", "8S"]
    text = words(dealt)
    assert "Your turn, Anna!" in text and "Deal 1 · Bo dealt · round 1 of 10" in text
    # Two packs: a card on the table still has one unseen copy, so it stays tappable.
    radio = tags.find("input", type="radio", name="card", value="8D")[0]
    assert "disabled" not in radio and 'data-left="×1"' in dealt and radio["aria-label"] == "eight of diamonds 1 unseen"
    move = dealt.split('<form class="move"')[1].split("</form>")[0]
    hidden = {a["name"]: a["value"] for a in Page(move).find("input", type="hidden")}
    assert hidden["type"] == "play" and hidden["player:int"] == "0"
    assert state(sqlite_app, table_id)["table"] == ["3H", "5S", "8D", "8S"]


def test_between_deals_the_deal_form_offers_every_card_again_and_names_the_dealer(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    events, s = playout(2, seed=1)
    assert s.phase == "deal"
    table = api_table(client, events)
    page = sheet(client, table["id"])
    boxes = Page(page).find("input", type="checkbox", name="table:list")
    assert len(boxes) == 52 and not any("disabled" in b for b in boxes)
    text = words(page)
    assert "Bo deals." in text and "Deal 1 is over." in text and not Page(page).find("select", name="dealer:int")


# --- A move: preview, capture, pops ----------------------------------------------------------------


def test_a_capture_through_the_form_with_its_preview(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table = api_table(client, [{"type": "deal", "dealer": 1, "table": ["3H", "5S", "8D", "AS"]}])
    table_id = table["id"]

    assert "Tap the card played." in preview(client, table_id, {"type": "play", "player:int": "0",
                                                                 "capture:list": ["3H"]})
    legal = preview(client, table_id, play(0, "8C", "3H", "5S", "8D"))
    assert "✔" in legal and "3♥+5♠ = 8, 8♦" in legal
    trail = preview(client, table_id, play(0, "9H"))
    assert "✔" in trail and "trail: 9♥ stays on the table" in trail
    illegal = preview(client, table_id, play(0, "KH", "3H", "5S"))
    assert "✘" in illegal and f'href="/rules/mulle?table={table_id}&amp;lang=en#MULLE-CAP-4"' in illegal
    assert state(sqlite_app, table_id)["cards_left"] == 100       # a dry run stores nothing

    after = post(client, table_id, play(0, "8C", "3H", "5S", "8D"))
    text = words(after)
    assert "Anna: 8♣ as 8 takes 3♥+5♠ = 8, 8♦" in text and "Bo to play" in text
    assert [a["value"] for a in Page(after).find("input", type="checkbox", name="capture:list")] == ["AS"]
    assert state(sqlite_app, table_id)["piles"][0] == {"cards": 4, "spades": 1}

    refused = post(client, table_id, play(1, "KH", "AS"), 422)
    assert "#MULLE-CAP-4" in refused and 'role="alert"' in refused
    kept = Page(refused).find("input", type="checkbox", name="capture:list", value="AS")
    assert kept and "checked" in kept[0]                              # the taps survive a refusal


def test_typed_notation_is_accepted_for_the_card_and_the_cards_taken(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table = api_table(client, [{"type": "deal", "dealer": 1, "table": ["3H", "5S", "8D", "AS"]}])
    page = sheet(client, table["id"])
    assert Page(page).find("input", name="capture:list", placeholder="3H 5S 8D")
    form = MultiDict([("type", "play"), ("player:int", "0"), ("card", ""), ("card", "c8"),
                      ("capture:list", ""), ("capture:list", "3h, 5♠")])
    assert "✔" in preview(client, table["id"], form)
    post(client, table["id"], form)
    assert state(sqlite_app, table["id"])["table"] == ["8D", "AS"]


def test_scoring_shows_as_it_happens_mulle_tabbe_and_point_cards(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table = api_table(client, [{"type": "deal", "dealer": 1, "table": ["5D", "9C", "4H", "AS"]},
                               {"type": "play", "player": 0, "card": "5C"}])
    table_id = table["id"]
    ahead = preview(client, table_id, play(1, "AH", "AS", "9C", "5D"))
    assert "Bo: A♠ +1" in ahead and "Bo: A♥ +1" in ahead

    text = words(post(client, table_id, play(1, "AH", "AS", "9C", "5D")))
    assert "Bo: A♥ +1" in text and "Bo: A♠ +1" in text

    mulle = post(client, table_id, play(0, "5C", "5C"))
    assert "Anna: Mulle! +3" in words(mulle)
    assert "ml-hide-pops" in mulle             # the sheet's own pops give way to the game's
    assert "Anna: Mulle! +3" in words(sheet(client, table_id))    # every phone sees it, not only the mover

    tabbe = words(post(client, table_id, play(1, "4C", "4H")))
    assert "Bo: Tabbe +1" in tabbe
    post(client, table_id, play(0, "9H"))
    post(client, table_id, play(1, "7S"))
    storan = words(post(client, table_id, play(0, "10D", "9H", "7S")))
    assert "Anna: 10♦ +2" in storan and "Anna: Tabbe +1" in storan
    assert "Anna: 10♦ as 16 takes 7♠+9♥ = 16" in storan
    assert state(sqlite_app, table_id)["scores"] == [6, 3]


def test_fact_texts_read_as_score_calls() -> None:
    assert fact_text({"what": "mulle", "points": 3, "rule": "MULLE-SCORE-3", "detail": "Mulle!"}) == "Mulle!"
    assert fact_text({"what": "ace", "points": 1, "rule": "MULLE-SCORE-1", "detail": "A♣"}) == "A♣"
    assert fact_text({"what": "ace", "points": 1, "rule": "MULLE-SCORE-6",
                      "detail": "A♣ left on the table"}) == "A♣ left on the table"
    assert fact_text({"what": "ace", "points": 3, "rule": "MULLE-SCORE-1", "detail": "3 × ace"}) == "3 × Ace"
    assert fact_text({"what": "ten_of_diamonds", "points": 4, "rule": "MULLE-SCORE-1", "detail": "2 × ten of diamonds"}) \
        == "2 × 10♦"
    assert fact_text({"what": "last_capture", "points": 1, "rule": "MULLE-SCORE-5", "detail": ""}) == "Last capture"


# --- Rounds, the end of the deal, the end of the game --------------------------------------------------


def test_the_last_round_is_called(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    events, s = playout(2, seed=4, stop=lambda st: st.round_no == 10)
    assert s.round_no == 10
    text = words(sheet(client, api_table(client, events)["id"]))
    assert "round 10 of 10" in text and "Last round!" in text and "MULLE-DEAL-8" in text
    events, s = playout(2, seed=4, stop=lambda st: st.round_no == 2)
    text = words(sheet(client, api_table(client, events)["id"]))
    assert "round 2 of 10" in text and "Last round!" not in text
    assert "Deal 5 more cards to each player; none to the table." in text


def test_the_end_of_deal_summary(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    events, s = playout(2, seed=1)
    end = M.to_json(s)["deal_end"]
    text = words(sheet(client, api_table(client, events)["id"]))
    assert "Deal 1: the count" in text
    last = end["last_capture"]
    assert f"{NAMES[last['player']]} made the last capture: +1 for {NAMES[last['side']]}." in text
    if end["leftovers"]:
        assert f"Left on the table, to {NAMES[end['leftovers_to']]} (not a tabbe):" in text
    if end["most_spades"] is not None:
        side = end["most_spades"]
        assert f"{NAMES[side]} has the most spades ({end['spades'][side]} of 26): +1." in text
    else:
        assert "tie for the most spades" in text
    for side, name in enumerate(NAMES[:2]):
        row = f"{name} {end['spades'][side]} {end['sweeps'][side]} {end['mulles'][side]} {end['points'][side]:+d}"
        assert row in text, row
    assert "Score sheet" in text and "dealt by Anna" in text


def test_game_over_names_the_winner_and_offers_no_moves(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    events, s = playout(2, seed=2, deals=12)
    assert s.over
    winner = NAMES[s.winner or 0]
    page = sheet(client, api_table(client, events)["id"])
    text = words(page)
    assert f"{winner} wins!" in text and f"{winner} reached 61 with {s.scores[s.winner or 0]} points." in text
    assert "#MULLE-END-3" in page
    assert "Confirm move" not in page and "New deal" not in page
    assert pegs(page)[(s.winner or 0, "front")] == 61                # in the game hole


def test_partnerships_have_one_street_per_team(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table = api_table(client, [{"type": "deal", "dealer": 3, "table": ["5D", "9C", "4H", "AS"]},
                               {"type": "play", "player": 0, "card": "AH", "capture": ["AS", "9C", "5D"]}],
                      players=4, teams=[[0, 2], [1, 3]])
    page = sheet(client, table["id"])
    assert page.count('class="track ') == 2 and "Anna &amp; Cid" in page
    assert pegs(page) == {(0, "back"): 0, (0, "front"): 2, (1, "front"): 0}
    assert "Anna &amp; Cid: A♥ +1" in page


# --- The board ------------------------------------------------------------------------------------------


def test_the_board_pegs_leapfrog(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table = api_table(client, [{"type": "deal", "dealer": 1, "table": ["5D", "9C", "4H", "AS"]},
                               {"type": "play", "player": 0, "card": "5C"},
                               {"type": "play", "player": 1, "card": "AH", "capture": ["AS", "9C", "5D"]},
                               {"type": "play", "player": 0, "card": "5C", "capture": ["5C"]},
                               {"type": "play", "player": 1, "card": "4C", "capture": ["4H"]}])
    page = sheet(client, table["id"])
    # Anna: 0 → 3 (mulle). Bo: 0 → 2 (two aces) → 3 (tabbe): the back peg jumped over the front.
    assert pegs(page) == {(0, "back"): 0, (0, "front"): 3, (1, "back"): 2, (1, "front"): 3}
    assert page.count('class="track ') == 2
    assert "Anna 3 (before: 0)" in page                 # the board's spoken summary


def test_board_geometry_out_and_back() -> None:
    top = 0.0
    assert hole_xy(30, top)[0] == hole_xy(31, top)[0]           # the turn at the far end
    assert hole_xy(1, top)[0] == hole_xy(60, top)[0]            # 60 comes back over 1
    assert hole_xy(0, top)[0] == hole_xy(61, top)[0]            # start and game hole at the near end
    assert hole_xy(1, top)[1] == hole_xy(30, top)[1] != hole_xy(31, top)[1]
    xs = [hole_xy(n, top)[0] for n in range(1, 31)]
    assert xs == sorted(xs) and len(set(xs)) == 30
    assert hole_xy(70, top) == hole_xy(61, top)                 # beyond 61 the peg sits in the game hole
    svg = str(cribbage_board(["A", "B", "C"], [5, 61, 0], [2, 55, 0]))
    assert svg.count('class="track ') == 3
    numbers = re.findall(r'class="num"[^>]*>(\d+)<', svg)
    assert sorted({int(n) for n in numbers}) == list(range(5, 61, 5))
    assert 'class="num game"' in svg and ">61<" in svg
    assert 'data-side="1" data-peg="front" data-hole="61" data-score="61"' in svg


def test_the_holes_pattern_puts_a_hole_under_every_peg_position() -> None:
    """Holes 1–60 are a tiled pattern, not circles: every hole_xy of every lane falls on one of the
    pattern's circles, inside the lane's filled rectangle (a peg never stands beside a hole)."""
    svg = str(cribbage_board(["A", "B", "C", "D"], [0, 0, 0, 0], [0, 0, 0, 0]))
    pattern = re.search(r'<pattern id="ml-holes"[^>]*x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)">(.*?)</pattern>', svg)
    assert pattern is not None
    px, py, w, h = (float(v) for v in pattern.groups()[:4])
    centres = {(float(x), float(y)) for x, y in re.findall(r'cx="([\d.]+)" cy="([\d.]+)"', pattern.group(5))}
    assert len(centres) == 10
    rects = [tuple(float(v) for v in m) for m in re.findall(
        r'<rect class="holes" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"', svg)]
    assert len(rects) == 4 and svg.count('class="hole"') == 10
    for side, (rx, ry, rw, rh) in enumerate(rects):
        top = 4.0 + 64.0 * side
        for hole in range(1, 61):
            x, y = hole_xy(hole, top)
            assert rx < x < rx + rw and ry < y < ry + rh, (side, hole)
            assert (round((x - px) % w, 1), round((y - py) % h, 1)) in centres, (side, hole)


def test_a_board_kept_from_an_earlier_move_is_the_board_drawn_afresh(sqlite_app: Flask) -> None:
    """The board is kept by what it shows and the reader's language: a score, a previous score, a
    name or a language of its own draws its own, and a name given as markup is drawn as before."""
    from markupsafe import Markup

    from scorekeeper.web import boards

    def draw(lang: str, *args: Any, **kw: Any) -> tuple[str, str]:
        with sqlite_app.test_request_context("/", headers={"Accept-Language": lang}):
            kept = str(cribbage_board(*args, **kw))
            fresh = str(boards._board.__wrapped__(tuple(args[0]), tuple(args[1]), tuple(args[2]), *args[3:],
                                                  kw.get("title", ""), lang))
            return kept, fresh

    seen = set()
    for lang in ("en", "sv", "de"):
        for scores, before, names in (([5, 0], [0, 0], ["Anna", "Bo"]), ([5, 3], [0, 0], ["Anna", "Bo"]),
                                      ([5, 3], [2, 0], ["Anna", "Bo"]), ([5, 3], [2, 0], ["Anna", "Bö"])):
            kept, fresh = draw(lang, names, scores, before, 61)
            assert kept == fresh
            seen.add(kept)
    assert len(seen) == 12                                      # no two of them drawn alike
    plain, _ = draw("en", ["A &amp; B", "C"], [1, 2], [0, 0], 61)   # kept first, under equal text
    kept, fresh = draw("en", [Markup("A &amp; B"), "C"], [1, 2], [0, 0], 61)
    assert kept == fresh != plain


# --- Hints and the desk -------------------------------------------------------------------------------


def test_hints_list_every_capture_of_a_card_with_a_play_button(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table = api_table(client, [{"type": "deal", "dealer": 1, "table": ["AS", "KS", "9D", "5C"]}],
                      strict_value=True)
    page = sheet(client, table["id"], hint="AH")
    text = words(page)
    assert "as 1: A♠ +2" in text and "as 14: 5♣+9♦ = 14, A♠(14) +2" in text
    assert "as 14: A♠+K♠ = 14, 5♣+9♦ = 14 tabbe +3" in text      # MULLE-TV-16
    plays = [f for f in re.findall(r'<form method="post".*?</form>', page, flags=re.S) if 'value="AH"' in f]
    engine = M.apply(M.new(NAMES[:2], {"strict_value": True}),
                     {"type": "deal", "dealer": 1, "table": ["AS", "KS", "9D", "5C"]})
    assert len(plays) == len(M.hints_for(engine, "AH")) > 1
    assert "Trailing A♥ is always allowed too." in text
    typed = sheet(client, table["id"], hint=["", "ah"])        # typed beside the grid
    assert "as 1: A♠ +2" in words(typed)
    assert "/desk/?game=mulle&amp;table=AS+KS+9D+5C&amp;strict_value=on&amp;played=AH" in page
    assert "/desk/?game=mulle&amp;table=AS+KS+9D+5C&amp;strict_value=on" in page
    # One tap plays a hint.
    sweep = next(f for f in plays if f.count('name="capture:list"') == 4)
    fields = MultiDict(re.findall(r'name="([^"]+)" value="([^"]*)"', sweep))
    text = words(post(client, table["id"], fields))
    assert "Anna: Tabbe +1" in text and state(sqlite_app, table["id"])["table"] == []
    assert "is not a card" in words(sheet(client, table["id"], hint="ZZ"))


def test_the_hints_picker_is_drawn_only_while_the_box_is_open(sqlite_app: Flask) -> None:
    """A closed hints box carries a typed field, not a second 52-card picker in every move's answer;
    opening it (``?hints=1``) draws the picker, and a typed card still works without JavaScript."""
    client = sqlite_app.test_client()
    table = api_table(client, [{"type": "deal", "dealer": 1, "table": ["AS", "KS", "9D", "5C"]}])
    closed = Page(sheet(client, table["id"]))
    [box] = closed.find("details", **{"class": "card ml-hints"})
    assert "open" not in box and box["hx-get"].endswith("?hints=1") and box["hx-trigger"] == "toggle once"
    assert not closed.find("input", type="radio", name="hint")
    assert closed.find("input", type="hidden", name="hints", value="1") and closed.find("input", name="hint")
    opened = Page(sheet(client, table["id"], hints="1"))
    assert opened.find("details", **{"class": "card ml-hints", "open": ""})
    assert len(opened.find("input", type="radio", name="hint")) == 52
    assert "as 1: A♠ +2" in words(sheet(client, table["id"], hints="1", hint="ah"))


def test_hints_are_capped_on_a_crowded_table_and_say_so(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    small = ["AC", "2C", "3C", "4C", "5C", "6C", "AD", "2D", "3D", "4D", "5D", "6D", "7C", "7D", "8C", "8D"]
    events: list[dict[str, Any]] = [{"type": "deal", "dealer": 0, "table": ["AS", "2H", "3H", "4H"]}]
    events += [{"type": "play", "player": (1 + i) % 2, "card": code} for i, code in enumerate(small)]
    table = api_table(client, events)
    page = sheet(client, table["id"], hint="10S")
    text = words(page)
    assert f"captures in all: showing the first {HINTS_SHOWN}, smallest first" in text
    listed = re.findall(r'<li class="ml-option">', page)
    assert len(listed) == HINTS_SHOWN
    assert "as 10:" in text


# --- Tally mode ---------------------------------------------------------------------------------------


def test_tally_buttons_peg_at_once_and_undo(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table = api_table(client, [], mode="tally")
    table_id = table["id"]
    page = sheet(client, table_id)
    bo = Page(page).find("button", name="what", value="mulle")
    assert len(bo) == 2 and bo[1]["aria-label"] == "Mulle for Bo: +3"
    labels = [a["value"] for a in Page(page).find("button", name="what")]
    assert labels[:7] == ["ace", "two_of_spades", "ten_of_diamonds", "tabbe", "mulle", "last_capture", "most_spades"]

    pegged = post(client, table_id, {"type": "tally", "side:int": "1", "what": "mulle"})
    assert "Bo: Mulle! +3" in words(pegged)
    assert pegs(pegged) == {(0, "front"): 0, (1, "back"): 0, (1, "front"): 3}
    pegged = post(client, table_id, {"type": "tally", "side:int": "1", "what": "ten_of_diamonds"})
    assert "Bo: 10♦ +2" in words(pegged) and pegs(pegged)[(1, "front")] == 5 and pegs(pegged)[(1, "back")] == 3
    post(client, table_id, {"type": "tally", "side:int": "0", "what": "ace"})
    assert state(sqlite_app, table_id)["scores"] == [1, 5]

    undone = client.post(f"/t/{table_id}/undo", headers=HX).get_data(as_text=True)
    assert "Undone" in undone and state(sqlite_app, table_id)["scores"] == [0, 5]

    # Once deals are marked, what a deal cannot hold twice is greyed out.
    marked = post(client, table_id, {"type": "deal", "dealer:int": "0"})
    assert "Start deal 2" in marked
    after = post(client, table_id, {"type": "tally", "side:int": "0", "what": "last_capture"})
    last = Page(after).find("button", name="what", value="last_capture")
    assert len(last) == 2 and all("disabled" in b for b in last)
    assert "disabled" not in Page(after).find("button", name="what", value="ace")[0]


# --- Who sees what ------------------------------------------------------------------------------------


def test_a_watcher_sees_the_board_and_the_table_but_no_controls(sqlite_app: Flask) -> None:
    owner = sqlite_app.test_client()
    table = api_table(owner, [{"type": "deal", "dealer": 1, "table": ["5D", "9C", "4H", "AS"]},
                              {"type": "play", "player": 0, "card": "5C"}])
    watcher = sqlite_app.test_client()
    assert watcher.get(f"/t/{table['id']}/k/{table['read_token']}").status_code == 302
    page = watcher.get(f"/t/{table['id']}").get_data(as_text=True)
    # The sheet only: below it a watcher may leave the table (a form of its own, not a move).
    sheet_html = page.split('id="sheet"')[1].split("</section>\n</div>")[0].split('<nav class="table-actions"')[0]
    assert 'class="board"' in sheet_html and "Bo to play" in sheet_html
    assert "<form" not in sheet_html and "Confirm move" not in sheet_html and "Hints" not in sheet_html
    assert 'aria-label="five of diamonds"' in sheet_html
    assert watcher.post(f"/t/{table['id']}/events", data=play(1, "5D", "5D"), headers=HX).status_code == 403
    tally = api_table(owner, [], mode="tally")
    assert watcher.get(f"/t/{tally['id']}/k/{tally['read_token']}").status_code == 302
    assert 'name="what"' not in watcher.get(f"/t/{tally['id']}/sheet", headers=HX).get_data(as_text=True)


def test_the_composer_has_the_stable_hooks_and_a_refusal_keeps_taps_and_reason(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    table = api_table(client, [{"type": "deal", "dealer": 1, "table": ["3H", "5S", "8D", "KS"]}])
    html = sheet(client, table["id"])
    composer = html.split('id="composer"')[1].split("</form>")[0]
    assert 'id="table-cards"' in composer and 'id="card-chooser"' in composer and 'id="confirm-move"' in composer
    tags = Page(composer)
    assert {a["data-card"] for a in tags.find("label") if "data-card" in a} >= {"3H", "5S", "8D", "KS", "8C", "10D"}
    assert [a["data-rank"] for a in tags.find("label") if "data-rank" in a] == [
        "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    ranks = [a for a in tags.find("input", type="radio") if a.get("name") == "card-rank"]
    assert ranks and all(a["form"] == "card-rank-step" for a in ranks)    # the rank step is never sent
    # The composer comes before the board: nothing between the table cards and Confirm.
    assert html.index('id="composer"') < html.index('class="board"')

    refused = post(client, table["id"], play(0, "KH", "3H"), 422)
    kept = Page(refused.split('id="composer"')[1].split("</form>")[0])
    assert "checked" in kept.find("input", type="checkbox", value="3H")[0]
    assert "checked" in kept.find("input", type="radio", name="card", value="KH")[0]
    assert "checked" in kept.find("input", type="radio", name="card-rank", value="K")[0]
    reason = refused.split('class="preview bad"')[1].split("</div>")[0]
    assert "K♥" in reason and "#MULLE-CAP" in reason
    status = refused.split('hx-swap-oob="innerHTML:#last-move"')[1].split("</div>")[0]
    assert "✘" in status and "#MULLE-CAP" in status


def test_the_rank_chooser_and_card_faces_use_the_letters_the_table_says(sqlite_app: Flask) -> None:
    """Swedish cards read Kn, D, K, E and German ones B, D, K, A; the hooks keep J/Q/K/A."""
    client = sqlite_app.test_client()
    table = api_table(client, [{"type": "deal", "dealer": 1, "table": ["3H", "5S", "8D", "QS"]}])
    for lang, faces, queen in (("sv", ["E", "Kn", "D", "K"], "D♠"), ("de", ["A", "B", "D", "K"], "D♠"),
                               ("en", ["A", "J", "Q", "K"], "Q♠")):
        composer = sheet(client, table["id"], lang=lang).split('id="composer"')[1].split("</form>")[0]
        shown = dict(re.findall(r'data-rank="(\w+)"[^>]*><input[^>]*>(\w+)</label>', composer))
        assert [shown[r] for r in ("A", "J", "Q", "K")] == faces, lang
        assert re.search(r'data-card="QS">.*?' + queen, composer, re.S), lang
