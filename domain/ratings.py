"""Ratings of players from finished games."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Rating:
    """A skill estimate: mean `mu`, uncertainty `sigma`, and the number of rated games."""

    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative figure shown in lists: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


def initial_rating() -> Rating:
    """The rating of a player with no rated game."""
    raise NotImplementedError


def rate(ratings: Mapping[str, Rating], places: Mapping[str, int]) -> dict[str, Rating]:
    """The new ratings of the players of one finished game, from each one's place (1 = first)."""
    raise NotImplementedError
