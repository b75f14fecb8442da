"""The ratings a Swiss paired by rating draws with its lots: each entrant's openskill ordinal
for the tournament's game (service.ratings_projection), None for a player not rated yet."""

from __future__ import annotations

from domain.decider import Command
from domain.tournament_rules import State
from service.ratings_projection import RatingsProjection


def with_ratings(command: Command, state: State, projection: RatingsProjection) -> Command:
    """`command` (DrawLots) with the ratings of the entrants it draws, when the tournament
    numbers its entrants by rating; else `command` as it is. Only an entrant registered as a
    player can hold a rating then: any other is a one-off player of this tournament, and has
    played no rated game when its lot is drawn (docs/tournaments.md, "Who is rated")."""
    if state.settings.pairing_numbers != "ratings":
        return command
    _, players = projection.ratings(state.settings.game)
    ordinals = {p["player"]: p["ordinal"] for p in players}
    ratings = {}
    for entrant_id in state.lots_due():
        entrant = state.entrant(entrant_id)
        assert entrant is not None
        ratings[entrant_id] = None if entrant.player is None else ordinals.get(entrant.player)
    return Command(command.type, command.seat, {**command.args, "ratings": ratings})
