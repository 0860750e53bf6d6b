"""Random legal Mousel sessions: a simulated table with real hidden hands drives the engine.

The table (:class:`Table`) shuffles a real pack, deals, turns up, exchanges from a real stock and
plays legal cards (sometimes a deliberate revoke), so every event it sends is one a real table
could send. After every event the ledger invariant, a non-negative pot and stock are checked;
after every deal the tricks equal the hand size. ``simulate_session`` is also used by
bench/bench_mousel_replay.py.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.cards import Card
from scorekeeper.engine.base import RuleViolation
from scorekeeper.engine.ledger import check_invariant
from scorekeeper.engine.mousel import (
    OBLIGATIONS_32,
    OBLIGATIONS_52,
    RANKS_32,
    RANKS_52,
    SUITS,
    Mousel,
    MouselState,
)
from scorekeeper.engine.tricks import audit_revokes, legal_cards

RULES = Mousel()
Event = dict[str, Any]
Check = Callable[[MouselState, Event], None]


@dataclass
class Table:
    """What really happens at the table, hidden hands included."""

    rng: random.Random
    options: dict[str, Any]
    revoke_rate: float = 0.0
    take_rate: float = 0.3  # chance that a player offered the turned card takes it
    events: list[Event] = field(default_factory=list)

    @property
    def pack(self) -> list[Card]:
        ranks = RANKS_52 if self.options.get("52") else RANKS_32
        return [Card(r, s) for s in SUITS for r in ranks]


def _send(state: MouselState, event: Event, table: Table, check: Check | None) -> MouselState:
    new = RULES.apply(state, event)
    table.events.append(event)
    if check is not None:
        check(new, event)
    return new


def play_deal(state: MouselState, table: Table, check: Check | None = None, last: bool = False) -> MouselState:
    """One whole deal from the antes to the settlement (or a void deal)."""
    rng = table.rng
    state = _send(state, {"type": "deal", "last": True} if last else {"type": "deal"}, table, check)
    deal = state.deal
    assert deal is not None
    n = deal.n
    pack = table.pack
    rng.shuffle(pack)
    hands = {seat: [pack.pop() for _ in range(n)] for seat in deal.ring}
    stock = pack
    dealer = deal.dealer
    look = rng.random() < 0.1
    taker: int | None = None
    turned: Card | None = None
    while taker is None:
        if state.deal is None:  # void deal
            return state
        turned = stock.pop()
        state = _send(state, {"type": "turn_up", "card": str(turned)}, table, check)
        if look and state.deal is not None and state.deal.blind:
            state = _send(state, {"type": "look", "player": dealer}, table, check)
        while state.deal is not None and state.deal.phase == "offer":
            seat = state.to_act()
            assert seat is not None
            last_forced = (table.options.get("dealer_must_take") and not stock and seat == dealer
                           and not state.deal.blind)
            if last_forced or rng.random() < table.take_rate:
                state = _send(state, {"type": "take", "player": seat}, table, check)
                taker = seat
            else:
                state = _send(state, {"type": "refuse", "player": seat}, table, check)
    assert turned is not None and state.deal is not None
    hands[taker].append(turned)
    pile: list[Card] = []
    keep = bool(table.options.get("keep_trumpcard"))
    while state.deal.phase == "exchange":
        deal = state.deal
        seat = deal.order[len(deal.decisions)]
        others = [s for s in deal.ring if s not in (taker, seat)]
        may_fold = seat != taker and not (seat == deal.must_play and all(s in deal.folded for s in others))
        if may_fold and rng.random() < 0.3:
            state = _send(state, {"type": "fold", "player": seat}, table, check)
            hands[seat] = []
            continue
        throwable = [c for c in hands[seat] if not (keep and seat == taker and c == turned)]
        available = len(stock) + (len(pile) if table.options.get("reshuffle") else 0)
        count = rng.randint(0, min(len(throwable), available, 3))
        thrown = rng.sample(throwable, count)
        for card in thrown:
            hands[seat].remove(card)
        for _ in range(count):
            if not stock:
                stock, pile = pile, []
                rng.shuffle(stock)
            hands[seat].append(stock.pop())
        pile.extend(thrown)
        state = _send(state, {"type": "exchange", "player": seat, "count": count}, table, check)
        assert state.deal is not None
        assert state.deal.stock == len(stock), "the engine's stock count follows the real stock"
    throwable = [c for c in hands[taker] if not (keep and c == turned)]
    hands[taker].remove(rng.choice(throwable))
    state = _send(state, {"type": "discard", "player": taker}, table, check)
    trump = turned.suit
    duties = OBLIGATIONS_52 if table.options.get("52") else OBLIGATIONS_32
    while state.deal is not None and state.deal.phase in ("play", "review"):
        deal, play = state.deal, state.play
        assert play is not None
        pending = [p for p in play.proposals if p.status == "pending"]
        if pending and (deal.phase == "review" or rng.random() < 0.3):
            verdict = "confirm" if rng.random() < 0.6 else "dismiss"
            state = _send(state, {"type": verdict, "proposal": pending[0].id}, table, check)
            continue
        seat = play.to_act
        trick = [c for _, c in play.current]
        legal = legal_cards(hands[seat], trick, trump, duties)
        choice = rng.choice(legal)
        if len(legal) < len(hands[seat]) and rng.random() < table.revoke_rate:
            choice = rng.choice([c for c in hands[seat] if c not in legal])
        hands[seat].remove(choice)
        state = _send(state, {"type": "play", "player": seat, "card": str(choice)}, table, check)
    return state


def tally_deal(state: MouselState, table: Table, check: Check | None = None, last: bool = False) -> MouselState:
    rng = table.rng
    seated = list(state.seated)
    n = len(seated)
    count = len(state.players)
    if rng.random() < 0.05 and not table.options.get("dealer_must_take"):
        return _send(state, {"type": "deal_result", "void": True, **({"last": True} if last else {})},
                     table, check)
    taker = rng.choice(seated)
    others = [s for s in seated if s != taker]
    folded = [s for s in others if rng.random() < 0.3]
    if len(folded) == len(others):
        folded.pop()
    active = [s for s in seated if s not in folded]
    tricks = [0] * count
    for _ in range(n):
        tricks[rng.choice(active)] += 1
    revokes = [s for s in active if rng.random() < 0.05]
    event: Event = {"type": "deal_result", "taker": taker, "folded": folded, "tricks": tricks}
    if revokes:
        event["revokes"] = revokes
    if last:
        event["last"] = True
    return _send(state, event, table, check)


def simulate_session(players: int, deals: int, options: dict[str, Any] | None = None, seed: int = 0,
                     mode: str = "adjudicate", check: Check | None = None, revoke_rate: float = 0.05,
                     leave_rate: float = 0.0, take_rate: float = 0.3) -> tuple[MouselState, list[Event]]:
    """A session of ``deals`` deals (fewer if it ends early), then ``end_session``."""
    table = Table(random.Random(seed), dict(options or {}), revoke_rate, take_rate)
    state = RULES.new([f"P{i}" for i in range(players)], table.options, mode)  # type: ignore[arg-type]
    step = play_deal if mode == "adjudicate" else tally_deal
    for number in range(deals):
        if state.over:
            break
        if len(state.seated) > 2 and table.rng.random() < leave_rate:
            state = _send(state, {"type": "leave", "player": table.rng.choice(state.seated)}, table, check)
        last = number == deals - 1 and bool(table.options.get("end_lastdeal"))
        state = step(state, table, check, last)
        assert state.over or not last, "the announced last deal ends the session"
    if not state.over:
        state = _send(state, {"type": "end_session"}, table, check)
    return state, table.events


def invariants(state: MouselState, event: Event) -> None:
    book = state.book
    assert sum(book.balances) + book.pot == 0, f"ledger out of balance after {event}"
    assert book.pot >= 0, f"negative pot after {event}"
    deal = state.deal
    if deal is not None:
        assert deal.stock >= 0, f"negative stock after {event}"
        if state.play is not None:
            assert len(state.play.tricks) <= deal.n
    if state.sheet and event.get("type") in ("play", "confirm", "dismiss", "deal_result") \
            and state.deal is None:
        row = state.sheet[-1]
        if not row.void:
            assert sum(row.tricks) == row.hand_size, "tricks per deal equal the hand size"
    if state.opts.bust:
        assert all(state.opts.stack + b >= 0 for b in book.balances), "a bust player never owes"


OPTION_SETS = st.fixed_dictionaries({}, optional={
    "last_in_order": st.booleans(), "reshuffle": st.booleans(), "keep_trumpcard": st.booleans(),
    "dealer_must_take": st.booleans(), "round_largest": st.booleans(), "bust": st.booleans(),
    "stack": st.integers(1, 40), "end_refund": st.booleans(), "end_lastdeal": st.booleans(),
})


@settings(max_examples=40)
@given(players=st.integers(2, 5), options=OPTION_SETS, seed=st.integers(0, 2**32 - 1),
       leave=st.sampled_from([0.0, 0.1]), take=st.sampled_from([0.3, 0.02]))
def test_random_sessions_32(players: int, options: dict[str, Any], seed: int, leave: float, take: float) -> None:
    state, events = simulate_session(players, 30, options, seed, check=invariants, leave_rate=leave,
                                     take_rate=take)
    _check_final(state, events)


@settings(max_examples=30)
@given(players=st.integers(2, 7), options=OPTION_SETS, seed=st.integers(0, 2**32 - 1),
       take=st.sampled_from([0.3, 0.05]))
def test_random_sessions_52(players: int, options: dict[str, Any], seed: int, take: float) -> None:
    state, events = simulate_session(players, 20, {**options, "52": True}, seed, check=invariants, take_rate=take)
    _check_final(state, events)


@settings(max_examples=40)
@given(players=st.integers(2, 7), options=OPTION_SETS, seed=st.integers(0, 2**32 - 1),
       leave=st.sampled_from([0.0, 0.2]))
def test_random_tally_sessions(players: int, options: dict[str, Any], seed: int, leave: float) -> None:
    opts = {**options, "52": players > 5}
    state, events = simulate_session(players, 60, opts, seed, mode="tally", check=invariants, leave_rate=leave)
    _check_final(state, events)


def _check_final(state: MouselState, events: list[Event]) -> None:
    assert state.over
    assert check_invariant(state.book)
    assert state.end is not None
    # the settle-up clears every balance (the pot, if anything is unallocated, is the last party)
    totals = list(state.book.balances) + [state.book.pot]
    for transfer in state.end.transfers:
        totals[transfer.payer] += transfer.amount
        totals[transfer.payee] -= transfer.amount
    assert all(t == 0 for t in totals)
    # replaying the recorded events rebuilds the same state (event sourcing)
    replayed = RULES.new(list(state.players), _options_of(state), state.mode)
    for event in events:
        replayed = RULES.apply(replayed, event)
    assert RULES.to_json(replayed) == RULES.to_json(state)


def _options_of(state: MouselState) -> dict[str, Any]:
    o = state.opts
    return {"52": o.pack52, "last_in_order": o.last_in_order, "reshuffle": o.reshuffle,
            "keep_trumpcard": o.keep_trumpcard, "dealer_must_take": o.dealer_must_take,
            "round_largest": o.round_largest, "bust": o.bust, "stack": o.stack, "end_refund": o.end_refund,
            "end_lastdeal": o.end_lastdeal}


def test_long_session_with_lastdeal() -> None:
    """A 40-deal session announced to end: the last deal carries no penalties and ends the session."""
    state, events = simulate_session(4, 40, {"end_lastdeal": True}, seed=7, check=invariants)
    assert state.sheet[-1].last and not any(state.sheet[-1].penalties)
    assert events[-1].get("type") != "end_session"
    _check_final(state, events)


def test_engine_refuses_nothing_a_real_table_does() -> None:
    """Many seeds without deliberate revokes: no event of a legal table is ever refused."""
    for seed in range(30):
        try:
            simulate_session(4, 10, {}, seed, revoke_rate=0.0, check=invariants)
        except RuleViolation as exc:  # pragma: no cover - the message says what went wrong
            raise AssertionError(f"seed {seed}: {exc}") from exc


def _proposals_are_the_full_audit(state: MouselState, event: Event) -> None:
    """After every card, the revoke proposals name exactly what a full audit of the deal finds,
    with its evidence, whether pending, confirmed or dismissed (issue 40: Mousel shares the audit
    with Mulatschak, but its one duty is to follow, so no later card can prove a plainer one and
    the first card of the suit led stays the evidence)."""
    invariants(state, event)
    deal, play = state.deal, state.play
    if deal is None or play is None or deal.trump_card is None:
        return
    plays = [t.plays for t in play.tricks] + ([play.current] if play.current else [])
    audited = {(r.player, r.trick): r for r in audit_revokes(plays, deal.trump_card.suit, state.opts.obligations)}
    revokes = [p for p in play.proposals if p.kind == "revoke"]
    assert {(p.player, p.trick) for p in revokes} == set(audited)
    for prop in revokes:
        found = audited[(prop.player, prop.trick)]
        assert (prop.rule, prop.card, prop.evidence, prop.evidence_trick, prop.data["led_suit"]) == \
            ("MOUSEL-PLAY-2", found.card, found.evidence, found.evidence_trick, found.led_suit)


def test_a_card_audits_its_own_player_only_and_misses_nothing() -> None:
    """``on_play`` audits only the player of a card of a suit he failed to follow (the card that
    proves his revokes); across many revokes the proposals still equal a full audit at every card."""
    for seed in range(12):
        simulate_session(4 + seed % 3, 12, {"52": seed % 3 == 2}, seed, revoke_rate=0.5,
                         check=_proposals_are_the_full_audit)
