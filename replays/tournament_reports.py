"""Reports of a tournament from its view (domain.tournament.module.view): standings, crosstable,
pairings as JSON-ready values and CSV, and a Swiss as a FIDE TRF file."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any


def standings_csv(view: Mapping[str, Any]) -> str:
    """The standings as CSV: one row per entrant, first first, every tie-break in order."""
    raise NotImplementedError


def crosstable(view: Mapping[str, Any]) -> dict[str, Any]:
    """Every entrant's outcomes against every other, in standings order."""
    raise NotImplementedError


def crosstable_csv(view: Mapping[str, Any]) -> str:
    raise NotImplementedError


def pairings(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Round by round: the tables (seats, game, result) and the byes."""
    raise NotImplementedError


def trf(
    view: Mapping[str, Any],
    *,
    city: str = "",
    federation: str = "",
    arbiter: str = "",
    start: date | None = None,
    end: date | None = None,
    round_dates: Sequence[date] = (),
) -> str:
    """A Swiss (or round robin) of a 2-player game as FIDE TRF-16 text (replays.trf.write_trf)."""
    raise NotImplementedError
