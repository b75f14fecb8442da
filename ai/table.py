"""A game played in memory, event by event, as the service would record it (no Redis).

The arena and the tests use it to give each computer player exactly what the service
gives one: its view and the events as redacted for it (ai.knowledge.build), never the
State the table keeps.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ai.knowledge import SeatKnowledge, build
from ai.sim import apply, mover
from domain.decider import Command, Event
from domain.games import rules_for
from record.redaction import redact_event


class Table:
    """One game: its state, its events (version 1 = GameCreated), the system's chance."""

    def __init__(self, setup: Mapping[str, Any], rng: random.Random) -> None:
        self.setup = dict(setup)
        self.rng = rng
        self.game = rules_for(self.setup["game"])
        self.state: Any = self.game.initial_state(self.setup)
        self.events: list[Event] = [self.game.created_event(self.setup)]
        self._settle()

    @property
    def version(self) -> int:
        return len(self.events)

    @property
    def ended(self) -> bool:
        return self.game.is_terminal(self.state)

    def mover(self) -> int | None:
        return mover(self.game, self.state)

    def knowledge(self, seat: int) -> SeatKnowledge:
        """What `seat` knows now, built from its view and its redacted events only."""
        shown = [redact_event(event, n, seat) for n, event in enumerate(self.events, start=1)]
        return build(seat, self.game.view(self.state, seat), shown)

    def legal(self, seat: int) -> list[Command]:
        return list(self.game.legal_commands(self.state, seat))

    def play(self, command: Command) -> list[Event]:
        """Decide and record a seat's command, then the system work that follows."""
        self.state, events = apply(self.game, self.state, command)
        self.events += events
        self._settle()
        return events

    def _settle(self) -> None:
        while (pending := self.game.pending_system(self.state)) is not None:
            self.state, events = apply(self.game, self.state, pending.answer(self.rng))
            self.events += events

    def result(self) -> Mapping[str, Any] | None:
        return self.game.result(self.state)
