"""Where a crack goes after a move (X-3), and V-2's care for the way home."""

from __future__ import annotations

from collections.abc import Iterable

from domain.nanuuk.board import Cell, Ice, Line, line
from domain.nanuuk.state import State

C, D = "C", "d"


def free(state: State, lines: Iterable[Line]) -> list[Line]:
    return [side for side in lines if side not in state.cracks]


def crack_choices(state: State, cell: Cell) -> tuple[str, list[Line]]:
    """X-3: the kind ("C" or "d") and the free lines of the first kind that has one (none: no
    crack); with V-2, of those the ones that cut no hunter off from every igloo, when any."""
    ice = state.rules.ice
    for kind, lines in ((C, ice.c_lines(cell)), (D, ice.d_lines(cell))):
        choices = free(state, lines)
        if choices:
            if state.rules.options.get("keep_igloo_reachable"):
                choices = _blocking_nobody(state, choices) or choices
            return kind, choices
    return D, []


def reaches_igloo(ice: Ice, cracks: frozenset[Line], start: Cell) -> bool:
    """Whether a walk over uncracked lines leads from `start` to an igloo (pieces aside)."""
    seen, todo = {start}, [start]
    while todo:
        cell = todo.pop()
        if ice.is_igloo(cell):
            return True
        for near in ice.near(cell):
            if near not in seen and line(cell, near) not in cracks:
                seen.add(near)
                todo.append(near)
    return False


def _blocking_nobody(state: State, choices: list[Line]) -> list[Line]:
    """V-2: the lines whose crack leaves every hunter that reaches an igloo still reaching one."""
    ice = state.rules.ice
    cells = {p.cell for p in state.pieces if p.kind == "hunter" and p.cell is not None and not p.retired}
    homeward = [c for c in cells if reaches_igloo(ice, state.cracks, c)]
    return [side for side in choices if all(reaches_igloo(ice, state.cracks | {side}, c) for c in homeward)]
