"""Who acts now: seats, or the system answering a request (chance, scoring), or no one."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol

from domain.decider import Command

# --- whose move it is ---------------------------------------------------------------------


@dataclass(frozen=True)
class Seats:
    """The seats whose command the game waits for (several when they act at once)."""

    seats: tuple[int, ...]


class Turn(enum.Enum):
    """No seat acts: the system must answer a request (chance, scoring), or the game is over."""

    CHANCE = "chance"
    TERMINAL = "terminal"


CHANCE = Turn.CHANCE
TERMINAL = Turn.TERMINAL
ToAct = Seats | Turn
"""One answer to "who acts now", like OpenSpiel's current_player()."""


# --- what the system must answer ----------------------------------------------------------


class RandomSource(Protocol):
    """The little of random.Random the rules' requests use; the caller owns the randomness."""

    def randrange(self, stop: int, /) -> int: ...

    def sample(self, population: Sequence[int], k: int, /) -> list[int]: ...


@dataclass(frozen=True)
class Shuffle:
    """Permutations to draw, by argument name and size; answered at once by `command`."""

    permutations: Mapping[str, int]
    command: str
    immediate: ClassVar[bool] = True

    def answer(self, rng: RandomSource) -> Command:
        args = {name: rng.sample(range(size), size) for name, size in self.permutations.items()}
        return Command(self.command, None, args)


@dataclass(frozen=True)
class Pick:
    """One index to draw per seat, below the size of that seat's hand (e.g. Pele's picks)."""

    hands: Mapping[str, int]
    command: str
    immediate: ClassVar[bool] = True

    def answer(self, rng: RandomSource) -> Command:
        picks = {seat: rng.randrange(size) for seat, size in self.hands.items()}
        return Command(self.command, None, {"picks": picks})


@dataclass(frozen=True)
class Draw:
    """One index to draw per named pile, below that pile's size: a chit from a cup, a tile or
    a card from a face-down pile, a die (a pile of six faces)."""

    piles: Mapping[str, int]
    command: str
    immediate: ClassVar[bool] = True

    def answer(self, rng: RandomSource) -> Command:
        draws = {name: rng.randrange(size) for name, size in self.piles.items()}
        return Command(self.command, None, {"draws": draws})


@dataclass(frozen=True)
class Score:
    """A round to score: no chance, but work the service hands to its worker."""

    round: int
    command: str
    immediate: ClassVar[bool] = False

    def answer(self, rng: RandomSource | None = None) -> Command:
        return Command(self.command, None, {"round": self.round})


SystemRequest = Shuffle | Pick | Draw | Score
"""System work a game waits for; `immediate` ones the service answers in the same append."""
