"""Marshmallow schemas of the player endpoints."""

from __future__ import annotations

from marshmallow import Schema, fields


class PlayerCreatedSchema(Schema):
    player = fields.String(
        required=True,
        metadata={"description": "The player's id: public, shown beside its ratings (p + 16 hex digits)."},
    )
    token = fields.String(
        required=True,
        metadata={
            "description": "The player's secret token, shown only once: the bearer token of POST "
            "/tournaments/{id}/entrants registers its holder as this player. The service keeps "
            "only a salted HMAC of it and cannot show it again."
        },
    )
