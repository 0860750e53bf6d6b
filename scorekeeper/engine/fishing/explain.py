"""Why a capture was refused, in the arithmetic a player can check at the table."""

from __future__ import annotations

from collections.abc import Sequence

from scorekeeper.cards import Card
from scorekeeper.engine.fishing.claims import legal_with_mixed_values
from scorekeeper.engine.fishing.packing import bits_add
from scorekeeper.engine.fishing.schemes import ValueScheme, capture_values, card_sort_key
from scorekeeper.engine.messages import Join, M, Msg

# --- Explaining a refusal ----------------------------------------------------------------------


def _values_text(values: tuple[int, ...]) -> Join:
    return Join(values, "or")


def _fits_some_group(card: Card, others: Sequence[Card], played: Card, v: int, scheme: ValueScheme) -> bool:
    if scheme.rank_match and card.rank == played.rank:
        return True
    limit = (1 << (min(v, scheme.max_value) + 1)) - 1
    bits = bits_add(1, scheme.table_values(card), limit)
    for other in others:
        bits |= bits_add(bits, scheme.table_values(other), limit)
    return bool(bits >> v & 1)


def explain_failure(played: Card, taken: Sequence[Card], scheme: ValueScheme) -> Msg:
    """Why ``played`` cannot take ``taken``, in the arithmetic a player can check at the table."""
    if not taken:
        return M("nothing was taken: that is a trail, not a capture")
    cards = sorted(taken, key=card_sort_key)
    names = Join(tuple(cards))
    hv = capture_values(played, scheme)
    if len(cards) == 1:
        card = cards[0]
        if scheme.rank_match:
            return M("%(played)s counts %(values)s; %(card)s counts %(card_values)s, so it cannot be taken",
                     played=played, values=_values_text(hv), card=card,
                     card_values=_values_text(scheme.table_values(card)))
        return M("%(played)s counts %(values)s; %(card)s counts %(card_values)s, so it cannot be taken "
                 "(matching is by value only)", played=played, values=_values_text(hv), card=card,
                 card_values=_values_text(scheme.table_values(card)))
    reasons: list[Msg] = []
    lo, hi = _total_range(cards, scheme)
    total = f"{lo}" if lo == hi else f"{lo}–{hi}"
    for v in hv:
        loners = [card for i, card in enumerate(cards)
                  if not _fits_some_group(card, cards[:i] + cards[i + 1:], played, v, scheme)]
        if len(loners) == len(cards):
            reason = M("no group of %(cards)s adds up to %(value)s (together they make %(total)s)",
                       cards=names, value=v, total=total)
        elif len(loners) == 1:
            reason = M("%(card)s fits in no group adding up to %(value)s", card=loners[0], value=v)
        elif loners:
            reason = M("%(cards)s fit in no group adding up to %(value)s", cards=Join(tuple(loners), "and"),
                       value=v)
        else:
            reason = M("every card fits some group adding up to %(value)s, but %(cards)s (total %(total)s) "
                       "cannot be split into separate groups of %(value)s at once: a card would have to "
                       "count twice", value=v, cards=names, total=total)
        reasons.append(M("as %(value)s, %(reason)s", value=v, reason=reason) if len(hv) > 1 else reason)
    if len(hv) > 1 and legal_with_mixed_values(played, cards, scheme):
        reasons.append(M("the played card takes one value for the whole capture, so it cannot make "
                         "%(values)s at the same time", values=Join(hv, "and")))
    return M("%(played)s counts %(values)s; %(reasons)s", played=played, values=_values_text(hv),
             reasons=Join(tuple(reasons), "; "))


def _total_range(cards: Sequence[Card], scheme: ValueScheme) -> tuple[int, int]:
    return (sum(min(scheme.table_values(c)) for c in cards), sum(max(scheme.table_values(c)) for c in cards))
