"""A long search cut into slices, so that one computer move never holds a worker for seconds.

A level-5 search (5 s) run as one job keeps every other game's move waiting behind it.
Cut into slices of about a second, each a job of its own that goes to the back of the
queue, it lets another game's move run after at most one slice.

No tree is carried from one slice to the next (a tree does not fit a job's JSON arguments
cheaply): each slice grows a fresh ISMCTS tree from the same knowledge with its own seed,
and adds its root statistics (visits and total win chance per command) to a Tally that
travels to the next slice as the job's argument. The move is the command most visited
over all slices. That is root parallelisation: the same iterations as one long search,
spread over independent trees, which for a tree reset every second costs some depth and
gains more sampled worlds; the budget and the iteration cap are those of the whole move.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ai.ismcts import Budget, Searched
from ai.sim import key
from domain.decider import Command


@dataclass(frozen=True)
class Tally:
    """What the slices of one move have found so far."""

    slices: int = 0
    iterations: int = 0
    seconds: float = 0.0  # the seconds the slices were given (not measured: the count is stable)
    visits: dict[str, float] = field(default_factory=dict)
    totals: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "slices": self.slices,
            "iterations": self.iterations,
            "seconds": self.seconds,
            "visits": dict(self.visits),
            "totals": dict(self.totals),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Tally:
        return cls(
            slices=int(data["slices"]),
            iterations=int(data["iterations"]),
            seconds=float(data["seconds"]),
            visits={str(k): float(v) for k, v in data["visits"].items()},
            totals={str(k): float(v) for k, v in data["totals"].items()},
        )


def next_budget(budget: Budget, tally: Tally, slice_seconds: float) -> Budget | None:
    """What the next slice of a search within `budget` may spend; None once it is all spent."""
    iterations = None if budget.iterations is None else budget.iterations - tally.iterations
    if iterations is not None and iterations <= 0:
        return None
    if budget.seconds is None:
        return Budget(seconds=slice_seconds, iterations=iterations)
    left = budget.seconds - tally.seconds
    if left <= 1e-9:
        return None
    return Budget(seconds=min(slice_seconds, left), iterations=iterations)


def record(tally: Tally, found: Searched, given: Budget) -> Tally:
    """`tally` with one more slice: `found`, searched within `given`."""
    visits, totals = dict(tally.visits), dict(tally.totals)
    for k, seen in found.visits.items():
        visits[k] = visits.get(k, 0.0) + seen
        totals[k] = totals.get(k, 0.0) + seen * found.chances[k]
    return Tally(
        slices=tally.slices + 1,
        iterations=tally.iterations + found.iterations,
        seconds=tally.seconds + (given.seconds or 0.0),
        visits=visits,
        totals=totals,
    )


def best(tally: Tally, legal: Sequence[Command]) -> Command:
    """The command most visited over all slices (then the best mean), first in `legal` on a tie."""

    def rank(command: Command) -> tuple[float, float]:
        visits = tally.visits.get(key(command), 0.0)
        return visits, tally.totals.get(key(command), 0.0) / visits if visits else 0.0

    return max(legal, key=rank)
