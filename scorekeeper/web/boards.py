"""The cribbage board of Tomelilla Mulle as SVG: one 61-hole track per side, two pegs that
leapfrog (front peg = score, back peg = the score before), hole numbers every 5, the game hole."""

from __future__ import annotations

from collections.abc import Sequence

from markupsafe import Markup, escape

PEG_COLOURS = ("#0b4f2f", "#8b1a1a", "#1a3f8b", "#111111")
BACK_OPACITY = ' opacity="0.6"'
HOLES = 60          # holes 1..60 along the track; 61 is the game hole at its end
LEFT, TOP, STEP, GAP, TRACK_H = 44, 14, 9.0, 6.0, 40


def _hole_x(n: int) -> float:
    """x of hole n (1..60), with a gap after every fifth hole as on a real board; 0 = start."""
    if n <= 0:
        return LEFT - 14
    return LEFT + (n - 1) * STEP + ((n - 1) // 5) * GAP


def cribbage_board(labels: Sequence[str], scores: Sequence[int], previous: Sequence[int],
                   target: int = 61, title: str = "Cribbage board") -> Markup:
    game_x = _hole_x(HOLES) + STEP + GAP + 4
    width = game_x + 24
    height = TOP + TRACK_H * len(labels) + 8
    out = [f'<svg class="board" viewBox="0 0 {width:.0f} {height:.0f}" role="img" aria-label="{escape(title)}">',
           f"<title>{escape(title)}</title>",
           f'<rect class="wood" x="0" y="0" width="{width:.0f}" height="{height:.0f}" rx="10" fill="#c79a5b"/>']
    for n in range(5, HOLES + 1, 5):
        out.append(f'<text class="num" x="{_hole_x(n):.1f}" y="{TOP - 3}" text-anchor="middle" font-size="8" fill="#1b1208">{n}</text>')
    out.append(f'<text class="num" x="{game_x:.1f}" y="{TOP - 3}" text-anchor="middle" font-size="8" fill="#1b1208">{target}</text>')
    for i, label in enumerate(labels):
        y = TOP + TRACK_H * i + 22
        score = max(0, scores[i])
        back = max(0, previous[i]) if i < len(previous) else 0
        out.append(f'<g class="track t{i % 8}">')
        out.append(f'<text class="who" x="4" y="{y - 10}" font-size="10" font-weight="700" fill="#1b1208">{escape(label[:14])}</text>')
        for n in range(1, HOLES + 1):
            out.append(f'<circle class="hole" cx="{_hole_x(n):.1f}" cy="{y}" r="2.2" fill="#3b2a14"/>')
        out.append(f'<circle class="hole game" cx="{game_x:.1f}" cy="{y}" r="4" fill="#1b1208"/>')
        for peg, kind in ((back, "back"), (score, "front")):
            if kind == "back" and peg == score:
                continue
            x = game_x if peg >= target else _hole_x(peg)
            out.append(f'<circle class="peg {kind}" cx="{x:.1f}" cy="{y}" r="{5 if kind == "front" else 4}" '
                       f'fill="{PEG_COLOURS[i % 4]}" stroke="#fff" stroke-width="1.2"'
                       f'{BACK_OPACITY if kind == "back" else ""} data-peg="{kind}" data-hole="{peg}">'
                       f"<title>{escape(label)}: {peg}</title></circle>")
        out.append(f'<text class="score" x="{width - 4:.0f}" y="{y - 10}" text-anchor="end" font-size="10" font-weight="700" fill="#1b1208">{score}</text>')
        out.append("</g>")
    out.append("</svg>")
    return Markup("".join(out))
