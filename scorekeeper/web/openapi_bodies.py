"""The request bodies of ``POST /api/v1/tables`` and ``POST /api/v1/tables/import`` as JSON Schema,
as exact as the server's set-up checks (tests/web/test_openapi_exact.py compares the two).

Everything here is derived from what the server reads: the player counts and ``OptionSpec``s of
``engine.RULES``, the name cleaning of ``service.tables``, and each game's cross-option rules
(which a game's ``new`` enforces, restated here as ``if``/``then``). Two rules JSON Schema cannot
state are said in words in the description: names distinct ignoring case, compatibility forms
and invisible characters (``uniqueItems`` compares exactly), and a score pad's start differing
from its target.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from functools import cache
from itertools import permutations
from typing import Any

from scorekeeper.engine import RULES
from scorekeeper.engine.core import OptionSpec
from scorekeeper.service import MAX_NAME, PLATFORM_OPTIONS
from scorekeeper.service.tables import INVISIBLE

JSON = dict[str, Any]
MODES = ["adjudicate", "tally"]
REF = "#/components/schemas/{}"


def _ranges(codes: Iterable[int]) -> str:
    """A regex character class body for ``codes`` (sorted), as ``\\uXXXX`` escapes both ECMA
    and Python read (astral code points as ``\\u{…}`` would not be read alike: none occur)."""
    out: list[str] = []
    run: list[int] = []
    for code in sorted(codes):
        if run and code == run[-1] + 1:
            run.append(code)
            continue
        if run:
            out.append(_run(run))
        run = [code]
    if run:
        out.append(_run(run))
    return "".join(out)


def _run(run: Sequence[int]) -> str:
    first, last = run[0], run[-1]
    return f"\\u{first:04x}" if first == last else f"\\u{first:04x}-\\u{last:04x}"


@cache
def name_schema() -> JSON:
    """One player's name as ``service.tables.clean_players`` takes it: at most ``MAX_NAME``
    characters as sent, no control character but whitespace, and something left once
    whitespace and the invisible formatting characters are dropped."""
    bmp = range(0x10000)  # every control, surrogate, space and formatting character the cleaning knows is here
    # Lone surrogates (Cs) are refused too, but no JSON Schema validator can even hold one in a string.
    control = [c for c in bmp if unicodedata.category(chr(c)) == "Cc" and not chr(c).isspace()]
    blank = [c for c in bmp if chr(c).isspace() or INVISIBLE.fullmatch(chr(c))]
    bad = _ranges(control)
    seen = _ranges(sorted({*control, *blank}))
    return {"type": "string", "maxLength": MAX_NAME, "pattern": f"^[^{bad}]*[^{seen}][^{bad}]*$",
            "description": f"a name of at most {MAX_NAME} characters: no control characters (tabs and other "
                           "whitespace are allowed and collapsed), not blank; zero-width and bidi formatting "
                           "characters are dropped", "examples": ["Anna"]}


def _flag(key: str) -> JSON:
    return {"type": "object", "properties": {key: {"const": True}}, "required": [key]}


def _is(key: str, value: Any) -> JSON:
    return {"type": "object", "properties": {key: {"const": value}}, "required": [key]}


def _implies(condition: JSON, then: JSON) -> JSON:
    return {"if": condition, "then": then}


def _option(spec: OptionSpec) -> JSON:
    rule = f" ({spec.rule})" if spec.rule else ""
    out: JSON = {"description": f"{spec.label}{rule}", "default": spec.default}
    if spec.kind == "bool":
        out["type"] = "boolean"
    elif spec.kind == "int":
        out["type"] = "integer"
        if spec.minimum is not None:
            out["minimum"] = spec.minimum
        if spec.maximum is not None:
            out["maximum"] = spec.maximum
    else:
        out["enum"] = list(spec.choices)
    return out


def partition(n: int, size: int | None = None) -> JSON:
    """Seats ``0 … n-1`` split into at least two non-empty teams, each seat in exactly one
    (``BaseRules.sides``); ``size``: every team has that many seats."""
    team: JSON = {"type": "array", "minItems": size or 1, "uniqueItems": True, "items": {"enum": list(range(n))}}
    if size:
        team["maxItems"] = size
    return {"type": "array", "minItems": 2, "maxItems": n, "items": team,
            "allOf": [{"contains": {"type": "array", "contains": {"const": s}}, "minContains": 1, "maxContains": 1}
                      for s in range(n)]}


# Partners sit opposite: every spelling of [[0, 2], [1, 3]] (MULLE-COMP-2, KASINO-VAR-PAIRS).
PARTNERS: JSON = {"enum": [[list(a), list(b)] for x, y in permutations([(0, 2), (1, 3)])
                           for a in (x, x[::-1]) for b in (y, y[::-1])]}
NO_TEAMS: list[JSON] = [{"type": "null"}, {"type": "array", "maxItems": 0}]


def _teams(game: str, n: int) -> JSON | None:
    """What ``options.teams`` may hold at a table of ``n``; None: the game has no partnerships."""
    if game == "scorepad":
        return partition(n)
    if game == "mulle":
        return {"anyOf": [partition(n, 1), PARTNERS] if n == 4 else [partition(n, 1)]}
    if game == "kasino":
        return PARTNERS if n == 4 else None
    return None


def options_schema(game: str, n: int | None = None) -> JSON:
    """A game's options object (``n``: at a table of that many players, which decides ``teams``).
    Unknown keys are refused (422), so ``additionalProperties`` is false."""
    rules = RULES[game]
    properties: JSON = {spec.key: _option(spec) for spec in rules.option_specs}
    # Without a size: any list of teams where the game has partnerships (each size narrows it).
    teams = _teams(game, n) if n is not None else _teams(game, 4) and {
        "type": "array", "minItems": 1, "items": {"type": "array", "items": {"type": "integer"}}}
    properties["teams"] = {"anyOf": [*NO_TEAMS, *([teams] if teams else [])],
                           "description": "partnerships: seat numbers per team" +
                                          (f" ({rules.team_rule})" if rules.team_rule else " (none in this game)")}
    for key in PLATFORM_OPTIONS:
        properties[key] = {"type": "boolean", "default": False,
                           "description": "show each deal's review to the table when it ends"}
    out: JSON = {"type": "object", "properties": properties, "additionalProperties": False}
    rules_ = _cross_rules(game, n)
    if rules_:
        out["allOf"] = rules_
    return out


def _cross_rules(game: str, n: int | None) -> list[JSON]:
    """The options that exclude or need each other (each game's ``new``)."""
    if game == "mulatschak":
        return [{"not": {"allOf": [_flag("stayhome_flat"), _flag("stayhome_free")]}}]  # MULAT-OPT-STAYHOME-FREE
    if game == "muggins":
        return [{"not": {"allOf": [_flag("neighbour_only"), _flag("any_opponent")]}}]  # MUGGINS-OPT-ANY-OPPONENT
    if game == "mousel" and n is not None and n * n + 1 > 32:
        return [_flag("52")]  # MOUSEL-COMP-3: 6 or 7 players need the 52-card pack
    if game != "kasino":
        return []
    misar = {"anyOf": [_is("variant", "misar"), _flag("drag_misar")]}
    pairs = {"anyOf": [_flag("pairs"), {"type": "object", "required": ["teams"],
                                        "properties": {"teams": {"type": "array", "minItems": 1}}}]}
    out = [_implies(_flag("drag_misar"), _is("variant", "drag")),  # KASINO-OPT-DRAG-MISAR
           {"not": {"allOf": [_flag("fixed"), _flag("handtable")]}},  # KASINO-VAR-HANDTABLE
           _implies(pairs, {"not": misar}),  # KASINO-AMB-10
           _implies(_flag("pairs_individual"), pairs),  # KASINO-OPT-PAIRS-INDIVIDUAL
           _implies(_flag("claim"), {"not": misar}),  # KASINO-OPT-CLAIM
           _implies(_flag("claim_tabbe"), _flag("claim")), _implies(_flag("auto_claim"), _flag("claim")),
           *(_implies(_flag(key), misar) for key in ("misar_maxcount", "misar_strict", "misar_penalty_b"))]
    if n is not None and n != 4:
        out.append({"not": pairs})  # KASINO-VAR-PAIRS: partnerships need four players
    return out


def _players(low: int, high: int) -> JSON:
    return {"type": "array", "items": {"$ref": REF.format("PlayerName")}, "minItems": low, "maxItems": high,
            "uniqueItems": True}


def mode_events(game: str, mode: str) -> JSON:
    """``game``'s events at a table in ``mode``, as one union discriminated on ``type``: the
    engine's dispatch of that mode decides (a tally sheet takes no card play). A game without
    modes of its own (the score pad) takes all its events in both."""
    import importlib

    from scorekeeper.schemas import event_models

    models = event_models(game)
    rules = importlib.import_module(f"scorekeeper.engine.{game}" + ("" if game == "scorepad" else ".rules"))
    dispatch = getattr(rules, "DISPATCH", None) or getattr(rules, "_EVENTS", None)
    if dispatch is None:
        kinds = sorted(models)
    else:
        taken = set(dispatch.events(mode))
        kinds = sorted(k for k in models if k in taken or (k in dispatch.aliases and dispatch.aliases[k].type in taken))
    refs = {kind: REF.format(models[kind].__name__) for kind in kinds}
    return {"title": f"{game.title()}{mode.title()}Event", "description": f"Any {game} event of {mode} mode.",
            "oneOf": [{"$ref": ref} for ref in refs.values()],
            "discriminator": {"propertyName": "type", "mapping": refs}}


def event_components() -> JSON:
    """``<Game><Mode>Event`` for every game and mode: what ``POST …/events`` and an import take."""
    return {f"{game.title()}{mode.title()}Event": mode_events(game, mode) for game in RULES for mode in MODES}


def _log(game: str, mode: str) -> JSON:
    """An export's ``events``: each item as exported (``{"seq", "by", "at", "event"}``; only
    ``event`` is read); an undo retracts the latest effective event."""
    event = {"anyOf": [{"$ref": REF.format(f"{game.title()}{mode.title()}Event")}, {"$ref": REF.format("Undo")}]}
    logged = {"type": "object", "required": ["event"], "properties": {
        "seq": {"description": "its seq (renumbered on import)"},
        "by": {"description": "the seat of the phone that entered it (kept if it is a seat)"},
        "at": {"description": "when (not kept)"}, "event": event}}
    return {"type": "array", "maxItems": 20_000, "items": logged}


def _at_size(game: str, n: int) -> JSON | None:
    """What a table of ``n`` players adds to the game's options (teams, packs), as an ``if``/``then``."""
    teams = _teams(game, n)
    extra = _cross_rules(game, n)[len(_cross_rules(game, None)):]
    if teams is None and not extra:
        return None
    options: JSON = {"type": "object", "properties": {"teams": {"anyOf": [*NO_TEAMS, *([teams] if teams else [])]}}}
    if extra:
        options["allOf"] = extra
    return {"if": {"type": "object", "required": ["players"], "properties": {"players": {"minItems": n, "maxItems": n}}},
            "then": _then_options(game, options)}


def _then_options(game: str, options: JSON) -> JSON:
    if game == "mousel":  # the 52-card pack is not the default: the options must name it
        return {"required": ["options"], "properties": {"options": options}}
    return {"properties": {"options": {"anyOf": [{"type": "null"}, options]}}}


# A new table may be kept in a circle at once (issue 38): the circle's write token is the bearer.
CIRCLE_FIELDS: JSON = {
    "circle": {"type": ["string", "null"], "description": "the id of the circle to keep the table in; send the "
                                                          "circle's write token as 'Authorization: Bearer'"},
    "add_members": {"type": "boolean", "default": False,
                    "description": "with `circle`: players who are not members become members (else 422 not_members)"}}


# A phone's export (issue 39): the table's identity, so that the copies every phone at the table
# holds make one server table (service/origins.py). An export of the server's own has none.
ORIGIN: JSON = {"type": "string", "pattern": "^[A-Za-z0-9_-]{16,64}$",
                "description": "a table carried from a phone: its identity. The first import of an origin makes the "
                               "table; a later one answers 200 with that table (`imported_before`), its log brought "
                               "up to the import's if that goes further along the same moves, or 409 `diverged`"}


def table_setups(log: bool = False) -> list[JSON]:
    """One schema per game: ``game``, ``players``, ``mode``, ``options``; with ``log`` an export's
    ``format`` and ``events`` too, one schema per game and mode (the mode decides the events). What
    depends on the number of players is an ``if``/``then``."""
    out: list[JSON] = []
    for game, rules in RULES.items():
        for mode in MODES if log else [None]:
            modes = [*MODES, None] if mode is None else [mode] if mode == "tally" else [mode, None]
            properties: JSON = {
                "game": {"const": game}, "players": _players(rules.min_players, rules.max_players),
                "mode": {"enum": modes, "description": "default adjudicate"},
                "options": {"anyOf": [{"type": "null"}, {"$ref": REF.format(f"{game.title()}Options")}],
                            "description": f"{rules.name}'s house rules (see {game.title()}Options); "
                                           "omitted ones take their default"}}
            required = ["game", "players"]
            if log:
                properties |= {"format": {"const": "scorekeeper/1"}, "events": _log(game, mode or "adjudicate"),
                               "origin": ORIGIN}
                required += ["events", *(["mode"] if mode == "tally" else [])]
            else:
                properties |= CIRCLE_FIELDS
            setup: JSON = {"type": "object", "title": game if mode is None else f"{game} {mode}", "required": required,
                           "properties": properties}
            sizes = [rule for n in range(rules.min_players, rules.max_players + 1) if (rule := _at_size(game, n))]
            if sizes:
                setup["allOf"] = sizes
            out.append(setup)
    return out


NAMES_RULE = ("names distinct ignoring case, compatibility forms and invisible characters; a score pad's target "
              "must differ from its start (default 0 and 61)")


def create_body() -> JSON:
    return {"title": "NewTable", "anyOf": table_setups(),
            "description": "a new table: the game, its players in seat order (as many as the game takes), the mode "
                           f"and the house rules. Beyond what this schema says: {NAMES_RULE}."}


def import_body() -> JSON:
    """The export of ``GET …/events``: a table's set-up and its log. Every effective event is
    replayed through the engine before anything is stored (422 with the rule and ``event N``)."""
    return {"title": "Export", "anyOf": table_setups(log=True),
            "description": "an export as GET /api/v1/tables/{table_id}/events answers it. Every effective event is "
                           "replayed first: one the rules refuse is 422 naming the rule and `event N`, and nothing "
                           f"is stored. Beyond what this schema says: {NAMES_RULE}."}


def player_name_components() -> JSON:
    return {"PlayerName": name_schema(),
            "Undo": {"type": "object", "title": "Undo", "required": ["type"],
                     "properties": {"type": {"const": "undo"}, "undoes": {"description": "the seq it retracts"}},
                     "description": "an undo in an export's log: retracts the latest effective event"}}


__all__ = ["create_body", "event_components", "import_body", "mode_events", "name_schema", "options_schema", "partition", "player_name_components"]


# --- The dispute desk -------------------------------------------------------------------------
# Each kind of position as the desk reads it (engine/analysis/desk*.py): fields it does not read
# are ignored, so no schema closes its properties. What ties one field to another (a seat within
# the table the lists describe, tricks adding up, a card seen twice) is the desk's to refuse: 400
# or 422 ``illegal_position`` with the rule.


def _letters(targets: Iterable[str]) -> list[str]:
    """Every character whose upper case is one of ``targets`` (the desk reads ``trump.upper()``)."""
    wanted = set(targets)
    return sorted(chr(c) for c in range(0x10000) if chr(c).upper() in wanted)


def _bools(game: str, *keys: str) -> JSON:
    """The house rules of ``game`` the desk reads (booleans), and every other key the game has an
    option of, taken and ignored; any other key is 422 ``TABLE-OPTION-1`` (desk_api._known_options)."""
    from scorekeeper.engine import RULES
    from scorekeeper.web.desk_api import DESK_OPTIONS

    names = sorted({spec.key for spec in RULES[game].option_specs} | set(DESK_OPTIONS.get(game, ())) | {"teams"})
    return {"type": "object", "properties": {key: {"type": "boolean", "default": False} for key in keys},
            "propertyNames": {"enum": names},
            "description": "the house rules that change the verdict; the game's other options are taken and "
                           "ignored, a key it has no option of is 422 TABLE-OPTION-1"}


def _seat_list(last: int) -> JSON:
    return {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": last}}


def _card(game: str) -> JSON:
    from scorekeeper.schemas.common import FRENCH_CARD, GERMAN_CARD

    return {"type": "string", "pattern": GERMAN_CARD if game == "mulatschak" else FRENCH_CARD,
            "description": "a card in wire notation ('9S'; German pack 'OS', 'W'); the other forms cards.py "
                           "reads are read too", "examples": ["OS" if game == "mulatschak" else "9S"]}


def _cards(game: str) -> JSON:
    card = _card(game)["pattern"][1:-1]
    # The desk splits a string of cards at whitespace only (str.split), not at commas as events do.
    return {"anyOf": [{"type": "array", "maxItems": 60, "items": _card(game)},
                      {"type": "string", "pattern": f"^\\s*(?:{card}(?:\\s+{card})*)?\\s*$"}],
            "description": "cards: a list, or one string of cards separated by spaces"}


def _kind(game: str, kind: str, first: bool) -> JSON:
    return {"const": kind, "description": f"what is judged{' (the default)' if first else ''}"}


def _trick(game: str, first: bool) -> JSON:
    from scorekeeper.engine.analysis.desk_tricks import trick_game

    suits = trick_game(game).suits
    last = trick_game(game).max_players - 1  # the game's largest table: the desk knows no other
    play = {"type": "object", "required": ["player", "card"],
            "properties": {"player": {"type": "integer", "minimum": 0, "maximum": last}, "card": _card(game)}}
    trump: JSON = {"enum": [*_letters(suits), *([] if game == "mulatschak" else [None])],
                   "description": f"the trump suit, {', '.join(suits)}" + ("" if game == "mulatschak" else " or null")}
    options = _bools(game, "pack52", "52") if game == "mousel" else _bools(game, "no_stichzwang", "pack36")
    return {"type": "object", "title": f"{game} trick", "required": ["trick", *(["trump"] if game == "mulatschak"
                                                                               else [])],
            "properties": {"kind": _kind(game, "trick", first), "trump": trump,
                           "trick": {"type": "array", "minItems": 1, "items": play,
                                     "description": "the cards of one trick in play order"},
                           "later": {"type": "array", "items": play,
                                     "description": "cards a player of the trick is later known to hold"},
                           "options": options}}


def _when(path: tuple[str, ...], value: Any, then: JSON) -> JSON:
    """``then`` where the field at ``path`` is ``value`` (a flag the desk reads another field under)."""
    cond: JSON = {"const": value}
    for key in reversed(path):
        cond = {"type": "object", "required": [key], "properties": {key: cond}}
    return {"if": cond, "then": then}


def _pot(n: int) -> JSON:
    # One schema per number of seats: the length of ``tricks`` is the table's, and every seat
    # index and trick count is bounded by it (MOUSEL-COMP-3: N seats, N cards each).
    tricks = {"type": ["integer", "null"], "minimum": 0, "maximum": n}
    return {"type": "object", "title": f"mousel pot, {n} seats", "required": ["kind", "tricks", "pot", "taker"],
            "properties": {"kind": _kind("mousel", "pot", False), "pot": {"type": "integer", "minimum": 0,
                                                                          "maximum": 1_000_000},
                           "taker": {"type": "integer", "minimum": 0, "maximum": n - 1},
                           "tricks": {"type": "array", "minItems": n, "maxItems": n, "items": tricks,
                                      "description": "each seat's tricks (null: folded); as many as seats"},
                           "revokers": _seat_list(n - 1),
                           "last": {"description": "true: the announced last deal (read only with end_lastdeal)"},
                           "options": _bools("mousel", "round_largest", "end_lastdeal")},
            **_when(("options", "end_lastdeal"), True, {"properties": {"last": {"type": "boolean"}}})}


def _sheet(n: int) -> JSON:
    return {"type": "object", "title": f"mulatschak sheet, {n} seats",
            "required": ["kind", "tricks", "declarer", "bid", "trump"],
            "properties": {"kind": _kind("mulatschak", "sheet", False),
                           "tricks": {"type": "array", "minItems": n, "maxItems": n,
                                      "items": {"type": ["integer", "null"], "minimum": 0, "maximum": 5}},
                           "declarer": {"type": "integer", "minimum": 0, "maximum": n - 1},
                           "bid": {"type": "integer", "minimum": 1, "maximum": 5, "description": "5 = Muli"},
                           "trump": {"enum": _letters("HSLE")},
                           "collapses": {"type": "integer", "minimum": 0, "maximum": 10, "default": 0},
                           "knocked": {"type": "boolean", "default": False}, "revokes": _seat_list(n - 1),
                           "breaker": {"description": "a failed Muli: the seat that broke it, one that won a trick "
                                                      "(read only then; any other is 422 MULAT-OPT-MULI-BREAKER)"},
                           "scores": {"type": "array", "minItems": n, "maxItems": n, "items": {"type": "integer"},
                                      "description": "the sheet before this deal, one per seat (default 21 each)"},
                           "options": _bools("mulatschak", "muli_breaker", "stayhome_flat", "stayhome_free", "collapse_cap")}}


def _placement(n: int) -> JSON:
    return {"type": "object", "title": f"muggins placement, {n} seats", "required": ["card", "discards", "muggins"],
            "properties": {"kind": _kind("muggins", "placement", True), "card": _card("muggins"),
                           "player": {"type": "integer", "minimum": 0, "maximum": n - 1, "default": 0},
                           "muggins": {"type": "array", "minItems": 1, "maxItems": 4, "items": _card("muggins")},
                           "discards": {"type": "array", "minItems": n, "maxItems": n,
                                        "items": {"anyOf": [_card("muggins"), {"type": "null"}]}},
                           "cards": {"type": "array", "minItems": n, "maxItems": n,
                                     "items": {"type": "integer", "minimum": 0}},
                           "options": _bools("muggins", "neighbour_only", "any_opponent")}}


def _capture(game: str) -> JSON:
    if game == "mulle":
        options = _bools(game, "strict_value")
    else:
        options = _bools(game, "fixed", "handtable")
        options["properties"] |= {"variant": {"enum": ["standard", "misar", "drag"], "default": "standard"},
                                  "drag_misar": {"description": "with variant drag: misär (a boolean)"},
                                  "misar_maxcount": {"description": "in misär: take the most cards (a boolean)"}}
        flag = {"properties": {"drag_misar": {"type": "boolean"}}}
        most = {"properties": {"misar_maxcount": {"type": "boolean"}}}
        # Each flag is read only under the variant that has it.
        options["allOf"] = [_when(("variant",), "drag", flag), _when(("variant",), "misar", most),
                            {"if": {"type": "object", "required": ["variant", "drag_misar"],
                                    "properties": {"variant": {"const": "drag"}, "drag_misar": {"const": True}}},
                             "then": most}]
    return {"type": "object", "title": f"{game} capture", "required": ["played"],
            "properties": {"kind": _kind(game, "capture", True), "table": _cards(game), "played": _card(game),
                           "capture": _cards(game), "hand": _cards(game), "options": options}}


def desk_bodies() -> dict[str, JSON]:
    """Per game, the positions the desk judges (``kind`` picks one; the first is the default)."""
    return {"mulle": _capture("mulle"), "kasino": _capture("kasino"),
            "mousel": {"anyOf": [_trick("mousel", True), *(_pot(n) for n in range(2, 8))]},
            "mulatschak": {"anyOf": [_trick("mulatschak", True), *(_sheet(n) for n in range(2, 7))]},
            "muggins": {"anyOf": [_placement(n) for n in range(3, 8)]}}


# A position of each kind the desk judges, as the examples of its operation: a client (or a
# fuzzer) that knows no game's rules still gets a verdict from each (tests/web/test_desk_review.py).
DESK_EXAMPLES: dict[str, dict[str, JSON]] = {
    "mulle": {"capture": {"table": ["10D", "6C", "4H", "9S"], "played": "10D", "capture": ["10D"]}},
    "kasino": {"capture": {"table": ["7C", "2D", "9S"], "played": "7H", "options": {"variant": "misar"}}},
    "mousel": {"trick": {"trump": "H", "trick": [{"player": 0, "card": "9S"}, {"player": 1, "card": "KS"}]},
               "pot": {"kind": "pot", "pot": 4, "taker": 0, "tricks": [1, 3, 0, None]}},
    "mulatschak": {"trick": {"trump": "E", "trick": [{"player": 0, "card": "KE"}, {"player": 1, "card": "W"}]},
                   "sheet": {"kind": "sheet", "declarer": 1, "bid": 2, "trump": "H", "tricks": [1, 3, 1, None]}},
    "muggins": {"placement": {"card": "6H", "muggins": ["5C", "QD"], "discards": [None, "7S", None]}},
}
