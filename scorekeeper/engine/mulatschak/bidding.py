"""From the dealer to the first card: the cut or knock, entered hands, collapses, bidding,
trumps, and playing along or staying home."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.engine.core import (
    MalformedEvent,
    RuleViolation,
    Scored,
    bool_field,
    evolve,
    int_field,
    player_field,
)
from scorekeeper.engine.messages import Join, Seat
from scorekeeper.engine.mulatschak.exchange import _start_exchange
from scorekeeper.engine.mulatschak.hands import (
    _cards,
    _check_limit,
    _check_no_weak_hand,
    _check_unseen,
    _deal_face_up,
    _forget_hand,
    _suit,
    _weli_rule,
)
from scorekeeper.engine.mulatschak.play import _refresh_proposals
from scorekeeper.engine.mulatschak.scoring import _weak
from scorekeeper.engine.mulatschak.state import (
    BID_LIMIT,
    HIGH_RANKS,
    STAY_LIMIT,
    SUIT_NAMES,
    WELI,
    Call,
    Deal,
    Exchange,
    M,
    MulState,
    Row,
    _clockwise,
    _deal,
    _fresh_deal,
)


def on_dealer(state: MulState, event: Mapping[str, Any]) -> MulState:
    player = player_field(event, state.n)
    untouched = state.deal is None or (state.deal.number == 1 and state.deal.phase == "cut"
                                        and state.deal.collapses == 0)
    if state.sheet or not untouched:
        raise RuleViolation("MULAT-DEAL-1", M("the first dealer is chosen before the first deal; after that the deal moves clockwise"))
    if state.deal is None:
        return evolve(state, dealer=player, scored=())
    return evolve(state, dealer=player, deal=_fresh_deal(state, 1, player, 0), scored=())

# -- cut / knock -----------------------------------------------------------------------------

def on_cut(state: MulState, event: Mapping[str, Any]) -> MulState:
    deal = _deal(state)
    player = player_field(event, state.n)
    knock = event.get("type") == "knock"
    weli = bool_field(event, "weli", False)
    if deal.phase != "cut":
        raise RuleViolation("MULAT-DEAL-2", M("the pack has already been cut for this deal"))
    if player != deal.cutter:
        raise RuleViolation("MULAT-DEAL-2", M("%(cutter)s, on the dealer's right, cuts or knocks, not %(player)s", cutter=Seat(deal.cutter), player=Seat(player)), cutter=deal.cutter)
    if knock and state.opts.no_knock:
        raise RuleViolation("MULAT-OPT-NO-KNOCK", M("knocking is not allowed at this table"))
    new = evolve(deal, cut="knock" if knock else "cut", phase="bidding", to_act=deal.forehand)
    if weli:
        new = evolve(new, weli_to=player).with_owner(WELI, player)
    return evolve(state, deal=new, scored=())

def _implied_cut(state: MulState) -> Deal:
    """Any declaration or bid before the cut is entered means the pack was cut without the Weli."""
    deal = _deal(state)
    if deal.phase == "cut":
        return evolve(deal, cut="cut", phase="bidding", to_act=deal.forehand)
    return deal

# -- hand entry ------------------------------------------------------------------------------

def on_hand(state: MulState, event: Mapping[str, Any]) -> MulState:
    deal = _implied_cut(state)
    player = player_field(event, state.n)
    cards = _cards(event, "cards", state.opts)
    if deal.phase == "review":
        # the review settles the revoke proposals (MULAT-SCORE-9): only confirm or dismiss now
        raise RuleViolation("MULAT-SCORE-9", M("all five tricks are played; confirm or dismiss the revoke proposals"))
    if deal.decisions and deal.decisions[player] == "home":
        raise RuleViolation("MULAT-STAY-5", M("%(player)s stayed home and takes no part in this deal", player=Seat(player)))
    if player in deal.bridge_queue:
        raise RuleViolation("MULAT-EXCH-5", M("%(player)s threw the whole hand for a Bridge and has not been dealt the new cards yet", player=Seat(player)))
    played = deal.played_by(player)
    expected = 5 - len(played)
    if len(set(cards)) != len(cards):
        raise RuleViolation("MULAT-COMP-1", M("a card appears twice in the hand"))
    if len(cards) != expected:
        raise RuleViolation("MULAT-EXCH-8", M("%(player)s holds %(expected)s cards now, not %(n)s", player=Seat(player), expected=expected, n=len(cards)),
                            expected=expected)
    for card in cards:
        _check_unseen(deal, card, player)
    untouched = not any(e.player == player for e in deal.exchanges)
    if deal.weli_to == player and untouched and WELI not in cards and WELI not in played:
        raise RuleViolation(_weli_rule(deal), (M("%(player)s kept the Weli at the knock; it is in the hand", player=Seat(player))
                                                if deal.cut == "knock" else
                                                M("%(player)s kept the Weli at the cut; it is in the hand", player=Seat(player))))
    hands = list(deal.hands)
    hands[player] = tuple(cards)
    entered = set(cards)   # distinct (checked above): the same owners as with_owner card by card
    owners = tuple((c, h) for c, h in deal.owners if c not in entered) + tuple((c, player) for c in cards)
    return _refresh_proposals(state, evolve(deal, hands=tuple(hands), owners=owners))

# -- collapse --------------------------------------------------------------------------------

def on_collapse(state: MulState, event: Mapping[str, Any]) -> MulState:
    deal = _implied_cut(state)
    player = player_field(event, state.n)
    cards = _cards(event, "cards", state.opts)
    window = (deal.phase == "bidding" and not deal.calls) or (deal.phase == "trump" and deal.muli_out_of_turn)
    if not window:
        raise RuleViolation("MULAT-DEAL-7", M("a weak hand must be declared straight after the deal, before the bidding"))
    if len(cards) != 5 or len(set(cards)) != 5:
        raise RuleViolation("MULAT-DEAL-7", M("show all five cards of the hand, not %(n)s", n=len(cards)))
    for card in cards:
        _check_unseen(deal, card, player)
    if deal.weli_to == player and WELI not in cards:
        raise RuleViolation(_weli_rule(deal), (M("%(player)s kept the Weli at the knock; it is in the hand", player=Seat(player))
                                                if deal.cut == "knock" else
                                                M("%(player)s kept the Weli at the cut; it is in the hand", player=Seat(player))))
    entered = deal.hands[player]
    if entered is not None and set(entered) != set(cards):
        raise RuleViolation("MULAT-DEAL-7", M("%(player)s entered a different hand before", player=Seat(player)))
    if not _weak(cards, state.opts):
        high = [str(c) for c in cards if c.rank in HIGH_RANKS]
        raise RuleViolation("MULAT-DEAL-7", M("the hand holds %(cards)s: only a hand with nothing above the 10 goes unter dem Hund",
                                              cards=Join(tuple(c for c in cards if c.rank in HIGH_RANKS), ", ")), high=high)
    # MULAT-DEAL-1 / MULAT-AMB-5: the same dealer deals again, one more doubling factor.
    redeal = _fresh_deal(state, deal.number, deal.dealer, deal.collapses + 1)
    return evolve(state, deal=redeal, proposals=(), scored=())

# -- bidding ---------------------------------------------------------------------------------

def _bidding_deal(state: MulState, player: int) -> Deal:
    deal = _implied_cut(state)
    if deal.phase != "bidding":
        raise RuleViolation("MULAT-BID-2", M("the bidding is over"))
    _check_no_weak_hand(state, deal)
    return deal

def _check_turn(deal: Deal, player: int) -> None:
    if player == deal.to_act:
        return
    if deal.duel is not None:
        raise RuleViolation("MULAT-BID-5", M("after the hold only the dealer and %(duel)s bid on; it is %(to_act)s's turn", duel=Seat(deal.duel[1]), to_act=Seat(deal.to_act)), to_act=deal.to_act)
    if player in deal.passed:
        raise RuleViolation("MULAT-BID-3", M("%(player)s has passed and is out of the bidding", player=Seat(player)))
    raise RuleViolation("MULAT-BID-2", M("it is %(to_act)s's turn to bid, not %(player)s's", to_act=Seat(deal.to_act), player=Seat(player)),
                        to_act=deal.to_act)

def on_bid(state: MulState, event: Mapping[str, Any]) -> MulState:
    player = player_field(event, state.n)
    tricks = int_field(event, "tricks")
    if tricks == 0:
        return on_pass(state, event)
    if not 1 <= tricks <= 5:
        raise RuleViolation("MULAT-BID-1", M("a bid is 1 to 5 tricks (0 to pass), not %(tricks)s", tricks=tricks))
    deal = _bidding_deal(state, player)
    _check_turn(deal, player)
    if state.scores[player] <= BID_LIMIT:
        raise RuleViolation("MULAT-BID-7", M("%(player)s has %(score)s points (5 or less) and may only pass", player=Seat(player), score=state.scores[player]), score=state.scores[player])
    if tricks <= deal.high:
        raise RuleViolation("MULAT-BID-3", M("a bid must be at least %(value)s (the highest so far is %(high)s)", value=deal.high + 1, high=deal.high), minimum=deal.high + 1)
    calls = deal.calls + (Call(player, "bid", tricks),)
    new = evolve(deal, calls=calls, high=tricks, high_bidder=player)
    if deal.duel is not None:
        dealer, displaced = deal.duel
        if player == dealer or (tricks == 5 and not state.opts.hold_muli):
            return _to_trump(state, new, player, tricks)
        return evolve(state, deal=evolve(new, to_act=dealer), scored=())
    if player == deal.dealer:
        return _to_trump(state, new, player, tricks)
    if tricks == 5:
        if not state.opts.hold_muli:
            return _to_trump(state, new, player, tricks)
        return evolve(state, deal=evolve(new, to_act=deal.dealer), scored=())
    return evolve(state, deal=evolve(new, to_act=(player + 1) % state.n), scored=())

def on_pass(state: MulState, event: Mapping[str, Any]) -> MulState:
    player = player_field(event, state.n)
    deal = _bidding_deal(state, player)
    _check_turn(deal, player)
    calls = deal.calls + (Call(player, "pass"),)
    new = evolve(deal, calls=calls, passed=deal.passed + (player,))
    if deal.duel is not None:
        dealer, displaced = deal.duel
        winner = dealer if player == displaced else displaced
        return _to_trump(state, new, winner, deal.high)
    if player != deal.dealer:
        return evolve(state, deal=evolve(new, to_act=(player + 1) % state.n), scored=())
    if deal.high_bidder is not None:   # MULAT-BID-6
        return _to_trump(state, new, deal.high_bidder, deal.high)
    return _all_passed(state, new)

def _all_passed(state: MulState, deal: Deal) -> MulState:
    deadlock = all(s <= BID_LIMIT for s in state.scores)
    if state.opts.allpass_redeal and not deadlock:
        # Thrown in: no score, no doubling; the next dealer deals. Pending collapse factors carry on.
        row = Row(deal.number, deal.dealer, None, 0, False, None, (), (), (None,) * state.n, (), None,
                  (0,) * state.n, state.scores, note="thrown in: everyone passed")
        next_dealer = (deal.dealer + 1) % state.n
        after = evolve(state, sheet=state.sheet + (row,), dealer=next_dealer)
        return evolve(after, deal=_fresh_deal(after, deal.number + 1, next_dealer, deal.collapses),
                       proposals=(), scored=(Scored(deal.dealer, 0, "thrown in", "MULAT-OPT-ALLPASS-REDEAL"),))
    return _to_trump(state, deal, deal.dealer, 1, forced=True)

def on_hold(state: MulState, event: Mapping[str, Any]) -> MulState:
    player = player_field(event, state.n)
    deal = _bidding_deal(state, player)
    if player != deal.dealer:
        raise RuleViolation("MULAT-BID-4", M('only the dealer may hold ("mit mir")'))
    _check_turn(deal, player)
    if state.scores[player] <= BID_LIMIT:
        raise RuleViolation("MULAT-BID-7", M("the dealer has %(score)s points (5 or less) and may only pass", score=state.scores[player]), score=state.scores[player])
    if deal.high_bidder is None or deal.high_bidder == player:
        raise RuleViolation("MULAT-BID-4", M("there is no bid to hold"))
    displaced = deal.high_bidder
    new = evolve(deal, calls=deal.calls + (Call(player, "hold", deal.high),), high_bidder=player,
                  duel=(player, displaced), to_act=displaced)
    if deal.high == 5:   # MULAT-OPT-HOLD-MULI: nobody can bid over a held Muli
        return _to_trump(state, new, player, 5)
    return evolve(state, deal=new, scored=())

def on_muli(state: MulState, event: Mapping[str, Any]) -> MulState:
    player = player_field(event, state.n)
    others = event.get("together_with", [])
    if not isinstance(others, list) or any(isinstance(o, bool) or not isinstance(o, int) for o in others):
        raise MalformedEvent(M("'together_with' must be a list of seat numbers"), event)
    deal = _implied_cut(state)
    if deal.phase != "bidding" or deal.calls:
        raise RuleViolation("MULAT-BID-8", M("a Muli is announced out of turn only straight after the deal; now bid 5 in turn"))
    deal = _bidding_deal(state, player)
    callers = sorted({player, *others})
    for p in callers:
        if not 0 <= p < state.n:
            raise MalformedEvent(M("there is no player %(seat)s", seat=p), event)
        if state.scores[p] <= BID_LIMIT:
            raise RuleViolation("MULAT-BID-7", M("%(p)s has %(score)s points (5 or less) and may not announce a Muli", p=Seat(p), score=state.scores[p]), player=p)
    # MULAT-AMB-18: the announcer nearest to forehand, clockwise, is heard first.
    first = min(callers, key=lambda p: (p - deal.forehand) % state.n)
    new = evolve(deal, calls=(Call(first, "muli", 5),), high=5, high_bidder=first, muli_out_of_turn=True)
    return _to_trump(state, new, first, 5)

def _to_trump(state: MulState, deal: Deal, declarer: int, contract: int,
              forced: bool = False) -> MulState:
    new = evolve(deal, phase="trump", to_act=declarer, declarer=declarer, contract=contract,
                  forced=forced)
    return evolve(state, deal=new, scored=())

# -- trump -----------------------------------------------------------------------------------

def on_trump(state: MulState, event: Mapping[str, Any]) -> MulState:
    deal = _deal(state)
    player = player_field(event, state.n)
    if deal.phase != "trump":
        raise RuleViolation("MULAT-TRUMP-1", M("trumps are named once the bidding is over, by the declarer"))
    if player != deal.declarer:
        raise RuleViolation("MULAT-TRUMP-1", M("%(declarer)s, the declarer, names trumps", declarer=Seat(deal.declarer)))
    if deal.muli_out_of_turn:
        _check_no_weak_hand(state, deal)
    if bool_field(event, "delayed", False):
        return _delayed_trump(state, deal, player, event)
    suit = _suit(event)
    if suit is None:
        raise MalformedEvent(M("name the trump suit: 'suit' H, S, L or E (or 'delayed': true)"), event)
    return _after_trump(state, evolve(deal, trump=suit))

def _delayed_trump(state: MulState, deal: Deal, player: int, event: Mapping[str, Any]) -> MulState:
    if deal.muli:
        raise RuleViolation("MULAT-EXCH-1", M("there is no exchange in a Muli, so no delayed trump"))
    if state.scores[player] <= STAY_LIMIT:
        raise RuleViolation("MULAT-EXCH-1", M("%(player)s has %(score)s points (3 or less) and may not exchange, so cannot delay trumps", player=Seat(player), score=state.scores[player]))
    _check_limit(state, 5)
    face_up = _cards(event, "face_up", state.opts)
    if not face_up:
        raise RuleViolation("MULAT-TRUMP-2", M("give the face-up card(s) dealt after the five"))
    named = _suit(event)
    first = face_up[0]
    if first == WELI:
        if named is None:
            raise RuleViolation("MULAT-TRUMP-2", M("the Weli fixed trumps: the declarer names any suit ('suit')"))
        trump = named
    else:
        trump = first.suit
        if named is not None and named != trump:
            raise RuleViolation("MULAT-TRUMP-2", M("the face-up %(first)s makes %(suit_name)s trumps", first=first, suit_name=SUIT_NAMES[trump]))
    deal = evolve(_forget_hand(deal, player), trump=trump)
    new = _deal_face_up(state, deal, player, face_up, thrown=5, rule="MULAT-TRUMP-2", trump_first=True)
    new = evolve(new, exchanges=new.exchanges + (
        Exchange(player, "trump", 5, 5 + len(face_up), tuple(face_up)),))
    return _after_trump(state, new)

def _after_trump(state: MulState, deal: Deal) -> MulState:
    n = state.n
    declarer = deal.declarer
    assert declarer is not None
    decisions: list[str | None] = [None] * n
    decisions[declarer] = "declarer"
    if deal.muli or deal.trump == "H":   # MULAT-STAY-2: everyone plays
        decisions = ["declarer" if p == declarer else "play" for p in range(n)]
        new = evolve(deal, decisions=tuple(decisions))
        return evolve(state, deal=_start_exchange(state, new), scored=())
    order = tuple(p for p in _clockwise(declarer + 1, n) if p != declarer)
    new = evolve(deal, phase="stay", decisions=tuple(decisions), stay_order=order, to_act=order[0])
    return evolve(state, deal=new, scored=())

# -- play along or stay home -----------------------------------------------------------------

def on_stay(state: MulState, event: Mapping[str, Any]) -> MulState:
    deal = _deal(state)
    player = player_field(event, state.n)
    home = event.get("type") == "stay_home"
    # A standing bid of 5 (the dealer may still hold it, MULAT-OPT-HOLD-MULI) already makes a Muli.
    if (deal.declarer is not None and (deal.muli or deal.trump == "H")) or deal.high == 5:
        # No stay-home round at all in these deals: the duty to play is the rule at stake.
        if home:
            raise RuleViolation("MULAT-STAY-2", M("nobody stays home when Herz is trumps or in a Muli"))
        raise RuleViolation("MULAT-STAY-2", M("nobody decides to play along when Herz is trumps or in a Muli: "
                                              "everyone plays"))
    if deal.phase != "stay":
        raise RuleViolation("MULAT-STAY-1", M("players decide to play or stay home once trumps are named"))
    if player != deal.to_act:
        raise RuleViolation("MULAT-STAY-1", M("it is %(to_act)s's turn to decide", to_act=Seat(deal.to_act)),
                            to_act=deal.to_act)
    if home:
        if state.scores[player] <= STAY_LIMIT:
            raise RuleViolation("MULAT-STAY-3", M("%(player)s has %(score)s points (3 or less) and must play", player=Seat(player), score=state.scores[player]), score=state.scores[player])
        last = player == deal.stay_order[-1]
        if last and all(deal.decisions[p] == "home" for p in deal.stay_order[:-1]):
            raise RuleViolation("MULAT-STAY-4", M("everyone else stayed home, so the last player must play"))
    decisions = list(deal.decisions)
    decisions[player] = "home" if home else "play"
    hands = list(deal.hands)
    if home:
        hands[player] = None
    new = evolve(deal, decisions=tuple(decisions), hands=tuple(hands))
    pending = [p for p in deal.stay_order if decisions[p] is None]
    if pending:
        return evolve(state, deal=evolve(new, to_act=pending[0]), scored=())
    return evolve(state, deal=_start_exchange(state, new), scored=())
