"""The shared capture solver: the Mulle and Kasino capture vectors, and a brute-force cross-check."""

from __future__ import annotations

import pickle
from collections import Counter
from collections.abc import Sequence
from itertools import combinations, product

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from scorekeeper.cards import Card, french_pack, parse_card, parse_cards
from scorekeeper.engine.capture import (
    KASINO_SCHEME,
    MULLE_SCHEME,
    Grouping,
    ValueScheme,
    can_capture,
    can_sweep,
    card_sort_key,
    count_captures,
    explain_failure,
    find_grouping,
    is_sweep_value,
    kasino_scheme,
    legal_captures,
    legal_with_mixed_values,
    maximal_captures,
    mulle_scheme,
    sweep_values,
)

STRICT = mulle_scheme(strict_value=True)


def cards(text: str) -> list[Card]:
    return parse_cards(text) if text else []


def check(played: str, taken: str, scheme: ValueScheme = MULLE_SCHEME) -> int | None:
    found = find_grouping(parse_card(played), cards(taken), scheme)
    if found is None:
        return None
    assert Counter(found.cards) == Counter(cards(taken))
    return found.value


# --- MULLE-TV-* at the solver level (the engine tests score them) -----------------------------

@pytest.mark.parametrize(("rule", "played", "taken", "scheme", "value"), [
    ("MULLE-TV-2", "5C", "5C", MULLE_SCHEME, 5),
    ("MULLE-TV-3", "5C", "5D 5C", MULLE_SCHEME, 5),
    ("MULLE-TV-5", "AH", "AH", MULLE_SCHEME, 1),
    ("MULLE-TV-6", "AH", "KS AC", MULLE_SCHEME, 14),
    ("MULLE-TV-7", "8C", "3H 5S", MULLE_SCHEME, 8),
    ("MULLE-TV-8", "8C", "5S 5D 3H", MULLE_SCHEME, None),
    ("MULLE-TV-9", "2S", "2H 9C 6D", MULLE_SCHEME, 15),
    ("MULLE-TV-9 strict", "2S", "2H 9C 6D", STRICT, None),
    ("MULLE-TV-10", "10D", "10H 8C 8D", MULLE_SCHEME, 16),
    ("MULLE-TV-10 strict", "10D", "10H 8C 8D", STRICT, None),
    ("MULLE-TV-11", "10D", "10D", MULLE_SCHEME, 10),
    ("MULLE-TV-12", "10D", "10D 6C", MULLE_SCHEME, 16),
    ("MULLE-TV-13", "2S", "AS AD", MULLE_SCHEME, 2),
    ("MULLE-TV-14", "10D", "2S AH", MULLE_SCHEME, 16),
    ("MULLE-TV-15", "10H", "8C 8D 4H", MULLE_SCHEME, None),
    ("MULLE-TV-16", "AH", "AC KS 9D 5C", MULLE_SCHEME, 14),
    ("MULLE-TV-17", "KH", "AS QD 6C 7C KC", MULLE_SCHEME, 13),
    ("MULLE-TV-18", "KH", "2S", MULLE_SCHEME, None),
])
def test_mulle_vectors(rule: str, played: str, taken: str, scheme: ValueScheme, value: int | None) -> None:
    assert check(played, taken, scheme) == value, rule


def test_mulle_tv13_both_values_work() -> None:
    # Either value proves TV-13; both must be found by a per-value search.
    grouping = find_grouping(parse_card("2S"), cards("AS AD"), ValueScheme(lillan_played=(15,)))
    assert grouping is not None and grouping.value == 15
    assert sorted(grouping.counted[0]) == [1, 14]


def test_tv16_needs_a_real_partition_search() -> None:
    grouping = find_grouping(parse_card("AH"), cards("AC KS 9D 5C"), MULLE_SCHEME)
    assert grouping is not None
    assert {frozenset(map(str, g)) for g in grouping.groups} == {frozenset({"AC", "KS"}), frozenset({"9D", "5C"})}
    assert grouping.describe() == "A♣+K♠ = 14, 5♣+9♦ = 14"


