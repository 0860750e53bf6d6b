"""Who may hold Mousel's turned-up card (MOUSEL-COMP-1 with MOUSEL-OPT-RESHUFFLE, issue 24).

The engine reasons in counts (reshuffles, stock); the model below follows the card itself through
every throw and draw the exchanges allow, so the two agree only if the engine's reasoning is right.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.engine.base import RuleViolation
from scorekeeper.engine.mousel import Mousel, MouselState

R = Mousel()
A, B, C, D, E, F, G = range(7)
Event = dict[str, Any]


def run(state: MouselState, *events: Event) -> MouselState:
    for event in events:
        state = R.apply(state, event)
    return state


def ex(p: int, count: int) -> Event:
    return {"type": "exchange", "player": p, "count": count}


def play(p: int, card: str) -> Event:
    return {"type": "play", "player": p, "card": card}


def refused(state: MouselState, event: Event) -> str:
    with pytest.raises(RuleViolation) as info:
        R.apply(state, event)
    return info.value.rule


def _issue_example() -> MouselState:
    """7 players, 52 cards, reshuffle: the taker exchanges 2 and empties the stock; the next
    player's exchange reshuffles the taker's two throws and draws both; the next two draw from
    stocks made of later throws."""
    state = run(R.new("ABCDEFG", {"52": True, "reshuffle": True}, "adjudicate"),
                {"type": "deal", "dealer": A}, {"type": "turn_up", "card": "AS"}, {"type": "take", "player": A})
    assert state.deal is not None and state.deal.order == (A, B, C, D, E, F, G) and state.deal.stock == 2
    state = run(state, ex(A, 2), ex(B, 2), ex(C, 2), ex(D, 2), ex(E, 0), ex(F, 0), ex(G, 0),
                {"type": "discard", "player": A})
    assert state.deal is not None and state.deal.reshuffles == 3
    return state


def test_only_who_drew_from_the_taker_throws_may_play_the_turned_up_card() -> None:
    state = run(_issue_example(), play(A, "2C"))
    assert run(state, play(B, "AS")).play is not None  # B drew both of the taker's throws
    after_b = run(state, play(B, "3C"))
    assert refused(after_b, play(C, "AS")) == "MOUSEL-COMP-1"  # C drew B's throws
    after_c = run(after_b, play(C, "4C"))
    assert refused(after_c, play(D, "AS")) == "MOUSEL-COMP-1"


def test_a_stock_the_taker_throws_were_shuffled_into_reaches_every_drawer_until_it_runs_out() -> None:
    # 5 players, 32 cards: a stock of 7, 6 after the turn-up. The taker A throws 3 (stock 3);
    # B takes 2 (stock 1); C's 2 run the stock out and reshuffle A's and B's 5 throws: 4 left;
    # D draws 3 of them (1 left); E's 2 run that stock out too, so E may hold the card.
    base = run(R.new("ABCDE", {"reshuffle": True}, "adjudicate"),
               {"type": "deal", "dealer": A}, {"type": "turn_up", "card": "AS"}, {"type": "take", "player": A})
    assert base.deal is not None and base.deal.order == (A, B, C, D, E)
    state = run(base, ex(A, 3), ex(B, 2), ex(C, 2), ex(D, 3), ex(E, 2))
    assert state.deal is not None and state.deal.reshuffles == 2
    assert state.deal.trump_reach == (C, D, E)
    # Had the taker kept his hand, nobody else could hold the card.
    kept = run(base, ex(A, 0), ex(B, 5), ex(C, 1), ex(D, 0), ex(E, 0))
    assert kept.deal is not None and kept.deal.trump_reach == ()


def test_a_taker_who_threw_his_whole_hand_cannot_play_the_turned_up_card() -> None:
    state = run(R.new("ABCD", {}, "adjudicate"), {"type": "deal", "dealer": D}, {"type": "turn_up", "card": "KS"},
                {"type": "take", "player": D}, ex(D, 5), ex(A, 0), ex(B, 0), ex(C, 0), {"type": "discard", "player": D})
    assert refused(state, play(D, "KS")) == "MOUSEL-COMP-1"
    assert run(state, play(D, "AS")).play is not None


# --- The model: the card itself, through every throw and draw ------------------------------------

def model_holders(n: int, stock: int, taker: int, decisions: list[tuple[int, int | None]],
                  *, reshuffle: bool, keep: bool) -> set[int]:
    """Every seat that holds the turned-up card in some way the exchanges could have gone.

    A world is where the card is: ("hand", seat), ("pile",) or ("stock",). Throws and draws branch
    over every outcome: the card thrown or kept, drawn or left, as the counts allow."""
    worlds: set[tuple[Any, ...]] = {("hand", taker)}
    pile = 0
    for seat, count in decisions:
        if count is None:  # a fold hands the cards in; the card never returns to play from there
            worlds = {("out",) if w == ("hand", seat) else w for w in worlds}
            continue
        hand = n + 1 if seat == taker else n
        thrown: set[tuple[Any, ...]] = set()
        for w in worlds:
            if w != ("hand", seat):
                thrown.add(w)
                continue
            if count < hand:
                thrown.add(w)  # kept
            if count and not (keep and seat == taker):
                thrown.add(("aside",))  # thrown, onto the pile once this player has drawn
        drawn: set[tuple[Any, ...]] = set()
        for w in thrown:
            drawn |= _draw(w, seat, count, stock, pile)
        worlds = {("pile",) if w == ("aside",) else w for w in drawn}
        if count > stock:
            assert reshuffle
            stock, pile = stock + pile - count, count
        else:
            stock, pile = stock - count, pile + count
    return {w[1] for w in worlds if w[0] == "hand"}


def _draw(world: tuple[Any, ...], seat: int, count: int, stock: int, pile: int) -> set[tuple[Any, ...]]:
    """The worlds after ``seat`` draws ``count``: the stock first, then, once it runs out, a stock
    shuffled from the pile."""
    first = min(count, stock)
    rest = count - first
    out: set[tuple[Any, ...]] = set()
    if world == ("stock",):
        if first:
            out.add(("hand", seat))
        if stock - first:
            out.add(world)
        return out
    if world == ("pile",) and rest:
        out.add(("hand", seat))
        if pile - rest:
            out.add(("stock",))
        return out
    return {world}


@st.composite
def exchanges(draw: st.DrawFn) -> tuple[MouselState, dict[str, Any]]:
    n = draw(st.integers(3, 7))
    options = {"reshuffle": draw(st.booleans()), "keep_trumpcard": draw(st.booleans()),
               "52": n > 5 or draw(st.booleans())}
    names = "ABCDEFG"[:n]
    dealer = draw(st.integers(0, n - 1))
    state = R.new(names, options, "adjudicate")
    state = run(state, {"type": "deal", "dealer": dealer}, {"type": "turn_up", "card": "AS"})
    for _ in range(draw(st.integers(0, n - 1))):
        assert state.deal is not None
        state = run(state, {"type": "refuse", "player": state.deal.to_act()})
        if state.deal is None or state.deal.phase != "offer":
            break
    assert state.deal is not None and state.deal.phase == "offer"
    state = run(state, {"type": "take", "player": state.deal.to_act()})
    deal = state.deal
    assert deal is not None
    start_stock = deal.stock
    while deal is not None and deal.phase == "exchange":
        seat = deal.to_act()
        assert seat is not None
        hand = deal.n + 1 if seat == deal.taker else deal.n
        if seat == deal.taker and state.opts.keep_trumpcard:
            hand -= 1
        most = min(hand, deal.stock + (deal.pile if state.opts.reshuffle else 0))
        if seat != deal.taker and draw(st.integers(0, 4)) == 0:
            try:
                state = run(state, {"type": "fold", "player": seat})
                deal = state.deal
                continue
            except RuleViolation:
                pass
        # lean to large exchanges: they are what runs the stock out
        count = draw(st.one_of(st.just(most), st.integers(0, most)))
        state = run(state, ex(seat, count))
        deal = state.deal
    return state, {"n": n, "stock": start_stock, "options": options}


@given(exchanges())
def test_the_engine_names_exactly_the_seats_the_model_finds(case: tuple[MouselState, dict[str, Any]]) -> None:
    state, meta = case
    deal = state.deal
    assert deal is not None and deal.taker is not None
    expected = model_holders(meta["n"], meta["stock"], deal.taker, list(deal.decisions),
                             reshuffle=meta["options"]["reshuffle"], keep=meta["options"]["keep_trumpcard"])
    assert {s for s in deal.ring if deal.may_hold_trump_card(s)} == expected
    # and the play check refuses the card from everyone else, once the tricks begin
    state = run(state, {"type": "discard", "player": deal.taker})
    assert state.play is not None
    active = state.play.active
    start = active.index(state.play.leader)
    order = active[start:] + active[:start]
    for i, seat in enumerate(order):
        before = run(state, *(play(s, filler) for s, filler in zip(order[:i], FILLERS, strict=False)))
        if seat in expected:
            assert run(before, play(seat, "AS")).play is not None
        else:
            assert refused(before, play(seat, "AS")) == "MOUSEL-COMP-1"


FILLERS = ("7C", "8C", "9C", "10C", "JC", "QC", "KC")
