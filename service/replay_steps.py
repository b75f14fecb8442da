"""A game's steps in words (one per command, as a viewer may know it), kept as the game grows.

The play page's log, the replay's log and each of its frames, and GET /games/{id}/replay all
describe every step of the game, each time they are asked: in a long Conquest of Paradise
game, most of a panel's or a frame's time. The steps of a record's first events never
change while its later events are appended, so each viewer's steps are kept and extended by
the newer events alone. They are found by the hash of the newest event they describe (the
hash chain ties it to every event before it): a record that changed finds none.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from domain import resign
from record.envelope import Envelope
from record.redaction import redact
from service.loaded import Loaded

Step = dict[str, Any]
KEPT = 32
"""Viewers' step lists kept in all (a game's spectators share one), least recently used first out.
A finished 4,000-version Conquest of Paradise game's 3,157 steps take about 1.5 MB: some 50 MB
per web process at most (about 480 bytes a step)."""


class ReplaySteps:
    """Each viewer's steps of the games lately asked for; read them, never change them."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        # (game id, viewer, revealed) -> (the steps, the hash of the newest event they describe)
        self._steps: OrderedDict[tuple[str, int | None, bool], tuple[list[Step], str]] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, loaded: Loaded, viewer: int | None) -> list[Step]:
        """The steps of `loaded` as `viewer` may know them: shared, to be read, never changed."""
        key = (loaded.game_id, viewer, loaded.revealed)
        with self._lock:
            held = self._steps.get(key)
        envelopes = loaded.envelopes
        kept: list[Step] = []
        if held is not None:
            steps, digest = held
            newest = steps[-1]["version"] if steps else 0
            if newest == len(envelopes) and envelopes[-1].hash == digest:
                return steps
            if 0 < newest < len(envelopes) and envelopes[newest - 1].hash == digest:
                # The last kept step is described again: a command's events could run on.
                kept = steps[:-1]
        start = kept[-1]["version"] if kept else 0
        found = [*kept, *described(loaded, viewer, envelopes[start:])]
        with self._lock:
            self._steps[key] = (found, envelopes[-1].hash)
            self._steps.move_to_end(key)
            while len(self._steps) > self.kept:
                self._steps.popitem(last=False)
        return found


def described(loaded: Loaded, viewer: int | None, envelopes: Sequence[Envelope]) -> list[Step]:
    """The steps of `envelopes` (a run of whole commands of `loaded`'s record) in words."""
    names = [seat["name"] for seat in loaded.setup["seats"]]
    steps = []
    for group in _commands(envelopes, [redact(e, viewer, loaded.revealed) for e in envelopes]):
        last = group[-1]
        steps.append(
            {
                "version": last["version"],
                "first_version": group[0]["version"],
                "actor": last["actor"],
                "at": last["at"],
                "types": [e["type"] for e in group],
                "description": resign.describe(group[-1], names) or loaded.rules.describe(group, names),
            }
        )
    return steps


def _commands(envelopes: Sequence[Envelope], shown: Sequence[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The redacted events grouped by the command (or system step) that appended them."""
    groups: list[list[dict[str, Any]]] = []
    previous = None
    for envelope, event in zip(envelopes, shown, strict=True):
        if groups and envelope.command_id == previous:
            groups[-1].append(event)
        else:
            groups.append([event])
        previous = envelope.command_id
    return groups
