"""Adjudicate mode: dealing the table, playing a card (MULLE-TURN-*, MULLE-CAP-*), the end of a deal
and pegging to 61."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from scorekeeper.cards import Card
from scorekeeper.engine.base import (
    MalformedEvent,
    RuleViolation,
    int_field,
)
from scorekeeper.engine.capture import (
    Grouping,
    card_sort_key,
    explain_failure,
    find_grouping,
    legal_with_mixed_values,
    mulle_scheme,
)
from scorekeeper.engine.core import evolve, overrule
from scorekeeper.engine.messages import M
from scorekeeper.engine.mulle.state import (
    COPIES,
    DealRecord,
    LastMove,
    _card,
    _cards,
    _names,
    _Pegs,
    _sweep_and_mulle,
    move_points,
    point_value,
)

if TYPE_CHECKING:
    from scorekeeper.engine.mulle.state import MulleState, Phase

# --- Handlers ---

def on_deal(state: MulleState, event: Mapping[str, Any]) -> MulleState:
    if state.phase == "play":
        left = plays_left(state)
        raise RuleViolation("MULLE-TURN-7", M("deal %(deal)s is still being played: %(left)s more card "
                            "to play before the next deal", deal=state.deal_no, left=left) if left == 1 else
                            M("deal %(deal)s is still being played: %(left)s more cards to play before "
                              "the next deal", deal=state.deal_no, left=left),
                            cards_left=left)
    dealer = dealer_of(state, event)
    if "table" not in event or not isinstance(event["table"], (list, str)):
        raise MalformedEvent(M("a deal needs 'table': the face-up table cards"), event)
    table = _cards(event["table"])
    if len(table) != state.table_size:
        raise RuleViolation("MULLE-DEAL-3", M("with %(n)s players the dealer puts %(size)s cards face up "
                            "on the table, not %(given)s", n=state.n, size=state.table_size,
                            given=len(table)), cards=len(table),
                            expected=state.table_size)
    counts = Counter(table)
    over = [card for card, count in counts.items() if count > COPIES]
    if over:
        raise RuleViolation("MULLE-COMP-1", M("%(card)s is on the table %(times)s times; the two packs "
                            "hold it only twice", card=over[0], times=counts[over[0]]), card=str(over[0]))
    zeros = (0,) * state.sides.count
    return evolve(
        state, phase="play", dealer=dealer, deal_no=state.deal_no + 1, round_no=1,
        plays_in_round=0, table=tuple(table), seen=dict(counts), piles=zeros, spades=zeros,
        deal_points=zeros, sweeps=zeros, mulles=zeros, last_capturer=None, last_move=None,
        scored=(),
    )

def dealer_of(state: MulleState, event: Mapping[str, Any]) -> int:
    expected = state.next_dealer
    if expected is None:
        return int_field(event, "dealer", minimum=0, maximum=state.n - 1)
    if event.get("dealer") is None:
        return expected
    dealer = int_field(event, "dealer", minimum=0, maximum=state.n - 1)
    if dealer != expected:
        raise RuleViolation("MULLE-DEAL-1", M("%(expected)s deals now: the deal passes to the old "
                            "forehand, not to %(dealer)s", expected=state.players[expected],
                            dealer=state.players[dealer]),
                            dealer=dealer, expected=expected)
    return dealer

def plays_left(state: MulleState) -> int:
    later = sum(state.rounds[state.round_no:]) * state.n
    return state.n * state.hand_size - state.plays_in_round + later

def on_play(state: MulleState, event: Mapping[str, Any]) -> MulleState:
    if state.phase != "play":
        raise RuleViolation("MULLE-DEAL-3", M("no deal is in progress: deal the table cards first"))
    player = int_field(event, "player", minimum=0, maximum=state.n - 1)
    to_act = state.to_act
    if player != to_act:
        assert to_act is not None
        raise RuleViolation("MULLE-TURN-1", M("it is %(to_act)s's turn, not %(player)s's",
                            to_act=state.players[to_act], player=state.players[player]),
                            player=player, to_act=to_act)
    card_text = event.get("card")
    if not isinstance(card_text, str):
        raise MalformedEvent(M("a play needs 'card': the card played"), event)
    card = _card(card_text)
    raw_capture = event.get("capture")
    if raw_capture is not None and not isinstance(raw_capture, (list, str)):
        raise MalformedEvent(M("'capture' must be a list of table cards"), event)
    taken = _cards(raw_capture) if raw_capture else []
    check_unseen(state, card)
    grouping = check_capture(state, player, card, taken)
    ordered = tuple(sorted(taken, key=card_sort_key)) if len(taken) > 1 else tuple(taken)
    return after_play(state, player, card, ordered, grouping)

def check_unseen(state: MulleState, card: Card) -> None:
    if state.unseen(card) <= 0:
        where = sum(1 for c in state.table if c == card)
        raise RuleViolation("MULLE-COMP-1", M("both %(card)s have already been seen in this deal "
                            "(%(where)s on the table); the two packs hold only two", card=card, where=where)
                            if where else M("both %(card)s have already been seen in this deal; the two "
                                            "packs hold only two", card=card), card=str(card))

def check_capture(state: MulleState, player: int, card: Card, taken: list[Card]) -> Grouping | None:
    if not taken:
        return None  # MULLE-CAP-5: a trail is always legal
    if not state.table:
        raise RuleViolation("MULLE-TURN-6", M("the table is empty after the sweep: the card can only be trailed"))
    for wanted in dict.fromkeys(taken):
        have = state.table.count(wanted)
        if taken.count(wanted) > have:
            raise RuleViolation("MULLE-TURN-2", M("%(card)s lies on the table only %(have)s time; the "
                                "table is %(table)s", card=wanted, have=have, table=_names(state.table))
                                if have else M("%(card)s is not on the table; the table is %(table)s",
                                               card=wanted, table=_names(state.table)), card=str(wanted))
    if state.mulle_alone and card in taken and len(taken) > 1:
        overrule(RuleViolation("MULLE-OPT-MULLE-ALONE", M("house rule: the twin %(card)s may only be taken "
                            "on its own, not together with %(others)s", card=card,
                            others=_names(c for c in taken if c != card)),
                            card=str(card)))
    grouping = find_grouping(card, taken, state.scheme)
    if grouping is not None:
        return grouping
    why = explain_failure(card, taken, state.scheme)
    facts = {"card": str(card), "capture": [str(c) for c in taken], "why": why}
    # A stored capture a later version refuses is carried out as taken, without a grouping.
    if state.strict_value and find_grouping(card, taken, mulle_scheme(False)) is not None:
        overrule(RuleViolation("MULLE-OPT-STRICT-VALUE", M("house rule strict value: %(why)s", why=why), **facts))
    elif legal_with_mixed_values(card, taken, state.scheme):
        overrule(RuleViolation("MULLE-CAP-1", M("%(card)s counts one value for the whole capture: %(why)s",
                               card=card, why=why),
                               **facts))
    else:
        overrule(RuleViolation("MULLE-CAP-4", M("%(card)s cannot take %(taken)s: %(why)s", card=card,
                               taken=_names(taken), why=why), **facts))
    return None

def after_play(state: MulleState, player: int, card: Card, taken: tuple[Card, ...],
                grouping: Grouping | None) -> MulleState:
    side = state.sides.side_of(player)
    pegs = _Pegs(state)
    final_play = state.final_play_next
    sweep, mulle = _sweep_and_mulle(card, taken, state.table)
    seen = dict(state.seen)
    seen[card] = seen.get(card, 0) + 1
    piles, spades = list(state.piles), list(state.spades)
    sweeps, mulles = list(state.sweeps), list(state.mulles)
    last_capturer = state.last_capturer
    if taken:
        rest = list(state.table)
        for c in taken:
            rest.remove(c)
        table = tuple(rest)
        piles[side] += len(taken) + 1
        spades[side] += sum(1 for c in (card, *taken) if c.suit == "S")
        last_capturer = player
        sweep_counts = not (state.no_last_sweep and final_play)
        for points, what, rule, detail in move_points(card, taken, state.table, sweep_counts):
            pegs.add(side, points, what, rule, detail)
        sweeps[side] += 1 if sweep and sweep_counts else 0
        mulles[side] += 1 if mulle else 0
    else:
        table = (*state.table, card)
    move = LastMove(player, card, taken, grouping, sweep, mulle, sum(f.points for f in pegs.facts))
    plays, round_no = state.plays_in_round + 1, state.round_no
    won = pegs.check_win()
    round_over = plays == state.n * state.hand_size
    if round_over and not won and not state.is_last_round:
        plays, round_no = 0, round_no + 1
    new = evolve(state, table=table, seen=seen, piles=tuple(piles), spades=tuple(spades),
                  sweeps=tuple(sweeps), mulles=tuple(mulles), last_capturer=last_capturer,
                  last_move=move, plays_in_round=plays, round_no=round_no,
                  scores=tuple(pegs.scores), previous=tuple(pegs.previous),
                  deal_points=tuple(pegs.deal_points), scored=tuple(pegs.facts))
    if won:
        return finish(new, pegs, finished=False)
    if round_over and state.is_last_round:
        return end_of_deal(new, pegs)
    return new

def end_of_deal(state: MulleState, pegs: _Pegs) -> MulleState:
    """MULLE-END-1 with MULLE-SCORE-9's order: last capture, leftovers, then most spades."""
    leftovers = state.table
    capturer = state.last_capturer
    piles, spades = list(state.piles), list(state.spades)
    side = None if capturer is None else state.sides.side_of(capturer)
    record = {"last_capturer": capturer, "last_capture_side": side, "leftovers": leftovers}
    if side is not None:  # MULLE-AMB-4: no capture at all means nobody collects
        pegs.add(side, 1, "last_capture", "MULLE-SCORE-5", M("Last capture"))
        if pegs.check_win():
            return finish(state, pegs, finished=True, **record)
        piles[side] += len(leftovers)
        spades[side] += sum(1 for c in leftovers if c.suit == "S")
        for card in sorted(leftovers, key=card_sort_key):
            value, what = point_value(card)
            pegs.add(side, value, what, "MULLE-SCORE-6", M("%(card)s left on the table", card=card))
        if pegs.check_win():
            state = evolve(state, piles=tuple(piles), spades=tuple(spades), table=())
            return finish(state, pegs, finished=True, **record)
    state = evolve(state, piles=tuple(piles), spades=tuple(spades),
                    table=() if side is not None else state.table)
    most = max(spades)
    leaders = [s for s, count in enumerate(spades) if count == most]
    most_side = leaders[0] if len(leaders) == 1 else None
    if most_side is not None:
        pegs.add(most_side, 1, "most_spades", "MULLE-SCORE-7", M("Most spades (%(most)s of 26)", most=most))
    pegs.check_win()
    return finish(state, pegs, finished=True, most_spades=most_side, spades_counted=True, **record)

def finish(state: MulleState, pegs: _Pegs, finished: bool, **record: Any) -> MulleState:
    """Close the deal (all cards played) or the game (61 reached): write its history line."""
    entry = DealRecord(
        deal=state.deal_no, dealer=state.dealer, finished=finished, points=tuple(pegs.deal_points),
        scores=tuple(pegs.scores), sweeps=state.sweeps, mulles=state.mulles, piles=state.piles,
        spades=state.spades, **record)
    new = with_pegs(state, pegs)
    phase: Phase = "over" if pegs.winner is not None else "deal"
    return evolve(new, phase=phase, history=(*state.history, entry), deal_end=entry if finished else None,
                   winner=pegs.winner)

def with_pegs(state: MulleState, pegs: _Pegs) -> MulleState:
    return evolve(state, scores=tuple(pegs.scores), previous=tuple(pegs.previous),
                   deal_points=tuple(pegs.deal_points), scored=tuple(pegs.facts))
