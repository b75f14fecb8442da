"""What a pairing engine reads of each entrant and what it answers: tables in seat order, byes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Pairing:
    """One round: entrant ids per table in seat order (first seat first), and who sits out."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Standing:
    """What a pairing engine knows of one entrant.

    `rank` 0 is first in the current standings (tie-breaks already applied); `opponents` are
    everyone met so far (byes excluded); `seats[i]` counts the games played in seat i.
    What the Dutch system reads besides: `number`, the pairing number (1 first); `colours`,
    one entry per round, the seat held or None without a game; `floats`, one per round, "D"
    (met a lower score or had the pairing bye), "U" (met a higher score) or ""; and how many
    pairing-allocated byes the entrant had.
    """

    id: str
    points: float
    rank: int
    opponents: frozenset[str] = frozenset()
    seats: tuple[int, ...] = ()
    byes: int = 0
    number: int = 0
    colours: tuple[int | None, ...] = ()
    floats: tuple[str, ...] = ()
    pairing_byes: int = 0

    def held(self, seat: int) -> int:
        """How many games this entrant played in `seat` (0 for a seat never counted)."""
        return self.seats[seat] if seat < len(self.seats) else 0


def in_rank_order(standings: Sequence[Standing]) -> list[Standing]:
    """The standings best first; equal ranks by id, so the input's order never matters."""
    if len({s.id for s in standings}) != len(standings):
        raise ValueError("an entrant appears twice in the standings")
    return sorted(standings, key=lambda s: (s.rank, s.id))


def bye_candidates(ordered: Sequence[Standing]) -> list[Standing]:
    """Who should sit out first: fewest byes so far, then the lowest-ranked."""
    return sorted(reversed(ordered), key=lambda s: s.byes)
