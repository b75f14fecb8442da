"""Board data of the island games: islands, their places, bridge lines and sea spaces."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

Line = tuple[str, str]


@dataclass(frozen=True)
class Island:
    name: str
    places: int
    x: float
    y: float


@dataclass(frozen=True)
class Board:
    """Static board facts; lines are sorted pairs, indexed by their position in `lines`."""

    name: str
    islands: tuple[Island, ...]
    lines: tuple[Line, ...]
    sea_spaces: tuple[tuple[str, str, str], ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(i.name for i in self.islands)

    def island(self, name: str) -> Island:
        return self._islands[name]

    def places(self, name: str) -> int:
        return self._islands[name].places

    def line_index(self, a: str, b: str) -> int | None:
        """Index of the line joining a and b in either order, or None."""
        return self._line_index.get(_pair(a, b))

    def lines_of(self, name: str) -> tuple[int, ...]:
        """Indexes of every line touching island `name`."""
        return self._lines_of[name]

    def adjacent(self, a: str, b: str) -> bool:
        return self.line_index(a, b) is not None

    def sea_lines(self, sea: int) -> tuple[int, ...]:
        """The three lines bounding sea space `sea` (S-5 encloses a ship with them)."""
        return _sea_lines(self)[sea]

    def sea_neighbours(self, sea: int) -> tuple[tuple[int, int], ...]:
        """(neighbouring sea space, the line they share) pairs (S-4 moves across that line)."""
        return _sea_neighbours(self)[sea]

    def seas_of(self, name: str) -> tuple[int, ...]:
        """Sea spaces that island `name` borders."""
        return tuple(n for n, sea in enumerate(self.sea_spaces) if name in sea)

    def sea_index(self, islands: tuple[str, ...] | list[str]) -> int | None:
        key = tuple(sorted(islands))
        return self.sea_spaces.index(key) if key in self.sea_spaces else None

    @property
    def _islands(self) -> dict[str, Island]:
        return _island_map(self)

    @property
    def _line_index(self) -> dict[Line, int]:
        return _line_map(self)

    @property
    def _lines_of(self) -> dict[str, tuple[int, ...]]:
        return _touching_map(self)


def _pair(a: str, b: str) -> Line:
    return (a, b) if a <= b else (b, a)


@cache
def _island_map(board: Board) -> dict[str, Island]:
    return {i.name: i for i in board.islands}


@cache
def _line_map(board: Board) -> dict[Line, int]:
    return {line: n for n, line in enumerate(board.lines)}


@cache
def _touching_map(board: Board) -> dict[str, tuple[int, ...]]:
    return {
        i.name: tuple(n for n, line in enumerate(board.lines) if i.name in line)
        for i in board.islands
    }


@cache
def _sea_lines(board: Board) -> tuple[tuple[int, ...], ...]:
    result = []
    for a, b, c in board.sea_spaces:
        lines = (board.line_index(a, b), board.line_index(a, c), board.line_index(b, c))
        result.append(tuple(n for n in lines if n is not None))
    return tuple(result)


@cache
def _sea_neighbours(board: Board) -> tuple[tuple[tuple[int, int], ...], ...]:
    lines = _sea_lines(board)
    return tuple(
        tuple(
            (other, shared)
            for other in range(len(lines))
            if other != sea
            for shared in set(lines[sea]) & set(lines[other])
        )
        for sea in range(len(lines))
    )


@cache
def load_board(file_stem: str) -> Board:
    """The board of `file_stem` (e.g. "kahuna") from the package's JSON data."""
    raw = json.loads(resources.files(__package__).joinpath(f"boards/{file_stem}.json").read_text())
    islands = tuple(
        Island(i["name"], int(i["places"]), float(i["x"]), float(i["y"])) for i in raw["islands"]
    )
    lines = tuple(sorted(_pair(a, b) for a, b in raw["bridges"]))
    seas = tuple(tuple(sorted(s)) for s in raw.get("sea_spaces", ()))
    board = Board(raw["board"], islands, lines, seas)
    _check(board)
    return board


def _check(board: Board) -> None:
    # The board files are hand-made; a wrong place count would silently skew majorities.
    for island in board.islands:
        touching = len(board.lines_of(island.name))
        if touching != island.places:
            raise ValueError(f"{board.name}: {island.name} has {touching} lines, {island.places} places")
    for sea, lines in enumerate(board.sea_lines(n) for n in range(len(board.sea_spaces))):
        if len(lines) != 3:
            raise ValueError(f"{board.name}: sea space {board.sea_spaces[sea]} lacks a bounding line")
