"""Where the views find the application's GameService, its TournamentService and the receipt Signer."""

from __future__ import annotations

from flask import current_app

from service.games import GameService
from service.signing import Signer
from service.tournaments import TournamentService

EXTENSION = "archipelago.games"
SIGNER = "archipelago.signer"


def game_service() -> GameService:
    """The GameService of the current app (create_app puts it there)."""
    service: GameService = current_app.extensions[EXTENSION]
    return service


def tournament_service() -> TournamentService:
    """The TournamentService of the current app's GameService."""
    service: TournamentService = game_service().tournaments
    return service


def signer() -> Signer:
    """The Signer of the current app's receipts (create_app puts it there)."""
    found: Signer = current_app.extensions[SIGNER]
    return found
