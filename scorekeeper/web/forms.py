"""HTML forms to events: the same event objects the JSON API takes, built from plain form fields.

A field's name may carry a type suffix so forms work without JavaScript:
``side:int`` → int, ``capture:list`` → list of strings (repeated fields or one text split on
spaces and commas), ``flag:bool`` → bool, ``data:json`` → parsed JSON. Other fields are text.
"""

from __future__ import annotations

import json
import re
from typing import Any

from werkzeug.datastructures import MultiDict

from scorekeeper.service import TableError

IGNORED = {"csrf_token", "expected_seq", "_redirect"}


def event_from_form(form: MultiDict[str, str]) -> dict[str, Any]:
    event: dict[str, Any] = {}
    for raw_key in form:
        name, _, kind = raw_key.partition(":")
        if name in IGNORED or not name:
            continue
        values = form.getlist(raw_key)
        try:
            event[name] = _convert(kind, values)
        except ValueError as exc:
            raise TableError(400, "bad_request", f"the field {name!r}: {exc}") from exc
    return event


def _convert(kind: str, values: list[str]) -> Any:
    # A typed field beside a row of buttons with the same name: the last non-empty value counts.
    filled = [v.strip() for v in values if v.strip()]
    value = filled[-1] if filled else ""
    if kind == "int":
        if not re.fullmatch(r"[+-]?\d{1,9}", value):
            raise ValueError(f"{value!r} is not a whole number")
        return int(value)
    if kind == "bool":
        return value.lower() in {"1", "true", "on", "yes"}
    if kind == "list":
        items: list[str] = []
        for v in values:
            items.extend(part for part in re.split(r"[\s,;]+", v.strip()) if part)
        return items
    if kind == "intlist":
        return [int(v) for v in values if v.strip()]
    if kind == "json":
        try:
            return json.loads(value)
        except json.JSONDecodeError as exc:
            raise ValueError("not valid JSON") from exc
    return value


def expected_seq(form: MultiDict[str, str]) -> int | None:
    value = form.get("expected_seq", "").strip()
    return int(value) if value.isdigit() else None
