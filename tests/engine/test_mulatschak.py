"""Mulatschak: every rule id, test vector and worked example of rules/mulatschak.md.

Seats are A=0, B=1, C=2, D=3 as in the spec's examples. Unless a test says otherwise the first
dealer is A (0): the cutter is D (3), forehand is B (1) and the bidding goes B, C, D, A.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from scorekeeper.cards import Card, NotationError, parse_cards
from scorekeeper.engine import RULES
from scorekeeper.engine.base import MalformedEvent, RuleViolation, SetupError
from scorekeeper.engine.mulatschak import ORDER, Mulatschak, MulState, Opts, deal_changes, resume
from scorekeeper.engine.tricks import legal_cards, trick_winner

R = Mulatschak()
NAMES = ["A", "B", "C", "D", "E", "F"]
Event = dict[str, Any]


# --- helpers ---------------------------------------------------------------------------------


def new(n: int = 4, mode: str = "adjudicate", **options: Any) -> MulState:
    return R.new(NAMES[:n], options, mode)  # type: ignore[arg-type]


def run(state: MulState, *events: Mapping[str, Any]) -> MulState:
    for event in events:
        state = R.apply(state, event)
    return state


def rule(state: MulState, event: Mapping[str, Any]) -> str | None:
    with pytest.raises(RuleViolation) as exc:
        R.apply(state, event)
    return exc.value.rule


def js(state: MulState) -> dict[str, Any]:
    return R.to_json(state)


def deal(state: MulState) -> dict[str, Any]:
    data = js(state)["deal"]
    assert isinstance(data, dict)
    return data


def cut(p: int, weli: bool = False) -> Event:
    return {"type": "cut", "player": p, "weli": weli}


def knock(p: int, weli: bool = False) -> Event:
    return {"type": "knock", "player": p, "weli": weli}


def bid(p: int, n: int) -> Event:
    return {"type": "bid", "player": p, "tricks": n}


def pas(p: int) -> Event:
    return {"type": "pass", "player": p}


def hold(p: int) -> Event:
    return {"type": "hold", "player": p}


def trump(p: int, suit: str) -> Event:
    return {"type": "trump", "player": p, "suit": suit}


def join(p: int) -> Event:
    return {"type": "join", "player": p}


def home(p: int) -> Event:
    return {"type": "stay_home", "player": p}


def exch(p: int, count: int) -> Event:
    return {"type": "exchange", "player": p, "count": count}


def play(p: int, card: str) -> Event:
    return {"type": "play", "player": p, "card": card}


def hand(p: int, cards: str) -> Event:
    return {"type": "hand", "player": p, "cards": cards.split()}


def tricks(*rows: Iterable[tuple[int, str]]) -> list[Event]:
    return [play(p, c) for row in rows for p, c in row]


def to_trump(state: MulState | None = None) -> MulState:
    """Dealer A: B bids 2, the rest pass: B (1) is declarer for 2."""
    state = state or new()
    if deal(state)["phase"] == "cut":
        state = run(state, cut(3))
    return run(state, bid(1, 2), pas(2), pas(3), pas(0))


def to_play(suit: str = "E", state: MulState | None = None) -> MulState:
    """…B names ``suit``; everyone plays and keeps their cards; B leads."""
    s = run(to_trump(state), trump(1, suit))
    if suit != "H":
        s = run(s, join(2), join(3), join(0))
    return run(s, exch(1, 0), exch(2, 0), exch(3, 0), exch(0, 0))


# Trump E, B declarer for 2. C revokes at trick 1 (AE on a Schelle lead, KS played at trick 2),
# then takes every trick.
REVOKE_DEAL = [
    [(1, "9S"), (2, "AE"), (3, "7S"), (0, "8S")],
    [(2, "KS"), (3, "7L"), (0, "UH"), (1, "7H")],
    [(2, "AL"), (3, "8L"), (0, "OH"), (1, "8H")],
    [(2, "KL"), (3, "9L"), (0, "KH"), (1, "9H")],
    [(2, "OL"), (3, "10L"), (0, "AH"), (1, "10H")],
]


# --- set-up and components --------------------------------------------------------------------


def test_registered() -> None:
    assert isinstance(RULES["mulatschak"], Mulatschak)


@pytest.mark.parametrize("n", [1, 7])
def test_comp_4_player_count(n: int) -> None:
    with pytest.raises(SetupError) as exc:
        R.new(["x"] * n, {})
    assert exc.value.rule == "MULAT-COMP-4"


def test_comp_4_no_partnerships() -> None:
    with pytest.raises(SetupError) as exc:
        R.new(NAMES[:4], {"teams": [[0, 2], [1, 3]]})
    assert exc.value.rule == "MULAT-COMP-4"


def test_options_are_checked() -> None:
    with pytest.raises(SetupError) as exc:
        new(stayhome_flat=True, stayhome_free=True)
    assert exc.value.rule == "MULAT-OPT-STAYHOME-FREE"
    with pytest.raises(SetupError) as exc:
        new(exch_limit=6)
    assert exc.value.rule == "MULAT-OPT-EXCH-LIMIT"
    with pytest.raises(SetupError):
        new(reshuffle="yes")
    with pytest.raises(SetupError):
        new(unknown=True)


def test_comp_5_everyone_starts_on_21() -> None:
    data = js(new(5))
    assert data["scores"] == [21] * 5 and data["start"] == 21 and data["over"] is False


@pytest.mark.parametrize("n, stock", [(2, 23), (3, 18), (4, 13), (5, 8), (6, 3)])
def test_comp_4_deal_6_stock_after_the_deal(n: int, stock: int) -> None:
    assert deal(new(n))["stock"] == stock
    assert deal(new(n, pack36=True))["stock"] == stock + 3


def test_comp_1_card_outside_the_pack() -> None:
    s = to_play()
    assert rule(s, play(1, "6H")) == "MULAT-COMP-1"
    s36 = to_play(state=new(pack36=True))
    assert deal(run(s36, play(1, "6H")))["tricks"][0]["cards"] == [{"player": 1, "card": "6H"}]


def test_comp_3_schellen_six_is_the_weli() -> None:
    assert rule(to_play(), play(1, "6S")) == "MULAT-COMP-3"
    assert rule(to_play(state=new(pack36=True)), play(1, "6S")) == "MULAT-COMP-3"


def test_comp_1_card_seen_twice() -> None:
    s = run(to_play(), play(1, "AS"))
    assert rule(s, play(2, "AS")) == "MULAT-COMP-1"
    # The kept Weli is in the cutter's hand: nobody else can play it.
    s = to_play(state=run(new(), cut(3, weli=True)))
    assert deal(s)["weli_to"] == 3
    assert rule(s, play(1, "W")) == "MULAT-COMP-1"


def test_bad_notation_and_malformed_events() -> None:
    s = to_play()
    with pytest.raises(NotationError):
        R.apply(s, play(1, "ZZ"))
    with pytest.raises(MalformedEvent):
        R.apply(s, {"type": "play", "player": 1})
    with pytest.raises(MalformedEvent):
        R.apply(s, {"type": "teleport"})
    with pytest.raises(MalformedEvent):
        R.apply(s, {"type": "play", "player": 9, "card": "AS"})
    with pytest.raises(MalformedEvent):
        R.apply(new(mode="tally"), play(1, "AS"))


def test_apply_never_mutates() -> None:
    s = to_play()
    before = js(s)
    with pytest.raises(RuleViolation):
        R.apply(s, play(2, "AS"))
    R.apply(s, play(1, "AS"))
    assert js(s) == before


# --- dealing ----------------------------------------------------------------------------------


def test_deal_1_first_dealer_and_rotation() -> None:
    s = run(new(), {"type": "dealer", "player": 2})
    assert js(s)["dealer"] == 2 and deal(s)["cutter"] == 1 and deal(s)["forehand"] == 3
    s = run(s, cut(1))
    assert rule(s, {"type": "dealer", "player": 0}) == "MULAT-DEAL-1"
    s = to_trump()
    s = run(s, trump(1, "H"), exch(1, 0), exch(2, 0), exch(3, 0), exch(0, 0))
    s = run(s, *tricks([(1, "AH"), (2, "7H"), (3, "8H"), (0, "9H")]), *tricks(
        [(1, "KH"), (2, "7S"), (3, "8S"), (0, "9S")], [(1, "OH"), (2, "7L"), (3, "8L"), (0, "9L")],
        [(1, "UH"), (2, "7E"), (3, "8E"), (0, "9E")], [(1, "10H"), (2, "10S"), (3, "10L"), (0, "10E")]))
    assert js(s)["dealer"] == 1 and deal(s)["number"] == 2 and deal(s)["cutter"] == 0


def test_deal_2_only_the_cutter_cuts_once() -> None:
    assert rule(new(), cut(1)) == "MULAT-DEAL-2"
    assert rule(new(), knock(2)) == "MULAT-DEAL-2"
    assert rule(run(new(), cut(3)), cut(3)) == "MULAT-DEAL-2"


def test_deal_2_cut_may_be_left_out() -> None:
    s = run(new(), bid(1, 2))
    assert deal(s)["cut"] == "cut" and deal(s)["high_bid"] == 2


def test_deal_3_weli_kept_at_the_cut_belongs_in_the_collapse_hand() -> None:
    s = run(new(), cut(3, weli=True))
    event = {"type": "collapse", "player": 3, "cards": ["7S", "8L", "9E", "10H", "10L"]}
    assert rule(s, event) == "MULAT-DEAL-3"
    assert rule(s, hand(3, "7S 8L 9E 10H 10L")) == "MULAT-DEAL-3"
    assert deal(run(s, hand(3, "W 8L 9E 10H 10L")))["hands_entered"] == [False, False, False, True]


def test_deal_4_knock_doubles_and_may_be_forbidden() -> None:
    s = run(new(), knock(3))
    assert deal(s)["cut"] == "knock" and deal(s)["multiplier"] == 2 and deal(s)["causes"] == ["knock"]
    assert rule(new(no_knock=True), knock(3)) == "MULAT-OPT-NO-KNOCK"
    s = run(new(), knock(3, weli=True))
    assert deal(s)["weli_to"] == 3


def test_deal_7_collapse_redeals_with_the_same_dealer_and_doubles() -> None:
    s = run(new(), cut(3), {"type": "collapse", "player": 2, "cards": ["7S", "8L", "9E", "10H", "10L"]})
    d = deal(s)
    assert (d["phase"], d["dealer"], d["collapses"], d["multiplier"], d["number"]) == ("cut", 0, 1, 2, 1)
    assert js(s)["sheet"] == []   # MULAT-SCORE-8: a collapsed deal scores nothing
    s = run(s, cut(3), {"type": "collapse", "player": 1, "cards": ["7H", "8H", "9H", "10E", "7E"]})
    assert deal(s)["multiplier"] == 4 and deal(s)["causes"] == ["collapse", "collapse"]
    capped = run(new(collapse_cap=True), cut(3),
                 {"type": "collapse", "player": 2, "cards": ["7S", "8L", "9E", "10H", "10L"]}, cut(3),
                 {"type": "collapse", "player": 1, "cards": ["7H", "8H", "9H", "10E", "7E"]})
    assert deal(capped)["multiplier"] == 2


def test_deal_7_only_a_weak_hand_collapses() -> None:
    s = run(new(), cut(3))
    assert rule(s, {"type": "collapse", "player": 2, "cards": ["7S", "8L", "9E", "10H", "UL"]}) == "MULAT-DEAL-7"
    assert rule(s, {"type": "collapse", "player": 2, "cards": ["7S", "8L", "9E", "10H"]}) == "MULAT-DEAL-7"
    # MULAT-AMB-3: the Weli saves the hand, unless MULAT-OPT-WELI-WEAK.
    weli_hand = {"type": "collapse", "player": 2, "cards": ["7S", "8L", "9E", "10H", "W"]}
    assert rule(s, weli_hand) == "MULAT-DEAL-7"
    assert deal(run(new(weli_weak=True), cut(3), weli_hand))["collapses"] == 1


def test_deal_7_too_late_after_the_bidding_started() -> None:
    s = run(new(), cut(3), bid(1, 2))
    assert rule(s, {"type": "collapse", "player": 2, "cards": ["7S", "8L", "9E", "10H", "10L"]}) == "MULAT-DEAL-7"


def test_deal_7_collapse_is_compulsory_for_an_entered_weak_hand() -> None:
    s = run(new(), cut(3), hand(2, "7S 8L 9E 10H 10L"))
    assert rule(s, bid(1, 2)) == "MULAT-DEAL-7"
    assert R.hints(s) == [{"type": "collapse", "player": 2, "cards": ["7S", "8L", "9E", "10H", "10L"]}]
    assert rule(s, {"type": "muli", "player": 1}) == "MULAT-DEAL-7"
    # MULAT-OPT-COLLAPSE-OPTIONAL: a weak hand may be kept.
    s = run(new(collapse_optional=True), cut(3), hand(2, "7S 8L 9E 10H 10L"), bid(1, 2))
    assert deal(s)["high_bid"] == 2
    # The shown hand must be the entered one.
    s = run(new(), cut(3), hand(2, "7S 8L 9E 10H 10L"))
    assert rule(s, {"type": "collapse", "player": 2, "cards": ["7H", "8L", "9E", "10H", "10L"]}) == "MULAT-DEAL-7"


def test_deal_7_collapse_beats_a_muli() -> None:
    s = run(new(), cut(3), {"type": "muli", "player": 1})
    assert deal(s)["contract"] == 5
    s = run(s, {"type": "collapse", "player": 2, "cards": ["7S", "8L", "9E", "10H", "10L"]})
    assert deal(s)["phase"] == "cut" and deal(s)["collapses"] == 1 and deal(s)["declarer"] is None
    # …and an entered weak hand blocks naming trumps for the Muli.
    s = run(new(), cut(3), hand(2, "7S 8L 9E 10H 10L"))
    with pytest.raises(RuleViolation):
        R.apply(s, {"type": "muli", "player": 1})


# --- bidding ----------------------------------------------------------------------------------


def test_bid_1_range_and_zero_is_pass() -> None:
    s = run(new(), cut(3))
    assert rule(s, bid(1, 6)) == "MULAT-BID-1"
    s = run(s, bid(1, 0))
    assert deal(s)["bids"] == [{"player": 1, "call": "pass", "tricks": 0}] and deal(s)["to_act"] == 2


def test_bid_2_order_starts_at_forehand() -> None:
    s = run(new(), cut(3))
    assert js(s)["to_act"] == 1
    assert rule(s, bid(2, 2)) == "MULAT-BID-2"
    assert rule(run(s, bid(1, 2)), bid(3, 3)) == "MULAT-BID-2"


def test_bid_3_must_raise_and_passing_is_final() -> None:
    s = run(new(), cut(3), bid(1, 2))
    assert rule(s, bid(2, 2)) == "MULAT-BID-3"
    s = run(new(), cut(3), pas(1))
    assert rule(s, bid(1, 2)) == "MULAT-BID-3"


def test_bid_4_only_the_dealer_holds_a_bid() -> None:
    s = run(new(), cut(3), bid(1, 2))
    assert rule(s, hold(2)) == "MULAT-BID-4"
    s = run(new(), cut(3), pas(1), pas(2), pas(3))
    assert rule(s, hold(0)) == "MULAT-BID-4"


def test_bid_5_duel_and_mulat_ex_1_bidding() -> None:
    s = run(new(), {"type": "dealer", "player": 3}, cut(2), bid(0, 2), bid(1, 3), pas(2), hold(3))
    d = deal(s)
    assert d["duel"] == {"dealer": 3, "displaced": 1} and d["to_act"] == 1 and d["high_bidder"] == 3
    assert rule(s, bid(0, 4)) == "MULAT-BID-5"
    assert rule(s, bid(1, 3)) == "MULAT-BID-3"
    s = run(s, bid(1, 4), hold(3), pas(1))
    d = deal(s)
    assert (d["phase"], d["declarer"], d["contract"]) == ("trump", 3, 4)
    assert [c["call"] for c in d["bids"]] == ["bid", "bid", "pass", "hold", "bid", "hold", "pass"]


def test_bid_5_dealer_bidding_higher_ends_the_bidding() -> None:
    s = run(new(), cut(3), bid(1, 2), pas(2), pas(3), bid(0, 3))
    assert (deal(s)["phase"], deal(s)["declarer"], deal(s)["contract"]) == ("trump", 0, 3)
    s = run(new(), cut(3), bid(1, 2), pas(2), pas(3), hold(0), bid(1, 3), bid(0, 4))
    assert (deal(s)["declarer"], deal(s)["contract"]) == (0, 4)
    # The displaced bidder gives up after the dealer's second hold… or the dealer gives up.
    s = run(new(), cut(3), bid(1, 2), pas(2), pas(3), hold(0), bid(1, 3), pas(0))
    assert (deal(s)["declarer"], deal(s)["contract"]) == (1, 3)
    # A bid of 5 ends it (MULAT-AMB-9).
    s = run(new(), cut(3), bid(1, 2), pas(2), pas(3), hold(0), bid(1, 5))
    assert (deal(s)["phase"], deal(s)["declarer"], deal(s)["muli"]) == ("trump", 1, True)


def test_bid_6_dealer_passes_high_bidder_declares() -> None:
    s = run(new(), cut(3), bid(1, 2), bid(2, 3), pas(3), pas(0))
    assert (deal(s)["declarer"], deal(s)["contract"], deal(s)["forced"]) == (2, 3, False)


def test_bid_7_five_points_or_less_only_pass() -> None:
    s = run(resume(new(), [5, 6, 21, 3], 3), cut(2))   # forehand is A on 5
    assert rule(s, bid(0, 2)) == "MULAT-BID-7"
    assert rule(s, {"type": "muli", "player": 0}) == "MULAT-BID-7"
    assert rule(s, {"type": "muli", "player": 2, "together_with": [3]}) == "MULAT-BID-7"
    s = run(s, pas(0), bid(1, 2), pas(2))
    assert rule(s, hold(3)) == "MULAT-BID-7"
    assert rule(s, bid(3, 3)) == "MULAT-BID-7"


def test_bid_8_muli_out_of_turn_first_comes_nearest_forehand() -> None:
    s = run(new(), cut(3), {"type": "muli", "player": 3, "together_with": [0, 2]})
    d = deal(s)
    assert (d["declarer"], d["contract"], d["muli"], d["phase"]) == (2, 5, True, "trump")
    assert rule(s, hold(0)) == "MULAT-BID-2"   # a Muli cannot be held
    late = run(new(), cut(3), pas(1))
    assert rule(late, {"type": "muli", "player": 2}) == "MULAT-BID-8"
    # A Muli bid in turn is still a Muli, and nobody speaks after it.
    s = run(new(), cut(3), bid(1, 2), bid(2, 5))
    assert (deal(s)["phase"], deal(s)["declarer"]) == ("trump", 2)


def test_opt_hold_muli() -> None:
    s = run(new(hold_muli=True), cut(3), bid(1, 5))
    assert deal(s)["to_act"] == 0 and deal(s)["phase"] == "bidding"
    s = run(s, hold(0))
    assert (deal(s)["phase"], deal(s)["declarer"], deal(s)["contract"]) == ("trump", 0, 5)
    s = run(new(hold_muli=True), cut(3), bid(1, 5), pas(0))
    assert deal(s)["declarer"] == 1


def test_bid_9_everyone_passes_dealer_plays_one() -> None:
    s = run(resume(new(), [21, 21, 21, 4], 3), cut(2), pas(0), pas(1), pas(2), pas(3))
    d = deal(s)
    assert (d["declarer"], d["contract"], d["forced"], d["phase"]) == (3, 1, True, "trump")


def test_opt_allpass_redeal_throws_in_unless_deadlocked() -> None:
    s = run(new(allpass_redeal=True), cut(3), pas(1), pas(2), pas(3), pas(0))
    data = js(s)
    assert data["dealer"] == 1 and data["deal"]["number"] == 2 and data["deal"]["phase"] == "cut"
    assert data["sheet"][0]["note"].startswith("thrown in") and data["sheet"][0]["changes"] == [0] * 4
    locked = run(resume(new(allpass_redeal=True), [5, 4, 3, 2], 0), cut(3), pas(1), pas(2), pas(3), pas(0))
    assert (deal(locked)["declarer"], deal(locked)["forced"]) == (0, True)


# --- trump, staying home ----------------------------------------------------------------------


def test_trump_1_declarer_names_a_suit() -> None:
    s = to_trump()
    assert rule(s, trump(2, "E")) == "MULAT-TRUMP-1"
    assert rule(s, trump(1, "X")) == "MULAT-TRUMP-1"
    assert rule(run(new(), cut(3)), trump(1, "E")) == "MULAT-TRUMP-1"
    with pytest.raises(MalformedEvent):
        R.apply(s, {"type": "trump", "player": 1})
    s = run(s, trump(1, "l"))
    assert deal(s)["trump"] == "L" and deal(s)["phase"] == "stay" and deal(s)["to_act"] == 2


def packerl(p: int, face_up: str, suit: str | None = None) -> Event:
    event: Event = {"type": "trump", "player": p, "delayed": True, "face_up": face_up.split()}
    if suit:
        event["suit"] = suit
    return event


def test_trump_2_delayed_trump() -> None:
    s = to_trump()
    s2 = run(s, packerl(1, "KL AL 9E"))
    d = deal(s2)
    assert d["trump"] == "L" and d["stock"] == 13 - 8 and d["discards"] == 5 + 3
    assert d["exchanges"][0]["kind"] == "trump" and d["exchanges"][0]["face_up"] == ["KL", "AL", "9E"]
    s2 = run(s2, join(2), join(3), join(0))
    assert deal(s2)["to_act"] == 2   # the delayed trump was the declarer's exchange
    # The Weli fixes trumps: the declarer names any suit (MULAT-AMB-12).
    s3 = run(s, packerl(1, "W 8S", suit="H"))
    assert deal(s3)["trump"] == "H" and deal(s3)["multiplier"] == 2 and deal(s3)["phase"] == "exchange"
    assert rule(s, packerl(1, "W 8S")) == "MULAT-TRUMP-2"
    assert rule(s, packerl(1, "KL 9E", suit="E")) == "MULAT-TRUMP-2"
    assert rule(s, packerl(1, "KL")) == "MULAT-TRUMP-2"          # a trump: another card follows
    assert rule(s, packerl(1, "KL 9E AL")) == "MULAT-TRUMP-2"    # 9E is no trump: dealing stopped
    assert rule(s, packerl(1, "")) == "MULAT-TRUMP-2"
    assert rule(s, packerl(1, "KL 9E", suit="X")) == "MULAT-TRUMP-1"


def test_trump_2_delayed_needs_an_exchange_allowed() -> None:
    muli = run(new(), cut(3), {"type": "muli", "player": 1})
    assert rule(muli, packerl(1, "KL 9E")) == "MULAT-EXCH-1"
    low = run(resume(new(), [3, 21, 21, 21], 0), cut(3), pas(1), pas(2), pas(3), pas(0))
    assert deal(low)["forced"] is True
    assert rule(low, packerl(0, "KL 9E")) == "MULAT-EXCH-1"
    limited = to_trump(new(exch_limit=3))
    assert rule(limited, packerl(1, "KL 9E")) == "MULAT-EXCH-10"
    six = run(new(6), cut(5), bid(1, 2), pas(2), pas(3), pas(4), pas(5), pas(0))
    assert rule(six, packerl(1, "KL 9E")) == "MULAT-EXCH-9"


def test_stay_1_order_clockwise_from_the_declarer() -> None:
    s = run(to_trump(), trump(1, "E"))
    assert rule(s, join(3)) == "MULAT-STAY-1"
    assert rule(to_trump(), join(2)) == "MULAT-STAY-1"
    s = run(s, home(2), join(3))
    assert deal(s)["to_act"] == 0 and deal(s)["decisions"] == [None, "declarer", "home", "play"]


def test_stay_2_hearts_and_muli_force_everyone_in() -> None:
    s = run(to_trump(), trump(1, "H"))
    d = deal(s)
    assert d["phase"] == "exchange" and d["decisions"] == ["play", "declarer", "play", "play"]
    assert d["multiplier"] == 2 and d["causes"] == ["hearts"]
    s = run(new(), cut(3), {"type": "muli", "player": 2}, trump(2, "E"))
    d = deal(s)
    assert d["phase"] == "play" and d["playing"] == [0, 1, 2, 3] and d["to_act"] == 2


def test_stay_3_three_points_or_less_must_play() -> None:
    s = run(to_trump(resume(new(), [21, 21, 3, 21], 0)), trump(1, "E"))
    assert rule(s, home(2)) == "MULAT-STAY-3"


def test_stay_4_last_must_play_if_all_others_stayed_home() -> None:
    s = run(to_trump(), trump(1, "E"), home(2), home(3))
    assert rule(s, home(0)) == "MULAT-STAY-4"
    two = run(new(2), cut(1), bid(1, 2), pas(0), trump(1, "E"))
    assert rule(two, home(0)) == "MULAT-STAY-4"


def test_stay_5_home_players_take_no_part() -> None:
    s = run(to_trump(), trump(1, "E"), home(2), join(3), join(0))
    assert deal(s)["exchange_queue"] == [1, 3, 0]
    assert rule(s, exch(2, 1)) == "MULAT-STAY-5"
    assert rule(s, hand(2, "AS KS OS US 10S")) == "MULAT-STAY-5"
    s = run(s, exch(1, 0), exch(3, 0), exch(0, 0), play(1, "AS"))
    assert rule(s, play(2, "KS")) == "MULAT-STAY-5"
    s = run(s, play(3, "KS"))
    assert deal(s)["to_act"] == 0


# --- exchange ---------------------------------------------------------------------------------


def test_exch_1_no_exchange_in_a_muli_or_at_three() -> None:
    muli = run(new(), cut(3), {"type": "muli", "player": 1}, trump(1, "E"))
    assert rule(muli, exch(1, 2)) == "MULAT-EXCH-1"
    s = run(to_trump(resume(new(), [21, 21, 3, 21], 0)), trump(1, "E"), join(2), join(3), join(0))
    assert deal(s)["exchange_queue"] == [1, 2, 3, 0]
    s = run(s, exch(1, 1))
    assert deal(s)["to_act"] == 3   # C (3 points) is skipped
    assert rule(s, exch(2, 1)) == "MULAT-EXCH-1"


def test_exch_2_order_declarer_first_then_clockwise() -> None:
    s = run(to_trump(), trump(1, "E"), join(2), join(3), join(0))
    assert rule(s, exch(2, 1)) == "MULAT-EXCH-2"
    s = run(s, exch(1, 3))
    assert rule(s, exch(0, 1)) == "MULAT-EXCH-2"
    assert rule(s, {"type": "bridge_cards", "player": 2, "face_up": ["9S"]}) == "MULAT-EXCH-2"


def test_exch_3_normal_exchange_once_only() -> None:
    s = run(to_trump(), trump(1, "E"), join(2), join(3), join(0))
    assert rule(s, exch(1, 6)) == "MULAT-EXCH-3"
    s = run(s, exch(1, 3))
    assert deal(s)["stock"] == 10 and deal(s)["discards"] == 3
    assert rule(s, exch(1, 1)) == "MULAT-EXCH-3"
    with pytest.raises(MalformedEvent):
        R.apply(s, {"type": "exchange", "player": 2})


def test_exch_4_one_on_sight() -> None:
    s = run(to_trump(), trump(1, "E"), join(2), join(3), join(0))
    kept = run(s, {"type": "exchange", "player": 1, "kind": "sight", "card": "AE", "keep": True})
    assert deal(kept)["stock"] == 12 and deal(kept)["exchanges"][0]["kept"] is True
    rejected = run(s, {"type": "exchange", "player": 1, "kind": "sight", "card": "AE", "keep": False})
    assert deal(rejected)["stock"] == 11 and deal(rejected)["discards"] == 2
    # The rejected card is thrown away; nobody can play it.
    rejected = run(rejected, exch(2, 0), exch(3, 0), exch(0, 0))
    assert rule(rejected, play(1, "AE")) == "MULAT-COMP-1"
    # With one stock card left the face-up card must be kept.
    six = run(new(6), cut(5), bid(1, 2), pas(2), pas(3), pas(4), pas(5), pas(0), trump(1, "E"),
              join(2), join(3), join(4), join(5), join(0), exch(1, 2))
    assert deal(six)["stock"] == 1
    assert rule(six, {"type": "exchange", "player": 2, "kind": "sight", "card": "AE", "keep": False}) == "MULAT-EXCH-4"


def test_exch_5_bridge_is_served_after_everyone_else() -> None:
    s = run(to_trump(), trump(1, "E"), join(2), join(3), join(0))
    s = run(s, {"type": "exchange", "player": 1, "kind": "bridge"})
    d = deal(s)
    assert d["bridge_queue"] == [1] and d["stock_available"] == 7 and d["to_act"] == 2
    assert rule(s, hand(1, "AS KS OS US 10S")) == "MULAT-EXCH-5"
    assert rule(s, exch(2, 8)) == "MULAT-EXCH-3"
    s = run(s, exch(2, 5), exch(3, 2))
    assert deal(s)["to_act"] == 1 and deal(s)["stock"] == 6   # nothing left for A beyond the Bridge
    assert rule(s, exch(1, 1)) == "MULAT-EXCH-3"
    assert rule(s, {"type": "bridge_cards", "player": 1, "face_up": []}) == "MULAT-EXCH-5"
    assert rule(s, {"type": "bridge_cards", "player": 1, "face_up": ["AE", "9S"]}) == "MULAT-EXCH-9"
    # The last stock card is a trump: dealing stops there (MULAT-EXCH-9).
    s2 = run(s, {"type": "bridge_cards", "player": 1, "face_up": ["AE"]})
    d = deal(s2)
    assert d["phase"] == "play" and d["stock"] == 0 and d["exchanges"][0]["drawn"] == 6
    assert d["exchanges"][0]["served"] is True


def test_exch_5_bridge_face_up_runs_while_trumps() -> None:
    s = run(to_trump(), trump(1, "E"), join(2), join(3), join(0))
    s = run(s, {"type": "exchange", "player": 1, "kind": "bridge"}, exch(2, 0), exch(3, 0), exch(0, 0))
    assert rule(s, {"type": "bridge_cards", "player": 1, "face_up": ["AE"]}) == "MULAT-EXCH-5"
    s = run(s, {"type": "bridge_cards", "player": 1, "face_up": ["AE", "W", "9S"]})
    d = deal(s)
    assert d["stock"] == 13 - 8 and d["discards"] == 5 + 3 and d["phase"] == "play"
    assert rule(run(s, play(1, "KE")), play(2, "W")) == "MULAT-COMP-1"


def test_exch_5_bridge_needs_six_cards() -> None:
    six = run(new(6), cut(5), bid(1, 2), pas(2), pas(3), pas(4), pas(5), pas(0), trump(1, "E"),
              join(2), join(3), join(4), join(5), join(0))
    assert rule(six, {"type": "exchange", "player": 1, "kind": "bridge"}) == "MULAT-EXCH-9"
    assert rule(to_trump(new(exch_limit=4)), packerl(1, "KL 9E")) == "MULAT-EXCH-10"


def test_exch_6_five_on_the_sau() -> None:
    s = run(to_trump(), trump(1, "E"), join(2), join(3), join(0))
    s2 = run(s, {"type": "exchange", "player": 1, "kind": "sau"})
    assert deal(s2)["stock"] == 8 and deal(s2)["discards"] == 5
    s3 = run(s2, exch(2, 0), exch(3, 0), exch(0, 0), play(1, "9S"))
    assert rule(s3, play(2, "AE")) == "MULAT-COMP-1"   # the shown Sau is in B's hand
    entered = run(s, hand(1, "KE 9S 8S 7S 10L"))
    assert rule(entered, {"type": "exchange", "player": 1, "kind": "sau"}) == "MULAT-EXCH-6"
    shown = run(s, hand(2, "AE 9H 8H 7H 10H"))
    assert rule(shown, {"type": "exchange", "player": 1, "kind": "sau"}) == "MULAT-COMP-1"
    with pytest.raises(MalformedEvent):
        R.apply(s, {"type": "exchange", "player": 1, "kind": "swap"})


def test_exch_7_six_on_the_seven() -> None:
    s = run(to_trump(), trump(1, "S"), join(2), join(3), join(0))
    s2 = run(s, {"type": "exchange", "player": 1, "kind": "seven"})
    assert deal(s2)["stock"] == 7 and deal(s2)["discards"] == 6
    e = run(to_trump(), trump(1, "E"), join(2), join(3), join(0))
    assert rule(e, {"type": "exchange", "player": 1, "kind": "seven"}) == "MULAT-EXCH-7"


def test_exch_8_hand_size_and_cards_in_hand() -> None:
    s = to_play()
    assert rule(s, hand(1, "AS KS OS US 10S 9S")) == "MULAT-EXCH-8"    # a sixth card
    assert rule(s, hand(1, "AS KS OS US")) == "MULAT-EXCH-8"
    assert rule(s, hand(1, "AS KS OS US US")) == "MULAT-COMP-1"
    s = run(s, hand(1, "AS KS OS US 10S"))
    assert rule(s, play(1, "9S")) == "MULAT-EXCH-8"
    s = run(s, play(1, "AS"))
    assert rule(s, hand(1, "KS OS US 10S 9E")) == "MULAT-EXCH-8"       # four left now


def test_exch_9_stock_limit_and_mulat_ex_5() -> None:
    """MULAT-EX-5: six players, a stock of 3."""
    six = run(new(6), cut(5), bid(1, 2), pas(2), pas(3), pas(4), pas(5), pas(0), trump(1, "E"),
              join(2), join(3), join(4), join(5), join(0))
    assert deal(six)["stock"] == 3
    six = run(six, exch(1, 2))
    assert deal(six)["stock"] == 1 and deal(six)["to_act"] == 2
    assert rule(six, exch(2, 3)) == "MULAT-EXCH-9"
    six = run(six, exch(2, 1))
    d = deal(six)
    assert d["stock"] == 0 and d["phase"] == "play" and d["to_act"] == 1   # the rest cannot exchange
    # With MULAT-OPT-RESHUFFLE the thrown cards make a new stock, so a Bridge works.
    re = run(new(6, reshuffle=True), cut(5), bid(1, 2), pas(2), pas(3), pas(4), pas(5), pas(0), trump(1, "E"),
             join(2), join(3), join(4), join(5), join(0), exch(1, 2), exch(2, 1))
    assert deal(re)["stock"] == 0 and deal(re)["discards"] == 3 and deal(re)["to_act"] == 3
    re = run(re, {"type": "exchange", "player": 3, "kind": "bridge"}, exch(4, 0), exch(5, 0), exch(0, 0))
    re = run(re, {"type": "bridge_cards", "player": 3, "face_up": ["9S"]})
    d = deal(re)
    assert d["phase"] == "play" and d["stock"] + d["discards"] == 3 + 5 - 6 + 1


def test_exch_10_limit_per_player() -> None:
    s = run(to_trump(new(exch_limit=2)), trump(1, "E"), join(2), join(3), join(0))
    assert rule(s, exch(1, 3)) == "MULAT-EXCH-10"
    assert rule(s, {"type": "exchange", "player": 1, "kind": "bridge"}) == "MULAT-EXCH-10"
    assert rule(s, {"type": "exchange", "player": 1, "kind": "sau"}) == "MULAT-EXCH-10"
    assert deal(run(s, exch(1, 2)))["stock"] == 11


# --- play -------------------------------------------------------------------------------------


def test_play_1_declarer_leads_winner_leads_next() -> None:
    s = run(to_trump(), trump(1, "E"), join(2), join(3), join(0), exch(1, 0))
    assert rule(s, play(1, "AS")) == "MULAT-PLAY-1"
    s = to_play()
    assert js(s)["to_act"] == 1
    assert rule(s, play(2, "AS")) == "MULAT-PLAY-1"
    s = run(s, play(1, "9S"), play(2, "AS"), play(3, "7S"))
    assert rule(s, play(1, "8S")) == "MULAT-PLAY-1"
    s = run(s, play(0, "8S"))
    d = deal(s)
    assert d["tricks"][0]["winner"] == 2 and d["next_leader"] == 2 and d["tricks_won"] == [0, 0, 1, 0]


def test_play_3_4_5_live_with_an_entered_hand() -> None:
    """MULAT-TV-7 and MULAT-TV-8 checked live."""
    s = run(to_play(), hand(2, "KS 7S AE OL 9H"), play(1, "9S"))
    assert rule(s, play(2, "AE")) == "MULAT-PLAY-3"
    assert rule(s, play(2, "7S")) == "MULAT-PLAY-5"
    assert deal(run(s, play(2, "KS")))["to_act"] == 3
    s = run(to_play(), hand(3, "OE 8E AL 7S 9S"), play(1, "KH"), play(2, "UE"))
    assert rule(s, play(3, "AL")) == "MULAT-PLAY-4"
    assert rule(s, play(3, "8E")) == "MULAT-PLAY-5"
    run(s, play(3, "OE"))
    # MULAT-OPT-NO-STICHZWANG (MULAT-TV-13): following is enough.
    loose = run(to_play(state=new(no_stichzwang=True)), hand(2, "KS 7S AE OL 9H"), play(1, "9S"))
    run(loose, play(2, "7S"))
    assert rule(loose, play(2, "AE")) == "MULAT-PLAY-3"


def test_play_2_weli_is_only_a_trump_live() -> None:
    """MULAT-TV-11 live: Herz trumps, a Schelle led; the Weli cannot follow Schelle."""
    s = run(to_play("H"), hand(2, "W 8S 9L 10L UL"), play(1, "10S"))
    assert rule(s, play(2, "W")) == "MULAT-PLAY-3"
    run(s, play(2, "8S"))


def test_play_6_void_in_both_plays_anything() -> None:
    s = run(to_play("E"), hand(2, "9H 8H 7L 10L UL"), play(1, "10S"))
    for card in ("9H", "7L", "UL"):
        run(s, play(2, card))


def test_comp_1_two_hands_cannot_share_a_card() -> None:
    s = run(new(), cut(3), hand(1, "AS KS OS US 10S"))
    assert rule(s, hand(2, "AS 9E 8E 7E 10E")) == "MULAT-COMP-1"
    assert rule(s, {"type": "collapse", "player": 2, "cards": ["10S", "8L", "9E", "10H", "10L"]}) == "MULAT-COMP-1"
    s = run(to_play(), play(1, "9S"))
    assert rule(s, hand(2, "9S AE 8E 7E 10E")) == "MULAT-COMP-1"


def test_play_live_hints_list_the_legal_cards() -> None:
    s = run(to_play(), hand(2, "KS 7S AE OL 9H"), play(1, "9S"))
    assert R.hints(s) == [play(2, "KS")]
    assert R.hints(to_play()) == []


def test_play_7_seed_examples_through_the_engine() -> None:
    """Seed example 1 (Laub trumps): C wins with 8L; example 2 (Herz trumps): C wins with AH."""
    s = run(new(), {"type": "dealer", "player": 3}, cut(2), bid(0, 2), pas(1), pas(2), pas(3),
            trump(0, "L"), join(1), join(2), join(3), exch(0, 0), exch(1, 0), exch(2, 0), exch(3, 0))
    s = run(s, play(0, "AS"), play(1, "KE"), play(2, "8L"), play(3, "10S"))
    assert deal(s)["tricks"][0]["winner"] == 2
    s = run(new(), {"type": "dealer", "player": 3}, cut(2), bid(0, 2), pas(1), pas(2), pas(3),
            trump(0, "H"), exch(0, 0), exch(1, 0), exch(2, 0), exch(3, 0))
    s = run(s, play(0, "OH"), play(1, "9S"), play(2, "AH"), play(3, "W"))
    assert deal(s)["tricks"][0]["winner"] == 2 and deal(s)["to_act"] == 2


# --- test vectors: legality -------------------------------------------------------------------


def g(text: str) -> list[Card]:
    return parse_cards(text, "german")


@pytest.mark.parametrize("tv, suit, trick, held, legal", [
    ("MULAT-TV-1", "L", "AS", "KE 9H 7E", "KE 9H 7E"),
    ("MULAT-TV-2", "L", "AS KE", "8L AE", "8L"),
    ("MULAT-TV-3", "L", "AS KE 8L", "10L 10S", "10S"),
    ("MULAT-TV-4", "H", "OH", "9S 8E", "9S 8E"),
    ("MULAT-TV-5", "H", "OH 9S", "AH 7H", "AH"),
    ("MULAT-TV-6", "H", "OH 9S AH", "W KL 9L", "W"),
    ("MULAT-TV-7", "E", "9S", "KS 7S AE", "KS"),
    ("MULAT-TV-8", "E", "KH UE", "OE 8E AL", "OE"),
    ("MULAT-TV-9", "E", "KH OE", "8E AL", "8E"),
    ("MULAT-TV-10", "S", "W", "AS 7S KH", "AS"),
    ("MULAT-TV-11", "H", "10S", "W 8S", "8S"),
    ("MULAT-TV-12", "L", "10S", "W 8H", "W"),
])
def test_legality_vectors(tv: str, suit: str, trick: str, held: str, legal: str) -> None:
    assert legal_cards(g(held), g(trick), suit, Opts().duties) == g(legal), tv


def test_mulat_tv_13_no_stichzwang() -> None:
    assert legal_cards(g("KS 7S AE"), g("9S"), "E", Opts(no_stichzwang=True).duties) == g("KS 7S")


def test_seed_example_1_without_the_schellen_ten() -> None:
    """Had D held no Schelle, D would have had to overtrump 8L with 10L, and would have won."""
    assert legal_cards(g("10L 9H"), g("AS KE 8L"), "L", Opts().duties) == g("10L")
    assert trick_winner(g("AS KE 8L 10L"), 0, "L", ORDER) == 3


def test_tv_6_through_the_engine_live() -> None:
    s = run(to_play("H"), hand(0, "W KL 9L 7E 8E"), play(1, "OH"), play(2, "9S"), play(3, "AH"))
    assert rule(s, play(0, "KL")) == "MULAT-PLAY-3"   # trumps were led and the Weli is one
    assert deal(run(s, play(0, "W")))["tricks"][0]["winner"] == 3


# --- retroactive revokes ----------------------------------------------------------------------


def test_revoke_proposed_from_later_evidence_and_confirmed() -> None:
    s = run(to_play(), *tricks(REVOKE_DEAL[0]))
    assert js(s)["proposals"] == []
    s = run(s, play(2, "KS"))
    [prop] = js(s)["proposals"]
    assert prop == {"id": 1, "type": "revoke", "deal": 1, "player": 2, "trick": 1, "card": "AE",
                    "kind": "follow", "rule": "MULAT-PLAY-3", "evidence": "KS", "evidence_trick": 2,
                    "message": prop["message"], "status": "pending"}
    assert "played Eichel-Sau at trick 1 but later played Schellen-König (trick 2)" in prop["message"]
    s = run(s, *tricks(REVOKE_DEAL[1][1:], *REVOKE_DEAL[2:]))
    assert js(s)["phase"] == "review" and js(s)["to_act"] is None and js(s)["sheet"] == []
    assert rule(s, play(2, "AS")) == "MULAT-SCORE-9"
    assert R.hints(s) == [{"type": "confirm", "proposal": 1}, {"type": "dismiss", "proposal": 1}]
    assert rule(s, {"type": "confirm", "proposal": 7}) == "MULAT-SCORE-9"
    confirmed = run(s, {"type": "confirm", "proposal": 1})
    row = js(confirmed)["sheet"][0]
    # B failed (+10); C revoked: scored as a failed opponent (+5) despite five tricks; A and D +5.
    assert row["tricks"] == [0, 0, 5, 0] and row["revokes"] == [2]
    assert row["changes"] == [5, 10, 5, 5] and js(confirmed)["scores"] == [26, 31, 26, 26]
    assert [x.rule for x in confirmed.scored if x.side == 2] == ["MULAT-SCORE-9"]
    dismissed = run(s, {"type": "dismiss", "proposal": 1})
    assert js(dismissed)["sheet"][0]["changes"] == [5, 10, -5, 5]


def test_revoke_proven_by_an_entered_hand() -> None:
    s = run(to_play(), *tricks(REVOKE_DEAL[0]), hand(2, "KS AL KL OL"))
    [prop] = js(s)["proposals"]
    assert (prop["player"], prop["evidence"], prop["evidence_trick"]) == (2, "KS", None)
    # Confirmed during play: the deal scores as soon as the last card falls.
    s = run(s, {"type": "confirm", "proposal": 1}, *tricks(*REVOKE_DEAL[1:]))
    assert js(s)["sheet"][0]["revokes"] == [2] and deal(s)["number"] == 2


def test_clean_deal_has_no_proposals() -> None:
    s = run(new(), *EX1[:-1])
    assert js(s)["proposals"] == [] and deal(s)["tricks_won"] == [0, 0, 0, 4]


# --- scoring ----------------------------------------------------------------------------------


def changes(opts: Opts, n: int, declarer: int, contract: int, home: list[int], took: list[int], m: int,
            revokes: list[int] | None = None, breaker: int | None = None) -> list[int]:
    return [c for c, _, _ in deal_changes(opts, n, declarer, contract, home, took, m, revokes or [], breaker)]


def test_mulat_tv_20() -> None:
    assert changes(Opts(), 4, 0, 2, [3], [3, 2, 0, 0], 1) == [-3, -2, 5, 1]


def test_mulat_tv_21_and_22() -> None:
    assert changes(Opts(), 3, 0, 3, [], [2, 2, 1], 1)[0] == 10
    assert changes(Opts(), 3, 0, 3, [], [2, 2, 1], 2)[0] == 20


def test_mulat_tv_23() -> None:
    assert changes(Opts(), 4, 1, 5, [], [0, 5, 0, 0], 4) == [40, -40, 40, 40]


def test_mulat_tv_24() -> None:
    assert changes(Opts(), 4, 1, 5, [], [1, 4, 0, 0], 1, breaker=0) == [-10, 10, -10, -10]
    assert changes(Opts(muli_breaker=True), 4, 1, 5, [], [1, 4, 0, 0], 1, breaker=0) == [-10, 10, 0, 0]


def test_mulat_tv_25_and_stay_home_options() -> None:
    assert changes(Opts(), 3, 0, 1, [2], [1, 4, 0], 2)[2] == 2
    assert changes(Opts(stayhome_flat=True), 3, 0, 1, [2], [1, 4, 0], 2)[2] == 1
    assert changes(Opts(stayhome_free=True), 3, 0, 1, [2], [1, 4, 0], 2)[2] == 0


def test_mulat_tv_25_through_the_engine() -> None:
    s = run(new(), cut(3), {"type": "collapse", "player": 2, "cards": ["7S", "8L", "9E", "10H", "10L"]})
    s = run(to_trump(s), trump(1, "E"), home(2), join(3), join(0), exch(1, 0), exch(3, 0), exch(0, 0))
    s = run(s, *tricks([(1, "AS"), (3, "7S"), (0, "8S")], [(1, "KS"), (3, "9S"), (0, "10S")],
                       [(1, "OS"), (3, "7L"), (0, "8L")], [(1, "US"), (3, "9L"), (0, "10L")],
                       [(1, "7H"), (3, "8H"), (0, "AH")]))
    row = js(s)["sheet"][0]
    assert row["causes"] == ["collapse"] and row["multiplier"] == 2
    assert row["changes"] == [-2, -8, 2, 10] and row["home"] == [2]


def test_score_2_multipliers_compound() -> None:
    s = run(new(), cut(3), {"type": "collapse", "player": 2, "cards": ["7S", "8L", "9E", "10H", "10L"]},
            knock(3))
    s = run(to_trump(s), trump(1, "H"))
    d = deal(s)
    assert d["multiplier"] == 8 and sorted(d["causes"]) == ["collapse", "hearts", "knock"]


# --- worked examples --------------------------------------------------------------------------


EX1 = [
    {"type": "dealer", "player": 3}, cut(2),
    bid(0, 2), bid(1, 3), pas(2), hold(3), bid(1, 4), hold(3), pas(1),
    trump(3, "E"), home(0), join(1), join(2), exch(3, 2), exch(1, 1), exch(2, 0),
    *tricks([(3, "AE"), (1, "7H"), (2, "8H")], [(3, "W"), (1, "9H"), (2, "10H")],
            [(3, "KE"), (1, "UH"), (2, "7S")], [(3, "OE"), (1, "OH"), (2, "8S")],
            [(3, "9L"), (1, "AL"), (2, "9S")]),
]
EX2 = [
    cut(3), {"type": "collapse", "player": 2, "cards": ["7S", "8L", "9E", "10H", "10L"]},
    cut(3), bid(1, 2), pas(2), pas(3), pas(0), trump(1, "H"),
    exch(1, 0), exch(2, 0), exch(3, 0), exch(0, 0),
    *tricks([(1, "AL"), (2, "7L"), (3, "8L"), (0, "9L")], [(1, "7E"), (2, "AE"), (3, "8E"), (0, "9E")],
            [(2, "AS"), (3, "7S"), (0, "8S"), (1, "9S")], [(2, "KE"), (3, "AH"), (0, "10E"), (1, "OE")],
            [(3, "KH"), (0, "UL"), (1, "10S"), (2, "UE")]),
]


def test_mulat_ex_1() -> None:
    s = run(new(), *EX1)
    [row] = js(s)["sheet"]
    assert (row["declarer"], row["bid"], row["trump"], row["multiplier"]) == (3, 4, "E", 1)
    assert row["tricks"] == [None, 1, 0, 4] and row["home"] == [0]
    assert row["changes"] == [1, -1, 5, -4] and row["totals"] == [22, 20, 26, 17]
    assert js(s)["scores"] == [22, 20, 26, 17] and js(s)["dealer"] == 0
    assert [(x.side, x.points, x.rule) for x in s.scored] == [
        (0, 1, "MULAT-SCORE-5"), (1, -1, "MULAT-SCORE-3"), (2, 5, "MULAT-SCORE-3"), (3, -4, "MULAT-SCORE-3")]
    assert R.outcome(s) is None


def test_mulat_ex_2() -> None:
    s = run(new(), *EX1, *EX2)
    assert js(s)["proposals"] == []
    row = js(s)["sheet"][1]
    assert (row["dealer"], row["declarer"], row["bid"], row["trump"]) == (0, 1, 2, "H")
    assert row["multiplier"] == 4 and sorted(row["causes"]) == ["collapse", "hearts"]
    assert row["tricks"] == [0, 1, 2, 2] and row["made"] is False
    assert row["changes"] == [20, 40, -8, -8] and js(s)["scores"] == [42, 60, 18, 9]


EX3_PLAY = tricks(
    [(2, "AL"), (3, "7H"), (0, "8H"), (1, "9H")], [(2, "W"), (3, "10H"), (0, "UH"), (1, "OH")],
    [(2, "7E"), (3, "8E"), (0, "AE"), (1, "9E")], [(0, "KH"), (1, "7S"), (2, "KL"), (3, "AH")],
    [(2, "AS"), (3, "9S"), (0, "10S"), (1, "8S")],
)


def ex3_start(**options: Any) -> MulState:
    s = resume(new(**options), [8, 12, 6, 15], 1)
    return run(s, knock(0), {"type": "muli", "player": 2}, trump(2, "L"))


def test_mulat_ex_3_default() -> None:
    s = ex3_start()
    assert deal(s)["phase"] == "play" and deal(s)["multiplier"] == 2 and deal(s)["exchanges"] == []
    s = run(s, *EX3_PLAY)
    data = js(s)
    row = data["sheet"][0]
    assert row["tricks"] == [1, 0, 4, 0] and row["breaker"] == 0 and row["made"] is False
    assert data["scores"] == [-12, -8, 26, -5]
    assert data["over"] is True and data["winner"] == 0 and data["to_act"] is None
    out = R.outcome(s)
    assert out is not None and out.winner == 0 and out.rule == "MULAT-END-2"
    assert rule(s, cut(1)) == "MULAT-END-1"


def test_mulat_ex_3_breaker() -> None:
    s = run(ex3_start(muli_breaker=True), *EX3_PLAY)
    assert js(s)["scores"] == [-12, 12, 26, 15] and js(s)["winner"] == 0
    assert R.outcome(s).rule == "MULAT-END-1"  # type: ignore[union-attr]


def test_mulat_ex_3_muli_made_in_tally() -> None:
    s = resume(new(mode="tally"), [8, 12, 6, 15], 1)
    s = run(s, {"type": "deal_result", "declarer": 2, "bid": 5, "trump": "L", "tricks": [0, 0, 5, 0],
                "causes": ["knock"]})
    assert js(s)["scores"] == [28, 32, -14, 35] and js(s)["winner"] == 2


def test_mulat_ex_4() -> None:
    s = resume(new(), [5, 3, 9, 12], 3)
    s = run(s, cut(2))
    assert rule(s, bid(0, 2)) == "MULAT-BID-7"
    s = run(s, pas(0))
    assert rule(s, bid(1, 2)) == "MULAT-BID-7"
    s = run(s, pas(1), bid(2, 2), pas(3), trump(2, "L"), join(3), home(0))
    assert rule(s, home(1)) == "MULAT-STAY-3"
    s = run(s, join(1))
    assert deal(s)["exchange_queue"] == [2, 3, 1]
    s = run(s, exch(2, 1), exch(3, 2))
    assert deal(s)["phase"] == "play"   # B (3 points) may not exchange
    s = run(s, *tricks([(2, "AL"), (3, "7H"), (1, "8H")], [(2, "KL"), (3, "9H"), (1, "10H")],
                       [(2, "OL"), (3, "UH"), (1, "OH")], [(2, "7E"), (3, "AE"), (1, "8E")],
                       [(3, "9S"), (1, "AS"), (2, "9E")]))
    data = js(s)
    assert data["sheet"][0]["tricks"] == [None, 1, 3, 1]
    assert data["scores"] == [6, 2, 6, 11] and data["over"] is False


# --- tally mode -------------------------------------------------------------------------------


def result(**fields: Any) -> Event:
    event: Event = {"type": "deal_result", "declarer": 3, "bid": 4, "trump": "E", "home": [0],
                    "tricks": [None, 1, 0, 4], "causes": []}
    event.update(fields)
    return event


def test_tally_matches_adjudicated_ex_1_and_ex_2() -> None:
    s = run(new(mode="tally"), {"type": "dealer", "player": 3}, result())
    s = run(s, result(declarer=1, bid=2, trump="H", home=[], tricks=[0, 1, 2, 2], causes=["collapse"]))
    adjudicated = run(new(), *EX1, *EX2)
    assert js(s)["sheet"] == js(adjudicated)["sheet"]
    assert js(s)["phase"] == "tally" and js(s)["deal"] is None and js(s)["dealer"] == 1


def test_tally_validation() -> None:
    s = run(new(mode="tally"), {"type": "dealer", "player": 3})
    assert rule(s, result(bid=6)) == "MULAT-BID-1"
    assert rule(s, result(trump="X")) == "MULAT-TRUMP-1"
    assert rule(s, result(trump=None)) == "MULAT-TRUMP-1"
    assert rule(s, result(home=[3], tricks=[1, 4, 0, None])) == "MULAT-STAY-1"
    assert rule(s, result(trump="H")) == "MULAT-STAY-2"
    assert rule(s, result(bid=5)) == "MULAT-STAY-2"
    assert rule(s, result(home=[0, 1, 2], tricks=[None, None, None, 5])) == "MULAT-STAY-4"
    assert rule(s, result(tricks=[1, 1, 0, 4])) == "MULAT-STAY-5"
    assert rule(s, result(tricks=[None, 1, 1, 4])) == "MULAT-SCORE-6"
    assert rule(s, result(tricks=[None, 1, 6, 4])) == "MULAT-SCORE-6"
    assert rule(s, result(tricks=[None, None, 1, 4], home=[0])) == "MULAT-SCORE-6"
    assert rule(s, result(revokes=[0])) == "MULAT-SCORE-9"
    assert rule(s, result(causes=["moon"])) == "MULAT-SCORE-2"
    assert rule(s, result(causes=["hearts"])) == "MULAT-SCORE-2"
    assert rule(s, result(causes=["knock", "knock"])) == "MULAT-SCORE-2"
    assert rule(s, result(forced=True)) == "MULAT-BID-9"
    assert rule(s, result(thrown_in=True)) == "MULAT-BID-9"
    with pytest.raises(MalformedEvent):
        R.apply(s, result(tricks=[1, 2]))
    with pytest.raises(MalformedEvent):
        R.apply(s, result(home="0"))
    with pytest.raises(MalformedEvent):
        R.apply(s, result(causes="knock"))
    assert rule(run(new(mode="tally", no_knock=True)), result(declarer=1, causes=["knock"])) == "MULAT-OPT-NO-KNOCK"
    low = resume(new(mode="tally"), [21, 21, 21, 5], 3)
    assert rule(low, result()) == "MULAT-BID-7"
    assert js(run(low, result(forced=True, bid=1)))["sheet"][0]["forced"] is True
    assert rule(resume(new(mode="tally"), [21, 3, 21, 21], 3), result(home=[1], tricks=[1, None, 0, 4])) \
        == "MULAT-STAY-3"


def test_tally_muli_breaker_and_revokes() -> None:
    s = new(mode="tally", muli_breaker=True)
    failed = {"type": "deal_result", "declarer": 1, "bid": 5, "trump": "L", "tricks": [1, 4, 0, 0]}
    with pytest.raises(MalformedEvent):
        R.apply(s, failed)
    assert rule(s, {**failed, "breaker": 2}) == "MULAT-SCORE-4"
    assert rule(s, {**failed, "breaker": 1}) == "MULAT-SCORE-4"
    assert js(run(s, {**failed, "breaker": 0}))["scores"] == [11, 31, 21, 21]
    revoked = run(new(mode="tally"), {"type": "deal_result", "declarer": 1, "bid": 2, "trump": "E",
                                      "tricks": [1, 3, 1, 0], "revokes": [1]})
    assert js(revoked)["sheet"][0]["changes"] == [-1, 10, -1, 5]


def test_tally_thrown_in_and_allpass_option() -> None:
    s = new(mode="tally", allpass_redeal=True)
    s = run(s, {"type": "deal_result", "thrown_in": True})
    assert js(s)["dealer"] == 1 and js(s)["sheet"][0]["changes"] == [0, 0, 0, 0]
    assert rule(s, result(declarer=1, bid=1, forced=True)) == "MULAT-OPT-ALLPASS-REDEAL"
    locked = resume(new(mode="tally", allpass_redeal=True), [5, 5, 5, 5], 0)
    assert rule(locked, {"type": "deal_result", "thrown_in": True}) == "MULAT-OPT-ALLPASS-REDEAL"


def test_end_2_exact_tie_is_shared() -> None:
    s = resume(new(mode="tally"), [21, 6, 6, 21], 0)
    s = run(s, {"type": "deal_result", "declarer": 1, "bid": 3, "trump": "E", "tricks": [0, 3, 2, 0]})
    assert js(s)["scores"] == [26, 3, 4, 26] and not js(s)["over"]
    s = resume(new(mode="tally"), [21, 6, 8, 21], 0)
    s = run(s, {"type": "deal_result", "declarer": 1, "bid": 3, "trump": "H", "tricks": [0, 3, 4 - 2, 0]})
    assert js(s)["scores"] == [31, 0, 4, 31] and js(s)["winner"] == 1
    tie = resume(new(mode="tally"), [21, 6, 10, 21], 0)
    tie = run(tie, {"type": "deal_result", "declarer": 1, "bid": 3, "trump": "H", "tricks": [0, 3, 2, 0]})
    assert js(tie)["scores"] == [31, 0, 6, 31]
    tie = resume(new(mode="tally"), [21, 6, 4, 21], 0)
    tie = run(tie, {"type": "deal_result", "declarer": 1, "bid": 3, "trump": "H", "tricks": [0, 3, 2, 0]})
    assert js(tie)["scores"] == [31, 0, 0, 31] and js(tie)["winner"] == [1, 2]
    out = R.outcome(tie)
    assert out is not None and out.winner == [1, 2] and out.rule == "MULAT-END-2"


def test_score_7_scores_go_below_zero_and_end_1() -> None:
    s = resume(new(mode="tally"), [21, 2, 21, 21], 0)
    s = run(s, {"type": "deal_result", "declarer": 2, "bid": 1, "trump": "H", "tricks": [0, 3, 2, 0]})
    assert js(s)["scores"] == [31, -4, 17, 31] and js(s)["winner"] == 1
    assert rule(s, result()) == "MULAT-END-1"


# --- screens ----------------------------------------------------------------------------------


def test_state_json_carries_what_the_screens_need() -> None:
    s = run(to_play(), play(1, "9S"))
    data = js(s)
    for key in ("scores", "over", "winner", "to_act", "phase", "dealer", "sheet", "proposals", "deal", "mode"):
        assert key in data
    d = data["deal"]
    for key in ("bids", "high_bid", "high_bidder", "declarer", "contract", "trump", "multiplier", "causes",
                "decisions", "home", "stock", "exchanges", "tricks", "next_leader", "tricks_won", "cards_held"):
        assert key in d
    assert d["tricks"] == [{"number": 1, "leader": 1, "cards": [{"player": 1, "card": "9S"}], "winner": None}]
    assert d["cards_held"] == [5, 4, 5, 5] and data["to_act"] == 2


def test_hints_are_accepted() -> None:
    s = run(new(), cut(3))
    assert {"type": "muli", "player": 1} in R.hints(s)
    for state in (new(), run(new(), cut(3)), to_trump(), run(to_trump(), trump(1, "E")),
                  run(to_trump(), trump(1, "E"), join(2), join(3), join(0))):
        for hint in R.hints(state):
            R.apply(state, hint)
    assert R.hints(new(mode="tally")) == [{"type": "deal_result"}]


def test_describe() -> None:
    assert R.describe(bid(1, 3), NAMES) == "B bids 3"
    assert R.describe(hold(0), NAMES) == "A: mit mir"
    assert R.describe(trump(2, "E"), NAMES) == "C names Eichel trumps"
    assert R.describe(play(3, "OH"), NAMES) == "D plays Herz-Ober"
    assert R.describe(knock(3), NAMES) == "D knocks (×2)"
    assert "Muli" in R.describe({"type": "muli", "player": 0}, NAMES)
    assert R.describe(result(), NAMES) == "D played 4 in E"


def test_comp_5_resume_needs_a_score_per_player_and_a_dealer_seat() -> None:
    for scores, dealer in (([21, 21, 21], 0), ([21, 21, 21, 21], 4)):
        with pytest.raises(SetupError) as exc:
            resume(new(), scores, dealer)
        assert exc.value.rule == "MULAT-COMP-5"
