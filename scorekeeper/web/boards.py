"""The cribbage board of Tomelilla Mulle as SVG: one 61-hole street per side (2–4 sides), laid out
"out and back" so it stays readable on a phone: holes 1–30 run left to right, 31–60 come back
underneath, and the game hole (61) sits at the start end, as on a real one-lap board.

Each side has two pegs that leapfrog as on a real board: the front peg stands in the hole of the
score, the back peg in the hole of the score before the latest points (the engine's
``previous_scores``). Hole numbers are printed every five holes; a gap after every fifth hole
groups them as on wood. Pegs carry ``data-peg`` (front/back), ``data-hole`` (0 = start, 61 = the
game hole) and ``data-score``, and a spoken summary is the SVG's label, so nothing depends on
colour alone: every street is named.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from markupsafe import Markup, escape

from scorekeeper.localize import gettext as _
from scorekeeper.localize import language

PEG_COLOURS = ("#0b4f2f", "#8b1a1a", "#1a3f8b", "#111111")
STREET_COLOURS = ("#2f8f5f", "#c0504d", "#4f7fc0", "#555555")
HOLES = 60            # holes 1..60 along a street; 61 is the game hole
COLS = HOLES // 2     # 30 out, 30 back
STEP, GROUP_GAP = 11.0, 6.0
START_X, FIRST_X = 14.0, 32.0
LANE_H, TOP = 64.0, 4.0
OUT_DY, BACK_DY = 30.0, 44.0   # the two rows inside a lane
WIDTH = FIRST_X + (COLS - 1) * STEP + (COLS - 1) // 5 * GROUP_GAP + 14


def _col_x(col: int) -> float:
    """x of column 1..30 with a gap after every fifth hole."""
    return FIRST_X + (col - 1) * STEP + ((col - 1) // 5) * GROUP_GAP


def hole_xy(hole: int, lane_top: float, target: int = HOLES + 1) -> tuple[float, float]:
    """Where hole ``hole`` of a street is: 0 the start hole, 1–30 out, 31–60 back, 61 the game hole."""
    if hole <= 0:
        return START_X, lane_top + OUT_DY
    if hole >= target:
        return START_X, lane_top + BACK_DY
    if hole <= COLS:
        return _col_x(hole), lane_top + OUT_DY
    return _col_x(HOLES + 1 - hole), lane_top + BACK_DY


def _peg(kind: str, hole: int, score: int, lane_top: float, side: int, label: str, target: int) -> str:
    x, y = hole_xy(hole, lane_top, target)
    front = kind == "front"
    name = _("%(side)s: front peg at %(n)s", side=label, n=score) if front else \
        _("%(side)s: back peg at %(n)s", side=label, n=score)
    faded = "" if front else ' opacity="0.6"'
    return (f'<circle class="peg {kind}" cx="{x:.1f}" cy="{y:.1f}" r="{5.4 if front else 4.4}" '
            f'fill="{PEG_COLOURS[side % 4]}" stroke="#fff" stroke-width="1.4"{faded} '
            f'data-side="{side}" data-peg="{kind}" '
            f'data-hole="{hole}" data-score="{score}"><title>{escape(name)}</title></circle>')


def _lane(side: int, label: str, score: int, back: int, target: int) -> list[str]:
    top = TOP + LANE_H * side
    out_y, back_y = top + OUT_DY, top + BACK_DY
    right = _col_x(COLS)
    parts = [f'<g class="track t{side % 8}" data-side="{side}">',
             f'<rect class="street" x="{START_X - 9:.1f}" y="{out_y - 8:.1f}" width="{right - START_X + 18:.1f}" '
             f'height="{BACK_DY - OUT_DY + 16:.1f}" rx="8" fill="{STREET_COLOURS[side % 4]}" fill-opacity="0.22"/>',
             f'<text class="who" x="{START_X - 8:.1f}" y="{top + 12:.1f}" font-size="11" font-weight="700" '
             f'fill="#1b1208">{escape(label[:24])} <tspan class="score" font-size="12" font-weight="800">{score}'
             f'</tspan></text>']
    for col in range(5, COLS + 1, 5):  # hole numbers: out above the street, back below it
        parts.append(f'<text class="num" x="{_col_x(col):.1f}" y="{out_y - 10:.1f}" text-anchor="middle" '
                     f'font-size="8" fill="#1b1208">{col}</text>')
        back_hole = HOLES + 1 - (col - 4)  # the back hole under column col-4: 60, 55, …, 35
        parts.append(f'<text class="num" x="{_col_x(col - 4):.1f}" y="{back_y + 17:.1f}" text-anchor="middle" '
                     f'font-size="8" fill="#1b1208">{back_hole}</text>')
    parts.append(f'<text class="num game" x="{START_X:.1f}" y="{back_y + 17:.1f}" text-anchor="middle" '
                 f'font-size="8" font-weight="700" fill="#1b1208">{target}</text>')
    parts.append(f'<circle class="hole start" cx="{START_X:.1f}" cy="{out_y:.1f}" r="3.2" fill="#3b2a14"/>')
    # Holes 1–60: one rectangle filled with the five-hole pattern (both rows of a lane), not 60
    # circles: a move's answer redraws the board, and the circles were a quarter of its bytes.
    parts.append(f'<rect class="holes" x="{FIRST_X - _PAD:.1f}" y="{out_y - _PAD:.1f}" '
                 f'width="{_GROUP_W * COLS // 5:.1f}" height="{BACK_DY - OUT_DY + 2 * _PAD:.1f}" fill="url(#ml-holes)"/>')
    parts.append(f'<circle class="hole game" cx="{START_X:.1f}" cy="{back_y:.1f}" r="4.6" fill="#1b1208"/>')
    if back != score:
        parts.append(_peg("back", _hole(back, target), back, top, side, label, target))
    parts.append(_peg("front", _hole(score, target), score, top, side, label, target))
    parts.append("</g>")
    return parts


_PAD = 3.0                      # room around a hole inside the pattern's tile
_GROUP_W = 5 * STEP + GROUP_GAP  # five holes and the gap after them


def _holes_pattern() -> str:
    """Five holes of both rows of a lane, tiled along every street (``userSpaceOnUse``: the tile
    starts at the first hole of each lane, as the lanes are ``LANE_H`` apart)."""
    circles = "".join(f'<circle class="hole" cx="{_PAD + k * STEP:.1f}" cy="{y:.1f}" r="2.4" fill="#3b2a14"/>'
                      for y in (_PAD, _PAD + BACK_DY - OUT_DY) for k in range(5))
    return (f'<defs><pattern id="ml-holes" patternUnits="userSpaceOnUse" x="{FIRST_X - _PAD:.1f}" '
            f'y="{TOP + OUT_DY - _PAD:.1f}" width="{_GROUP_W:.1f}" height="{LANE_H:.1f}">{circles}</pattern></defs>')


def _hole(score: int, target: int) -> int:
    return max(0, min(score, target))


def cribbage_board(labels: Sequence[str], scores: Sequence[int], previous: Sequence[int],
                   target: int = HOLES + 1, title: str = "") -> Markup:
    """One street per side (``labels[i]``), front peg at ``scores[i]``, back peg at ``previous[i]``."""
    # Most moves score nothing, and the board is then drawn as it was: kept by what it shows and
    # the reader's language (a twentieth of a move's Python on a phone keeping a table alone).
    if type(title) is str and all(type(label) is str for label in labels):  # markup draws otherwise than equal text
        return _board(tuple(labels), tuple(scores), tuple(previous), target, title, language())
    return _board.__wrapped__(tuple(labels), tuple(scores), tuple(previous), target, title, language())


@lru_cache(maxsize=256)
def _board(labels: tuple[str, ...], scores: tuple[int, ...], previous: tuple[int, ...], target: int, title: str,
           lang: str) -> Markup:
    count = len(labels)
    height = TOP + LANE_H * count + 2
    heading = title or _("Cribbage board")
    spoken = "; ".join(
        _("%(side)s %(score)s (before: %(before)s)", side=label, score=scores[i],
          before=previous[i] if i < len(previous) else 0)
        for i, label in enumerate(labels))
    out = [f'<svg class="board" viewBox="0 0 {WIDTH:.0f} {height:.0f}" role="img" '
           f'aria-label="{escape(heading)}: {escape(spoken)}">',
           f"<title>{escape(heading)}: {escape(spoken)}</title>",
           _holes_pattern(),
           f'<rect class="wood" x="0" y="0" width="{WIDTH:.0f}" height="{height:.0f}" rx="10" fill="#c79a5b"/>']
    for i, label in enumerate(labels):
        score = max(0, scores[i])
        back = max(0, previous[i]) if i < len(previous) else 0
        out.extend(_lane(i, label, score, back, target))
    out.append("</svg>")
    return Markup("".join(out))
