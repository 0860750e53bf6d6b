"""Sharing the pot (MOUSEL-POT-*): the split by tricks, penalties into the next pot, the end of a deal
and of the session."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.engine.core import Scored, quick_init
from scorekeeper.engine.messages import M
from scorekeeper.engine.mousel.state import (
    Deal,
    EndReport,
    MouselState,
    Play,
    Settlement,
    _next_seated,
    _rotate,
    _with,
)
from scorekeeper.engine.tricks.ledger import POT, Book, Entry, settle_up


@quick_init
@dataclass(frozen=True, slots=True)
class _Split:
    shares: tuple[int, ...]
    due: tuple[int, ...]
    leftover: int


def split_pot(pot: int, n: int, taker: int, active: Sequence[int], tricks: Sequence[int],
              revokers: Sequence[int] = (), *, round_largest: bool = False,
              penalties: bool = True) -> _Split:
    """Shares and penalties due for one deal (MOUSEL-POT-1…8); pure, per seat of the table.

    ``active`` are the seats that played, ``tricks`` is per seat (Σ over ``active`` = ``n``).
    """
    seats = len(tricks)
    exact = [pot * tricks[s] for s in range(seats)]
    shares = [exact[s] // n if s in active else 0 for s in range(seats)]
    if round_largest:
        # MOUSEL-OPT-ROUND-LARGEST: hand the remainder out by largest fraction, ties to the
        # taker and then clockwise from him.
        spare = pot - sum(shares)
        ring = _rotate(sorted(active), taker)
        ranked = sorted(ring, key=lambda s: (-(exact[s] % n), ring.index(s)))
        for s in ranked[:spare]:
            if exact[s] % n:
                shares[s] += 1
    for s in revokers:  # MOUSEL-POT-8: the offender's share stays in the pot
        shares[s] = 0
    due = [0] * seats
    if penalties:
        for s in active:
            if s in revokers:
                due[s] = 2 * pot if s == taker else pot
            elif s == taker:
                due[s] = 2 * pot if tricks[s] == 0 else pot if tricks[s] == 1 else 0
            elif tricks[s] == 0:
                due[s] = pot
    return _Split(tuple(shares), tuple(due), pot - sum(shares))


def _penalty_rule(seat: int, taker: int | None, revokers: Sequence[int]) -> str:
    if seat in revokers:
        return "MOUSEL-POT-8"
    return "MOUSEL-POT-4" if seat == taker else "MOUSEL-POT-5"


def _finish(state: MouselState, number: int) -> MouselState:
    """MOUSEL-END-2: the pot is split (or refunded), standings and a settle-up are drawn."""
    count = len(state.players)
    pot = state.pot
    entries: list[Entry] = []
    paid = [0] * count
    if state.opts.end_refund and sum(state.pot_payers) > 0:
        total = sum(state.pot_payers)
        for seat, amount in enumerate(state.pot_payers):
            back = pot * amount // total
            if back:
                paid[seat] += back
                entries.append(Entry(number, "end_refund", POT, seat, back, "MOUSEL-OPT-END-REFUND",
                                     M("refund of the last penalties")))
    rest = pot - sum(paid)
    seated = state.seated or tuple(range(count))
    each = rest // len(seated)
    if each:
        for seat in seated:
            paid[seat] += each
            entries.append(Entry(number, "end_split", POT, seat, each, "MOUSEL-END-2", M("end-of-session split")))
    book = state.book.post(entries)
    standings = tuple(sorted(enumerate(book.balances), key=lambda pb: (-pb[1], pb[0])))
    transfers = tuple(settle_up(list(book.balances) + [book.pot]))
    report = EndReport(tuple(paid), book.pot, standings, transfers)
    scored = tuple(Scored(seat, amount, "end split", "MOUSEL-END-2") for seat, amount in enumerate(paid) if amount)
    return _with(state, book=book, end=report, deal=None, play=None, scored=scored)


def _void(state: MouselState, deal: Deal) -> MouselState:
    """MOUSEL-TRUMP-7: nobody took a card; the pot carries over whole."""
    count = len(state.players)
    entry = Entry(deal.number, "carry", POT, POT, deal.pot, "MOUSEL-TRUMP-7", "void deal: the pot carries over")
    book = state.book.post((entry,))
    row = dict(deal=deal.number, dealer=deal.dealer, pot=deal.pot, hand_size=deal.n, void=True,
               taker=None, seats=tuple(sorted(deal.ring)), folded=(), tricks=(0,) * count,
               shares=(0,) * count, penalties=(0,) * count, penalties_due=(0,) * count,
               revokers=(), leftover=deal.pot, last=deal.last)
    return _after_deal(state, deal, book, row, state.pot_payers, (), state.play)


def _after_deal(state: MouselState, deal: Deal, book: Book, row: dict[str, Any], pot_payers: tuple[int, ...],
                scored: tuple[Scored, ...], play: Play | None) -> MouselState:
    """Close the deal: bust players out (MOUSEL-OPT-BUST), the sheet row, the next dealer."""
    status = state.status
    busted: tuple[int, ...] = ()  # only the bust rule puts anyone out
    if state.opts.bust:
        status = tuple("bust" if s == "in" and state.opts.stack + book.balances[i] <= 0 else s
                       for i, s in enumerate(status))
        busted = tuple([i for i in range(len(status)) if status[i] == "bust" and state.status[i] == "in"])
    seated_after = status.count("in")
    row["busted"], row["next_pot"] = busted, book.pot + seated_after
    settlement = Settlement(**row)
    history = state.history + ((deal.number, book.pot, book.balances),)
    # ``play`` stays until the next deal so the screens can still show the last tricks
    new = _with(state, book=book, deal=None, play=play, status=status, sheet=state.sheet + (settlement,),
                history=history, next_dealer=_next_seated(status, deal.dealer), pot_payers=pot_payers,
                scored=scored)
    if seated_after < 2 or (deal.last and state.opts.end_lastdeal):
        ended = _finish(new, deal.number)
        return _with(ended, scored=scored + ended.scored)
    return new


# --- Settlement -------------------------------------------------------------------------------

def _settle(state: MouselState, deal: Deal, play: Play) -> MouselState:
    revokers = tuple(sorted({p.player for p in play.proposals if p.status == "confirmed"}))
    return _settle_tricks(state, deal, play.active, deal.folded, play.won, revokers, play)


def _settle_tricks(state: MouselState, deal: Deal, active: tuple[int, ...], folded: tuple[int, ...],
                   tricks: tuple[int, ...], revokers: tuple[int, ...], play: Play | None = None) -> MouselState:
    assert deal.taker is not None
    opts = state.opts
    pot, n, taker, number = deal.pot, deal.n, deal.taker, deal.number
    no_penalties = deal.last and opts.end_lastdeal
    split = split_pot(pot, n, taker, active, tricks, revokers, round_largest=opts.round_largest,
                      penalties=not no_penalties)
    shares, due = split.shares, split.due
    # the ledger's entries and the scored facts in one pass each: the shares, then the penalties
    entries: list[Entry] = []
    scored: list[Scored] = []
    for s in active:
        if shares[s]:
            entries.append(Entry(number, "share", POT, s, shares[s], "MOUSEL-POT-1",
                                 M("%(tricks)s of %(n)s tricks", tricks=tricks[s], n=n)))
            scored.append(Scored(s, shares[s], "share", "MOUSEL-POT-1", M("%(tricks)s tricks", tricks=tricks[s])))
    paid = [0] * len(tricks)
    for s in active:
        amount = due[s]
        if amount and opts.bust:  # MOUSEL-OPT-BUST: pay what you have, your share included, and leave
            amount = min(amount, max(opts.stack + state.book.balances[s] + shares[s], 0))
        if amount:
            paid[s] = amount
            rule = _penalty_rule(s, taker, revokers)
            note = M("revoke") if s in revokers else (M("1 trick") if tricks[s] == 1 else
                                                       M("%(tricks)s tricks", tricks=tricks[s]))
            entries.append(Entry(number, "penalty", s, POT, amount, rule, note))
            scored.append(Scored(s, -amount, "penalty", rule))
    if split.leftover:
        rule = "MOUSEL-POT-8" if revokers and any(tricks[s] for s in revokers) else "MOUSEL-POT-3"
        entries.append(Entry(number, "carry", POT, POT, split.leftover, rule, M("left in the pot for the next deal")))
    book = state.book.post(entries)
    row = dict(deal=number, dealer=deal.dealer, pot=pot, hand_size=n, void=False, taker=taker,
               seats=tuple(sorted(deal.ring)), folded=folded, tricks=tricks, shares=shares,
               penalties=tuple(paid), penalties_due=due, revokers=revokers,
               leftover=split.leftover, last=deal.last)
    return _after_deal(state, deal, book, row, tuple(paid), tuple(scored), play)
