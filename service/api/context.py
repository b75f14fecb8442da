"""Where the views find the application's GameService."""

from __future__ import annotations

from flask import current_app

from service.games import GameService

EXTENSION = "archipelago.games"


def game_service() -> GameService:
    """The GameService of the current app (create_app puts it there)."""
    service: GameService = current_app.extensions[EXTENSION]
    return service
