"""Where a hexagonal board's cells and lines are drawn: pure geometry in pixels.

Cells are pointy-topped hexagons in axial coordinates (q, r): the six neighbours of a cell
differ by (1,0), (1,-1), (0,-1), (-1,0), (-1,1), (0,1), as the Nanuuk! board file says. A
line is the side two neighbouring cells share; it is named by the pair of cells, in order.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

Cell = tuple[int, int]
Point = tuple[float, float]
Line = tuple[Cell, Cell]

SQRT3 = math.sqrt(3.0)
NEIGHBOURS: tuple[Cell, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def centre(cell: Cell, size: float) -> Point:
    """The pixel centre of `cell` (before the picture's offset) for hexagons of radius `size`."""
    q, r = cell
    return size * SQRT3 * (q + r / 2), size * 1.5 * r


def corners(cell: Cell, size: float, origin: Point = (0.0, 0.0)) -> list[Point]:
    """The six corners of `cell`, clockwise from the top (pointy-topped)."""
    cx, cy = centre(cell, size)
    cx, cy = cx + origin[0], cy + origin[1]
    return [
        (cx + size * math.cos(math.radians(-90 + 60 * k)), cy + size * math.sin(math.radians(-90 + 60 * k)))
        for k in range(6)
    ]


def neighbours(cell: Cell) -> list[Cell]:
    q, r = cell
    return [(q + dq, r + dr) for dq, dr in NEIGHBOURS]


def line_key(a: Cell, b: Cell) -> Line:
    """The line between `a` and `b`, its cells in order: the same line whichever side names it."""
    return (a, b) if a <= b else (b, a)


def lines_of(cells: Iterable[Cell]) -> list[Line]:
    """Every side shared by two of `cells`, in order."""
    inside = set(cells)
    return sorted({line_key(c, n) for c in inside for n in neighbours(c) if n in inside})


def side(line: Line, size: float, origin: Point = (0.0, 0.0)) -> tuple[Point, Point]:
    """The two end points of the side the cells of `line` share."""
    a, b = line
    (ax, ay), (bx, by) = centre(a, size), centre(b, size)
    mx, my = (ax + bx) / 2 + origin[0], (ay + by) / 2 + origin[1]
    # The side is perpendicular to the centres' join, as long as a hexagon's side (= size).
    dx, dy = bx - ax, by - ay
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length * size / 2, dx / length * size / 2
    return (mx + nx, my + ny), (mx - nx, my - ny)


def bounds(cells: Iterable[Cell], size: float) -> tuple[float, float, float, float]:
    """The smallest box (left, top, right, bottom) holding every hexagon of `cells`."""
    points = [p for c in cells for p in corners(c, size)]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def cell_name(cell: Cell) -> str:
    """A cell as the renderer's hooks and the page name it: "q,r"."""
    return f"{cell[0]},{cell[1]}"


def line_name(line: Line) -> str:
    """A line as the renderer's hooks name it: its two cells joined by "|"."""
    return f"{cell_name(line[0])}|{cell_name(line[1])}"
