"""What one table or bye is worth: I-9, 3:1 / 2:2, placement points, forfeits and byes.

A game's end is read from its GameEnded data (winner seat or null, each seat's final score
`totals`, `reason`, and for a premature end (I-7) its `round`), or from a resignation's
GameResigned data, shaped alike, whose `resigned` seat is placed last (domain/resign.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from domain.decider import IllegalMove
from domain.tournament.settings import I9, PLACEMENT, Settings
from domain.tournament.state import Result

WIN, LOSS, DRAW = 3, 1, 2  # I-9's simple win and tie, also Kahuna's and every other 2-player game's
FORFEIT_LOSS = 0  # the seat that forfeited did not finish its game: it scores nothing
T = TypeVar("T", int, float)
I9_PREMATURE = {3: (4, 0, 12), 2: (5, 0, 24)}  # round of the premature end -> points and bonus


@dataclass(frozen=True)
class GameEnd:
    winner: int | None
    totals: tuple[int, ...]
    reason: str
    round: int | None  # the round of a premature end
    resigned: int | None = None  # the seat that resigned: last, whatever the totals


def read_game_end(data: Any, seats: int) -> GameEnd:
    """The end a GameEnded's data tells; IllegalMove(bad_result) when it does not fit the table."""
    if not isinstance(data, Mapping):
        raise IllegalMove("bad_result", "result must be the game's GameEnded data", "result")
    winner, totals, reason = data.get("winner"), data.get("totals"), data.get("reason")
    if not (isinstance(totals, list) and len(totals) == seats and all(_whole(t) for t in totals)):
        raise IllegalMove("bad_result", f"result.totals must hold {seats} whole numbers", "result.totals")
    if winner is not None and not (_whole(winner) and 0 <= winner < seats):
        raise IllegalMove(
            "bad_result", f"result.winner must be a seat 0..{seats - 1} or null", "result.winner"
        )
    if not isinstance(reason, str) or not reason:
        raise IllegalMove("bad_result", "result.reason must name how the game ended", "result.reason")
    round_ = data.get("round")
    if reason == "premature" and not _whole(round_):
        raise IllegalMove("bad_result", "a premature end names its round", "result.round")
    resigned = data.get("resigned")
    if resigned is not None and not (_whole(resigned) and 0 <= resigned < seats and resigned != winner):
        raise IllegalMove("bad_result", "result.resigned must be a seat that did not win", "result.resigned")
    return GameEnd(winner, tuple(totals), reason, round_ if reason == "premature" else None, resigned)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def score_game(settings: Settings, end: GameEnd, final_hash: str | None, how: str) -> Result:
    """The table's result under the tournament's scoring scheme."""
    if settings.scoring == PLACEMENT:
        return _placement(settings.placement_points[len(end.totals)], end, final_hash, how)
    if settings.scoring == I9:
        return _i9(end, final_hash, how)
    return _win_draw(end, final_hash, how)


def _two_player(
    end: GameEnd, win: tuple[float, float], island: int, final_hash: str | None, how: str
) -> Result:
    """Points (`win` = winner's, loser's) and island points (`island` to the winner, minus to the other)."""
    if end.winner is None:
        return Result((1, 1), (DRAW, DRAW), (0, 0), final_hash, how)
    first = end.winner == 0
    return Result(
        _by_seat(first, 1, 2), _by_seat(first, *win), _by_seat(first, island, -island), final_hash, how
    )


def _by_seat(first: bool, winners: T, losers: T) -> tuple[T, T]:
    """A winner's and a loser's figures in seat order."""
    return (winners, losers) if first else (losers, winners)


def _difference(end: GameEnd) -> int:
    assert end.winner is not None
    return end.totals[end.winner] - end.totals[1 - end.winner]


def _i9(end: GameEnd, final_hash: str | None, how: str) -> Result:
    """I-9: tie 2:2, win 3:1; a premature end in round 3 4:0 (+12), in round 2 5:0 (+24)."""
    if end.winner is None:
        return _two_player(end, (DRAW, DRAW), 0, final_hash, how)
    won, lost, bonus = I9_PREMATURE.get(end.round or 0, (WIN, LOSS, 0))
    return _two_player(end, (won, lost), _difference(end) + bonus, final_hash, how)


def _win_draw(end: GameEnd, final_hash: str | None, how: str) -> Result:
    """3:1 for a win, 2:2 for a draw; island points are the difference of the final scores."""
    if end.winner is None:
        return _two_player(end, (DRAW, DRAW), 0, final_hash, how)
    return _two_player(end, (WIN, LOSS), _difference(end), final_hash, how)


def places_of(end: GameEnd) -> tuple[int, ...]:
    """Places by seat: the winner alone first (the game's own tie-break), the rest by score, ties
    equal; a seat that resigned last."""

    def key(seat: int) -> tuple[bool, bool, int]:
        return (seat == end.resigned, seat != end.winner, -end.totals[seat])

    return tuple(
        1 + sum(key(other) < key(seat) for other in range(len(end.totals))) for seat in range(len(end.totals))
    )


def shared(points: Sequence[int], places: Sequence[int]) -> tuple[float, ...]:
    """Each seat's placement points; seats sharing a place share the points of the places they cover."""
    out = []
    for place in places:
        tied = sum(p == place for p in places)
        out.append(number(sum(points[place - 1 : place - 1 + tied]) / tied))
    return tuple(out)


def number(value: float) -> float:
    """`value` kept to six decimals, and whole when it is (3, not 3.0, in the stored JSON)."""
    value = round(value, 6)
    return int(value) if value == int(value) else value


def _placement(points: Sequence[int], end: GameEnd, final_hash: str | None, how: str) -> Result:
    """Placement points by place; island points are each seat's own final score."""
    places = places_of(end)
    return Result(places, shared(points, places), tuple(end.totals), final_hash, how)


def score_forfeit(settings: Settings, seats: int, loser: int) -> Result:
    """The seat that forfeits is last with nothing; the others win (2 players: 3:0; tables: they
    share the points of every place but the last). No island points change hands."""
    places = tuple(seats if s == loser else 1 for s in range(seats))
    if settings.scoring == PLACEMENT:
        table = settings.placement_points[seats]
        points = shared([*table[:-1], 0], places)
    else:
        points = tuple(FORFEIT_LOSS if s == loser else WIN for s in range(seats))
    return Result(places, points, (0,) * seats, None, "forfeit")


def bye_points(settings: Settings) -> float:
    """A bye scores as a win: 3 points, or at tables the first place of the largest table."""
    if settings.scoring == PLACEMENT:
        return settings.placement_points[max(settings.table_sizes)][0]
    return WIN
