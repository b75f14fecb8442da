"""Why a click on the play page finds no move, in words, with the rule: rendered with the panel
so the page can say it next to what was clicked ("Not your turn — Ben is to move")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.turns import TERMINAL, Seats, ToAct
from service.web.offered import line_key


def turn(to_act: ToAct, names: Sequence[str], seat: int | None) -> str:
    """Why `seat` cannot move now; "" when it may."""
    if seat is None:
        return "You are watching this game: only its players move."
    if to_act is TERMINAL:
        return "The game is over: no more moves."
    if not isinstance(to_act, Seats):
        return "Wait a moment — the game is dealing or scoring."
    if seat in to_act.seats:
        return ""
    movers = [names[s] for s in to_act.seats]
    return f"Not your turn — {' and '.join(movers)} {'is' if len(movers) == 1 else 'are'} to move."


def taken(view: Mapping[str, Any], names: Sequence[str]) -> dict[str, str]:
    """Each line that takes no new bridge or crack (by its board hook), and why."""
    said = {}
    for bridge in view.get("bridges") or []:
        seat = bridge.get("seat")
        owner = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "another player"
        said[line_key(bridge["line"])] = f"That line is already taken: {owner}'s bridge is on it."
    for crack in view.get("cracks") or []:
        ends = sorted((int(c[0]), int(c[1])) for c in crack)
        said["|".join(f"{q},{r}" for q, r in ends)] = "That ice is already cracked."
    return said


def refusals(
    to_act: ToAct, view: Mapping[str, Any], names: Sequence[str], seat: int | None
) -> dict[str, Any]:
    """What the page says when a click matches none of the seat's moves."""
    return {"turn": turn(to_act, names, seat), "lines": taken(view, names)}
