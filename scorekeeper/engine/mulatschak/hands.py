"""Where the cards are: a card or suit read from an event and checked against the pack, what is
known of each hand, the stock, and the exchange's draws."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.cards import Card, german_pack
from scorekeeper.engine.core import (
    RuleViolation,
    card_field,
    cards_field,
    evolve,
    suit_field,
)
from scorekeeper.engine.messages import Join, Seat
from scorekeeper.engine.mulatschak.scoring import _weak
from scorekeeper.engine.mulatschak.state import (
    STAY_LIMIT,
    SUITS,
    Deal,
    M,
    MulState,
    Opts,
    _is_trump,
)


def _suit(event: Mapping[str, Any]) -> str | None:
    suit = suit_field(event, "suit", "trump")
    if suit is not None and suit not in SUITS:
        raise RuleViolation("MULAT-TRUMP-1", M("trumps are H, S, L or E, not %(value)s",
                                               value=repr(event.get("suit", event.get("trump")))))
    return suit


_PACKS: dict[bool, frozenset[Card]] = {sixes: frozenset(german_pack(with_sixes=sixes)) for sixes in (False, True)}


def _in_pack(card: Card, opts: Opts) -> None:
    if card not in _PACKS[opts.pack36]:
        if card == Card("6", "S"):
            raise RuleViolation("MULAT-COMP-3", M("the Schellen-6 is the Weli: write W"))
        raise RuleViolation("MULAT-COMP-1", M("%(card)s is not in this pack", card=card) if opts.pack36 else
                            M("%(card)s is not in this pack (sixes only with the 36-card pack)", card=card),
                            card=str(card))


def _card(event: Mapping[str, Any], key: str, opts: Opts) -> Card:
    card = card_field(event, key, "german")
    _in_pack(card, opts)
    return card


def _cards(event: Mapping[str, Any], key: str, opts: Opts) -> list[Card]:
    cards = cards_field(event, key, "german")
    for card in cards:
        _in_pack(card, opts)
    if len(set(cards)) != len(cards):
        raise RuleViolation("MULAT-COMP-1", M("the same card is given twice"), cards=[str(c) for c in cards])
    return cards


def _check_unseen(deal: Deal, card: Card, player: int | None) -> None:
    """MULAT-COMP-1: a card can turn up only once; a card known to be with one player is nobody else's."""
    if card in deal.all_played():
        raise RuleViolation("MULAT-COMP-1", M("%(card)s has already been played in this deal", card=card), card=str(card))
    holder = deal.owner(card)
    if holder is None:
        who = dict(deal.reach).get(card) if player is not None and deal.reach else None
        if who is not None and player not in who:
            seats = Join(tuple(Seat(p) for p in who), ", ") if who else M("nobody yet")
            raise RuleViolation("MULAT-COMP-1", M("%(card)s was seen before the stock was reshuffled: since then only its last holder or a player who drew from the new stock can have it (%(seats)s)", card=card, seats=seats),
                                card=str(card), holders=list(who))
        return
    if holder == player:
        return
    if holder == -1:
        raise RuleViolation("MULAT-COMP-1", M("%(card)s has been thrown away in this deal", card=card), card=str(card))
    raise RuleViolation("MULAT-COMP-1", M("%(card)s has already been seen with %(holder)s", card=card, holder=Seat(holder)), card=str(card),
                        holder=holder)


def _weli_rule(deal: Deal) -> str:
    """The Weli is kept at a cut (MULAT-DEAL-3) or at a knock (MULAT-DEAL-4)."""
    return "MULAT-DEAL-4" if deal.cut == "knock" else "MULAT-DEAL-3"


def _check_no_weak_hand(state: MulState, deal: Deal) -> None:
    """MULAT-DEAL-7: while the collapse window is open, an entered weak hand must be declared first."""
    if state.opts.collapse_optional or deal.calls and not deal.muli_out_of_turn:
        return
    for p in range(state.n):
        entered = deal.hands[p]
        if entered is not None and len(entered) == 5 and _weak(entered, state.opts):
            raise RuleViolation("MULAT-DEAL-7", M("%(p)s holds nothing above the 10 and must declare unter dem Hund first", p=Seat(p)), player=p)


