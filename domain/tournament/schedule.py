"""The next round's tables: the format's pairing engine fed with the current standings.

Only pairing asks the engines; RoundPaired records what they answered, so a replay never
asks again (a later change of an engine cannot rewrite a past round).
"""

from __future__ import annotations

from domain.tournament.berger import round_robin
from domain.tournament.dutch import pair_dutch
from domain.tournament.histories import with_histories
from domain.tournament.pairing import Pairing, Standing
from domain.tournament.settings import ROUND_ROBIN, SWISS, Settings
from domain.tournament.standings import standings
from domain.tournament.state import State
from domain.tournament.tables import group_tables


def round_robin_rounds(entrants: int, double: bool) -> int:
    """Berger tables: n - 1 rounds for an even n, n for an odd n (one bye each), twice when double."""
    single = entrants if entrants % 2 else entrants - 1
    return single * (2 if double else 1)


def pairing_standings(state: State) -> list[Standing]:
    """What the engines know of each entrant still in play, first in the standings first."""
    active = {e.id for e in state.active()}
    size = max(state.settings.table_sizes)
    opponents: dict[str, set[str]] = {e: set() for e in active}
    seats = {e: [0] * size for e in active}
    for table in state.tables:
        for position, entrant in enumerate(table.seats):
            if entrant in active:
                opponents[entrant] |= set(table.seats) - {entrant}
                seats[entrant][position] += 1
    lines = [line for line in standings(state) if line.entrant in active]
    return [
        Standing(
            id=line.entrant,
            points=line.points,
            rank=rank,
            opponents=frozenset(opponents[line.entrant]),
            seats=tuple(seats[line.entrant]),
            byes=line.byes,
        )
        for rank, line in enumerate(lines)
    ]


def next_pairing(state: State) -> tuple[Pairing, tuple[str, ...]]:
    """The pairing of round `state.round + 1`, and who sits out because an opponent withdrew."""
    settings: Settings = state.settings
    if settings.format == ROUND_ROBIN:
        return _berger_round(state)
    ranked = pairing_standings(state)
    if settings.format == SWISS:
        return pair_dutch(with_histories(state, ranked)), ()
    return group_tables(ranked, settings.table_sizes), ()


def _berger_round(state: State) -> tuple[Pairing, tuple[str, ...]]:
    """The round's Berger table over the starters in lot order; a withdrawn entrant's opponent sits out."""
    order = [e for e in state.lots if e in state.starters]
    scheduled = round_robin(order, state.settings.double)[state.round]
    gone = {e.id for e in state.entrants if e.withdrawn is not None}
    tables = tuple(t for t in scheduled.tables if not gone & set(t))
    orphans = tuple(e for t in scheduled.tables if gone & set(t) for e in t if e not in gone)
    byes = tuple(e for e in scheduled.byes if e not in gone)
    return Pairing(tables, byes), orphans
