"""Opening a table, joining it by QR code, seats, history, export and import (HTML)."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from werkzeug.wrappers import Response as WerkzeugResponse

from scorekeeper import service
from scorekeeper.engine import RULES, RULES_VERSION
from scorekeeper.engine.messages import TableNames, isolate
from scorekeeper.extensions import limiter
from scorekeeper.localize import gettext as _
from scorekeeper.models import Table
from scorekeeper.phone_marks import moved_to, origin_of
from scorekeeper.service import TableError
from scorekeeper.web import access, json_input
from scorekeeper.web.api import imported
from scorekeeper.web.forms import whole_number
from scorekeeper.web.lastmove import describe, last_move
from scorekeeper.web.links import join_url, qr_svg, watch_url
from scorekeeper.web.views import view_for

bp = Blueprint("tables", __name__)

MAX_SEATS = 8


def load(table_id: str) -> Table:
    try:
        return service.get_table(table_id)
    except TableError:
        abort(404)


def options_from_form(game: str, form: Any) -> dict[str, Any]:
    """House rules from the form: only the chosen game's fields, typed by its option specs."""
    rules = RULES[game]
    options: dict[str, Any] = {}
    for spec in rules.option_specs:
        field = f"opt_{game}_{spec.key}"
        if spec.kind == "bool":
            value = form.get(field) in {"on", "1", "true"}
            if value != spec.default:
                options[spec.key] = value
        elif field in form and form[field].strip() != "":
            raw = form[field].strip()
            if spec.kind == "int":
                try:
                    options[spec.key] = int(raw)
                except ValueError as exc:
                    raise TableError(400, "bad_request", _("%(field)s must be a whole number", field=_(spec.label))) from exc
            else:
                match = next((c for c in spec.choices if str(c) == raw), raw)
                if match != spec.default:
                    options[spec.key] = match
    if form.get("teams") == "pairs":
        players = len([p for p in form.getlist("players") if p.strip()])
        if players % 2 == 0 and players >= 4:
            half = players // 2
            options["teams"] = [[i, i + half] for i in range(half)]
    if form.get("review_after_deal") in {"on", "1", "true"}:
        options["review_after_deal"] = True  # a platform option (service.PLATFORM_OPTIONS)
    return options


@bp.get("/")
def index() -> str:
    mine = []
    for table_id in access.known_tables():
        try:
            mine.append(service.get_table(table_id))
        except TableError:
            continue
    return render_template("index.html", games=list(RULES.values()), mine=mine, form={}, error=None)


@bp.post("/tables")
@limiter.limit("RATE_LIMIT_CREATE")
def create() -> WerkzeugResponse | tuple[str, int]:
    form = request.form
    game = form.get("game", "")
    players = [p for p in form.getlist("players") if p.strip()]
    try:
        if game not in RULES:
            raise TableError(400, "bad_request", _("Choose a game."))
        if form.get("where") == "phone" and not current_app.config.get("PHONE"):
            # The phone's service worker answers this form itself once it has stored the app; here
            # it has not (yet): the table would land on the server, where it was not wanted.
            raise TableError(400, "bad_request", _("This phone has not yet stored what it needs to keep a table by itself: wait for the note that it is stored for play without a signal, then open the table again."))
        options = options_from_form(game, form)
        table = service.create_table(game, players, form.get("mode", "adjudicate"), options)
    except TableError as exc:
        return render_template("index.html", games=list(RULES.values()), mine=[], form=form,
                               error=exc), exc.status
    access.grant(table, "write", owner=True)
    # The opener says which seat is theirs on the form (the first player unless told otherwise).
    mine = whole_number(form.get("seat", "0"), digits=1)
    if mine is not None and mine < len(table.seats):
        access.take_seat(table, mine)
    return redirect(url_for("tables.show", table_id=table.id))


@bp.get("/t/<table_id>/k/<token>")
def enter(table_id: str, token: str) -> WerkzeugResponse:
    """The link inside the QR code: keep the capability in the cookie, drop the token from the URL."""
    table = load(table_id)
    cap = service.capability(table, token)
    if cap is None:
        abort(403)
    # The owner's own link (an API client hands its owner capability to a phone this way).
    access.grant(table, cap, owner=table.owner_token is not None and service.owns(table, token))
    return redirect(url_for("tables.show", table_id=table.id))


def _moved_to(table: Table) -> str | None:
    if not current_app.config.get("PHONE"):
        return None
    return moved_to(table.id)


def page_context(table: Table) -> dict[str, Any]:
    cap = access.cap_of(table)
    if cap is None:
        abort(403)
    snap = service.snapshot(table)
    rules = RULES[table.game]
    state = service.state_json(table, snap)  # engine messages in the reader's language
    seat = access.seat_of(table)
    # Names as the screens print them: a right-to-left name is isolated (FSI…PDI) so the words
    # and numbers after it keep their order in a left-to-right sentence.
    sides = service.describe_sides(table, state)
    names = TableNames([isolate(name) for name in table.players], [isolate(side) for side in sides])
    ctx = {
        "table": table,
        "rules": rules,
        "cap": cap,
        "can_write": cap == "write",
        "is_owner": access.is_owner(table),
        # A phone's copy of a table it put on the server: read-only, and it asks for no move.
        "moved": _moved_to(table),
        "seat": seat,
        "lost_seat": access.lost_seat(table) if seat is None else None,
        "seated": access.seated(table),
        "seq": snap.seq,
        "state": state,
        "raw_state": snap.state,
        "stored_moves": service.stored_moves(table, snap),
        "sides": sides,
        "players": names,
    }
    view = view_for(table.game, ctx)
    ctx.update(view)
    ctx["last"] = last_move(table, names, snap.seq, view, snap.head)
    # The move an undo would take back (the newest one still standing), named on the undo button.
    ctx["undo_target"] = describe(table, snap.effective[-1][1], names) if snap.effective else ""
    return ctx


