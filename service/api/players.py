"""Players over HTTP: a person's key to its ratings across tournaments (service.players)."""

from __future__ import annotations

from typing import Any

from service.api.blueprint import Blueprint
from service.api.context import tournament_service
from service.api.player_schemas import PlayerCreatedSchema
from service.api.rate_limits import creation_limit
from service.players import Players

blp = Blueprint("players", __name__, description="Players: whom the ratings follow across tournaments.")


@blp.post("/players")
@creation_limit
@blp.response(201, PlayerCreatedSchema)
def create_player() -> Any:
    """Create a player; the answer holds its token, shown only once. Register with that token
    as the bearer token and every tournament's games of that entrant rate the one player."""
    player_id, token = Players(tournament_service().redis).create()
    return {"player": player_id, "token": token}
