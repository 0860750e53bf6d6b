"""Finding the dealer and dealing (KASINO-DEAL-*), and the guards every phase handler starts with."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from scorekeeper.cards import Card, parse_card, parse_cards
from scorekeeper.engine.base import (
    MalformedEvent,
    RuleViolation,
    int_field,
)
from scorekeeper.engine.kasino.scoring import _over_rule
from scorekeeper.engine.kasino.state import TABLE_START, DealerDraw, Pile, _next_active, _no_repeats
from scorekeeper.engine.messages import M

if TYPE_CHECKING:
    from scorekeeper.engine.kasino.state import KasinoState

# --- Handlers ---

def on_draw_dealer(s: KasinoState, event: Mapping[str, Any]) -> KasinoState:
    raw = event.get("cards")
    if not isinstance(raw, list) or len(raw) != len(s.players):
        raise MalformedEvent(M("'cards' must list one card (or null) per player, %(n)s in all",
                               n=len(s.players)), event)
    if s.phase != "setup" or (s.draw is not None and s.draw.dealer is not None):
        raise RuleViolation("KASINO-DEAL-1", M("the first dealer has already been found"))
    drawers = s.draw.tied if s.draw is not None else tuple(range(len(s.players)))
    cards: list[Card | None] = [None if item is None else parse_card(item) for item in raw]
    given = tuple(i for i, c in enumerate(cards) if c is not None)
    if given != drawers:
        who = ", ".join(s.players[i] for i in drawers)
        raise RuleViolation("KASINO-DEAL-1", M("exactly these players draw now: %(who)s", who=who),
                            drawers=list(drawers))
    drawn = [c for c in cards if c is not None]
    _no_repeats(drawn, M("drawn for the deal"))
    order = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K") if s.cfg.ace_low \
        else ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
    rank = {p: order.index(c.rank) for p, c in enumerate(cards) if c is not None}
    best = max(rank.values())
    top = tuple(p for p in drawers if rank[p] == best)
    dealer = top[0] if len(top) == 1 else None
    announce = (M("%(dealer)s deals", dealer=s.players[dealer]),) if dealer is not None else (
        M("draw again: %(who)s", who=", ".join(s.players[p] for p in top)),)
    return replace(s, draw=DealerDraw(tuple(cards), () if dealer is not None else top, dealer),
                   announce=announce, scored=())

def on_deal(s: KasinoState, event: Mapping[str, Any]) -> KasinoState:
    require_between_deals(s)
    dealer = dealer_for(s, event)
    raw = event.get("table")
    if not isinstance(raw, (list, str)):
        raise MalformedEvent(M("'table' must list the four face-up cards"), event)
    table = tuple(parse_cards(raw))
    if len(table) != TABLE_START:
        raise RuleViolation("KASINO-DEAL-3", M("a deal puts 4 cards face up on the table, not %(n)s",
                                               n=len(table)),
                            table=[str(c) for c in table])
    _no_repeats(table, M("on the table"))
    n = len(s.players)
    return replace(
        s, phase="play", dealer=dealer, redeal=False, deal_no=s.deal_no + 1, table=table,
        seen=frozenset(table), piles=(Pile(),) * n, turns=(), last_capturer=None,
        summary=None, announce=(), scored=(),
    )

def dealer_for(s: KasinoState, event: Mapping[str, Any]) -> int:
    given: int | None = None
    if event.get("dealer") is not None:
        given = int_field(event, "dealer", minimum=0, maximum=len(s.players) - 1)
    if s.dealer is None:
        drawn = s.draw.dealer if s.draw is not None else None
        if drawn is None:
            if given is None:
                raise MalformedEvent(M("the first deal needs 'dealer' (or a draw_dealer event first)"), event)
            return given
        if given is not None and given != drawn:
            raise RuleViolation("KASINO-DEAL-1", M("%(dealer)s drew the highest card and deals",
                                                   dealer=s.players[drawn]),
                                dealer=drawn)
        return drawn
    expected = s.dealer if s.redeal else _next_active(s.active, s.dealer, len(s.players))
    if given is not None and given != expected:
        rule = "KASINO-AMB-12" if s.redeal else "KASINO-DEAL-2"
        why = M("after a misdeal the same dealer deals again") if s.redeal else M("the deal passes clockwise")
        raise RuleViolation(rule, M("%(dealer)s deals now: %(why)s", dealer=s.players[expected], why=why),
                            dealer=expected)
    return expected

def require_between_deals(s: KasinoState) -> None:
    if s.phase == "over":
        raise RuleViolation(_over_rule(s), M("the game is over"))
    if s.phase == "play":
        raise RuleViolation("KASINO-END-2", M("every deal that is started is finished first"))
    if s.phase == "settling":
        raise RuleViolation("KASINO-MIS-5", M("confirm or dismiss the proposed penalties of the last deal first"),
                            proposals=[p.id for p in s.pending])

def require_playing(s: KasinoState) -> None:
    if s.phase == "over":
        raise RuleViolation(_over_rule(s), M("the game is over"))
    if s.phase != "play":
        raise RuleViolation("KASINO-DEAL-3", M("no deal is in progress: deal the cards first"))

def active_player(s: KasinoState, event: Mapping[str, Any]) -> int:
    player = int_field(event, "player", minimum=0, maximum=len(s.players) - 1)
    if player not in s.active:
        raise RuleViolation("KASINO-MIS-7", M("%(player)s has been knocked out", player=s.players[player]),
                            player=player)
    return player
