"""Mulatschak verdicts an independent check of whole random games found wrong (issue 11), each from
its repro, and the same kind of mistake looked for elsewhere in the game."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.cards import german_pack
from scorekeeper.engine.mulatschak import Mulatschak, MulState
from scorekeeper.engine.tricks import audit_revokes
from tests.engine.test_mulatschak import bid, exch, home, join, js, new, pas, play, rule, run, trump

R = Mulatschak()


def plays(text: str) -> list[dict[str, Any]]:
    """``"1 7H, 2 AL"`` → play events."""
    return [play(int(p), c) for p, c in (item.split() for item in text.split(", "))]


def three_players_declarer_1(suit: str) -> MulState:
    return run(new(3), bid(1, 1), pas(2), pas(0), trump(1, suit))


def test_stay_2_cited_for_staying_home_under_herz() -> None:
    s = three_players_declarer_1("H")
    assert rule(s, home(2)) == "MULAT-STAY-2"
    assert rule(s, home(0)) == "MULAT-STAY-2"


def test_stay_2_cited_for_staying_home_in_a_muli() -> None:
    s = run(new(3), {"type": "muli", "player": 1})
    assert rule(s, home(2)) == "MULAT-STAY-2"          # before trumps are named
    s = run(s, trump(1, "E"))
    assert rule(s, home(2)) == "MULAT-STAY-2"          # during play


def test_stay_2_cited_for_joining_when_nobody_decides() -> None:
    """Under Herz or in a Muli everyone plays: there is no decision to announce (MULAT-STAY-2)."""
    assert rule(three_players_declarer_1("H"), join(2)) == "MULAT-STAY-2"
    muli = run(new(3), {"type": "muli", "player": 1})
    assert rule(muli, join(2)) == "MULAT-STAY-2"
    assert rule(run(muli, trump(1, "E")), join(0)) == "MULAT-STAY-2"
    assert rule(three_players_declarer_1("E"), join(0)) == "MULAT-STAY-1"  # a decision, but not 0's turn


def test_stay_1_still_cited_out_of_phase_when_staying_home_is_allowed() -> None:
    assert rule(run(new(3), bid(1, 1)), home(2)) == "MULAT-STAY-1"


REVOKE_RELABEL = ("1 7H, 2 AL, 0 KH, 0 AS, 1 7S, 2 9E, 2 8H, 0 AH, 1 9H, 0 8L, 1 10L, 2 UL, 2 OL, 0 9L, "
                  "1 10S")


def relabel_deal() -> list[dict[str, Any]]:
    return [join(2), join(0), exch(1, 0), exch(2, 0), exch(0, 0), *plays(REVOKE_RELABEL)]


def test_pending_revoke_is_relabelled_when_later_plays_prove_a_plainer_duty() -> None:
    s = three_players_declarer_1("E")
    events = relabel_deal()
    # After player 2's 9E (trick 2) the cards prove only the duty to trump.
    early = run(s, *events[:5 + 6])
    [first] = js(early)["proposals"]
    assert (first["kind"], first["rule"], first["evidence"], first["evidence_trick"]) == \
        ("trump", "MULAT-PLAY-4", "9E", 2)
    # Player 2's 8H (trick 3) proves they could have followed hearts at trick 1.
    s = run(s, *events)
    [prop] = js(s)["proposals"]
    assert (prop["id"], prop["player"], prop["trick"], prop["card"]) == (1, 2, 1, "AL")
    assert (prop["kind"], prop["rule"], prop["evidence"], prop["evidence_trick"]) == \
        ("follow", "MULAT-PLAY-3", "8H", 3)
    assert "must follow Herz" in prop["message"] and "Herz-Achter (trick 3)" in prop["message"]
    assert prop["status"] == "pending"


@pytest.mark.parametrize("verdict, status", [("confirm", "confirmed"), ("dismiss", "dismissed")])
def test_a_decided_proposal_is_relabelled_and_keeps_its_verdict(verdict: str, status: str) -> None:
    """Issue 40: the table decided on player 2's AL at trick 1 while it read as a missed trump;
    the 8H at trick 3 proves the duty was to follow (MULAT-PLAY-3). The label follows the cards,
    the verdict stays, and the deal books as if the table had decided after the 8H."""
    s = three_players_declarer_1("E")
    events = relabel_deal()
    early = run(s, *events[:5 + 6], {"type": verdict, "proposal": 1})
    [prop] = js(early)["proposals"]
    assert (prop["kind"], prop["rule"], prop["status"]) == ("trump", "MULAT-PLAY-4", status)
    s = run(early, *events[5 + 6:-1])
    [prop] = js(s)["proposals"]
    assert (prop["kind"], prop["rule"], prop["evidence"], prop["evidence_trick"], prop["status"]) == \
        ("follow", "MULAT-PLAY-3", "8H", 3, status)
    assert "must follow Herz" in prop["message"] and "Herz-Achter (trick 3)" in prop["message"]
    booked = run(s, events[-1])
    late = run(three_players_declarer_1("E"), *events, {"type": verdict, "proposal": 1})
    assert js(booked)["sheet"] == js(late)["sheet"] and js(booked)["scores"] == js(late)["scores"]
    assert js(booked)["sheet"][0]["revokes"] == ([2] if verdict == "confirm" else [])


@settings(max_examples=60)
@given(st.integers(3, 4), st.randoms(use_true_random=False))
def test_pending_proposals_always_name_the_duty_a_full_audit_finds(n: int, rnd: random.Random) -> None:
    """Played without entered hands (any card accepted), after every card each pending proposal
    carries the kind and evidence a full retroactive audit gives for its (player, trick)."""
    pack = sorted(german_pack())
    rnd.shuffle(pack)
    hands = [pack[5 * p:5 * p + 5] for p in range(n)]
    s = run(new(n), bid(1, 1), *[pas(p % n) for p in range(2, n + 1)], trump(1, rnd.choice("SLE")))
    s = run(s, *[join(p % n) for p in range(2, n + 1)], *[exch(p % n, 0) for p in range(1, n + 1)])
    for _ in range(5 * n):
        player = js(s)["deal"]["to_act"]
        card = rnd.choice(hands[player])
        hands[player].remove(card)
        s = run(s, play(player, str(card)))
        deal = s.deal
        assert deal is not None
        if deal.trump is None:   # the deal was booked: no proposals were pending
            break
        audit = {(r.player, r.trick): r for r in audit_revokes(deal.tricks, deal.trump, s.opts.duties)}
        assert {(p.player, p.trick) for p in s.proposals} == set(audit)
        for prop in s.proposals:
            found = audit[(prop.player, prop.trick)]
            assert (prop.kind, prop.evidence, prop.evidence_trick) == \
                (found.kind, found.evidence, found.evidence_trick)


def test_proposal_ids_run_on_across_deals() -> None:
    """docs/api.md: ids are unique for the game; the relabel deal again, one seat on, in deal 2."""
    s = run(three_players_declarer_1("E"), *relabel_deal(), {"type": "confirm", "proposal": 1})
    assert js(s)["deal"]["number"] == 2 and js(s)["proposals"] == []
    turned = ", ".join(f"{(int(p) + 1) % 3} {c}" for p, c in (x.split() for x in REVOKE_RELABEL.split(", ")))
    s = run(s, bid(2, 1), pas(0), pas(1), trump(2, "E"), join(0), join(1), exch(2, 0), exch(0, 0), exch(1, 0),
            *plays(turned))
    [prop] = js(s)["proposals"]
    assert (prop["id"], prop["deal"], prop["player"], prop["rule"]) == (2, 2, 0, "MULAT-PLAY-3")


def test_hand_muli_and_collapse_are_accepted_out_of_turn_as_documented() -> None:
    s = new(4)                                             # bidding: player 1 is to act
    assert js(run(s, {"type": "hand", "player": 3, "cards": ["AS", "KS", "OS", "US", "10S"]}))["deal"][
        "hands_entered"] == [False, False, False, True]
    assert js(run(s, {"type": "muli", "player": 3}))["deal"]["declarer"] == 3
    weak = run(s, {"type": "collapse", "player": 2, "cards": ["7S", "8L", "9E", "10H", "10L"]})
    assert js(weak)["deal"]["collapses"] == 1
    assert rule(run(s, bid(1, 2)), {"type": "muli", "player": 3}) == "MULAT-BID-8"      # window closed
    playing = run(three_players_declarer_1("E"), *relabel_deal()[:5 + 2])               # mid-trick
    assert js(run(playing, {"type": "hand", "player": 1, "cards": ["7S", "9H", "10L", "10S"]}))["deal"][
        "hands_entered"] == [False, True, False]
    assert rule(run(three_players_declarer_1("E"), home(2)), {"type": "hand", "player": 2, "cards": []}) \
        == "MULAT-STAY-5"


# --- the same class of mistake elsewhere: a card's possible holders after a reshuffle ------------


def five_players_reshuffled() -> MulState:
    """Five players, MULAT-OPT-RESHUFFLE, stock 8. Player 1 (declarer) exchanges one on sight and
    throws the face-up 9H away; 2 exchanges 5 (one card left); 3's exchange of 3 reshuffles the
    thrown cards into a new stock; 4 stands pat; 0 draws 1 from the new stock."""
    s = run(new(5, reshuffle=True), bid(1, 1), pas(2), pas(3), pas(4), pas(0), trump(1, "E"),
            join(2), join(3), join(4), join(0),
            {"type": "exchange", "player": 1, "kind": "sight", "card": "9H", "keep": False},
            exch(2, 5), exch(3, 3), exch(4, 0), exch(0, 1))
    assert js(s)["deal"]["phase"] == "play"
    return run(s, play(1, "7H"))


def test_a_card_thrown_before_a_reshuffle_reaches_only_those_who_drew_after_it() -> None:
    s = five_players_reshuffled()
    assert rule(s, play(2, "9H")) == "MULAT-COMP-1"         # drew before the reshuffle
    s = run(s, play(2, "8H"))
    assert js(run(s, play(3, "9H")))["deal"]["tricks"][0]["cards"][-1] == {"player": 3, "card": "9H"}
    s = run(s, play(3, "10H"))
    assert rule(s, play(4, "9H")) == "MULAT-COMP-1"         # drew nothing
    assert js(run(s, play(4, "KH"), play(0, "9H")))["deal"]["tricks"][0]["winner"] is not None


# --- the same class of mistake elsewhere: a refusal citing a neighbouring rule id ---------------


def test_weli_kept_at_a_knock_cites_deal_4_not_the_cut() -> None:
    knocked = run(new(4), {"type": "knock", "player": 3, "weli": True})
    weak = {"type": "collapse", "player": 3, "cards": ["7S", "8L", "9E", "10H", "10L"]}
    assert rule(knocked, weak) == "MULAT-DEAL-4"
    assert rule(knocked, {"type": "hand", "player": 3, "cards": ["7S", "8L", "9E", "10H", "10L"]}) == "MULAT-DEAL-4"
    cut = run(new(4), {"type": "cut", "player": 3, "weli": True})
    assert rule(cut, weak) == "MULAT-DEAL-3"


def test_five_on_the_sau_out_of_reach_after_a_reshuffle() -> None:
    """The trump Sau shown on sight and thrown away, then reshuffled: only a player who drew from
    the new stock can hold it, so a later player cannot exchange five on it."""
    s = run(new(5, reshuffle=True), bid(1, 1), pas(2), pas(3), pas(4), pas(0), trump(1, "E"),
            join(2), join(3), join(4), join(0),
            {"type": "exchange", "player": 1, "kind": "sight", "card": "AE", "keep": False})
    assert rule(s, {"type": "exchange", "player": 2, "kind": "sau"}) == "MULAT-COMP-1"   # thrown away
    s = run(s, exch(2, 5), exch(3, 3))                                                  # 3 reshuffles
    assert rule(s, {"type": "exchange", "player": 4, "kind": "sau"}) == "MULAT-COMP-1"


# --- issue 24: the entered hand as evidence, and the two leftovers ---------------------------------

def test_an_entered_hand_that_could_follow_relabels_a_pending_trump_proposal() -> None:
    """Player 2's AL at trick 1 first reads as a missed trump (9E, trick 2); the hand 2 then enters
    holds 8H, so the duty at stake is to follow Herz, with the entered card as evidence."""
    s = run(three_players_declarer_1("E"), *relabel_deal()[:5 + 6])
    [prop] = js(s)["proposals"]
    assert prop["rule"] == "MULAT-PLAY-4"
    s = run(s, {"type": "hand", "player": 2, "cards": ["8H", "UL", "OL"]})
    [prop] = js(s)["proposals"]
    assert (prop["kind"], prop["rule"], prop["evidence"], prop["evidence_trick"], prop["status"]) == \
        ("follow", "MULAT-PLAY-3", "8H", None, "pending")
    assert "still holds Herz-Achter" in prop["message"]
    # Once the held 8H is played (trick 3), the evidence says where, as a full audit does.
    s = run(s, relabel_deal()[5 + 6])
    [prop] = js(s)["proposals"]
    assert (prop["kind"], prop["rule"], prop["evidence"], prop["evidence_trick"]) == ("follow", "MULAT-PLAY-3", "8H", 3)
    assert "later played Herz-Achter (trick 3)" in prop["message"]


def test_join_or_stay_home_over_a_standing_muli_bid_cites_stay_2() -> None:
    """With MULAT-OPT-HOLD-MULI the bidding goes on after a bid of 5, but the contract is a Muli
    whoever ends up with it: nobody stays home (MULAT-STAY-2)."""
    s = run(new(4, hold_muli=True), {"type": "cut", "player": 3, "weli": False}, bid(1, 5))
    assert js(s)["deal"]["phase"] == "bidding"
    assert rule(s, join(2)) == "MULAT-STAY-2"
    assert rule(s, home(2)) == "MULAT-STAY-2"
    assert rule(run(new(4, hold_muli=True), {"type": "cut", "player": 3, "weli": False}, bid(1, 4)),
                join(2)) == "MULAT-STAY-1"


def test_a_hand_entered_during_the_review_cites_score_9() -> None:
    """After the fifth trick only the revoke proposals are settled (MULAT-SCORE-9)."""
    s = run(three_players_declarer_1("E"), *relabel_deal())
    assert js(s)["deal"]["phase"] == "review"
    assert rule(s, {"type": "hand", "player": 2, "cards": []}) == "MULAT-SCORE-9"
