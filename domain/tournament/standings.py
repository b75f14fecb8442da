"""Standings: points, then island points, Buchholz, Sonneborn-Berger, direct encounter, the lot.

Every table with a result counts each seat against each other seat at it: an outcome of 1
against a seat placed below, 1/2 against one placed equal, 0 against one placed above. Two
players meet once per game; at a table of four each seat meets three. Byes add points and
island points but no opponent.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import groupby

from domain.tournament.points import number
from domain.tournament.state import Entrant, State

TIE_BREAKS = ("points", "island_points", "buchholz", "sonneborn_berger", "direct_encounter", "lot")


@dataclass(frozen=True)
class Line:
    entrant: str
    rank: int  # 0 = first; no two entrants share one
    points: float
    island_points: float
    buchholz: float  # the sum of the points of every opponent met, once per meeting
    sonneborn_berger: float  # the same sum, each opponent weighted by one's outcome against it
    direct_encounter: float  # outcomes against the entrants tied on everything above
    lot: int | None  # place in the drawn lots; None before the draw
    games: int
    byes: int
    withdrawn: bool


@dataclass(frozen=True)
class Meeting:
    entrant: str
    opponent: str
    outcome: float  # 1 placed above, 1/2 equal, 0 below


def meetings(state: State) -> Iterator[Meeting]:
    """Every seat against every other seat of every table with a result."""
    for table in state.tables:
        if table.result is None:
            continue
        places = table.result.places
        for i, entrant in enumerate(table.seats):
            for j, opponent in enumerate(table.seats):
                if i != j:
                    outcome = 1.0 if places[i] < places[j] else 0.5 if places[i] == places[j] else 0.0
                    yield Meeting(entrant, opponent, outcome)


def listed(state: State) -> list[Entrant]:
    """The entrants the standings show: all but those who withdrew before playing any part."""
    return [e for e in state.entrants if e.withdrawn is None or e.id in state.starters or e.id in state.lots]


def standings(state: State) -> list[Line]:
    """Every listed entrant, first first, each criterion applied in turn (TIE_BREAKS)."""
    entrants = listed(state)
    points: dict[str, float] = defaultdict(float)
    island: dict[str, float] = defaultdict(float)
    games: dict[str, int] = defaultdict(int)
    for table in state.tables:
        if table.result is not None:
            for seat, entrant in enumerate(table.seats):
                points[entrant] += table.result.points[seat]
                island[entrant] += table.result.island_points[seat]
                games[entrant] += 1
    for bye in state.byes:
        points[bye.entrant] += bye.points
        island[bye.entrant] += bye.island_points
    met = list(meetings(state))
    buchholz: dict[str, float] = defaultdict(float)
    berger: dict[str, float] = defaultdict(float)
    for m in met:
        buchholz[m.entrant] += points[m.opponent]
        berger[m.entrant] += m.outcome * points[m.opponent]

    def key(e: Entrant) -> tuple[float, ...]:
        return tuple(-number(d[e.id]) for d in (points, island, buchholz, berger))

    ordered, direct = [], {}
    for _, group in groupby(sorted(entrants, key=key), key=key):
        tied = list(group)
        direct.update(direct_encounter([e.id for e in tied], met))
        ordered += sorted(tied, key=lambda e: (-direct[e.id], _lot(state, e)))
    byes = Counter(b.entrant for b in state.byes)
    return [
        Line(
            entrant=e.id,
            rank=rank,
            points=number(points[e.id]),
            island_points=number(island[e.id]),
            buchholz=number(buchholz[e.id]),
            sonneborn_berger=number(berger[e.id]),
            direct_encounter=number(direct[e.id]),
            lot=state.lots.index(e.id) if e.id in state.lots else None,
            games=games[e.id],
            byes=byes[e.id],
            withdrawn=e.withdrawn is not None,
        )
        for rank, e in enumerate(ordered)
    ]


def direct_encounter(tied: Sequence[str], met: Sequence[Meeting]) -> dict[str, float]:
    """Each tied entrant's outcomes against the others of its tie (0 when alone)."""
    inside = set(tied)
    scores = dict.fromkeys(tied, 0.0)
    if len(tied) > 1:
        for m in met:
            if m.entrant in inside and m.opponent in inside:
                scores[m.entrant] += m.outcome
    return scores


def _lot(state: State, entrant: Entrant) -> tuple[int, int]:
    """The lot's order; entrants without a lot (before the draw) after, by registration."""
    if entrant.id in state.lots:
        return (0, state.lots.index(entrant.id))
    return (1, state.entrants.index(entrant))