@bp.get("/t/<table_id>")
def show(table_id: str, takeover: int | None = None) -> str:
    table = load(table_id)
    ctx = page_context(table)
    ctx["takeover"] = takeover
    if ctx["can_write"]:
        ctx["join"] = join_url(table)
    ctx["watch"] = watch_url(table)
    return render_template("table.html", **ctx)


@bp.get("/t/<table_id>/qr/<kind>.svg")
def qr(table_id: str, kind: str) -> Response:
    table = load(table_id)
    cap = access.cap_of(table)
    if kind == "join" and cap == "write":
        url = join_url(table)
    elif kind == "watch" and cap in ("read", "write"):
        url = watch_url(table)
    else:
        abort(403)
    return Response(qr_svg(url), mimetype="image/svg+xml", headers={"Cache-Control": "private, max-age=3600"})


@bp.post("/t/<table_id>/seat")
def seat(table_id: str) -> WerkzeugResponse | str:
    table = load(table_id)
    if access.cap_of(table) != "write":
        abort(403)
    raw = request.form.get("seat", "")
    seat = whole_number(raw, 2)
    if raw == "watch":
        access.take_seat(table, None)
    elif seat is not None and seat < len(table.seats):
        if access.holder_elsewhere(table, seat) and request.form.get("takeover") != "1":
            # Two phones both saying "You are Anna" is worse than one more tap: ask first.
            return show(table_id, takeover=seat)
        access.take_seat(table, seat)
    else:
        abort(400)
    service.announce_seats(table.id)
    return redirect(url_for("tables.show", table_id=table.id))


@bp.post("/t/<table_id>/delete")
def delete(table_id: str) -> WerkzeugResponse:
    """Erase the table for everyone (the table page asked first); the other phones are sent home.
    Only the phone that opened it may: a photo of the join code must not erase an evening."""
    table = load(table_id)
    if not access.is_owner(table):
        abort(403)
    service.delete_table(table)
    access.forget(table_id)
    return redirect(url_for("tables.index", deleted=1))


@bp.post("/t/<table_id>/codes")
def codes(table_id: str) -> WerkzeugResponse:
    """New join and watch codes, asked by the phone that opened the table: a code that leaked
    opens nothing from now on, and the phones seated keep their seats."""
    table = load(table_id)
    if not access.is_owner(table):
        abort(403)
    service.new_codes(table)
    access.grant(table, "write")
    return redirect(url_for("tables.show", table_id=table.id, recoded=1))


@bp.post("/t/<table_id>/leave")
def leave(table_id: str) -> WerkzeugResponse:
    """This phone leaves the table: it stands up from its seat and forgets the table. The table
    and every other phone go on as before."""
    table = load(table_id)
    if access.cap_of(table) == "write" and access.seat_of(table) is not None:
        access.take_seat(table, None)
        service.announce_seats(table.id)
    access.forget(table_id)
    return redirect(url_for("tables.index", left=1))


@bp.get("/t/<table_id>/history")
def history(table_id: str) -> str:
    table = load(table_id)
    ctx = page_context(table)
    stored_by_seq = {m["seq"]: m for m in ctx["stored_moves"]}
    return render_template("history.html", rows=service.history(table), stored_by_seq=stored_by_seq,
                           rules_version=RULES_VERSION, **ctx)


@bp.get("/t/<table_id>/export.json")
def export(table_id: str) -> Response:
    table = load(table_id)
    if access.cap_of(table) is None:
        abort(403)
    exported = service.export(table)
    if current_app.config.get("PHONE"):  # carried from the phone: the server makes one table of it (docs/api.md)
        exported["origin"] = origin_of(table)
    body = json.dumps(exported, indent=1, ensure_ascii=False)
    return Response(body, mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="scorekeeper-{table.game}-{table.id}.json"'})


@bp.post("/import")
@limiter.limit("RATE_LIMIT_CREATE")
def import_() -> WerkzeugResponse | tuple[str, int]:
    upload = request.files.get("file")
    try:
        if upload is None or not upload.filename:
            raise TableError(400, "bad_request", _("Choose an exported .json file."))
        try:
            data = json_input.loads(upload.read())
        except json_input.TooDeep as exc:
            raise TableError(400, "malformed_json", _("That file is nested more than %(limit)s levels deep.",
                                                      limit=json_input.MAX_DEPTH)) from exc
        except ValueError as exc:
            raise TableError(400, "bad_request", _("That file is not JSON.")) from exc
        table, new = imported(data)
    except TableError as exc:
        return render_template("index.html", games=list(RULES.values()), mine=[], form={},
                               error=exc), exc.status
    access.grant(table, "write", owner=new)  # a phone's table imported before: its copy's holder joins it
    return redirect(url_for("tables.show", table_id=table.id))


@bp.get("/lang/<code>")
def language(code: str) -> WerkzeugResponse:
    if code in current_app.config["LANGUAGES"]:
        session["lang"] = code
    # The page to go back to travels in the link (pages send no Referer): a local path only. A
    # browser that does send a Referer of this site still comes back to it.
    target = request.args.get("next", "")
    if not target.startswith("/") or target.startswith("//") or "\\" in target:
        referrer = request.referrer or ""
        target = referrer if referrer.startswith(request.host_url) else url_for("tables.index")
    return redirect(_without_lang(target))


def _without_lang(url: str) -> str:
    """A page whose link named its language (the rule book's ``?lang=sv``) comes back in the new one."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "lang"]
    return urlunsplit(parts._replace(query=urlencode(query)))


@bp.get("/healthz")
def healthz() -> dict[str, str]:
    return {"status": "ok"}