def test_rank_match_group_is_described_as_such() -> None:
    grouping = find_grouping(parse_card("2S"), cards("2H 9C 6D"), MULLE_SCHEME)
    assert grouping is not None and grouping.rank_matched == (False, True)
    assert grouping.describe() == "6♦+9♣ = 15, 2♥ (same rank)"
    assert grouping.summary(parse_card("2S")) == "2♠ as 15 takes 6♦+9♣ = 15, 2♥ (same rank)"
    assert grouping.to_json()["groups"] == [["6D", "9C"], ["2H"]]


def test_dual_values_are_annotated_when_not_face() -> None:
    grouping = find_grouping(parse_card("10D"), cards("2S AH"), MULLE_SCHEME)
    assert grouping is not None and grouping.describe() == "A♥+2♠(15) = 16"


# --- KASINO-TV-* (capture level) --------------------------------------------------------------

HANDTABLE = kasino_scheme("handtable")
FIXED = kasino_scheme("fixed")


@pytest.mark.parametrize(("rule", "played", "taken", "scheme", "value"), [
    ("KASINO-TV-1", "7S", "7H 3S 4D", KASINO_SCHEME, 7),
    ("KASINO-TV-2a", "8C", "3H 5S", KASINO_SCHEME, 8),
    ("KASINO-TV-2b", "8C", "3H 5D", KASINO_SCHEME, 8),
    ("KASINO-TV-2c", "8C", "5S 5D 3H", KASINO_SCHEME, None),
    ("KASINO-TV-3a", "2S", "2C", KASINO_SCHEME, 2),
    ("KASINO-TV-3b", "2S", "9D 6H", KASINO_SCHEME, 15),
    ("KASINO-TV-3c", "2S", "2C 9D 6H", KASINO_SCHEME, None),
    ("KASINO-TV-4", "AH", "KS AC", KASINO_SCHEME, 14),
    ("KASINO-TV-5b", "9H", "9C", KASINO_SCHEME, 9),
    ("KASINO-TV-8", "2S", "AC AD", KASINO_SCHEME, 2),
    ("KASINO-TV-9", "10D", "2S AH", KASINO_SCHEME, 16),
    ("KASINO-TV-10", "10C", "10D", KASINO_SCHEME, 10),
    ("KASINO-TV-11", "AH", "AC", KASINO_SCHEME, 1),
    ("KASINO-TV-11 handtable", "AH", "AC", HANDTABLE, None),
    ("KASINO-TV-11b handtable", "AH", "AC KS", HANDTABLE, 14),
    ("KASINO-TV-12", "QS", "QH 5C 7D 2H 10S", KASINO_SCHEME, 12),
    ("KASINO-TV-13a", "7H", "7S", KASINO_SCHEME, 7),
    ("KASINO-TV-13b", "7H", "3C 4D 7S", KASINO_SCHEME, 7),
    ("KASINO-TV-13c", "7H", "3C 4D 5H", KASINO_SCHEME, None),
    ("KASINO-TV-16", "10H", "8C 8D 4H", KASINO_SCHEME, None),
    ("KASINO-TV-17 fixed", "2S", "9D 6H", FIXED, None),
    ("KASINO-TV-17 default", "2S", "9D 6H", KASINO_SCHEME, 15),
    ("KASINO-TV-18", "KD", "6C 7H AS QC", KASINO_SCHEME, 13),
])
def test_kasino_vectors(rule: str, played: str, taken: str, scheme: ValueScheme, value: int | None) -> None:
    assert check(played, taken, scheme) == value, rule


def test_kasino_tv13_maximal_capture() -> None:
    maxima = maximal_captures(parse_card("7H"), cards("3C 4D 5H 7S"), KASINO_SCHEME)
    assert [sorted(map(str, c)) for c, _ in maxima] == [["3C", "4D", "7S"]]
    listed = {tuple(sorted(map(str, c))) for c, _ in legal_captures(parse_card("7H"), cards("3C 4D 5H 7S"), KASINO_SCHEME)}
    assert listed == {("7S",), ("3C", "4D"), ("3C", "4D", "7S")}


