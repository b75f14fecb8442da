"""The audit of a tournament: every hash chain, every fold, every result against its game.

Pure (no Redis, no Flask): the service audits the streams it re-reads from its store, and
`replays verify` audits a bundle offline, with the same function.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from record.envelope import Envelope

TOURNAMENT = "tournament"


def game_stream(game_id: str) -> str:
    """The name a report gives a game's stream."""
    return f"game {game_id}"


@dataclass(frozen=True)
class BrokenPlace:
    """Where a record stops being sound: the stream, the event number, the line of a bundle file."""

    stream: str  # "tournament", "game <game_id>", or "bundle" for the bundle's own header line
    version: int | None
    line: int | None
    reason: str

    def __str__(self) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class AuditReport:
    ok: bool
    streams: int
    events: int
    corrections: list[dict[str, Any]] = field(default_factory=list)
    broken: BrokenPlace | None = None
    mismatches: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        raise NotImplementedError


def audit(tournament: Sequence[Envelope], games: Mapping[str, Sequence[Envelope]]) -> AuditReport:
    """Every chain verified, the tournament and every game re-folded, each result checked against
    its game's own GameEnded (data and final hash), every ResultCorrected listed."""
    raise NotImplementedError
