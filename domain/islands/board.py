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
def load_board(file_stem: str) -> Board:
    """The board of `file_stem` (e.g. "kahuna") from the package's JSON data."""
    raw = json.loads(resources.files(__package__).joinpath(f"boards/{file_stem}.json").read_text())
    islands = tuple(
        Island(i["name"], int(i["places"]), float(i["x"]), float(i["y"])) for i in raw["islands"]
    )
    lines = tuple(sorted(_pair(a, b) for a, b in raw["bridges"]))
    seas = tuple(tuple(sorted(s)) for s in raw.get("sea_spaces", ()))
    board = Board(raw["board"], islands, lines, seas)  # type: ignore[arg-type]
    _check(board)
    return board


def _check(board: Board) -> None:
    # The board files are hand-made; a wrong place count would silently skew majorities.
    for island in board.islands:
        touching = len(board.lines_of(island.name))
        if touching != island.places:
            raise ValueError(f"{board.name}: {island.name} has {touching} lines, {island.places} places")
