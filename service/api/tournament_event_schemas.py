"""The tournament stream's messages in the OpenAPI document: each event's `data` by its type
(domain/tournament/events.py), and the `standings` message that follows a result.

Dump-only, like the view's schemas: they document what the stream sends so that a client
generated from the document reads every message without free-form objects. The data
schemas take keys they do not declare (a later schema version may add one); the union is
discriminated on the event's `type`.
"""

from __future__ import annotations

from typing import Any

from marshmallow import INCLUDE, Schema, fields, validate

from domain.platform_schemas import SECRETS
from service.api.deal_schemas import DealCommitmentSchema
from service.api.schemas import OpenSchema
from service.api.seat_key_schemas import PublicKeySchema
from service.api.tournament_view_schemas import StandingSchema, TournamentByeSchema

#: The stream's message after a result, a bye or a withdrawal (service/api/tournament_stream.py).
STANDINGS_MESSAGE = "TournamentStandingsMessage"
#: A tournament's event with its data typed by its type: the items of every list of events.
TYPED_EVENT = "TournamentTypedEvent"
#: What one `data:` line of the tournament stream holds.
STREAM_MESSAGE = "TournamentStreamMessage"
FORFEIT_REASONS = ("timeout", "no_show", "withdrawal")


def _ids(description: str) -> fields.List[str]:
    return fields.List(fields.String(), required=True, metadata={"description": description})


class EntrantRegisteredData(OpenSchema):
    entrant = fields.String(required=True, metadata={"description": "e1, e2, ... in registration order."})
    name = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(("person", "ai")))
    level = fields.Integer(required=True, allow_none=True, metadata={"description": "An AI entrant's level."})
    round = fields.Integer(
        required=True, metadata={"description": "The last round paired when it registered."}
    )
    player = fields.String(
        metadata={
            "description": "The player a person was registered as (its player token); absent for "
            "a one-off player: a computer entrant, or a person registered without a player token."
        }
    )
    public_key = fields.Nested(
        PublicKeySchema,
        metadata={"description": "The key that signs the person's moves; absent when it gave none."},
    )
    entropy = fields.String(
        metadata={"description": "The entrant's own randomness, hex, mixed into every lot after it."}
    )


class EntrantWithdrawnData(OpenSchema):
    entrant = fields.String(required=True)
    round = fields.Integer(required=True, metadata={"description": "The last round paired when it withdrew."})
    by = fields.String(required=True, metadata={"description": "Who withdrew it: organizer, or seat:<n>."})


class TournamentStartedData(OpenSchema):
    entrants = _ids("The entrants in play at the start.")
    rounds = fields.Integer(required=True, metadata={"description": "The rounds planned."})


class LotsDrawnData(OpenSchema):
    entrants = _ids("The entrants that held no lot, in the order drawn.")
    ratings = fields.Dict(
        keys=fields.String(),
        values=fields.Float(allow_none=True),
        metadata={"description": "A Swiss paired by rating: each drawn entrant's rating (null: unrated)."},
    )


class RoundPairedData(OpenSchema):
    round = fields.Integer(required=True)
    tables = fields.List(
        fields.List(fields.String()),
        required=True,
        metadata={"description": "Each table's entrants, first seat first."},
    )
    byes = _ids("The entrants with a bye from the pairing.")


class ByeGivenData(OpenSchema, TournamentByeSchema):
    """A ByeGiven's data: the bye as the tournament's view lists it."""


class GameAssignedData(OpenSchema):
    round = fields.Integer(required=True)
    table = fields.Integer(required=True, metadata={"description": "The table's index in its round, from 0."})
    game_id = fields.String(required=True)
    seats = _ids("The table's entrants, first seat first.")


