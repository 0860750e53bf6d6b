"""One way to copy a frozen state with some fields changed."""

from __future__ import annotations

from typing import Any, TypeVar

__all__ = ["evolve"]

D = TypeVar("D")

_SLOTS: dict[type, tuple[str, ...]] = {}
_set = object.__setattr__


def evolve(obj: D, **changes: Any) -> D:
    """``dataclasses.replace`` for frozen slotted dataclasses without ``__post_init__``, at half
    the cost: ``__init__`` is not re-run (a replay copies states thousands of times)."""
    cls = type(obj)
    names = _SLOTS.get(cls)
    if names is None:
        names = _SLOTS[cls] = tuple(cls.__slots__)  # type: ignore[attr-defined]
    new = object.__new__(cls)
    for name in names:
        _set(new, name, changes.pop(name) if name in changes else getattr(obj, name))
    if changes:
        raise TypeError(f"{cls.__name__} has no field {next(iter(changes))!r}")
    return new
