"""The state of a Nanuuk! game: an immutable value rebuilt by folding its events."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from domain.nanuuk.board import Cell, Line
from domain.nanuuk.rules import POINTS, Rules

T = TypeVar("T")


def changed(value: T, **changes: Any) -> T:
    """`value` with some fields changed, as dataclasses.replace but without rerunning the
    generated __init__: searches fold hundreds of thousands of events, and replace is most of
    their cost. Only for this module's frozen dataclasses, which derive nothing at init."""
    new = object.__new__(type(value))
    fields = new.__dict__
    fields.update(value.__dict__)
    fields.update(changes)
    return new


# Phases: "layout" waits for the system's draw of the set-up (N-2, V-3), "placing" for the
# pieces' start cells (N-3, L-2), "play" for moves, "ended" takes nothing.
LAYOUT, PLACING, PLAY, ENDED = "layout", "placing", "play", "ended"

# Stages of a turn under way: which commands the active seat may give next (stage.py).
MOVE, STEP, TAKE, IGLOO, CRACK = "move", "step", "take", "igloo", "crack"


@dataclass(frozen=True)
class Piece:
    kind: str  # "hunter", "bear" or "inuk"
    seat: int | None  # who moves it; None for Nanuuk!'s bears and L-6's shared bears
    cell: Cell | None = None  # None until placed, and once out
    retired: bool = False  # N-10
    out: bool = False  # L-4, L-5: off the ice


@dataclass(frozen=True)
class Sheet:
    """A hunter's player sheet (N-1): what the hunter carries and what lies in the igloo."""

    carried: frozenset[str] = frozenset({"harpoon"})
    animals: frozenset[str] = frozenset()  # carried, at most one of each kind
    inuk: bool = False  # an Inuk walks with the hunter
    igloo: frozenset[str] = frozenset({"husky", "sled", "kayak"})  # equipment on the igloo side
    brought: Mapping[str, int] = field(default_factory=dict)  # animals in the igloo by kind
    inuit: int = 0  # Inuit in the igloo

    def points(self) -> int:
        """N-11: the animals carried and in the igloo."""
        carried = sum(POINTS[a] for a in self.animals)
        return carried + sum(POINTS[a] * n for a, n in self.brought.items())


@dataclass(frozen=True)
class Turn:
    """What the active seat did so far this turn.

    `part` counts the moves done (L-6 has two a turn: a bear's, then the Inuk's); `piece` is
    the one moving now (None between moves) and `cell` where it stands. `more` steps it may
    still take (a double move, a learning-game bear); `crack_each`: a crack follows every
    step, else one at the end (V-1, L-5); `must_step`: the next step is not optional. The
    flags say which of the cell's dealings are done: `took` (N-5), `dealt` (N-7), `cracked`.
    """

    part: int = 0
    piece: int | None = None
    cell: Cell | None = None
    more: int = 0
    crack_each: bool = True
    must_step: bool = False
    moved: bool = False  # a piece moved this turn (N-10)
    took: bool = False
    dealt: bool = False
    cracked: bool = False


NEW_TURN = Turn()


@dataclass(frozen=True)
class State:
    rules: Rules
    names: tuple[str, ...]
    phase: str
    active: int
    first: int
    pieces: tuple[Piece, ...]
    tokens: Mapping[Cell, str] = field(default_factory=dict)  # Nanuuk!: animals and Inuit on the ice
    cracks: frozenset[Line] = frozenset()
    sheets: tuple[Sheet, ...] = ()  # per hunter, by piece number (hunters come first)
    to_place: tuple[tuple[int, int], ...] = ()  # (seat, piece) still to place, next first
    turn: Turn = NEW_TURN
    idle: int = 0  # turns in a row in which no piece moved (N-10)
    gone: tuple[int, ...] = ()  # seats out, in the order they went (L-4)
    result: dict[str, Any] | None = None

    @property
    def seats(self) -> int:
        return self.rules.seats

    @property
    def scores(self) -> list[int]:
        """Each seat's score: the final totals once ended, else N-11's count so far (animals,
        and 2 for each hunter in an igloo); 0 in the learning games until they end."""
        if self.result is not None:
            return list(self.result["totals"])
        scores = [0] * self.seats
        for n, sheet in enumerate(self.sheets):
            piece = self.pieces[n]
            if piece.seat is not None:
                home = piece.cell is not None and self.rules.ice.is_igloo(piece.cell)
                scores[piece.seat] += sheet.points() + 2 * home
        return scores
