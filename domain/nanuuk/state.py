"""The state of a Nanuuk! game: an immutable value rebuilt by folding its events."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.nanuuk.board import Cell, Line
from domain.nanuuk.rules import Rules

# Phases: "layout" waits for the system's draw of the set-up (N-2, V-3), "placing" for the
# pieces' start cells (N-3, L-2), "play" for moves, "ended" takes nothing.
LAYOUT, PLACING, PLAY, ENDED = "layout", "placing", "play", "ended"

# Stages of a turn under way: which commands the active seat may give next.
MOVE, STEP, BEAR, TAKE, IGLOO, CRACK = "move", "step", "bear", "take", "igloo", "crack"


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


@dataclass(frozen=True)
class Stage:
    """The part of the active seat's turn under way.

    `piece` moves (or None before one is chosen); `cell` is where it stands now. `steps` it
    took this move; `more` steps it may still take (a double move); `crack_each`: a crack
    follows every step, else one at the end (V-1, L-5). `cracks_due` cells still owe their
    crack; `part` counts the parts of a turn done (L-6: the bear, then the Inuk).
    """

    name: str
    piece: int | None = None
    cell: Cell | None = None
    steps: int = 0
    more: int = 0
    crack_each: bool = True
    must_step: bool = False
    part: int = 0
    moved: bool = False  # a piece moved this turn (N-10)


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
    stage: Stage | None = None
    idle: int = 0  # turns in a row in which no piece moved (N-10)
    gone: tuple[int, ...] = ()  # seats out, in the order they went (L-4)
    result: dict[str, Any] | None = None

    @property
    def seats(self) -> int:
        return self.rules.seats
