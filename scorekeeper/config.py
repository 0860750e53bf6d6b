"""Settings from the environment; the SQLite file in the instance folder is the default."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any


def _secret_key(instance: Path) -> str:
    """A stable key per installation so seat cookies survive restarts."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = instance / "secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        key = secrets.token_hex(32)
        path.write_text(key)
        return key


def database_url(instance: Path) -> str:
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres://"):  # Heroku-style URLs
        url = "postgresql://" + url[len("postgres://"):]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    return url or f"sqlite:///{instance / 'scorekeeper.sqlite'}"


class MissingDriver(RuntimeError):
    """DATABASE_URL names PostgreSQL but its driver (an extra of the package) is not installed."""


def require_driver(url: str, find_spec: Any = None) -> None:
    if not url.startswith("postgresql"):
        return
    import importlib.util

    if (find_spec or importlib.util.find_spec)("psycopg") is None:
        raise MissingDriver("DATABASE_URL is a PostgreSQL address, but PostgreSQL's driver is not installed: "
                            "pip install 'scorekeeper[postgres]' (SQLite needs nothing: leave DATABASE_URL unset)")


def engine_options(url: str) -> dict[str, Any]:
    """PostgreSQL: keep enough pooled connections for a busy worker, so load does not churn
    connections (measured in bench/bench_load.py: half the database CPU per move)."""
    if url.startswith("postgresql"):
        return {"pool_size": int(os.environ.get("DB_POOL_SIZE", "20")), "max_overflow": 10, "pool_pre_ping": True}
    return {}


def from_env(instance: Path) -> dict[str, Any]:
    url = database_url(instance)
    return {
        "SECRET_KEY": _secret_key(instance),
        "SQLALCHEMY_DATABASE_URI": url,
        "SQLALCHEMY_ENGINE_OPTIONS": engine_options(url),
        "PUBLIC_URL": os.environ.get("PUBLIC_URL", "").rstrip("/"),
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_SECURE": os.environ.get("COOKIE_SECURE", "") == "1",
        "PERMANENT_SESSION_LIFETIME": 60 * 60 * 24 * 30,
        # Send the cookie only when it changes: a sheet refresh still in flight when a seat is taken
        # would otherwise answer with the session it started with and undo the seat.
        "SESSION_REFRESH_EACH_REQUEST": False,
        "BABEL_DEFAULT_LOCALE": "en",
        "LANGUAGES": ["en", "sv", "de"],
        "MAX_CONTENT_LENGTH": 2 * 1024 * 1024,
        # A table lasts an evening: the CSRF token lives as long as the session, not an hour.
        "WTF_CSRF_TIME_LIMIT": None,
        "WTF_CSRF_SSL_STRICT": False,
        "RATELIMIT_STORAGE_URI": os.environ.get("RATELIMIT_STORAGE_URI", "swept-memory://"),
        "RATELIMIT_HEADERS_ENABLED": True,
        "RATE_LIMIT_CREATE": os.environ.get("RATE_LIMIT_CREATE", "30 per hour;5 per minute"),
        "RATE_LIMIT_EVENTS": os.environ.get("RATE_LIMIT_EVENTS", "600 per minute"),
        # A hut copy asking where its table went (POST /hut/where): a phone asks for its ten
        # newest copies at most, each once an hour (static/hut.js); a hotspot's phones share an address.
        "RATE_LIMIT_WHERE": os.environ.get("RATE_LIMIT_WHERE", "600 per hour;60 per minute"),
        "TABLE_EXPIRY_DAYS": int(os.environ.get("TABLE_EXPIRY_DAYS", "30")),
        # A circle (and every table kept in it) is forgotten this long after its last table moved.
        "CIRCLE_EXPIRY_DAYS": int(os.environ.get("CIRCLE_EXPIRY_DAYS", "400")),
        # The most tables one circle import replays (each through the engine, in one request).
        "CIRCLE_MAX_IMPORT": int(os.environ.get("CIRCLE_MAX_IMPORT", "500")),
        # Streams beyond this are answered 503 (the phone retries), so moves always find a
        # connection; scorekeeper/server.py sizes it from the worker's connections and memory.
        # 0 = no cap (the development server).
        "SSE_MAX_STREAMS": int(os.environ.get("SSE_MAX_STREAMS", "0")),
        # One address may hold this many streams per worker: a club's Wi-Fi is one address for
        # hundreds of phones, a client opening thousands is not a table. 0 = no cap.
        "SSE_MAX_PER_ADDRESS": int(os.environ.get("SSE_MAX_PER_ADDRESS", "1000")),
        "SSE_PING_SECONDS": float(os.environ.get("SSE_PING_SECONDS", "15")),
        "SSE_MAX_SECONDS": float(os.environ.get("SSE_MAX_SECONDS", "600")),
        # A phone reconnects after SSE_RETRY_MS plus up to SSE_RETRY_JITTER_MS: a restart's
        # thousands of phones come back spread over seconds.
        "SSE_RETRY_MS": int(os.environ.get("SSE_RETRY_MS", "1000")),
        "SSE_RETRY_JITTER_MS": int(os.environ.get("SSE_RETRY_JITTER_MS", "4000")),
        # On shutdown every stream's last words spread its phone's reconnect over this many ms:
        # a server reopening ten thousand streams at once would keep moves waiting behind them.
        "SSE_RESTART_SPREAD_MS": int(os.environ.get("SSE_RESTART_SPREAD_MS", "15000")),
        # Behind a reverse proxy: how many proxies set X-Forwarded-For (and -Proto, -Host), so a
        # client's address (rate limits, the per-address stream cap) is the phone's, not the proxy's.
        "PROXY_COUNT": int(os.environ.get("PROXY_COUNT", "0")),
        # /metrics answers only a scrape that sends this token (404 when unset); METRICS_BIND
        # (host:port) serves the metrics on an address of their own instead (scorekeeper/metrics.py).
        "METRICS_TOKEN": os.environ.get("METRICS_TOKEN", ""),
    }
