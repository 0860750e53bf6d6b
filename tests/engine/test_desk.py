"""The dispute desk's engine side: every verdict kind with the rule id it cites."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.cards import parse_cards
from scorekeeper.engine.analysis.desk import (
    misar_duty,
    mousel_pot,
    muggins_placements,
    mulatschak_sheet,
)
from scorekeeper.engine.analysis.desk_tricks import DeskError, judge_trick_json
from scorekeeper.engine.base import MalformedEvent
from scorekeeper.engine.capture import kasino_scheme


def trick(game: str, trump: str | None, cards: str, later: str = "", **options: Any) -> dict[str, Any]:
    """``cards`` as "0:9S 1:7H", ``later`` likewise."""
    def plays(text: str) -> list[dict[str, Any]]:
        return [{"player": int(p), "card": c} for p, c in (item.split(":") for item in text.split())]
    body: dict[str, Any] = {"trump": trump, "trick": plays(cards), "later": plays(later)}
    if options:
        body["options"] = options
    return judge_trick_json(game, body).to_json()


def verdict(result: dict[str, Any], player: int) -> dict[str, Any]:
    return next(v for v in result["verdicts"] if v["player"] == player)


# --- Mousel tricks ------------------------------------------------------------------------------


def test_issue_example_revoke_proven_by_a_later_card_and_the_trump_still_wins() -> None:
    result = trick("mousel", "H", "0:9S 1:7H", "1:8S")
    assert result["winner"] == 1 and result["rule"] == "MOUSEL-PLAY-4" and result["by_trump"]
    v = verdict(result, 1)
    assert (v["legal"], v["rule"], v["evidence"], v["breach"]) == (False, "MOUSEL-PLAY-2", ["8S"], "follow")
    assert verdict(result, 0)["rule"] == "MOUSEL-PLAY-1"


def test_mousel_trumping_and_throwing_are_free_when_void() -> None:
    result = trick("mousel", "H", "0:KS 1:AH 2:9D", "1:7D 2:8C")  # TV-11: void in spades
    assert (verdict(result, 1)["legal"], verdict(result, 1)["rule"], verdict(result, 1)["kind"]) == \
        (True, "MOUSEL-PLAY-3", "trumped")
    assert (verdict(result, 2)["rule"], verdict(result, 2)["kind"]) == ("MOUSEL-PLAY-3", "discarded")
    assert result["winner"] == 1


def test_mousel_following_need_not_beat_and_highest_of_led_suit_wins() -> None:
    result = trick("mousel", "H", "0:8D 1:7D 2:AD", "1:KD")  # TV-12 in another suit: no duty to head
    assert verdict(result, 1)["legal"] and verdict(result, 1)["rule"] == "MOUSEL-PLAY-2"
    assert result["winner"] == 2 and not result["by_trump"] and result["led_suit"] == "D"


# --- Mulatschak tricks --------------------------------------------------------------------------


def test_mulatschak_weli_is_second_trump_and_wins_over_the_king() -> None:
    result = trick("mulatschak", "E", "0:KE 1:W 2:7E")
    assert result["winner"] == 1 and result["weli"] and result["rule"] == "MULAT-PLAY-7"
    assert result["ranking"][:3] == ["A", "W", "K"] and result["ranking_rule"] == "MULAT-COMP-2"
    assert "6" not in result["ranking"]
    assert "6" in trick("mulatschak", "E", "0:KE 1:W", pack36=True)["ranking"]


def test_mulatschak_weli_counts_as_trump_when_following() -> None:
    # Schelle led, trump Herz: the Weli is no Schelle, so a player with only the Weli and Laub is void.
    result = trick("mulatschak", "H", "0:9S 1:7L", "1:W")
    v = verdict(result, 1)
    assert (v["legal"], v["rule"], v["breach"], v["evidence"]) == (False, "MULAT-PLAY-4", "trump", ["W"])


def test_mulatschak_follow_trump_head_duties_and_no_stichzwang() -> None:
    follow = trick("mulatschak", "H", "0:9S 1:7L", "1:KS")
    assert verdict(follow, 1)["rule"] == "MULAT-PLAY-3" and not verdict(follow, 1)["legal"]
    head = trick("mulatschak", "H", "0:9S 1:8S", "1:KS")
    assert (verdict(head, 1)["rule"], verdict(head, 1)["breach"], verdict(head, 1)["evidence"]) == \
        ("MULAT-PLAY-5", "head", ["KS"])
    relaxed = trick("mulatschak", "H", "0:9S 1:8S", "1:KS", no_stichzwang=True)
    assert verdict(relaxed, 1)["legal"] and verdict(relaxed, 1)["rule"] == "MULAT-PLAY-3"
    trumped = trick("mulatschak", "H", "0:9S 1:7H")
    assert verdict(trumped, 1)["rule"] == "MULAT-PLAY-4" and verdict(trumped, 1)["kind"] == "trumped"
    free = trick("mulatschak", "H", "0:9S 1:7L")
    assert verdict(free, 1)["legal"] and verdict(free, 1)["rule"] == "MULAT-PLAY-6"


@pytest.mark.parametrize(("body", "error"), [
    ({"trump": "H", "trick": []}, MalformedEvent),
    ({"trump": "X", "trick": [{"player": 0, "card": "9S"}]}, MalformedEvent),
    ({"trump": "H", "trick": [{"player": 0, "card": "9S"}, {"player": 0, "card": "8S"}]}, DeskError),
    ({"trump": "H", "trick": [{"player": 0, "card": "9S"}, {"player": 1, "card": "9S"}]}, DeskError),
    ({"trump": "H", "trick": [{"player": 0, "card": "9S"}], "later": [{"player": 3, "card": "8S"}]},
     DeskError),
    ({"trump": "H", "trick": "9S"}, MalformedEvent),
    ({"trump": "H", "trick": [{"player": "0", "card": "9S"}]}, MalformedEvent),
])
def test_malformed_and_impossible_tricks_are_refused(body: dict[str, Any], error: type[Exception]) -> None:
    with pytest.raises(error):
        judge_trick_json("mousel", body)


def test_card_seen_twice_names_the_pack_rule() -> None:
    with pytest.raises(DeskError) as info:
        judge_trick_json("mulatschak", {"trump": "H", "trick": [{"player": 0, "card": "6H"}]})
    assert info.value.rule == "MULAT-COMP-1"
    with pytest.raises(DeskError) as again:
        judge_trick_json("mousel", {"trump": "H", "trick": [{"player": 0, "card": "9S"}, {"player": 1, "card": "9S"}]})
    assert again.value.rule == "MOUSEL-COMP-1"


@pytest.mark.parametrize(("game", "trump", "seat", "card", "rule"), [
    ("mousel", "H", 3, "8S", "MOUSEL-PLAY-5"),
    ("mulatschak", "E", 4, "OS", "MULAT-SCORE-9"),
])
def test_later_card_of_a_seat_not_in_the_trick_names_the_revoke_evidence_rule(
        game: str, trump: str, seat: int, card: str, rule: str) -> None:
    """Later cards are evidence of the hand a seat held at this trick (README section 4); a seat
    with no card in the trick held no hand at it, which no schema of the body can say."""
    body = {"trump": trump, "trick": [{"player": 0, "card": "KE"}, {"player": 1, "card": "W"}],
            "later": [{"player": seat, "card": card}]}
    if game == "mousel":
        body["trick"] = [{"player": 0, "card": "9S"}]
    with pytest.raises(DeskError) as info:
        judge_trick_json(game, body)
    assert info.value.rule == rule


# --- Mousel pot ---------------------------------------------------------------------------------


def rules_of(worked: Any) -> list[str]:
    return [line.rule for line in worked.lines]


def test_pot_tv2_taker_one_trick_and_zero_trick_opponent() -> None:
    worked = mousel_pot({"pot": 4, "taker": 0, "tricks": [1, 3, 0, None]})
    assert worked.result["shares"] == [1, 3, 0, 0] and worked.result["penalties"] == [4, 0, 4, 0]
    assert {"MOUSEL-POT-1", "MOUSEL-POT-4", "MOUSEL-POT-5", "MOUSEL-POT-6", "MOUSEL-POT-7"} <= set(rules_of(worked))
    assert worked.result["next_pot"] == 0 + 8 + 4


def test_pot_tv4_remainder_carried_and_round_largest() -> None:
    worked = mousel_pot({"pot": 11, "taker": 0, "tricks": [2, 1, None]})
    assert worked.result["shares"] == [7, 3, 0] and worked.result["leftover"] == 1
    assert "MOUSEL-POT-3" in rules_of(worked)
    largest = mousel_pot({"pot": 11, "taker": 0, "tricks": [2, 1, None], "options": {"round_largest": True}})
    assert "MOUSEL-OPT-ROUND-LARGEST" in rules_of(largest)


def test_pot_revoke_and_impossible_counts() -> None:
    worked = mousel_pot({"pot": 4, "taker": 1, "tricks": [1, 2, None, 1], "revokers": [0]})
    assert worked.result["shares"][0] == 0 and worked.result["penalties"][0] == 4
    assert "MOUSEL-POT-8" in rules_of(worked)
    with pytest.raises(DeskError) as info:
        mousel_pot({"pot": 4, "taker": 0, "tricks": [1, 1, 1, 0, None]})
    assert info.value.rule == "MOUSEL-COMP-3"
    with pytest.raises(DeskError):
        mousel_pot({"pot": 4, "taker": 2, "tricks": [2, 2, None, 0]})
    with pytest.raises(MalformedEvent):
        mousel_pot({"pot": "4", "taker": 0, "tricks": [4, 0, 0, 0]})


# --- Mulatschak sheet ---------------------------------------------------------------------------


def test_sheet_hearts_doubles_every_line() -> None:
    worked = mulatschak_sheet({"declarer": 1, "bid": 2, "trump": "H", "tricks": [1, 3, 1, None]})
    assert worked.result["multiplier"] == 2 and worked.result["changes"] == [-2, -6, -2, 2]
    assert rules_of(worked)[0] == "MULAT-SCORE-2"
    assert rules_of(worked)[1:] == ["MULAT-SCORE-3", "MULAT-SCORE-3", "MULAT-SCORE-3", "MULAT-SCORE-5"]
    assert worked.result["totals"] == [19, 15, 19, 23]


def test_sheet_muli_revoke_and_game_over() -> None:
    muli = mulatschak_sheet({"declarer": 0, "bid": 5, "trump": "E", "tricks": [5, 0, 0]})
    assert muli.result["changes"] == [-10, 10, 10] and "MULAT-SCORE-4" in rules_of(muli)
    revoke = mulatschak_sheet({"declarer": 0, "bid": 2, "trump": "E", "tricks": [3, 2, 0], "revokes": [1]})
    assert revoke.result["changes"][1] == 5 and "MULAT-SCORE-9" in rules_of(revoke)
    won = mulatschak_sheet({"declarer": 0, "bid": 3, "trump": "E", "tricks": [4, 1, 0], "scores": [3, 9, 9]})
    assert won.result["winners"] == [0] and rules_of(won)[-1] == "MULAT-END-1"
    with pytest.raises(DeskError) as info:
        mulatschak_sheet({"declarer": 0, "bid": 2, "trump": "E", "tricks": [3, 3, 0]})
    assert info.value.rule == "MULAT-SCORE-6"


# --- Muggins --------------------------------------------------------------------------------------


def test_muggins_tv6_left_pile_is_a_muggins_when_a_muggins_pile_fits() -> None:
    worked = muggins_placements({"card": "6H", "player": 0, "muggins": ["5C", "QD"],
                                 "discards": [None, "7S", None], "cards": [10, 9, 8]})
    places = {(p["to"]["pile"], p["to"].get("index", p["to"].get("player"))): p
              for p in worked.result["placements"]}
    assert places[("muggins", 0)]["muggins_proof"] and places[("muggins", 0)]["rule"] == "MUGGINS-PLAY-2"
    assert not places[("discard", 1)]["muggins_proof"] and places[("discard", 1)]["cost"] == 2
    assert places[("discard", 1)]["rule"] == "MUGGINS-PEN-1"
    assert ("own", None) in places and not places[("own", None)]["correct"]
    assert [line.rule for line in worked.lines] == ["MUGGINS-PLAY-2", "MUGGINS-PEN-2", "MUGGINS-PEN-3"]


def test_muggins_nothing_fits_own_pile_is_correct() -> None:
    worked = muggins_placements({"card": "7D", "muggins": ["3C", "10S", "JH"], "discards": [None, "9S", None]})
    assert [p["to"]["pile"] for p in worked.result["placements"]] == ["own"]
    assert worked.result["placements"][0]["correct"]
    with pytest.raises(DeskError):
        muggins_placements({"card": "7D", "muggins": ["7D"], "discards": [None, None, None]})


# --- Kasino misär ---------------------------------------------------------------------------------

SCHEME = kasino_scheme("standard")


def misar(played: str, taken: str, table: str, hand: str = "", maxcount: bool = False) -> list[tuple[bool, str, str]]:
    found = misar_duty(parse_cards(played)[0], parse_cards(taken), parse_cards(table), SCHEME,
                       parse_cards(hand), maxcount)
    return [(v.legal, v.rule, v.what) for v in found]


def test_misar_trail_breaks_the_duty_to_capture() -> None:
    assert misar("7H", "", "7C 2D 9S") == [(False, "KASINO-MIS-2", "trail_breaks")]
    assert misar("7H", "", "8C 2D") == [(True, "KASINO-MIS-3", "trail_ok")]


def test_misar_smaller_capture_breaks_it_tv14() -> None:
    assert misar("AH", "AC", "AC 9D 5S") == [(False, "KASINO-MIS-1", "sweep_owed"),
                                             (False, "KASINO-MIS-2", "too_small")]
    assert misar("2S", "2C", "2C 9D 6H") == [(True, "KASINO-MIS-2", "ok")]  # TV-15


def test_misar_forced_sweep_proven_by_another_held_card_and_maxcount() -> None:
    assert misar("2D", "", "KC 9S 4H", hand="KD") == [(False, "KASINO-MIS-1", "sweep_owed"),
                                                   (True, "KASINO-MIS-3", "trail_ok")]
    assert misar("6S", "AH 5C", "AH 5C 2D 3S", maxcount=True) == [(False, "KASINO-OPT-MISAR-MAXCOUNT", "too_small")]
    assert misar("6S", "AH 5C", "AH 5C 2D 3S") == [(True, "KASINO-MIS-2", "ok")]
