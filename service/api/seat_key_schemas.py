"""The schemas of a seat's public key (record.seat_keys): a JWK as WebCrypto exports it."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

COORDINATE_PATTERN = r"^[A-Za-z0-9_-]{43}$"
"""32 bytes, base64url without padding."""


def _coordinate(description: str, required: bool) -> fields.String:
    return fields.String(
        required=required,
        validate=validate.Regexp(COORDINATE_PATTERN, error="32 bytes, base64url without padding"),
        metadata={"description": description, "pattern": COORDINATE_PATTERN},
    )


class PublicKeySchema(Schema):
    """A seat's public key: ECDSA P-256 (kty EC, crv P-256, x, y) or Ed25519 (kty OKP, crv
    Ed25519, x), as WebCrypto's exportKey("jwk") gives it; `ext`, `key_ops` and `alg` are taken
    and not kept. A point off the curve, a crv of another kty, or a private member is 422
    invalid_key."""

    kty = fields.String(required=True, validate=validate.OneOf(("EC", "OKP")))
    crv = fields.String(required=True, validate=validate.OneOf(("P-256", "Ed25519")))
    x = _coordinate("The x coordinate (EC), or the public key itself (OKP).", required=True)
    y = _coordinate("The y coordinate: EC keys only.", required=False)
    ext = fields.Boolean(truthy={True}, falsy={False})
    key_ops = fields.List(fields.String(validate=validate.Length(max=16)), validate=validate.Length(max=8))
    alg = fields.String(validate=validate.Length(max=16))


class RegisterKeySchema(Schema):
    """POST /games/{id}/key: the seat's public key, once; its commands are signed from then on."""

    public_key = fields.Nested(PublicKeySchema, required=True)
