"""``flask expire-tables``: forget tables nobody has touched for a while. ``flask check-tables``:
before a deploy, which stored tables hold a move this version's rules judge otherwise.

Cron, nightly at 04:10 (documented in README and SECURITY.md):
``10 4 * * * cd /srv/scorekeeper && .venv/bin/flask --app scorekeeper expire-tables``
"""

from __future__ import annotations

from datetime import timedelta

import click
from flask import Flask, current_app
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Table, utcnow
from scorekeeper.service.deletion import erase_tables


def expire_tables(days: int) -> int:
    """Delete every table (with its seats and events) inactive for more than ``days`` days; a
    table kept in a circle lives as long as the circle (``expire_circles``)."""
    cutoff = utcnow() - timedelta(days=days)
    stale = list(db.session.execute(
        select(Table.id).where(Table.updated_at < cutoff, Table.circle_id.is_(None))).scalars())
    erase_tables(stale)
    db.session.commit()
    return len(stale)


def register(app: Flask) -> None:
    @app.cli.command("expire-tables")
    @click.option("--days", type=int, default=None, help="inactive days (default: TABLE_EXPIRY_DAYS, 30)")
    def expire_command(days: int | None) -> None:
        """Delete tables inactive for more than N days."""
        from scorekeeper.service.circles import expire_circles

        limit = days if days is not None else int(current_app.config["TABLE_EXPIRY_DAYS"])
        click.echo(f"expired {expire_tables(limit)} table(s) inactive for more than {limit} days")
        circle_days = int(current_app.config["CIRCLE_EXPIRY_DAYS"])
        circles, tables = expire_circles(circle_days)
        click.echo(f"expired {circles} circle(s) with {tables} table(s), idle for more than {circle_days} days")

    @app.cli.command("check-tables")
    @click.option("--fail", is_flag=True, help="exit 1 when any table holds a move judged otherwise")
    def check_command(fail: bool) -> None:
        """Replay every stored table with this version's rules; report, per game and rule id, how
        many tables hold a move these rules judge otherwise. Changes nothing."""
        from scorekeeper.service.check import check_tables

        report = check_tables()
        for line in report.lines():
            click.echo(line)
        if fail and report.by_rule:
            raise SystemExit(1)
