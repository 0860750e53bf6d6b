"""One way to copy a frozen state with some fields changed."""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

__all__ = ["assemble", "evolve"]

D = TypeVar("D")

# Per class: its slot names, or (for a class whose instances keep a __dict__) its field names.
_SLOTS: dict[type, tuple[str, ...]] = {}
_FIELDS: dict[type, frozenset[str]] = {}
_set = object.__setattr__
_new = object.__new__


def evolve(obj: D, **changes: Any) -> D:
    """``dataclasses.replace`` for frozen dataclasses without ``__post_init__``, without re-running
    ``__init__`` (a replay copies states thousands of times).

    The big, often-copied states (a deal of thirty fields) are declared without ``slots`` so that a
    copy is one dict merge instead of a ``setattr`` per field — a quarter of the time."""
    cls = type(obj)
    fields = _FIELDS.get(cls)
    if fields is not None:
        if not changes.keys() <= fields:
            raise TypeError(f"{cls.__name__} has no field {next(iter(changes.keys() - fields))!r}")
        new = _new(cls)
        merged = obj.__dict__.copy()
        merged.update(changes)
        _set(new, "__dict__", merged)
        return new
    names = _SLOTS.get(cls)
    if names is None:
        if "__slots__" not in cls.__dict__:
            _FIELDS[cls] = frozenset(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]
            return evolve(obj, **changes)
        names = _SLOTS[cls] = tuple(cls.__slots__)  # type: ignore[attr-defined]
    new = _new(cls)
    for name in names:
        _set(new, name, changes.pop(name) if name in changes else getattr(obj, name))
    if changes:
        raise TypeError(f"{cls.__name__} has no field {next(iter(changes))!r}")
    return new


def assemble(cls: type[D], fields: dict[str, Any]) -> D:
    """``cls(**fields)`` for a frozen dataclass declared without ``slots`` or ``__post_init__``,
    every field given: the instance's dict is set at once instead of a ``setattr`` per field (a
    replay makes a state per card). A missing or unknown field is a TypeError, as with ``cls``."""
    names = _FIELDS.get(cls)
    if names is None:
        if "__slots__" in cls.__dict__:
            raise TypeError(f"{cls.__name__} keeps its fields in slots; assemble needs a __dict__")
        names = _FIELDS[cls] = frozenset(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]
    if fields.keys() != names:
        raise TypeError(f"{cls.__name__} takes the fields {sorted(names)}, not {sorted(fields)}")
    new = _new(cls)
    _set(new, "__dict__", fields)
    return new
