"""What a pairing engine reads of each entrant and what it answers: tables in seat order, byes."""

from __future__ import annotations

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
    """

    id: str
    points: float
    rank: int
    opponents: frozenset[str] = frozenset()
    seats: tuple[int, ...] = ()
    byes: int = 0
