"""Rate limits per client address on the views that open tables or write to them.

Fixed windows counted in ``limits``' storage (``RATELIMIT_STORAGE_URI``: this worker's memory by
default, ``redis://…`` to share the counts between workers). flask-limiter did the same with two
checks a request — a hook on every request for application-wide limits this app never sets,
then the view's own, its limits resolved anew each time — about a sixth of a write's time on the
server (bench/README.md, issue 16). Here a limited view costs one counter hit per limit and an
unlimited request costs nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import TYPE_CHECKING, Any, TypeVar

from flask import Flask, Response, after_this_request, current_app, request
from werkzeug.exceptions import TooManyRequests

if TYPE_CHECKING:
    from limits import RateLimitItem
    from limits.storage import Storage

# ``limits`` is imported only by an app that counts: the app on a phone (RATELIMIT_ENABLED off)
# never does, and its import (with deprecated and wrapt) was memory in every phone's snapshot.

View = TypeVar("View", bound=Callable[..., Any])
EXTENSION = "scorekeeper.ratelimits"


@dataclass
class _Bound:
    """The limiter of one app: its counters and its parsed limits, by config key."""

    storage: Storage | None
    enabled: bool
    headers: bool
    parsed: dict[str, tuple[str, list[RateLimitItem]]]

    def items(self, config_key: str) -> list[RateLimitItem]:
        text = str(current_app.config[config_key])
        cached = self.parsed.get(config_key)
        if cached is None or cached[0] != text:  # a test may change the config after the first request
            from limits import parse_many

            cached = self.parsed[config_key] = (text, parse_many(text) if text.strip() else [])  # "": no limit
        return cached[1]

    def check(self, config_key: str) -> None:
        """Count this request against every limit of ``config_key`` (a fixed window each: the
        counter's own expiry is the window's end); 429 when one is spent."""
        scope, who = request.endpoint or request.path, request.remote_addr or "-"
        counted = []  # (requests left, the limit, its counter)
        assert self.storage is not None  # only an enabled limiter counts
        for item in self.items(config_key):
            key = item.key_for(scope, who)
            counted.append((item.amount - self.storage.incr(key, item.get_expiry()), item, key))
        if not counted:
            return
        left, item, key = min(counted, key=lambda entry: entry[0])  # the limit nearest to being spent
        if left >= 0 and not self.headers:
            return
        reset = self.storage.get_expiry(key)
        values = {"X-RateLimit-Limit": str(item.amount), "X-RateLimit-Remaining": str(max(0, left)),
                  "X-RateLimit-Reset": str(int(reset))}
        if left < 0:
            retry = max(1, int(reset - time.time() + 0.999))
            raise RateLimited(f"{item.amount} per {item.get_expiry()} seconds", retry, values)

        @after_this_request
        def add(response: Response) -> Response:
            response.headers.update(values)
            return response


class RateLimited(TooManyRequests):
    """429 with the limit's headers beside ``Retry-After``."""

    def __init__(self, description: str, retry_after: int, headers: dict[str, str]) -> None:
        super().__init__(description, retry_after=retry_after)
        self.extra_headers = headers

    def get_headers(self, *args: Any, **kwargs: Any) -> list[tuple[str, str]]:
        return [*super().get_headers(*args, **kwargs), *self.extra_headers.items()]


class RateLimits:
    """Created unbound (extensions.py); ``init_app`` gives each app its own storage and switch."""

    def __init__(self) -> None:
        self._settings: set[str] = set()  # the config keys the views are limited by

    def verify(self, app: Flask) -> None:
        """Read every limit setting once at start: a misspelt one ("600 per mnute") stops the app
        with its name instead of answering every limited request with a 500. A limiter switched
        off reads none."""
        if not app.extensions[EXTENSION].enabled:
            return
        from limits import parse_many

        for key in sorted(self._settings):
            text = str(app.config[key])
            if not text.strip():  # no limit
                continue
            try:
                parse_many(text)
            except ValueError as exc:
                raise ValueError(f"{key}={text!r} is not a rate limit such as '600 per minute' ({exc})") from None

    def init_app(self, app: Flask) -> None:
        uri = app.config.get("RATELIMIT_STORAGE_URI", "swept-memory://")
        enabled = bool(app.config.get("RATELIMIT_ENABLED", True))
        # Switched off (the app on a phone, offline/phone.py), no counters: memory:// would start
        # a timer thread, and Pyodide has no threads.
        storage = None
        if enabled:
            from limits.storage import Storage, storage_from_string

            from scorekeeper import limits_storage  # noqa: F401  (registers the swept-memory:// storage)

            made = storage_from_string(uri)
            if not isinstance(made, Storage):  # an async+… storage: this server's views are not async
                raise ValueError(f"RATELIMIT_STORAGE_URI {uri!r} names an asyncio storage; use one without 'async+'")
            storage = made
        app.extensions[EXTENSION] = _Bound(storage, enabled,
                                           bool(app.config.get("RATELIMIT_HEADERS_ENABLED", True)), {})

    def limit(self, config_key: str) -> Callable[[View], View]:
        """The view counts against the limits named by the app's ``config_key`` ("600 per minute")."""
        self._settings.add(config_key)

        def decorate(view: View) -> View:
            @wraps(view)
            def limited(*args: Any, **kwargs: Any) -> Any:
                bound: _Bound = current_app.extensions[EXTENSION]
                if bound.enabled:
                    bound.check(config_key)
                return view(*args, **kwargs)

            return limited  # type: ignore[return-value]

        return decorate

    def storage(self, app: Flask) -> Any:
        """The app's counters (tests look inside)."""
        return app.extensions[EXTENSION].storage
