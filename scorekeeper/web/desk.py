"""The dispute desk: set up any position of any game and get the verdict with its rule and arithmetic.

Anyone can use it, at a table or not. From a table (``?at=<id>``, for a phone that holds the
table's link) it starts from the table's position and house rules; on its own it is set up by
hand with the card pickers of the table pages. The form is a plain GET form (it works without
JavaScript); htmx swaps only the verdict. The judging is the engine's (engine/desk*.py): this
module turns form fields into the JSON body the API takes, so the page and ``POST
/api/v1/desk/<game>`` answer alike.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, render_template, request, url_for
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict

from scorekeeper import service
from scorekeeper.cards import FRENCH_RANKS, FRENCH_SUITS, GERMAN_RANKS, GERMAN_SUITS
from scorekeeper.localize import gettext as _
from scorekeeper.service import TableError
from scorekeeper.web import access
from scorekeeper.web.desk_api import KINDS, judge
from scorekeeper.web.forms import whole_number

bp = Blueprint("desk", __name__, url_prefix="/desk")

# Each game the desk judges, with its name as the game list shows it (translated in the template).
GAMES: dict[str, tuple[str]] = {"mulle": ("Tomelilla Mulle",), "kasino": ("Kasino",), "mousel": ("Mousel",),
                                "mulatschak": ("Mulatschak",), "muggins": ("Muggins",)}
KASINO_VARIANTS = ("standard", "fixed", "handtable")  # the value schemes (kasino.md §4.3), also as ?variant=
KIND_LABELS = {"capture": _l("A capture"), "trick": _l("A trick"), "pot": _l("The pot"), "sheet": _l("The sheet"),
               "placement": _l("A turned card")}
MOUSEL_RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7")
MAX_SEATS = {"mulle": 4, "kasino": 4, "mousel": 7, "mulatschak": 6, "muggins": 7}
# A table's option under the desk form's name for it (Mousel's full pack is the option `52`).
TABLE_FLAGS = {"52": "pack52"}
FLAGS = ("strict_value", "misar_maxcount", "fixed", "handtable", "no_stichzwang", "pack36", "pack52",
         "round_largest", "muli_breaker", "stayhome_flat", "stayhome_free", "collapse_cap", "neighbour_only",
         "any_opponent", "knocked")


def _field(args: Any, name: str) -> str:
    """A picker sends its card twice under one name (the tapped radio and the typed box): the
    typed one wins when both are filled, as on the table pages."""
    values = [v.strip() for v in args.getlist(name) if v.strip()]
    return values[-1] if values else ""


def _cards(args: Any, name: str) -> list[str]:
    """Every card sent under ``name``: ticked in a picker, typed (space or comma apart), or both."""
    return [card for value in args.getlist(name) for card in value.replace(",", " ").split()]


def _int(args: Any, name: str, default: int) -> int:
    raw = _field(args, name)
    number = whole_number(raw.removeprefix("-"))
    return default if number is None else (-number if raw.startswith("-") else number)


def _on(args: Any, name: str) -> bool:
    return _field(args, name) in {"on", "1", "true", "True"}


def seats_of(args: Any, game: str) -> int:
    low = 3 if game == "muggins" else 2
    return max(low, min(MAX_SEATS[game], _int(args, "players", 4 if game != "mulle" else 2)))


def body_from(game: str, kind: str, args: Any) -> dict[str, Any] | None:
    """The API body for the position in ``args``; None while the form has nothing to judge yet."""
    n = seats_of(args, game)
    options = {key: True for key in FLAGS if _on(args, key)}
    if game == "kasino":
        variant = _field(args, "variant") or "standard"
        if variant in KASINO_VARIANTS[1:]:  # the value schemes, as links from before misär was here
            options[variant], variant = True, "standard"
        options["variant"] = variant
    if kind == "capture":
        played = _field(args, "played")
        if not played:
            return None
        return {"kind": kind, "table": _cards(args, "table"), "played": played, "capture": _cards(args, "taken"),
                "hand": _cards(args, "hand"), "options": options}
    if kind == "trick":
        leader = _int(args, "leader", 0) % n
        trick = []
        for k in range(n):
            card = _field(args, f"c{k + 1}")
            if not card:
                break
            trick.append({"player": _int(args, f"p{k + 1}", (leader + k) % n), "card": card})
        if not trick:
            return None
        later = [{"player": s, "card": c} for s in range(n) for c in _cards(args, f"later{s}")]
        return {"kind": kind, "trump": _field(args, "trump") or None, "trick": trick, "later": later,
                "options": options}
    if kind in ("pot", "sheet"):
        raw = [_field(args, f"t{s}") for s in range(n)]
        if not any(raw):
            return None
        tricks = [whole_number(t, digits=2) for t in raw]
        marked = [s for s in range(n) if _on(args, f"r{s}")]
        if kind == "pot":
            return {"kind": kind, "pot": _int(args, "pot", n), "taker": _int(args, "taker", 0), "tricks": tricks,
                    "revokers": marked, "last": _on(args, "last"), "options": options}
        scores = [_int(args, f"s{s}", 21) for s in range(n)]
        return {"kind": kind, "declarer": _int(args, "declarer", 0), "bid": _int(args, "bid", 1),
                "trump": _field(args, "trump") or "E", "tricks": tricks, "revokes": marked, "scores": scores,
                "collapses": _int(args, "collapses", 0), "knocked": _on(args, "knocked"), "options": options}
    card = _field(args, "card")
    if not card:
        return None
    tops = [_field(args, f"d{s}") or None for s in range(n)]
    counts = [_int(args, f"n{s}", 1) for s in range(n)]
    return {"kind": kind, "card": card, "player": _int(args, "player", 0) % n, "muggins": _cards(args, "muggins"),
            "discards": tops, "cards": counts, "options": options}


@bp.get("/")
def desk() -> Response:
    args: Any = request.args
    table_id = args.get("at", "")  # the table this desk starts from ("table" is the cards on it)
    names: tuple[str, ...] = ()
    game = args.get("game", "")
    if table_id:
        prefilled = from_table(table_id)
        if prefilled is not None:
            table_game, names, defaults = prefilled
            game = game or table_game
            if game == table_game:  # the table's position, under whatever the form changed
                merged = MultiDict(defaults)
                for key in args:
                    merged.setlist(key, args.getlist(key))
                args = merged
    if game not in GAMES:
        game = "mulle"
    kind = args.get("kind", KINDS[game][0])
    if kind not in KINDS[game]:
        kind = KINDS[game][0]
    result: dict[str, Any] | None = None
    problem: dict[str, Any] | None = None
    body = body_from(game, kind, args)
    if body is not None:
        try:
            result = judge(game, body, names)
        except TableError as exc:
            problem = {"rule": exc.rule, "message": exc.message}
    n = seats_of(args, game)
    german = game == "mulatschak"
    ranks: tuple[str, ...] = FRENCH_RANKS
    if german:  # the Weli is typed as W; sixes only in the 36-card pack
        ranks = GERMAN_RANKS if _on(args, "pack36") else tuple(r for r in GERMAN_RANKS if r != "6")
    elif game == "mousel" and not _on(args, "pack52"):
        ranks = MOUSEL_RANKS
    # The form is drawn for a seat count and a pack; when either changes, htmx gets the whole
    # form back (HX-Retarget), not just the verdict.
    drawn = f"{n}|{len(ranks)}|{'36' if _on(args, 'pack36') else ''}"
    headers: dict[str, str] = {}
    template = "desk.html"
    if request.headers.get("HX-Request") == "true":
        template = "_desk_verdict.html"
        if args.get("drawn") not in (None, drawn):
            template = "_desk_main.html"
            headers = {"HX-Retarget": "#desk-main", "HX-Reswap": "outerHTML"}
    page = render_template(
        template, game=game, kind=kind, kinds=KINDS[game], kind_labels=KIND_LABELS, games=GAMES, args=args,
        result=result, problem=problem, seats=range(n), n=n, names=names, table_id=table_id, drawn=drawn,
        rule_names={g: GAMES[g][0] for g in GAMES}, pack="german" if german else "french", ranks=ranks,
        suits=GERMAN_SUITS if german else FRENCH_SUITS, book=url_for("rulebook.book", game=game),
        table_cards=[c.upper() for c in _cards(args, "table")],
        seat_name=lambda s: names[s] if 0 <= s < len(names) else _("player %(n)s", n=s + 1))
    return Response(page, headers=headers)


def from_table(table_id: str) -> tuple[str, tuple[str, ...], dict[str, Any]] | None:
    """The table's game, player names and position as form fields — only for a phone holding
    the table's link (its capability is in the session)."""
    try:
        table = service.get_table(table_id)
    except TableError:
        return None
    if access.cap_of(table) is None or table.game not in GAMES:
        return None
    state = service.snapshot(table).state
    options = service.engine_options(table.options or {})
    fields: dict[str, Any] = {"players": str(len(table.players))}
    for key, value in options.items():
        key = TABLE_FLAGS.get(key, key)
        if value is True and key in FLAGS:
            fields[key] = "on"
    if table.game == "kasino":
        fields["variant"] = options.get("variant", "standard")
    if table.mode == "adjudicate":
        fields.update(position_fields(table.game, state))
    return table.game, tuple(table.players), fields


