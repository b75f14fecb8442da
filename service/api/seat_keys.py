"""A seat's own key over HTTP: registered once, then every command of the seat is signed by it."""

from __future__ import annotations

from typing import Any

from record.seat_keys import REGISTER_KEY
from service.api.auth import BEARER_SECURITY, with_seat
from service.api.blueprint import Blueprint
from service.api.games import IDEMPOTENCY_KEY, IF_MATCH, run_command
from service.api.schemas import ExecutedSchema
from service.api.seat_key_schemas import RegisterKeySchema

blp = Blueprint("seat_keys", __name__, description="Signed moves: a seat's public key.")


@blp.post("/games/<game_id>/key")
@blp.doc(security=BEARER_SECURITY, parameters=[IF_MATCH, IDEMPOTENCY_KEY])
@blp.response(201, ExecutedSchema)
@with_seat(required=True)
@blp.arguments(RegisterKeySchema)
def register_key(body: dict[str, Any], game_id: str, seat: int) -> Any:
    """Register the seat's public key, once and before the end (SeatKeyRegistered, 409
    key_registered after that): from the next version on, each command of the seat needs its
    signature (the Archipelago-Signature header) and If-Match, so that the record shows the seat
    made it — whoever runs the service can refuse or delay the seat's moves, never make one up."""
    return run_command(game_id, seat, {"type": REGISTER_KEY, "public_key": body["public_key"]})
