"""Who may move, and where (X-2, N-6, N-8, L-3, L-5, L-6, L-8)."""

from __future__ import annotations

from domain.nanuuk.board import Cell, line
from domain.nanuuk.rules import BEAR_FLIGHT, BEAR_HUNT
from domain.nanuuk.state import Sheet, State


def parts(state: State) -> int:
    """Moves a turn holds: L-6 moves a bear, then one's Inuk; every other game one piece."""
    return 2 if state.rules.game == BEAR_FLIGHT else 1


def movers(state: State, seat: int, part: int) -> list[int]:
    """The pieces `seat` may move in this part of its turn (placed, not out nor retired)."""
    pieces = state.pieces
    if state.rules.game == BEAR_FLIGHT and part == 0:
        wanted = [n for n, p in enumerate(pieces) if p.kind == "bear"]
    elif state.rules.full:
        wanted = [n for n, p in enumerate(pieces) if p.kind == "hunter" and p.seat == seat]
    else:
        wanted = [n for n, p in enumerate(pieces) if p.seat == seat]
    return [n for n in wanted if pieces[n].cell is not None and not pieces[n].out and not pieces[n].retired]


def sheet_of(state: State, piece: int) -> Sheet | None:
    """A Nanuuk! hunter's player sheet (hunters come first among the pieces)."""
    return state.sheets[piece] if piece < len(state.sheets) else None


def others_at(state: State, cell: Cell, piece: int) -> list[int]:
    return [n for n, p in enumerate(state.pieces) if p.cell == cell and n != piece]


def bear_at(state: State, cell: Cell) -> int | None:
    """Nanuuk!'s bear standing on `cell`."""
    for n, p in enumerate(state.pieces):
        if p.cell == cell and p.kind == "bear":
            return n
    return None


def free_cells(state: State, hunter: int, target: Cell) -> list[Cell]:
    """N-6: where a bear chased from `target` may go once `hunter` stands there: cells with
    no piece, no token (animal or Inuk) and no igloo."""
    ice = state.rules.ice
    taken = {
        p.cell for n, p in enumerate(state.pieces) if n != hunter and p.cell is not None and p.cell != target
    }
    taken.add(target)
    return [c for c in ice.cells if c not in taken and c not in state.tokens and not ice.is_igloo(c)]


def _enterable(state: State, piece: int, target: Cell) -> bool:
    """X-2: one piece a cell, but hunters share igloos; N-6: a hunter with the harpoon enters a
    bear's cell when the bear has somewhere to go."""
    there = others_at(state, target, piece)
    if not there:
        return True
    if not state.rules.full:
        return False
    if state.rules.ice.is_igloo(target):
        return True
    sheet = sheet_of(state, piece)
    bear = bear_at(state, target)
    if sheet is None or bear is None or "harpoon" not in sheet.carried:
        return False
    return bool(free_cells(state, piece, target))


def steps(state: State, piece: int) -> list[tuple[Cell, bool]]:
    """The cells `piece` may step to now, each with whether it crosses a crack by kayak (N-8)."""
    cell = state.pieces[piece].cell
    if cell is None:
        return []
    sheet = sheet_of(state, piece)
    kayak = sheet is not None and "kayak" in sheet.carried
    found = []
    for near in state.rules.ice.near(cell):
        crossing = line(cell, near) in state.cracks
        if crossing and not kayak:
            continue
        if _enterable(state, piece, near):
            found.append((near, crossing))
    return found


def can_step(state: State, piece: int) -> bool:
    return bool(steps(state, piece))


def may_stay(state: State, piece: int) -> bool:
    """L-5's option: a learning-game bear may stay (and crack at its own cell)."""
    bear = state.rules.game in (BEAR_HUNT, BEAR_FLIGHT) and state.pieces[piece].kind == "bear"
    return bear and bool(state.rules.options.get("bear_may_stay"))


def enclosed(state: State, piece: int) -> bool:
    """L-4: the piece cannot move for cracks and the edge alone (pieces aside)."""
    cell = state.pieces[piece].cell
    return cell is not None and all(side in state.cracks for side in state.rules.ice.d_lines(cell))


def in_igloo(state: State, piece: int) -> bool:
    cell = state.pieces[piece].cell
    return cell is not None and state.rules.ice.is_igloo(cell)
