"""The dispute desk answers with the grouping, or the rule and the arithmetic, and every legal capture."""

from __future__ import annotations

HX = {"HX-Request": "true"}


def verdict(client, **query) -> str:
    response = client.get("/desk/", query_string=query, headers=HX)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_legal_capture_shows_its_grouping_and_rule(sqlite_app) -> None:
    html = verdict(sqlite_app.test_client(), game="mulle", table="5D 3S 8D AC", played="8C", taken="5D 3S 8D")
    assert "Legal." in html and "3♠+5♦ = 8, 8♦" in html and "#MULLE-CAP-4" in html


def test_illegal_capture_names_the_rule_and_lists_alternatives(sqlite_app) -> None:
    html = verdict(sqlite_app.test_client(), game="kasino", table="5D 3S 9D", played="9C", taken="5D 3S")
    assert "Not legal." in html and "#KASINO-CAP-4" in html
    assert '<span class="take">9♦</span> — 9♦' in html  # the one legal capture of 9♣


def test_sweep_and_mulle_are_called(sqlite_app) -> None:
    client = sqlite_app.test_client()
    assert "Mulle!" in verdict(client, game="mulle", table="7H", played="7H", taken="7H")
    assert "Sweep (tabbe)!" in verdict(client, game="kasino", table="4H 3S", played="7C", taken="4H 3S")


def test_house_rules_change_the_verdict(sqlite_app) -> None:
    client = sqlite_app.test_client()
    assert "Legal." in verdict(client, game="mulle", table="2H", played="2S", taken="2H")
    # 2♠ as 15 may take a plain 2 by rank only without the strict option; as 2 it still may.
    assert "Legal." in verdict(client, game="mulle", table="2H", played="2S", taken="2H", strict_value="on")
    assert "Not legal." in verdict(client, game="mulle", table="10H 5C", played="10D", taken="10H 5C",
                                   strict_value="on")
    # KASINO-TV-11: an ace from the hand counts 14 and one on the table 1 under VAR-HANDTABLE.
    assert "Not legal." in verdict(client, game="kasino", table="AH", played="AC", taken="AH", variant="handtable")
    assert "Legal." in verdict(client, game="kasino", table="AH", played="AC", taken="AH")


def test_bad_input_is_explained_not_judged(sqlite_app) -> None:
    client = sqlite_app.test_client()
    assert "cannot read" in verdict(client, game="kasino", table="5D", played="ZZ")
    assert "not on the table" in verdict(client, game="kasino", table="5D", played="5C", taken="6D")
    assert "the Kasino pack holds 1" in verdict(client, game="kasino", table="5D 5D", played="5C")


def test_full_page_without_javascript(sqlite_app) -> None:
    page = sqlite_app.test_client().get("/desk/?game=mulle&table=5D&played=5C&taken=5D").get_data(as_text=True)
    assert "<h1>Dispute desk</h1>" in page and "Legal." in page


def test_crowded_table_lists_the_first_captures_and_counts_the_rest(sqlite_app) -> None:
    table = "AH AS AD AC 2S 10D 3H 4H 5H 6H 7H 8H 9H 2H 3C 4C 5C 6C 7C 8C"
    html = verdict(sqlite_app.test_client(), game="mulle", table=table, played="AC", taken="")
    assert "The first 60 of" in html
    assert html.count('<span class="take">') == 60
