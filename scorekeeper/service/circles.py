"""Circles: the same players over many evenings (issue 38). Opening one, its members and their
other names, the tables kept in it, what each token may do, deleting it and making new codes.

The standings are counted in :mod:`.standings` from each table's stored outcome (:mod:`.outcomes`).
"""

from __future__ import annotations

import hmac
import json
import secrets
import unicodedata
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select, update

from scorekeeper.extensions import db
from scorekeeper.localize import tr
from scorekeeper.models import Circle, Member, Outcome, Table, utcnow
from scorekeeper.service import outcomes
from scorekeeper.service.circle_news import announce, channel
from scorekeeper.service.deletion import erase_tables
from scorekeeper.service.errors import TABLE_NAMES_RULE, TableError, bad_request
from scorekeeper.service.facts import facts_cache
from scorekeeper.service.snapshots import cache, snapshot
from scorekeeper.service.tables import INVISIBLE, _fold, clean_players, create_table

MAX_CIRCLE_NAME = 80
MAX_MEMBERS = 64
MAX_ALIASES = 8


def fold(name: str) -> str:
    """A name as members are told apart: "Bertil" and "bertil" are one member."""
    return _fold(" ".join(INVISIBLE.sub("", name).split()))


def _clean_name(name: Any) -> str:
    if not isinstance(name, str):
        raise bad_request(tr("the circle's name must be text"))
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in name if not c.isspace()):
        raise bad_request(tr("the circle's name holds a control character"))
    cleaned = " ".join(INVISIBLE.sub("", name).split())
    if not cleaned:
        raise bad_request(tr("the circle needs a name"))
    if len(name) > MAX_CIRCLE_NAME:
        raise bad_request(tr("the circle's name is longer than %(max)s characters", max=MAX_CIRCLE_NAME))
    return cleaned


def _members(raw: Any) -> list[tuple[str, list[str]]]:
    """Members as sent: names, or ``{"name", "aliases"}`` objects; every name and other name
    distinct from every other, as their tables would type them."""
    if not isinstance(raw, list) or len(raw) > MAX_MEMBERS:
        raise bad_request(tr("members must be a list of at most %(max)s names", max=MAX_MEMBERS))
    if _repeated(raw) or any(isinstance(m, dict) and _repeated(m.get("aliases")) for m in raw):
        # The very same item twice: the document's uniqueItems refuses it, as a table's players.
        raise bad_request(tr("members name the same member twice"))
    names: list[str] = []
    aliases: list[Any] = []
    for item in raw:
        if isinstance(item, dict):
            names.append(item.get("name"))  # type: ignore[arg-type]
            aliases.append(item.get("aliases", []))
        else:
            names.append(item)
            aliases.append([])
    # Each name alone: names equal across items are one rule, checked below over them all.
    cleaned = [clean_players([n])[0] for n in names]
    out = []
    for name, other in zip(cleaned, aliases, strict=True):
        if not isinstance(other, list) or len(other) > MAX_ALIASES:
            raise bad_request(tr("aliases must be a list of at most %(max)s names", max=MAX_ALIASES))
        out.append((name, [clean_players([a])[0] for a in other]))
    every = [fold(n) for name, other in out for n in (name, *other)]
    dupes = sorted({n for n in every if every.count(n) > 1})
    if dupes:  # names the schema lets through (they differ as strings) that would be one member
        raise TableError(422, "unsupported", tr("two members share the name %(name)s", name=repr(dupes[0])),
                         TABLE_NAMES_RULE)
    return out


def _repeated(items: Any) -> bool:
    """Two equal items in a list, as JSON Schema's uniqueItems compares them (sent as JSON)."""
    if not isinstance(items, list):
        return False
    seen = [json.dumps(item, sort_keys=True) for item in items]
    return len(set(seen)) < len(seen)


def create_circle(name: Any, members: Any = None) -> Circle:
    circle = Circle(id=secrets.token_urlsafe(8)[:10], name=_clean_name(name),
                    write_token=secrets.token_urlsafe(24), read_token=secrets.token_urlsafe(24),
                    owner_token=secrets.token_urlsafe(24))
    circle.members = [Member(name=n, aliases=a) for n, a in _members(members if members is not None else [])]
    db.session.add(circle)
    db.session.commit()
    return circle


def get_circle(circle_id: Any) -> Circle:
    circle = db.session.get(Circle, circle_id) if isinstance(circle_id, str) and len(circle_id) <= 16 else None
    if circle is None:
        raise TableError(404, "not_found", tr("there is no circle %(circle)s", circle=repr(circle_id)))
    return circle


def capability(circle: Circle, token: str | None) -> str | None:
    """'owner', 'write', 'read' or None, compared in constant time. The owner may also write."""
    if not token:
        return None
    given = token.encode()
    if hmac.compare_digest(given, circle.owner_token.encode()):
        return "owner"
    if hmac.compare_digest(given, circle.write_token.encode()):
        return "write"
    if hmac.compare_digest(given, circle.read_token.encode()):
        return "read"
    return None


