"""``/metrics`` for the operator's Prometheus: answered only with ``METRICS_TOKEN`` set, and then
only to a scrape that sends it (404 otherwise, so a public instance shows nothing)."""

from __future__ import annotations

import hmac

from flask import Blueprint, Response, abort, current_app, request

from scorekeeper.metrics import exposition, ready

bp = Blueprint("metrics", __name__)
bp.record_once(lambda _state: ready())


@bp.get("/metrics")
def metrics() -> Response:
    expected = str(current_app.config.get("METRICS_TOKEN") or "")
    if not expected:
        abort(404)
    header = request.headers.get("Authorization", "")
    # The header only: a token in the address would stand in the access log (Prometheus sends
    # it as `authorization: {credentials: …}` or `bearer_token`).
    given = header[7:].strip() if header.startswith("Bearer ") else ""
    if not given:
        return Response("send the metrics token: Authorization: Bearer <METRICS_TOKEN>\n", 401,
                        {"WWW-Authenticate": 'Bearer realm="metrics"'}, mimetype="text/plain")
    if not hmac.compare_digest(given.encode(), expected.encode()):
        return Response("that is not the metrics token\n", 403, mimetype="text/plain")
    body, content_type = exposition()
    return Response(body, content_type=content_type, headers={"Cache-Control": "no-store"})
