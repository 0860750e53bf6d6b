"""The circle's page ``/c/<id>`` (issue 38): standings, the invite, opening a table in it, and
keeping a table in a circle. Capabilities are kept in the session cookie, as a table's are."""

from __future__ import annotations

import time
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from werkzeug.wrappers import Response as WerkzeugResponse

from scorekeeper.engine import RULES
from scorekeeper.extensions import limiter
from scorekeeper.localize import gettext as _
from scorekeeper.models import Circle
from scorekeeper.service import TableError
from scorekeeper.service import circles as circles_service
from scorekeeper.service.standings import circle_view, parse_season
from scorekeeper.web import access
from scorekeeper.web.charts import line_chart
from scorekeeper.web.circles_api import circle_join_url, circle_watch_url
from scorekeeper.web.links import qr_svg
from scorekeeper.web.tables import load as load_table
from scorekeeper.web.tables import options_from_form

bp = Blueprint("circles", __name__)

REMEMBERED_CIRCLES = 12
SHOWN_TABLES = 40


def _entries() -> dict[str, Any]:
    return dict(session.get("circles") or {})


def grant(circle: Circle, cap: str) -> None:
    """Keep ``cap`` for the circle in the cookie, with the codes it was given under."""
    entries = _entries()
    old = entries.get(circle.id) or {}
    if circles_service.allows(old.get("cap"), cap) and old.get("codes") == circle.codes:
        cap = old["cap"]  # a watch link never downgrades a phone that joined
    used = max((e.get("n", 0) for e in entries.values() if isinstance(e, dict)), default=0) + 1
    entries[circle.id] = {"cap": cap, "codes": circle.codes, "n": used}
    # The cookie's JSON sorts its keys: the order of use is kept in "n", as for tables.
    session["circles"] = dict(_by_use(entries)[:REMEMBERED_CIRCLES])
    session.permanent = True


def _by_use(entries: dict[str, Any]) -> list[tuple[str, Any]]:
    return sorted(entries.items(), key=lambda item: item[1].get("n", 0) if isinstance(item[1], dict) else 0,
                  reverse=True)


def cap_of(circle: Circle) -> str | None:
    entry = _entries().get(circle.id) or {}
    cap = entry.get("cap")
    if cap == "owner":
        return "owner"
    if cap in ("read", "write") and entry.get("codes") == circle.codes:
        return str(cap)
    return None  # joined under codes made anew since


def known_circles() -> list[Circle]:
    found = []
    for circle_id, _entry in _by_use(_entries()):
        try:
            circle = circles_service.get_circle(circle_id)
        except TableError:
            continue
        if cap_of(circle) is not None:
            found.append(circle)
    return found


def load(circle_id: str, need: str = "read") -> tuple[Circle, str]:
    try:
        circle = circles_service.get_circle(circle_id)
    except TableError:
        abort(404)
    cap = cap_of(circle)
    if not circles_service.allows(cap, need):
        abort(403)
    return circle, str(cap)


@bp.post("/circles")
@limiter.limit("RATE_LIMIT_CREATE")
def create() -> WerkzeugResponse | tuple[str, int]:
    members = [m.strip() for m in request.form.get("members", "").replace("\n", ",").split(",") if m.strip()]
    try:
        circle = circles_service.create_circle(request.form.get("name", ""), members)
    except TableError as exc:
        return render_template("circle_new.html", error=exc, form=request.form), exc.status
    grant(circle, "owner")
    return redirect(url_for("circles.show", circle_id=circle.id))


@bp.get("/circles/new")
def new() -> str:
    return render_template("circle_new.html", error=None, form={})


@bp.get("/c/<circle_id>/k/<token>")
def enter(circle_id: str, token: str) -> WerkzeugResponse:
    """The link inside the circle's QR code: the capability into the cookie, the token out of the URL."""
    try:
        circle = circles_service.get_circle(circle_id)
    except TableError:
        abort(404)
    cap = circles_service.capability(circle, token)
    if cap is None:
        abort(403)
    grant(circle, cap)
    return redirect(url_for("circles.show", circle_id=circle.id))


def _context(circle: Circle, cap: str) -> dict[str, Any]:
    # Taken before the standings are read (each read sees what was committed when it ran): a change
    # announced after this time may be missing, and the page's stream head says to fetch again.
    drawn = int(time.time() * 1000)
    try:
        # The season form sends its empty fields too: on the page an empty field is no bound.
        season = parse_season({key: value for key, value in request.args.items() if value})
    except TableError:
        abort(400)
    view = circle_view(circle, season)
    timeline = view["timeline"]
    members = [m["name"] for m in view["members"]]
    wins = {m: 0 for m in members}
    rows = [[0.0] * len(members)]
    for _when, winners in timeline:
        for w in winners:
            if w in wins:
                wins[w] += 1
        rows.append([float(wins[m]) for m in members])
    chart = line_chart(members, rows, title=_("Games won over time")) if len(members) <= 8 else None
    return {"circle": circle, "view": view, "cap": cap, "chart": chart, "drawn": drawn, "games": RULES, "shown": SHOWN_TABLES,
            "query": request.query_string.decode(), "season": request.args.get("season", ""),
            "since": request.args.get("from", ""), "until": request.args.get("to", "")}


