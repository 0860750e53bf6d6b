"""Post-deal review: from a table's own log, every move where the rules allowed something better
by the game's own scoring, and what it would have scored.

* Mulle, Kasino: the card played could have taken a mulle, a sweep or more point cards
  (Kasino misär: fewer, among the captures MIS-2 allows), or the move left the table for the
  next player's card to sweep when another capture with the same card would not have.
* Muggins: every placement the priority rule forbade (MUGGINS-PEN-1), with the place it
  belonged and the penalty cards it cost.
* Mulatschak, Mousel: every revoke the cards played prove (the retroactive audit of
  :mod:`scorekeeper.engine.tricks`), with the card that should have gone to that trick, who
  would have won the trick with it, and what the revoke costs on the sheet or in tokens.

Only what the log proves: an alternative uses the very card played (or, for a revoke, a card
the player is proven to have held by a later play or an entered hand); hidden cards are never
guessed. Every ``better`` event is checked by the game's own ``apply`` on the state before
the move, so the review never suggests a move the engine would refuse.

The review is pure: ``review(game, players, options, mode, events, deal)`` with ``events`` the
table's effective ``(seq, event)`` pairs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from scorekeeper.cards import Card, parse_card, parse_cards
from scorekeeper.engine.base import Event, MalformedEvent, RuleViolation
from scorekeeper.engine.capture import can_capture, can_sweep, maximal_captures
from scorekeeper.engine.kasino import KasinoState
from scorekeeper.engine.mousel import MouselState, split_pot
from scorekeeper.engine.muggins import MugginsState
from scorekeeper.engine.mulatschak import BREACH_RULES, ORDER, MulState, deal_changes
from scorekeeper.engine.mulle import MulleState, move_points
from scorekeeper.engine.tricks import (
    Obligations,
    RankOrder,
    audit_revokes,
    hand_at,
    legal_cards,
    winning_index,
)

__all__ = ["Review", "ReviewLine", "review", "review_deals"]

GAMES = ("mulle", "kasino", "muggins", "mulatschak", "mousel")
_SLIPS = (RuleViolation, MalformedEvent, ValueError, KeyError, TypeError)


@dataclass(frozen=True, slots=True)
class ReviewLine:
    """One missed chance. ``what`` names it (mulle, sweep, points, fewer_points, left_sweep,
    muggins, revoke); ``facts`` fill the sentence the web layer renders."""

    deal: int
    seq: int
    player: int
    card: str
    played: Event
    better: Event
    gain: int
    rule: str
    what: str
    facts: Mapping[str, Any] = field(default_factory=dict)

    def describe(self) -> str:
        return f"#{self.seq} player {self.player} {self.card}: {self.what} (+{self.gain}, {self.rule}) {dict(self.facts)}"

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "deal": self.deal, "player": self.player, "card": self.card,
                "played": dict(self.played), "better": dict(self.better), "gain": self.gain, "rule": self.rule,
                "what": self.what, "facts": dict(self.facts)}


@dataclass(frozen=True, slots=True)
class Review:
    deal: int | None          # None: the game has no deal yet
    deals: tuple[int, ...]    # every deal the log holds
    over: bool                # this deal is finished (its lines are final)
    lines: tuple[ReviewLine, ...]


@dataclass(slots=True)
class _Step:
    seq: int
    event: Event
    before: Any
    after: Any


def review(game: str, players: Sequence[str], options: Mapping[str, Any], mode: str,
           events: Sequence[tuple[int, Event]], deal: int | None = None) -> Review:
    """The review of ``deal`` (default: the latest one) of a table's effective events."""
    found = review_deals(game, players, options, mode, events, None if deal is None else (deal,))
    if not found:
        return Review(None, (), False, ())
    if deal is None:
        return found[-1]
    return found[0]


