"""Reading a command's arguments: every malformed value is an IllegalMove with a stable code."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.decider import IllegalMove
from domain.islands.board import Line
from domain.islands.state import State, holds


def island(state: State, value: Any, field: str) -> str:
    if not isinstance(value, str) or not state.rules.board.has_island(value):
        raise IllegalMove("unknown_island", f"{field}: {value!r} is not an island of this board")
    return value


def cards(state: State, args: Mapping[str, Any], count: int | None = None) -> tuple[str, ...]:
    raw = args.get("cards")
    if not isinstance(raw, list) or not raw:
        raise IllegalMove("bad_command", "cards: a non-empty list of island names is required")
    if count is not None and len(raw) != count:
        raise IllegalMove("bad_command", f"cards: exactly {count} cards are required")
    return tuple(island(state, c, "cards") for c in raw)


def line(state: State, args: Mapping[str, Any], field: str = "line") -> tuple[int, Line]:
    raw = args.get(field)
    if not isinstance(raw, list) or len(raw) != 2:
        raise IllegalMove("bad_command", f"{field}: a pair of island names is required")
    board = state.rules.board
    a, b = raw
    # Two names that make a line are islands: the one look-up spares checking each name,
    # which every placement a search plays paid; a refusal still names the first bad name.
    index = board.line_index(a, b) if type(a) is str and type(b) is str else None
    if index is not None:
        return index, board.lines[index]
    a, b = island(state, a, field), island(state, b, field)
    index = board.line_index(a, b)
    if index is None:
        raise IllegalMove("unknown_line", f"there is no bridge line between {a} and {b}")
    return index, board.lines[index]


def sea(state: State, args: Mapping[str, Any], field: str) -> int:
    raw = args.get(field)
    if not isinstance(raw, list) or len(raw) != 3:
        raise IllegalMove("bad_command", f"{field}: the three islands of a sea space are required")
    names = [island(state, x, field) for x in raw]
    index = state.rules.board.sea_index(names)
    if index is None:
        raise IllegalMove("unknown_sea", f"{'-'.join(names)} is not a sea space of this board")
    return index


def seat(state: State, value: Any, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < state.seats:
        raise IllegalMove("bad_command", f"{field}: a seat number 0..{state.seats - 1} is required")
    return value


def in_hand(state: State, who: int, wanted: tuple[str, ...]) -> None:
    if not holds(state.hands[who], wanted):
        raise IllegalMove("card_not_in_hand", f"you do not hold {', '.join(wanted)}")
