"""FIDE TRF-16 report of a Swiss tournament: plain data in, text out."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class TrfGame:
    """One round of one player: opponent's start number (None: no opponent), colour, result.

    colour: "w" (first seat), "b" (second seat) or "-" (no game); result: "1", "0", "=",
    "+" (won by forfeit), "-" (lost by forfeit), "U" (bye scored as a win), "H", "F", "Z".
    """

    opponent: int | None
    colour: str
    result: str


@dataclass(frozen=True)
class TrfPlayer:
    """A player line ("001"): start number, name, points, rank and one TrfGame per round."""

    number: int
    name: str
    points: float
    rank: int
    games: tuple[TrfGame, ...] = ()
    sex: str = ""
    title: str = ""
    rating: int = 0
    federation: str = ""
    fide_id: str = ""
    birth: date | None = None


@dataclass(frozen=True)
class TrfTournament:
    """The header lines (012 name, 022 city, 042/052 dates, 062 players, 132 round dates)."""

    name: str
    players: tuple[TrfPlayer, ...]
    city: str = ""
    federation: str = ""
    start: date | None = None
    end: date | None = None
    arbiter: str = ""
    round_dates: tuple[date, ...] = ()


def write_trf(tournament: TrfTournament) -> str:
    """The tournament as TRF-16 text, one line per record, "\\n" line ends."""
    raise NotImplementedError
