"""The hex grid: flat-topped hexes in offset columns, odd columns half a hex lower ("odd-q")."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from domain.paradise.tables import BOARD, Hex

_EVEN = ((1, -1), (1, 0), (-1, -1), (-1, 0), (0, -1), (0, 1))
_ODD = ((1, 0), (1, 1), (-1, 0), (-1, 1), (0, -1), (0, 1))
HEXES = BOARD.hexes


def _around(at: Hex) -> tuple[Hex, ...]:
    col, row = at
    steps = _ODD if col % 2 else _EVEN
    return tuple((col + dc, row + dr) for dc, dr in steps if (col + dc, row + dr) in HEXES)


NEIGHBOURS: dict[Hex, tuple[Hex, ...]] = {at: _around(at) for at in HEXES}
"""The map is printed: each hex's neighbours, worked out once (the searches ask millions of times)."""
ADJACENT: dict[Hex, frozenset[Hex]] = {at: frozenset(near) for at, near in NEIGHBOURS.items()}


def neighbours(at: Hex) -> tuple[Hex, ...]:
    """The hexes of the map next to `at`."""
    near = NEIGHBOURS.get(at)
    return _around(at) if near is None else near


def _cube(at: Hex) -> tuple[int, int, int]:
    col, row = at
    z = row - (col - (col & 1)) // 2
    return col, z, -col - z


def distance(a: Hex, b: Hex) -> int:
    """Hexes between `a` and `b` as the crow flies."""
    (x1, z1, y1), (x2, z2, y2) = _cube(a), _cube(b)
    return max(abs(x1 - x2), abs(y1 - y2), abs(z1 - z2))


def reachable(starts: Iterable[Hex], passable: Callable[[Hex], bool]) -> set[Hex]:
    """The hexes reached from `starts` stepping only through passable hexes (starts included)."""
    seen = {h for h in starts}
    frontier = list(seen)
    while frontier:
        at = frontier.pop()
        for nxt in neighbours(at):
            if nxt not in seen and passable(nxt):
                seen.add(nxt)
                frontier.append(nxt)
    return seen


def as_hex(raw: object) -> Hex | None:
    """A hex from a command's [col, row], or None when it is not one of the map's."""
    # The checks spelled out for the pair, without a union type and a generator made per call:
    # a move's command names each hex of its path.
    if not isinstance(raw, _PAIR) or len(raw) != 2:
        return None
    col, row = raw
    if not isinstance(col, int) or isinstance(col, bool) or not isinstance(row, int) or isinstance(row, bool):
        return None
    at = (int(col), int(row))
    return at if at in HEXES else None


_PAIR = (list, tuple)
