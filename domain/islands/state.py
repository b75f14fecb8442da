"""The state of an island game: an immutable value rebuilt by folding its events."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from domain.islands.ruleset import Ruleset

# Phases: "setup" waits for the system's shuffle, "play" takes seats' commands,
# "scoring" waits for the scoring job, "ended" takes nothing.
SETUP, PLAY, SCORING, ENDED = "setup", "play", "scoring", "ended"


@dataclass(frozen=True)
class State:
    rules: Ruleset
    names: tuple[str, ...]
    mode: str
    phase: str
    round: int
    active: int
    owners: tuple[int | None, ...]  # per board line: the seat whose bridge lies there
    control: tuple[int | None, ...]  # per island: the seat whose marker stands there
    stock: tuple[int, ...]  # bridges each seat still has off the board
    hands: tuple[tuple[str, ...], ...]  # sorted
    face_up: tuple[str, ...] = ()
    stack: tuple[str, ...] = ()  # index 0 is the top
    played: tuple[str, ...] = ()  # discard pile, face up
    hidden: tuple[str, ...] = ()  # discard pile, face down
    scores: tuple[int, ...] = ()
    scorings: tuple[tuple[int, ...], ...] = ()  # points of each scoring so far
    result: dict[str, Any] | None = field(default=None, compare=True)

    @property
    def seats(self) -> int:
        return len(self.names)

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.seats

    def bridges_on(self, island: str, seat: int) -> int:
        """How many of `seat`'s bridges touch `island`."""
        return sum(1 for n in self.rules.board.lines_of(island) if self.owners[n] == seat)

    def holds_majority(self, island: str, seat: int) -> bool:
        """F-1: more than half of the island's places hold `seat`'s bridges."""
        return 2 * self.bridges_on(island, seat) > self.rules.board.places(island)

    def controller(self, island: str) -> int | None:
        return self.control[self._island_index(island)]

    def islands_of(self, seat: int) -> tuple[str, ...]:
        names = self.rules.board.names
        return tuple(names[i] for i, owner in enumerate(self.control) if owner == seat)

    def pool(self) -> tuple[str, ...]:
        """Every card outside the hands, sorted: what a new round shuffles."""
        return tuple(sorted(self.face_up + self.stack + self.played + self.hidden))

    def _island_index(self, island: str) -> int:
        return self.rules.board.names.index(island)


def without(cards: tuple[str, ...], taken: Iterable[str]) -> tuple[str, ...]:
    """`cards` less one copy of each card in `taken` (the caller checked they are there)."""
    rest = list(cards)
    for card in taken:
        rest.remove(card)
    return tuple(rest)


def holds(cards: tuple[str, ...], wanted: Iterable[str]) -> bool:
    """Whether `cards` contains every card of `wanted`, counting copies."""
    rest = list(cards)
    for card in wanted:
        if card not in rest:
            return False
        rest.remove(card)
    return True


def set_at(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return values[:index] + (value,) + values[index + 1 :]


def update(state: State, **changes: Any) -> State:
    return replace(state, **changes)
