"""Scorings and results: K-7, I-5, O-8 points; K-9/O-9 tie-breaks; I-7 ends; I-9 tournament points."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.decider import Event
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


def difference_points(islands: Sequence[int]) -> list[int]:
    """I-5: the seat with more islands scores the difference; the other scores 0."""
    a, b = islands
    return [max(0, a - b), max(0, b - a)]


def island_value(places: int, own: int, big: bool) -> int:
    """O-8: the places a controller does not occupy, plus 1 at the big scoring."""
    return places - own + (1 if big else 0)


def places_points(state: State, big: bool) -> list[int]:
    """O-8 for every seat: the value of each island it controls."""
    points = [0] * state.seats
    for island in state.rules.board.names:
        seat = state.controller(island)
        if seat is not None:
            points[seat] += island_value(state.places(island), state.bridges_on(island, seat), big)
    return points


def score_round(state: State) -> Event:
    """The RoundScored event of the round that just ended."""
    islands = [len(state.islands_of(seat)) for seat in range(state.seats)]
    kind = state.rules.scoring
    if kind == "places":
        points = places_points(state, big=state.round == state.rules.rounds)
    elif kind == "difference":
        points = difference_points(islands)
    else:
        points = kahuna_points(state.round, islands)
    totals = [t + p for t, p in zip(state.scores, points, strict=True)]
    return ev.round_scored(state.round, islands, points, totals)


def final_result(state: State) -> Event:
    """Most points wins; ties go by the game's tie-break (K-9, O-9) or are a draw."""
    best = max(state.scores)
    leaders = [seat for seat, s in enumerate(state.scores) if s == best]
    leaders = _break_tie(state, leaders)
    winner = leaders[0] if len(leaders) == 1 else None
    reason = "points" if winner is not None else "draw"
    return ev.game_ended(winner, state.scores, reason, **_tournament(state, winner, None))


def _break_tie(state: State, leaders: list[int]) -> list[int]:
    if len(leaders) < 2:
        return leaders
    if state.rules.tie_break == "final_turn_order":
        order = {seat: n for n, seat in enumerate(state.finished)}
        return [min(leaders, key=lambda s: order.get(s, len(order)))]
    if state.rules.tie_break == "third_scoring_then_bridges":
        for key in (lambda s: state.scorings[-1][s], state.bridges_of):
            top = max(key(s) for s in leaders)
            leaders = [s for s in leaders if key(s) == top]
            if len(leaders) == 1:
                break
    return leaders


def premature_end(state: State) -> Event | None:
    """I-7: in rounds 2 and 3, a seat without a bridge on the board ends the game and loses."""
    if not state.rules.premature_end or state.round < 2:
        return None
    bare = [seat for seat in range(state.seats) if state.bridges_of(seat) == 0]
    if not bare:
        return None
    standing = [seat for seat in range(state.seats) if seat not in bare]
    winner = standing[0] if len(standing) == 1 else None
    extra = _tournament(state, winner, state.round)
    return ev.game_ended(winner, state.scores, "premature", round=state.round, **extra)


def tournament_points(
    winner: int | None, scores: Sequence[int], premature_round: int | None
) -> dict[str, Any]:
    """I-9: match points (2:2, 3:1, 4:0 or 5:0) and island points as a goal difference."""
    if winner is None:
        return {"points": [2, 2], "island_points": [0, 0]}
    loser = 1 - winner
    match = {None: (3, 1), 3: (4, 0), 2: (5, 0)}[premature_round]
    bonus = {None: 0, 3: 12, 2: 24}[premature_round]
    diff = scores[winner] - scores[loser] + bonus
    points, island = [0, 0], [0, 0]
    points[winner], points[loser] = match
    island[winner], island[loser] = diff, -diff
    return {"points": points, "island_points": island}


def _tournament(state: State, winner: int | None, premature_round: int | None) -> dict[str, Any]:
    if not state.rules.tournament_points:
        return {}
    return {"tournament": tournament_points(winner, state.scores, premature_round)}
