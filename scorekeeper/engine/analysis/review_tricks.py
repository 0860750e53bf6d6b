"""Review of Mulatschak and Mousel deals: every revoke the cards prove, the card that should have
gone to the trick, and what the revoke costs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.cards import Card, parse_card
from scorekeeper.engine.analysis.review_steps import ReviewLine, _accepts, _Step
from scorekeeper.engine.base import Event
from scorekeeper.engine.mousel import MouselState, split_pot
from scorekeeper.engine.mulatschak import BREACH_RULES, ORDER, MulState, deal_changes
from scorekeeper.engine.tricks import (
    Obligations,
    RankOrder,
    audit_revokes,
    hand_at,
    legal_cards,
    winning_index,
)

# --- Mulatschak and Mousel ---------------------------------------------------------------------


@dataclass(slots=True)
class _Played:
    seq: int
    event: Event
    before: Any


def _tricks(game: str, rules: Any, mine: Sequence[tuple[int, _Step]], deal: int, final: Any) -> list[ReviewLine]:
    tricks: list[list[tuple[int, Card]]] = []
    where: dict[tuple[int, int], _Played] = {}   # (trick index, seat) -> the play
    trump: str | None = None
    holding: dict[int, list[Card]] = {}
    active = 0
    last_deal: Any = None
    for _, step in mine:
        current = step.before.deal
        if current is None or current.number != deal:
            continue
        last_deal = current
        if step.event.get("type") != "play":
            continue
        if game == "mulatschak":
            trump, active = current.trump, len(current.active)
        else:
            trump, active = current.trump_card.suit, len(step.before.play.active)
        if not tricks or len(tricks[-1]) == active:
            tricks.append([])
        player = int(step.event["player"])
        card = parse_card(str(step.event["card"]), "german" if game == "mulatschak" else "french")
        tricks[-1].append((player, card))
        where[(len(tricks) - 1, player)] = _Played(step.seq, step.event, step.before)
    if not tricks or trump is None:
        return []
    if game == "mulatschak" and last_deal is not None and last_deal.hands:
        for p, entered in enumerate(last_deal.hands):
            if entered is not None:
                played = {c for t in tricks for s, c in t if s == p}
                holding[p] = [c for c in entered if c not in played]
    duties, order = _duties(game, final)
    lines: list[ReviewLine] = []
    for revoke in audit_revokes(tricks, trump, duties, holding):
        at = where[(revoke.trick - 1, revoke.player)]
        trick = tricks[revoke.trick - 1]
        position = next(i for i, (s, _) in enumerate(trick) if s == revoke.player)
        before_cards = [c for _, c in trick[:position]]
        allowed = legal_cards(hand_at(tricks, revoke.player, revoke.trick - 1, holding.get(revoke.player, ())),
                              before_cards, trump, duties)
        should = revoke.evidence if revoke.evidence in allowed else (allowed[0] if allowed else revoke.evidence)
        better = {"type": "play", "player": revoke.player, "card": str(should)}
        if not _accepts(rules, at.before, better):
            continue
        won_by = trick[winning_index([c for _, c in trick], trump, order)][0]
        swapped = [(s, should if s == revoke.player else c) for s, c in trick]
        would = swapped[winning_index([c for _, c in swapped], trump, order)][0] if len(trick) == active else None
        gain, status, unit = _revoke_cost(game, deal, revoke.player, final)
        rule = BREACH_RULES[revoke.kind] if game == "mulatschak" else "MOUSEL-PLAY-2"
        facts = {"trick": revoke.trick, "kind": revoke.kind, "led": revoke.led_suit, "evidence": str(revoke.evidence),
                 "evidence_trick": revoke.evidence_trick, "should": str(should), "won_by": won_by,
                 "would_win": would, "status": status, "unit": unit,
                 "penalty_rule": "MULAT-SCORE-9" if game == "mulatschak" else "MOUSEL-POT-8"}
        lines.append(ReviewLine(deal, at.seq, revoke.player, str(revoke.card), dict(at.event), better, gain, rule,
                                "revoke", facts))
    return lines


def _duties(game: str, final: Any) -> tuple[Obligations, RankOrder]:
    if game == "mulatschak":
        state: MulState = final
        return state.opts.duties, ORDER
    mousel: MouselState = final
    return mousel.opts.obligations, mousel.opts.order


def _revoke_cost(game: str, deal: int, player: int, final: Any) -> tuple[int, str, str]:
    """What the revoke costs (or would cost, if the table confirmed it) on the booked deal:
    points on the Mulatschak sheet, tokens in Mousel. ``(0, "open", …)`` while the deal runs."""
    if game == "mulatschak":
        state: MulState = final
        row = next((r for r in state.sheet if r.deal == deal), None)
        if row is None or row.declarer is None:
            return 0, "open", "points"
        tricks = [t or 0 for t in row.tricks]
        others = [p for p in row.revokes if p != player]

        def change(revokers: Sequence[int]) -> int:
            assert row is not None and row.declarer is not None
            return deal_changes(state.opts, state.n, row.declarer, row.bid, row.home, tricks, row.multiplier,
                                revokers, row.breaker)[player][0]

        with_it, without = change([*others, player]), change(others)
        return with_it - without, "confirmed" if player in row.revokes else "dismissed", "points"
    mousel: MouselState = final
    found = next((r for r in mousel.session.sheet if r.deal == deal and not r.void), None)
    if found is None or found.taker is None:
        return 0, "open", "tokens"
    active = [s for s in found.seats if s not in found.folded]
    peers = tuple(p for p in found.revokers if p != player)

    def net(revokers: tuple[int, ...]) -> int:
        split = split_pot(found.pot, found.hand_size, found.taker or 0, active, found.tricks, revokers,
                          round_largest=mousel.opts.round_largest)
        return split.shares[player] - split.due[player]

    return net(peers) - net((*peers, player)), "confirmed" if player in found.revokers else "dismissed", "tokens"
