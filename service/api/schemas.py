"""Marshmallow schemas, one per request and response body; OpenAPI is generated from them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import Schema, fields, post_dump, validate

from domain.games import GAMES

MODES = ("casual", "tournament")


class OpenSchema(Schema):
    """Dumps its declared fields and passes any other key of the dumped mapping through.

    For what the rules build (views, legal commands): the rules decide what a viewer may
    see, and a key they add must reach the client unchanged. Loading still refuses
    unknown fields.
    """

    @post_dump(pass_original=True)
    def _keep_undeclared(
        self, data: dict[str, Any], original: Any, **kwargs: Any
    ) -> dict[str, Any]:
        if not isinstance(original, Mapping):
            return data
        declared = {f.attribute or name for name, f in self.fields.items()}
        return {**{k: v for k, v in original.items() if k not in declared}, **data}


# --- requests ------------------------------------------------------------------------


class SeatRequestSchema(Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=64))


class CreateGameSchema(Schema):
    """POST /games. The seat count, first seat and options are checked by the game's rules."""

    game = fields.String(required=True, validate=validate.OneOf(sorted(GAMES)))
    seats = fields.List(fields.Nested(SeatRequestSchema), required=True)
    first_seat = fields.Integer(
        strict=True, metadata={"description": "Who starts; drawn at random when absent."}
    )
    options = fields.Dict(
        keys=fields.String(),
        load_default=dict,
        metadata={"description": 'Game options, e.g. {"edition": "original"} for kahuna.'},
    )
    mode = fields.String(load_default="casual", validate=validate.OneOf(MODES))
    reveal_after_end = fields.Boolean(
        load_default=True,
        metadata={"description": "Open the whole log, hidden cards included, once the game ends."},
    )


class CommandSchema(OpenSchema):
    """A seat's command, as GET /games/{id}/legal lists them; which fields a type needs,
    and which types a game knows, the rules decide (unknown_command, bad_command: 422)."""

    type = fields.String(
        required=True,
        validate=validate.Length(min=1),
        metadata={"description": "e.g. PlaceBridge, RemoveBridge, DiscardCards, DrawCard"},
    )
    card = fields.String(metadata={"description": "An island name (PlaceBridge, DrawCard)."})
    cards = fields.List(
        fields.String(),
        validate=validate.Length(min=1),
        metadata={"description": "Island names (RemoveBridge: two, DiscardCards: one or more)."},
    )
    line = fields.List(
        fields.String(),
        validate=validate.Length(equal=2),
        metadata={"description": "The two islands a bridge line joins."},
    )
    source = fields.String(validate=validate.OneOf(("face_up", "stack")))
    sea = fields.List(
        fields.String(),
        validate=validate.Length(equal=3),
        metadata={"description": "The three islands around a sea space (ships)."},
    )
    from_ = fields.List(
        fields.String(), data_key="from", attribute="from", validate=validate.Length(equal=3)
    )
    to = fields.List(fields.String(), validate=validate.Length(equal=3))
    target = fields.Integer(strict=True, metadata={"description": "A seat number (UseKu)."})
    kanaloa = fields.Boolean(metadata={"description": "SwapBridge with the god Kanaloa."})
    gifts = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata={"description": "Seat number (as text) -> the card given to that seat."},
    )


class AfterSchema(Schema):
    """?after=N: only events with a version above N."""

    after = fields.Integer(load_default=0, validate=validate.Range(min=0))


# --- responses -----------------------------------------------------------------------


class SeatTokenSchema(Schema):
    seat = fields.Integer()
    name = fields.String()
    token = fields.String(metadata={"description": "The seat's bearer token, shown only once."})


class CreatedSchema(Schema):
    game_id = fields.String()
    version = fields.Integer()
    seats = fields.List(fields.Nested(SeatTokenSchema))


class SeatViewSchema(OpenSchema):
    seat = fields.Integer()
    name = fields.String()
    hand_count = fields.Integer()
    bridges_in_stock = fields.Integer()
    islands = fields.List(fields.String())
    score = fields.Integer()


class BridgeSchema(Schema):
    line = fields.List(fields.String())
    seat = fields.Integer()


class GameViewSchema(OpenSchema):
    """The game as one viewer may see it (the rules' view); keys of one game only, such as
    ships, gods or pending choices, pass through as the rules give them."""

    game_id = fields.String()
    version = fields.Integer()
    game = fields.String()
    options = fields.Dict(metadata={"description": "The options the game was created with."})
    mode = fields.String()
    phase = fields.String(metadata={"description": "setup, play, scoring, ended, ..."})
    round = fields.Integer()
    rounds = fields.Integer()
    active = fields.Integer(metadata={"description": "The seat whose move it is."})
    viewer = fields.Integer(allow_none=True, metadata={"description": "null for a spectator."})
    seats = fields.List(fields.Nested(SeatViewSchema))
    bridges = fields.List(fields.Nested(BridgeSchema))
    control = fields.Dict(keys=fields.String(), values=fields.Integer())
    face_up = fields.List(fields.String())
    stack_count = fields.Integer()
    discard = fields.List(fields.String())
    hidden_discards = fields.Integer()
    scorings = fields.List(fields.List(fields.Integer()))
    result = fields.Dict(allow_none=True)
    hand = fields.List(
        fields.String(), metadata={"description": "The viewer's own cards; absent for spectators."}
    )


class LegalSchema(Schema):
    version = fields.Integer()
    commands = fields.List(fields.Nested(CommandSchema))


class EventSchema(Schema):
    """An event as one viewer may see it: `secret` is null and `redacted` true when hidden."""

    version = fields.Integer()
    type = fields.String()
    schema = fields.Integer()
    data = fields.Dict()
    secret = fields.Dict(allow_none=True)
    redacted = fields.Boolean()
    actor = fields.String()
    at = fields.String()
    prev_hash = fields.String()
    hash = fields.String()


class EventsSchema(Schema):
    version = fields.Integer()
    events = fields.List(fields.Nested(EventSchema))


class ExecutedSchema(Schema):
    version = fields.Integer()
    events = fields.List(fields.Nested(EventSchema))
    duplicate = fields.Boolean(
        metadata={"description": "true when an Idempotency-Key replay returned the first answer"}
    )


class HealthSchema(Schema):
    status = fields.String()


class ProblemSchema(Schema):
    """RFC 9457 problem details, with the stable machine `code` of the refusal."""

    type = fields.String()
    title = fields.String()
    status = fields.Integer()
    code = fields.String()
    detail = fields.String()
    errors = fields.Dict(metadata={"description": "Field name -> messages, for invalid input."})
