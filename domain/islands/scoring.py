"""K-7: points for islands held at each scoring, and the game's result. Pure functions."""

from __future__ import annotations

from collections.abc import Sequence

from domain.core import Event
from domain.islands import events as ev
from domain.islands.state import State


def kahuna_points(round_: int, islands: Sequence[int]) -> list[int]:
    """K-7: 1 then 2 points to the seat with more islands; the difference after round 3."""
    a, b = islands
    if a == b:
        return [0, 0]
    leader = 0 if a > b else 1
    points = [0, 0]
    points[leader] = {1: 1, 2: 2}.get(round_, abs(a - b))
    return points


def score_round(state: State) -> Event:
    """The RoundScored event of the round that just ended."""
    islands = [len(state.islands_of(seat)) for seat in range(state.seats)]
    points = kahuna_points(state.round, islands)
    totals = [t + p for t, p in zip(state.scores, points, strict=True)]
    return ev.round_scored(state.round, islands, points, totals)


def final_result(state: State) -> Event:
    """K-7: most points wins; equal points is a draw."""
    best = max(state.scores)
    leaders = [seat for seat, s in enumerate(state.scores) if s == best]
    winner = leaders[0] if len(leaders) == 1 else None
    return ev.game_ended(winner, state.scores, "points" if winner is not None else "draw")
