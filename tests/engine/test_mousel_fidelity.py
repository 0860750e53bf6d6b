"""Mousel verdicts an independent check of whole random games found wrong (issue 11), each from
its repro, and the same kind of mistake looked for elsewhere in the game."""

from __future__ import annotations

from scorekeeper.engine.mousel import Mousel, MouselState
from tests.engine.test_mousel import (
    _finish_revoke_deal,
    _revoke_table,
    deal,
    discard,
    ex,
    fold,
    new,
    plays,
    refuse,
    refused,
    run,
    take,
    turn,
)

R = Mousel()
OPTIONS = {"reshuffle": True, "dealer_must_take": True, "end_refund": True}


def after_reshuffle() -> MouselState:
    """Five players; 4 takes 9C and exchanges 5 (the whole stock), 1's exchange reshuffles 4's
    thrown cards into a new stock, 2 stands pat, 0 and 3 fold."""
    return run(new(5, **OPTIONS), deal(3), turn("AS"), *refuse(4, 0, 1, 2, 3), turn("9C"), take(4),
               ex(4, 5), fold(0), ex(1, 1), ex(2, 0), fold(3), discard(4),
               *plays((4, "8S"), (1, "JS")))


def test_turn_up_card_refused_from_a_player_who_drew_nothing_after_the_reshuffle() -> None:
    assert refused(after_reshuffle(), plays((2, "9C"))[0]).rule == "MOUSEL-COMP-1"


def test_turn_up_card_accepted_from_a_player_who_drew_from_the_reshuffled_stock() -> None:
    state = run(new(5, **OPTIONS), deal(3), turn("AS"), *refuse(4, 0, 1, 2, 3), turn("9C"), take(4),
                ex(4, 5), fold(0), ex(1, 1), ex(2, 0), fold(3), discard(4), *plays((4, "8S")))
    assert run(state, *plays((1, "9C"))).play is not None


def test_a_taker_who_stood_pat_keeps_the_turn_up_through_any_reshuffle() -> None:
    state = run(new(5, **OPTIONS), deal(3), turn("AS"), *refuse(4, 0, 1, 2, 3), turn("9C"), take(4),
                ex(4, 0), ex(0, 5), ex(1, 3), ex(2, 0), ex(3, 0), discard(4), *plays((4, "8S")))
    assert state.deal is not None and state.deal.reshuffles == 1
    assert refused(state, plays((0, "9C"))[0]).rule == "MOUSEL-COMP-1"


def test_everyone_drawing_after_the_reshuffle_may_hold_the_turn_up() -> None:
    state = run(new(5, **OPTIONS), deal(3), turn("AS"), *refuse(4, 0, 1, 2, 3), turn("9C"), take(4),
                ex(4, 5), ex(0, 1), ex(1, 1), ex(2, 0), ex(3, 0), discard(4), *plays((4, "8S")))
    assert run(state, *plays((0, "9C"))).play is not None          # 0 drew first from the new stock
    assert run(state, *plays((0, "7C"), (1, "9C"))).play is not None   # and so did 1
    assert refused(run(state, *plays((0, "7C"), (1, "8C"))), plays((2, "9C"))[0]).rule == "MOUSEL-COMP-1"


def test_dealer_look_before_any_turn_up_is_refused() -> None:
    state = run(new(), deal(3))
    assert refused(state, {"type": "look", "player": 3}).rule == "MOUSEL-TRUMP-1"
    # Between turn-ups the dealer has looked already (the refused card went round).
    between = run(state, turn("8C"), *refuse(3, 0, 1, 2, 3))
    assert refused(between, {"type": "look", "player": 3}).rule == "MOUSEL-TRUMP-1"


def test_dealer_look_with_the_card_on_offer_costs_the_blind_take() -> None:
    state = run(new(), deal(3), turn("8C"))
    assert {"type": "look", "player": 3} in R.hints(state)
    looked = run(state, {"type": "look", "player": 3})
    assert refused(looked, take(3)).rule == "MOUSEL-TRUMP-2"
    assert {"type": "look", "player": 3} not in R.hints(looked)


# --- the same class of mistake elsewhere: a refusal citing a neighbouring rule id ---------------


def test_tally_everyone_folded_cites_last_in_order_like_the_live_fold() -> None:
    result = {"type": "deal_result", "taker": 0, "tricks": [4, 0, 0, 0], "folded": [1, 2, 3]}
    assert refused(new(last_in_order=True, mode="tally"), result).rule == "MOUSEL-OPT-LAST-IN-ORDER"
    assert refused(new(mode="tally"), result).rule == "MOUSEL-EXCH-3"


def test_a_card_played_while_revokes_await_a_verdict_cites_pot_8() -> None:
    state = _finish_revoke_deal(_revoke_table())
    assert state.deal is not None and state.deal.phase == "review"
    assert refused(state, plays((1, "8C"))[0]).rule == "MOUSEL-POT-8"
