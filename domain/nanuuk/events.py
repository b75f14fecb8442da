"""The events of Nanuuk! games, built in one place so their data shapes stay the documented ones.

Cells travel as [q, r] lists and lines as two such lists, the smaller first: the shape the
store's JSON gives back, so an event folds the same fresh from `decide` or read back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from domain.decider import Event
from domain.nanuuk.board import Cell, Line


def cell_json(cell: Cell) -> list[int]:
    return [cell[0], cell[1]]


def line_json(line: Line) -> list[list[int]]:
    return [cell_json(line[0]), cell_json(line[1])]


def ice_laid_out(tokens: Mapping[Cell, str], bears: Sequence[Cell], cracks: Iterable[Line]) -> Event:
    return Event(
        "IceLaidOut",
        {
            "tokens": [{"cell": cell_json(c), "kind": k} for c, k in sorted(tokens.items())],
            "bears": [cell_json(c) for c in bears],
            "cracks": [line_json(line) for line in sorted(cracks)],
        },
    )


def piece_placed(piece: int, seat: int, cell: Cell) -> Event:
    return Event("PiecePlaced", {"piece": piece, "seat": seat, "cell": cell_json(cell)})


def equipment_used(piece: int, seat: int, items: Sequence[str]) -> Event:
    return Event("EquipmentUsed", {"piece": piece, "seat": seat, "items": list(items)})


def piece_moved(
    piece: int, seat: int, start: Cell, end: Cell, kayak: bool, sled: bool, one_crack: bool
) -> Event:
    data = {"piece": piece, "seat": seat, "from": cell_json(start), "to": cell_json(end)}
    return Event("PieceMoved", {**data, "kayak": kayak, "sled": sled, "one_crack": one_crack})


def piece_stayed(piece: int, seat: int, cell: Cell) -> Event:
    return Event("PieceStayed", {"piece": piece, "seat": seat, "cell": cell_json(cell)})


def steps_ended(piece: int, seat: int, declined: bool) -> Event:
    return Event("StepsEnded", {"piece": piece, "seat": seat, "declined": declined})


def move_ended(piece: int, seat: int) -> Event:
    return Event("MoveEnded", {"piece": piece, "seat": seat})


def move_skipped(seat: int, part: int, reason: str) -> Event:
    return Event("MoveSkipped", {"seat": seat, "part": part, "reason": reason})


def crack_placed(seat: int, cell: Cell, crack: Line, kind: str, forced: bool) -> Event:
    data: dict[str, Any] = {"seat": seat, "cell": cell_json(cell), "crack": line_json(crack)}
    return Event("CrackPlaced", {**data, "kind": kind, "forced": forced})


def inuk_joined(piece: int, seat: int, cell: Cell) -> Event:
    return Event("InukJoined", {"piece": piece, "seat": seat, "cell": cell_json(cell)})


def animal_taken(piece: int, seat: int, cell: Cell, animal: str, taken: bool) -> Event:
    kind = "AnimalTaken" if taken else "AnimalLeft"
    return Event(kind, {"piece": piece, "seat": seat, "cell": cell_json(cell), "animal": animal})


def bear_sent(piece: int, seat: int, bear: int, start: Cell, end: Cell) -> Event:
    data = {"piece": piece, "seat": seat, "bear": bear}
    return Event("BearSent", {**data, "from": cell_json(start), "to": cell_json(end)})


def harpoon_returned(piece: int, seat: int) -> Event:
    return Event("HarpoonReturned", {"piece": piece, "seat": seat})


def animal_exchanged(piece: int, seat: int, animal: str, equipment: Sequence[str], inuk: bool) -> Event:
    data = {"piece": piece, "seat": seat, "animal": animal}
    return Event("AnimalExchanged", {**data, "equipment": list(equipment), "inuk": inuk})


def animal_brought_in(piece: int, seat: int, animal: str, inuk: bool) -> Event:
    return Event("AnimalBroughtIn", {"piece": piece, "seat": seat, "animal": animal, "inuk": inuk})


def igloo_visit_ended(piece: int, seat: int) -> Event:
    return Event("IglooVisitEnded", {"piece": piece, "seat": seat})


def hunter_retired(piece: int, seat: int) -> Event:
    return Event("HunterRetired", {"piece": piece, "seat": seat})


def turn_ended(seat: int, next_seat: int, moved: bool) -> Event:
    return Event("TurnEnded", {"seat": seat, "next": next_seat, "moved": moved})


def turn_skipped(seat: int, next_seat: int, reason: str) -> Event:
    return Event("TurnSkipped", {"seat": seat, "next": next_seat, "reason": reason})


def piece_out(piece: int, seat: int | None, reason: str) -> Event:
    return Event("PieceOut", {"piece": piece, "seat": seat, "reason": reason})


GAME_ENDED = "GameEnded"
"""The event with which the rules end a game (the module declares it: domain/ending.py)."""


def game_ended(
    winner: int | None, winners: Sequence[int], totals: Sequence[int], reason: str, **extra: Any
) -> Event:
    data = {"winner": winner, "winners": list(winners), "totals": list(totals), "reason": reason}
    return Event(GAME_ENDED, {**data, **extra})
