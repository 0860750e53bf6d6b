"""Small inline SVG charts. Lines differ by dash pattern and carry their label at the end, so
they are told apart without colour."""

from __future__ import annotations

from collections.abc import Sequence

from markupsafe import Markup, escape

DASHES = ("", "6 4", "2 3", "10 3 2 3", "1 5", "8 2", "4 4 1 4", "12 4")
WIDTH, HEIGHT, PAD_L, PAD_R, PAD_Y = 320, 160, 28, 64, 12


def line_chart(labels: Sequence[str], rows: Sequence[Sequence[float]], *, target: float | None = None,
               title: str = "") -> Markup:
    """``rows[t][i]`` is side i's value after step t."""
    if len(rows) < 2 or not labels:
        return Markup("")
    values = [v for row in rows for v in row] + ([target] if target is not None else [])
    low, high = min(values), max(values)
    if high == low:
        high = low + 1
    steps = len(rows) - 1
    plot_w = WIDTH - PAD_L - PAD_R

    def x(t: int) -> float:
        return PAD_L + plot_w * t / steps

    def y(v: float) -> float:
        return PAD_Y + (HEIGHT - 2 * PAD_Y) * (high - v) / (high - low)

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        f'<line class="axis" x1="{PAD_L}" y1="{y(low):.1f}" x2="{WIDTH - PAD_R}" y2="{y(low):.1f}"/>',
        f'<text class="tick" x="{PAD_L - 4}" y="{y(high) + 4:.1f}" text-anchor="end">{high:g}</text>',
        f'<text class="tick" x="{PAD_L - 4}" y="{y(low) + 4:.1f}" text-anchor="end">{low:g}</text>',
    ]
    if target is not None:
        parts.append(f'<line class="target" x1="{PAD_L}" y1="{y(target):.1f}" x2="{WIDTH - PAD_R}" y2="{y(target):.1f}"/>')
    label_y = _spread([y(rows[-1][i]) + 4 for i in range(len(labels))], gap=11)
    for i, label in enumerate(labels):
        points = " ".join(f"{x(t):.1f},{y(row[i]):.1f}" for t, row in enumerate(rows))
        dash = DASHES[i % len(DASHES)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        end = rows[-1][i]
        parts.append(f'<polyline class="series s{i % 8}" points="{points}"{dash_attr}/>')
        parts.append(f'<text class="label s{i % 8}" x="{WIDTH - PAD_R + 4}" y="{label_y[i]:.1f}">'
                     f"{escape(_fit(label, f' {end:g}'))}</text>")
    parts.append("</svg>")
    return Markup("".join(parts))


_LABEL_ROOM = PAD_R - 6  # the right margin the end labels have, in the chart's units (10 px type)
_NARROW, _WIDE = frozenset("iIljtf.,:;|!'1 ()-"), frozenset("WMmw@%")


def _width(text: str) -> float:
    """Roughly how wide ``text`` is in 10 px sans-serif type (no font metrics at hand here)."""
    return sum(3.5 if ch in _NARROW else 9.0 if ch in _WIDE else 6.0 for ch in text)


def _fit(name: str, value: str) -> str:
    """The end label: the value always whole, the name cut (…) to what is left of the margin —
    the SVG clips at its edge, and a long name used to push the number itself out of sight."""
    room = _LABEL_ROOM - _width(value)
    if _width(name) <= room:
        return name + value
    cut = name
    while cut and _width(cut) + _width("…") > room:
        cut = cut[:-1]
    return (cut + "…" if cut else "") + value


def _spread(ys: Sequence[float], gap: float) -> list[float]:
    """End labels at least ``gap`` apart (sides on the same total would print over each other),
    kept in their order and as near their lines as the spacing allows."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    placed = list(ys)
    for before, after in zip(order, order[1:], strict=False):
        placed[after] = max(placed[after], placed[before] + gap)
    overflow = placed[order[-1]] - (HEIGHT - 2) if order else 0
    if overflow > 0:  # pushed off the bottom: move the whole run up
        for i in order:
            placed[i] -= overflow
    return placed
