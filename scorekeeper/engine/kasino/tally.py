"""Tally mode: one deal's facts per side, a misär penalty entered by hand."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from scorekeeper.engine.base import (
    MalformedEvent,
    RuleViolation,
    Scored,
)
from scorekeeper.engine.kasino.deal import active_player, dealer_for, require_between_deals
from scorekeeper.engine.kasino.scoring import (
    _add_points,
    _bump,
    _close_deal,
    _over_rule,
    score_deal,
)
from scorekeeper.engine.kasino.state import PACK_SIZE, PENALTY, Facts
from scorekeeper.engine.messages import M

if TYPE_CHECKING:
    from scorekeeper.engine.kasino.state import KasinoState

# --- tally mode ----------------------------------------------------------------------------------

def on_deal_result(s: KasinoState, event: Mapping[str, Any]) -> KasinoState:
    require_between_deals(s)
    dealer = dealer_for(s, event) if (event.get("dealer") is not None or s.dealer is not None
                                            or (s.draw is not None and s.draw.dealer is not None)) else None
    per_player = _tally_entries(s, event)
    facts = _validate_tally(s, per_player)
    state = replace(s, deal_no=s.deal_no + 1, dealer=dealer, scored=(), announce=())
    summary = score_deal(state.deal_no, facts, s.sides, s.cfg)
    return _close_deal(state, summary, dealer)

def on_penalty(s: KasinoState, event: Mapping[str, Any]) -> KasinoState:
    if not s.cfg.misar:
        raise RuleViolation("KASINO-MIS-5", M("penalties belong to Kasino misär"))
    if s.phase == "over":
        raise RuleViolation(_over_rule(s), M("the game is over"))
    player = active_player(s, event)
    breach = event.get("breach", "KASINO-MIS-1")
    if breach not in ("KASINO-MIS-1", "KASINO-MIS-2"):
        raise MalformedEvent(M("'breach' must be 'KASINO-MIS-1' or 'KASINO-MIS-2'"), event)
    if breach == "KASINO-MIS-2" and not s.cfg.penalty_b:
        raise RuleViolation("KASINO-MIS-5", M("a short capture is corrected, not penalised, unless the option "
                                              "misar_penalty_b is on (KASINO-AMB-8)"))
    rule = "KASINO-MIS-5" if breach == "KASINO-MIS-1" else "KASINO-OPT-MISAR-PENALTY-B"
    side = s.sides.side_of(player)
    state = _add_points(s, side, PENALTY)
    return replace(state, open_penalties=_bump(s.open_penalties, side, PENALTY), announce=(),
                   scored=(Scored(side, PENALTY, "penalty", rule, M("%(player)s broke %(breach)s",
                                                                    player=s.players[player], breach=breach)),))


# --- Tally mode -----------------------------------------------------------------------------------


_FACT_INTS = ("cards", "spades", "aces", "tabbes")
_FACT_BOOLS = ("storan", "lillan", "sistan")


def _parse_facts(raw: Any, where: str) -> Facts:
    if not isinstance(raw, Mapping):
        raise MalformedEvent(M("%(where)s must be an object with cards, spades, storan, lillan, aces, tabbes",
                               where=where), raw)
    values: dict[str, Any] = {}
    for key in _FACT_INTS:
        value = raw.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise MalformedEvent(M("%(where)s: %(key)s must be a whole number of at least 0", where=where,
                                   key=repr(key)), raw)
        values[key] = value
    for key in _FACT_BOOLS:
        value = raw.get(key, False)
        if not isinstance(value, bool):
            raise MalformedEvent(M("%(where)s: %(key)s must be true or false", where=where, key=repr(key)), raw)
        values[key] = value
    unknown = set(raw) - set(_FACT_INTS) - set(_FACT_BOOLS)
    if unknown:
        raise MalformedEvent(M("%(where)s: unknown field(s) %(fields)s", where=where,
                               fields=", ".join(sorted(unknown))), raw)
    return Facts(**values)


def _tally_entries(s: KasinoState, event: Mapping[str, Any]) -> tuple[list[Facts | None], bool]:
    """The piles of one deal, per player (``players``) or per side (``sides``)."""
    by_player = "players" in event
    key = "players" if by_player else "sides"
    raw = event.get(key)
    expected = len(s.players) if by_player else s.sides.count
    if not isinstance(raw, list) or len(raw) != expected:
        raise MalformedEvent(M("%(key)s must list %(n)s piles", key=repr(key), n=expected), event)
    if s.cfg.pairs and s.cfg.pairs_individual and not by_player:
        raise RuleViolation("KASINO-OPT-PAIRS-INDIVIDUAL", M("individual comparison needs each player's pile: "
                                                             "send 'players' instead of 'sides'"))
    entries: list[Facts | None] = []
    for i, item in enumerate(raw):
        player = i if (by_player or not s.cfg.pairs) else None
        if player is not None and player not in s.active:
            if item is not None and _parse_facts(item, f"{key}[{i}]") != Facts():
                raise RuleViolation("KASINO-MIS-7", M("%(player)s is knocked out and holds no pile",
                                                      player=s.players[player]),
                                    player=player)
            entries.append(None)
            continue
        if item is None:
            raise MalformedEvent(M("%(key)s[%(i)s] is missing", key=key, i=i), event)
        entries.append(_parse_facts(item, f"{key}[{i}]"))
    return entries, by_player


def _validate_tally(s: KasinoState, parsed: tuple[list[Facts | None], bool]) -> list[Facts | None]:
    """Consistency of the entered piles (KASINO-SCORE-2, KASINO-COMP-4); the result is per player."""
    entries, by_player = parsed
    piles = [f for f in entries if f is not None]
    for i, f in enumerate(entries):
        if f is None:
            continue
        # The pile is named for whoever holds it: a player, or a partnership's players.
        who = s.players[i] if by_player or not s.cfg.pairs else " & ".join(s.players[p] for p in s.sides.teams[i])
        if f.spades > f.cards or f.cards > PACK_SIZE:
            raise RuleViolation("KASINO-SCORE-2", M("the pile of %(who)s has %(spades)s spades in %(cards)s cards", who=who,
                                                    spades=f.spades, cards=f.cards), pile=i)
        if f.lillan and f.spades < 1:
            raise RuleViolation("KASINO-SCORE-2", M("the pile of %(who)s holds lillan, which is a spade, but no spades", who=who),
                                pile=i)
        if f.aces > 4 or f.cards < f.spades + f.storan + max(0, f.aces - 1):
            raise RuleViolation("KASINO-SCORE-2", M("the pile of %(who)s cannot hold %(spades)s spades, %(aces)s aces and "
                                                    "storan in %(cards)s cards", who=who, spades=f.spades, aces=f.aces,
                                                    cards=f.cards) if f.storan else
                                M("the pile of %(who)s cannot hold %(spades)s spades, %(aces)s aces in %(cards)s cards", who=who,
                                  spades=f.spades, aces=f.aces, cards=f.cards), pile=i)
        if f.cards < 2 * f.tabbes:
            raise RuleViolation("KASINO-TURN-5", M("the pile of %(who)s: every tabbe takes at least two cards", who=who), pile=i)
        if f.sistan and not s.cfg.sistan:
            raise RuleViolation("KASINO-OPT-SISTAN", M("the last capture scores only with the option sistan"), pile=i)
    total = sum(f.cards for f in piles)
    nobody = total == 0 and all(f == Facts() for f in piles)
    if not nobody:
        if total != PACK_SIZE:
            raise RuleViolation("KASINO-SCORE-2", M("the piles hold %(total)s cards, not %(pack)s", total=total,
                                                    pack=PACK_SIZE), cards=total)
        spades = sum(f.spades for f in piles)
        if spades != 13:
            raise RuleViolation("KASINO-SCORE-2", M("the piles hold %(n)s spades, not 13", n=spades), spades=spades)
        aces = sum(f.aces for f in piles)
        if aces != 4:
            raise RuleViolation("KASINO-COMP-4", M("the piles hold %(n)s aces, not 4", n=aces), aces=aces)
        for what in ("storan", "lillan"):
            holders = sum(1 for f in piles if getattr(f, what))
            if holders != 1:
                raise RuleViolation("KASINO-COMP-4", M("%(what)s lies in exactly one pile, not %(n)s", what=what,
                                                       n=holders), what=what)
        if s.cfg.sistan and sum(1 for f in piles if f.sistan) != 1:
            raise RuleViolation("KASINO-OPT-SISTAN", M("exactly one pile made the last capture"))
    if by_player or not s.cfg.pairs:
        return entries
    # Pooled team piles: the first player of each team stands for the team.
    per_player: list[Facts | None] = [Facts() for _ in s.players]
    for side, team in enumerate(s.sides.teams):
        per_player[team[0]] = entries[side]
    return per_player


def _tally_claim_facts(event: Mapping[str, Any]) -> Facts:
    raw = {k: event[k] for k in ("storan", "lillan", "aces", "tabbes") if k in event}
    return _parse_facts(raw, "claim")
