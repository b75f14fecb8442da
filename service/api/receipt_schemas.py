"""The signed receipts of command answers and the published key set that verifies them."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

SIGNATURE = (
    "base64url (unpadded) Ed25519 signature, by the key `kid`, over the canonical JSON (sorted keys, "
    "no spaces) of the receipt's other five fields."
)


class _Receipt(Schema):
    version = fields.Integer(required=True, metadata={"description": "The stream's version vouched for."})
    hash = fields.String(required=True, metadata={"description": "The hash of the event at `version`."})
    at = fields.String(
        required=True, metadata={"description": "When the event at `version` was appended (its `at`, UTC)."}
    )
    kid = fields.String(
        required=True,
        metadata={"description": "The signing key: its RFC 7638 thumbprint, as in the key set."},
    )
    sig = fields.String(required=True, metadata={"description": SIGNATURE})


class ReceiptSchema(_Receipt):
    """The service's signed word that the game's event `version` hashes to `hash`: keep it; a file
    of the game that disagrees with it (`replays verify --receipts`) was rewritten or cut short."""

    game_id = fields.String(required=True)


class TournamentReceiptSchema(_Receipt):
    """As a game's receipt, for the tournament's stream of events."""

    tournament_id = fields.String(required=True)


class JwkSchema(Schema):
    """An Ed25519 public key as a JWK (RFC 8037)."""

    kty = fields.String(required=True, validate=validate.OneOf(["OKP"]))
    crv = fields.String(required=True, validate=validate.OneOf(["Ed25519"]))
    x = fields.String(required=True, metadata={"description": "The public key, base64url."})
    kid = fields.String(required=True, metadata={"description": "The key's RFC 7638 thumbprint."})
    alg = fields.String(required=True, validate=validate.OneOf(["EdDSA"]))
    use = fields.String(required=True, validate=validate.OneOf(["sig"]))


class KeySetSchema(Schema):
    """Every key whose receipts verify: the current signing key first, then the retired ones."""

    keys = fields.List(fields.Nested(JwkSchema), required=True)