RANK = {"read": 0, "write": 1, "owner": 2}


def allows(cap: str | None, need: str) -> bool:
    return cap is not None and RANK[cap] >= RANK[need]


class Roster:
    """Which member a table's name is: by the member's name or any other name, folded."""

    def __init__(self, members: Iterable[Member]) -> None:
        self.names: list[str] = []
        self._by_fold: dict[str, str] = {}
        self._seen: dict[str, str | None] = {}
        for member in members:
            self.names.append(member.name)
            for n in (member.name, *(member.aliases or [])):
                self._by_fold[fold(n)] = member.name

    def member(self, name: str) -> str | None:
        # Folded once per name: a circle's 500 tables repeat the same few names.
        if name not in self._seen:
            self._seen[name] = self._by_fold.get(fold(name))
        return self._seen[name]


def _admit(circle: Circle, players: list[str], add_members: bool) -> None:
    """Every player a member, or made one with ``add_members``; else 422 naming the others."""
    roster = Roster(circle.members)
    strangers = [p for p in players if roster.member(p) is None]
    if not strangers:
        return
    if not add_members:
        raise TableError(422, "not_members", tr("not members of this circle: %(names)s; add them to the circle "
                                                 "first, or send \"add_members\": true", names=", ".join(strangers)),
                         names=strangers)
    if len(circle.members) + len(strangers) > MAX_MEMBERS:
        raise bad_request(tr("members must be a list of at most %(max)s names", max=MAX_MEMBERS))
    for name in strangers:
        circle.members.append(Member(name=name, aliases=[]))


def add_members(circle: Circle, raw: Any) -> None:
    """New members, or new other names of members already there (``{"name", "aliases"}``)."""
    wanted = _members(raw)
    roster = Roster(circle.members)
    by_name = {m.name: m for m in circle.members}
    for name, aliases in wanted:
        known = roster.member(name)
        taken = [a for a in aliases if roster.member(a) not in (None, known)]
        if taken:
            raise TableError(409, "name_taken", tr("%(name)s is already another member's name", name=repr(taken[0])))
        if known is None:
            circle.members.append(Member(name=name, aliases=aliases))
        elif aliases:
            member = by_name[known]
            member.aliases = [*member.aliases, *(a for a in aliases if roster.member(a) is None)]
    _unique(circle)
    db.session.commit()


def _member(circle: Circle, name: Any) -> Member:
    member = next((m for m in circle.members if m.name == name), None)
    if member is None:
        raise TableError(422, "not_members", tr("%(name)s is not a member of this circle", name=repr(name)),
                         names=[name] if isinstance(name, str) else [])
    return member


def give_alias(circle: Circle, name: Any, alias: Any) -> None:
    """Another name of a member already there (the page's form; the API sends it by PATCH)."""
    _member(circle, name)
    add_members(circle, [{"name": name, "aliases": [alias]}])


def remove_alias(circle: Circle, name: Any, alias: Any) -> None:
    """A member is no longer written as ``alias``: tables that wrote it count it as a stranger."""
    member = _member(circle, name)
    if alias not in (member.aliases or []):
        raise TableError(404, "not_found", tr("%(alias)s is not another name of %(name)s", alias=repr(alias),
                                              name=repr(member.name)))
    member.aliases = [a for a in member.aliases if a != alias]
    db.session.commit()


def _unique(circle: Circle) -> None:
    every = [fold(n) for m in circle.members for n in (m.name, *(m.aliases or []))]
    dupes = sorted({n for n in every if every.count(n) > 1})
    if dupes:
        db.session.rollback()
        raise TableError(409, "name_taken", tr("two members share the name %(name)s", name=repr(dupes[0])))


def rename(circle: Circle, name: Any) -> None:
    circle.name = _clean_name(name)
    db.session.commit()


def open_table(circle: Circle, game: Any, players: Any, mode: Any = None, options: Any = None,
               add_members: bool = False) -> Table:
    """A new table kept in the circle; its set-up becomes the circle's default for the next one."""
    names = clean_players(players)
    _admit(circle, names, add_members)
    table = create_table(game, names, mode, options)  # commits the members with it
    table.circle_id = circle.id
    circle.last_setup = {"game": table.game, "mode": table.mode, "options": table.options, "players": names}
    circle.updated_at = utcnow()
    db.session.commit()
    announce(circle.id)
    return table


def add_table(circle: Circle, table: Table, add_members: bool = False) -> bool:
    """Keep an existing table in the circle (True: newly added). A table belongs to one circle."""
    if table.circle_id == circle.id:
        return False
    if table.circle_id is not None:
        raise TableError(409, "in_another_circle", tr("table %(table)s is already kept in another circle",
                                                       table=repr(table.id)))
    _admit(circle, list(table.players), add_members)
    table.circle_id = circle.id
    circle.updated_at = utcnow()
    outcomes.keep(table, snapshot(table))
    db.session.commit()
    announce(circle.id)
    return True


