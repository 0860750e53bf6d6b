"""Why a capture is legal: the ``Grouping`` a check hands out, and its texts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from scorekeeper.cards import Card
from scorekeeper.engine.fishing.schemes import face_value
from scorekeeper.engine.messages import Join, M, Msg

# A grouping's groups (display order), the value each card counted, and which are rank-matches.
Parts = tuple[tuple[tuple[Card, ...], ...], tuple[tuple[int, ...], ...], tuple[bool, ...]]


class PartsSource(Protocol):
    """Where a grouping handed out unresolved works its groups out (a listing, a claim check)."""

    def parts(self, key: int) -> tuple[Parts, tuple[str, ...] | None]: ...


class Grouping:
    """A partition proving a capture legal: every group makes ``value`` (or is a rank-match).

    Immutable, compared and hashed by its four fields (as a frozen dataclass would be). A listing
    hands out groupings that work their groups out on first use, because the screens read only a
    few of the thousands a crowded table has; that is invisible to callers.
    """

    __slots__ = ("_value", "_parts", "_listing", "_key", "_texts")

    def __init__(self, value: int, groups: tuple[tuple[Card, ...], ...],
                 counted: tuple[tuple[int, ...], ...] = (), rank_matched: tuple[bool, ...] = ()) -> None:
        self._value = value
        self._parts: Parts | None = (groups, counted, rank_matched)
        self._listing: PartsSource | None = None
        self._key = 0
        self._texts: tuple[str, ...] | None = None

    @classmethod
    def deferred(cls, value: int, listing: PartsSource, key: int) -> Grouping:
        """The grouping of the capture ``key`` of ``listing`` (or of a claim found, ``key`` its
        value), worked out on first use."""
        made = cls.__new__(cls)
        made._value = value
        made._parts = None
        made._listing = listing
        made._key = key
        made._texts = None
        return made

    def _resolve(self) -> Parts:
        parts = self._parts
        if parts is None:
            listing = self._listing
            if listing is None:  # another thread has just resolved it: _parts is set first
                assert self._parts is not None
                return self._parts
            parts, self._texts = listing.parts(self._key)
            self._parts = parts
            self._listing = None
        return parts

    @property
    def value(self) -> int:
        return self._value

    @property
    def groups(self) -> tuple[tuple[Card, ...], ...]:
        return self._resolve()[0]

    @property
    def counted(self) -> tuple[tuple[int, ...], ...]:
        return self._resolve()[1]

    @property
    def rank_matched(self) -> tuple[bool, ...]:
        return self._resolve()[2]

    def _fields(self) -> tuple[int, tuple[tuple[Card, ...], ...], tuple[tuple[int, ...], ...], tuple[bool, ...]]:
        return (self._value, *self._resolve())

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Grouping)
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        groups, counted, ranked = self._resolve()
        return f"Grouping(value={self._value!r}, groups={groups!r}, counted={counted!r}, rank_matched={ranked!r})"

    def __reduce__(self) -> tuple[type[Grouping], tuple[int, tuple[tuple[Card, ...], ...],
                                                        tuple[tuple[int, ...], ...], tuple[bool, ...]]]:
        return Grouping, self._fields()

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for group in self.groups for card in group)

    def describe(self) -> Msg:
        groups, counted, ranked = self._resolve()
        if self._texts is not None:  # a listing's groups come with their text
            return Msg("%(groups)s", {"groups": Join(self._texts, ", ")})
        return Msg("%(groups)s", {"groups": Join(tuple(
            group_text(group, counted[i] if i < len(counted) else (0,) * len(group),
                        i < len(ranked) and ranked[i], self._value)
            for i, group in enumerate(groups)), ", ")})

    def summary(self, played: Card) -> Msg:
        return M("%(played)s as %(value)s takes %(groups)s", played=played, value=self.value,
                 groups=self.describe())

    def to_json(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "groups": [[str(card) for card in group] for group in self.groups],
            "describe": self.describe(),
        }


def _counted(card: Card, x: int) -> Card | Msg:
    return card if x in (0, face_value(card)) else Msg("%(card)s(%(value)s)", {"card": card, "value": x})


def group_text(group: tuple[Card, ...], values: tuple[int, ...], ranked: bool, value: int) -> Msg:
    """One group as a player would say it: "3♥+5♠ = 8", "A♠(14)", "2♥ (same rank)"."""
    if ranked:
        return M("%(card)s (same rank)", card=group[0])
    if len(group) == 1:
        return Msg("%(card)s", {"card": _counted(group[0], values[0])})
    parts = tuple(_counted(card, x) for card, x in zip(group, values, strict=True))
    return Msg("%(cards)s = %(value)s", {"cards": Join(parts, "+"), "value": value})


def assign_values(options: Sequence[tuple[int, ...]], v: int) -> tuple[int, ...]:
    """One value from each of ``options`` so that they total v (known to be possible)."""
    def go(i: int, left: int) -> tuple[int, ...] | None:
        if i == len(options):
            return () if left == 0 else None
        for value in options[i]:
            if value <= left:
                rest = go(i + 1, left - value)
                if rest is not None:
                    return (value, *rest)
        return None

    found = go(0, v)
    if found is None:  # pragma: no cover - the solver only hands over valid groups
        raise AssertionError(f"no values among {options} making {v}")
    return found
