"""The games a table can be opened for, by id, in the order of the "new table" form."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from scorekeeper.engine.core.protocol import Rules

__all__ = ["Registry"]


class Registry(Mapping[str, Rules[Any]]):
    """A read-only mapping game id → rules once built; an unknown id is a ``KeyError``."""

    def __init__(self, *games: Rules[Any]) -> None:
        self._games: dict[str, Rules[Any]] = {}
        for rules in games:
            if rules.id in self._games:
                raise ValueError(f"two games registered as {rules.id!r}")
            self._games[rules.id] = rules

    def __getitem__(self, game: str) -> Rules[Any]:
        return self._games[game]

    def __iter__(self) -> Iterator[str]:
        return iter(self._games)

    def __len__(self) -> int:
        return len(self._games)
