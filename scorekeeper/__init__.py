"""scorekeeper: a live score sheet and rules adjudicator for card games at a real table."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from babel import Locale
from flask import Flask, request, session
from sqlalchemy import event
from sqlalchemy.engine import Engine

from scorekeeper.config import from_env, require_driver
from scorekeeper.extensions import babel, csrf, db, limiter
from scorekeeper.paths import MIGRATIONS, OFFLINE, STATIC, TEMPLATES, TRANSLATIONS


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL lets the event streams read while a phone writes; the busy timeout queues writers. The
    phone's app sets its own (``offline/phone.py``: one writer, a journal in memory)."""
    import sqlite3

    if isinstance(dbapi_connection, sqlite3.Connection) and not getattr(dbapi_connection, "own_pragmas", False):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()


@functools.cache
def _locale(code: str) -> Locale:
    return Locale.parse(code)  # babel looks for the locale's data file on disk each time


@functools.lru_cache(maxsize=256)
def _best_match(header: str, languages: tuple[str, ...]) -> str:
    """The phone's preferred language we speak: a phone sends the same header on every request."""
    from werkzeug.datastructures import LanguageAccept
    from werkzeug.http import parse_accept_header

    return parse_accept_header(header, LanguageAccept).best_match(languages) or "en"


def select_locale() -> Locale:
    from flask import current_app

    languages = current_app.config["LANGUAGES"]
    # request.args parses the whole query string (a tenth of a write's locale choice): only when it names one
    chosen = request.args.get("lang") if b"lang=" in request.query_string else None
    if not chosen and "HTTP_COOKIE" in request.environ:
        # Only a phone with a cookie can have chosen a language there. An API client sends none,
        # and reading the empty session would still cost its answer a Vary header (a tenth of a write).
        chosen = session.get("lang")
    if chosen in languages:
        return _locale(str(chosen))
    return _locale(_best_match(request.headers.get("Accept-Language", ""), tuple(languages)))


def create_app(config: dict[str, Any] | None = None) -> Flask:
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(TEMPLATES),
        static_folder=str(STATIC),
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(from_env(Path(app.instance_path)))
    if config:
        app.config.from_mapping(config)
    require_driver(app.config["SQLALCHEMY_DATABASE_URI"])

    db.init_app(app)
    if not app.config.get("PHONE"):
        from scorekeeper.server_extensions import compress, migrate

        migrate.init_app(app, db, directory=str(MIGRATIONS))
    babel.init_app(app, locale_selector=select_locale,
                   default_translation_directories=str(TRANSLATIONS))

    if not app.config.get("PHONE"):  # a phone's answers go no further than its own pages
        # Text responses are compressed; event streams never (a buffered stream would stall).
        app.config.setdefault("COMPRESS_MIMETYPES", ["text/html", "application/json", "image/svg+xml",
                                                     "application/manifest+json", "text/javascript"])
        app.config.setdefault("COMPRESS_STREAMS", False)
        app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
        compress.init_app(app)
    csrf.init_app(app)
    limiter.init_app(app)
    # Static files through WhiteNoise: precompressed .gz/.br (made by `make`), cache headers.
    from whitenoise import WhiteNoise

    from scorekeeper.assets import is_immutable

    app.wsgi_app = WhiteNoise(app.wsgi_app, root=str(STATIC), prefix="static/",  # type: ignore[method-assign]
                              max_age=app.config.get("STATIC_MAX_AGE", 3600), immutable_file_test=is_immutable)
    if OFFLINE.is_dir() and not app.config.get("PHONE"):  # Pyodide and the app's zips, for phone-only tables
        app.wsgi_app.add_files(str(OFFLINE), prefix="offline/")

    if app.config.get("PROXY_COUNT"):
        from werkzeug.middleware.proxy_fix import ProxyFix

        hops = int(app.config["PROXY_COUNT"])
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)  # type: ignore[method-assign]

    from scorekeeper.redact import filter_logs
    from scorekeeper.web import register

    filter_logs(app.logger)  # a traceback names the path it failed on: /t/<id>/k/<token>
    register(app)
    limiter.verify(app)
    from scorekeeper import commands

    commands.register(app)

    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql") and not app.config.get("TESTING_NO_LISTENER"):
        from scorekeeper.live import start_pg_listener

        url = app.config["SQLALCHEMY_DATABASE_URI"].replace("postgresql+psycopg://", "postgresql://")
        start_pg_listener(url)
    return app
