"""Marshmallow schemas of accounts, sessions and passkeys."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.accounts.names import MAX_NAME
from service.accounts.passwords import MAX_PASSWORD


class CredentialsSchema(Schema):
    """POST /accounts and POST /session: a name and a password."""

    name = fields.String(
        required=True,
        validate=validate.Length(min=1, max=4 * MAX_NAME),
        metadata={"description": "1-32 letters, digits, spaces, dots, dashes or _; unique ignoring case."},
    )
    password = fields.String(
        required=True,
        load_only=True,
        validate=validate.Length(min=1, max=MAX_PASSWORD),
        metadata={"description": "At least 8 characters; kept only as an argon2id hash."},
    )


class AccountSchema(Schema):
    """The signed-in account."""

    name = fields.String(required=True, metadata={"description": "The name as the account shows it."})
    player = fields.String(
        required=True, metadata={"description": "The player id its ratings follow (GET /ratings/{game})."}
    )
    passkeys = fields.Integer(required=True, metadata={"description": "How many passkeys it holds."})
    page = fields.String(required=True, metadata={"description": "The player's page (HTML)."})


class CeremonySchema(Schema):
    """The start of a passkey ceremony."""

    ceremony = fields.String(
        required=True, metadata={"description": "Send it back with the credential, within 5 minutes, once."}
    )
    options = fields.Dict(
        required=True,
        metadata={
            "description": "PublicKeyCredentialCreationOptions (or RequestOptions) as JSON, binary "
            "members base64url: what navigator.credentials.create() (or get()) takes once decoded."
        },
    )


class CredentialAnswerSchema(Schema):
    """The browser's answer to a ceremony."""

    ceremony = fields.String(required=True, validate=validate.Length(min=1, max=64))
    credential = fields.Dict(
        required=True,
        metadata={"description": "The PublicKeyCredential as JSON (its toJSON()), binary members base64url."},
    )


class PasskeyAddedSchema(Schema):
    credential_id = fields.String(required=True, metadata={"description": "The passkey's id, base64url."})


class HeldSeatSchema(Schema):
    seat = fields.Integer(required=True)
    token = fields.String(required=True, metadata={"description": "The seat's bearer token."})


class HeldSeatsSchema(Schema):
    """The seats of one game the account holds."""

    game_id = fields.String(required=True)
    seats = fields.List(fields.Nested(HeldSeatSchema), required=True)


class BindSeatSchema(Schema):
    """POST /account/seats: keep a seat this browser holds with the account."""

    game_id = fields.String(required=True, validate=validate.Length(min=1, max=64))
    token = fields.String(required=True, validate=validate.Length(min=1, max=128))


class BoundSeatSchema(Schema):
    game_id = fields.String(required=True)
    seat = fields.Integer(required=True)