def test_kasino_tv14_and_tv15_maxima() -> None:
    tv14 = maximal_captures(parse_card("AH"), cards("AC 9D 5S"), KASINO_SCHEME)
    assert [sorted(map(str, c)) for c, _ in tv14] == [["5S", "9D", "AC"]]
    assert sweep_values(cards("AC 9D 5S"), KASINO_SCHEME) == frozenset({14, 15})
    tv15 = maximal_captures(parse_card("2S"), cards("2C 9D 6H"), KASINO_SCHEME)
    assert sorted(sorted(map(str, c)) for c, _ in tv15) == [["2C"], ["6H", "9D"]]
    by_count = maximal_captures(parse_card("2S"), cards("2C 9D 6H"), KASINO_SCHEME, by="count")
    assert [sorted(map(str, c)) for c, _ in by_count] == [["6H", "9D"]]


def test_kasino_tv6_and_tv7_helpers() -> None:
    assert not can_capture(parse_card("4C"), cards("7S"), KASINO_SCHEME)
    assert sweep_values(cards("7S 4C"), KASINO_SCHEME) == frozenset({11})
    assert can_capture(parse_card("AH"), cards("AC"), KASINO_SCHEME)
    assert can_sweep(parse_card("JH"), cards("7S 4C"), KASINO_SCHEME)
    assert not can_sweep(parse_card("QH"), cards("7S 4C"), KASINO_SCHEME)
    assert not is_sweep_value([], 5, KASINO_SCHEME)
    assert not can_capture(parse_card("4C"), [], KASINO_SCHEME)


def test_kasino_scheme_names() -> None:
    assert kasino_scheme("standard") is KASINO_SCHEME
    assert HANDTABLE.played_values(parse_card("10D")) == (16,)
    assert HANDTABLE.table_values(parse_card("10D")) == (10,)
    with pytest.raises(ValueError):
        kasino_scheme("bogus")


# --- Explanations ----------------------------------------------------------------------------

def test_explain_single_card() -> None:
    text = explain_failure(parse_card("KH"), cards("2S"), MULLE_SCHEME)
    assert "K♥ counts 13" in text and "2♠ counts 2 or 15" in text


def test_explain_card_counted_twice() -> None:
    text = explain_failure(parse_card("8C"), cards("5S 5D 3H"), MULLE_SCHEME)
    assert "count twice" in text


def test_explain_unpartnered_cards() -> None:
    text = explain_failure(parse_card("10H"), cards("8C 8D 4H"), MULLE_SCHEME)
    assert "8♣" in text and "no group" in text and "adds up to 10" in text and "together they make 20" in text


def test_explain_one_value_per_capture() -> None:
    text = explain_failure(parse_card("2S"), cards("2C 9D 6H"), KASINO_SCHEME)
    assert "one value for the whole capture" in text


def test_explain_trail() -> None:
    assert "trail" in explain_failure(parse_card("5C"), [], MULLE_SCHEME)


# --- Multisets (two packs) -------------------------------------------------------------------

def test_copies_are_interchangeable_in_listing() -> None:
    listed = legal_captures(parse_card("5C"), cards("5D 5C 5C 4H AS"), MULLE_SCHEME)
    keys = [tuple(map(str, c)) for c, _ in listed]
    assert len(keys) == len(set(keys))
    assert ("5C",) in keys and ("5C", "5C") in keys
    assert ("AS", "4H", "5D", "5C", "5C") in keys
    assert count_captures(parse_card("5C"), cards("5D 5C 5C 4H AS"), MULLE_SCHEME) == len(listed)


def test_twin_copies_in_a_claim() -> None:
    assert check("10H", "5C 5C") == 10
    assert check("5H", "5C 5C 5C") == 5
    assert check("KH", "AS AS QD QD") == 13