class GameEndData(OpenSchema):
    """The game's GameEnded data the points were read from (each game may add its own keys)."""

    class Meta:
        # Each family's end carries keys of its own (Nanuuk!'s equipment, Paradise's vp).
        unknown = INCLUDE

    winner = fields.Integer(required=True, allow_none=True, metadata={"description": "A seat; null: a tie."})
    totals = fields.List(fields.Integer(), required=True, metadata={"description": "Final scores by seat."})
    reason = fields.String(required=True, metadata={"description": "How the game ended."})
    round = fields.Integer(metadata={"description": "The round of a premature end."})


class TableResultData(OpenSchema):
    """What every result of a table records, by seat (first seat first)."""

    game_id = fields.String(required=True)
    round = fields.Integer(required=True)
    table = fields.Integer(required=True)
    seats = _ids("The table's entrants, first seat first.")
    places = fields.List(fields.Integer(), required=True, metadata={"description": "1 = first."})
    points = fields.List(fields.Float(), required=True)
    island_points = fields.List(fields.Float(), required=True)
    final_hash = fields.String(
        required=True, allow_none=True, metadata={"description": "The game's last hash; null for a forfeit."}
    )


class ResultRecordedData(TableResultData):
    game_end = fields.Nested(GameEndData, required=True)


class ResultBeforeData(OpenSchema):
    places = fields.List(fields.Integer(), required=True)
    points = fields.List(fields.Float(), required=True)
    final_hash = fields.String(required=True, allow_none=True)


class ResultCorrectedData(TableResultData):
    game_end = fields.Nested(GameEndData, required=True, allow_none=True)
    reason = fields.String(required=True, metadata={"description": "Why, as the organizer wrote it."})
    by = fields.String(required=True)
    before = fields.Nested(ResultBeforeData, required=True, metadata={"description": "The result replaced."})


class ForfeitClockData(OpenSchema):
    """What the service's clock read when it forfeited a seat out of time."""

    limit = fields.Float(required=True, metadata={"description": "Seconds a seat may take over one move."})
    waited = fields.Float(required=True, metadata={"description": "Seconds the seat had taken."})
    last_move_at = fields.String(metadata={"description": "When the game last moved (UTC)."})
    now = fields.String(metadata={"description": "When the seat was forfeited (UTC)."})


class SeatForfeitedData(TableResultData):
    seat = fields.Integer(required=True)
    entrant = fields.String(required=True)
    reason = fields.String(required=True, validate=validate.OneOf(FORFEIT_REASONS))
    clock = fields.Nested(
        ForfeitClockData, required=True, allow_none=True, metadata={"description": "A timeout's."}
    )


class RoundCompletedData(OpenSchema):
    round = fields.Integer(required=True)


class TournamentClosedData(OpenSchema):
    ranking = _ids("Every entrant, first first, as the standings stood at the close.")
    rounds_played = fields.Integer(required=True)


class TournamentCreatedData(OpenSchema):
    """The settings (docs/tournaments.md), with what follows from the game."""

    name = fields.String(required=True)
    game = fields.String(required=True)
    options = fields.Dict(required=True, metadata={"description": "The game's options, as for POST /games."})
    format = fields.String(required=True, validate=validate.OneOf(("round_robin", "swiss", "tables")))
    rounds = fields.Integer(required=True, allow_none=True)
    double = fields.Boolean(required=True)
    rated = fields.Boolean(required=True)
    move_time_limit = fields.Integer(required=True, allow_none=True)
    late_entry = fields.Boolean(required=True)
    signed_moves = fields.Boolean(
        metadata={"description": "Person entrants register a public key and sign every move (absent: no)."}
    )
    placement_points = fields.Dict(keys=fields.String(), values=fields.List(fields.Integer()), required=True)
    scoring = fields.String(required=True)
    table_sizes = fields.List(fields.Integer(), required=True)
    pairing_numbers = fields.String(
        validate=validate.OneOf(("lots", "ratings")),
        metadata={"description": "A Swiss's pairing numbers (absent before it existed: lots)."},
    )
    deal = fields.Nested(
        DealCommitmentSchema,
        metadata={
            "description": "The commitment to the seed the lots are drawn from (absent before it "
            "existed); the seed is this event's secret, revealed at the close (docs/replays.md)."
        },
    )


