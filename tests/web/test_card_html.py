"""The pickers' cells made in Python (scorekeeper/web/card_html.py) and kept per language: the hooks
stay, a count or a tick changes the cell, and a cell kept for one language is never served in another."""

from __future__ import annotations

import re

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
    assert 'class="pick gone" data-card="AH"' in html and "×0" in html and "×2" in html
    assert 'aria-label="ace of spades"' in html and " 2 unseen" in html


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
    assert "disabled" not in radios["A"] and ">3</small>" in ranks
    assert face == '<span class="cardface big red" role="img" aria-label="queen of diamonds">Q♦</span>'
