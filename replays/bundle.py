"""The tournament bundle: one JSON Lines file holding a tournament's stream and all its games.

Pure (no Redis, no Flask): the service writes it, `replays verify` checks it offline.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from record.envelope import Envelope
from replays.tournament_audit import AuditReport

FORMAT = "archipelago-tournament"
FORMAT_VERSION = 1
MEDIA_TYPE = "application/x-ndjson"


class BundleError(ValueError):
    """A file that is not a readable bundle; `place` names where."""

    def __init__(self, place: object) -> None:
        super().__init__(str(place))
        self.place = place


def write_bundle(
    tournament: Sequence[Envelope], games: Mapping[str, Sequence[Envelope]], viewer: int | None = None
) -> bytes:
    """The bundle of a tournament and every game assigned in it, each game as `viewer` (None: a
    spectator) may see it: every secret of a game whose log is revealed after its end."""
    raise NotImplementedError


def read_bundle(content: bytes) -> tuple[list[Envelope], dict[str, list[Envelope]]]:
    """The tournament's envelopes and each game's, by game id; BundleError naming the bad place."""
    raise NotImplementedError


def is_bundle(content: bytes) -> bool:
    """Whether `content` opens as a tournament bundle (rather than one game's file)."""
    raise NotImplementedError


def verify_bundle(content: bytes) -> AuditReport:
    """The audit of a bundle, offline; any changed byte is found with its stream, event and line."""
    raise NotImplementedError
