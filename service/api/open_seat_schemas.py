"""The schemas of open seats: taking one, and the answer that holds its token."""

from __future__ import annotations

from marshmallow import Schema, fields

from service.api.schemas import _name


class OpenSeatRequestSchema(Schema):
    """POST /games/{game_id}/seats/{seat}: who takes the open seat."""

    name = _name(required=True, metadata={"description": "The name the seat is played under."})


class OpenSeatTakenSchema(Schema):
    """The seat taken: its token, shown only this once."""

    game_id = fields.String(required=True)
    seat = fields.Integer(required=True)
    name = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "The version that records SeatTaken."})
    token = fields.String(
        required=True, metadata={"description": "The seat's bearer token, shown only this once."}
    )
    open_seats = fields.List(
        fields.Integer(),
        required=True,
        metadata={"description": "The seats still open: the game starts when this is empty."},
    )
