"""The post-deal review page of a table: every missed chance its log proves (engine/review.py)."""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request, url_for

from scorekeeper.web import access
from scorekeeper.web.desk_api import table_review
from scorekeeper.web.desk_texts import cards_text, review_text
from scorekeeper.web.forms import whole_number
from scorekeeper.web.tables import load

bp = Blueprint("review", __name__)


@bp.get("/t/<table_id>/review")
def page(table_id: str) -> str:
    table = load(table_id)
    if access.cap_of(table) is None:
        abort(403)
    raw = request.args.get("deal", "")
    number = whole_number(raw, digits=5)
    deal = number if number else None
    result, hidden = table_review(table, deal)
    names = tuple(table.players)
    pack = "german" if table.game == "mulatschak" else "french"
    rows = [{"line": line, "player": names[line.player] if line.player < len(names) else str(line.player),
             "better": better_text(line.better, pack, line.card), "text": review_text(line, table.game, names)}
            for line in ([] if hidden else result.lines)]
    return render_template("review.html", table=table, result=result, hidden=hidden, rows=rows, pack=pack,
                           book=url_for("rulebook.book", game=table.game, table=table.id))


def better_text(event: dict[str, object], pack: str, played: str) -> str:
    """The better move in a few words: the capture (with the card, when another one), the card, or the pile."""
    if "capture" in event:
        taken = event.get("capture") or []
        text = cards_text([str(c) for c in taken], pack) if taken else "—"
        return f"{cards_text([str(event.get('card', ''))], pack)}: {text}" if played != event.get("card") else text
    to = event.get("to")
    if isinstance(to, dict):
        return " ".join(str(v) for v in to.values())
    return cards_text([str(event.get("card", ""))], pack)
