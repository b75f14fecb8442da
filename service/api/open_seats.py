"""Open seats over HTTP: the first person to ask takes the seat and gets its token."""

from __future__ import annotations

from typing import Any

from record.open_seats import open_seats
from service.api.account_context import accounts, seat_holder
from service.api.blueprint import Blueprint
from service.api.context import game_service
from service.api.open_seat_schemas import OpenSeatRequestSchema, OpenSeatTakenSchema
from service.api.rate_limits import command_limit
from service.api.replays import refuse_archived

blp = Blueprint("open_seats", __name__, description="Open seats: take a seat a game was created with.")


@blp.post("/games/<game_id>/seats/<int:seat>")
@blp.response(201, OpenSeatTakenSchema)
@command_limit
@refuse_archived
@blp.arguments(OpenSeatRequestSchema)
def take_seat(body: dict[str, Any], game_id: str, seat: int) -> Any:
    """Take the open `seat` under a name: SeatTaken is recorded and the seat's token is in the
    answer, shown only this once. 404 seat_not_found for a seat the game does not have; 409
    seat_not_open for a seat created with a player (a person's, a computer's) or taken already;
    409 name_of_account for an account's name without that account's session. With a session
    the seat is kept with the account (GET /account/seats/{game_id})."""
    holder = seat_holder(body["name"])
    executed, token = game_service().take_seat(game_id, seat, body["name"])
    if holder is not None:
        accounts().bind_seat(holder, game_id, seat, token)
    return {
        "game_id": game_id,
        "seat": seat,
        "name": body["name"],
        "version": executed.version,
        "token": token,
        "open_seats": open_seats(executed.loaded.envelopes),
    }
