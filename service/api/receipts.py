"""The service's signed receipts on request, and the public keys that verify every receipt.

A command's answer carries the receipt of the version it reached; these give the receipt of a
stream's newest version to anyone who asks, so that what others append (a computer's move, the
scoring, a result the service records, a pairing) can be vouched for too.
"""

from __future__ import annotations

from typing import Any

from record.envelope import Envelope
from record.receipts import GAME, TOURNAMENT
from service.api.blueprint import Blueprint
from service.api.context import game_service, signer, tournament_service
from service.api.receipt_schemas import KeySetSchema, ReceiptSchema, TournamentReceiptSchema

blp = Blueprint("receipts", __name__, description="Signed receipts and the keys that verify them.")


@blp.get("/.well-known/archipelago/keys")
@blp.response(200, KeySetSchema)
def keys() -> Any:
    """The JWK set of the receipts' keys (Ed25519): the current one and every retired one."""
    return signer().key_set()


@blp.get("/games/<game_id>/receipt")
@blp.response(200, ReceiptSchema)
def game_receipt(game_id: str) -> Any:
    """The signed receipt of the game's newest version (of its last sound one, when the stored
    chain breaks: the service vouches only for what holds)."""
    loaded = game_service().load(game_id)
    newest = _sound(loaded.envelopes, loaded.broken)
    return signer().receipt(GAME, game_id, newest)


@blp.get("/tournaments/<tournament_id>/receipt")
@blp.response(200, TournamentReceiptSchema)
def tournament_receipt(tournament_id: str) -> Any:
    """The signed receipt of the tournament's newest version (its last sound one, as for a game)."""
    loaded = tournament_service().load(tournament_id)
    newest = _sound(loaded.envelopes, loaded.broken)
    return signer().receipt(TOURNAMENT, tournament_id, newest)


def _sound(envelopes: list[Envelope], broken: int | None) -> Envelope:
    return envelopes[-1] if broken is None else envelopes[broken - 2]
