"""A circle's tables and standings, counted from the tables' stored outcomes (never replayed on a view).

Per game and member: games played (finished only), won, win rate, average final score and place,
best game, head-to-head against every other member, and the engine's own figures (summed, and
per game where a per-game figure means something). Mousel's balances over every evening are
settled up once for the season: who pays whom, with the engine's fewest transfers.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from sqlalchemy import func, select

from scorekeeper.engine import RULES, RULES_VERSION
from scorekeeper.engine.tricks.ledger import settle_up
from scorekeeper.extensions import db
from scorekeeper.models import Circle, Outcome, Seat, Table
from scorekeeper.service import outcomes
from scorekeeper.service.circles import Roster
from scorekeeper.service.outcomes import LOW_WINS
from scorekeeper.service.tables import get_table

# Figures that also read per game played (Mulle's mullar, tabbe and points per game).
PER_GAME = {"mulle": ("mullar", "tabbe")}


@dataclass
class _Line:
    played: int = 0
    won: int = 0
    scores: list[float] = field(default_factory=list)
    places: list[int] = field(default_factory=list)
    figures: dict[str, int] = field(default_factory=dict)
    versus: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0, 0]))


@dataclass(frozen=True)
class Season:
    """Finished tables counted: those finished on ``start`` .. ``end`` (either may be open)."""

    start: date | None = None
    end: date | None = None

    def holds(self, when: datetime | None) -> bool:
        if when is None:
            return True
        day = when.date()
        return (self.start is None or day >= self.start) and (self.end is None or day <= self.end)


def _iso(when: datetime | None) -> str | None:
    return None if when is None else when.isoformat(timespec="seconds") + "Z"


_ROWS = (select(Table.id, Table.game, Table.mode, Table.created_at, Table.head_seq, Outcome.seq,
                Outcome.rules_version, Outcome.data, Outcome.finished_at)
         .outerjoin(Outcome, Outcome.table_id == Table.id))


def _rows(circle_id: str) -> list[dict[str, Any]]:
    rows = []
    # All read before any outcome is worked out again (which commits).
    for tid, game, mode, created, head, seq, version, data, finished in db.session.execute(
            _ROWS.where(Table.circle_id == circle_id).order_by(Table.created_at, Table.id)).all():
        if data is not None and not outcomes.current(data, seq, head, version):
            data = outcomes.refresh(get_table(tid))  # an undo of the final move, new rules, a new format
            finished = finished if data is not None else None
        rows.append({"id": tid, "game": game, "mode": mode, "started": created,
                     "finished": finished if data is not None else None, "outcome": data})
    playing = [r["id"] for r in rows if r["outcome"] is None]
    if playing:
        names: dict[str, list[str]] = defaultdict(list)
        for tid, name in db.session.execute(select(Seat.table_id, Seat.name).where(Seat.table_id.in_(playing))
                                            .order_by(Seat.table_id, Seat.index)):
            names[tid].append(name)
        for r in rows:
            if r["outcome"] is None:
                r["players"] = names.get(r["id"], [])
    return rows


class ViewCache:
    """Per-process LRU of counted views, keyed by what they were counted from: the circle's
    tables as one indexed aggregate reads them (how many, their newest write, the sum of their
    heads: any move, table added or deleted changes it), the circle's name and members, and the
    season. A television refreshing the standings every few seconds costs that one query."""

    def __init__(self, size: int = 64) -> None:
        self._size = size
        self._items: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[Any, ...]) -> dict[str, Any] | None:
        with self._lock:
            view = self._items.get(key)
            if view is not None:
                self._items.move_to_end(key)
            return view

    def put(self, key: tuple[Any, ...], view: dict[str, Any]) -> None:
        with self._lock:
            self._items[key] = view
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


views = ViewCache()
_FINGERPRINT = select(func.count(Table.id), func.max(Table.updated_at), func.sum(Table.head_seq))


def circle_view(circle: Circle, season: Season | None = None) -> dict[str, Any]:
    """What ``GET /api/v1/circles/{id}`` answers and the page draws; not to be changed by the caller."""
    season = season or Season()
    tables = tuple(db.session.execute(_FINGERPRINT.where(Table.circle_id == circle.id)).one())
    key = (circle.id, circle.name, tuple((m.name, tuple(m.aliases or ())) for m in circle.members), season,
           tables, RULES_VERSION, outcomes.FORMAT)
    view = views.get(key)
    if view is None:
        view = _count_view(circle, season)
        views.put(key, view)
    return view


def _count_view(circle: Circle, season: Season) -> dict[str, Any]:
    roster = Roster(circle.members)
    rows = [r for r in _rows(circle.id)
            if season.holds(r["finished"] if r["outcome"] is not None else r["started"])]
    tables = []
    lines: dict[str, dict[str, _Line]] = defaultdict(lambda: defaultdict(_Line))
    balances: dict[str, int] = defaultdict(int)
    timeline: list[tuple[datetime, list[str]]] = []
    for r in rows:
        out = r["outcome"]
        players = out["players"] if out else r["players"]
        members = [roster.member(p) or p for p in players]
        winners = [members[i] for i in out["winners"]] if out else []
        tables.append({"id": r["id"], "game": r["game"], "mode": r["mode"], "players": members,
                       "over": out is not None, "winner": winners, "started": _iso(r["started"]),
                       "finished": _iso(r["finished"])})
        if out is None:
            continue
        timeline.append((r["finished"], winners))
        _count(lines[r["game"]], r["game"], out, members, roster, balances)
    standings = {game: _standing(game, by_member) for game, by_member in lines.items()}
    return {"id": circle.id, "name": circle.name,
            "members": [{"name": m.name, "aliases": list(m.aliases or [])} for m in circle.members],
            "tables": tables, "standings": standings, "settle_up": _settle(balances) if "mousel" in lines else None,
            "timeline": timeline}


def _count(by_member: dict[str, _Line], game: str, out: dict[str, Any], members: list[str], roster: Roster,
           balances: dict[str, int]) -> None:
    known = [i for i, m in enumerate(members) if m in roster.names]
    for i in known:
        member = members[i]
        line = by_member[member]
        line.played += 1
        line.won += i in out["winners"]
        line.scores.append(out["scores"][i])
        line.places.append(out["places"][i])
        for key, value in (out["figures"][i] or {}).items():
            line.figures[key] = line.figures.get(key, 0) + int(value)
        if game == "mousel":
            balances[member] += int(out["scores"][i])
        for j in known:
            if j != i:
                tally = line.versus[members[j]]
                tally[0] += 1
                tally[1] += out["places"][i] < out["places"][j]
                tally[2] += out["places"][i] > out["places"][j]


def _standing(game: str, by_member: dict[str, _Line]) -> list[dict[str, Any]]:
    low = game in LOW_WINS
    result = []
    for member, line in by_member.items():
        entry: dict[str, Any] = {
            "member": member, "played": line.played, "won": line.won,
            "win_rate": round(line.won / line.played, 3) if line.played else 0.0,
            "average_score": round(sum(line.scores) / line.played, 2),
            "average_place": round(sum(line.places) / line.played, 2),
            "best_score": min(line.scores) if low else max(line.scores),
            "best_place": min(line.places),
            "head_to_head": [{"member": other, "played": t[0], "ahead": t[1], "behind": t[2]}
                             for other, t in sorted(line.versus.items())],
            "figures": dict(sorted(line.figures.items())),
        }
        for key in PER_GAME.get(game, ()):
            entry["figures"][f"{key}_per_game"] = round(line.figures.get(key, 0) / line.played, 2)
        if game == "mulle":
            entry["figures"]["points_per_game"] = entry["average_score"]
        result.append(entry)
    result.sort(key=lambda e: (-e["won"], -e["win_rate"], -e["played"], e["member"].casefold()))
    return result


def _settle(balances: dict[str, int]) -> list[dict[str, Any]]:
    """Who pays whom over the season's Mousel evenings. Members outside the circle's tables
    hold the rest of each table's balance; the members' share is settled among themselves."""
    names = sorted(balances, key=str.casefold)
    values = [balances[n] for n in names]
    named: list[str | None] = list(names)
    if sum(values) != 0:  # players outside the circle took part: they hold the difference (null)
        named.append(None)
        values.append(-sum(values))
    return [{"from": named[t.payer], "to": named[t.payee], "amount": t.amount} for t in settle_up(values)]


def parse_season(args: Any) -> Season:
    """``?season=2026``, ``?from=YYYY-MM-DD``, ``?to=YYYY-MM-DD``: each one sent is checked (400),
    and together they count what every one of them holds."""
    import re

    from scorekeeper.localize import tr
    from scorekeeper.service.errors import bad_request

    start: date | None = None
    end: date | None = None
    year = args.get("season")
    if year is not None:  # present, even empty: a year or a refusal
        if not (isinstance(year, str) and re.fullmatch(r"[0-9]{4}", year, re.ASCII) and int(year) >= 1):
            raise bad_request(tr("season must be a year such as 2026"))
        start, end = date(int(year), 1, 1), date(int(year), 12, 31)
    for key in ("from", "to"):
        value = args.get(key)
        if value is None:
            continue
        try:  # fromisoformat alone also reads 20260101 and 2026-W01-1, which the document's `date` does not
            if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value, re.ASCII):
                raise ValueError(value)
            day = date.fromisoformat(value)
        except ValueError:
            raise bad_request(tr("%(key)s must be a date as YYYY-MM-DD", key=key)) from None
        if key == "from":
            start = day if start is None else max(start, day)
        else:
            end = day if end is None else min(end, day)
    return Season(start, end)


def game_names() -> dict[str, str]:
    return {game: RULES[game].name for game in RULES}
