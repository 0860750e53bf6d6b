"""HTML forms to events: the same event objects the JSON API takes, built from plain form fields.

A field's name may carry a type suffix so forms work without JavaScript:
``side:int`` → int, ``capture:list`` → list of strings (repeated fields or one text split on
spaces and commas), ``flag:bool`` → bool, ``data:json`` → parsed JSON, ``draw:opt`` → text, left
out when blank (the typed field of an optional card: Dragkasino's card drawn, which the engine
reads as a card when present). Other fields are text.

A dotted name builds nested objects and lists, so a form can send one object per side:
``sides.0.cards:int`` → ``{"sides": [{"cards": …}]}`` (a number segment is a list index; a list
index nobody filled in is null). A blank dotted field is left out, so the engine's default for
a missing field applies, but its object is still made: a side left blank is ``{}``, not missing. A ``*`` segment takes its index from the field's values and sets the
leaf to true: radio buttons ``sides.*.storan`` with value ``1`` → ``sides[1].storan = true``.
"""

from __future__ import annotations

import re
from typing import Any

from werkzeug.datastructures import MultiDict

from scorekeeper.localize import tr
from scorekeeper.service import TableError
from scorekeeper.web import json_input

IGNORED = {"csrf_token", "expected_seq", "_redirect"}
MAX_INDEX = 63  # list indexes in dotted names: sides, players, seats — never more than a few
MAX_PARTS = 8  # parts of a dotted name: real forms use three (sides.0.cards); a name of thousands
# would build an event nested thousands deep, which the encoder cannot even measure


def event_from_form(form: MultiDict[str, str]) -> dict[str, Any]:
    event: dict[str, Any] = {}
    for raw_key in form:
        name, _, kind = raw_key.partition(":")
        path = name.split(".")
        if path[0] in IGNORED or not name:
            continue
        if len(path) > MAX_PARTS:
            raise TableError(400, "bad_request", tr("the field %(name)s… has more than %(most)d dotted parts",
                                                    name=repr(name[:40]), most=MAX_PARTS))
        values = form.getlist(raw_key)
        try:
            if kind == "opt" and not any(v.strip() for v in values):
                continue
            if len(path) == 1:
                _put(event, path, _convert(kind, values))
            elif "*" in path:
                for value in values:
                    if value.strip():
                        _put(event, [value.strip() if part == "*" else part for part in path], True)
            elif any(v.strip() for v in values):
                _put(event, path, _convert(kind, values))
            else:
                _reach(event, path)
        except ValueError as exc:
            raise TableError(400, "bad_request", tr("the field %(name)s: %(why)s", name=repr(name), why=exc)) from exc
    return event


def _put(root: dict[str, Any], path: list[str], value: Any) -> None:
    node: Any = root
    for here, after in zip(path, path[1:], strict=False):
        node = _child(node, here, [] if after.isascii() and after.isdigit() else {})
    _store(node, path[-1], value)


def _reach(root: dict[str, Any], path: list[str]) -> None:
    node: Any = root
    for here, after in zip(path, path[1:], strict=False):
        node = _child(node, here, [] if after.isascii() and after.isdigit() else {})


def _slot(node: Any, key: str) -> tuple[Any, int | str]:
    if isinstance(node, list):
        if whole_number(key, 2) is None or int(key) > MAX_INDEX:
            raise ValueError(tr("%(key)s is not a list index (0–%(most)d)", key=repr(key), most=MAX_INDEX))
        index = int(key)
        node.extend([None] * (index + 1 - len(node)))
        return node, index
    if not key or (key.isascii() and key.isdigit()):
        raise ValueError(tr("%(key)s is not a field name", key=repr(key)))
    return node, key


def _conflict() -> str:
    return tr("conflicting fields (one name used both as a value and as a group)")


def _child(node: Any, key: str, empty: list[Any] | dict[str, Any]) -> Any:
    container, slot = _slot(node, key)
    current = container[slot] if isinstance(container, list) else container.get(slot)
    if current is None:
        container[slot] = current = empty
    if type(current) is not type(empty):
        raise ValueError(_conflict())
    return current


def _store(node: Any, key: str, value: Any) -> None:
    container, slot = _slot(node, key)
    current = container[slot] if isinstance(container, list) else container.get(slot)
    if isinstance(current, (list, dict)):
        raise ValueError(_conflict())
    container[slot] = value


def _convert(kind: str, values: list[str]) -> Any:
    # A typed field beside a row of buttons with the same name: the last non-empty value counts.
    filled = [v.strip() for v in values if v.strip()]
    value = filled[-1] if filled else ""
    if kind == "int":
        if not re.fullmatch(r"[+-]?\d{1,9}", value):
            raise ValueError(tr("%(value)s is not a whole number", value=repr(value)))
        return int(value)
    if kind == "bool":
        return value.lower() in {"1", "true", "on", "yes"}
    if kind == "list":
        items: list[str] = []
        for v in values:
            items.extend(part for part in re.split(r"[\s,;]+", v.strip()) if part)
        return items
    if kind == "intlist":
        return [_convert("int", [v]) for v in values if v.strip()]
    if kind == "json":
        try:
            return json_input.loads(value)
        except json_input.TooDeep as exc:
            raise ValueError(tr("nested more than %(most)d levels deep", most=json_input.MAX_DEPTH)) from exc
        except ValueError as exc:
            raise ValueError(tr("not valid JSON")) from exc
    return value


def whole_number(text: str, digits: int = 9) -> int | None:
    """A whole number typed into a form, or None. ``str.isdigit`` alone lets "²" through to
    ``int()`` (a 500), and a number of thousands of digits is refused by ``int()`` too."""
    text = text.strip()
    return int(text) if 0 < len(text) <= digits and text.isascii() and text.isdigit() else None


def expected_seq(form: MultiDict[str, str]) -> int | None:
    return whole_number(form.get("expected_seq", ""))