def _check_limit(state: MulState, count: int) -> None:
    if count > state.opts.exch_limit:
        raise RuleViolation("MULAT-EXCH-10", M("at this table a player exchanges at most %(exch_limit)s cards", exch_limit=state.opts.exch_limit), limit=state.opts.exch_limit)


def _available(state: MulState, deal: Deal) -> int:
    """Stock cards a player may still ask for (MULAT-EXCH-9), net of Bridges waiting to be dealt."""
    pool = deal.stock + (deal.discards if state.opts.reshuffle else 0)
    return max(pool - deal.reserved, 0)


def _can_exchange(state: MulState, deal: Deal, player: int) -> bool:
    if state.scores[player] <= STAY_LIMIT:
        return False
    return state.opts.reshuffle or _available(state, deal) > 0


def _take(state: MulState, deal: Deal, count: int, player: int) -> Deal:
    """``player`` draws from the stock; with MULAT-OPT-RESHUFFLE the thrown cards become a new stock
    when it runs out."""
    if count <= deal.stock:
        new = evolve(deal, stock=deal.stock - count)
    else:
        short = count - deal.stock
        assert state.opts.reshuffle and short <= deal.discards
        # Thrown cards go back into play: only cards in an entered, untouched hand are still placed.
        # Any other seen card may be in the new stock, so from now on it may reach whoever draws
        # (and may still be with its last holder), but never a player who drew before.
        owners = tuple((c, h) for c, h in deal.owners
                       if h >= 0 and (hand := deal.hands[h]) is not None and c in hand)
        reach = dict(deal.reach)
        reach.update((c, (h,) if h >= 0 else ()) for c, h in deal.owners if (c, h) not in owners)
        new = evolve(deal, stock=deal.discards - short, discards=0, owners=owners, reach=tuple(reach.items()))
    if count and new.reach:
        new = evolve(new, reach=tuple((c, who if player in who else who + (player,)) for c, who in new.reach))
    return new


def _throw_and_draw(state: MulState, deal: Deal, player: int, count: int, rule: str) -> Deal:
    after_throw = evolve(deal, discards=deal.discards + count)
    if count > _available(state, after_throw):
        raise RuleViolation(rule, M("only %(value)s stock cards are left", value=_available(state, deal)), stock=_available(state, deal))
    return _take(state, after_throw, count, player)


def _deal_face_up(state: MulState, deal: Deal, player: int, face_up: Sequence[Card], thrown: int,
                  rule: str, trump_first: bool) -> Deal:
    """Five face down, then face-up cards while they are trumps (Bridge, delayed trump)."""
    trump = deal.trump
    assert trump is not None
    after_throw = evolve(deal, discards=deal.discards + thrown)
    pool = _available(state, after_throw)
    drawn = 5 + len(face_up)
    if pool < 6:
        raise RuleViolation("MULAT-EXCH-9", M("this needs at least 6 stock cards; %(pool)s left", pool=pool), stock=pool)
    if drawn > pool:
        raise RuleViolation("MULAT-EXCH-9", M("only %(pool)s stock cards: at most %(value)s face-up cards", pool=pool, value=pool - 5),
                            stock=pool)
    for index, card in enumerate(face_up[:-1]):
        if not (_is_trump(card, trump) or (index == 0 and trump_first)):
            raise RuleViolation(rule, M("%(card)s is not a trump, so no card is dealt face up after it", card=card),
                                card=str(card))
    last = face_up[-1]
    exhausted = drawn == pool
    last_is_trump = _is_trump(last, trump) or (len(face_up) == 1 and trump_first)
    if last_is_trump and not exhausted:
        raise RuleViolation(rule, M("%(last)s is a trump, so another card is dealt face up", last=last), card=str(last))
    new = _take(state, after_throw, drawn, player)
    for card in face_up:
        _check_unseen(new, card, None)   # after any reshuffle, which puts thrown cards back in play
    new = evolve(new, discards=new.discards + len(face_up))
    for card in face_up:
        new = new.with_owner(card, player)
    return new


def _forget_hand(deal: Deal, player: int) -> Deal:
    hands = list(deal.hands)
    hands[player] = None
    return evolve(deal, hands=tuple(hands))
