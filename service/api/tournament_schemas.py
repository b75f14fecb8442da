"""Marshmallow schemas of the tournament endpoints; the rules (domain.tournament) check what
lies within these outer bounds and refuse with their own codes."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.schemas import (
    MAX_OPTIONS,
    MAX_TOKEN,
    EventSchema,
    OpenSchema,
    RegisteredGame,
    StrictBoolean,
    at_most_keys,
)

FORMATS = ("round_robin", "swiss", "tables")
ORGANIZER_COMMANDS = (
    "StartTournament",
    "PairRound",
    "CorrectResult",
    "ForfeitSeat",
    "GiveBye",
    "WithdrawEntrant",
    "CloseTournament",
)
REPORT_FORMATS = ("json", "csv", "trf")
MAX_TEXT = 1000
MAX_ROUNDS = 50
MAX_ENTRANT_NAME = 60
MAX_ID = 100
MAX_TIME_LIMIT = 7 * 24 * 3600
TABLE_SIZES = ("2", "3", "4")
POINTS = {"type": "array", "items": {"type": "integer"}, "maxItems": 4}


class CreateTournamentSchema(Schema):
    """POST /tournaments: the settings, kept in TournamentCreated."""

    name = fields.String(validate=validate.Length(max=100))
    game = fields.String(required=True, validate=RegisteredGame())
    options = fields.Dict(
        keys=fields.String(validate=validate.Length(max=MAX_TOKEN)),
        validate=at_most_keys(MAX_OPTIONS),
        metadata={"description": "The game's options, as for POST /games.", "maxProperties": MAX_OPTIONS},
    )
    format = fields.String(required=True, validate=validate.OneOf(FORMATS))
    rounds = fields.Integer(
        strict=True,
        validate=validate.Range(min=1, max=MAX_ROUNDS),
        metadata={
            "description": "Swiss and tables: the rounds planned; a round robin's follow from its tables."
        },
    )
    double = StrictBoolean(metadata={"description": "Round robin: play both seat orders."})
    rated = StrictBoolean(metadata={"description": "Whether its games count for the ratings (default true)."})
    move_time_limit = fields.Integer(
        strict=True,
        validate=validate.Range(min=1, max=MAX_TIME_LIMIT),
        metadata={"description": "Seconds a seat may take over one move; the service forfeits it after."},
    )
    late_entry = StrictBoolean(
        metadata={"description": "Swiss and tables: entrants may join after the start."}
    )
    placement_points = fields.Dict(
        keys=fields.String(validate=validate.OneOf(TABLE_SIZES)),
        values=fields.List(fields.Integer(strict=True), validate=validate.Length(max=4)),
        validate=at_most_keys(2),
        metadata={
            "description": 'Tables: points by place per table size, e.g. {"4": [6, 4, 2, 0]}.',
            "properties": {size: POINTS for size in TABLE_SIZES},
            "maxProperties": 2,
            "closed": True,
        },
    )


class RegisterSchema(Schema):
    """POST /tournaments/{id}/entrants: a person by name, or an AI entrant by level."""

    kind = fields.String(load_default="person", validate=validate.OneOf(("person", "ai")))
    name = fields.String(validate=validate.Length(min=1, max=MAX_ENTRANT_NAME))
    level = fields.Integer(strict=True, validate=validate.Range(min=1, max=5))


class TournamentCommandSchema(Schema):
    """POST /tournaments/{id}/commands: one of the organizer's commands and its arguments."""

    type = fields.String(required=True, validate=validate.OneOf(ORGANIZER_COMMANDS))
    entrant = fields.String(
        validate=validate.Length(max=MAX_ID), metadata={"description": "GiveBye, WithdrawEntrant: e.g. e3."}
    )
    game_id = fields.String(
        validate=validate.Length(max=MAX_ID), metadata={"description": "CorrectResult, ForfeitSeat."}
    )
    seat = fields.Integer(strict=True, validate=validate.Range(min=0, max=3))
    reason = fields.String(
        validate=validate.Length(max=MAX_TEXT),
        metadata={"description": "CorrectResult: why (required); ForfeitSeat: timeout or no_show."},
    )
    result = fields.Dict(
        validate=at_most_keys(8),
        metadata={
            "description": "CorrectResult: the result as a GameEnded's data (winner, totals, reason).",
            "maxProperties": 8,
        },
    )
    final_hash = fields.String(validate=validate.Length(max=64))
    clock = fields.Dict(
        validate=at_most_keys(8), metadata={"description": "ForfeitSeat for timeout.", "maxProperties": 8}
    )


