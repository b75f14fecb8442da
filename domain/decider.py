"""The contract every game's rules honour: commands in, events out (or IllegalMove), state by
folding."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

SERVER: tuple[int, ...] = ()
"""Audience of a secret that only the server may read (e.g. the stack order)."""


class DomainError(Exception):
    """Root of every refusal the rules can give; carries a stable machine code."""

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field  # the offending input, e.g. "options.handicap.seat", when known


class IllegalMove(DomainError):
    """A command the rules refuse in the current state."""


@dataclass(frozen=True, init=False)
class Command:
    """An imperative request: `type` like "PlaceBridge", `seat` None for the system."""

    type: str
    seat: int | None
    args: Mapping[str, Any] = field(default_factory=dict)

    def __init__(self, type: str, seat: int | None, args: Mapping[str, Any] | None = None) -> None:
        # Searches build hundreds of thousands of these a second; the generated frozen
        # __init__ calls object.__setattr__ per field, twice the cost of these stores.
        fields = self.__dict__
        fields["type"] = type
        fields["seat"] = seat
        fields["args"] = {} if args is None else args

    def to_json(self) -> dict[str, Any]:
        """The command as the body a client would POST."""
        return {"type": self.type, **self.args}


@dataclass(frozen=True, init=False)
class Event:
    """A fact in the past tense; `secret` is readable only by `audience` seats."""

    type: str
    data: Mapping[str, Any]
    secret: Mapping[str, Any] | None = None
    audience: tuple[int, ...] = SERVER
    schema: int = 1

    def __init__(
        self,
        type: str,
        data: Mapping[str, Any],
        secret: Mapping[str, Any] | None = None,
        audience: tuple[int, ...] = SERVER,
        schema: int = 1,
    ) -> None:
        # As Command's: the rules make several events per command.
        fields = self.__dict__
        fields["type"] = type
        fields["data"] = data
        fields["secret"] = secret
        fields["audience"] = audience
        fields["schema"] = schema


S = TypeVar("S")


class Decider(Protocol[S]):
    """What the service needs from a game's rules; all functions are pure."""

    def initial_state(self, setup: Mapping[str, Any]) -> S: ...

    def decide(self, state: S, command: Command) -> list[Event]: ...

    def evolve(self, state: S, event: Event) -> S: ...

    def legal_commands(self, state: S, seat: int) -> Sequence[Command]: ...

    def view(self, state: S, seat: int | None) -> dict[str, Any]: ...

    def is_terminal(self, state: S) -> bool: ...


def fold(decider: Decider[S], state: S, events: Iterable[Event]) -> S:
    """The state after applying `events` in order."""
    for event in events:
        state = decider.evolve(state, event)
    return state
