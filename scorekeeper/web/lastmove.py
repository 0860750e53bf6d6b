"""The last move as the table should hear it, for the status region pinned to the bottom of every
phone: "Bo: A♥ as 1 takes 5♦+9♣ — A♥ +1", "Anna undid: Bo: 8♣ takes 8♦".

Read from the event log (the head event, and for an undo the event it retracted), so every phone
says the same, not only the phone that tapped. A game's view model may word the move better than
the engine's one-line ``describe`` (Mulle's and Kasino's ``just``): its words win.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import bindparam, select

from scorekeeper import service
from scorekeeper.cards import NotationError, card_name, parse_card
from scorekeeper.extensions import db
from scorekeeper.localize import card_face, localize
from scorekeeper.localize import gettext as _
from scorekeeper.models import Event, Table
from scorekeeper.service.snapshots import Head

# Events entered with one tap (a card of a trick, a Muggins pile): the status region offers to
# take such a tap back with one more tap.
ONE_TAP = {("mulatschak", "play"), ("mousel", "play"), ("muggins", "turn")}


GERMAN_PACK = {"mulatschak"}


def describe(table: Table, payload: Mapping[str, Any], players: Sequence[str]) -> str:
    """The engine's one line for an event, with the card it names as the table calls it ("Bo plays
    Laub-Sau", "Anna plays A♣") instead of its wire code."""
    if not service.is_event(payload):
        return _("a damaged entry")
    try:
        text = str(localize(service.rules_for(table).describe(payload, players), players))
    except (service.RuleViolation, *service.ENGINE_SLIPS):
        return _("a damaged entry")
    code = payload.get("card")
    if isinstance(code, str) and code and re.search(rf"(?<!\w){re.escape(code)}(?!\w)", text):
        try:
            card = parse_card(code, "german" if table.game in GERMAN_PACK else "french")
        except NotationError:
            return text
        name = (card_name(card, "en", "german") if table.game in GERMAN_PACK else card_face(code))
        text = re.sub(rf"(?<!\w){re.escape(code)}(?!\w)", name, text)
    return text


# Built once, as service.get_table's: a statement made again for every page (and its cache key)
# was half the cost of reading one row (0.30 -> 0.15 ms under CPython), on every move a phone
# keeping a table alone answers.
_EVENT = select(Event).where(Event.table_id == bindparam("table"), Event.seq == bindparam("seq"))


def _event(table: Table, seq: int) -> Event | None:
    try:
        return db.session.execute(_EVENT, {"table": table.id, "seq": seq}).scalar_one_or_none()
    except ValueError:  # its payload is not JSON: the history names the damaged entry
        db.session.rollback()
        return None


def _name(players: Sequence[str], seat: int | None) -> str:
    return players[seat] if seat is not None and 0 <= seat < len(players) else ""


def _pops(view_just: Mapping[str, Any] | None) -> list[str]:
    if not view_just:
        return []
    out = []
    for p in view_just.get("pops") or ():
        points = p.get("points")
        tail = f" {points:+d}" if isinstance(points, int) and points else ""
        out.append(f"{p['side']}: {p['text']}{tail}")
    return out


def last_move(table: Table, players: Sequence[str], seq: int, view: Mapping[str, Any],
              head: Head | None = None) -> dict[str, Any] | None:
    """What the head event did, or None before the first move. ``view``: the game's view model;
    ``head``: the event at ``seq`` as this process wrote it (else it is read)."""
    if seq <= 0:
        return None
    row = head or _event(table, seq)
    if row is None:
        return None
    by = _name(players, row.author)
    if not service.is_event(row.payload):
        return {"seq": seq, "text": describe(table, row.payload, players), "pops": [], "undo": False,
                "one_tap": False}
    if row.payload.get("type") == "undo":
        if head is not None and head.undone is not None:
            undone_payload: Mapping[str, Any] | None = head.undone
        else:
            undone = _event(table, int(row.payload.get("undoes") or 0))
            undone_payload = undone.payload if undone is not None else None
        move = describe(table, undone_payload, players) if undone_payload is not None else ""
        text = _("%(name)s undid: %(move)s", name=by, move=move) if by else _("Undone: %(move)s", move=move)
        return {"seq": seq, "text": text, "pops": [], "undo": True, "one_tap": False}
    just = next((m.get("just") for m in view.values() if isinstance(m, Mapping) and m.get("just")), None)
    text = str(just.get("text") or "") if just else ""
    if not text:
        text = describe(table, row.payload, players)
    return {"seq": seq, "text": text, "pops": _pops(just), "undo": False,
            "one_tap": (table.game, row.payload.get("type")) in ONE_TAP}
