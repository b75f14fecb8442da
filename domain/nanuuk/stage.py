"""What the active seat owes now in a turn under way (the stages of state.py)."""

from __future__ import annotations

from domain.nanuuk.cracks import crack_choices
from domain.nanuuk.hunt import dealings, takeable
from domain.nanuuk.moves import sheet_of
from domain.nanuuk.state import CRACK, IGLOO, MOVE, PLAY, STEP, TAKE, State


def stage(state: State) -> str | None:
    """The choice the active seat owes now (state.MOVE, STEP, TAKE, IGLOO, CRACK), or
    None once the move under way is complete (or outside play)."""
    if state.phase != PLAY:
        return None
    turn = state.turn
    if turn.piece is None or turn.cell is None:
        return MOVE
    sheet = sheet_of(state, turn.piece)
    if sheet is not None:
        if not turn.took and takeable(state, sheet, turn.cell):
            return TAKE
        if not turn.dealt and state.rules.ice.is_igloo(turn.cell) and dealings(sheet):
            return IGLOO
    if not turn.cracked and (turn.crack_each or turn.more == 0) and crack_choices(state, turn.cell)[1]:
        return CRACK
    return STEP if turn.more > 0 else None
