"""Kasino, Kasino misär and Dragkasino: every rule id, test vector and worked example of kasino.md."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import combinations
from typing import Any

import pytest

from scorekeeper.cards import Card, NotationError, parse_cards
from scorekeeper.engine.base import MalformedEvent, RuleViolation, SetupError
from scorekeeper.engine.capture import find_grouping, sweep_values
from scorekeeper.engine.kasino import PACK, Kasino, KasinoState
from tests.engine.test_kasino_playouts import Sim

K = Kasino()
NAMES = ["A", "B", "C", "D"]


# --- helpers ------------------------------------------------------------------------------------


def new(n: int = 3, mode: str = "adjudicate", **options: Any) -> KasinoState:
    return K.new(NAMES[:n], options, mode)  # type: ignore[arg-type]


def dealt(n: int = 3, table: str = "KC QC JC 9C", **options: Any) -> KasinoState:
    """A fresh deal with the last seat dealing, so player 0 is forehand."""
    return K.apply(new(n, **options), {"type": "deal", "dealer": n - 1, "table": table.split()})


def at_table(state: KasinoState, cards: str) -> KasinoState:
    """The same moment of the deal, but with these cards face up (a position the test needs)."""
    table = tuple(parse_cards(cards))
    return replace(state, table=table, seen=frozenset(state.seen - set(state.table)) | frozenset(table))


def play(state: KasinoState, player: int, card: str, capture: str = "", **extra: Any) -> KasinoState:
    return K.apply(state, {"type": "play", "player": player, "card": card, "capture": capture.split(), **extra})


def refused(state: KasinoState, event: dict[str, Any]) -> RuleViolation:
    before = K.to_json(state)
    with pytest.raises(RuleViolation) as info:
        K.apply(state, event)
    assert K.to_json(state) == before, "a refused event leaves the state as it was"
    return info.value


def refused_play(state: KasinoState, player: int, card: str, capture: str = "", **extra: Any) -> RuleViolation:
    return refused(state, {"type": "play", "player": player, "card": card, "capture": capture.split(), **extra})


def tally_pile(cards: int, spades: int, storan: bool = False, lillan: bool = False, aces: int = 0,
               tabbes: int = 0, sistan: bool = False) -> dict[str, Any]:
    pile: dict[str, Any] = {"cards": cards, "spades": spades, "storan": storan, "lillan": lillan, "aces": aces,
                            "tabbes": tabbes}
    if sistan:
        pile["sistan"] = True
    return pile


def unseen_cards(state: KasinoState) -> list[str]:
    return [str(c) for c in PACK if c not in state.seen]


def trail_everything(state: KasinoState) -> KasinoState:
    """Play the rest of the deal as trails (capturing is optional, KASINO-TURN-4)."""
    while state.phase == "play":
        card = unseen_cards(state)[0]
        state = play(state, state.to_act or 0, card)
    return state


# --- set-up (KASINO-COMP-2, options) --------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 5])
def test_comp_2_player_count(n: int) -> None:
    with pytest.raises(SetupError) as info:
        K.new(["P"] * n, {})
    assert info.value.rule == "KASINO-COMP-2"


@pytest.mark.parametrize(("n", "options", "rule"), [
    (3, {"pairs": True}, "KASINO-VAR-PAIRS"),
    (4, {"teams": [[0, 1], [2, 3]]}, "KASINO-VAR-PAIRS"),
    (4, {"variant": "misar", "pairs": True}, "KASINO-AMB-10"),
    (3, {"fixed": True, "handtable": True}, "KASINO-VAR-HANDTABLE"),
    (3, {"drag_misar": True}, "KASINO-OPT-DRAG-MISAR"),
    (3, {"pairs_individual": True}, "KASINO-OPT-PAIRS-INDIVIDUAL"),
    (3, {"variant": "misar", "claim": True}, "KASINO-OPT-CLAIM"),
    (3, {"claim_tabbe": True}, "KASINO-OPT-CLAIM-TABBE"),
    (3, {"auto_claim": True}, "KASINO-AMB-13"),
    (3, {"misar_maxcount": True}, "KASINO-OPT-MISAR-MAXCOUNT"),
    (3, {"misar_strict": True}, "KASINO-OPT-MISAR-STRICT"),
    (3, {"variant": "drag", "misar_penalty_b": True}, "KASINO-OPT-MISAR-PENALTY-B"),
    (3, {"sistan": "yes"}, "KASINO-OPT-SISTAN"),
    (3, {"fixed": 1}, "KASINO-VAR-FIXED"),
    (3, {"draw_ace_low": "low"}, "KASINO-AMB-1"),
])
def test_unsupported_option_combinations(n: int, options: dict[str, Any], rule: str) -> None:
    with pytest.raises(SetupError) as info:
        K.new(NAMES[:n], options)
    assert info.value.rule == rule


def test_unknown_variant_and_mode_are_refused() -> None:
    with pytest.raises(SetupError):
        K.new(NAMES[:2], {"variant": "krypkasino"})
    with pytest.raises(SetupError):
        K.new(NAMES[:2], {}, "blind")  # type: ignore[arg-type]


def test_var_pairs_teams_option_is_the_same_as_pairs() -> None:
    a = K.new(NAMES, {"teams": [[1, 3], [0, 2]]})
    b = K.new(NAMES, {"pairs": True})
    assert a.sides == b.sides and a.sides.teams == ((0, 2), (1, 3))
    assert K.to_json(a)["scores"] == [0, 0]


# --- dealing (KASINO-DEAL-*) ---------------------------------------------------------------------


def test_deal_1_draw_for_dealer_highest_deals_and_ties_draw_again() -> None:
    s = new(3)
    s = K.apply(s, {"type": "draw_dealer", "cards": ["KH", "5S", "KD"]})
    assert s.draw is not None and s.draw.tied == (0, 2) and s.draw.dealer is None
    assert refused(s, {"type": "draw_dealer", "cards": ["3C", "4C", None]}).rule == "KASINO-DEAL-1"
    s = K.apply(s, {"type": "draw_dealer", "cards": ["3C", None, "9D"]})
    assert s.draw is not None and s.draw.dealer == 2
    assert refused(s, {"type": "deal", "dealer": 0, "table": "5D 9S KH AC"}).rule == "KASINO-DEAL-1"
    assert refused(s, {"type": "draw_dealer", "cards": ["2C", "3C", "4C"]}).rule == "KASINO-DEAL-1"
    s = K.apply(s, {"type": "deal", "table": "5D 9S KH AC"})
    assert s.dealer == 2 and s.to_act == 0


def test_amb_1_ace_ranks_high_in_the_draw_unless_the_option_says_low() -> None:
    cards = {"type": "draw_dealer", "cards": ["AH", "2S", "KD"]}
    high = K.apply(new(3), cards)
    low = K.apply(new(3, draw_ace_low=True), cards)
    assert high.draw is not None and high.draw.dealer == 0
    assert low.draw is not None and low.draw.dealer == 2


def test_comp_1_draw_for_dealer_cannot_show_one_card_twice() -> None:
    assert refused(new(2), {"type": "draw_dealer", "cards": ["AH", "AH"]}).rule == "KASINO-COMP-1"


def test_deal_3_four_cards_to_the_table_and_four_to_each_hand() -> None:
    s = new(3)
    assert refused(s, {"type": "deal", "dealer": 0, "table": "5D 9S KH"}).rule == "KASINO-DEAL-3"
    assert refused(s, {"type": "play", "player": 1, "card": "5C"}).rule == "KASINO-DEAL-3"
    s = K.apply(s, {"type": "deal", "dealer": 0, "table": "d5 s9 hK cE"})  # the seed's notation is read too
    data = K.to_json(s)
    assert data["table"] == ["5D", "9S", "KH", "AC"]
    assert data["hands"] == [4, 4, 4] and data["unseen_count"] == 48
    assert data["unseen"]["5D"] == 0 and data["unseen"]["5C"] == 1


def test_first_deal_needs_a_dealer() -> None:
    with pytest.raises(MalformedEvent):
        K.apply(new(2), {"type": "deal", "table": "5D 9S KH AC"})


def test_comp_1_one_card_twice_on_the_table() -> None:
    assert refused(new(2), {"type": "deal", "dealer": 0, "table": "5D 5D KH AC"}).rule == "KASINO-COMP-1"


@pytest.mark.parametrize(("n", "rounds"), [(2, 6), (3, 4), (4, 3)])
def test_deal_4_5_7_rounds_per_deal_and_forehand_leads_every_round(n: int, rounds: int) -> None:
    s = dealt(n)
    assert s.rounds_total == rounds
    sim = Sim(n, {}, random.Random(n))
    sim.adopt(s)
    starts = []
    while sim.state.phase == "play":
        state = sim.state
        if len(state.turns) % (4 * n) == 0:
            data = K.to_json(state)
            starts.append((data["round"], data["to_act"], data["hands"]))
            assert data["rounds_total"] == rounds
        sim.play_one()
    assert starts == [(r, 0, [4] * n) for r in range(1, rounds + 1)]
    assert len(sim.state.turns) == 48


@pytest.mark.parametrize("n", [2, 3, 4])
def test_deal_6_the_app_says_sistan_when_the_last_round_is_dealt(n: int) -> None:
    sim = Sim(n, {}, random.Random(7))
    sim.adopt(dealt(n))
    announced = []
    while sim.state.phase == "play":
        sim.play_one()
        if "sistan" in sim.state.announce:
            announced.append(len(sim.state.turns))
            assert sim.state.is_last_round and K.to_json(sim.state)["is_last_round"]
    assert announced == [48 - 4 * n]


def test_deal_2_the_deal_passes_clockwise() -> None:
    sim = Sim(3, {}, random.Random(3))
    sim.adopt(dealt(3))
    s = sim.finish_deal()
    assert s.phase == "between"
    assert K.to_json(s)["next_dealer"] == 0
    assert refused(s, {"type": "deal", "dealer": 2, "table": "5D 9S KH AC"}).rule == "KASINO-DEAL-2"
    s = K.apply(s, {"type": "deal", "table": "5D 9S KH AC"})
    assert s.dealer == 0 and s.to_act == 1 and s.deal_no == 2


# --- turns (KASINO-TURN-*) -----------------------------------------------------------------------


def test_turn_1_forehand_starts_and_turns_go_clockwise() -> None:
    s = dealt(3, "5D 9S KH AC")
    assert refused_play(s, 1, "5C").rule == "KASINO-TURN-1"
    s = play(s, 0, "2H")
    assert s.to_act == 1
    s = play(s, 1, "3H")
    assert s.to_act == 2


def test_turn_1_a_card_on_the_table_is_not_in_a_hand() -> None:
    s = dealt(3, "5D 9S KH AC")
    err = refused_play(s, 0, "5D")
    assert err.rule == "KASINO-TURN-1" and "table" in err.message


def test_comp_1_a_card_already_played_this_deal() -> None:
    s = play(dealt(3, "5D 9S KH AC"), 0, "5C", "5D")
    assert refused_play(s, 1, "5C").rule == "KASINO-COMP-1"
    assert refused_play(s, 1, "5D").rule == "KASINO-COMP-1"


def test_turn_2_only_table_cards_can_be_taken() -> None:
    s = dealt(3, "5D 9S KH AC")
    err = refused_play(s, 0, "5C", "5H")
    assert err.rule == "KASINO-TURN-2" and err.facts["missing"] == ["5H"]
    s = play(s, 0, "5C", "5D")
    assert s.piles[0].cards == (Card("5", "C"), Card("5", "D"))
    assert K.to_json(s)["piles"][0]["cards"] == 2


def test_turn_3_a_trail_joins_the_table() -> None:
    s = play(dealt(3, "5D 9S KH AC"), 0, "2H")
    assert [str(c) for c in s.table] == ["5D", "9S", "KH", "AC", "2H"]
    assert s.last_capturer is None


def test_turn_5_after_a_tabbe_the_table_is_empty_and_the_next_card_is_trailed() -> None:
    s = at_table(dealt(3), "7H 3S 4D")
    s = play(s, 0, "7S", "7H 3S 4D")
    assert s.table == () and s.piles[0].tabbes == 1 and K.to_json(s)["last_move"]["tabbe"] is True
    assert refused_play(s, 1, "8C", "8D").rule == "KASINO-TURN-5"
    s = play(s, 1, "8C")
    assert [str(c) for c in s.table] == ["8C"]


def test_turn_6_leftovers_go_to_the_last_capturer_and_are_no_tabbe() -> None:
    sim = Sim(2, {}, random.Random(11))
    sim.adopt(dealt(2))
    while len(sim.state.turns) < 47:
        sim.play_one()
    s = sim.state
    last = s.last_capturer
    player = s.to_act
    assert player is not None and last is not None
    card = sim.hands[player][0]
    table = s.table
    before = sum(p.sweeps for p in s.piles)
    end = play(s, player, str(card))  # the very last card is trailed
    assert end.summary is not None
    assert end.summary.leftovers_to == last
    assert set(end.summary.leftovers) == set(table) | {card}
    assert sum(p.sweeps for p in end.piles) == before
    assert sum(len(p.cards) for p in end.piles) == 52


def test_amb_9_if_nobody_captured_the_leftovers_belong_to_nobody() -> None:
    end = trail_everything(dealt(2, "KC QC JC 9C", sistan=True))
    assert end.summary is not None
    assert end.summary.leftovers_to is None and len(end.summary.leftovers) == 52
    assert end.summary.points == (0, 0)
    assert all(p.cards == () for p in end.piles)


# --- capture validation: the test vectors (KASINO-CAP-*, KASINO-TV-*) -------------------------------

LEGAL = [
    # id, table, played, taken, options, value, tabbe
    ("TV-1", "7H 3S 4D", "7S", "7H 3S 4D", {}, 7, True),
    ("TV-2a", "5S 5D 3H", "8C", "3H 5S", {}, 8, False),
    ("TV-2b", "5S 5D 3H", "8C", "3H 5D", {}, 8, False),
    ("TV-3a", "2C 9D 6H", "2S", "2C", {}, 2, False),
    ("TV-3b", "2C 9D 6H", "2S", "9D 6H", {}, 15, False),
    ("TV-4", "KS AC", "AH", "KS AC", {}, 14, True),
    ("TV-5b", "6D 9C", "9H", "9C", {}, 9, False),
    ("TV-8", "AC AD", "2S", "AC AD", {}, None, True),
    ("TV-9", "2S AH", "10D", "2S AH", {}, 16, True),
    ("TV-10", "10D", "10C", "10D", {}, 10, True),
    ("TV-11", "AC", "AH", "AC", {}, None, True),
    ("TV-11b", "AC KS", "AH", "AC KS", {"handtable": True}, 14, True),
    ("TV-12", "QH 5C 7D 2H 10S", "QS", "QH 5C 7D 2H 10S", {}, 12, True),
    ("TV-13a", "3C 4D 5H 7S", "7H", "7S", {}, 7, False),
    ("TV-13b", "3C 4D 5H 7S", "7H", "3C 4D 7S", {}, 7, False),
    ("TV-13b-misar", "3C 4D 5H 7S", "7H", "3C 4D 7S", {"variant": "misar"}, 7, False),
    ("TV-14-misar", "AC 9D 5S", "AH", "AC 9D 5S", {"variant": "misar"}, 14, True),
    ("TV-15-misar-a", "2C 9D 6H", "2S", "2C", {"variant": "misar"}, 2, False),
    ("TV-15-misar-b", "2C 9D 6H", "2S", "9D 6H", {"variant": "misar"}, 15, False),
    ("TV-17-default", "9D 6H", "2S", "9D 6H", {}, 15, True),
    ("TV-18", "6C 7H AS QC", "KD", "6C 7H AS QC", {}, 13, True),
]


@pytest.mark.parametrize(("tv", "table", "card", "taken", "options", "value", "tabbe"), LEGAL,
                         ids=[row[0] for row in LEGAL])
def test_legal_captures(tv: str, table: str, card: str, taken: str, options: dict[str, Any],
                        value: int | None, tabbe: bool) -> None:
    s = play(at_table(dealt(3, **options), table), 0, card, taken)
    turn = s.turns[-1]
    assert turn.grouping is not None
    if value is not None:
        assert turn.grouping.value == value
    assert sorted(map(str, turn.grouping.cards)) == sorted(taken.split())
    assert turn.tabbe is tabbe and s.piles[0].tabbes == int(tabbe)
    assert K.to_json(s)["last_move"]["grouping"]["value"] == turn.grouping.value


def test_tv_8_both_values_of_lillan_take_two_aces() -> None:
    s = at_table(dealt(3), "AC AD")
    options = K.captures_for(s, "2S")["captures"]
    assert [sorted(o["capture"]) for o in options] == [["AC", "AD"]]
    assert {2, 15} <= sweep_values(s.table, s.cfg.scheme)  # 1 + 1 and 14 + 1


def test_captures_for_a_limited_list_keeps_the_count() -> None:
    s = at_table(dealt(3), "AC AD 2H 3C 4D 5H 6S 7C")
    full = K.captures_for(s, "8H")
    first = K.captures_for(s, "8H", limit=3)
    assert full["count"] == len(full["captures"]) > 3
    assert first["captures"] == full["captures"][:3] and first["count"] == full["count"]
    assert first["trail_allowed"] == full["trail_allowed"]
    duty = at_table(dealt(3, variant="misar"), "AC AD 2H 3C 4D 5H 6S 7C")
    every = K.captures_for(duty, "8H")["captures"]
    allowed = [c for c in every if c["allowed"]]
    shown = K.captures_for(duty, "8H", limit=len(allowed) + 2)["captures"]
    assert 0 < len(allowed) < len(every) - 2 and every[0] not in allowed
    assert shown[:len(allowed)] == allowed  # what may be played comes first
    assert shown[len(allowed):] == [c for c in every if not c["allowed"]][:2]


def test_tv_12_groups_are_found_by_the_engine() -> None:
    s = play(at_table(dealt(3), "QH 5C 7D 2H 10S"), 0, "QS", "QH 5C 7D 2H 10S")
    groups = {frozenset(map(str, g)) for g in s.turns[-1].grouping.groups}  # type: ignore[union-attr]
    assert groups == {frozenset({"QH"}), frozenset({"5C", "7D"}), frozenset({"2H", "10S"})}


ILLEGAL = [
    ("TV-2c", "5S 5D 3H", "8C", "5S 5D 3H", {}),
    ("TV-3c", "2C 9D 6H", "2S", "2C 9D 6H", {}),
    ("TV-11-handtable", "AC", "AH", "AC", {"handtable": True}),
    ("TV-13c", "3C 4D 5H 7S", "7H", "3C 4D 5H", {}),
    ("TV-16", "8C 8D 4H", "10H", "8C 8D 4H", {}),
    ("TV-17-fixed", "9D 6H", "2S", "9D 6H", {"fixed": True}),
]


@pytest.mark.parametrize(("tv", "table", "card", "taken", "options"), ILLEGAL, ids=[row[0] for row in ILLEGAL])
def test_cap_4_illegal_captures(tv: str, table: str, card: str, taken: str, options: dict[str, Any]) -> None:
    err = refused_play(at_table(dealt(3, **options), table), 0, card, taken)
    assert err.rule == "KASINO-CAP-4"
    assert err.facts["played"] == card


def test_cap_4_a_table_card_listed_twice() -> None:
    assert refused_play(at_table(dealt(3), "5S 3H"), 0, "8C", "5S 5S 3H").rule == "KASINO-CAP-4"


def test_tv_5_turn_4_cap_5_trailing_is_always_allowed_in_standard_kasino() -> None:
    s = play(at_table(dealt(3), "6D 9C"), 0, "9H")
    assert [str(c) for c in s.table] == ["6D", "9C", "9H"]
    s = play(at_table(dealt(3), "AC"), 0, "AH")  # TV-7 is legal outside misär
    assert len(s.table) == 2


# --- Kasino misär (KASINO-MIS-*) ----------------------------------------------------------------


def test_tv_6_mis_3_mis_4_a_card_that_takes_nothing_is_trailed_and_the_sweep_is_announced() -> None:
    s = at_table(dealt(3, variant="misar"), "7S")
    s = play(s, 0, "4C")
    data = K.to_json(s)
    assert data["sweep_values"] == [{"value": 11, "name": "knekt"}]
    assert "tabbe på knekt" in data["announce"]


def test_tv_7_mis_2_an_ace_cannot_be_trailed_beside_an_ace() -> None:
    err = refused_play(at_table(dealt(3, variant="misar"), "AC"), 0, "AH")
    assert err.rule == "KASINO-MIS-2" and err.facts["must_take_one_of"] == [["AC"]]


def test_tv_13a_mis_2_the_capture_must_be_maximal() -> None:
    err = refused_play(at_table(dealt(3, variant="misar"), "3C 4D 5H 7S"), 0, "7H", "7S")
    assert err.rule == "KASINO-MIS-2"
    assert err.facts["must_take_one_of"] == [["3C", "4D", "7S"]]


@pytest.mark.parametrize("taken", ["", "AC", "9D 5S"])
def test_tv_14_the_full_sweep_is_the_only_legal_move_for_the_ace(taken: str) -> None:
    s = at_table(dealt(3, variant="misar"), "AC 9D 5S")
    assert [v["value"] for v in K.to_json(s)["sweep_values"]] == [14, 15]
    assert refused_play(s, 0, "AH", taken).rule == "KASINO-MIS-2"


def test_tv_15_two_maximal_captures_either_is_legal_but_no_trail() -> None:
    s = at_table(dealt(3, variant="misar"), "2C 9D 6H")
    assert refused_play(s, 0, "2S").rule == "KASINO-MIS-2"
    choices = K.captures_for(s, "2S")
    assert choices["trail_allowed"] is False
    assert sorted(c["capture"] for c in choices["captures"] if c["allowed"]) == [["2C"], ["6H", "9D"]]


def test_amb_6_opt_misar_maxcount_the_capture_must_hold_the_most_cards() -> None:
    s = at_table(dealt(3, variant="misar", misar_maxcount=True), "2C 9D 6H")
    assert refused_play(s, 0, "2S", "2C").rule == "KASINO-OPT-MISAR-MAXCOUNT"
    assert refused_play(s, 0, "2S").rule == "KASINO-MIS-2"
    assert play(s, 0, "2S", "9D 6H").turns[-1].grouping is not None


def test_opt_must_capture_applies_mis_2_but_not_mis_1_in_standard_kasino() -> None:
    s = at_table(dealt(3, must_capture=True), "3C 4D 5H 7S")
    assert refused_play(s, 0, "7H", "7S").rule == "KASINO-OPT-MUST-CAPTURE"
    assert refused_play(at_table(dealt(3, must_capture=True), "AC"), 0, "AH").rule == "KASINO-OPT-MUST-CAPTURE"
    # MIS-1 is not part of it: holding a sweeping card while trailing is fine.
    s = at_table(dealt(3, must_capture=True), "7S")
    s = play(s, 0, "4C")
    s = play(s, 1, "3D")
    s = play(s, 2, "KH")
    s = play(s, 0, "9H")
    s = play(s, 1, "JH", "7S 4C")
    assert s.proposals == ()
    assert K.to_json(s)["sweep_values"] is None


def _ex_3(**options: Any) -> KasinoState:
    """KASINO-EX-3 steps 1–2: A trails 4C on 7S, B trails 3D although JH would sweep 7S 4C."""
    s = at_table(dealt(3, variant="misar", **options), "7S")
    s = play(s, 0, "4C")
    s = play(s, 1, "3D")
    s = play(s, 2, "KH")
    return play(s, 0, "9H")


def test_ex_3_mis_1_mis_5_a_missed_forced_tabbe_is_proposed_as_plus_five() -> None:
    s = _ex_3()
    s = play(s, 1, "JH", "7S 4C")  # this play shows that B held JH at play 2
    data = K.to_json(s)
    assert len(data["proposals"]) == 1
    proposal = data["proposals"][0]
    assert proposal["player"] == 1 and proposal["breach"] == "KASINO-MIS-1" and proposal["rule"] == "KASINO-MIS-5"
    assert proposal["points"] == 5 and proposal["turn"] == 2
    assert proposal["evidence"]["could_sweep_with"] == "JH" and proposal["evidence"]["table"] == ["7S", "4C"]
    assert {"type": "confirm", "proposal": proposal["id"]} in K.hints(s)
    confirmed = K.apply(s, {"type": "confirm", "proposal": proposal["id"]})
    assert confirmed.scores == (0, 5, 0)
    assert [(f.side, f.points, f.rule) for f in confirmed.scored] == [(1, 5, "KASINO-MIS-5")]
    assert K.to_json(confirmed)["proposals"] == []
    dismissed = K.apply(s, {"type": "dismiss", "proposal": proposal["id"]})
    assert dismissed.scores == (0, 0, 0) and dismissed.scored == ()
    assert refused(dismissed, {"type": "confirm", "proposal": proposal["id"]}).rule == "KASINO-MIS-5"
    assert refused(s, {"type": "confirm", "proposal": 99}).rule == "KASINO-MIS-5"


def test_ex_3_amb_7_opt_misar_strict_the_evidence_forces_a_take_back() -> None:
    s = _ex_3(misar_strict=True)
    err = refused_play(s, 1, "JH", "7S 4C")
    assert err.rule == "KASINO-MIS-1" and err.facts["take_back_to"] == 2


def test_ex_3_step_3_the_unique_maximal_capture() -> None:
    s = at_table(dealt(3, variant="misar"), "3C 4D 5H 7S")
    assert K.to_json(s)["sweep_values"] == []
    assert refused_play(s, 0, "7H", "7S").rule == "KASINO-MIS-2"
    s = play(s, 0, "7H", "3C 4D 7S")
    assert [str(c) for c in s.table] == ["5H"] and s.turns[-1].tabbe is False


def test_mis_1_a_breach_is_found_only_from_cards_of_the_same_round() -> None:
    """A card played in a later round was dealt after the turn in question: no evidence."""
    sim = Sim(2, {"variant": "misar"}, random.Random(5))
    sim.adopt(dealt(2, variant="misar"))
    while sim.state.phase == "play":
        sim.play_one()
        for p in sim.state.proposals:
            assert p.evidence["evidence_at_turn"] - 1 < ((p.data["turn"] - 1) // 8 + 1) * 8
    assert sim.state.proposals, "this seed breaks the forced tabbe at least once"


def test_opt_misar_penalty_b_a_short_capture_stands_and_costs_five() -> None:
    s = at_table(dealt(3, variant="misar", misar_penalty_b=True), "3C 4D 5H 7S")
    s = play(s, 0, "7H", "7S")
    assert [str(c) for c in s.table] == ["3C", "4D", "5H"]
    (proposal,) = s.pending
    assert proposal.data["breach"] == "KASINO-MIS-2" and proposal.rule == "KASINO-OPT-MISAR-PENALTY-B"
    s = K.apply(s, {"type": "confirm", "proposal": proposal.id})
    assert s.scores == (5, 0, 0)


def test_amb_8_by_default_a_short_capture_costs_nothing_and_is_refused() -> None:
    s = at_table(dealt(3, variant="misar"), "3C 4D 5H 7S")
    assert refused_play(s, 0, "7H", "7S").rule == "KASINO-MIS-2"
    assert s.scores == (0, 0, 0)


def test_mis_5_the_next_deal_waits_for_pending_penalties() -> None:
    s = _ex_3()
    s = play(s, 1, "JH", "7S 4C")
    sim = Sim(3, {"variant": "misar"}, random.Random(2))
    sim.state = s
    sim.scored_total = list(s.scores)
    used = set(s.seen)
    rest = [c for c in PACK if c not in used]
    # Give every player the rest of this round and the later rounds from the unseen cards.
    counts = {0: 2, 1: 2, 2: 3}
    sim.hands = {p: [rest.pop() for _ in range(k)] for p, k in counts.items()}
    sim.rest = rest
    while sim.state.phase == "play":
        state = sim.state
        if not sim.hands[state.to_act or 0]:
            sim.give_round()
        player, card, capture = sim.choose()
        sim.hands[player].remove(card)
        # K.apply, not sim.apply: the EX-3 position was set by hand, so the pack count is off.
        sim.state = K.apply(state, {"type": "play", "player": player, "card": str(card),
                                    "capture": [str(c) for c in capture]})
    end = sim.state
    assert end.phase == "settling"
    assert refused(end, {"type": "deal", "table": "5D 9S KH AC"}).rule == "KASINO-MIS-5"
    first = end.pending[0]
    assert first.player == 1 and first.data["turn"] == 2  # the second play, shown 1-based
    for p in end.pending:
        end = K.apply(end, {"type": "confirm" if p is first else "dismiss", "proposal": p.id})
    assert end.phase == "between"
    assert end.history[-1].penalties[1] >= 5
    assert end.history[-1].totals == end.scores


def test_mis_7_mis_8_knocked_out_players_leave_and_the_deal_structure_follows_the_new_count() -> None:
    s = replace(dealt(3, variant="misar"), scores=(0, 25, 0))
    sim = Sim(3, {"variant": "misar"}, random.Random(4))
    sim.adopt(s)
    end = sim.finish_deal()
    while end.pending:
        end = K.apply(end, {"type": "dismiss", "proposal": end.pending[0].id})
    assert end.eliminated == (1,) and end.active == (0, 2)
    assert end.history[-1].knocked_out == (1,)
    nxt = K.apply(end, {"type": "deal", "table": "5D 9S KH AC"})
    assert nxt.dealer == 0 and nxt.rounds_total == 6 and nxt.to_act == 2  # 3 → 2 players: six rounds
    data = K.to_json(nxt)
    assert data["hands"] == [4, None, 4] and data["eliminated"] == [1]
    assert refused_play(nxt, 1, "5C").rule == "KASINO-MIS-7"
    nxt = play(nxt, 2, "2H")
    assert nxt.to_act == 0


def test_mis_7_the_last_player_left_wins() -> None:
    s = replace(dealt(2, variant="misar"), scores=(30, 0))
    sim = Sim(2, {"variant": "misar"}, random.Random(8))
    sim.adopt(s)
    end = sim.finish_deal()
    while end.pending:
        end = K.apply(end, {"type": "dismiss", "proposal": end.pending[0].id})
    assert end.over and end.winner == 1 and end.end_rule == "KASINO-MIS-7"
    assert refused(end, {"type": "deal", "table": "5D 9S KH AC"}).rule == "KASINO-MIS-7"


def test_ex_4_mis_9_everyone_left_out_in_one_deal() -> None:
    s = replace(new(3, "tally", variant="misar"), scores=(14, 17, 19))
    s = K.apply(s, {"type": "deal_result", "sides": [
        tally_pile(20, 4, storan=True, aces=2), tally_pile(18, 6, lillan=True, aces=1, tabbes=2),
        tally_pile(14, 3, aces=1)]})
    assert s.summary is not None and s.summary.points == (5, 6, 1) and s.summary.total == 12
    assert s.scores == (19, 23, 20) and s.eliminated == (1,) and not s.over
    assert refused(s, {"type": "deal_result", "sides": [
        tally_pile(20, 5, aces=3), tally_pile(1, 0), tally_pile(31, 8, storan=True, lillan=True, aces=1)]}
    ).rule == "KASINO-MIS-7"
    last = {"type": "deal_result", "sides": [
        tally_pile(20, 5, aces=3), None, tally_pile(32, 8, storan=True, lillan=True, aces=1)]}
    end = K.apply(s, last)
    assert end.summary is not None and end.summary.points == (3, 0, 7)
    assert end.scores == (22, 23, 27) and end.over and end.winner == 0 and end.end_rule == "KASINO-MIS-9"
    # Tied on points (24 each, as the example suggests): fewer spades in that deal wins.
    tied = K.apply(replace(s, scores=(21, 23, 17)), last)
    assert tied.scores == (24, 23, 24) and tied.winner == 0 and tied.end_rule == "KASINO-MIS-9"


def test_mis_9_lowest_wins_and_a_full_tie_is_shared() -> None:
    s = replace(new(2, "tally", variant="misar"), scores=(19, 19))
    end = K.apply(s, {"type": "deal_result", "sides": [
        tally_pile(26, 7, storan=True, aces=1), tally_pile(26, 6, lillan=True, aces=3)]})
    # cards tie; spades A +2; A 2 + 2 + 1 = 5, B 1 + 3 = 4 → 24 / 23, both out, B lower
    assert end.scores == (24, 23) and end.winner == 1 and end.end_rule == "KASINO-MIS-9"
    three = replace(new(3, "tally", variant="misar"), scores=(20, 20, 20))
    end = K.apply(three, {"type": "deal_result", "sides": [
        tally_pile(17, 4, aces=2), tally_pile(17, 4, aces=2), tally_pile(18, 5, storan=True, lillan=True)]})
    # A 2, B 2, C 1 + 2 + 2 + 1 = 6: all out; A and B tie on points and on spades
    assert end.scores == (22, 22, 26) and end.winner == [0, 1] and end.end_rule == "KASINO-MIS-9"


def test_mis_6_amb_11_single_misar_deal_lowest_wins_then_fewest_spades() -> None:
    s = new(3, "tally", variant="misar", single_deal=True)
    end = K.apply(s, {"type": "deal_result", "sides": [
        tally_pile(18, 5, storan=True), tally_pile(18, 4, lillan=True, aces=1), tally_pile(16, 4, aces=3)]})
    assert end.scores == (4, 2, 3) and end.winner == 1 and end.end_rule == "KASINO-MIS-6"
    end = K.apply(s, {"type": "deal_result", "sides": [
        tally_pile(20, 4, aces=2), tally_pile(16, 3, lillan=True, aces=1),
        tally_pile(16, 6, storan=True, aces=1)]})
    # cards A +1; spades C +2; A 1+2 = 3, B 1+1 = 2, C 2+2+1 = 5
    assert end.scores == (3, 2, 5) and end.winner == 1
    end = K.apply(s, {"type": "deal_result", "sides": [
        tally_pile(17, 4, aces=2), tally_pile(17, 3, lillan=True, aces=1), tally_pile(18, 6, storan=True, aces=1)]})
    # cards C +1; spades C +2; A 2, B 2, C 1+2+2+1 = 6; A and B tie, B has fewer spades
    assert end.scores == (2, 2, 6) and end.winner == 1


def test_mis_5_tally_penalty_event() -> None:
    s = new(3, "tally", variant="misar")
    s = K.apply(s, {"type": "penalty", "player": 2})
    assert s.scores == (0, 0, 5) and s.scored[0].rule == "KASINO-MIS-5"
    assert refused(s, {"type": "penalty", "player": 2, "breach": "KASINO-MIS-2"}).rule == "KASINO-MIS-5"
    assert refused(new(3, "tally"), {"type": "penalty", "player": 0}).rule == "KASINO-MIS-5"
    s = K.apply(s, {"type": "deal_result", "sides": [
        tally_pile(18, 5, storan=True), tally_pile(18, 4, lillan=True, aces=1), tally_pile(16, 4, aces=3)]})
    assert s.history[-1].penalties == (0, 0, 5) and s.history[-1].totals == (4, 2, 8)


# --- Dragkasino (KASINO-DRAG-*) ----------------------------------------------------------------


@pytest.mark.parametrize(("n", "stock"), [(2, 40), (3, 36), (4, 32)])
def test_drag_1_4_the_stock_and_ex_5(n: int, stock: int) -> None:
    s = dealt(n, variant="drag")
    data = K.to_json(s)
    assert data["stock"] == stock and data["hands"] == [4] * n and data["round"] is None
    sim = Sim(n, {"variant": "drag"}, random.Random(n))
    sim.adopt(s)
    while sim.state.stock:
        sim.play_one()
        assert K.to_json(sim.state)["hands"] == [4] * n or sim.state.stock == 0
    assert len(sim.state.turns) == stock and K.to_json(sim.state)["hands"] == [4] * n
    assert sim.state.is_last_round and "sistan" in sim.state.announce
    end = sim.finish_deal()
    assert end.summary is not None and len(end.turns) == 48
    assert {end.turns[i].player for i in range(48)} == set(range(n))
    assert all(sum(1 for t in end.turns if t.player == p) == 48 // n for p in range(n))


def test_drag_2_players_draw_only_in_dragkasino_and_draws_may_be_entered() -> None:
    assert refused_play(dealt(2, "5D 9S KH AC"), 0, "2H", draw="3H").rule == "KASINO-DRAG-2"
    s = dealt(2, "5D 9S KH AC", variant="drag")
    s = play(s, 0, "2H", draw="3H")
    assert s.stock == 39 and K.to_json(s)["known_hands"] == [["3H"], []]
    assert refused_play(s, 1, "3H").rule == "KASINO-COMP-1"  # player 0 holds it
    assert refused_play(s, 1, "4H", draw="2H").rule == "KASINO-COMP-1"
    s = play(s, 1, "4H")
    s = play(s, 0, "3H")  # a card known to be in one's own hand may of course be played
    assert K.to_json(s)["known_hands"] == [[], []]


def test_drag_3_nothing_is_drawn_once_the_stock_is_empty() -> None:
    sim = Sim(4, {"variant": "drag"}, random.Random(1))
    sim.adopt(dealt(4, variant="drag"))
    while sim.state.stock:
        sim.play_one()
    s = sim.state
    free = unseen_cards(s)
    player = s.to_act
    assert player is not None
    card = str(sim.hands[player][0])
    other = next(c for c in free if c != card)
    assert refused_play(s, player, card, draw=other).rule == "KASINO-DRAG-3"


def _drag_misar_known_draw(**options: Any) -> KasinoState:
    s = dealt(2, "KC QC JC 9C", variant="drag", drag_misar=True, **options)
    s = play(s, 0, "2D", draw="JH")  # player 0 draws the jack and says so
    s = play(s, 1, "3D")
    return at_table(s, "7S 4C")


def test_drag_5_opt_drag_misar_a_known_draw_shows_a_missed_tabbe_at_once() -> None:
    s = play(_drag_misar_known_draw(), 0, "2H")
    (proposal,) = s.pending
    assert proposal.player == 0 and proposal.data["turn"] == 3 and proposal.evidence["could_sweep_with"] == "JH"
    err = refused_play(_drag_misar_known_draw(misar_strict=True), 0, "2H")
    assert err.rule == "KASINO-MIS-1" and err.facts["take_back_to"] == 3


def test_drag_5_unentered_draws_hide_the_hand_until_the_stock_is_empty() -> None:
    s = dealt(2, "KC QC JC 9C", variant="drag", drag_misar=True)
    s = play(s, 0, "2D")  # draws, but the card is not entered
    s = play(s, 1, "3D")
    s = at_table(s, "7S 4C")
    s = play(s, 0, "2H")
    s = play(s, 1, "3H")
    s = play(s, 0, "JH", "7S 4C")  # was JH in hand two plays ago, or drawn since? Nobody knows.
    assert s.pending == ()


def test_drag_5_misar_capture_duty_applies_in_the_draw_form() -> None:
    s = at_table(dealt(2, variant="drag", drag_misar=True), "AC")
    assert refused_play(s, 0, "AH").rule == "KASINO-MIS-2"


# --- scoring (KASINO-SCORE-*) and the worked examples ---------------------------------------------


def test_ex_1_score_1_score_2_two_player_deal() -> None:
    s = new(2, "tally")
    a = tally_pile(28, 8, storan=True, aces=2, tabbes=1)
    b = tally_pile(24, 5, lillan=True, aces=2, tabbes=2)
    end = K.apply(s, {"type": "deal_result", "sides": [a, b]})
    assert end.scores == (8, 5)
    summary = K.to_json(end)["summary"]
    cats = {c["what"]: c for c in summary["categories"]}
    assert cats["most_cards"]["rule"] == cats["most_spades"]["rule"] == "KASINO-SCORE-1"
    assert {f.rule for f in end.scored} >= {"KASINO-SCORE-1", "KASINO-COMP-4", "KASINO-TURN-5"}
    assert cats["most_cards"]["winner"] == 0 and cats["most_spades"]["points"] == [2, 0]
    assert cats["storan"]["winner"] == 0 and cats["lillan"]["winner"] == 1
    assert cats["aces"]["points"] == [2, 2] and cats["tabbes"]["points"] == [1, 2]
    assert summary["total"] == 13 and "sistan" not in cats
    with_sistan = K.apply(new(2, "tally", sistan=True), {"type": "deal_result", "sides": [a, {**b, "sistan": True}]})
    assert with_sistan.scores == (8, 6) and with_sistan.summary is not None and with_sistan.summary.total == 14


def test_ex_2_end_2_end_3_tie_on_cards_game_end_and_spade_tie_break() -> None:
    s = replace(new(3, "tally"), scores=(12, 14, 9))
    end = K.apply(s, {"type": "deal_result", "sides": [
        tally_pile(18, 5, storan=True), tally_pile(18, 4, lillan=True, aces=1), tally_pile(16, 4, aces=3)]})
    assert end.summary is not None
    cats = {c.what: c for c in end.summary.categories}
    assert cats["most_cards"].tied == (0, 1) and cats["most_cards"].lost == 1
    assert end.summary.total == 9
    assert end.scores == (16, 16, 12) and end.over and end.winner == 0 and end.end_rule == "KASINO-END-3"
    assert refused(end, {"type": "deal_result", "sides": [tally_pile(52, 13, True, True, 4)] * 3}).rule \
        == "KASINO-END-2"


def test_amb_3_standard_shared_win() -> None:
    s = replace(new(3, "tally"), scores=(14, 14, 0))
    end = K.apply(s, {"type": "deal_result", "sides": [
        tally_pile(17, 5, aces=2), tally_pile(17, 5, aces=2), tally_pile(18, 3, storan=True, lillan=True)]})
    # spades tie (5, 5): nobody; cards C +1; A 2, B 2, C 1 + 2 + 1
    assert end.scores == (16, 16, 4) and end.winner == [0, 1]
    assert K.outcome(end) is not None and K.to_json(end)["winner"] == [0, 1]


def test_end_1_single_deal() -> None:
    end = trail_everything(dealt(2, single_deal=True))
    assert end.over and end.end_rule == "KASINO-END-1" and end.winner == [0, 1]


def test_end_2_every_started_deal_is_finished_first() -> None:
    s = dealt(2)
    assert refused(s, {"type": "deal", "table": "5D 9S KH AC"}).rule == "KASINO-END-2"


def test_end_2_nothing_is_played_after_the_game_is_over() -> None:
    sim = Sim(2, {}, random.Random(9))
    end = sim.play_game()
    assert refused(end, {"type": "deal", "table": "5D 9S KH AC"}).rule == "KASINO-END-2"
    assert refused(end, {"type": "play", "player": 0, "card": "5D"}).rule == "KASINO-END-2"
    assert K.outcome(end) is not None and K.to_json(end)["to_act"] is None


def test_score_1_adjudicated_deal_counts_the_piles() -> None:
    sim = Sim(3, {"sistan": True}, random.Random(21))
    sim.adopt(dealt(3, sistan=True))
    end = sim.finish_deal()
    assert end.summary is not None
    facts = end.summary.facts
    for p in range(3):
        cards = end.piles[p].cards
        f = facts[p]
        assert f is not None
        assert f.cards == len(cards) and f.spades == sum(c.suit == "S" for c in cards)
        assert f.storan == (Card("10", "D") in cards) and f.aces == sum(c.rank == "A" for c in cards)
        assert f.sistan == (p == end.last_capturer)
    assert end.summary.total == 11 + sum(f.tabbes for f in facts if f) - end.summary.lost
    row = K.to_json(end)["history"][-1]
    assert row["points"] == list(end.summary.points) and row["totals"] == list(end.scores)


@pytest.mark.parametrize(("options", "cards_to", "spades_to"), [
    ({"pairs": True}, 1, 0),                              # pooled: B/D 27 > A/C 25
    ({"pairs": True, "pairs_individual": True}, 0, 0),    # individual: A's 16 is the biggest pile
])
def test_ex_7_score_3_amb_2_partnership_pooling(options: dict[str, Any], cards_to: int, spades_to: int) -> None:
    s = new(4, "tally", **options)
    piles = [tally_pile(16, 4, storan=True, aces=1), tally_pile(14, 3, lillan=True, aces=1),
             tally_pile(9, 3, aces=1), tally_pile(13, 3, aces=1)]
    end = K.apply(s, {"type": "deal_result", "players": piles})
    assert end.summary is not None
    cats = {c.what: c for c in end.summary.categories}
    assert cats["most_cards"].winner == cards_to and cats["most_spades"].winner == spades_to
    assert len(end.scores) == 2 and sum(end.scores) == 10


def test_opt_pairs_individual_needs_each_players_pile_in_tally() -> None:
    s = new(4, "tally", pairs=True, pairs_individual=True)
    err = refused(s, {"type": "deal_result", "sides": [tally_pile(26, 7, True, False, 2),
                                                       tally_pile(26, 6, False, True, 2)]})
    assert err.rule == "KASINO-OPT-PAIRS-INDIVIDUAL"


def test_score_3_pooled_partnership_tally_by_side() -> None:
    s = new(4, "tally", pairs=True)
    end = K.apply(s, {"type": "deal_result", "sides": [tally_pile(25, 7, True, False, 2),
                                                       tally_pile(27, 6, False, True, 2, tabbes=1)]})
    assert end.scores == (2 + 2 + 2, 1 + 1 + 2 + 1)


@pytest.mark.parametrize(("sides", "rule"), [
    ([tally_pile(27, 7, True, False, 2), tally_pile(24, 6, False, True, 2)], "KASINO-SCORE-2"),
    ([tally_pile(28, 7, True, False, 2), tally_pile(24, 5, False, True, 2)], "KASINO-SCORE-2"),
    ([tally_pile(28, 8, True, False, 2), tally_pile(24, 5, False, True, 1)], "KASINO-COMP-4"),
    ([tally_pile(28, 8, True, False, 2), tally_pile(24, 5, True, True, 2)], "KASINO-COMP-4"),
    ([tally_pile(28, 8, False, False, 2), tally_pile(24, 5, False, True, 2)], "KASINO-COMP-4"),
    ([tally_pile(28, 8, True, False, 2), tally_pile(24, 0, False, True, 2)], "KASINO-SCORE-2"),
    ([tally_pile(4, 8, True, False, 2), tally_pile(48, 5, False, True, 2)], "KASINO-SCORE-2"),
    ([tally_pile(3, 2, True, False, 2), tally_pile(49, 11, False, True, 2)], "KASINO-SCORE-2"),
    ([tally_pile(28, 8, True, False, 2, tabbes=15), tally_pile(24, 5, False, True, 2)], "KASINO-TURN-5"),
    ([tally_pile(28, 8, True, False, 2, sistan=True), tally_pile(24, 5, False, True, 2)], "KASINO-OPT-SISTAN"),
])
def test_score_2_tally_facts_must_be_consistent(sides: list[dict[str, Any]], rule: str) -> None:
    assert refused(new(2, "tally"), {"type": "deal_result", "sides": sides}).rule == rule


def test_opt_sistan_tally_needs_exactly_one_last_capture() -> None:
    s = new(2, "tally", sistan=True)
    sides = [tally_pile(28, 8, True, False, 2), tally_pile(24, 5, False, True, 2)]
    assert refused(s, {"type": "deal_result", "sides": sides}).rule == "KASINO-OPT-SISTAN"


def test_tally_all_empty_piles_is_the_no_capture_deal() -> None:
    end = K.apply(new(2, "tally"), {"type": "deal_result", "sides": [tally_pile(0, 0), tally_pile(0, 0)]})
    assert end.scores == (0, 0) and end.summary is not None and end.summary.lost == 3


def test_tally_malformed_piles() -> None:
    s = new(2, "tally")
    bad: dict[str, Any]
    for bad in ({"type": "deal_result", "sides": [tally_pile(52, 13, True, True, 4)]},
                {"type": "deal_result", "sides": [{"cards": -1}, {}]},
                {"type": "deal_result", "sides": [{"cards": 26, "storan": "yes"}, {}]},
                {"type": "deal_result", "sides": [{"cards": 26, "hearts": 3}, {}]},
                {"type": "deal_result", "sides": [None, {}]}):
        with pytest.raises(MalformedEvent):
            K.apply(s, bad)
    with pytest.raises(MalformedEvent):
        K.apply(s, {"type": "play", "player": 0, "card": "5D"})


def test_tally_dealer_rotates() -> None:
    s = K.apply(new(3, "tally"), {"type": "draw_dealer", "cards": ["2C", "KD", "3H"]})
    pile = {"type": "deal_result", "sides": [tally_pile(18, 5, storan=True), tally_pile(18, 4, lillan=True, aces=1),
                                             tally_pile(16, 4, aces=3)]}
    s = K.apply(s, pile)
    assert s.dealer == 1 and K.to_json(s)["next_dealer"] == 2
    assert refused(s, {**pile, "dealer": 1}).rule == "KASINO-DEAL-2"


# --- no tabbe point in the last round (KASINO-OPT-NO-LAST-TABBE, KASINO-AMB-4) ------------------------


def _tabbe_in_last_round(**options: Any) -> KasinoState:
    sim = Sim(4, options, random.Random(12))
    sim.adopt(dealt(4, **options))
    last = 32 if not options.get("variant") else sim.state.stock_start
    while len(sim.state.turns) < last:
        sim.play_one()
    s = sim.state
    assert s.is_last_round
    free = [Card.parse(c) for c in unseen_cards(s)]
    card, table = next((a, t) for a in free for t in combinations([c for c in free if c != a], 2)
                       if find_grouping(a, t, s.cfg.scheme))
    s = replace(s, table=table, seen=s.seen | set(table))
    return play(s, s.to_act or 0, str(card), " ".join(map(str, table)))


@pytest.mark.parametrize("variant", [{}, {"variant": "drag"}])
def test_opt_no_last_tabbe_and_amb_4(variant: dict[str, Any]) -> None:
    counted = _tabbe_in_last_round(**variant)
    assert counted.turns[-1].tabbe and counted.turns[-1].tabbe_scores
    skipped = _tabbe_in_last_round(no_last_tabbe=True, **variant)
    turn = skipped.turns[-1]
    assert turn.tabbe and not turn.tabbe_scores
    assert skipped.piles[turn.player].sweeps > skipped.piles[turn.player].tabbes


# --- the claim (KASINO-VAR-CLAIM, KASINO-OPT-CLAIM-TABBE, KASINO-AMB-5, KASINO-AMB-13) ---------------


def _claim_game(**options: Any) -> KasinoState:
    s = replace(new(2, claim=True, **options), scores=(13, 4))
    return K.apply(s, {"type": "deal", "dealer": 1, "table": "KC QC JC 9C"})


def test_ex_6_var_claim_only_settled_points_and_the_claim_wins_at_once() -> None:
    s = at_table(_claim_game(), "10D 5H")
    s = play(s, 0, "10H", "10D")  # storan: 13 + 2 = 15
    assert K.to_json(s)["claimable"] == [15, 4]
    assert refused(s, {"type": "claim", "player": 0}).rule == "KASINO-VAR-CLAIM"
    s = play(at_table(s, "AC 5H"), 1, "9S")
    s = play(s, 0, "6C", "AC 5H")  # an Ace: 16
    assert {"type": "claim", "player": 0} in K.hints(s)
    won = K.apply(s, {"type": "claim", "player": 0})
    assert won.over and won.winner == 0 and won.scores == (16, 4) and won.end_rule == "KASINO-VAR-CLAIM"
    assert won.scored[0].points == 3 and won.history[-1].note == "claim"
    assert refused(won, {"type": "play", "player": 1, "card": "2C"}).rule == "KASINO-END-2"


def test_amb_5_opt_claim_tabbe_tabbes_count_only_with_the_option() -> None:
    plain = play(at_table(_claim_game(), "10D"), 0, "10H", "10D")  # storan and a tabbe
    assert K.to_json(plain)["claimable"][0] == 15
    with_tabbe = play(at_table(_claim_game(claim_tabbe=True), "10D"), 0, "10H", "10D")
    assert K.to_json(with_tabbe)["claimable"][0] == 16
    assert K.apply(with_tabbe, {"type": "claim", "player": 0}).winner == 0


def test_var_claim_is_refused_without_the_option_and_between_deals() -> None:
    assert refused(dealt(2), {"type": "claim", "player": 0}).rule == "KASINO-VAR-CLAIM"
    s = replace(new(2, claim=True), scores=(20, 0))
    assert refused(s, {"type": "claim", "player": 0}).rule == "KASINO-VAR-CLAIM"


def test_amb_13_auto_claim_ends_the_game_the_moment_the_total_reaches_16() -> None:
    s = at_table(_claim_game(auto_claim=True), "10D AC 5H")
    s = play(s, 0, "10H", "10D")
    assert not s.over
    s = play(s, 1, "9S")
    s = play(s, 0, "6C", "AC 5H")
    assert s.over and s.winner == 0 and s.end_rule == "KASINO-AMB-13"


def test_var_claim_in_tally_mode_uses_the_entered_settled_points() -> None:
    s = replace(new(2, "tally", claim=True), scores=(13, 0))
    assert refused(s, {"type": "claim", "player": 0, "storan": True}).rule == "KASINO-VAR-CLAIM"
    won = K.apply(s, {"type": "claim", "player": 0, "storan": True, "aces": 1})
    assert won.over and won.scores == (16, 0)


# --- misdeal (KASINO-AMB-12) ----------------------------------------------------------------------


def test_amb_12_misdeal_same_dealer_deals_again_no_score() -> None:
    assert refused(new(2), {"type": "misdeal"}).rule == "KASINO-AMB-12"
    s = play(dealt(3, "5D 9S KH AC"), 0, "5C", "5D")
    s = K.apply(s, {"type": "misdeal"})
    assert s.phase == "between" and s.scores == (0, 0, 0) and s.deal_no == 0
    assert K.to_json(s)["next_dealer"] == 2
    assert refused(s, {"type": "deal", "dealer": 0, "table": "5D 9S KH AC"}).rule == "KASINO-AMB-12"
    s = K.apply(s, {"type": "deal", "table": "5D 9S KH AC"})
    assert s.dealer == 2 and s.deal_no == 1 and s.piles[0].cards == ()


def test_amb_12_misdeal_voids_penalties_of_that_deal() -> None:
    s = _ex_3()
    s = play(s, 1, "JH", "7S 4C")
    s = K.apply(s, {"type": "confirm", "proposal": s.pending[0].id})
    assert s.scores == (0, 5, 0)
    s = K.apply(s, {"type": "misdeal"})
    assert s.scores == (0, 0, 0) and s.scored[0].points == -5
    assert [p.status for p in s.proposals] == ["void"]


# --- events, hints and JSON --------------------------------------------------------------------


def test_malformed_events_and_bad_notation() -> None:
    s = dealt(2)
    for bad in ({"type": "shuffle"}, {"player": 0}, {"type": "play", "player": 0},
                {"type": "play", "player": 7, "card": "5D"}, {"type": "play", "player": 0, "card": "5H",
                                                              "capture": 5},
                {"type": "confirm"}, {"type": "draw_dealer", "cards": "KH"}):
        with pytest.raises(MalformedEvent):
            K.apply(s, bad)
    with pytest.raises(NotationError):
        K.apply(s, {"type": "play", "player": 0, "card": "1Z"})
    with pytest.raises(MalformedEvent):
        K.apply(s, "play")  # type: ignore[arg-type]


def test_state_json_has_every_screen_field() -> None:
    s = play(dealt(3, "5D 9S KH AC"), 0, "5C", "5D")
    data = K.to_json(s)
    for key in ("scores", "over", "winner", "to_act", "table", "dealer", "round", "rounds_total",
                "is_last_round", "unseen", "piles", "history", "eliminated", "proposals", "stock",
                "last_move", "summary", "sides", "hands", "announce", "phase"):
        assert key in data
    assert data["to_act"] == 1 and data["dealer"] == 2 and data["forehand"] == 0
    assert data["last_move"]["describe"].startswith("5♣ as 5 takes 5♦")
    assert data["piles"][0] == {"cards": 2, "spades": 0, "storan": False, "lillan": False, "aces": 0,
                                "tabbes": 0, "sistan": False}
    assert data["hands"] == [3, 4, 4] and data["unseen_count"] == 47
    assert sum(data["unseen"].values()) == 47


def test_describe_lines() -> None:
    names = ["Anna", "Bo"]
    assert K.describe({"type": "play", "player": 1, "card": "5C", "capture": ["5D"]}, names) == \
        "Bo plays 5♣ and takes 5♦"
    assert K.describe({"type": "play", "player": 0, "card": "5C"}, names) == "Anna plays 5♣ (trail)"
    assert K.describe({"type": "deal", "dealer": 0, "table": ["5D", "9S"]}, names) == "Anna deals; table 5♦ 9♠"
    assert "confirm" in K.describe({"type": "confirm", "proposal": 2}, names)


def test_registered() -> None:
    from scorekeeper.engine import RULES

    assert isinstance(RULES["kasino"], Kasino)