def test_empty_claim_is_not_a_capture() -> None:
    assert find_grouping(parse_card("5C"), [], MULLE_SCHEME) is None
    assert legal_captures(parse_card("5C"), [], MULLE_SCHEME) == []


# --- Cross-check against a literal reading of the spec ---------------------------------------

def reference_legal(played: Card, taken: Sequence[Card], scheme: ValueScheme) -> bool:
    """MULLE-CAP-4 / KASINO-CAP-4 by brute force over every set partition."""
    def sums(group: Sequence[Card]) -> set[int]:
        out = {0}
        for card in group:
            out = {s + x for s in out for x in scheme.table_values(card)}
        return out

    def partition(rest: tuple[Card, ...], v: int) -> bool:
        if not rest:
            return True
        first, others = rest[0], rest[1:]
        if scheme.rank_match and first.rank == played.rank and partition(others, v):
            return True
        for size in range(len(others) + 1):
            for chosen in combinations(range(len(others)), size):
                group = (first, *(others[i] for i in chosen))
                if v in sums(group):
                    left = tuple(c for i, c in enumerate(others) if i not in chosen)
                    if partition(left, v):
                        return True
        return False

    return bool(taken) and any(partition(tuple(taken), v) for v in scheme.played_values(played))


PACK = sorted(french_pack(2).elements())
DUALS = [c for c in PACK if c.rank == "A" or str(c) in {"2S", "10D"}]
card_st = st.one_of(st.sampled_from(PACK), st.sampled_from(DUALS))
schemes = st.sampled_from([MULLE_SCHEME, STRICT, KASINO_SCHEME, HANDTABLE, FIXED])


@given(played=card_st, taken=st.lists(card_st, min_size=1, max_size=7), scheme=schemes)
def test_claim_matches_reference(played: Card, taken: list[Card], scheme: ValueScheme) -> None:
    found = find_grouping(played, taken, scheme)
    assert (found is not None) == reference_legal(played, taken, scheme)
    if found is not None:
        assert Counter(found.cards) == Counter(taken)
        for group, values, ranked in zip(found.groups, found.counted, found.rank_matched, strict=True):
            if ranked:
                assert len(group) == 1 and group[0].rank == played.rank
            else:
                assert sum(values) == found.value
                assert all(x in scheme.table_values(c) for c, x in zip(group, values, strict=True))


def brute_force_legal(played: Card, taken: Sequence[Card], scheme: ValueScheme) -> bool:
    """``reference_legal`` for bigger claims: the same literal reading (the first card's group is
    every subset of the others holding it, or a rank-match single), remembering the remainders
    already refused and dropping a subset as soon as its smallest total passes v."""
    def sums(group: Sequence[Card]) -> set[int]:
        out = {0}
        for card in group:
            out = {s + x for s in out for x in scheme.table_values(card)}
        return out

    def solve(v: int) -> bool:
        refused: set[tuple[Card, ...]] = set()

        def partition(rest: tuple[Card, ...]) -> bool:
            if not rest:
                return True
            if rest in refused:
                return False
            first, others = rest[0], rest[1:]
            if scheme.rank_match and first.rank == played.rank and partition(others):
                return True

            def grow(i: int, chosen: list[int], low: int) -> bool:
                if v in sums([first, *(others[j] for j in chosen)]):
                    left = tuple(c for j, c in enumerate(others) if j not in chosen)
                    if partition(left):
                        return True
                for j in range(i, len(others)):
                    step = min(scheme.table_values(others[j]))
                    if low + step <= v and grow(j + 1, [*chosen, j], low + step):
                        return True
                return False

            if grow(0, [], min(scheme.table_values(first))):
                return True
            refused.add(rest)
            return False

        return partition(tuple(sorted(taken)))

    return bool(taken) and any(solve(v) for v in scheme.played_values(played))


