"""The tricks: a card played, the revoke audit as proposals, the table's verdict, the deal's end."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.engine.core import (
    Proposal,
    RuleViolation,
    evolve,
    int_field,
    overrule,
    player_field,
)
from scorekeeper.engine.messages import Seat
from scorekeeper.engine.mulatschak.hands import _card, _check_unseen
from scorekeeper.engine.mulatschak.scoring import _score
from scorekeeper.engine.mulatschak.state import (
    _REVOKE,
    BREACH_RULES,
    ORDER,
    Deal,
    M,
    MulState,
    _deal,
)
from scorekeeper.engine.tricks import (
    audit_revokes,
    check_play,
    hand_at,
    suit_of,
    trick_winner,
)


def on_play(state: MulState, event: Mapping[str, Any]) -> MulState:
    deal = _deal(state)
    player = player_field(event, state.n)
    card = _card(event, "card", state.opts)
    if deal.phase == "review":
        raise RuleViolation("MULAT-SCORE-9", M("all five tricks are played; confirm or dismiss the revoke proposals"))
    if deal.phase != "play":
        raise RuleViolation("MULAT-PLAY-1", M("play starts after the exchanges"))
    if deal.decisions[player] == "home":
        raise RuleViolation("MULAT-STAY-5", M("%(player)s stayed home and does not play", player=Seat(player)))
    if player != deal.to_act:
        raise RuleViolation("MULAT-PLAY-1", M("it is %(to_act)s's turn to play", to_act=Seat(deal.to_act)), to_act=deal.to_act)
    _check_unseen(deal, card, player)
    hand = deal.current_hand(player)
    active = deal.active
    trick = deal.tricks[-1] if deal.tricks and len(deal.tricks[-1]) < len(active) else ()
    trump = deal.trump
    assert trump is not None
    if hand is not None:
        if card not in hand:
            raise RuleViolation("MULAT-EXCH-8", M("%(card)s is not in the hand %(player)s entered", card=card, player=Seat(player)),
                                hand=[str(c) for c in hand])
        breach = check_play(hand, [c for _, c in trick], card, trump, state.opts.duties)
        if breach is not None:
            overrule(RuleViolation(BREACH_RULES[breach.kind], breach.describe(player, "german"), kind=breach.kind,
                                   card=str(card), witness=str(breach.witness)))
    if trick:
        tricks = deal.tricks[:-1] + (trick + ((player, card),),)
    else:
        tricks = deal.tricks + (((player, card),),)
    if len(tricks[-1]) == len(active):
        last = tricks[-1]
        winner = trick_winner([c for _, c in last], last[0][0], trump, ORDER, seats=active)
        new = evolve(deal, tricks=tricks, leader=winner, to_act=winner)
    else:
        ring = list(active)
        new = evolve(deal, tricks=tricks, to_act=ring[(ring.index(player) + 1) % len(ring)])
    after = _refresh_proposals(state, new, played_by=player)
    assert after.deal is not None
    if len(tricks) == 5 and len(tricks[-1]) == len(active):
        return _end_of_play(after)
    return after

def _end_of_play(state: MulState) -> MulState:
    deal = state.deal
    assert deal is not None
    if any(p.status == "pending" for p in state.proposals):
        return evolve(state, deal=evolve(deal, phase="review", to_act=None))
    return _score(state)

# -- proposals -------------------------------------------------------------------------------

def on_resolve(state: MulState, event: Mapping[str, Any]) -> MulState:
    ident = int_field(event, "proposal")
    confirm = event.get("type") == "confirm"
    match = [p for p in state.proposals if p.id == ident and p.status == "pending"]
    if not match:
        raise RuleViolation("MULAT-SCORE-9", M("there is no pending proposal %(ident)s", ident=ident), proposal=ident)
    proposals = tuple(evolve(p, status="confirmed" if confirm else "dismissed") if p.id == ident else p
                      for p in state.proposals)
    new = evolve(state, proposals=proposals, scored=())
    deal = new.deal
    if deal is not None and deal.phase == "review" and not any(p.status == "pending" for p in proposals):
        return _score(new)
    return new


def _refresh_proposals(state: MulState, deal: Deal, played_by: int | None = None) -> MulState:
    """Re-run the retroactive audit; each newly proven (player, trick) becomes a pending proposal,
    and every proposal of the deal, whatever its status, takes the duty and evidence the cards
    known now prove (follow before trump before head, MULAT-PLAY-3…5).

    Relabelling a decided proposal keeps its verdict: the table confirmed or dismissed a play
    (who, which trick, which card), and MULAT-SCORE-9 scores any card played against PLAY-3…5
    the same way, as failed. Nothing of it is booked yet either: proposals belong to the deal in
    progress and the deal is scored only when its last card has fallen and nothing is pending,
    so the sheet row (which lists revokers, not duties) and the totals come out the same
    whatever the label, and the label matches what the review and the desk say of that card.

    ``played_by``: the seat whose card (accepted by ``on_play``) is the only change since the
    previous refresh. Every revoke the cards proved before it is among the proposals already,
    with its label up to date (a refresh follows every play and every entered hand, and
    proposals last until the deal is booked), and the new card changes only this seat's partial
    hands (rules README §4). When its hand was entered, the card was in it and was checked live:
    the seat's partial hands hold the same cards, so only evidence still named in the hand can
    now name where it was played. Otherwise the partial hands gain this one card. So the full
    audit runs only when one of these can change a proposal, and the proposals come out exactly
    as a full audit after every play made them.
    """
    if deal.trump is None or not deal.tricks:
        return evolve(state, deal=deal, scored=())
    if played_by is not None and not _may_change(state, deal, played_by):
        return evolve(state, deal=deal, scored=())
    holding = {p: hand for p in range(state.n) if (hand := deal.current_hand(p)) is not None}
    found = audit_revokes(deal.tricks, deal.trump, state.opts.duties, holding)
    known = {(p.player, p.trick): index for index, p in enumerate(state.proposals)}
    proposals = list(state.proposals)
    next_id = state.next_id
    for revoke in found:
        if (revoke.player, revoke.trick) in known:
            index = known[(revoke.player, revoke.trick)]
            old = proposals[index]
            if (old.kind, old.evidence, old.evidence_trick) != (revoke.kind, revoke.evidence, revoke.evidence_trick):
                proposals[index] = evolve(old, kind=revoke.kind, rule=BREACH_RULES[revoke.kind], evidence=revoke.evidence,
                                          evidence_trick=revoke.evidence_trick, message=revoke.describe("german"))
            continue
        proposals.append(Proposal(next_id, revoke.player, revoke.kind, BREACH_RULES[revoke.kind],
                                  revoke.describe("german"), deal=deal.number, trick=revoke.trick, card=revoke.card,
                                  evidence=revoke.evidence, evidence_trick=revoke.evidence_trick,
                                  data=_REVOKE))
        known[(revoke.player, revoke.trick)] = len(proposals) - 1
        next_id += 1
    return evolve(state, deal=deal, proposals=tuple(proposals), next_id=next_id, scored=())


def _may_change(state: MulState, deal: Deal, player: int) -> bool:
    """Can ``player``'s card just played change the proposals (see ``_refresh_proposals``)?"""
    if deal.current_hand(player) is not None:
        return any(p.player == player and p.evidence_trick is None for p in state.proposals)
    return _new_revoke_by(state, deal, player)


