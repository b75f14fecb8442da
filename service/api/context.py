"""Where the views find the application's GameService and its TournamentService."""

from __future__ import annotations

from flask import current_app

from service.games import GameService
from service.tournaments import TournamentService

EXTENSION = "archipelago.games"


def game_service() -> GameService:
    """The GameService of the current app (create_app puts it there)."""
    service: GameService = current_app.extensions[EXTENSION]
    return service


def tournament_service() -> TournamentService:
    """The TournamentService of the current app's GameService."""
    service: TournamentService = game_service().tournaments
    return service