def _page(circle: Circle, cap: str, **extra: Any) -> str:
    return render_template("circle.html", **_context(circle, cap), **{
        "setup": circle.last_setup or {}, "join": circle_join_url(circle) if cap != "read" else None,
        "watch": circle_watch_url(circle), "error": None, "alias_error": None, "alias_form": {}, **extra})


@bp.get("/c/<circle_id>")
def show(circle_id: str) -> str:
    circle, cap = load(circle_id)
    return _page(circle, cap)


@bp.get("/c/<circle_id>/standings")
def standings(circle_id: str) -> str:
    """The standings alone, for the page to redraw when the circle's stream says so."""
    circle, cap = load(circle_id)
    return render_template("_circle_standings.html", **_context(circle, cap))


@bp.get("/c/<circle_id>/stream")
def stream(circle_id: str) -> Response:
    from scorekeeper.web.api import circle_sse_response

    circle, _cap = load(circle_id)
    return circle_sse_response(circles_service.channel(circle.id), heads=True)


@bp.get("/c/<circle_id>/qr/<kind>.svg")
def qr(circle_id: str, kind: str) -> Response:
    circle, cap = load(circle_id)
    if kind == "join" and cap in ("write", "owner"):
        url = circle_join_url(circle)
    elif kind == "watch":
        url = circle_watch_url(circle)
    else:
        abort(403)
    return Response(qr_svg(url), mimetype="image/svg+xml", headers={"Cache-Control": "private, max-age=3600"})


@bp.post("/c/<circle_id>/tables")
@limiter.limit("RATE_LIMIT_CREATE")
def open_table(circle_id: str) -> WerkzeugResponse | tuple[str, int]:
    circle, cap = load(circle_id, "write")
    form = request.form
    game = form.get("game", "")
    players = [p for p in form.getlist("players") if p.strip()]
    try:
        if game not in RULES:
            raise TableError(400, "bad_request", _("Choose a game."))
        table = circles_service.open_table(circle, game, players, form.get("mode", "adjudicate"),
                                           options_from_form(game, form), form.get("add_members") == "on")
    except TableError as exc:
        return _page(circle, cap, setup=dict(form), error=exc), exc.status
    access.grant(table, "write")
    return redirect(url_for("tables.show", table_id=table.id))


@bp.post("/c/<circle_id>/tables/<table_id>/remove")
def remove_table(circle_id: str, table_id: str) -> WerkzeugResponse:
    """The page's "remove from the circle" (confirmed in its own fold): the table itself stays."""
    circle, _cap = load(circle_id, "write")
    try:
        circles_service.remove_table(circle, load_table(table_id))
    except TableError as exc:
        abort(exc.status)
    return redirect(url_for("circles.show", circle_id=circle.id))


@bp.post("/c/<circle_id>/aliases")
def aliases(circle_id: str) -> WerkzeugResponse | tuple[str, int]:
    """Give a member another name, or take one away (``remove``)."""
    circle, cap = load(circle_id, "write")
    member, alias = request.form.get("member", ""), request.form.get("alias", "")
    try:
        if request.form.get("remove"):
            circles_service.remove_alias(circle, member, alias)
        else:
            circles_service.give_alias(circle, member, alias)
    except TableError as exc:
        return _page(circle, cap, alias_error=exc, alias_form=dict(request.form)), exc.status
    return redirect(url_for("circles.show", circle_id=circle.id) + "#circle-aliases")


@bp.post("/t/<table_id>/circle")
def keep_table(table_id: str) -> WerkzeugResponse:
    """"Keep this table in a circle": one this phone joined, or a new one of the table's players."""
    table = load_table(table_id)
    if access.cap_of(table) != "write":
        abort(403)
    chosen = request.form.get("circle", "")
    try:
        if chosen:
            circle, _cap = load(chosen, "write")
        else:
            circle = circles_service.create_circle(request.form.get("name") or _("Our circle"), list(table.players))
            grant(circle, "owner")
        circles_service.add_table(circle, table, add_members=True)
    except TableError as exc:
        abort(exc.status if exc.status in (400, 403, 404, 409, 422) else 400)
    return redirect(url_for("circles.show", circle_id=circle.id))
