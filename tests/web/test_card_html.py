"""The pickers' cells made in Python (scorekeeper/web/card_html.py) and kept per language: the hooks
stay, a count or a tick changes the cell, and a cell kept for one language is never served in another."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask

from scorekeeper.web import card_html
from tests.web.html import Page


def steps(app: Flask, lang: str, unseen: dict[str, int], chosen: str = "") -> str:
    with app.test_request_context("/", headers={"Accept-Language": lang}):
        return str(card_html.suit_steps("card", ["A", "10"], ["S", "H"], unseen, chosen))


def test_cells_keep_their_hooks_counts_and_ticks(sqlite_app: Flask) -> None:
    html = steps(sqlite_app, "en", {"AS": 2, "AH": 0, "10S": 1, "10H": 2}, chosen="10S")
    page = Page(html)
    assert [a["data-card"] for a in page.find("label")] == ["AS", "AH", "10S", "10H"]
    assert [a["data-of"] for a in page.find("div")] == ["A", "10"]
    radios = {a["value"]: a for a in page.find("input", type="radio", name="card")}
    assert "disabled" in radios["AH"] and "checked" in radios["10S"] and "checked" not in radios["AS"]
    assert 'class="pick gone" data-card="AH"' in html
    # The count is drawn from data-left and spoken in the radio's name: a cell is its label, its
    # radio and its face, nothing more (the phone parses and styles every one on every move).
    assert [a["data-left"] for a in page.find("label")] == ["×2", "×0", "×1", "×2"]
    assert radios["AS"]["aria-label"] == "ace of spades 2 unseen" and radios["AH"]["aria-label"] == "ace of hearts 0 unseen"
    assert 'aria-label="ace of spades"' in html
    assert len(page.tags) == 2 + 4 * 3 and "<small" not in html and "sr-only" not in html


def test_a_cell_kept_in_one_language_is_not_served_in_another(sqlite_app: Flask) -> None:
    unseen = {"AS": 2, "AH": 1, "10S": 1, "10H": 2}
    english, swedish, german = (steps(sqlite_app, lang, unseen) for lang in ("en", "sv", "de"))
    assert "unseen" in english and "ace of spades" in english
    assert "osedda" in swedish and "unseen" not in swedish and re.search(r">E♠<", swedish)
    assert "unseen" not in german and "ace of spades" not in german
    assert steps(sqlite_app, "en", unseen) == english          # the same cells, from the cache


def test_rank_cells_count_every_suit_and_a_face_matches_the_macro(sqlite_app: Flask) -> None:
    with sqlite_app.test_request_context("/", headers={"Accept-Language": "en"}):
        ranks = str(card_html.rank_cells("card", ["A", "K"], ["S", "H", "D", "C"], {"AS": 2, "AH": 1}, "K"))
        face = str(card_html.card("QD", cls="big"))
    page = Page(ranks)
    radios = {a["value"]: a for a in page.find("input", type="radio", name="card-rank")}
    assert "disabled" in radios["K"] and "checked" not in radios["K"]       # nothing of it unseen
    assert "disabled" not in radios["A"]
    assert {a["data-rank"]: a["data-left"] for a in page.find("label")} == {"A": "3", "K": "0"}
    assert radios["A"]["aria-label"] == "A ace: 3 unseen" and radios["K"]["aria-label"] == "K king: 0 unseen"
    assert len(page.tags) == 2 * 2 and re.search(r'data-rank="A"[^>]*><input[^>]*>A</label>', ranks)
    assert face == '<span class="cardface big red" role="img" aria-label="queen of diamonds">Q♦</span>'


def fresh_steps(app: Flask, lang: str, unseen: dict[str, int], chosen: Any, multi: bool = False) -> str:
    """The second step made cell by cell (``pick``), as before steps were kept per rank."""
    with app.test_request_context("/", headers={"Accept-Language": lang}):
        out = []
        for rank in ("A", "10"):
            head = f'<div class="suit-step" data-of="{rank}" role="group" aria-label="{card_html.rank_name(rank, lang)}">'
            out.append(head + "".join(str(card_html.pick("card", rank + s, unseen, chosen, multi=multi)) for s in "SH"))
            out.append("</div>")
        return "".join(out)


def test_a_kept_step_is_the_step_made_afresh_for_every_count_tick_and_language(sqlite_app: Flask) -> None:
    before = {"AS": 2, "AH": 1, "10S": 1, "10H": 2}
    after = dict(before, **{"10H": 1})                         # a move played one more 10H
    for lang in ("en", "sv", "de"):
        for unseen, chosen in ((before, ""), (after, ""), (after, "10H"), (before, "AS")):
            assert steps(sqlite_app, lang, unseen, chosen) == fresh_steps(sqlite_app, lang, unseen, chosen)
        with sqlite_app.test_request_context("/", headers={"Accept-Language": lang}):
            several = str(card_html.suit_steps("card", ["A", "10"], ["S", "H"], after, ["AH", "10S"], multi=True))
        assert several == fresh_steps(sqlite_app, lang, after, ["AH", "10S"], multi=True)
        assert several.count('type="checkbox"') == 4 and several.count(" checked") == 2
    # The rank whose count changed is made again; the other is the same text.
    a_rank = r'<div class="suit-step" data-of="A".*?</div>'
    ten = r'<div class="suit-step" data-of="10".*?</div>'
    one, two = steps(sqlite_app, "en", before), steps(sqlite_app, "en", after)
    assert re.search(a_rank, one)[0] == re.search(a_rank, two)[0]  # type: ignore[index]
    assert re.search(ten, one)[0] != re.search(ten, two)[0] and "×1" in re.search(ten, two)[0]  # type: ignore[index]


def test_a_mulle_sheet_stays_lean_for_the_phone_to_redraw(sqlite_app: Flask) -> None:
    """Every move's answer is the whole sheet, parsed, inserted and styled again by the phone, and
    its time grows with the elements (issue 27: a move's verdict within 150 ms on a slowed phone).
    The chooser's cells were two thirds of it: 506 elements with five a cell, 363 with three."""
    from tests.web.phone import api_table, sheet

    client = sqlite_app.test_client()
    table = api_table(client, "mulle", [{"type": "deal", "dealer": 1, "table": ["5D", "9C", "4H", "AS"]}], ["Anna", "Bo"])
    page = Page(sheet(client, table["id"]))
    assert len(page.find("label", **{"class": "pick"})) == 52 and len(page.find("label", **{"class": "rank"})) == 13
    assert len(page.tags) <= 380
