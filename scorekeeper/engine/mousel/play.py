"""Mousel's tricks: a card played, the revoke audit as proposals, the table's verdict on them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from scorekeeper.cards import Card
from scorekeeper.engine.core import (
    Proposal,
    RuleViolation,
    evolve,
    int_field,
    overrule,
    player_field,
)
from scorekeeper.engine.messages import M, Suit
from scorekeeper.engine.mousel.scoring import _settle
from scorekeeper.engine.mousel.state import (
    Deal,
    MouselState,
    Play,
    Trick,
    _card,
    _with,
    phase_name,
)
from scorekeeper.engine.tricks import audit_revokes, winning_index


def on_play(state: MouselState, event: Mapping[str, Any]) -> MouselState:
    player = player_field(event, len(state.players))
    deal, play = state.deal, state.play
    if deal is not None and deal.phase == "review":
        raise RuleViolation("MOUSEL-POT-8", M("all %(n)s tricks are played; confirm or dismiss the revoke proposals first", n=deal.n))
    if deal is None or deal.phase != "play" or play is None:
        raise RuleViolation("MOUSEL-EXCH-6", M("no card is played before everyone has decided and the taker has thrown away his extra card (phase: %(phase)s)",
                                                       phase=phase_name(state.phase)))
    card = _card(event, state.opts)
    if player not in play.active:
        raise RuleViolation("MOUSEL-EXCH-7", M("%(player)s is not playing this deal", player=state.players[player]))
    active, before = play.active, play.current
    expected = active[(active.index(before[-1][0]) + 1) % len(active)] if before else play.leader  # play.to_act
    if player != expected:
        raise RuleViolation("MOUSEL-PLAY-1", M("it is %(player)s's turn to play, not %(player2)s's", player=state.players[expected], player2=state.players[player]), to_act=expected)
    taker, trump_card = deal.taker, deal.trump_card
    assert taker is not None and trump_card is not None
    if card in play.seen or card == trump_card or deal.set_aside:  # the rare cases, checked in full
        try:
            _check_unseen(state, deal, play, player, card)
        except RuleViolation as exc:
            # Who may hold the turned-up card is a matter of tracking, and a newer version tracks
            # it closer: a stored play of it stands (core.overrule). A card seen twice never does.
            if card != trump_card or card in play.seen or card in deal.set_aside:
                raise
            overrule(exc)
    current = before + ((player, card),)
    failed = play.failed
    if before:
        led = before[0][1].suit
        if card.suit != led and led not in failed[player]:
            failed = failed[:player] + (failed[player] | {led},) + failed[player + 1:]
    tricks, won, leader = play.tricks, play.won, play.leader
    if len(current) == len(active):
        # ``current`` names each card's seat in play order: no need to walk the ring from the leader
        winner = current[winning_index([c for _, c in current], trump_card.suit, state.opts.order)][0]
        tricks = tricks + (Trick(leader, current, winner),)
        won = won[:winner] + (won[winner] + 1,) + won[winner + 1:]
        leader, current = winner, ()
    new = Play(active, leader, current, tricks, won, play.seen | {card}, failed, play.proposals)
    if card.suit in play.failed[player]:
        new = evolve(new, proposals=_revoke_proposals(state, trump_card.suit, new, player))
    if state.opts.keep_trumpcard and player == taker and card != trump_card:
        new = _check_trumpcard_kept(state, deal, new, card)
    if len(tricks) < len(deal.ring):  # deal.n
        # the hot path of a replay: build the state directly rather than through ``_with``
        return MouselState(state.players, state.opts, state.mode, state.session, deal, new)
    if any(p.status == "pending" for p in new.proposals):
        return _with(state, deal=evolve(deal, phase="review"), play=new, scored=())
    return _settle(state, deal, new)


def _check_unseen(state: MouselState, deal: Deal, play: Play, player: int, card: Card) -> None:
    if card in play.seen:
        raise RuleViolation("MOUSEL-COMP-1", M("%(card)s has already been played this deal", card=card), card=str(card))
    if card in deal.set_aside:
        raise RuleViolation("MOUSEL-COMP-1", M("%(card)s was turned up, refused and set aside; it is out of play", card=card),
                            card=str(card))
    # The turn-up card can reach another hand only through a reshuffle of thrown-away cards.
    if card == deal.trump_card and not deal.may_hold_trump_card(player):
        assert deal.taker is not None
        if player == deal.taker:
            raise RuleViolation("MOUSEL-COMP-1", M("%(card)s is the turned-up card, and %(player)s threw away his whole hand", card=card, player=state.players[player]),
                                card=str(card))
        raise RuleViolation("MOUSEL-COMP-1", M("%(card)s is the turned-up card that %(player)s took", card=card, player=state.players[deal.taker]),
                            card=str(card))


def _revoke_proposals(state: MouselState, trump: str, play: Play, player: int) -> tuple[Proposal, ...]:
    """New proposals for every revoke the cards so far prove (MOUSEL-PLAY-2, README §4), once
    ``player`` has played a suit he failed to follow before.

    Only ``player``'s plays are audited. Mousel's one duty is to follow suit, so a revoke is proven
    by its player's later card of the suit led; ``on_play`` audits at each such card, so every
    other player's provable revokes were proposed at their own (a proposal is never withdrawn)."""
    plays = [t.plays for t in play.tricks]
    if play.current:
        plays.append(play.current)
    known = {(p.player, p.trick) for p in play.proposals if p.kind == "revoke"}
    out = list(play.proposals)
    for revoke in audit_revokes(plays, trump, state.opts.obligations, seats=(player,)):
        if (revoke.player, revoke.trick) in known:
            continue
        message = M("%(player)s must follow %(suit)s: played %(card)s at trick %(trick)s but later played "
                    "%(evidence)s (trick %(evidence_trick)s)", player=state.players[revoke.player],
                    suit=Suit(revoke.led_suit), card=revoke.card, trick=revoke.trick, evidence=revoke.evidence,
                    evidence_trick=str(revoke.evidence_trick))
        out.append(Proposal(len(out) + 1, revoke.player, "revoke", "MOUSEL-PLAY-2", message, trick=revoke.trick,
                            card=revoke.card, evidence=revoke.evidence, evidence_trick=revoke.evidence_trick,
                            data={"led_suit": revoke.led_suit}))
        known.add((revoke.player, revoke.trick))
    return tuple(out)