def review_deals(game: str, players: Sequence[str], options: Mapping[str, Any], mode: str,
                 events: Sequence[tuple[int, Event]], deals: Sequence[int] | None = None) -> list[Review]:
    """The reviews of ``deals`` (default: every deal) from one replay of the log; a deal the log
    does not hold comes back with no lines (``deals`` of each review lists the real ones)."""
    from scorekeeper.engine import RULES

    if game not in GAMES or mode != "adjudicate":
        return []
    rules = RULES[game]
    state = rules.new(players, options, "adjudicate")
    steps: list[_Step] = []
    for seq, event in events:
        after = rules.apply(state, event)
        steps.append(_Step(seq, event, state, after))
        state = after
    number = _deal_numbers(game, steps)
    held = tuple(sorted({d for d in number if d}))
    if not held:
        return [Review(None, held, False, ())]
    out: list[Review] = []
    for deal in held if deals is None else deals:
        mine = [(i, step) for i, step in enumerate(steps) if number[i] == deal]
        lines: list[ReviewLine]
        if game in ("mulle", "kasino"):
            lines = _fishing(game, rules, steps, mine, deal)
        elif game == "muggins":
            lines = _muggins(rules, mine, deal)
        else:
            lines = _tricks(game, rules, mine, deal, state)
        out.append(Review(deal, held, _deal_over(game, deal, number, state), tuple(lines)))
    return out


# --- deals -------------------------------------------------------------------------------------


def _deal_of(game: str, state: Any) -> int:
    if game == "mulle":
        return int(state.deal_no) if state.phase == "play" else 0
    if game == "kasino":
        return int(state.deal_no) if state.phase == "play" else 0
    if game == "muggins":
        return 1
    current = state.deal
    return int(current.number) if current is not None else 0


def _deal_numbers(game: str, steps: Sequence[_Step]) -> list[int]:
    """The deal each event belongs to: the deal in play before it, else the one it starts."""
    out: list[int] = []
    for step in steps:
        number = _deal_of(game, step.before) or _deal_of(game, step.after)
        out.append(number)
    return out


def _deal_over(game: str, deal: int, numbers: Sequence[int], final: Any) -> bool:
    if any(n > deal for n in numbers) or getattr(final, "over", False):
        return True
    if game in ("mulle", "kasino"):
        return bool(final.phase != "play")
    if game == "muggins":
        return bool(final.over)
    return any(row.deal == deal for row in (final.sheet if game == "mulatschak" else final.session.sheet))


def _accepts(rules: Any, before: Any, event: Event) -> bool:
    try:
        rules.apply(before, event)
    except _SLIPS:
        return False
    return True


# --- Mulle and Kasino --------------------------------------------------------------------------

def _card_points(card: Card) -> int:
    """KASINO-SCORE-1's point cards: each Ace 1, lillan 1, storan 2 (settled at the deal's end,
    but owned by whoever captured them)."""
    if card.rank == "A":
        return 1
    return {("2", "S"): 1, ("10", "D"): 2}.get((card.rank, card.suit), 0)


@dataclass(frozen=True, slots=True)
class _Position:
    """What a fishing move is judged against: table, value scheme, whether a sweep scores."""

    table: tuple[Card, ...]
    player: int
    sweep_counts: bool
    misar: bool
    maxcount: bool
    mulle_alone: bool
    scheme: Any

    def points(self, card: Card, taken: Sequence[Card], game: str) -> int:
        if not taken:
            return 0
        if game == "mulle":
            return sum(p for p, _, _, _ in move_points(card, taken, self.table, self.sweep_counts))
        sweep = len(taken) == len(self.table)
        return _card_points(card) + sum(_card_points(c) for c in taken) + (1 if sweep and self.sweep_counts else 0)


def _position(game: str, state: Any, player: int) -> _Position:
    if game == "mulle":
        m: MulleState = state
        return _Position(m.table, player, not (m.no_last_sweep and m.final_play_next), False, False,
                         m.mulle_alone, m.scheme)
    k: KasinoState = state
    cfg = k.cfg
    final_round = (len(k.turns) >= k.stock_start) if cfg.drag else k.round == k.rounds_total
    return _Position(k.table, player, not (cfg.no_last_tabbe and final_round), cfg.misar, cfg.maxcount,
                     False, cfg.scheme)


def _without(table: Sequence[Card], taken: Sequence[Card]) -> list[Card]:
    rest = list(table)
    for card in taken:
        rest.remove(card)
    return rest


def _next_sweeper(game: str, steps: Sequence[_Step], index: int) -> Card | None:
    """The card of the next play if it swept the table (and the sweep scored), else None."""
    if index + 1 >= len(steps):
        return None
    nxt = steps[index + 1]
    if nxt.event.get("type") != "play" or _deal_of(game, nxt.before) != _deal_of(game, steps[index].before):
        return None
    if not any(s.what == "tabbe" for s in nxt.after.scored) and \
            not (game == "kasino" and nxt.after.turns and nxt.after.turns[-1].tabbe_scores):
        return None
    card: Card = parse_card(str(nxt.event["card"]))
    return card


