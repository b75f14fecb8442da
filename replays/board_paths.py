"""Where a bridge line is drawn: from circle edge to circle edge, bent around islands in its way.

A line drawn straight through a third island's circle reads as a bridge of that island
(Kahuna's COCO–KAHU line passes over GOLA). Such a line becomes a quadratic curve bowed
just far enough to the freer side that no point of it comes within a margin of any
island that is not one of its ends. Pure geometry in pixels; the same input, the same path.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

Point = tuple[float, float]
Circle = tuple[Point, float]  # centre, radius

CLEARANCE = 6.0  # pixels kept between a line and any island it does not join
INSET = 2.0  # a line starts this far inside its end's circle, so it meets the shore
SAMPLES = 64
BOW_STEP = 4.0
MAX_BOW = 400.0


@dataclass(frozen=True)
class Curve:
    """A quadratic Bézier; a straight segment when `control` is the midpoint."""

    start: Point
    control: Point
    end: Point

    def at(self, t: float) -> Point:
        u = 1.0 - t
        return (
            u * u * self.start[0] + 2 * u * t * self.control[0] + t * t * self.end[0],
            u * u * self.start[1] + 2 * u * t * self.control[1] + t * t * self.end[1],
        )

    def part(self, t0: float, t1: float) -> Curve:
        """The piece between t0 and t1 (the polar form of the quadratic gives its control point)."""
        (x0, y0), (x1, y1), (x2, y2) = self.start, self.control, self.end
        a, b, c = (1 - t0) * (1 - t1), (1 - t0) * t1 + t0 * (1 - t1), t0 * t1
        control = (a * x0 + b * x1 + c * x2, a * y0 + b * y1 + c * y2)
        return Curve(self.at(t0), control, self.at(t1))

    def points(self, samples: int = SAMPLES) -> list[Point]:
        return [self.at(n / samples) for n in range(samples + 1)]

    @property
    def straight(self) -> bool:
        mid = ((self.start[0] + self.end[0]) / 2, (self.start[1] + self.end[1]) / 2)
        return math.dist(mid, self.control) < 1e-9


def outline(curve: Curve, half_width: float, samples: int = 16) -> list[Point]:
    """A closed band `half_width` either side of `curve`: a click target with an area (an
    SVG path's box ignores its stroke, so a level line's box would have no height)."""
    points = curve.points(samples)
    left, right = [], []
    for n, (x, y) in enumerate(points):
        (ax, ay), (bx, by) = points[max(n - 1, 0)], points[min(n + 1, samples)]
        length = math.hypot(bx - ax, by - ay) or 1.0
        nx, ny = -(by - ay) / length * half_width, (bx - ax) / length * half_width
        left.append((x + nx, y + ny))
        right.append((x - nx, y - ny))
    return left + right[::-1]


@lru_cache(maxsize=1024)
def line_path(a: Circle, b: Circle, others: tuple[Circle, ...]) -> Curve:
    """The drawn path of the line joining circles `a` and `b`, clear of every circle in `others`.

    Cached: every step of a replay draws the same board, and the search is the costly part.
    """
    (pa, _), (pb, _) = a, b
    mid = ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2)
    length = math.dist(pa, pb) or 1.0
    normal = (-(pb[1] - pa[1]) / length, (pb[0] - pa[0]) / length)
    bow = 0.0
    while bow <= MAX_BOW:
        for side in (1.0, -1.0) if bow else (1.0,):
            control = (mid[0] + side * bow * normal[0], mid[1] + side * bow * normal[1])
            curve = _trimmed(Curve(pa, control, pb), a, b)
            if clear_of(curve, others):
                return curve
        bow += BOW_STEP
    return _trimmed(Curve(pa, mid, pb), a, b)  # no bow clears: boards are not drawn that tight


def clear_of(curve: Curve, others: Sequence[Circle], clearance: float = CLEARANCE) -> bool:
    """True when no sampled point of `curve` comes within `clearance` of any circle of `others`."""
    return all(math.dist(p, centre) >= r + clearance for p in curve.points() for centre, r in others)


def _trimmed(curve: Curve, a: Circle, b: Circle) -> Curve:
    """`curve` from where it leaves `a`'s circle to where it reaches `b`'s (both less the inset)."""
    t0 = _crossing(curve, a, leaving=True)
    t1 = _crossing(curve, b, leaving=False)
    return curve.part(t0, t1) if t0 < t1 else curve


def _crossing(curve: Curve, circle: Circle, leaving: bool) -> float:
    """The t where the curve crosses the circle (radius less INSET), by bisection."""
    centre, r = circle
    r -= INSET
    lo, hi = (0.0, 0.5) if leaving else (0.5, 1.0)
    for _ in range(40):
        t = (lo + hi) / 2
        inside = math.dist(curve.at(t), centre) < r
        if inside == leaving:
            lo = t
        else:
            hi = t
    return (lo + hi) / 2


Box = tuple[float, float, float, float]  # left, top, right, bottom

# Marker places on the shore, top right first, then round the clock.
MARKER_ANGLES = tuple(math.radians(a) for a in (*range(-45, 360 - 45, 15),))


def marker_spot(circle: Circle, paths: Sequence[Curve], avoid: Sequence[Box], size: float) -> Point:
    """Where on the shore of `circle` a marker (half-width `size`) stands farthest from every
    drawn path nearby, its square overlapping none of the boxes `avoid` (name, god stone).

    Ties go to the earliest of MARKER_ANGLES, so a lone island keeps its marker top right.
    """
    (cx, cy), r = circle
    spots = [(cx + r * math.cos(a), cy + r * math.sin(a)) for a in MARKER_ANGLES]
    free = [s for s in spots if not any(_overlap(s, size, box) for box in avoid)] or spots
    near = [p for path in paths for p in path.points(32) if math.dist(p, (cx, cy)) < r + 3 * size]
    if not near:
        return free[0]
    room = [round(min(math.dist(spot, p) for p in near), 1) for spot in free]
    best = max(range(len(free)), key=lambda n: (room[n], -n))
    return free[best]


def _overlap(spot: Point, size: float, box: Box, margin: float = 2.0) -> bool:
    left, top, right, bottom = box
    x, y = spot
    size += margin
    return x + size > left and x - size < right and y + size > top and y - size < bottom
