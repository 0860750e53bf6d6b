"""Review of Mulle and Kasino moves: a capture the same card could have made that scores more,
or does not leave the next player a sweep."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from scorekeeper.cards import Card, parse_card, parse_cards
from scorekeeper.engine.analysis.review_steps import ReviewLine, _accepts, _deal_of, _Step
from scorekeeper.engine.capture import can_capture, can_sweep, maximal_captures
from scorekeeper.engine.kasino import KasinoState
from scorekeeper.engine.mulle import MulleState, move_points

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
