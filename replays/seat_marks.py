"""How a seat is told apart on every board picture: its colour, its shape, and the marker
that shows both. The island and the hex renderers draw the same marker, so a player finds
their seat by the same cues in every game.
"""

from __future__ import annotations

from collections.abc import Sequence

# Okabe-Ito: told apart with every common colour-vision deficiency.
SEAT_COLOURS = ("#D55E00", "#0072B2", "#009E73", "#CC79A7")
# The second cue besides the colour, for players who tell no colours apart.
SEAT_SHAPES = ("circle", "square", "triangle", "diamond")


def seat_colour(seat: int) -> str:
    """The colour of `seat`'s bridges, markers, pieces and ships."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def seat_shape(seat: int) -> str:
    """The shape of `seat`'s markers: its cue besides the colour."""
    return SEAT_SHAPES[seat % len(SEAT_SHAPES)]


def num(value: float) -> str:
    """A coordinate with at most one decimal, never "-0": stable text for stable bytes."""
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def marker(seat: int, x: float, y: float, r: float, kind: str, stroke: float) -> str:
    """The seat's marker of radius `r` at x, y: its colour in its shape, outlined in white
    `stroke` pixels wide; `kind` is its class (what it marks)."""
    paint = f'fill="{seat_colour(seat)}" stroke="#ffffff" stroke-width="{num(stroke)}"'
    head = f'class="{kind}" data-seat="{seat}" data-shape="{seat_shape(seat)}"'
    shape = seat_shape(seat)
    if shape == "circle":
        return f'<circle {head} cx="{num(x)}" cy="{num(y)}" r="{num(r)}" {paint}/>'
    if shape == "square":
        s = r * 0.9
        box = f'x="{num(x - s)}" y="{num(y - s)}" width="{num(2 * s)}" height="{num(2 * s)}"'
        return f"<rect {head} {box} {paint}/>"
    if shape == "triangle":
        points = [(x, y - r * 1.15), (x + r * 1.1, y + r * 0.8), (x - r * 1.1, y + r * 0.8)]
    else:
        points = [(x, y - r * 1.2), (x + r * 1.1, y), (x, y + r * 1.2), (x - r * 1.1, y)]
    return f'<path {head} d="{_closed(points)}" {paint}/>'


def _closed(points: Sequence[tuple[float, float]]) -> str:
    return "M" + " L".join(f"{num(x)},{num(y)}" for x, y in points) + " Z"
