"""Marshmallow schemas of the tournament endpoints; the rules (domain.tournament) check what
lies within these outer bounds and refuse with their own codes."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.deal_schemas import entropy_field
from service.api.receipt_schemas import TournamentReceiptSchema
from service.api.schemas import (
    MAX_OPTIONS,
    EventSchema,
    OpenSchema,
    RegisteredGame,
    StrictBoolean,
    at_most_keys,
)
from service.api.seat_key_schemas import PublicKeySchema
from service.api.tournament_event_schemas import GameEndData

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
    # The option names' length is the rules' to refuse (422 bad_option): OpenAPI 3.0 has no
    # propertyNames to state it, and a request valid by the document is not refused as malformed.
    options = fields.Dict(
        keys=fields.String(),
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
    signed_moves = StrictBoolean(
        metadata={
            "description": "Person entrants must register with a public_key (422 key_required without), "
            "and each of their moves carries their signature (the Archipelago-Signature header): the "
            "record then shows every move was the player's own (default false)."
        }
    )
    pairing_numbers = fields.String(
        validate=validate.OneOf(("lots", "ratings")),
        metadata={
            "description": "Swiss: pairing numbers by the lots (default) or by rating for the game, "
            "highest first, the unrated last, ties by lot."
        },
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
    public_key = fields.Nested(
        PublicKeySchema,
        metadata={
            "description": "A person's public key: its games' seats hold it, and each of its commands "
            "there is signed (required when the tournament has signed_moves)."
        },
    )
    entropy = entropy_field(
        "16 to 64 random bytes of the entrant's own, as lowercase hex: every lot drawn after the "
        "registration mixes it in, so that the service, which committed to its seed before, does "
        "not choose them alone."
    )


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
    player = fields.String(
        allow_none=True,
        metadata={
            "description": "The player the entrant was registered as (its bearer token was that "
            "player's token); null for a one-off player: a computer entrant, or a person "
            "registered without a player token, rated within this tournament alone."
        },
    )
    version = fields.Integer()
    token = fields.String(
        metadata={"description": "A person's entrant token, shown only once (none for an AI entrant)."}
    )
    receipt = fields.Nested(TournamentReceiptSchema, required=True)


class TournamentEventSchema(EventSchema):
    """A tournament's event (domain.tournament): registrations, pairings, results. Only
    TournamentCreated carries a secret, the lots' seed, redacted until the close."""


class TournamentEventsSchema(Schema):
    version = fields.Integer()
    events = fields.List(fields.Nested(TournamentEventSchema))


class TournamentExecutedSchema(Schema):
    version = fields.Integer()
    events = fields.List(fields.Nested(TournamentEventSchema))
    duplicate = fields.Boolean()
    receipt = fields.Nested(TournamentReceiptSchema, required=True)


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


class RatingPointSchema(Schema):
    """A player's rating right after one rated game."""

    game_id = fields.String(required=True)
    tournament = fields.String(required=True, metadata={"description": "The game's tournament."})
    at = fields.String(required=True, metadata={"description": "When the result was recorded (UTC)."})
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)
    ordinal = fields.Float(required=True)
    games = fields.Integer(required=True, metadata={"description": "Rated games played so far."})


class PlayerRatingSchema(Schema):
    player = fields.String(
        required=True,
        metadata={
            "description": "Whom the rating is of: a player's id (from POST /players), or "
            "<tournament>:<entrant> for a one-off player (a computer entrant, or a person "
            "registered without a player token)."
        },
    )
    name = fields.String(
        required=True, metadata={"description": "The entrant's name in the player's newest rated game."}
    )
    kind = fields.String(required=True, validate=validate.OneOf(("person", "ai")))
    tournament = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "A one-off player's only tournament; null for a player's id."},
    )
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)
    ordinal = fields.Float(
        required=True, metadata={"description": "mu - 3 sigma: the figure lists are sorted by."}
    )
    games = fields.Integer(required=True)
    history = fields.List(
        fields.Nested(RatingPointSchema), required=True, metadata={"description": "Oldest first."}
    )


class RatingsSchema(Schema):
    game = fields.String(required=True)
    checkpoint = fields.Integer(
        required=True,
        metadata={
            "description": "How many tournament events the ratings have read (on one Redis, the "
            "position in tournaments:$all read up to)."
        },
    )
    players = fields.List(fields.Nested(PlayerRatingSchema), required=True)


