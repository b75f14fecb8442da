"""A game's end over HTTP: resign and abort (as commands), and the rematch of a finished game.

Resign and Abort are seat commands like those of /commands (If-Match, Idempotency-Key, the same
answer), decided by domain/resign.py; they may be posted there too. The rematch is no command
of the old game, which takes no more events: see service/rematches.py.
"""

from __future__ import annotations

from typing import Any

from service.api.auth import BEARER_SECURITY, with_seat
from service.api.blueprint import Blueprint
from service.api.context import game_service
from service.api.finish_schemas import RematchSchema
from service.api.games import IDEMPOTENCY_KEY, IF_MATCH, SIGNATURE, run_command
from service.api.rate_limits import client_address, command_limit, creation_limit
from service.api.schemas import ExecutedSchema
from service.rematches import Rematches

blp = Blueprint("finish", __name__, description="Resign, abort, and play again.")


@blp.post("/games/<game_id>/resign")
@blp.doc(security=BEARER_SECURITY, parameters=[IF_MATCH, IDEMPOTENCY_KEY, SIGNATURE])
@blp.response(200, ExecutedSchema)
@command_limit
@with_seat(required=True)
def post_resign(game_id: str, seat: int) -> Any:
    """Resign: the game ends at once (GameResigned) and the other seat(s) win."""
    return run_command(game_id, seat, {"type": "Resign"})


@blp.post("/games/<game_id>/abort")
@blp.doc(security=BEARER_SECURITY, parameters=[IF_MATCH, IDEMPOTENCY_KEY, SIGNATURE])
@blp.response(200, ExecutedSchema)
@command_limit
@with_seat(required=True)
def post_abort(game_id: str, seat: int) -> Any:
    """Abort: the game ends with no result (GameAborted); only before a second seat has moved
    (409 abort_too_late after), never in a tournament (409 abort_not_allowed_in_tournament)."""
    return run_command(game_id, seat, {"type": "Abort"})


@blp.get("/games/<game_id>/rematch")
@blp.response(200, RematchSchema)
def get_rematch(game_id: str) -> Any:
    """Who asked for a rematch of this game, who is awaited, and the new game once it exists."""
    return Rematches(game_service()).status(game_id).body()


@blp.post("/games/<game_id>/rematch")
@blp.doc(security=BEARER_SECURITY)
@blp.response(200, RematchSchema)
@creation_limit
@with_seat(required=True)
def post_rematch(game_id: str, seat: int) -> Any:
    """Ask for a rematch, or agree to the one asked; once every person at the table has, the new
    game exists (seats turned by one: two players swap) and the answer holds your seat and a
    fresh token there. Ask again with your old token to fetch it later. 409 game_not_over
    before the end, rematch_not_in_tournament in a tournament."""
    return Rematches(game_service()).ask(game_id, seat, client_address()).body()
