"""Playing at the table from a phone: htmx partials that replace themselves, forms that also work
without JavaScript, and the event stream that keeps every phone on the same sheet."""

from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    redirect,
    render_template,
    request,
    url_for,
)
from sqlalchemy import inspect
from werkzeug.wrappers import Response as WerkzeugResponse

from scorekeeper import service
from scorekeeper.extensions import limiter
from scorekeeper.localize import gettext as _
from scorekeeper.localize import localize
from scorekeeper.models import Table
from scorekeeper.service import TableError
from scorekeeper.web import access
from scorekeeper.web.api import sse_response
from scorekeeper.web.forms import event_from_form, expected_seq
from scorekeeper.web.tables import load, page_context

bp = Blueprint("play", __name__)


def _is_htmx() -> bool:
    return request.headers.get("HX-Request") == "true"


def render_sheet(table: Table | str, status: int = 200, **extra: Any) -> tuple[str, int]:
    """The sheet (or the whole page without htmx). Given the table a write's view read, it is
    taken again from the session as that left it: at its new head, not read a second time. A
    refused write left it expired, so it is read again: its id is taken from its identity, since
    asking the row for it would read a row that a deletion may have taken (then: 404)."""
    table = load(table if isinstance(table, str) else inspect(table).identity[0])
    ctx = page_context(table)
    ctx.update(extra)
    if _is_htmx():
        return render_template("_sheet.html", partial=True, **ctx), status
    return render_template("table.html", **ctx), status


@bp.get("/t/<table_id>/sheet")
def sheet(table_id: str) -> tuple[str, int]:
    return render_sheet(table_id)


# The parts of a sheet that a redraw leaves folded and empty until they are opened, by game:
# Mousel's earlier deals and its ledger (templates/games/mousel/parts.html).
SHEET_PARTS = {"mousel": ("older", "ledger")}


@bp.get("/t/<table_id>/sheet/<part>")
def sheet_part(table_id: str, part: str) -> tuple[str, int]:
    """A folded part of the sheet, fetched as it is opened: a long evening's history, which every
    redraw drew again (most of the sheet) for a <details> nobody had opened."""
    table = load(table_id)
    if access.cap_of(table) is None:
        abort(403)  # before anything of the table is told, its game included
    if part not in SHEET_PARTS.get(table.game, ()):
        abort(404)
    return render_template(f"games/{table.game}/parts.html", part=part, **page_context(table)), 200


def _writer(table_id: str) -> tuple[Table, int | None]:
    # The view keeps the table it read: the session's identity map holds it only weakly, and the
    # sheet drawn after the write finds it there (at its new head) only while someone holds it.
    table = load(table_id)
    if access.cap_of(table) != "write":
        abort(403)
    return table, access.seat_of(table)


@bp.post("/t/<table_id>/events")
@limiter.limit("RATE_LIMIT_EVENTS")
def post_event(table_id: str) -> WerkzeugResponse | tuple[str, int]:
    table, author = _writer(table_id)
    try:
        event = event_from_form(request.form)
        done = service.record(table_id, event, expected_seq(request.form), author=author)
    except TableError as exc:
        return render_sheet(table, exc.status, error=exc, draft=request.form)
    if not _is_htmx():
        return redirect(url_for("tables.show", table_id=table_id))
    return render_sheet(table, scored=done.scored)


@bp.post("/t/<table_id>/undo")
def undo(table_id: str) -> WerkzeugResponse | tuple[str, int]:
    table, author = _writer(table_id)
    try:
        # The undo button named a move: if another phone moved since, that is not the one to remove.
        service.undo(table_id, author=author, expected_seq=expected_seq(request.form))
    except TableError as exc:
        return render_sheet(table, exc.status, error=exc)
    if not _is_htmx():
        return redirect(url_for("tables.show", table_id=table_id))
    return render_sheet(table, undone=True)


@bp.get("/t/<table_id>/stream")
def stream(table_id: str) -> Response:
    # The facts this process keeps and the head alone (a restart reopens every phone's stream).
    try:
        facts = service.table_facts(table_id)
    except TableError:
        abort(404)
    if access.cap_of(facts) is None:
        abort(403)
    return sse_response(facts.id, service.head_seq(facts.id), seats=True)


@bp.get("/t/<table_id>/preview")
def preview(table_id: str) -> tuple[str, int]:
    """A dry run of the move being composed: legal (with what it would score and how the engine
    read it) or the rule it breaks. Nothing is stored."""
    table = load(table_id)
    if access.cap_of(table) is None:
        abort(403)
    snap = service.snapshot(table)
    rules = service.rules_for(table)
    result: dict[str, Any] = {"ok": False, "message": "", "rule": None, "scored": [], "detail": ""}
    try:
        event = event_from_form(request.args)
        if not event.get("type"):
            raise TableError(400, "bad_request", "")
        if event["type"] == "play" and not event.get("card"):
            # A fishing-game move still being composed: no card tapped yet is not an error.
            result["prompt"] = _("Tap the card played.")
            return render_template("_preview.html", table=table, preview=result), 200
        after = rules.apply(snap.state, event)
    except TableError as exc:
        result["message"] = exc.message
    except (service.RuleViolation, *service.ENGINE_SLIPS) as exc:
        err = service.from_engine(exc, table.players)
        result.update(message=err.message, rule=err.rule)
    else:
        after_json = localize(rules.to_json(after), table.players)
        result.update(ok=True, scored=localize([s.to_json() for s in getattr(after, "scored", ())], table.players),
                      detail=_last_move_text(after_json), sides=service.describe_sides(table, after_json))
    return render_template("_preview.html", table=table, preview=result), 200


def _last_move_text(state: dict[str, Any]) -> str:
    """How the engine read the move: Mulle's ``grouping`` is a text; Kasino's is an object
    (``value``, ``groups``, ``describe``) beside a whole-move ``describe`` ("8♣ as 8 takes …")."""
    last = state.get("last_move") or state.get("last") or {}
    if not isinstance(last, dict):
        return ""
    grouping = last.get("grouping")
    if isinstance(grouping, dict):
        return str(last.get("describe") or grouping.get("describe") or "")
    return str(grouping or last.get("describe") or last.get("text") or "")
