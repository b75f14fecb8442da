"""What requests read off a game's whole record, kept as the record grows.

Whether a forfeit, a resignation or an abort ended the game, which events a command id
already wrote, the seats' keys and the entropy mixed into each draw were each found by
reading every event, several times a request. A Conquest of Paradise game passes 4,000
versions: those reads then cost more than the rest of its requests. `Marks` hold their
answers for a record's first `count` events, and `after` extends them by the newer events
alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from domain.ending import platform_end
from record.draws import EntropyLog, entropy_log
from record.envelope import Envelope
from record.seat_keys import keys_after, seat_keys

Keys = Mapping[int, Mapping[str, str]]


@dataclass(frozen=True)
class Marks:
    """Read off a record's first `count` events. Shared by every request that loads the game at
    that version: nothing here is changed after it is made (read, never write, `keys`)."""

    count: int = 0
    platform_end: Envelope | None = None
    """The last GameForfeited, GameResigned or GameAborted (domain.ending.platform_end)."""
    positions: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    """Per command id, the positions of the events it wrote, in order."""
    keys: Keys = field(default_factory=dict)
    """Each seat's key (record.seat_keys.seat_keys)."""
    entropy: EntropyLog = ()
    """The entropy the record adds to its deal (record.draws.entropy_log)."""

    def after(self, newer: Sequence[Envelope]) -> Marks:
        """These marks with `newer`, the events right after the first `count`, read too: each
        mark by the function that reads it off a whole record, given the newer events alone."""
        if not newer:
            return self
        positions = dict(self.positions)  # copied once, not per event
        for at, envelope in enumerate(newer, start=self.count):
            positions[envelope.command_id] = (*positions.get(envelope.command_id, ()), at)
        end = platform_end(newer)
        return Marks(
            self.count + len(newer),
            self.platform_end if end is None else end,
            positions,
            seat_keys(newer) if self.count == 0 else keys_after(self.keys, newer),
            (*self.entropy, *entropy_log(newer)),
        )

    def written_by(self, envelopes: Sequence[Envelope], command_id: str) -> list[Envelope]:
        """The events of `envelopes` (the record these marks were read off) that `command_id` wrote."""
        return [envelopes[at] for at in self.positions.get(command_id, ())]


def marks_of(envelopes: Sequence[Envelope]) -> Marks:
    """The marks of a whole record, from version 1 on."""
    return Marks().after(envelopes)
