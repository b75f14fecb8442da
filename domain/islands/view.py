"""view(state, seat): what one seat (or a spectator, seat None) may see of the game."""

from __future__ import annotations

from typing import Any

from domain.islands.state import State


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The public board and counts, plus the hand of `seat` only; never the stack order."""
    board = state.rules.board
    names = board.names
    seen: dict[str, Any] = {
        "game": state.rules.game,
        "edition": state.rules.edition,
        "mode": state.mode,
        "phase": state.phase,
        "round": state.round,
        "rounds": state.rules.rounds,
        "active": state.active,
        "viewer": seat,
        "seats": [
            {
                "seat": s,
                "name": state.names[s],
                "hand_count": len(state.hands[s]),
                "bridges_in_stock": state.stock[s],
                "islands": list(state.islands_of(s)),
                "score": state.scores[s],
            }
            for s in range(state.seats)
        ],
        "bridges": [
            {"line": list(board.lines[n]), "seat": owner}
            for n, owner in enumerate(state.owners)
            if owner is not None
        ],
        "control": {names[i]: owner for i, owner in enumerate(state.control) if owner is not None},
        "face_up": list(state.face_up),
        "stack_count": len(state.stack),
        "discard": list(state.played),
        "hidden_discards": len(state.hidden),
        "scorings": [list(p) for p in state.scorings],
        "result": state.result,
    }
    if seat is not None:
        seen["hand"] = list(state.hands[seat])
    return seen
