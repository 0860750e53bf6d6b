"""One way to copy a frozen state with some fields changed, and a quick way to make one."""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

__all__ = ["dict_init", "evolve"]

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


def dict_init(cls: type[D]) -> type[D]:
    """Class decorator, put above ``@dataclass(frozen=True)`` of a class declared without
    ``slots``: the class's ``__init__``, same arguments and defaults, made to set the instance's
    dict at once.

    The ``__init__`` a frozen dataclass is given sets each field through ``object.__setattr__``, a
    call per field; a replay makes a state per event and a Play per card, so that was a good part
    of it. This one is generated from the dataclass's fields, as the dataclass's own is, so it
    cannot fall out of step with them, and Python's binding of the arguments refuses a missing or
    unknown field. Only plain fields are handled (no ``default_factory``, ``init=False``, keyword-
    only fields or ``__post_init__``): anything else is refused when the class is made."""
    if "__slots__" in cls.__dict__ or not dataclasses.is_dataclass(cls):
        raise TypeError(f"{cls.__name__}: dict_init is for a dataclass that keeps its fields in a dict")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__, which dict_init would skip")
    params: list[str] = []
    defaults: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if not f.init or f.kw_only or f.default_factory is not dataclasses.MISSING or not f.name.isidentifier():
            raise TypeError(f"{cls.__name__}.{f.name}: dict_init takes plain fields only")
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            defaults[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
    names = [f.name for f in dataclasses.fields(cls)]
    source = (f"def __init__(self, {', '.join(params)}):\n"
              f"    _set(self, '__dict__', {{{', '.join(f'{n!r}: {n}' for n in names)}}})\n")
    namespace: dict[str, Any] = {"_set": _set, **defaults}
    exec(source, namespace)  # noqa: S102 - the source is made above from the field names only
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = f"{cls.__name__}({', '.join(names)}), its dict set at once (core.dict_init)."
    setattr(cls, "__init__", init)  # noqa: B010 - mypy refuses a method assigned as an attribute
    return cls
