"""What the Dutch system reads of each entrant's past rounds: seats, floats, pairing byes."""

from __future__ import annotations

from collections import defaultdict

from domain.tournament.pairing import Standing
from domain.tournament.state import State


def with_histories(state: State, ranked: list[Standing]) -> list[Standing]:
    """`ranked` with each entrant's pairing number (State.pairing_order), its seat and float in
    every round so far and its pairing-allocated byes."""
    before = _points_before_each_round(state)
    order = state.pairing_order()
    result = []
    for s in ranked:
        colours: list[int | None] = []
        floats: list[str] = []
        for round_ in range(1, state.round + 1):
            seat, way = _round_of(state, round_, s.id, before[round_])
            colours.append(seat)
            floats.append(way)
        pairing_byes = sum(1 for b in state.byes if b.entrant == s.id and b.reason == "pairing")
        number = order.index(s.id) + 1 if s.id in order else len(order) + 1
        result.append(
            Standing(
                s.id,
                s.points,
                s.rank,
                s.opponents,
                s.seats,
                s.byes,
                number=number,
                colours=tuple(colours),
                floats=tuple(floats),
                pairing_byes=pairing_byes,
            )
        )
    return result


def _round_of(state: State, round_: int, entrant: str, points: dict[str, float]) -> tuple[int | None, str]:
    """The seat `entrant` held in `round_` (None: no game) and its float ("D", "U" or "").

    A forfeited game was not played out: it holds no seat (as the TRF's + and - hold no
    colour), and its winner, who scored without playing, floats down as after a bye.
    """
    table = state.seat_of(round_, entrant)
    if table is not None and len(table.seats) == 2:
        seat = table.seats.index(entrant)
        if table.result is not None and table.result.how == "forfeit":
            won = table.result.places[seat] < table.result.places[1 - seat]
            return None, "D" if won else ""
        mine, theirs = points[entrant], points[table.seats[1 - seat]]
        return seat, "D" if mine > theirs else "U" if mine < theirs else ""
    bye = state.bye_of(round_, entrant)
    return None, "D" if bye is not None and bye.reason == "pairing" else ""


def _points_before_each_round(state: State) -> dict[int, dict[str, float]]:
    """Round -> entrant -> the points it had before that round was played."""
    gained: dict[int, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for table in state.tables:
        if table.result is not None:
            for seat, entrant in enumerate(table.seats):
                gained[table.round][entrant] += table.result.points[seat]
    for bye in state.byes:
        gained[bye.round][bye.entrant] += bye.points
    before: dict[int, dict[str, float]] = {}
    running: dict[str, float] = defaultdict(float)
    for round_ in range(1, state.round + 2):
        before[round_] = defaultdict(float, running)
        for entrant, points in gained[round_].items():
            running[entrant] += points
    return before
