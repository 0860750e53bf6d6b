"""The packed-multiset helpers the capture check's inner loops share."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.engine.fishing.packing import Packing, add_each


def _totals(bits: int) -> set[int]:
    return {t for t in range(bits.bit_length()) if bits >> t & 1}


@given(st.integers(0, 1 << 40), st.integers(0, 1 << 20))
def test_add_each_is_every_total_plus_every_part(bits: int, sums: int) -> None:
    assert _totals(add_each(bits, sums)) == {a + b for a in _totals(bits) for b in _totals(sums)}


def test_add_each_worked_example() -> None:
    # totals {0, 2} and a card counting 1 or 2: {1, 2, 3, 4}
    assert add_each(0b101, 0b110) == 0b11110


def test_packing_reads_its_fields() -> None:
    packing = Packing([3, 1, 2])
    assert packing.counts(packing.full) == [3, 1, 2]
    assert packing.field(packing.full, 2) == 2
