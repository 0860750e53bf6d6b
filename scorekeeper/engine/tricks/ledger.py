"""A token ledger for pot games: every movement is an entry, balances are derived from them.

The app holds no real tokens. Each player has a net balance (starting at 0, may go negative)
and the table has a pot. Tokens only ever move between a player and the pot, so the sum of
all balances plus the pot is zero at every moment (``MOUSEL-COMP-2``); :meth:`Book.post`
keeps it that way by construction and :func:`check_invariant` lets tests say so.

``settle_up`` is the pure "who pays whom" at the end of a session, with the fewest transfers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.engine.core.evolve import quick_init

POT = None  # the pot as the source or target of an entry

__all__ = ["POT", "Book", "Entry", "Transfer", "check_invariant", "settle_up"]


@quick_init  # a replay posts ledger entries deal after deal (core.quick_init)
@dataclass(frozen=True, slots=True)
class Entry:
    """One movement: ``amount`` tokens from ``source`` to ``target`` (a seat, or None = the pot).

    ``kind`` is one of ``ante``, ``share``, ``penalty``, ``carry`` (pot to pot: tokens that stay
    for the next deal), ``end_split``, ``end_refund``. ``rule`` cites the rule that moved them.
    """

    deal: int
    kind: str
    source: int | None
    target: int | None
    amount: int
    rule: str
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "deal": self.deal, "kind": self.kind,
            "from": "pot" if self.source is None else self.source,
            "to": "pot" if self.target is None else self.target,
            "amount": self.amount, "rule": self.rule, "note": self.note,
        }


@quick_init  # a replay posts ledger entries deal after deal (core.quick_init)
@dataclass(frozen=True, slots=True)
class Book:
    balances: tuple[int, ...]
    pot: int = 0
    entries: tuple[Entry, ...] = ()

    @classmethod
    def opening(cls, players: int) -> Book:
        return cls((0,) * players)

    def post(self, entries: Iterable[Entry]) -> Book:
        """The book after ``entries``, in order. Amounts are never negative: direction is explicit."""
        new = tuple(entries)
        if not new:
            return self
        balances = list(self.balances)
        pot = self.pot
        for entry in new:
            if entry.amount < 0:
                raise ValueError(f"a ledger entry moves a positive amount, not {entry.amount}")
            if entry.source is None:
                pot -= entry.amount
            else:
                balances[entry.source] -= entry.amount
            if entry.target is None:
                pot += entry.amount
            else:
                balances[entry.target] += entry.amount
        if pot < 0:
            raise ValueError(f"the pot cannot pay out more than it holds (it would be {pot})")
        return Book(tuple(balances), pot, self.entries + new)


def check_invariant(book: Book) -> bool:
    """Σ balances + pot == 0, and replaying the entries from zero gives the same figures."""
    rebuilt = Book.opening(len(book.balances)).post(book.entries)
    return sum(book.balances) + book.pot == 0 and rebuilt.balances == book.balances and rebuilt.pot == book.pot


@dataclass(frozen=True, slots=True)
class Transfer:
    payer: int
    payee: int
    amount: int

    def to_json(self) -> dict[str, int]:
        return {"from": self.payer, "to": self.payee, "amount": self.amount}


# Beyond this many non-zero parties the exact search (2^n subsets) is not worth it.
_EXACT_LIMIT = 16


def settle_up(balances: Sequence[int]) -> list[Transfer]:
    """Transfers that bring every balance to zero, as few as possible.

    A positive balance is owed, a negative one owes. The minimum is (parties with a non-zero
    balance) minus (the most disjoint zero-sum groups they can be split into): each group
    of k settles in k-1 transfers and no fewer. The groups are found by a search over subsets,
    then each group is settled greedily (largest debtor pays largest creditor), which needs
    at most k-1 transfers because every transfer clears at least one party and the last two.
    Ties go to the lower seat so the answer is deterministic.
    """
    if sum(balances) != 0:
        raise ValueError(f"balances must sum to zero to be settled, not {sum(balances)}")
    parties = [i for i, b in enumerate(balances) if b != 0]
    if len(parties) > _EXACT_LIMIT:
        groups = [parties]
    else:
        groups = _zero_sum_groups([balances[i] for i in parties])
        groups = [[parties[i] for i in group] for group in groups]
    transfers: list[Transfer] = []
    for group in groups:
        transfers.extend(_greedy(group, balances))
    return transfers


def _zero_sum_groups(values: list[int]) -> list[list[int]]:
    """The most disjoint zero-sum groups covering ``values`` (indexes into it).

    ``best[mask]`` is the most zero-sum prefixes over any ordering of ``mask``; when the whole
    of ``mask`` sums to zero one more group closes. Walking back from the full mask recovers an
    ordering whose zero-sum prefixes cut it into groups.
    """
    n = len(values)
    full = (1 << n) - 1
    total = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        total[mask] = total[mask ^ low] + values[low.bit_length() - 1]
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        top = 0
        rest = mask
        while rest:
            low = rest & -rest
            rest ^= low
            top = max(top, best[mask ^ low])
        best[mask] = top + (1 if total[mask] == 0 else 0)
    groups: list[list[int]] = []
    current: list[int] = []
    mask = full
    while mask:
        target = best[mask] - (1 if total[mask] == 0 else 0)
        if total[mask] == 0 and current:
            groups.append(current)
            current = []
        rest = mask
        while rest:
            low = rest & -rest
            rest ^= low
            if best[mask ^ low] == target:
                current.append(low.bit_length() - 1)
                mask ^= low
                break
    if current:
        groups.append(current)
    return [sorted(group) for group in groups]


def _greedy(group: Sequence[int], balances: Sequence[int]) -> list[Transfer]:
    owed = {p: balances[p] for p in group}
    transfers: list[Transfer] = []
    while True:
        creditors = [p for p in group if owed[p] > 0]
        debtors = [p for p in group if owed[p] < 0]
        if not creditors or not debtors:
            return transfers
        payee = max(creditors, key=lambda p: (owed[p], -p))
        payer = min(debtors, key=lambda p: (owed[p], p))
        amount = min(owed[payee], -owed[payer])
        transfers.append(Transfer(payer, payee, amount))
        owed[payee] -= amount
        owed[payer] += amount
