"""The rule book: each game's rules in the project's own words, every rule under its id."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, abort, render_template, request
from markupsafe import Markup, escape

from scorekeeper import service
from scorekeeper.engine import RULES
from scorekeeper.service import TableError

bp = Blueprint("rulebook", __name__, url_prefix="/rules")

BOOKS = Path(__file__).resolve().parent.parent / "rulebook"
_RULE = re.compile(r"^\*\s+\*\*([A-Z]+-[A-Z0-9]+-[A-Z0-9-]+)\*\*\s*[—:-]?\s*(.*)$")


@dataclass
class Rule:
    id: str
    text: str


@dataclass
class Section:
    title: str
    intro: list[str] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)


@dataclass
class Book:
    title: str
    intro: list[str]
    sections: list[Section]

    def rule(self, rule_id: str) -> Rule | None:
        return next((r for s in self.sections for r in s.rules if r.id == rule_id), None)


def inline(text: str) -> Markup:
    """The little Markdown the books use: **bold**, `code`, and rule ids as links."""
    html = str(escape(text))
    html = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", html)
    html = re.sub(r"`(.+?)`", r"<code>\1</code>", html)
    html = re.sub(r"\b((?:MULLE|KASINO|MULAT|MOUSEL|MUGGINS|SCOREPAD)-[A-Z]+-[A-Z0-9-]*[A-Z0-9])\b",
                  r'<a href="#\1">\1</a>', html)
    return Markup(html)


@lru_cache(maxsize=16)
def load_book(game: str) -> Book | None:
    path = BOOKS / f"{game}.md"
    if not path.exists():
        return None
    title, intro, sections = game, [], []
    current: Section | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        if stripped.startswith("# "):
            title = stripped[2:]
        elif stripped.startswith("## ") or stripped.startswith("### "):
            current = Section(stripped.lstrip("#").strip())
            sections.append(current)
        elif match := _RULE.match(stripped):
            if current is None:
                current = Section("")
                sections.append(current)
            current.rules.append(Rule(match.group(1), match.group(2)))
        elif stripped and line.startswith((" ", "\t")) and current and current.rules:
            current.rules[-1].text += " " + stripped
        elif stripped:
            (current.intro if current else intro).append(stripped)
    return Book(title, intro, sections)


def house_rules(game: str, table_id: str | None) -> set[str]:
    """Rule ids of the options this table switched on (highlighted in its rule book)."""
    if not table_id:
        return set()
    try:
        table = service.get_table(table_id)
    except TableError:
        return set()
    if table.game != game:
        return set()
    options = table.options or {}
    return {spec.rule for spec in RULES[game].option_specs
            if spec.rule and spec.key in options and options[spec.key] != spec.default}


@bp.get("/")
def index() -> str:
    books = [(g, load_book(g)) for g in RULES]
    return render_template("rulebook_index.html", books=[(g, b) for g, b in books if b])


@bp.get("/<game>")
def book(game: str) -> str:
    loaded = load_book(game) if game in RULES else None
    if loaded is None:
        abort(404)
    table_id = request.args.get("table")
    return render_template("rulebook.html", game=game, book=loaded, inline=inline,
                           house=house_rules(game, table_id), table_id=table_id)