#: Each tournament event's type and the schema of its data.
EVENT_DATA: dict[str, type[Schema]] = {
    "TournamentCreated": TournamentCreatedData,
    "EntrantRegistered": EntrantRegisteredData,
    "EntrantWithdrawn": EntrantWithdrawnData,
    "TournamentStarted": TournamentStartedData,
    "LotsDrawn": LotsDrawnData,
    "RoundPaired": RoundPairedData,
    "ByeGiven": ByeGivenData,
    "GameAssigned": GameAssignedData,
    "ResultRecorded": ResultRecordedData,
    "ResultCorrected": ResultCorrectedData,
    "SeatForfeited": SeatForfeitedData,
    "RoundCompleted": RoundCompletedData,
    "TournamentClosed": TournamentClosedData,
}


class TournamentStandingsMessageSchema(Schema):
    """`event: standings`: the standings after a result, a bye or a withdrawal."""

    version = fields.Integer(required=True, metadata={"description": "The tournament version they are of."})
    standings = fields.List(fields.Nested(StandingSchema), required=True)


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _named(event_type: str) -> str:
    return event_type if event_type.startswith("Tournament") else f"Tournament{event_type}"


def data_component(event_type: str) -> str:
    return f"{_named(event_type)}Data"


def event_component(event_type: str) -> str:
    return f"{_named(event_type)}Event"


#: The one tournament event with a secret: the lots' seed, like a game's deal (service/chance.py).
SEEDED = "TournamentCreated"


def secret_of(event_type: str) -> dict[str, Any]:
    """What a tournament event's `secret` holds: the lots' seed in TournamentCreated (null while
    redacted, before the close), null in every other event."""
    if event_type == SEEDED:
        seed = dict(SECRETS["GameCreated"])
        seed["description"] = "The lots' seed (32 bytes, hex) for no entrant, opened at the close."
        return {**seed, "nullable": True}
    return {"enum": [None], "nullable": True, "description": "Always null: this event carries no secret."}


def register_stream_components(spec: Any) -> None:
    """Each event's data schema, each typed event (the TournamentEvent envelope with `type`
    fixed and `data` typed), their union by `type` (what every list of a tournament's events
    holds), and the stream's message: that union or the standings. Needs TournamentEvent,
    TournamentEvents, TournamentExecuted and Standing registered first."""
    components = spec.components
    for event_type, schema in EVENT_DATA.items():
        components.schema(data_component(event_type), schema=schema)
        typed = {
            "type": "object",
            "required": ["type", "data"],
            "properties": {
                "type": {"type": "string", "enum": [event_type]},
                "data": _ref(data_component(event_type)),
                "secret": secret_of(event_type),
            },
        }
        components.schema(event_component(event_type), {"allOf": [_ref("TournamentEvent"), typed]})
    components.schema(
        TYPED_EVENT,
        {
            "description": "A tournament's event, its `data` typed by its `type`.",
            "oneOf": [_ref(event_component(t)) for t in EVENT_DATA],
            "discriminator": {
                "propertyName": "type",
                "mapping": {t: _ref(event_component(t))["$ref"] for t in EVENT_DATA},
            },
        },
    )
    for listing in ("TournamentEvents", "TournamentExecuted"):
        components.schemas[listing]["properties"]["events"]["items"] = _ref(TYPED_EVENT)
    components.schema(STANDINGS_MESSAGE, schema=TournamentStandingsMessageSchema)
    components.schema(
        STREAM_MESSAGE,
        {
            "description": "One message of GET /tournaments/{id}/stream: an event, its `data` typed "
            "by its `type` (the SSE `event:` line), or the standings (`event: standings`).",
            "anyOf": [_ref(TYPED_EVENT), _ref(STANDINGS_MESSAGE)],
        },
    )