class BrokenPlaceSchema(Schema):
    """Where a record stops being sound."""

    stream = fields.String(
        required=True, metadata={"description": "tournament, game <game_id>, or bundle (a file's header)."}
    )
    version = fields.Integer(required=True, allow_none=True, metadata={"description": "The event number."})
    line = fields.Integer(required=True, allow_none=True, metadata={"description": "A bundle file's line."})
    reason = fields.String(required=True)


class AuditedResultSchema(Schema):
    """A table's result as a correction left it, or as it was before."""

    places = fields.List(fields.Integer(), required=True)
    points = fields.List(fields.Float(), required=True)
    island_points = fields.List(fields.Float())
    final_hash = fields.String(required=True, allow_none=True)
    game_end = fields.Nested(GameEndData, allow_none=True)


class AuditCorrectionSchema(Schema):
    """One ResultCorrected: who, when, why, and the result before and after."""

    version = fields.Integer(required=True, metadata={"description": "The tournament event's number."})
    actor = fields.String(required=True)
    at = fields.String(required=True)
    reason = fields.String(required=True, allow_none=True)
    game_id = fields.String(required=True, allow_none=True)
    round = fields.Integer(required=True, allow_none=True)
    table = fields.Integer(required=True, allow_none=True)
    before = fields.Nested(AuditedResultSchema, required=True, allow_none=True)
    after = fields.Nested(AuditedResultSchema, required=True)
    game_end = fields.Nested(
        GameEndData,
        required=True,
        allow_none=True,
        metadata={"description": "The game's own GameEnded data."},
    )


class AuditMismatchSchema(Schema):
    """A recorded result, pairing or close that is not what its game or the rules say."""

    game_id = fields.String(required=True, allow_none=True)
    round = fields.Integer(required=True, allow_none=True)
    table = fields.Integer(required=True, allow_none=True)
    version = fields.Integer(required=True, metadata={"description": "The tournament event's number."})
    type = fields.String(required=True, metadata={"description": "The tournament event's type."})
    reason = fields.String(required=True)


class ChainTruncatedReportSchema(Schema):
    """A stream the store holds fewer events of than its head vouches for."""

    stream = fields.String(required=True, metadata={"description": "tournament, or game <game_id>."})
    stored_version = fields.Integer(required=True, metadata={"description": "Its last stored event."})
    vouched_version = fields.Integer(required=True, metadata={"description": "The last event vouched for."})


class AuditUnrefereedSchema(Schema):
    """A game the referee replay could not run to its end, from which version and why."""

    game_id = fields.String(required=True)
    from_version = fields.Integer(
        required=True, allow_none=True, metadata={"description": "The first version not refereed."}
    )
    reason = fields.String(required=True)


class AuditSchema(OpenSchema):
    class Meta:
        description = (
            "The audit's report: ok, the streams and events checked, every correction (actor, "
            "at, reason), the first broken place (stream, version, reason) and any recorded "
            "result that is not its game's own; a game's command the referee replay finds at fault is "
            "a broken place."
        )

    ok = fields.Boolean(required=True)
    streams = fields.Integer(required=True, metadata={"description": "The tournament and each game read."})
    events = fields.Integer(required=True)
    corrections = fields.List(fields.Nested(AuditCorrectionSchema), required=True)
    broken = fields.Nested(BrokenPlaceSchema, required=True, allow_none=True)
    mismatches = fields.List(fields.Nested(AuditMismatchSchema), required=True)
    unfolded = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "Games whose withheld secrets keep them from a fold (their chains hold)."},
    )
    chain_truncated = fields.Nested(
        ChainTruncatedReportSchema,
        required=True,
        allow_none=True,
        metadata={
            "description": "A stream that ends before the last event the store's head vouches for; "
            "null when none."
        },
    )

    unrefereed = fields.List(
        fields.Nested(AuditUnrefereedSchema),
        required=True,
        metadata={
            "description": "Games the referee replay could not run through to their end (stored "
            "before commands were recorded, or hiding cards from the reader). A command at fault "
            "is the game's broken place instead."
        },
    )