def _check_trumpcard_kept(state: MouselState, deal: Deal, play: Play, card: Card) -> Play:
    """MOUSEL-OPT-KEEP-TRUMPCARD: a taker whose last card is not the turned-up one threw it away."""
    taker = deal.taker
    played = [c for t in play.tricks for p, c in t.plays if p == taker] + [c for p, c in play.current if p == taker]
    if len(played) < deal.n or deal.trump_card in played:
        return play
    assert taker is not None
    trick = len(play.tricks) + (1 if play.current else 0)
    message = M("%(player)s played his last card %(card)s at trick %(trick)s without ever playing the turned-up "
                "%(trump_card)s, so he threw it away", player=state.players[taker], card=card, trick=trick,
                trump_card=deal.trump_card)
    proposal = Proposal(len(play.proposals) + 1, taker, "trumpcard", "MOUSEL-OPT-KEEP-TRUMPCARD", message,
                        trick=trick, card=card, evidence=deal.trump_card, data={"led_suit": None})
    return evolve(play, proposals=play.proposals + (proposal,))


def on_verdict(state: MouselState, event: Mapping[str, Any]) -> MouselState:
    ident = int_field(event, "proposal", minimum=1)
    deal, play = state.deal, state.play
    if deal is None or play is None or deal.phase not in ("play", "review"):
        raise RuleViolation("MOUSEL-POT-8", M("there is no revoke to decide now"))
    match = [p for p in play.proposals if p.id == ident]
    if not match:
        raise RuleViolation("MOUSEL-POT-8", M("there is no proposal #%(ident)s in this deal", ident=ident))
    proposal = match[0]
    if proposal.status != "pending":
        # Two whole sentences, not a status word slotted in: "confirmed" has no place in a Swedish one.
        message = (M("proposal #%(ident)s was already confirmed", ident=ident) if proposal.status == "confirmed"
                   else M("proposal #%(ident)s was already dismissed", ident=ident))
        raise RuleViolation("MOUSEL-POT-8", message)
    status: Literal["confirmed", "dismissed"] = "confirmed" if event["type"] == "confirm" else "dismissed"
    proposals = tuple(evolve(p, status=status) if p.id == ident else p for p in play.proposals)
    new = evolve(play, proposals=proposals)
    if deal.phase == "review" and not any(p.status == "pending" for p in proposals):
        return _settle(state, deal, new)
    return _with(state, play=new, scored=())
