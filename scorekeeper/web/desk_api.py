"""The dispute desk and the post-deal review in the JSON API (``/api/v1``; docs/api.md).

``POST /api/v1/desk/<game>`` judges a position sent as JSON (a trick, a pot, a sheet line, a
Muggins card, a capture); ``GET /api/v1/tables/<id>/review?deal=n`` reviews a table's deal
from its own log. The work is the engine's (engine/analysis/); this module
reads the request, names the error and renders the sentences in the reader's language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask import Blueprint, Response, jsonify, request

from scorekeeper import service
from scorekeeper.cards import NotationError
from scorekeeper.engine import RULES
from scorekeeper.engine.analysis.desk import (
    Worked,
    judge_capture,
    mousel_pot,
    muggins_placements,
    mulatschak_sheet,
)
from scorekeeper.engine.analysis.desk_tricks import judge_trick_json
from scorekeeper.engine.analysis.review import Review, review
from scorekeeper.engine.base import MalformedEvent, RuleViolation
from scorekeeper.extensions import csrf
from scorekeeper.localize import localize, tr
from scorekeeper.models import Table
from scorekeeper.service import TableError
from scorekeeper.service.errors import TABLE_OPTION_RULE
from scorekeeper.web.desk_texts import line_text, misar_text, review_json, trick_json
from scorekeeper.web.forms import whole_number

bp = Blueprint("desk_api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)  # bearer tokens or nothing at all, never cookies

# Per game: the kinds of position the desk judges, the first being the default.
KINDS: dict[str, tuple[str, ...]] = {
    "mulle": ("capture",), "kasino": ("capture",), "mousel": ("trick", "pot"),
    "mulatschak": ("trick", "sheet"), "muggins": ("placement",),
}
# The desk's own names for a game's option, taken beside the game's (Mousel's full pack, `52`).
DESK_OPTIONS: dict[str, tuple[str, ...]] = {"mousel": ("pack52",)}
REVIEW_OPTION = service.PLATFORM_OPTIONS[0]  # the review waits for the end of the deal


def desk_error(exc: Exception) -> TableError:
    if isinstance(exc, NotationError):
        return TableError(400, "bad_notation", tr(exc.template, **exc.values))
    if isinstance(exc, MalformedEvent):
        return TableError(400, "bad_request", localize(exc.message))
    if isinstance(exc, RuleViolation):
        return TableError(422, "illegal_position", localize(exc.message), exc.rule)
    raise exc


def _known_options(game: str, options: Any) -> None:
    """A key the game has no option of is refused, as when a table is opened (``TABLE-OPTION-1``):
    a misspelt house rule would otherwise be ignored and the dispute settled under the other rule.
    The game's options that do not change a verdict are taken and ignored (a table's dispute
    sends the table's options whole)."""
    if not isinstance(options, dict):
        return  # absent, or not an object: the desk's own reading refuses the latter
    rules = RULES[game]
    known = sorted({spec.key for spec in rules.option_specs} | set(DESK_OPTIONS.get(game, ())))
    for key in options:
        if key not in known and key != "teams":
            raise TableError(422, "unsupported", tr("%(game)s has no option %(key)s (options: %(known)s, teams)",
                                                    game=rules.name, key=repr(key), known=", ".join(known) or "none"),
                             TABLE_OPTION_RULE)


def judge(game: str, body: Mapping[str, Any], names: tuple[str, ...] = ()) -> dict[str, Any]:
    """The desk's answer to ``body`` as JSON, texts in the request's language."""
    if game not in KINDS:
        raise TableError(404, "not_found", tr("the desk knows %(games)s, not %(game)s",
                                              games=", ".join(KINDS), game=repr(game)))
    kind = body.get("kind", KINDS[game][0])
    if kind not in KINDS[game]:
        raise TableError(400, "bad_request", tr("%(game)s positions are %(kinds)s, not %(kind)s",
                                                game=RULES[game].name, kinds=", ".join(KINDS[game]), kind=repr(kind)))
    _known_options(game, body.get("options"))
    try:
        if kind == "trick":
            return {"kind": "trick", **trick_json(judge_trick_json(game, body), names)}
        if kind == "capture":
            verdict = judge_capture(game, body)
            data = localize({"kind": "capture", **verdict.to_json()})  # the arithmetic, in the reader's words
            for item, duty in zip(data["duties"], verdict.duties, strict=True):
                item["text"] = misar_text(duty.what, str(verdict.played), item["must_take"], item["sweeper"])
            return data
        worker: Callable[[Mapping[str, Any]], Worked] = {
            "pot": mousel_pot, "sheet": mulatschak_sheet, "placement": muggins_placements}[kind]
        worked = worker(body)
    except (NotationError, MalformedEvent, RuleViolation) as exc:
        raise desk_error(exc) from exc
    data = worked.to_json()
    for item, line in zip(data["lines"], worked.lines, strict=True):
        item["text"] = line_text(line, names, game)
    return data


@bp.post("/desk/<game>")
def desk(game: str) -> Response:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise TableError(400, "bad_request", tr("the body must be a JSON object (Content-Type: application/json)"))
    return jsonify(judge(game, body))


def table_review(table: Table, deal: int | None, *, hide_open: bool | None = None) -> tuple[Review, bool]:
    """The review of ``deal`` of ``table`` and whether it is hidden (the house rule holds the
    review of a deal still being played)."""
    snap = service.snapshot(table)
    # Stored moves the state goes on without (set aside, damaged) are left out of the review too.
    skipped = {v.seq for v in snap.verdicts if v.status != "stands"}
    effective = [(seq, payload) for seq, payload in snap.effective if seq not in skipped] if skipped else snap.effective
    try:
        result = review(table.game, table.players, service.engine_options(table.options or {}), table.mode,
                        effective, deal)
    except (RuleViolation, MalformedEvent, NotationError, *service.ENGINE_SLIPS) as exc:  # a log the engine once accepted
        raise service.from_engine(exc) from exc
    hide = bool((table.options or {}).get(REVIEW_OPTION)) if hide_open is None else hide_open
    return result, hide and not result.over


@bp.get("/tables/<table_id>/review")
def review_api(table_id: str) -> Response:
    from scorekeeper.web.api import _authorised

    table = _authorised(table_id, "read")
    raw = request.args.get("deal")
    deal: int | None = None
    if raw is not None:
        deal = whole_number(raw, digits=5)
        if not deal:
            raise TableError(400, "bad_request", tr("'deal' must be a deal number, not %(value)s", value=repr(raw)))
    result, hidden = table_review(table, deal)
    if deal is not None and deal not in result.deals:
        raise TableError(404, "not_found", tr("table %(table)s has no deal %(deal)s", table=table.id, deal=deal))
    lines = [] if hidden else [review_json(line, table.game, tuple(table.players)) for line in result.lines]
    return jsonify({"deal": result.deal, "deals": list(result.deals), "over": result.over, "hidden": hidden,
                    "lines": lines})
