"""Installable app: manifest, service worker (served from the root so its scope is the whole app),
offline page."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, render_template, url_for

from scorekeeper import phone_pack
from scorekeeper.assets import manifest as hashed_assets
from scorekeeper.extensions import csrf, limiter
from scorekeeper.localize import gettext as _
from scorekeeper.paths import STATIC
from scorekeeper.phone_pack import CHUNK, OFFLINE_FILES, WORKER_SCRIPTS
from scorekeeper.web import asset
from scorekeeper.web.rulebook import load_book

bp = Blueprint("pwa", __name__)

CACHE_VERSION = "v2"


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    body = {
        "name": "scorekeeper",
        "short_name": "scorekeeper",
        "description": _("A live score sheet for card games at a real table"),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#0f3d2e",
        "theme_color": "#0f3d2e",
        "icons": [
            {"src": asset("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": asset("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": asset("icons/icon-maskable-512.png"), "sizes": "512x512",
             "type": "image/png", "purpose": "maskable"},
        ],
    }
    response = current_app.response_class(current_app.json.dumps(body), mimetype="application/manifest+json")
    return response


@bp.get("/sw.js")
def service_worker() -> Response:
    shell = [url_for("tables.index"), url_for("pwa.offline")]
    # The rule book offline in every language it is written in, each language its own page.
    for lang in current_app.config["LANGUAGES"]:
        shell.append(url_for("rulebook.index", lang=lang))
        shell += [url_for("rulebook.book", game=g, lang=lang) for g in _games() if load_book(g, lang) is not None]
    shell += [asset(f) for f in ("htmx.min.js", "sse.js", "app.js", "hut.js", "hut_scan.js", "app.css", "icons/icon.svg",
                                 "icons/icon-192.png")]
    if qr_decoder():  # a guest with no internet scans the table's phone with it
        shell.append(qr_decoder())
    body = render_template("sw.js", shell=shell, version=CACHE_VERSION, offline=url_for("pwa.offline"),
                           chunk=CHUNK, **phone_files())
    # The worker's own policy: it compiles Pyodide's WebAssembly (and nothing else it did not fetch itself).
    policy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'"
    return Response(body, mimetype="text/javascript",
                    headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/",
                             "Content-Security-Policy": policy})


OFFLINE_BASE = "/offline/"


def phone_files() -> dict[str, object]:
    """What a phone stores to keep a table with no server (`make offline`; none in a bare install:
    then the create form offers no phone-only table and the service worker is as before)."""
    built = phone_pack.version()
    if built is None or current_app.config.get("PHONE"):
        return {"offline_files": [], "offline_version": "", "offline_base": OFFLINE_BASE, "worker_scripts": []}
    return {"offline_files": [OFFLINE_BASE + name for name in OFFLINE_FILES if name not in WORKER_SCRIPTS],
            "offline_version": built, "offline_base": OFFLINE_BASE,
            "worker_scripts": [OFFLINE_BASE + name for name in WORKER_SCRIPTS]}


@bp.app_template_global()
def phone_offered() -> bool:
    """Whether the create form may offer a table kept on the phone alone: only when this server
    has the files the phone needs for it."""
    return bool(phone_files()["offline_files"])


QR_DECODER = "vendor/jsQR.js"


@bp.app_template_global()
def qr_decoder() -> str:
    """The URL of the QR decoder for browsers without ``BarcodeDetector`` (jsQR, unpacked into
    static/vendor/ by `make assets`), or "" in a checkout built without it. The phone's app has no
    static folder, only the hashed-asset manifest its pack carries: that says too."""
    if QR_DECODER in hashed_assets() or (STATIC / QR_DECODER).is_file():
        return asset(QR_DECODER)
    return ""


@bp.post("/hut/where")
@csrf.exempt  # no cookie is read: the copy's origin is its own credential
@limiter.limit("RATE_LIMIT_WHERE")
def hut_where() -> tuple[Response, int]:
    """Where a guest's copy of a hut table went (``{"origin": …}``, the copy's): its watch link and
    seq once a phone put the table on the server, so the copy says so (static/hut.js). A POST: the origin
    is a bearer secret of every copy and never goes in an address (service/origins.py)."""
    from flask import jsonify, request

    from scorekeeper.service import TableError, origins
    from scorekeeper.web.links import watch_url

    body = request.get_json(silent=True)
    try:
        table = origins.where(body.get("origin") if isinstance(body, dict) else None)
    except TableError as exc:  # the page's script reads the answer: JSON, as the API's
        return jsonify(exc.to_json()), exc.status
    # Its seq too: a copy that goes further than the server's table still offers to put its moves there.
    return jsonify({"id": table.id, "watch_url": watch_url(table), "seq": table.head_seq}), 200


@bp.get("/offline")
def offline() -> str:
    return render_template("offline.html")


def _games() -> list[str]:
    from scorekeeper.engine import RULES

    return list(RULES)
