"""Board data of the island games: islands, their places, bridge lines and sea spaces."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
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
    # Lookups built once: the rules ask them millions of times in a search.
    _index: _Index = field(init=False, repr=False, compare=False, hash=False)
    # Per island: its position in `names`, its `line_mask` and its `places`, read in one look-up
    # where majorities are counted (every placement asks them of both ends of its line).
    shape: dict[str, tuple[int, int, int]] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        index = _Index.of(self)
        object.__setattr__(self, "_index", index)
        shape = {i.name: (index.position[i.name], index.line_mask[i.name], i.places) for i in self.islands}
        object.__setattr__(self, "shape", shape)

    @property
    def names(self) -> tuple[str, ...]:
        return self._index.names

    def index_of(self, name: str) -> int:
        """The island's position in `names` (the order of `State.control`)."""
        return self._index.position[name]

    def has_island(self, name: str) -> bool:
        return name in self._index.position

    def in_order(self, names: Iterable[str]) -> tuple[str, ...]:
        """The islands `names` once each, in the board's order.

        Every majority settled asks this of a line's ends or a few islands around it; the
        sets of islands one board has are few, so each is sorted once.
        """
        orders = self._index.orders
        if type(names) is tuple:  # a line's ends, asked after every placement: no set to make
            found = orders.get(names)
            if found is not None:
                return found
        chosen = frozenset(names)
        found = orders.get(chosen)
        if found is None:
            found = orders[chosen] = tuple(sorted(chosen, key=self._index.position.__getitem__))
        if type(names) is tuple:
            orders[names] = found
        return found

    def island(self, name: str) -> Island:
        return self._index.islands[name]

    def places(self, name: str) -> int:
        return self._index.islands[name].places

    def line_index(self, a: str, b: str) -> int | None:
        """Index of the line joining a and b in either order, or None."""
        return self._index.line_index.get((a, b))

    def lines_of(self, name: str) -> tuple[int, ...]:
        """Indexes of every line touching island `name`."""
        return self._index.lines_of[name]

    def line_mask(self, name: str) -> int:
        """The lines touching island `name` as bits (line n: 1 << n), as State.held has them."""
        return self._index.line_mask[name]

    def line_masks(self) -> tuple[int, ...]:
        """Every island's `line_mask`, in the order of `names` (and of `State.control`)."""
        return self._index.line_masks

    def adjacent(self, a: str, b: str) -> bool:
        return self.line_index(a, b) is not None

    def sea_lines(self, sea: int) -> tuple[int, ...]:
        """The three lines bounding sea space `sea` (S-5 encloses a ship with them)."""
        return self._index.sea_lines[sea]

    def sea_mask(self, sea: int) -> int:
        """The three lines bounding sea space `sea` as bits (line n: 1 << n), as State.held has them."""
        return self._index.sea_mask[sea]

    def sea_neighbours(self, sea: int) -> tuple[tuple[int, int], ...]:
        """(neighbouring sea space, the line they share) pairs (S-4 moves across that line)."""
        return self._index.sea_neighbours[sea]

    def seas_mask(self, name: str) -> int:
        """The sea spaces island `name` borders as bits (sea n: 1 << n), as State.fleets has them."""
        return self._index.seas_mask[name]

    def line_seas(self, line: int) -> tuple[int, ...]:
        """The sea spaces line `line` bounds (a bridge there can close them, S-5)."""
        return self._index.line_seas[line]

    def seas_of(self, name: str) -> tuple[int, ...]:
        """Sea spaces that island `name` borders."""
        return self._index.seas_of.get(name, ())

    def sea_index(self, islands: tuple[str, ...] | list[str]) -> int | None:
        return self._index.sea_index.get(tuple(sorted(islands)))


def _pair(a: str, b: str) -> Line:
    return (a, b) if a <= b else (b, a)


@dataclass(frozen=True)
class _Index:
    names: tuple[str, ...]
    position: dict[str, int]
    islands: dict[str, Island]
    line_index: dict[Line, int]  # both ways round: (a, b) and (b, a)
    lines_of: dict[str, tuple[int, ...]]
    line_mask: dict[str, int]
    line_masks: tuple[int, ...]
    sea_lines: tuple[tuple[int, ...], ...]
    sea_mask: tuple[int, ...]
    sea_neighbours: tuple[tuple[tuple[int, int], ...], ...]
    seas_of: dict[str, tuple[int, ...]]
    sea_index: dict[tuple[str, ...], int]
    seas_mask: dict[str, int]
    line_seas: tuple[tuple[int, ...], ...]
    # Filled as `in_order` meets sets of islands: at most one entry per subset of the board,
    # and one per tuple of names it is asked with (a line's ends, both ways round at most).
    orders: dict[frozenset[str] | tuple[str, ...], tuple[str, ...]] = field(default_factory=dict)

    @staticmethod
    def of(board: Board) -> _Index:
        line_index = {line: n for n, line in enumerate(board.lines)}
        sea_lines = tuple(
            tuple(
                n for n in (line_index.get(_pair(a, b)) for a, b in ((x, y), (x, z), (y, z))) if n is not None
            )
            for x, y, z in board.sea_spaces
        )
        lines_of = {
            i.name: tuple(n for n, line in enumerate(board.lines) if i.name in line) for i in board.islands
        }
        neighbours = tuple(
            tuple(
                (other, shared)
                for other in range(len(sea_lines))
                if other != sea
                for shared in sorted(set(sea_lines[sea]) & set(sea_lines[other]))
            )
            for sea in range(len(sea_lines))
        )
        line_mask = {name: sum(1 << n for n in lines) for name, lines in lines_of.items()}
        return _Index(
            names=tuple(i.name for i in board.islands),
            position={i.name: n for n, i in enumerate(board.islands)},
            islands={i.name: i for i in board.islands},
            line_index={**line_index, **{(b, a): n for (a, b), n in line_index.items()}},
            lines_of=lines_of,
            line_mask=line_mask,
            line_masks=tuple(line_mask[i.name] for i in board.islands),
            sea_lines=sea_lines,
            sea_mask=tuple(sum(1 << n for n in lines) for lines in sea_lines),
            sea_neighbours=neighbours,
            seas_of={
                i.name: tuple(n for n, sea in enumerate(board.sea_spaces) if i.name in sea)
                for i in board.islands
            },
            sea_index={tuple(sea): n for n, sea in enumerate(board.sea_spaces)},
            seas_mask={
                i.name: sum(1 << n for n, sea in enumerate(board.sea_spaces) if i.name in sea)
                for i in board.islands
            },
            line_seas=tuple(
                tuple(sea for sea, lines in enumerate(sea_lines) if n in lines)
                for n in range(len(board.lines))
            ),
        )


@cache
def load_board(file_stem: str) -> Board:
    """The board of `file_stem` (e.g. "kahuna") from the package's JSON data."""
    raw = json.loads(resources.files(__package__).joinpath(f"boards/{file_stem}.json").read_text())
    islands = tuple(Island(i["name"], int(i["places"]), float(i["x"]), float(i["y"])) for i in raw["islands"])
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
