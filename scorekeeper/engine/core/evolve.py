"""One way to copy a frozen state with some fields changed, and a quick way to make one."""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

__all__ = ["evolve", "quick_init"]

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
        merged = {**obj.__dict__, **changes}
        # An instance's dict holds its fields (and, made through a subscripted generic class, an
        # ``__orig_class__``): one length check stands for looking up every name changed.
        if len(merged) != len(fields) and changes.keys() - fields:
            raise TypeError(f"{cls.__name__} has no field {next(iter(changes.keys() - fields))!r}")
        new = _new(cls)
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


def quick_init(cls: type[D]) -> type[D]:
    """Class decorator, put above ``@dataclass(frozen=True)``: the class's ``__init__``, same
    arguments and defaults, made to store the fields directly: the instance's dict set at once,
    or, for a class declared with ``slots``, each slot through its own descriptor.

    The ``__init__`` a frozen dataclass is given sets each field through ``object.__setattr__``
    (its class's own ``__setattr__`` refuses), a generic lookup and call per field; a replay makes
    a state per event and a Play per card, ledger entries and scored facts per deal, so that was a
    good part of it. This one is generated from the dataclass's fields, as the dataclass's own is,
    so it cannot fall out of step with them, and Python's binding of the arguments refuses a
    missing or unknown field. Only plain fields are handled (no ``default_factory``,
    ``init=False``, keyword-only fields or ``__post_init__``): anything else is refused when the
    class is made."""
    if not dataclasses.is_dataclass(cls) or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: quick_init is for a dataclass without __post_init__")
    slotted = "__slots__" in cls.__dict__
    namespace: dict[str, Any] = {"_set": _set}
    params: list[str] = []
    names: list[str] = []
    for f in dataclasses.fields(cls):
        if (not f.init or f.kw_only or f.default_factory is not dataclasses.MISSING or not f.name.isidentifier()
                or f.name == "self" or f.name.startswith(("_set", "_default_"))  # the names it uses itself
                or (slotted and f.name not in cls.__dict__)):
            raise TypeError(f"{cls.__name__}.{f.name}: quick_init takes plain fields of the class's own")
        names.append(f.name)
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        if slotted:
            namespace[f"_set_{f.name}"] = cls.__dict__[f.name].__set__
    if slotted:
        body = "".join(f"    _set_{n}(self, {n})\n" for n in names)
    else:
        body = f"    _set(self, '__dict__', {{{', '.join(f'{n!r}: {n}' for n in names)}}})\n"
    exec(f"def __init__(self, {', '.join(params)}):\n{body}", namespace)  # noqa: S102 - made from field names only
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = f"{cls.__name__}({', '.join(names)}), its fields stored directly (core.quick_init)."
    setattr(cls, "__init__", init)  # noqa: B010 - mypy refuses a method assigned as an attribute
    return cls
