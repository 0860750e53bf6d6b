"""Opening a table (names cleaned, options checked), finding it, and what a token may do."""

from __future__ import annotations

import hmac
import logging
import re
import secrets
import unicodedata
from typing import Any

from sqlalchemy import bindparam, inspect, select, text
from sqlalchemy.orm import joinedload
from sqlalchemy.orm.util import identity_key

from scorekeeper.engine import RULES, RULES_VERSION
from scorekeeper.engine.base import MODES, MalformedEvent, RuleViolation, SetupError
from scorekeeper.extensions import db
from scorekeeper.localize import localize, tr
from scorekeeper.models import Seat, Table
from scorekeeper.service.errors import (
    MAX_NAME,
    TABLE_NAMES_RULE,
    TABLE_OPTION_RULE,
    TableError,
    bad_request,
    from_engine,
)
from scorekeeper.service.options import PLATFORM_OPTIONS, engine_options

logger = logging.getLogger(__name__)


# --- Opening and finding tables -------------------------------------------------------------


# Formatting without letters of its own: a bidi override in a name would reverse the text beside
# it on every phone, a zero-width space makes "Anna" and "An\u200bna" two players who look alike.
INVISIBLE = re.compile("[\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
# Not text at all: NUL and lone surrogates cannot even be stored (PostgreSQL refuses both, SQLite
# the surrogates); other control characters have no place in a name.
NOT_TEXT = re.compile("[\x00\ud800-\udfff]")


def _fold(name: str) -> str:
    """The name as two players could confuse it: case, compatibility forms and joiners ignored."""
    return "".join(c for c in unicodedata.normalize("NFKC", name).casefold() if unicodedata.category(c) != "Cf")


def clean_players(players: Any) -> list[str]:
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise bad_request(tr("players must be a list of names"))
    if any(unicodedata.category(c) in ("Cc", "Cs") for p in players for c in p if not c.isspace()):
        raise bad_request(tr("a player's name holds a control character"))
    names = [" ".join(INVISIBLE.sub("", p).split()) for p in players]
    for raw, name in zip(players, names, strict=True):
        if not name:
            raise bad_request(tr("a player's name is empty"))
        # As sent: the limit the OpenAPI document states (maxLength), spaces and formatting included.
        if len(raw) > MAX_NAME:
            raise bad_request(tr("the name %(name)s… is longer than %(max)s characters", name=repr(name[:20]),
                                 max=MAX_NAME))
    folded = [_fold(n) for n in names]
    dupes = sorted({n for n, f in zip(names, folded, strict=True) if folded.count(f) > 1})
    if dupes:
        message = tr("two players share the name %(name)s", name=repr(dupes[0]))
        if len(set(players)) < len(players):  # the very same string twice: the schema's uniqueItems refuses it
            raise bad_request(message)
        # Names the schema lets through (they differ as strings) that would be one name at the table.
        raise TableError(422, "unsupported", message, TABLE_NAMES_RULE)
    return names


def create_table(game: Any, players: Any, mode: Any = "adjudicate", options: Any = None, *,
                 table_id: str | None = None, origin: str | None = None, commit: bool = True) -> Table:
    if not isinstance(game, str) or game not in RULES:
        known = ", ".join(RULES)
        raise bad_request(tr("unknown game %(game)s; this server plays %(known)s", game=repr(game), known=known))
    names = clean_players(players)
    if mode is None:
        mode = "adjudicate"
    if mode not in MODES:
        raise bad_request(tr("mode must be 'adjudicate' or 'tally', not %(mode)s", mode=repr(mode)))
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise bad_request(tr("options must be an object"))
    rules = RULES[game]
    for key in PLATFORM_OPTIONS:
        if key in options and not isinstance(options[key], bool):
            raise TableError(422, "unsupported", tr("option %(key)s must be true or false, not %(value)s",
                                                    key=repr(key), value=repr(options[key])), TABLE_OPTION_RULE)
    try:
        rules.new(names, engine_options(options), mode)
    except (SetupError, RuleViolation) as exc:
        raise from_engine(exc) from exc
    except MalformedEvent as exc:
        raise TableError(422, "unsupported", localize(exc.message, names), TABLE_OPTION_RULE) from exc
    table = Table(
        id=table_id or secrets.token_urlsafe(8)[:10],  # a phone keeping another phone's table keeps its id
        game=game,
        mode=mode,
        options=options,
        write_token=secrets.token_urlsafe(24),  # 192 bits
        read_token=secrets.token_urlsafe(24),
        owner_token=secrets.token_urlsafe(24),
        rules_version=RULES_VERSION,
        origin=origin,
    )
    table.seats = [Seat(index=i, name=name) for i, name in enumerate(names)]
    db.session.add(table)
    if commit:
        db.session.commit()
    else:
        db.session.flush()  # its row before any row that names it (an import's events)
    return table


# The seats come in the same query: nearly every request reads the players' names. Built once:
# ``session.get`` made the statement and its cache key again on every call, and took twice as long.
# A move reads its table before and after the write, a sixth of its Python on a phone keeping a
# table alone.
_TABLE = select(Table).options(joinedload(Table.seats)).where(Table.id == bindparam("id"))


def loaded_table(table_id: str) -> Table | None:
    """The table as this request's session holds it, if it does, with its seats and nothing of
    it expired: a write's view reads it before writing and again to draw the sheet."""
    table = db.session.identity_map.get(identity_key(Table, table_id))
    if table is None:
        return None
    state = inspect(table)
    # Expired whole (a commit, a rollback) or never read with its seats: read it afresh. A column
    # expired alone (``updated_at`` after a write) is read again if asked.
    if state.expired or state.was_deleted or {"head_seq", "seats"} & state.unloaded:
        return None
    return table  # type: ignore[no-any-return]


def get_table(table_id: str) -> Table:
    if not isinstance(table_id, str) or len(table_id) > 16:
        table = None
    else:
        table = loaded_table(table_id) or db.session.execute(_TABLE, {"id": table_id}).unique().scalar_one_or_none()
    if table is None:
        raise TableError(404, "not_found", tr("there is no table %(table)s", table=repr(table_id)))
    return table


def head_seq(table_id: str) -> int:
    """A table's newest seq, read alone (an event stream opening needs nothing else): 404 when
    the table is gone. A restart's thousands of reconnecting phones each cost this one query."""

    head = db.session.execute(text("SELECT head_seq FROM tables WHERE id = :id"), {"id": table_id}).scalar()
    if head is None:
        raise TableError(404, "not_found", tr("there is no table %(table)s", table=repr(table_id)))
    return int(head)


def _same(token: bytes, held: str | None) -> bool:
    return held is not None and hmac.compare_digest(token, held.encode())


def capability(table: Table | Any, token: str | None) -> str | None:
    """'write', 'read' or None; compared in constant time so a token cannot be guessed byte by byte.
    The owner capability writes too (it opened the table)."""
    if not token:
        return None
    given = token.encode()
    if _same(given, table.write_token) or _same(given, getattr(table, "owner_token", None)):
        return "write"
    if _same(given, table.read_token):
        return "read"
    return None


def owns(table: Table | Any, token: str | None) -> bool:
    """Whether ``token`` is the table's owner capability: it alone deletes the table or makes new
    codes. A table opened before owners were kept has none, and its write capability stands in."""
    if not token:
        return False
    owner = getattr(table, "owner_token", None)
    if owner is None:
        return capability(table, token) == "write"
    return _same(token.encode(), owner)
