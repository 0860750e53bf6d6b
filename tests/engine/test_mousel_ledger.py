"""The token ledger and the end-of-session settle-up (MOUSEL-COMP-2, MOUSEL-END-2)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.engine.ledger import POT, Book, Entry, Transfer, check_invariant, settle_up


def _apply(balances: list[int], transfers: list[Transfer]) -> list[int]:
    out = list(balances)
    for t in transfers:
        assert t.amount > 0 and t.payer != t.payee
        out[t.payer] += t.amount
        out[t.payee] -= t.amount
    return out


def _partitions(items: list[int]) -> Iterator[list[list[int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in _partitions(rest):
        for i in range(len(part)):
            yield part[:i] + [[first] + part[i]] + part[i + 1:]
        yield [[first]] + part


def _fewest(balances: list[int]) -> int:
    """Brute force: non-zero parties minus the most zero-sum blocks of any partition."""
    parties = [i for i, b in enumerate(balances) if b]
    best = 0
    for partition in _partitions(parties):
        if all(sum(balances[i] for i in block) == 0 for block in partition):
            best = max(best, len(partition))
    return len(parties) - best


def test_settle_up_simple() -> None:
    assert settle_up([3, -3]) == [Transfer(1, 0, 3)]
    assert settle_up([0, 0, 0]) == []
    assert settle_up([7, 5, 0, -12]) == [Transfer(3, 0, 7), Transfer(3, 1, 5)]


def test_settle_up_beats_plain_greedy() -> None:
    # Largest-first greedy needs 4 transfers here; {+3, -3} and {+4, -2, -2} need 1 + 2.
    balances = [4, 3, -3, -2, -2]
    transfers = settle_up(balances)
    assert len(transfers) == 3
    assert _apply(balances, transfers) == [0] * 5


def test_settle_up_needs_zero_sum() -> None:
    with pytest.raises(ValueError):
        settle_up([1, 1])


@given(st.lists(st.integers(-30, 30), min_size=1, max_size=6))
def test_settle_up_is_minimal(values: list[int]) -> None:
    balances = values + [-sum(values)]
    transfers = settle_up(balances)
    assert _apply(balances, transfers) == [0] * len(balances)
    assert len(transfers) == _fewest(balances)


def test_settle_up_many_parties_still_clears() -> None:
    balances = [i - 10 for i in range(21)]  # 21 parties: beyond the exact search, greedy
    transfers = settle_up(balances)
    assert _apply(balances, transfers) == [0] * 21
    assert len(transfers) <= 20


def test_book_posts_and_keeps_the_invariant() -> None:
    book = Book.opening(3).post([Entry(1, "ante", p, POT, 1, "MOUSEL-DEAL-1") for p in range(3)])
    assert book.balances == (-1, -1, -1) and book.pot == 3
    book = book.post([Entry(1, "share", POT, 0, 3, "MOUSEL-POT-1"), Entry(1, "carry", POT, POT, 0, "x")])
    assert book.balances == (2, -1, -1) and book.pot == 0
    assert check_invariant(book)
    assert book.post([]) is book
    assert Entry(1, "ante", 2, POT, 1, "R").to_json() == {"deal": 1, "kind": "ante", "from": 2, "to": "pot",
                                                          "amount": 1, "rule": "R", "note": ""}


def test_book_refuses_bad_entries() -> None:
    with pytest.raises(ValueError):
        Book.opening(2).post([Entry(1, "share", POT, 0, 1, "R")])  # the pot is empty
    with pytest.raises(ValueError):
        Book.opening(2).post([Entry(1, "ante", 0, POT, -1, "R")])


def test_check_invariant_catches_tampering() -> None:
    book = Book.opening(2).post([Entry(1, "ante", 0, POT, 1, "R")])
    assert not check_invariant(Book((0, 0), 1, book.entries))
    assert not check_invariant(Book((-1, 0), 2, book.entries))
