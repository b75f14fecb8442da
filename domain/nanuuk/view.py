"""view(state, seat): the whole game, the same for every seat (nothing in Nanuuk! is hidden)."""

from __future__ import annotations

from typing import Any

from domain.nanuuk.events import cell_json, line_json
from domain.nanuuk.rules import ANIMALS, EQUIPMENT
from domain.nanuuk.stage import stage
from domain.nanuuk.state import PLACING, Sheet, State


def _sheet(state: State, n: int, sheet: Sheet) -> dict[str, Any]:
    return {
        "piece": n,
        "seat": state.pieces[n].seat,
        "carried": {
            "equipment": [e for e in EQUIPMENT if e in sheet.carried],
            "animals": [a for a in ANIMALS if a in sheet.animals],
            "inuk": sheet.inuk,
        },
        "igloo": {
            "equipment": [e for e in EQUIPMENT if e in sheet.igloo],
            "animals": {a: sheet.brought.get(a, 0) for a in ANIMALS},
            "inuit": sheet.inuit,
        },
        "points": sheet.points(),
    }


def _awaiting(state: State) -> dict[str, Any] | None:
    if state.phase == PLACING:
        seat, piece = state.to_place[0]
        return {"stage": "place", "piece": piece, "cell": None}
    name = stage(state)
    if name is None:
        return None
    cell = state.turn.cell
    return {"stage": name, "piece": state.turn.piece, "cell": None if cell is None else cell_json(cell)}


def to_act_seats(state: State) -> list[int]:
    return [state.active] if state.phase in (PLACING, "play") else []


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The documented view (docs/nanuuk.md) for `seat`, or a spectator (None)."""
    ice = state.rules.ice
    return {
        "game": state.rules.game,
        "phase": state.phase,
        "active": state.active,
        "viewer": seat,
        "to_act": to_act_seats(state),
        "seats": [{"seat": s, "name": name} for s, name in enumerate(state.names)],
        "result": state.result,
        "options": {k: v for k, v in state.rules.options.items() if k not in ("layout", "cracks")},
        "ice": [cell_json(c) for c in ice.cells],
        "water": [cell_json(c) for c in ice.water],
        "igloos": [cell_json(c) for c in ice.igloos],
        "cracks": [line_json(side) for side in sorted(state.cracks)],
        "pieces": [
            {
                "piece": n,
                "kind": p.kind,
                "seat": p.seat,
                "cell": None if p.cell is None else cell_json(p.cell),
                "retired": p.retired,
                "out": p.out,
            }
            for n, p in enumerate(state.pieces)
        ],
        "tokens": [{"cell": cell_json(c), "kind": k} for c, k in sorted(state.tokens.items())],
        "sheets": [_sheet(state, n, sheet) for n, sheet in enumerate(state.sheets)],
        "scores": state.scores,
        "awaiting": _awaiting(state),
    }
