"""The bodies of a game's end and of its rematch (docs/finishing.md)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

HOWS = ("rules", "forfeited", "resigned", "aborted")


class EndingSchema(Schema):
    """How the game ended; null in a game's view while it is in play."""

    how = fields.String(
        validate=validate.OneOf(HOWS),
        metadata={
            "description": "rules: the rules' own end (GameEnded); forfeited: its tournament "
            "forfeited `seat`; resigned: `seat` resigned (the others win); aborted: `seat` "
            "called the game off before the second seat moved (no result)."
        },
    )
    version = fields.Integer(metadata={"description": "The version of the ending event."})
    seat = fields.Integer(
        allow_none=True, metadata={"description": "The seat that resigned, aborted or was forfeited."}
    )
    result = fields.Dict(
        allow_none=True,
        metadata={"description": "The result (as GameEnded's data); null for an abort or a forfeit."},
    )


class FinishSchema(Schema):
    """What the viewer's seat may do to end the game now (none for a spectator or after the end)."""

    resign = fields.Boolean(metadata={"description": 'POST the command {"type": "Resign"}.'})
    abort = fields.Boolean(
        metadata={"description": 'POST {"type": "Abort"}: until a second seat has moved, casual games only.'}
    )


class RematchSchema(Schema):
    """A finished game's rematch: who asked, who is awaited, the new game once every person agreed."""

    rematch_id = fields.String(
        allow_none=True, metadata={"description": "The new game, once every person has agreed; else null."}
    )
    asked_by = fields.List(
        fields.Integer(), metadata={"description": "Seats (of this game) that asked or agreed."}
    )
    waiting_for = fields.List(fields.Integer(), metadata={"description": "Seats whose agreement is awaited."})
    seat = fields.Integer(
        metadata={"description": "POST only, once the new game exists: your seat there (seats turn by one)."}
    )
    token = fields.String(
        metadata={
            "description": "POST only, once the new game exists: a fresh bearer token of your new seat; "
            "each POST issues another and retires the one before."
        }
    )