class ReportQuerySchema(Schema):
    format = fields.String(
        validate=validate.OneOf(REPORT_FORMATS),
        metadata={
            "description": "json (default), csv, or trf (Swiss pairings only); Accept: text/csv also works."
        },
    )


class TournamentCreatedSchema(Schema):
    tournament_id = fields.String()
    version = fields.Integer()
    organizer_token = fields.String(
        metadata={"description": "The organizer's bearer token, shown only once."}
    )


class RegisteredSchema(Schema):
    entrant = fields.String()
    version = fields.Integer()
    token = fields.String(
        metadata={"description": "A person's entrant token, shown only once (none for an AI entrant)."}
    )


class TournamentEventSchema(EventSchema):
    """A tournament's event (domain.tournament): registrations, pairings, results; none is secret."""


class TournamentEventsSchema(Schema):
    version = fields.Integer()
    events = fields.List(fields.Nested(TournamentEventSchema))


class TournamentExecutedSchema(Schema):
    version = fields.Integer()
    events = fields.List(fields.Nested(TournamentEventSchema))
    duplicate = fields.Boolean()


class MeGameSchema(Schema):
    """The entrant's game of the newest round it plays."""

    game_id = fields.String(required=True)
    round = fields.Integer(required=True)
    table = fields.Integer(required=True, metadata={"description": "The table's index in its round, from 0."})
    seat = fields.Integer(required=True, metadata={"description": "The entrant's seat there, from 0."})
    seat_token = fields.String(
        required=True, metadata={"description": "The bearer token of that seat, in that game only."}
    )
    url = fields.String(required=True)
    finished = fields.Boolean(
        required=True,
        metadata={
            "description": "The game itself has ended. A forfeit gives the table its tournament "
            "result but does not end the game: a forfeited game may still be in play."
        },
    )
    forfeited_seat = fields.Integer(
        required=True,
        allow_none=True,
        metadata={
            "description": "The seat the tournament forfeited at this table (out of time, absent, "
            "withdrawn), whose result is then a forfeit; null when no seat was forfeited (or a "
            "correction replaced the forfeit)."
        },
    )


class MeSchema(Schema):
    entrant = fields.String()
    name = fields.String()
    round = fields.Integer()
    withdrawn = fields.Boolean()
    game = fields.Nested(
        MeGameSchema,
        allow_none=True,
        metadata={"description": "The entrant's game of the newest round it plays; null before it has one."},
    )
    bye = fields.Boolean(metadata={"description": "The entrant has a bye in the newest round."})


class PlayerRatingSchema(Schema):
    player = fields.String()
    name = fields.String()
    mu = fields.Float()
    sigma = fields.Float()
    ordinal = fields.Float(metadata={"description": "mu - 3 sigma: the figure lists are sorted by."})
    games = fields.Integer()
    history = fields.List(fields.Dict())


class RatingsSchema(Schema):
    game = fields.String()
    checkpoint = fields.Integer(
        metadata={
            "description": "How many tournament events the ratings have read (on one Redis, the "
            "position in tournaments:$all read up to)."
        }
    )
    players = fields.List(fields.Nested(PlayerRatingSchema))


class AuditSchema(OpenSchema):
    class Meta:
        description = (
            "The audit's report: ok, the streams and events checked, every correction (actor, "
            "at, reason), the first broken place (stream, version, reason) and any recorded "
            "result that is not its game's own; a game's command the referee replay finds at fault is "
            "a broken place."
        )

    ok = fields.Boolean()
    streams = fields.Integer()
    events = fields.Integer()
    corrections = fields.List(fields.Dict())
    broken = fields.Dict(allow_none=True)
    mismatches = fields.List(fields.Dict())
    unrefereed = fields.List(
        fields.Dict(),
        metadata={
            "description": "Games the referee replay could not run through to their end "
            "(stored before commands were recorded): {game_id, from_version, reason}. A command "
            "at fault is the first broken place instead."
        },
    )
