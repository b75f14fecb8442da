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

from domain.ending import PLATFORM_ENDINGS
from record.draws import EntropyLog, entropy_pair
from record.envelope import Envelope
from record.seat_keys import KEY_EVENT, keys_after, setup_keys

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
        """These marks with `newer`, the events right after the first `count`, read too."""
        end, keys, entropy = self.platform_end, self.keys, self.entropy
        positions: dict[str, tuple[int, ...]] | None = None
        for at, envelope in enumerate(newer, start=self.count):
            kind = envelope.type
            if at == 0:
                keys = setup_keys(envelope.data)
            elif kind == KEY_EVENT:
                keys = keys_after(keys, [envelope])
            if kind in PLATFORM_ENDINGS:
                end = envelope
            pair = entropy_pair(envelope)
            if pair is not None:
                entropy = (*entropy, (envelope.version, pair))
            if positions is None:  # copied once, not per event: most extensions are one command
                positions = dict(self.positions)
            positions[envelope.command_id] = (*positions.get(envelope.command_id, ()), at)
        if positions is None:
            return self
        return Marks(self.count + len(newer), end, positions, keys, entropy)

    def written_by(self, envelopes: Sequence[Envelope], command_id: str) -> list[Envelope]:
        """The events of `envelopes` (the record these marks were read off) that `command_id` wrote."""
        return [envelopes[at] for at in self.positions.get(command_id, ())]


def marks_of(envelopes: Sequence[Envelope]) -> Marks:
    """The marks of a whole record, from version 1 on."""
    return Marks().after(envelopes)
