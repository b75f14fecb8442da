"""The deal over HTTP: a seat adds its own entropy to the game's later draws."""

from __future__ import annotations

from typing import Any

from service.api.auth import BEARER_SECURITY, with_seat
from service.api.blueprint import Blueprint
from service.api.deal_schemas import EntropySchema
from service.api.games import IDEMPOTENCY_KEY, IF_MATCH, SIGNATURE, run_command
from service.api.schemas import ExecutedSchema
from service.entropy import ADD_ENTROPY

blp = Blueprint("deal", __name__, description="The deal: seats' entropy for the committed seed.")


@blp.post("/games/<game_id>/entropy")
@blp.doc(security=BEARER_SECURITY, parameters=[IF_MATCH, IDEMPOTENCY_KEY, SIGNATURE])
@blp.response(201, ExecutedSchema)
@with_seat(required=True)
@blp.arguments(EntropySchema)
def add_entropy(body: dict[str, Any], game_id: str, seat: int) -> Any:
    """Add the seat's own randomness to the deal, once per seat and before the end: it is
    recorded (EntropyAdded) and mixed into every draw after it, so that neither the operator,
    who committed to the seed before, nor the seat, who cannot know the seed, chooses them."""
    return run_command(game_id, seat, {"type": ADD_ENTROPY, "entropy": body["entropy"]})
