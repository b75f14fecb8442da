"""view(state, seat): what one seat (or a spectator, seat None) may see of the game."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from domain.islands.state import Pending, State


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The public board and counts, plus the hand of `seat` only; never the stack order."""
    board = state.rules.board
    names = board.names
    seen: dict[str, Any] = {
        "game": state.rules.game,
        "mode": state.mode,
        "phase": state.phase,
        "round": state.round,
        "rounds": state.rules.rounds,
        "active": state.active,
        "viewer": seat,
        "seats": [_seat(state, s) for s in range(state.seats)],
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
        "options": _options(state),
    }
    if state.rules.seafarers:
        seen["ships"] = [
            {"sea": list(board.sea_spaces[n]), "seat": owner}
            for n, owner in enumerate(state.ships)
            if owner is not None
        ]
    if state.rules.gods:
        seen["gods"] = {names[i]: god for i, god in enumerate(state.gods) if god is not None}
    if state.chosen:
        seen["chosen"] = [c is not None for c in state.chosen]
    if state.phase == "final":
        seen["final_order"] = list(state.final_order)
    seen["finished"] = list(state.finished)
    seen["pending"] = [_pending(p, seat) for p in state.pending]
    if seat is not None:
        seen["hand"] = list(state.hands[seat])
        if state.chosen and state.chosen[seat] is not None:
            seen["my_face_up_choice"] = state.chosen[seat]
    return seen


def _seat(state: State, s: int) -> dict[str, Any]:
    """Seat `s`'s public counts, with the stocks its rule switches add (ships, free bridges,
    god stones)."""
    shown: dict[str, Any] = {
        "seat": s,
        "name": state.names[s],
        "hand_count": len(state.hands[s]),
        "bridges_in_stock": state.stock[s],
        "islands": list(state.islands_of(s)),
        "score": state.scores[s],
    }
    if state.rules.seafarers:
        shown["ships_in_stock"] = state.ship_stock[s]
    if state.rules.handicap is not None:
        shown["free_bridges"] = state.free_bridges[s]
    if state.rules.gods:
        shown["god_stones"] = list(state.stones[s])
    return shown


def _pending(pending: Pending, seat: int | None) -> dict[str, Any]:
    """A pending choice; its options (Ku shows a hand) only to the seat that chooses."""
    shown: dict[str, Any] = {"kind": pending.kind, "seat": pending.seat, "island": pending.island}
    if pending.target is not None:
        shown["target"] = pending.target
    if seat == pending.seat:
        shown["options"] = [list(o) if isinstance(o, tuple) else o for o in pending.options]
    return shown


def _options(state: State) -> dict[str, Any]:
    rules = state.rules
    chosen: dict[str, Any] = {}
    if rules.game == "kahuna":
        chosen["edition"] = rules.edition
    if rules.seafarers:
        chosen["seafarers"] = True
    if rules.gods:
        chosen["gods"] = True
    if rules.handicap is not None:
        chosen["handicap"] = asdict(rules.handicap)
    return chosen
