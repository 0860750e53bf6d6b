"""Before a deploy: every stored table replayed with this version's engine, and a count, per game
and rule id, of the tables holding a move these rules judge otherwise. Reads only: the database,
and this process's caches, are left as they were."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from sqlalchemy import select

from scorekeeper.engine import RULES, RULES_VERSION
from scorekeeper.engine.core import MalformedEvent, RuleViolation
from scorekeeper.extensions import db
from scorekeeper.models import Table
from scorekeeper.service.errors import ENGINE_SLIPS
from scorekeeper.service.snapshots import effective_events, judged_replay, new_state
from scorekeeper.service.stored import raw_rows

# What a row counts under when the table holds an entry no rule judges (an unreadable entry), or
# cannot even be opened with its options any more.
DAMAGED = "damaged"


@dataclass
class Report:
    tables: int = 0
    moves: int = 0
    # (game, rule id or DAMAGED) → tables holding at least one such move; (…, status) → moves
    by_rule: Counter[tuple[str, str]] = field(default_factory=Counter)
    by_status: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    examples: dict[tuple[str, str], str] = field(default_factory=dict)

    def lines(self) -> Iterator[str]:
        yield (f"checked {self.tables} table(s), {self.moves} effective move(s), "
               f"with rules version {RULES_VERSION}")
        if not self.by_rule:
            yield "every stored move is judged as it was accepted"
            return
        for (game, rule), count in sorted(self.by_rule.items()):
            statuses = ", ".join(f"{status} {n}" for (g, r, status), n in sorted(self.by_status.items())
                                 if (g, r) == (game, rule))
            yield f"{game}\t{rule}\t{count} table(s)\t({statuses} move(s); e.g. table {self.examples[game, rule]})"


def _table_ids(chunk: int = 500) -> Iterator[list[str]]:
    last = ""
    while True:
        ids = list(db.session.execute(
            select(Table.id).where(Table.id > last).order_by(Table.id).limit(chunk)).scalars())
        if not ids:
            return
        yield ids
        last = ids[-1]


def check_tables() -> Report:
    report = Report()
    for ids in _table_ids():
        for table in db.session.execute(select(Table).where(Table.id.in_(ids))).scalars():
            report.tables += 1
            seen: set[tuple[str, str]] = set()

            def note(rule: str, status: str, table: Table = table, seen: set[tuple[str, str]] = seen) -> None:
                key = (table.game, rule)
                report.by_status[(table.game, rule, status)] += 1
                report.examples.setdefault(key, table.id)
                if key not in seen:
                    seen.add(key)
                    report.by_rule[key] += 1

            if table.game not in RULES:
                note(DAMAGED, "unknown_game")
                continue
            try:
                new_state(table)
            except (RuleViolation, MalformedEvent, *ENGINE_SLIPS) as exc:
                note(getattr(exc, "rule", None) or DAMAGED, "cannot_open")
                continue
            # Read as text: the check must not stop at a payload that is not JSON.
            effective = effective_events([(seq, payload) for seq, payload, _by, _at in raw_rows(table.id)])
            report.moves += len(effective)
            for verdict in judged_replay(table, effective)[1]:
                note(verdict.rule or DAMAGED, verdict.status)
        db.session.rollback()  # nothing was changed; let go of what was read
        db.session.expunge_all()
    return report
