"""Writing JSON to the network: every response the app answers in JSON goes through ``orjson``.

A write answers with the table's whole state (DESIGN.md §2), so a long sheet's JSON is written on
every move: the standard library's encoder took ~0.15 ms for a 5 KB score pad, a tenth of a
write's time; orjson takes ~0.01 ms. Output differs only in form: compact, UTF-8 rather than
``\\u`` escapes, keys still sorted. Whatever orjson does not write itself (a datetime, a
dataclass, an integer beyond 64 bits) goes to Flask's encoder as before.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from flask import Response

from scorekeeper.web.json_input import BoundedJSONProvider

_OPTIONS = (orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME
            | orjson.OPT_PASSTHROUGH_DATACLASS)


class AppJSONProvider(BoundedJSONProvider):
    """Reads through ``json_input.loads`` (depth-bounded), writes through orjson."""

    def _encode(self, obj: Any, indent: bool = False) -> bytes:
        try:
            return orjson.dumps(obj, default=self.default, option=_OPTIONS | (orjson.OPT_INDENT_2 if indent else 0))
        except orjson.JSONEncodeError:  # e.g. an integer orjson cannot hold: the standard encoder can
            return json.dumps(obj, default=self.default, sort_keys=True, indent=2 if indent else None).encode()

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs.keys() - {"indent", "separators", "sort_keys", "ensure_ascii"}:  # a caller's own encoder options
            return super().dumps(obj, **kwargs)
        return self._encode(obj, bool(kwargs.get("indent"))).decode()

    def response(self, *args: Any, **kwargs: Any) -> Response:
        obj = self._prepare_response_obj(args, kwargs)
        indent = (self.compact is None and self._app.debug) or self.compact is False
        return self._app.response_class(self._encode(obj, indent) + b"\n", mimetype=self.mimetype)