def _new_revoke_by(state: MulState, deal: Deal, player: int) -> bool:
    """Do the cards ``player`` (hand not entered) has played prove a revoke not yet proposed, or
    a plainer duty than a proposal (of any status) names?"""
    assert deal.trump is not None
    proposed = {p.trick: p.kind for p in state.proposals if p.player == player and p.deal == deal.number}
    duties = state.opts.duties
    trump = deal.trump
    # Only the card just played is new in this seat's partial hands (the refresh before it left no
    # revoke unproposed), and it can be a witness only where it is of the suit led or a trump.
    # The evidence of a duty already named stays the first card played that shows it.
    played = deal.tricks[-1][-1][1]
    new_suit = suit_of(played, trump, duties.order)
    # Not the last trick: there the partial hand is the one card played, which is always legal.
    for index, trick in enumerate(deal.tricks[:-1]):
        if new_suit != trump and new_suit != suit_of(trick[0][1], trump, duties.order):
            continue
        for position, (seat, card) in enumerate(trick):
            if seat != player or position == 0:
                continue
            if proposed.get(index + 1) == "follow":
                continue   # already the plainest duty
            hand = hand_at(deal.tricks, player, index)
            breach = check_play(hand, [c for _, c in trick[:position]], card, deal.trump, duties)
            if breach is not None and breach.kind != proposed.get(index + 1):
                return True
    return False
