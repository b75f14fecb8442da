"""Ratings of players from finished games, by openskill's Weng-Lin Plackett-Luce model.

Why openskill: the island games are played by 2, 3 or 4, and Elo or Glicko only rate
two-player games. Weng-Lin ("A Bayesian Approximation Method for Online Ranking", 2011)
rates a whole finishing order at once and handles ties (equal places); the Plackett-Luce
variant suits free-for-all orders like Arabana-Opodopo's. openskill implements it in
Python with no dependency outside the standard library, is maintained and MIT-licensed,
where TrueSkill, the other multiplayer choice, is patented and trademarked by Microsoft.
A rating is a mean `mu` and an uncertainty `sigma`; lists show the conservative
mu - 3 sigma, which starts at 0 and rises as games make the estimate surer.

The same ratings and places always give the same new ratings: the model has no chance in
it, so ratings can be recomputed from the event log.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()


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
    """The rating of a player with no rated game (openskill's defaults: mu 25, sigma 25/3)."""
    return Rating(_MODEL.mu, _MODEL.sigma)


def rate(ratings: Mapping[str, Rating], places: Mapping[str, int]) -> dict[str, Rating]:
    """The new ratings of the players of one finished game, from each one's place (1 = first,
    equal places = a tie); a player missing from `ratings` starts from the initial rating."""
    if not 2 <= len(places) <= 4:
        raise ValueError(f"a rated game has 2 to 4 players, not {len(places)}")
    # A fixed order, so that the same game rates the same whatever order the places came in.
    players = sorted(places)
    before = [ratings.get(p, initial_rating()) for p in players]
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = _MODEL.rate(teams, ranks=[places[p] for p in players])
    return {
        p: Rating(team[0].mu, team[0].sigma, r.games + 1)
        for p, r, team in zip(players, before, after, strict=True)
    }