def position_fields(game: str, state: Any) -> dict[str, Any]:  # noqa: C901
    """What the table shows now, as the desk's form fields."""
    out: dict[str, Any] = {}
    if game in ("mulle", "kasino"):
        out["table"] = " ".join(str(c) for c in state.table)
        return out
    if game == "muggins":
        out["muggins"] = " ".join(str(pile[-1]) for pile in state.muggins)
        for s, hand in enumerate(state.hands):
            if hand.discard:
                out[f"d{s}"] = str(hand.discard[-1])
            out[f"n{s}"] = str(hand.cards)
        if state.to_act is not None:
            out["player"] = str(state.to_act)
        return out
    deal = state.deal
    if deal is None:
        return out
    if game == "mousel":
        out["pot"] = str(deal.pot)
        if deal.taker is not None:
            out["taker"] = str(deal.taker)
        if deal.trump_card is not None:
            out["trump"] = deal.trump_card.suit
        play = state.play
        plays = play.current or (play.tricks[-1].plays if play and play.tricks else ()) if play else ()
    else:
        if deal.trump is not None:
            out["trump"] = deal.trump
        if deal.declarer is not None:
            out["declarer"], out["bid"] = str(deal.declarer), str(deal.contract)
        plays = deal.tricks[-1] if deal.tricks else ()
        for s in range(len(deal.hands)):
            held = deal.current_hand(s)
            if held:
                out[f"later{s}"] = " ".join(str(c) for c in held)
        for s, score in enumerate(state.scores):
            out[f"s{s}"] = str(score)
    if plays:
        out["leader"] = str(plays[0][0])
        for position, (seat, card) in enumerate(plays, start=1):
            out[f"p{position}"], out[f"c{position}"] = str(seat), str(card)
    return out
