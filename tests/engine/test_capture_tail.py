"""Big claims (15–30 cards, issue 24): the claim check's cheap necessary conditions (every kind
fits some group, some total divides) and its totals-pruned search give exactly the verdict and
grouping of the plain kind search."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from scorekeeper.cards import Card, french_pack, parse_card, parse_cards
from scorekeeper.engine.capture import (
    KASINO_SCHEME,
    MULLE_SCHEME,
    Grouping,
    ValueScheme,
    find_grouping,
    kasino_scheme,
    mulle_scheme,
)
from scorekeeper.engine.fishing import claims
from scorekeeper.engine.fishing.schemes import capture_values
from scorekeeper.engine.fishing.search import solve_kinds

SCHEMES = [MULLE_SCHEME, mulle_scheme(True), KASINO_SCHEME, kasino_scheme("fixed"), kasino_scheme("handtable")]
TWO_PACKS = sorted(french_pack(2).elements(), key=str)


def plain_search(played: Card, taken: list[Card], scheme: ValueScheme) -> Grouping | None:
    """The kind search on its own (no claim tables, no conditions before it), value by value."""
    for v in capture_values(played, scheme):
        found = solve_kinds(played, taken, scheme, v)
        if found is not None:
            return found
    return None


@st.composite
def big_claims(draw: st.DrawFn) -> tuple[Card, list[Card], ValueScheme]:
    """15–30 cards of two packs: a random handful, or groups built to make one of the played
    card's values with a card or two added or one swapped (its totals may still divide)."""
    scheme = draw(st.sampled_from(SCHEMES))
    played = draw(st.sampled_from(TWO_PACKS))
    pool = list(TWO_PACKS)
    pool.remove(played)
    if draw(st.integers(0, 3)) == 0:
        return played, draw(st.lists(st.sampled_from(pool), min_size=15, max_size=30)), scheme
    v = draw(st.sampled_from(capture_values(played, scheme)))
    taken: list[Card] = []
    while len(taken) < 15:
        group: list[Card] = []
        total = 0
        while total < v:
            fits = [c for c in pool if any(total + x <= v for x in scheme.table_values(c))]
            card = draw(st.sampled_from(fits))
            group.append(card)
            total += draw(st.sampled_from([x for x in scheme.table_values(card) if total + x <= v]))
        taken += group
    taken = taken[:30]
    how = draw(st.sampled_from(["as built", "added", "swapped"]))
    if how == "added":
        taken = [*taken[:29], draw(st.sampled_from(pool))]
    elif how == "swapped":
        taken[draw(st.integers(0, len(taken) - 1))] = draw(st.sampled_from(pool))
    return played, taken, scheme


@settings(max_examples=150)
@given(claim=big_claims(), prune_at_once=st.booleans())
def test_big_claims_agree_with_the_plain_search(claim: tuple[Card, list[Card], ValueScheme],
                                                prune_at_once: bool) -> None:
    """With ``prune_at_once`` the totals-pruned search takes over after the first dead state, so
    it runs on legal claims too (left alone it runs only on the rare hard ones)."""
    played, taken, scheme = claim
    usual = claims._PRUNE_AFTER
    claims._PRUNE_AFTER = 0 if prune_at_once else usual
    try:
        found = find_grouping(played, taken, scheme)
    finally:
        claims._PRUNE_AFTER = usual
    event("legal" if found is not None else "refused")
    assert found == plain_search(played, taken, scheme)
    if found is not None:
        assert Counter(found.cards) == Counter(taken)


@pytest.mark.parametrize(("played", "taken", "scheme"), [
    # v = 16 alone divides a total (A as 14, 2♠ as 15, 10♦ as 10), and then 2♠ has no 1 to go with
    ("10D", "AH 2C 2D 2S 3H 3C 4D 5H 5C 6H 6D 6C 8S 10D 11", "strict"),
    ("10D", "AH 2C 2D 2S 3H 3C 4D 5H 5C 6H 6D 6C 8S 10D 11", "standard"),
])
def test_a_hard_refusal_goes_through_the_pruned_search(played: str, taken: str, scheme: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    chosen = mulle_scheme(True) if scheme == "strict" else KASINO_SCHEME
    cards = parse_cards(taken.replace("11", "JC QD"))
    calls = []
    real = claims._solve

    def counting(*args: object) -> bool:
        if args[-1] is not None:  # searching with the totals check: the hard claims' search
            calls.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(claims, "_solve", counting)
    assert find_grouping(parse_card(played), cards, chosen) is None
    assert plain_search(parse_card(played), cards, chosen) is None
    assert calls, "the claim was expected to be a hard one"