@st.composite
def claims(draw: st.DrawFn) -> tuple[Card, list[Card], ValueScheme]:
    """A played card and a claim of 2–12 cards: random cards, or groups built to make one of the
    played card's values (with rank-match singles), perhaps with a stray card added."""
    scheme = draw(schemes)
    played = draw(card_st)
    if draw(st.booleans()):
        return played, draw(st.lists(card_st, min_size=2, max_size=12)), scheme
    v = draw(st.sampled_from([x for x in scheme.played_values(played) if 0 < x <= scheme.max_value]))
    taken: list[Card] = []
    size = draw(st.integers(2, 12))
    while len(taken) < size:
        group: list[Card] = []
        total = 0
        while total < v:
            fits = [c for c in PACK if any(total + x <= v for x in scheme.table_values(c))]
            card = draw(st.sampled_from(fits))
            group.append(card)
            total += draw(st.sampled_from([x for x in scheme.table_values(card) if total + x <= v]))
        if len(taken) + len(group) > 12:
            break
        taken += group
    if draw(st.booleans()) and len(taken) < 12:
        taken.append(draw(card_st))
    return played, taken or [played], scheme


@settings(max_examples=300)
@given(claim=claims())
def test_the_fast_check_agrees_with_brute_force_up_to_12_cards(claim: tuple[Card, list[Card], ValueScheme]) -> None:
    played, taken, scheme = claim
    found = find_grouping(played, taken, scheme)
    assert (found is not None) == brute_force_legal(played, taken, scheme)
    event("legal" if found is not None else "refused")
    if len(taken) <= 7:
        assert (found is not None) == reference_legal(played, taken, scheme)
    if found is not None:
        assert Counter(found.cards) == Counter(taken)
        for group, values, ranked in zip(found.groups, found.counted, found.rank_matched, strict=True):
            if ranked:
                assert len(group) == 1 and group[0].rank == played.rank
            else:
                assert sum(values) == found.value
                assert all(x in scheme.table_values(c) for c, x in zip(group, values, strict=True))


def submultisets(table: Sequence[Card]) -> set[tuple[Card, ...]]:
    out = set()
    for size in range(1, len(table) + 1):
        for chosen in combinations(sorted(table), size):
            out.add(chosen)
    return out


@given(table=st.lists(card_st, min_size=0, max_size=12), scheme=schemes)
def test_sweep_values_are_every_value_the_whole_table_splits_into(table: list[Card], scheme: ValueScheme) -> None:
    """KASINO-MIS-4's announcements: sweep_values skips values by two conditions checked for all
    values at once, and answers what asking is_sweep_value of every value answers."""
    assert sweep_values(table, scheme) == {v for v in range(1, scheme.max_value + 1) if is_sweep_value(table, v, scheme)}


@given(played=card_st, table=st.lists(card_st, min_size=0, max_size=8), scheme=schemes)
def test_listing_matches_reference(played: Card, table: list[Card], scheme: ValueScheme) -> None:
    listed = legal_captures(played, table, scheme)
    got = {tuple(sorted(c)) for c, _ in listed}
    assert len(got) == len(listed)
    expected = {c for c in submultisets(table) if reference_legal(played, c, scheme)}
    assert got == expected
    for taken, grouping in listed:
        assert Counter(grouping.cards) == Counter(taken)
    assert can_capture(played, table, scheme) == bool(expected)
    maxima = {tuple(sorted(c)) for c, _ in maximal_captures(played, table, scheme)}
    for capture in expected:
        bigger = [m for m in expected if m != capture and not (Counter(capture) - Counter(m))]
        assert (capture in maxima) == (not bigger)


def test_one_value_rule_is_detected() -> None:
    played, taken = parse_card("10D"), cards("4H 6C 9D 7S")
    assert find_grouping(played, taken, MULLE_SCHEME) is None
    assert legal_with_mixed_values(played, taken, MULLE_SCHEME)
    assert not legal_with_mixed_values(parse_card("10H"), cards("8C 8D 4H"), MULLE_SCHEME)
    assert not legal_with_mixed_values(played, [], MULLE_SCHEME)
    assert "one value for the whole capture" in explain_failure(played, taken, MULLE_SCHEME)


