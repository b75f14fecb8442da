"""The schemas of the listings: GET /games and GET /tournaments, their queries and pages."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from domain.tournament_rules import CLOSED, REGISTRATION, RUNNING
from service.api.schemas import MAX_NAME, RegisteredGame
from service.games_index import STATUSES

MAX_LIMIT = 100
DEFAULT_LIMIT = 30
MAX_CURSOR = 256
MAX_ID = 128
TOURNAMENT_STATUSES = (REGISTRATION, RUNNING, CLOSED)


def _limit() -> fields.Integer:
    return fields.Integer(
        load_default=DEFAULT_LIMIT,
        validate=validate.Range(min=1, max=MAX_LIMIT),
        metadata={"description": f"Entries per page, 1-{MAX_LIMIT} (default {DEFAULT_LIMIT})."},
    )


def _cursor() -> fields.String:
    return fields.String(
        validate=validate.Length(min=1, max=MAX_CURSOR),
        metadata={
            "description": "Where the page starts: the `cursor` of the previous page's `next` link, "
            "as it is (opaque). One no page gave is 422 bad_cursor."
        },
    )


class GamesQuerySchema(Schema):
    """GET /games: every filter given must hold."""

    game = fields.String(validate=RegisteredGame(), metadata={"description": "Only games of this kind."})
    status = fields.String(
        validate=validate.OneOf(STATUSES),
        metadata={
            "description": "open (a seat waits for a player: the lobby's open games), ongoing or finished."
        },
    )
    player = fields.String(
        validate=validate.Length(min=1, max=MAX_NAME),
        metadata={"description": "Only games with a seat of this name (whole name, any case)."},
    )
    tournament = fields.String(
        validate=validate.Length(min=1, max=MAX_ID),
        metadata={"description": "Only the games of this tournament (its id)."},
    )
    limit = _limit()
    cursor = _cursor()


class TournamentsQuerySchema(Schema):
    """GET /tournaments: every filter given must hold."""

    game = fields.String(
        validate=RegisteredGame(), metadata={"description": "Only tournaments of this game."}
    )
    status = fields.String(
        validate=validate.OneOf(TOURNAMENT_STATUSES),
        metadata={"description": "registration, running or closed."},
    )
    limit = _limit()
    cursor = _cursor()


class ListedSeatSchema(Schema):
    name = fields.String(required=True)
    kind = fields.String(
        required=True,
        validate=validate.OneOf(("person", "ai", "open")),
        metadata={"description": "open: nobody has taken the seat yet (its name is empty)."},
    )
    ai = fields.String(metadata={"description": "A computer seat's player (kind ai)."})
    level = fields.Integer(allow_none=True, metadata={"description": "A computer seat's strength (kind ai)."})


class ListedTournamentGameSchema(Schema):
    id = fields.String(required=True)
    round = fields.Integer(allow_none=True)
    table = fields.Integer(allow_none=True)


class GameSummarySchema(Schema):
    """One game of the listing, as everyone may see it."""

    game_id = fields.String(required=True)
    game = fields.String(required=True)
    seats = fields.List(fields.Nested(ListedSeatSchema), required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    result = fields.Dict(
        required=True,
        allow_none=True,
        metadata={"description": "The game's result once finished (as its view's `result`), else null."},
    )
    last_activity = fields.String(
        required=True, metadata={"description": "When its newest event was stored (UTC)."}
    )
    version = fields.Integer(required=True, metadata={"description": "Its number of events."})
    tournament = fields.Nested(
        ListedTournamentGameSchema,
        required=True,
        allow_none=True,
        metadata={"description": "The tournament, round and table it is played at; null outside one."},
    )
    move_time = fields.Integer(
        allow_none=True,
        metadata={
            "description": "Seconds a seat may take over one move (POST /games' move_time); null: no clock."
        },
    )


class GamesPageSchema(Schema):
    games = fields.List(fields.Nested(GameSummarySchema), required=True)
    next = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "The next page (same filters and limit); null on the last page."},
    )


class TournamentSummarySchema(Schema):
    """One tournament of the listing."""

    tournament_id = fields.String(required=True)
    name = fields.String(required=True)
    game = fields.String(required=True)
    format = fields.String(required=True)
    rated = fields.Boolean(required=True)
    status = fields.String(required=True, validate=validate.OneOf(TOURNAMENT_STATUSES))
    round = fields.Integer(required=True, metadata={"description": "The last round paired (0: none yet)."})
    rounds = fields.Integer(
        required=True, allow_none=True, metadata={"description": "Rounds planned, if known."}
    )
    entrants = fields.Integer(required=True, metadata={"description": "How many registered (withdrawn too)."})
    last_activity = fields.String(required=True)
    version = fields.Integer(required=True)


class TournamentsPageSchema(Schema):
    tournaments = fields.List(fields.Nested(TournamentSummarySchema), required=True)
    next = fields.String(
        required=True, allow_none=True, metadata={"description": "The next page; null on the last."}
    )
