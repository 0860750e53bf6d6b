"""The dispute desk: set up a fishing-game position and get the verdict with its arithmetic.

Anyone can use it, at a table or not: table cards, the played card, the claimed capture, the
house rules that change values. The answer is the grouping that makes the capture legal, or the
rule that forbids it and why, and every legal capture of that card.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, render_template, request
from flask_babel import gettext as _

from scorekeeper.cards import Card, NotationError, parse_card, parse_cards
from scorekeeper.engine.capture import (
    Grouping,
    ValueScheme,
    count_captures,
    explain_failure,
    find_grouping,
    kasino_scheme,
    legal_captures,
    mulle_scheme,
)
from scorekeeper.localize import localize, tr

bp = Blueprint("desk", __name__, url_prefix="/desk")

GAMES = {"mulle": ("Tomelilla Mulle", 2, "MULLE-CAP-4", "MULLE-CAP-6", "MULLE-CAP-7"),
         "kasino": ("Kasino", 1, "KASINO-CAP-4", "KASINO-CAP-6", None)}
KASINO_VARIANTS = ("standard", "fixed", "handtable")
LISTED, COUNTED = 60, 100_000


@dataclass
class Verdict:
    game: str
    scheme: ValueScheme
    table: list[Card] = field(default_factory=list)
    played: Card | None = None
    taken: list[Card] = field(default_factory=list)
    problem: str = ""          # input that cannot be judged (notation, counts)
    legal: bool | None = None
    rule: str | None = None
    grouping: Grouping | None = None
    why: str = ""
    sweep: bool = False
    mulle: bool = False
    options: list[tuple[tuple[Card, ...], Grouping]] = field(default_factory=list)
    total: int | None = None  # set when more captures exist than are listed


def scheme_for(game: str, args: Any) -> ValueScheme:
    if game == "mulle":
        return mulle_scheme(strict_value=args.get("strict_value") in {"on", "1", "true"})
    variant = args.get("variant", "standard")
    return kasino_scheme(variant if variant in KASINO_VARIANTS else "standard")


def judge(game: str, args: Any) -> Verdict:
    name, copies, legal_rule, sweep_rule, mulle_rule = GAMES[game]
    verdict = Verdict(game, scheme_for(game, args))
    try:
        verdict.table = parse_cards(args.get("table", ""))
        verdict.taken = parse_cards(args.get("taken", ""))
        played_text = args.get("played", "").strip()
        verdict.played = parse_card(played_text) if played_text else None
    except NotationError as exc:
        verdict.problem = tr(exc.template, **exc.values)
        return verdict
    seen = Counter(verdict.table) + (Counter([verdict.played]) if verdict.played else Counter())
    over = [card for card, n in seen.items() if n > copies]
    if over:
        verdict.problem = _("%(card)s appears %(n)s times; the %(game)s pack holds %(copies)s",
                            card=over[0].pretty(), n=seen[over[0]], game=_(name), copies=copies)
        return verdict
    missing = Counter(verdict.taken) - Counter(verdict.table)
    if missing:
        card = next(iter(missing))
        verdict.problem = _("%(card)s is not on the table", card=card.pretty())
        return verdict
    if verdict.played is None:
        return verdict
    # A crowded table can have tens of thousands of captures: list the first ones, count the rest.
    verdict.options = legal_captures(verdict.played, verdict.table, verdict.scheme, limit=LISTED)
    if len(verdict.options) == LISTED:
        verdict.total = count_captures(verdict.played, verdict.table, verdict.scheme, at_most=COUNTED)
    if not verdict.taken:
        verdict.legal, verdict.rule = True, legal_rule.replace("-4", "-5")
        verdict.why = _("taking nothing is a trail, always allowed")
        return verdict
    verdict.grouping = find_grouping(verdict.played, verdict.taken, verdict.scheme)
    verdict.legal = verdict.grouping is not None
    verdict.rule = legal_rule
    if verdict.grouping is not None:
        verdict.why = localize(verdict.grouping.summary(verdict.played))
        verdict.sweep = Counter(verdict.taken) == Counter(verdict.table)
        verdict.mulle = bool(mulle_rule) and verdict.taken == [verdict.played]
    else:
        verdict.why = localize(explain_failure(verdict.played, verdict.taken, verdict.scheme))
    return verdict


@bp.get("/")
def desk() -> str:
    game = request.args.get("game", "mulle")
    if game not in GAMES:
        game = "mulle"
    verdict = judge(game, request.args)
    template = "_desk_verdict.html" if request.headers.get("HX-Request") == "true" else "desk.html"
    return render_template(template, verdict=verdict, games=GAMES, args=request.args, game=game,
                           variants=KASINO_VARIANTS)
