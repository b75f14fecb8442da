"""The ratings a Swiss paired by rating draws with its lots: each entrant's openskill ordinal
for the tournament's game (service.ratings_projection), None for a player not rated yet."""

from __future__ import annotations

from dataclasses import asdict

from domain.core import Command
from domain.tournaments import State
from service.ratings_projection import RatingsProjection, player_of


def with_ratings(command: Command, state: State, projection: RatingsProjection) -> Command:
    """`command` (DrawLots) with the ratings of the entrants it draws, when the tournament
    numbers its entrants by rating; else `command` as it is."""
    if state.settings.pairing_numbers != "ratings":
        return command
    _, players = projection.ratings(state.settings.game)
    ordinals = {p["player"]: p["ordinal"] for p in players}
    ratings = {}
    for entrant_id in state.lots_due():
        entrant = state.entrant(entrant_id)
        assert entrant is not None
        ratings[entrant_id] = ordinals.get(player_of(asdict(entrant))["key"])
    return Command(command.type, command.seat, {**command.args, "ratings": ratings})
