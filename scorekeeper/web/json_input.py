"""Reading JSON from the network: one parser for request bodies, uploaded exports and ``:json``
form fields, bounded in nesting depth before the decoder sees it.

Python's decoder recurses once per ``[`` or ``{``: ten thousand of them (a few KB from anyone on
the network) end in ``RecursionError`` and a traceback in the log. The depth is measured first,
without recursion: strings are cut out, the remaining brackets are summed (+1 opening, −1 closing)
with C-level iteration, and the running maximum is the nesting depth. A body within the limit is
then decoded as usual, so the decoder never goes deeper than ``MAX_DEPTH``.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from itertools import accumulate
from typing import Any

from flask.json.provider import DefaultJSONProvider

from scorekeeper.service import TableError

# The deepest real payload (an export: events → event → sides → side → cards) is five levels.
MAX_DEPTH = 64

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


class TooDeep(TableError):
    """A JSON text nested beyond ``MAX_DEPTH``. Not a ``ValueError`` on purpose: Flask's
    ``get_json(silent=True)`` swallows those, and this one must reach the client as itself."""

    def __init__(self, depth: int) -> None:
        super().__init__(400, "malformed_json",
                         f"the JSON is nested {depth} levels deep; at most {MAX_DEPTH} are accepted")
        self.depth = depth


def depth(text: str) -> int:
    """How deeply ``text`` nests arrays and objects (brackets inside strings do not count)."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


# Past this many digits Python's own int() refuses a JSON integer (sys.get_int_max_str_digits): a
# fraction-free "1e5000" is no more a number this app reads than 5000 written-out digits are.
_MAX_DIGITS = 4300


def _number(text: str) -> int | float:
    """A JSON number with a fraction or an exponent: an integer if it is a whole one. JSON Schema
    counts ``8.0`` as an integer, so the document's integers take it; Decimal keeps the digits
    exact past a double's 2**53."""
    exact = Decimal(text)
    if exact.is_finite() and exact == exact.to_integral_value() and exact.adjusted() < _MAX_DIGITS:
        return int(exact)
    return float(text)


def loads(data: str | bytes | bytearray, **kwargs: Any) -> Any:
    """Decode JSON from the network. Raises ``TooDeep`` beyond ``MAX_DEPTH``, ``ValueError`` for
    anything else that is not JSON (bad syntax, invalid UTF-8, NaN, a number of thousands of digits).
    A whole number written ``8.0`` or ``1e2`` is read as the integer it is."""
    text = bytes(data).decode("utf-8-sig") if isinstance(data, (bytes, bytearray)) else data
    # No deeper than its opening brackets: a move (two or three of them) needs no measuring.
    if text.count("[") + text.count("{") > MAX_DEPTH:
        found = depth(text)
        if found > MAX_DEPTH:
            raise TooDeep(found)
    kwargs.setdefault("parse_constant", _no_constant)
    kwargs.setdefault("parse_float", _number)
    return json.loads(text, **kwargs)


class BoundedJSONProvider(DefaultJSONProvider):
    """``request.get_json`` (and everything else that reads JSON through the app) goes through
    ``loads`` above."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return loads(s, **kwargs)
