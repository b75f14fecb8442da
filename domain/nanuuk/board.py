"""The ice of Nanuuk!: hexagonal cells in axial coordinates, their lines and the X-3 crack stars."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

Cell = tuple[int, int]
Line = tuple[Cell, Cell]
"""A side two cells of ice share: the two cells, the smaller first."""

DIRECTIONS: tuple[Cell, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""Neighbour offsets in turning order: two consecutive ones meet at a corner of the cell."""


def line(a: Cell, b: Cell) -> Line:
    return (a, b) if a < b else (b, a)


def neighbours(cell: Cell) -> tuple[Cell, ...]:
    q, r = cell
    return tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)


@dataclass(frozen=True)
class Ice:
    """The cells of ice one game plays on, with the lookups the rules ask all the time."""

    cells: tuple[Cell, ...]
    igloos: tuple[Cell, ...]
    water: tuple[Cell, ...]
    _near: dict[Cell, tuple[Cell, ...]] = field(init=False, repr=False, compare=False, hash=False)
    _stars: dict[Cell, tuple[Line, ...]] = field(init=False, repr=False, compare=False, hash=False)
    _sides: dict[Cell, tuple[Line, ...]] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        inside = frozenset(self.cells)
        near = {c: tuple(n for n in neighbours(c) if n in inside) for c in self.cells}
        object.__setattr__(self, "_near", near)
        object.__setattr__(self, "_sides", {c: tuple(line(c, n) for n in near[c]) for c in self.cells})
        object.__setattr__(self, "_stars", {c: _star(c, inside) for c in self.cells})

    @property
    def lines(self) -> tuple[Line, ...]:
        """Every line of the ice, sorted: the sides that may crack (X-1)."""
        return tuple(sorted({side for sides in self._sides.values() for side in sides}))

    def has(self, cell: Cell) -> bool:
        return cell in self._near

    def near(self, cell: Cell) -> tuple[Cell, ...]:
        """The neighbouring cells of ice."""
        return self._near[cell]

    def c_lines(self, cell: Cell) -> tuple[Line, ...]:
        """X-3's C lines of `cell`: at each corner, the side its two neighbours there share."""
        return self._stars[cell]

    def d_lines(self, cell: Cell) -> tuple[Line, ...]:
        """X-3's d lines of `cell`: its own sides shared with ice."""
        return self._sides[cell]

    def is_igloo(self, cell: Cell) -> bool:
        return cell in self.igloos


def _star(cell: Cell, inside: frozenset[Cell]) -> tuple[Line, ...]:
    around = neighbours(cell)
    pairs = ((around[i], around[(i + 1) % 6]) for i in range(6))
    return tuple(sorted(line(a, b) for a, b in pairs if a in inside and b in inside))


@cache
def board_data() -> dict[str, Any]:
    """The board file, as renderers draw it."""
    text = resources.files("domain.nanuuk").joinpath("boards/nanuuk.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _cells(rows: Iterable[Sequence[int]]) -> tuple[Cell, ...]:
    return tuple(sorted((int(q), int(r)) for q, r in rows))


@cache
def ice_for(left_out: str | None, igloos: bool = True) -> Ice:
    """The ice without the cells the board leaves out under `left_out` (a key of the board
    file, e.g. "not_in_3_player_game"); without igloos, their cells are plain ice (L-1)."""
    data = board_data()
    everything = _cells(data["cells"])
    water = frozenset(_cells(data[left_out])) if left_out else frozenset()
    cells = tuple(c for c in everything if c not in water)
    return Ice(cells, _cells(data["igloos"]) if igloos else (), tuple(sorted(water)))


def board(game: str) -> dict[str, Any]:
    """The board data of a Nanuuk! game (the same file for every game of the family)."""
    return board_data()