def _fishing(game: str, rules: Any, steps: Sequence[_Step], mine: Sequence[tuple[int, _Step]],
             deal: int) -> list[ReviewLine]:
    lines: list[ReviewLine] = []
    for index, step in mine:
        event = step.event
        if event.get("type") != "play" or step.before.phase != "play":
            continue
        player = int(event["player"])
        card = parse_card(str(event["card"]))
        raw = event.get("capture") or []
        taken = tuple(parse_cards(raw) if isinstance(raw, (list, str)) else [])
        pos = _position(game, step.before, player)
        line = _best_alternative(game, rules, steps, index, step, pos, card, taken, deal)
        if line is not None:
            lines.append(line)
    return lines


def _candidates(pos: _Position, card: Card, taken: Sequence[Card], full: bool) -> list[tuple[Card, ...]]:
    """The captures worth comparing. Points grow only with point cards taken, a sweep and a
    mulle, so besides the twin alone (mulle) and the whole table (sweep) only the
    inclusion-maximal captures can score more — and only when a point card was left on the table
    or a point card was trailed (or ``full``: the table left matters, because the next card
    swept it). Listing maximal
    captures at every play would cost most of the review's time for nothing."""
    table = pos.table
    if not table:
        return [()]
    if pos.misar:
        if can_sweep(card, table, pos.scheme):
            return []  # KASINO-MIS-1: this card owes the tabbe; nothing else is allowed
        if not can_capture(card, table, pos.scheme):
            return [()]
        by: Literal["inclusion", "count"] = "count" if pos.maxcount else "inclusion"
        return [tuple(c) for c, _ in maximal_captures(card, table, pos.scheme, by=by)]
    left = Counter(table) - Counter(taken)
    found: list[tuple[Card, ...]] = []
    if full or any(_card_points(c) for c in left) or (not taken and _card_points(card)):
        found = [tuple(c) for c, _ in maximal_captures(card, table, pos.scheme)]
    elif can_sweep(card, table, pos.scheme):
        found = [tuple(table)]
    if card in table:
        found.append((card,))
    if pos.mulle_alone:
        found = [c for c in found if not (card in c and len(c) > 1)]
    found.append(())
    return found


def _round_of(game: str, state: Any) -> int:
    """The round a fishing play belongs to: new cards come only with the next round, so a card a
    player plays later in the same round was in their hand all along (rules README §4)."""
    if game == "mulle":
        return int(state.round_no)
    return 0 if state.cfg.drag else int(state.round)


def _held_later(game: str, steps: Sequence[_Step], index: int, player: int) -> list[tuple[Card, _Step]]:
    """The cards ``player`` plays later in the same deal and round, each with the play that shows it:
    what the log proves they held at ``steps[index]``. Nothing in Dragkasino, where a draw may
    have brought the card in between."""
    here = steps[index].before
    if game == "kasino" and here.cfg.drag:
        return []
    deal, rnd = _deal_of(game, here), _round_of(game, here)
    out: list[tuple[Card, _Step]] = []
    for later in steps[index + 1:]:
        if later.event.get("type") != "play" or later.before.phase != "play":
            continue
        if _deal_of(game, later.before) != deal or _round_of(game, later.before) != rnd:
            break
        if later.event.get("player") == player:
            out.append((parse_card(str(later.event["card"])), later))
    return out


def _later_made(game: str, later: _Step, what: str) -> bool:
    """Did the later play of the held card make the mulle or sweep after all (then nothing was missed)?"""
    if game == "mulle":
        move = later.after.last_move
        return bool(move is not None and (move.mulle if what == "mulle" else move.sweep))
    turn = later.after.turns[-1] if later.after.turns else None
    return bool(turn is not None and turn.tabbe)


def _held_candidates(game: str, steps: Sequence[_Step], index: int, pos: _Position,
                     card: Card) -> list[tuple[Card, tuple[Card, ...], str, _Step]]:
    """Mulles and sweeps another card the player is proven to hold could have made now, and did
    not make later: ``(card, capture, what, the later play)``."""
    if pos.misar or not pos.table:
        return []
    out: list[tuple[Card, tuple[Card, ...], str, _Step]] = []
    for held, later in _held_later(game, steps, index, pos.player):
        if held == card:
            continue
        if game == "mulle" and held in pos.table and not _later_made(game, later, "mulle"):
            out.append((held, (held,), "mulle", later))
        if pos.sweep_counts and can_sweep(held, pos.table, pos.scheme) and not _later_made(game, later, "sweep"):
            if not (pos.mulle_alone and held in pos.table and len(pos.table) > 1):
                out.append((held, tuple(pos.table), "sweep", later))
    return out


