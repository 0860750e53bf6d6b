"""Playing a card (captures, trails, Dragkasino's draw), the end of a deal, confirming or dismissing
a misär proposal, and a misdeal."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from scorekeeper.cards import Card, parse_card, parse_cards
from scorekeeper.engine.base import (
    MalformedEvent,
    RuleViolation,
    Scored,
    int_field,
)
from scorekeeper.engine.capture import (
    can_sweep,
    explain_failure,
    find_grouping,
)
from scorekeeper.engine.core import Proposal, overrule
from scorekeeper.engine.kasino.deal import active_player, require_playing
from scorekeeper.engine.kasino.misar import (
    _capture_duty,
    _known_hand,
    _missed_tabbes,
    _tabbe_evidence,
)
from scorekeeper.engine.kasino.scoring import (
    _add_points,
    _bump,
    _claim_win,
    _claimable,
    _close_deal,
    _settle,
    score_deal,
)
from scorekeeper.engine.kasino.state import (
    PENALTY,
    PLAYS_PER_DEAL,
    TARGET,
    Pile,
    Turn,
    _cards,
    _next_proposal_id,
    _proposal,
    _sweep_name,
    _sweeps,
)
from scorekeeper.engine.messages import M, Msg

if TYPE_CHECKING:
    from scorekeeper.engine.kasino.state import Facts, KasinoState

# --- play --------------------------------------------------------------------------------------

def on_play(s: KasinoState, event: Mapping[str, Any]) -> KasinoState:
    require_playing(s)
    cfg = s.cfg
    player = active_player(s, event)
    if player != s.to_act:
        who = s.players[s.to_act] if s.to_act is not None else M("nobody")
        raise RuleViolation("KASINO-TURN-1", M("it is %(to_act)s's turn, not %(player)s's", to_act=who,
                                               player=s.players[player]),
                            to_act=s.to_act, player=player)
    if "card" not in event:
        raise MalformedEvent(M("a play needs 'card'"), event)
    card = parse_card(event["card"])
    raw_capture = event.get("capture")
    if raw_capture is not None and not isinstance(raw_capture, (list, str)):
        raise MalformedEvent(M("'capture' must list the table cards taken"), event)
    taken = tuple(parse_cards(raw_capture)) if raw_capture else ()
    check_played_card(s, player, card)
    check_taken(s, card, taken)
    grouping = find_grouping(card, taken, cfg.scheme) if taken else None
    if taken and grouping is None:
        overrule(RuleViolation("KASINO-CAP-4", M("%(card)s cannot take %(taken)s: %(why)s", card=card,
                                                 taken=_cards(taken), why=explain_failure(card, taken, cfg.scheme)),
                               played=str(card), taken=[str(c) for c in taken]))
    proposals: list[Proposal] = []
    next_id = _next_proposal_id(s)
    if cfg.forced_capture:
        breach = _capture_duty(cfg, card, s.table, taken)
        if breach is not None:
            rule, message, facts = breach
            if not (cfg.misar and cfg.penalty_b):
                overrule(RuleViolation(rule, message, **facts))
            else:
                proposals.append(_proposal(next_id, s.deal_no, player, "KASINO-MIS-2", "KASINO-OPT-MISAR-PENALTY-B",
                                           len(s.turns), Msg("%(player)s: %(message)s; +%(points)s", {
                                               "player": s.players[player], "message": message, "points": PENALTY}),
                                           facts))
                next_id += 1
    drew, drew_unknown = draw_after_play(s, event, card, taken)
    tabbe = bool(taken) and len(taken) == len(s.table)
    final_round = (len(s.turns) >= s.stock_start) if cfg.drag else s.round == s.rounds_total
    turn = Turn(
        number=len(s.turns), player=player, round=0 if cfg.drag else s.round, card=card, taken=taken,
        table_before=s.table, grouping=grouping, tabbe=tabbe,
        tabbe_scores=tabbe and not (cfg.no_last_tabbe and final_round),
        drew=drew, drew_unknown=drew_unknown,
        could_sweep=cfg.misar and can_sweep(card, s.table, cfg.scheme),
    )
    if cfg.misar:
        for earlier, sweeper in _missed_tabbes(s, turn):
            evidence = _tabbe_evidence(s, earlier, sweeper, turn)
            message = M("%(player)s held %(card)s at play %(play)s (table %(table)s) and could have made a "
                        "tabbe, but %(move)s", player=s.players[player], card=sweeper, play=earlier.number + 1,
                        table=_cards(earlier.table_before), move=earlier.describe())
            if cfg.strict:
                overrule(RuleViolation("KASINO-MIS-1", M("%(message)s: take the moves back to that play "
                                       "(KASINO-OPT-MISAR-STRICT)", message=message),
                                       take_back_to=earlier.number + 1, **evidence))
                continue
            proposals.append(_proposal(next_id, s.deal_no, player, "KASINO-MIS-1", "KASINO-MIS-5",
                                       earlier.number, Msg("%(message)s; +%(points)s",
                                                          {"message": message, "points": PENALTY}), evidence))
            next_id += 1
    return after_play(s, turn, tuple(proposals))

def check_played_card(s: KasinoState, player: int, card: Card) -> None:
    if card in s.table:
        raise RuleViolation("KASINO-TURN-1", M("%(card)s lies on the table; a card is played from the hand",
                                               card=card),
                            card=str(card))
    if card in s.seen and card not in _known_hand(s, player):
        holder = next((p for p in range(len(s.players)) if card in _known_hand(s, p)), None)
        raise RuleViolation("KASINO-COMP-1", M("%(card)s was drawn by %(holder)s; the pack has one of each card",
                                               card=card, holder=s.players[holder]) if holder is not None else
                            M("%(card)s was already played this deal; the pack has one of each card", card=card),
                            card=str(card))

def check_taken(s: KasinoState, card: Card, taken: tuple[Card, ...]) -> None:
    if not taken:
        return
    if not s.table:
        raise RuleViolation("KASINO-TURN-5", M("the table is empty after the tabbe: the card must be trailed"))
    repeated = [c for c, k in Counter(taken).items() if k > 1]
    if repeated:
        raise RuleViolation("KASINO-CAP-4", M("%(card)s is listed twice; each table card is taken in exactly "
                                              "one group", card=repeated[0]), card=str(repeated[0]))
    missing = [c for c in taken if c not in s.table]
    if missing:
        table = _cards(s.table) if s.table else M("empty")
        raise RuleViolation("KASINO-TURN-2", M("%(cards)s is not on the table (%(table)s)", cards=_cards(missing),
                                               table=table) if len(missing) == 1 else
                            M("%(cards)s are not on the table (%(table)s)", cards=_cards(missing), table=table),
                            missing=[str(c) for c in missing])

def draw_after_play(s: KasinoState, event: Mapping[str, Any], card: Card,
          taken: tuple[Card, ...]) -> tuple[Card | None, bool]:
    raw = event.get("draw")
    if not s.cfg.drag:
        if raw is not None:
            raise RuleViolation("KASINO-DRAG-2", M("players draw from a stock only in Dragkasino"))
        return None, False
    draws = len(s.turns) < s.stock_start
    if raw is None:
        return None, draws
    drawn = parse_card(raw)
    if not draws:
        raise RuleViolation("KASINO-DRAG-3", M("the stock is empty: nothing is drawn any more"), card=str(drawn))
    if drawn in s.seen or drawn == card or drawn in taken:
        raise RuleViolation("KASINO-COMP-1", M("%(card)s has already been seen this deal; the stock cannot "
                                               "hold it", card=drawn), card=str(drawn))
    return drawn, False

def after_play(s: KasinoState, turn: Turn, proposals: tuple[Proposal, ...]) -> KasinoState:
    player = turn.player
    pile = s.piles[player]
    if turn.taken:
        pile = Pile(pile.cards + (turn.card,) + turn.taken, pile.tabbes + turn.tabbe_scores,
                    pile.sweeps + turn.tabbe)
        table = tuple(c for c in s.table if c not in turn.taken)
    else:
        table = s.table + (turn.card,)
    piles = s.piles[:player] + (pile,) + s.piles[player + 1:]
    seen = s.seen | {turn.card} | ({turn.drew} if turn.drew else set())
    state = replace(s, table=table, piles=piles, turns=s.turns + (turn,), seen=seen,
                    last_capturer=player if turn.taken else s.last_capturer,
                    proposals=s.proposals + proposals, scored=(), announce=())
    if len(state.turns) == PLAYS_PER_DEAL:
        return end_deal(state)
    announce: list[str] = []
    if state.cfg.drag:
        if state.stock == 0 and s.stock > 0:
            announce.append("sistan")
    elif state.round != s.round and state.round == state.rounds_total:
        announce.append("sistan")  # KASINO-DEAL-6: the last round is about to be dealt
    if state.cfg.misar:
        announce.extend(f"tabbe på {_sweep_name(v)}" for v in _sweeps(state))
    state = replace(state, announce=tuple(announce))
    if state.cfg.auto_claim:
        side = state.sides.side_of(player)
        if _claimable(state, side) >= TARGET:
            return _claim_win(state, side, "KASINO-AMB-13")
    return state

# --- end of a deal ---------------------------------------------------------------------------

def end_deal(s: KasinoState) -> KasinoState:
    leftovers = s.table
    taker = s.last_capturer if leftovers else None
    piles = list(s.piles)
    if taker is not None:  # KASINO-TURN-6; not a tabbe. Nobody captured at all: KASINO-AMB-9
        piles[taker] = replace(piles[taker], cards=piles[taker].cards + leftovers)
    facts: list[Facts | None] = [None] * len(s.players)
    for p in s.active:
        facts[p] = piles[p].facts(sistan=s.cfg.sistan and p == s.last_capturer)
    summary = score_deal(s.deal_no, facts, s.sides, s.cfg)
    summary = replace(summary, leftovers=leftovers, leftovers_to=taker)
    state = replace(s, piles=tuple(piles), table=())
    return _close_deal(state, summary, s.dealer)

# --- misär proposals ---------------------------------------------------------------------------

def on_verdict(s: KasinoState, event: Mapping[str, Any]) -> KasinoState:
    pid = int_field(event, "proposal", minimum=0)
    found = next((p for p in s.proposals if p.id == pid), None)
    if found is None or found.status != "pending":
        raise RuleViolation("KASINO-MIS-5", M("penalty proposal %(id)s does not exist", id=pid) if found is None
                            else M("penalty proposal %(id)s is already confirmed", id=pid)
                            if found.status == "confirmed" else
                            M("penalty proposal %(id)s is already dismissed", id=pid)
                            if found.status == "dismissed" else
                            M("penalty proposal %(id)s is void", id=pid), proposal=pid)
    confirm = event.get("type") == "confirm"
    updated = replace(found, status="confirmed" if confirm else "dismissed")
    proposals = tuple(updated if p.id == pid else p for p in s.proposals)
    state = replace(s, proposals=proposals, scored=(), announce=())
    if confirm:
        side = state.sides.side_of(found.player)
        state = _add_points(state, side, PENALTY)
        state = replace(state, scored=(Scored(side, PENALTY, "penalty", found.rule, found.message),))
        if s.phase == "settling" and state.history:
            row = state.history[-1]
            penalties = _bump(row.penalties, side, PENALTY)
            state = replace(state, history=state.history[:-1] + (
                replace(row, penalties=penalties, totals=state.scores),))
        else:
            state = replace(state, open_penalties=_bump(state.open_penalties, side, PENALTY))
    if state.phase == "settling" and not state.pending and state.summary is not None:
        state = _settle(state, state.summary)
    return state

def on_misdeal(s: KasinoState, event: Mapping[str, Any]) -> KasinoState:
    if s.phase != "play":
        raise RuleViolation("KASINO-AMB-12", M("a misdeal can only be called while a deal is in progress"))
    scored: list[Scored] = []
    proposals: list[Proposal] = []
    scores = list(s.scores)
    for p in s.proposals:
        if p.deal == s.deal_no and p.status != "void":
            if p.status == "confirmed":
                side = s.sides.side_of(p.player)
                scores[side] -= PENALTY
                scored.append(Scored(side, -PENALTY, "penalty void", "KASINO-AMB-12", M("misdeal")))
            p = replace(p, status="void")
        proposals.append(p)
    return replace(s, phase="between", redeal=True, table=(), seen=frozenset(), turns=(),
                   piles=(Pile(),) * len(s.players), last_capturer=None, scores=tuple(scores),
                   open_penalties=(0,) * s.sides.count, proposals=tuple(proposals),
                   deal_no=s.deal_no - 1, announce=(M("misdeal: the same dealer deals again"),),
                   scored=tuple(scored))