def remove_table(circle: Circle, table: Table) -> None:
    """The table leaves the circle (its outcome is kept: another circle may count it later)."""
    if table.circle_id != circle.id:
        raise TableError(404, "not_found", tr("table %(table)s is not in this circle", table=repr(table.id)))
    table.circle_id = None
    circle.updated_at = utcnow()
    db.session.commit()
    announce(circle.id)


def new_codes(circle: Circle) -> Circle:
    """New join and watch tokens: the old ones open nothing from now on."""
    circle.write_token = secrets.token_urlsafe(24)
    circle.read_token = secrets.token_urlsafe(24)
    circle.codes = (circle.codes or 0) + 1
    db.session.commit()
    announce(circle.id)
    return circle


def table_ids(circle_id: str) -> list[str]:
    return list(db.session.execute(select(Table.id).where(Table.circle_id == circle_id)).scalars())


def _erase(circle_id: str) -> list[str]:
    """The circle, its members and every table kept in it (their ids); the caller commits."""
    ids = table_ids(circle_id)
    erase_tables(ids)
    db.session.execute(delete(Member).where(Member.circle_id == circle_id))
    db.session.execute(delete(Circle).where(Circle.id == circle_id))
    return ids


def delete_circle(circle: Circle) -> int:
    """Erase the circle, its members and every table kept in it; their phones are told."""
    from scorekeeper.live import broker

    ids = _erase(circle.id)
    db.session.commit()
    for table_id in ids:
        facts_cache.forget(table_id)
        cache.forget(table_id)
        broker.deleted(table_id)
    broker.deleted(channel(circle.id))
    return len(ids)


def expire_circles(days: int) -> tuple[int, int]:
    """Delete circles (and their tables) whose last table moved more than ``days`` days ago."""
    from datetime import timedelta

    cutoff = utcnow() - timedelta(days=days)
    last = (select(Table.circle_id, func.max(Table.updated_at).label("last"))
            .where(Table.circle_id.is_not(None)).group_by(Table.circle_id).subquery())
    stale = list(db.session.execute(
        select(Circle.id).outerjoin(last, last.c.circle_id == Circle.id)
        .where(func.coalesce(last.c.last, Circle.updated_at) < cutoff, Circle.updated_at < cutoff)).scalars())
    tables = sum(len(_erase(circle_id)) for circle_id in stale)
    db.session.commit()
    return len(stale), tables


def _when(events: Any, last: bool) -> datetime | None:
    """When an exported table's first (or last) move was made, as its export says."""
    if not isinstance(events, list) or not events:
        return None
    at = events[-1 if last else 0].get("at") if isinstance(events[-1 if last else 0], dict) else None
    try:
        return datetime.fromisoformat(at.removesuffix("Z")) if isinstance(at, str) else None
    except ValueError:
        return None


# How many of an import's tables one transaction writes. A commit for each table (three, with the
# table's own) made a 499-table import 3.6 s of a server thread; one commit for them all would hold
# SQLite's only write lock as long, with every other table's move waiting on it.
IMPORT_BATCH = 25


def import_circle(name: Any, members: Any, tables: list[Any], *, fitted: bool = False) -> tuple[Circle, list[str]]:
    """A new circle from an export, and its new tables' ids in the export's order: every table
    replayed through the engine (``import_table``) and kept with the times its export gives; one
    refused table refuses the whole file.
    ``fitted``: each event was checked against its game's schema (as ``import_table`` takes it)."""
    from scorekeeper.service.log import import_table

    circle = create_circle(name, members)
    made: list[str] = []
    try:
        for number, data in enumerate(tables, start=1):
            try:
                table = import_table(data, fitted=fitted, commit=False)
            except TableError as exc:
                raise TableError(exc.status, exc.code, tr("table %(n)s: %(message)s", n=number, message=exc.message),
                                 exc.rule) from exc
            made.append(table.id)
            _admit(circle, list(table.players), True)
            table.circle_id = circle.id
            table.created_at = (_when([{"at": data.get("opened")}], False) or _when(data.get("events"), False)
                                or table.created_at)
            table.updated_at = _when(data.get("events"), True) or table.updated_at
            kept = outcomes.keep(table, snapshot(table))
            db.session.flush()
            if kept is not None:
                db.session.execute(update(Outcome).where(Outcome.table_id == table.id)
                                   .values(finished_at=table.updated_at))
            if number % IMPORT_BATCH == 0:
                db.session.commit()
        db.session.commit()
    except BaseException:
        db.session.rollback()
        erase_tables(made)
        _erase(circle.id)
        db.session.commit()
        raise
    circle.updated_at = max([circle.updated_at, *(t for t in db.session.execute(
        select(Table.updated_at).where(Table.circle_id == circle.id)).scalars())])
    db.session.commit()
    return circle, made