def _best_alternative(game: str, rules: Any, steps: Sequence[_Step], index: int, step: _Step, pos: _Position,
                      card: Card, taken: tuple[Card, ...], deal: int) -> ReviewLine | None:
    sweeper = None if pos.misar else _next_sweeper(game, steps, index)
    played_points = pos.points(card, taken, game)
    sign = -1 if pos.misar else 1

    def denied(capture: tuple[Card, ...]) -> int:
        if sweeper is None:
            return 0
        left = _without(pos.table, capture) if capture else [*pos.table, card]
        return 0 if left and can_sweep(sweeper, left, pos.scheme) else 1 if left else 0

    # (value, points, capture, the card that makes it, the later play proving it was held)
    scored: list[tuple[int, int, tuple[Card, ...], Card, _Step | None]] = []
    mine = Counter(taken)
    for capture in _candidates(pos, card, taken, sweeper is not None):
        if Counter(capture) == mine:
            continue
        points = pos.points(card, capture, game)
        value = sign * (points - played_points) + denied(capture)
        if value > 0:
            scored.append((value, points, capture, card, None))
    for held, capture, _, shown in _held_candidates(game, steps, index, pos, card):
        points = pos.points(held, capture, game)
        if points > played_points:
            scored.append((points - played_points, points, capture, held, shown))
    scored.sort(key=lambda item: (-item[0], item[4] is not None, len(item[2])))
    for value, points, capture, with_card, later in scored:
        better = {k: v for k, v in step.event.items() if k != "expected_seq"}
        better["card"], better["capture"] = str(with_card), [str(c) for c in capture]
        if not _accepts(rules, step.before, better):
            continue
        what, rule = _fishing_reason(game, pos, with_card, taken if later is None else (), capture, points,
                                     played_points if later is None else -1, sweeper is not None)
        facts = {"table": " ".join(str(c) for c in pos.table), "taken": " ".join(str(c) for c in taken),
                 "capture": " ".join(str(c) for c in capture), "points": points, "played_points": played_points,
                 "sweeper": "" if sweeper is None else str(sweeper),
                 "held": "" if later is None else str(with_card), "held_seq": None if later is None else later.seq}
        return ReviewLine(deal, step.seq, pos.player, str(card), dict(step.event), better, value, rule, what, facts)
    return None


def _fishing_reason(game: str, pos: _Position, card: Card, taken: Sequence[Card], capture: Sequence[Card],
                    points: int, played_points: int, left_sweep: bool) -> tuple[str, str]:
    prefix = "MULLE" if game == "mulle" else "KASINO"
    if pos.misar:
        return "fewer_points", "KASINO-MIS-2"
    mulle = game == "mulle" and list(capture) == [card]
    if mulle and list(taken) != [card]:
        return "mulle", "MULLE-SCORE-3"
    sweep = bool(capture) and len(capture) == len(pos.table) and pos.sweep_counts
    if sweep and len(taken) != len(pos.table):
        return "sweep", "MULLE-SCORE-2" if game == "mulle" else "KASINO-SCORE-1"
    if points > played_points:
        return "points", f"{prefix}-SCORE-1"
    return "left_sweep", "MULLE-SCORE-2" if game == "mulle" else "KASINO-SCORE-1"


# --- Muggins -----------------------------------------------------------------------------------


def _muggins(rules: Any, mine: Sequence[tuple[int, _Step]], deal: int) -> list[ReviewLine]:
    lines: list[ReviewLine] = []
    for _, step in mine:
        before: MugginsState = step.before
        after: MugginsState = step.after
        call = after.last_muggins
        if step.event.get("type") != "turn" or call is None or call is before.last_muggins:
            continue
        for place in call.correct:
            better = {k: v for k, v in step.event.items() if k not in ("moved_to", "expected_seq")}
            better["to"] = place.to_json()
            if _accepts(rules, before, better):
                facts = {"placed": call.placed.kind, "placed_on": "" if call.placed_on is None else str(call.placed_on),
                         "correct": place.kind, "correct_index": place.index, "cards": call.penalty_cards,
                         "fitted": call.fitted}
                lines.append(ReviewLine(deal, step.seq, call.player, str(call.card), dict(step.event), better,
                                        call.penalty_cards, "MUGGINS-PEN-1", "muggins", facts))
                break
    return lines


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