# --- Listing: the documented order, limits, counts, the twin alone ------------------------------

def order_key(capture: Sequence[Card]) -> tuple[int, list[tuple[int, int]]]:
    return len(capture), [card_sort_key(c) for c in capture]


def assert_valid(played: Card, taken: Sequence[Card], grouping: Grouping, scheme: ValueScheme) -> None:
    assert Counter(grouping.cards) == Counter(taken)
    assert grouping.value in scheme.played_values(played)
    for group, values, ranked in zip(grouping.groups, grouping.counted, grouping.rank_matched, strict=True):
        if ranked:
            assert scheme.rank_match and len(group) == 1 and group[0].rank == played.rank
        else:
            assert sum(values) == grouping.value
            assert all(x in scheme.table_values(c) for c, x in zip(group, values, strict=True))


def sub_multisets(table: Sequence[Card]) -> list[list[Card]]:
    counts = Counter(table)
    cards = sorted(counts, key=card_sort_key)
    return [[c for c, n in zip(cards, picked, strict=True) for _ in range(n)]
            for picked in product(*(range(counts[c] + 1) for c in cards)) if any(picked)]


@given(played=card_st, table=st.lists(card_st, min_size=1, max_size=8), scheme=schemes,
       limit=st.integers(min_value=0, max_value=40), data=st.data())
def test_listing_order_limit_count_and_alone(played: Card, table: list[Card], scheme: ValueScheme,
                                             limit: int, data: st.DataObject) -> None:
    listed = legal_captures(played, table, scheme)
    keys = [order_key(c) for c, _ in listed]
    assert keys == sorted(keys) and len(set(map(str, keys))) == len(keys)  # documented order, once each
    assert all(list(c) == sorted(c, key=card_sort_key) for c, _ in listed)
    assert [c for c, _ in legal_captures(played, table, scheme, limit=limit)] == [c for c, _ in listed[:limit]]
    assert count_captures(played, table, scheme) == len(listed)
    assert count_captures(played, table, scheme, at_most=limit) == min(limit, len(listed))
    alone = data.draw(st.sampled_from([played, *table]))
    kept = [c for c, _ in listed if not (alone in c and len(c) > 1)]
    assert [c for c, _ in legal_captures(played, table, scheme, alone=alone)] == kept
    assert [c for c, _ in legal_captures(played, table, scheme, alone=alone, limit=limit)] == kept[:limit]
    assert count_captures(played, table, scheme, alone=alone) == len(kept)
    by_count = maximal_captures(played, table, scheme, by="count")
    most = max((len(c) for c, _ in listed), default=0)
    assert [c for c, _ in by_count] == [c for c, _ in listed if len(c) == most]


@settings(max_examples=25)
@given(played=card_st, table=st.lists(card_st, min_size=9, max_size=11), scheme=schemes)
def test_bigger_tables_match_the_claim_check(played: Card, table: list[Card], scheme: ValueScheme) -> None:
    """Past 8 cards the listing searches small captures first and grows on demand: a partial
    count, then the full listing, must still agree with checking every sub-multiset."""
    small = count_captures(played, table, scheme, at_most=3)
    listed = legal_captures(played, table, scheme)
    expected = [taken for taken in sub_multisets(table) if find_grouping(played, taken, scheme) is not None]
    assert [list(c) for c, _ in listed] == sorted(expected, key=order_key)
    assert small == min(3, len(listed)) and count_captures(played, table, scheme) == len(listed)
    for taken, grouping in listed:
        assert_valid(played, taken, grouping, scheme)


def test_limit_must_not_be_negative() -> None:
    with pytest.raises(ValueError):
        legal_captures(parse_card("5C"), cards("5D"), MULLE_SCHEME, limit=-1)
    assert legal_captures(parse_card("5C"), cards("5D"), MULLE_SCHEME, limit=0) == []
    with pytest.raises(ValueError):
        count_captures(parse_card("5C"), cards("5D"), MULLE_SCHEME, at_most=-1)


