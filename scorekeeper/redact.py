"""Tokens out of the logs: whoever reads them, or a log shipper, must not be able to open a table.

A join or watch link carries its token in the path (``/t/<id>/k/<token>``), an event stream in
the query (``?token=``, which ``EventSource`` cannot send as a header), and a client may log its
``Authorization`` header. Every log line the server writes passes through ``redact`` first: the
access log (``scorekeeper.server_log``, whatever ``access_log_format`` an operator sets), the
error logs of gunicorn, Flask and the werkzeug development server (``LogFilter``).

The patterns are generic on purpose, so a new kind of capability (an owner link) is covered
before anyone remembers this module: the segment after any ``/k/`` or ``/o/``, any path segment
that looks like a token (32 or more URL-safe characters, as ``secrets.token_urlsafe(24)`` makes),
any query parameter whose name ends in ``token``, any bearer credential.
"""

from __future__ import annotations

import logging
import re

HIDDEN = "…"
_SECRET = re.compile(
    r"(/[ko]/)[^/?#\s\"'&]+"                        # a capability link's token, of any length
    r"|(/)[A-Za-z0-9_-]{32,}(?=[/?#\s\"'&;,]|$)"     # a path segment that looks like a token
    r"|((?i:token)=)[^&;#\s\"']+"                   # ?token=, &owner_token=
    r"|((?i:bearer)\s+)[^\s\"',;]+",                # Authorization: Bearer …
)


def _hide(match: re.Match[str]) -> str:
    return next(lead for lead in match.groups() if lead is not None) + HIDDEN


# What every secret above holds, found by C substring search: most log text has none, and the
# full pattern costs ten times as much (every request's access-log line passes through here).
_LONG_SEGMENT = re.compile(r"/[A-Za-z0-9_-]{32}")


def redact(text: str) -> str:
    """``text`` with every token in it replaced by ``…`` (the path or parameter name stays)."""
    low = text.lower()
    if "/k/" in low or "/o/" in low or "token=" in low or "bearer" in low or _LONG_SEGMENT.search(text):
        return _SECRET.sub(_hide, text)
    return text


class LogFilter(logging.Filter):
    """Redacts a record's message, its traceback and its stack before any handler sees them.

    A filter on a logger changes the record itself, so every handler of that logger (and of its
    ancestors, through propagation) writes the redacted text, whatever its formatter."""

    _formatter = logging.Formatter()

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a bad format string is logging's to report, not ours
            return True
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            # Formatted here, once, as the handlers' formatters would: they reuse exc_text.
            record.exc_text = self._formatter.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


FILTER = LogFilter()


def filter_logs(app_logger: logging.Logger) -> None:
    """The app's own log (Flask's, and below it the service's through Flask's handler) and the
    werkzeug development server's request log (``flask run``): redacted. Calling it again adds nothing."""
    from flask.logging import default_handler

    for logger in (app_logger, logging.getLogger("werkzeug")):
        logger.addFilter(FILTER)
    default_handler.addFilter(FILTER)  # records of scorekeeper.* loggers, which skip the app logger's filters
