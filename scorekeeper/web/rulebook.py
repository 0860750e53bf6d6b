"""The rule book: each game's rules in the project's own words, every rule under its id.

Every game has one book per language (``mulle.md`` in English, ``mulle.sv.md``, ``mulle.de.md``) with
the same rule ids, so a refusal's link to ``#MULLE-CAP-4`` lands on that rule in the reader's language.
Links carry the language (``?lang=sv``): each language is its own page for the offline cache."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, abort, current_app, has_request_context, render_template, request
from flask_babel import get_locale
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
    lang: str = "en"

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


def book_path(game: str, lang: str = "en") -> Path:
    return BOOKS / (f"{game}.md" if lang == "en" else f"{game}.{lang}.md")


@lru_cache(maxsize=64)
def load_book(game: str, lang: str = "en") -> Book | None:
    """The book as written in ``lang``, or None when that language has none (no silent fallback)."""
    path = book_path(game, lang)
    if not path.exists():
        return None
    return parse_book(path.read_text(encoding="utf-8"), game, lang)


def parse_book(text: str, title: str = "", lang: str = "en") -> Book:
    """Headings, rules (``* **ID** text``) and paragraphs. A paragraph runs until a blank line and a
    rule until the next rule, heading or blank line, as in Markdown: the books wrap their lines."""
    intro: list[str] = []
    sections: list[Section] = []
    current: Section | None = None
    # What the next plain line continues: a paragraph, a rule, or nothing after a blank line.
    open_paragraph: list[str] | None = None
    open_rule: Rule | None = None
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            open_paragraph = open_rule = None
        elif stripped.startswith("# "):
            title, open_paragraph, open_rule = stripped[2:], None, None
        elif stripped.startswith(("## ", "### ")):
            current = Section(stripped.lstrip("#").strip())
            sections.append(current)
            open_paragraph = open_rule = None
        elif match := _RULE.match(stripped):
            if current is None:
                current = Section("")
                sections.append(current)
            open_rule, open_paragraph = Rule(match.group(1), match.group(2)), None
            current.rules.append(open_rule)
        elif open_rule is not None:
            open_rule.text += " " + stripped
        elif open_paragraph is not None:
            open_paragraph[-1] += " " + stripped
        else:
            open_paragraph = current.intro if current else intro
            open_paragraph.append(stripped)
    return Book(title, intro, sections, lang)


def book_language() -> str:
    """The reader's language (``?lang=`` first, then the session, then the browser's)."""
    lang = str(get_locale() or "en")
    return lang if lang in current_app.config["LANGUAGES"] else "en"


@bp.url_defaults
def _link_in_reader_language(endpoint: str, values: dict[str, object]) -> None:
    """Every link to the rule book names the language it was made in, so a refusal on a Swedish
    screen opens the Swedish book and each language's page is cached offline on its own. Without a
    request (a link built for a message or a log) there is no reader, and the link leaves it open."""
    if has_request_context():
        values.setdefault("lang", book_language())


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


def reader_book(game: str) -> Book | None:
    """The book in the reader's language; English only where a translation is missing."""
    if game not in RULES:
        return None
    return load_book(game, book_language()) or load_book(game)


@bp.get("/")
def index() -> str:
    books = [(g, reader_book(g)) for g in RULES]
    return render_template("rulebook_index.html", books=[(g, b) for g, b in books if b])


@bp.get("/<game>")
def book(game: str) -> str:
    loaded = reader_book(game)
    if loaded is None:
        abort(404)
    table_id = request.args.get("table")
    return render_template("rulebook.html", game=game, book=loaded, inline=inline,
                           house=house_rules(game, table_id), table_id=table_id)