def test_a_crowded_table_lists_its_smallest_captures_first() -> None:
    table = cards("AS AH AD AC AS AH 2S 10D 3C 4D 5H 6S 7C 8D 9H JS QC KD 2H 3S 4C 5D 6H 7S 8C 9D")
    played = parse_card("AD")
    first = legal_captures(played, table, MULLE_SCHEME, limit=50)
    assert len(first) == 50 and [len(c) for c, _ in first] == sorted(len(c) for c, _ in first)
    assert [c for c, _ in first] == sorted((c for c, _ in first), key=order_key)
    for taken, grouping in first:
        assert find_grouping(played, taken, MULLE_SCHEME) is not None
        assert_valid(played, taken, grouping, MULLE_SCHEME)
    assert count_captures(played, table, MULLE_SCHEME, at_most=5000) == 5000


def test_listed_groupings_behave_like_values() -> None:
    """Listed groupings work their groups out on first use; that must not show."""
    listed = legal_captures(parse_card("AH"), cards("AC KS 9D 5C 2S"), MULLE_SCHEME)
    taken, grouping = next((c, g) for c, g in listed if len(c) == 4)
    same = Grouping(grouping.value, grouping.groups, grouping.counted, grouping.rank_matched)
    assert grouping == same and hash(grouping) == hash(same) and repr(grouping) == repr(same)
    assert grouping.describe() == "A♣+K♠ = 14, 5♣+9♦ = 14"
    assert pickle.loads(pickle.dumps(listed[-1][1])) == listed[-1][1]
    with pytest.raises(AttributeError):
        grouping.value = 1  # type: ignore[misc]
    assert grouping != Grouping(1, grouping.groups, grouping.counted, grouping.rank_matched)


@given(played=card_st, table=st.lists(card_st, min_size=1, max_size=9), scheme=schemes, data=st.data())
def test_the_listing_reads_as_a_list_of_pairs(played: Card, table: list[Card], scheme: ValueScheme,
                                              data: st.DataObject) -> None:
    """legal_captures hands out a sequence that spells each pair when read: by index, slice,
    iteration and taken() it must read as the list it stands for, and equal it."""
    listed = legal_captures(played, table, scheme)
    pairs = list(listed)
    assert len(pairs) == len(listed) and listed == pairs and pairs == listed and listed == tuple(pairs)
    assert listed.taken() == [c for c, _ in pairs]
    if pairs:
        i = data.draw(st.integers(min_value=-len(pairs), max_value=len(pairs) - 1))
        assert listed[i] == pairs[i]
        start, stop = sorted(data.draw(st.lists(st.integers(-12, 12), min_size=2, max_size=2)))
        assert listed[start:stop] == pairs[start:stop] and listed[::-2] == pairs[::-2]
        assert listed != pairs[:-1] and listed != [*pairs[:-1], (pairs[-1][0], Grouping(99, ()))]
    with pytest.raises(IndexError):
        listed[len(pairs)]
    with pytest.raises(TypeError):
        hash(listed)


def test_a_full_listing_is_spelled_when_read() -> None:
    """Tens of thousands of captures are kept as one int each until read: the listing holds no
    pair and no grouping, and iterating spells them in batches."""
    table = cards("AS AH AD AC AS AH 2S 10D 3C 4D 5H 6S 7C 8D 9H JS QC KD 2H 3S")
    listed = legal_captures(parse_card("AD"), table, MULLE_SCHEME)
    assert len(listed) > 1000 and all(type(key) is int for key in listed._keys)
    assert sum(1 for _ in listed) == len(listed) == count_captures(parse_card("AD"), table, MULLE_SCHEME)
    assert listed[len(listed) // 2] in listed[len(listed) // 2 - 1: len(listed) // 2 + 2]
