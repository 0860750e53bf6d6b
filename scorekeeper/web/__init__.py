"""The web layer: one blueprint per feature, registered by ``create_app``."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, jsonify, render_template, request
from flask_babel import get_locale
from werkzeug.exceptions import HTTPException

from scorekeeper.cards import N_, SUIT_SYMBOLS, suit_name
from scorekeeper.cards import rank_face as cards_rank_face
from scorekeeper.cards import rank_name as cards_rank_name
from scorekeeper.localize import card_face, language, localize, tr
from scorekeeper.service import TableError
from scorekeeper.web import card_html
from scorekeeper.web.boards import cribbage_board
from scorekeeper.web.card_html import german_face, spoken_card
from scorekeeper.web.charts import line_chart

# The API's HTTP errors in the client's language (N_: extracted, translated where shown).
_HTTP_MESSAGES = {400: N_("the request cannot be read"), 404: N_("there is nothing at this address"),
                  405: N_("this address does not take that method"), 413: N_("the request is too large"),
                  429: N_("too many requests; wait a moment and try again"),
                  500: N_("something went wrong on the server")}


def register(app: Flask) -> None:
    from scorekeeper.web import (
        api,
        circles,
        circles_api,
        desk,
        desk_api,
        metrics,
        play,
        pwa,
        review,
        rulebook,
        tables,
    )
    from scorekeeper.web.json_output import AppJSONProvider

    app.json = AppJSONProvider(app)  # every JSON body is depth-checked before it is decoded; orjson writes

    @app.before_request
    def read_json_first() -> None:
        # Read (and cache) a JSON body before any view or validator sees it, so one that nests
        # too deeply is refused here whatever the view later does with the raw bytes.
        if request.is_json and request.method in ("POST", "PUT", "PATCH"):
            request.get_json(silent=True)
    blueprints = [tables, play, api, circles_api, circles, desk_api, rulebook, desk, review, pwa]
    if not app.config.get("PHONE"):  # nobody scrapes a phone: prometheus_client stays out of its memory
        blueprints.append(metrics)
    for module in blueprints:
        app.register_blueprint(module.bp)

    @app.errorhandler(TableError)
    def table_error(exc: TableError) -> Any:
        if request.path.startswith("/api/"):
            return jsonify(exc.to_json()), exc.status, exc.headers
        from werkzeug.exceptions import default_exceptions

        page = default_exceptions.get(exc.status, default_exceptions[400])(exc.message)
        return render_template("error.html", error=page), exc.status, exc.headers

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        if request.path.startswith("/api/"):
            message = exc.description
            if language() != "en" and exc.code in _HTTP_MESSAGES:
                message = tr(_HTTP_MESSAGES[exc.code])  # Werkzeug's own text is English only
            body = {"error": {"code": exc.name.lower().replace(" ", "_"), "rule": None, "message": message}}
            return jsonify(body), exc.code, _headers_of(exc)
        return render_template("error.html", error=exc), exc.code, _headers_of(exc)

    app.jinja_env.filters["card_pretty"] = card_pretty
    app.jinja_env.filters["msg"] = localize  # an engine message in the reader's language
    app.jinja_env.globals.update(card_html=card_html.card, pick_cell=card_html.pick,
                                 rank_cells=card_html.rank_cells, suit_steps=card_html.suit_steps)

    @app.context_processor
    def helpers() -> dict[str, Any]:
        return {"locale": str(get_locale() or "en"), "card_label": card_label, "card_pretty": card_pretty,
                "suit_symbols": SUIT_SYMBOLS, "line_chart": line_chart, "suit_label": suit_label,
                "german_face": german_face, "cribbage_board": cribbage_board, "asset": asset,
                "rank_name": rank_name, "rank_face": rank_face, "my_circles": my_circles}

    @app.after_request
    def security_headers(response: Response) -> Response:
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        # The phone's own pages are framed by the page that keeps a hut's connections (static/hut.js).
        framing = "'self'" if app.config.get("PHONE") else "'none'"
        response.headers.setdefault("X-Frame-Options", "SAMEORIGIN" if app.config.get("PHONE") else "DENY")
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
            f"connect-src 'self'; frame-ancestors {framing}; base-uri 'self'; form-action 'self'",
        )
        return response


def _headers_of(exc: HTTPException) -> list[tuple[str, str]]:
    """What the error says beside its body (``Retry-After`` of a 429, ``Allow`` of a 405)."""
    return [(k, v) for k, v in exc.get_headers() if k.lower() != "content-type"]


def my_circles() -> list[Any]:
    """The circles this phone's cookie holds a capability for (home page, "keep in a circle")."""
    from scorekeeper.web.circles import known_circles

    return known_circles()


def card_label(code: str, pack: str = "french") -> str:
    """The name a screen reader speaks for a card, in the page's language."""
    return spoken_card(code, pack, str(get_locale() or "en"))


def card_pretty(code: str) -> str:
    return card_face(code)


def rank_name(rank: str) -> str:
    return cards_rank_name(rank, str(get_locale() or "en"))


def rank_face(rank: str) -> str:
    return cards_rank_face(rank, str(get_locale() or "en"))


def suit_label(suit: str, pack: str = "french") -> str:
    return suit_name(suit, str(get_locale() or "en"), "german" if pack == "german" else "french")


def asset(filename: str) -> str:
    """URL of a static file under its hashed name (cacheable for a year) when one was built."""
    from flask import url_for

    from scorekeeper.assets import hashed_name

    return url_for("static", filename=hashed_name(filename))
