"""Marshmallow schemas of what a tournament shows: its view (domain.tournament.module.view) and
the standings, crosstable and pairings reports made from it (replays.tournament_reports).

Dump-only: they document the answers, field by field, so a client generated from the document
reads them without free-form objects. Figures are JSON numbers (points may be halves).
"""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.schemas import ChainBrokenSchema, OpenSchema
from service.api.seat_key_schemas import PublicKeySchema

PHASES = ("registration", "running", "closed")
HOWS = ("played", "forfeit", "corrected")
BYE_REASONS = ("pairing", "opponent_withdrawn", "organizer")


def _nullable_integer(description: str) -> fields.Integer:
    return fields.Integer(required=True, allow_none=True, metadata={"description": description})


class TournamentEntrantSchema(Schema):
    id = fields.String(required=True, metadata={"description": "e1, e2, ... in registration order."})
    name = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(("person", "ai")))
    level = _nullable_integer("An AI entrant's level (1-5); null for a person.")
    joined = fields.Integer(
        required=True,
        metadata={"description": "The last round paired when it registered (0: before the first)."},
    )
    withdrawn = _nullable_integer("The last round paired when it withdrew; null while it is in.")
    player = fields.String(
        allow_none=True,
        metadata={"description": "The player it was registered as; null for a one-off player."},
    )
    public_key = fields.Nested(
        PublicKeySchema,
        required=True,
        allow_none=True,
        metadata={
            "description": "The key that signs its moves (a person's, given at registration); null: none."
        },
    )


class TableResultSchema(Schema):
    """A table's result, by seat (first seat first)."""

    places = fields.List(
        fields.Integer(), required=True, metadata={"description": "1 = first; equals share."}
    )
    points = fields.List(fields.Float(), required=True)
    island_points = fields.List(fields.Float(), required=True)
    final_hash = fields.String(
        required=True, allow_none=True, metadata={"description": "The game's last hash; null for a forfeit."}
    )
    how = fields.String(required=True, validate=validate.OneOf(HOWS))


class TournamentTableSchema(Schema):
    round = fields.Integer(required=True)
    index = fields.Integer(required=True, metadata={"description": "The table's index in its round, from 0."})
    seats = fields.List(
        fields.String(), required=True, metadata={"description": "Entrant ids, first seat first."}
    )
    game_id = fields.String(
        required=True, allow_none=True, metadata={"description": "Null until its game opens."}
    )
    result = fields.Nested(TableResultSchema, required=True, allow_none=True)


class TournamentByeSchema(Schema):
    round = fields.Integer(required=True)
    entrant = fields.String(required=True)
    points = fields.Float(required=True)
    island_points = fields.Float(required=True)
    reason = fields.String(required=True, validate=validate.OneOf(BYE_REASONS))


class StandingSchema(Schema):
    """One entrant's line of the standings, with every tie-break in the order they count."""

    entrant = fields.String(required=True)
    rank = fields.Integer(required=True, metadata={"description": "0 = first; no two entrants share one."})
    points = fields.Float(required=True)
    island_points = fields.Float(required=True)
    buchholz = fields.Float(required=True)
    sonneborn_berger = fields.Float(required=True)
    direct_encounter = fields.Float(required=True)
    lot = _nullable_integer("The entrant's place in the drawn lots; null before the draw.")
    games = fields.Integer(required=True)
    byes = fields.Integer(required=True)
    withdrawn = fields.Boolean(required=True)


class TournamentViewSchema(OpenSchema):
    """The tournament as everyone sees it (domain.tournament.module.view)."""

    class Meta:
        description = (
            "The tournament: its settings, entrants, lots, tables with their games and results, "
            "byes and standings, as the rules' view gives them."
        )

    tournament_id = fields.String(required=True)
    version = fields.Integer(required=True)
    name = fields.String(required=True)
    game = fields.String(required=True)
    options = fields.Dict(required=True, metadata={"description": "The game's options, as for POST /games."})
    format = fields.String(required=True, validate=validate.OneOf(("round_robin", "swiss", "tables")))
    rounds = _nullable_integer("The rounds planned; a round robin's are known from its start.")
    double = fields.Boolean(required=True)
    rated = fields.Boolean(required=True)
    move_time_limit = _nullable_integer("Seconds a seat may take over one move; null: no limit.")
    late_entry = fields.Boolean(required=True)
    signed_moves = fields.Boolean(
        required=True, metadata={"description": "Person entrants register a public key and sign every move."}
    )
    placement_points = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.Integer()),
        required=True,
        metadata={"description": "Tables: points by place, by table size."},
    )
    scoring = fields.String(required=True)
    table_sizes = fields.List(fields.Integer(), required=True)
    pairing_numbers = fields.String(
        required=True,
        validate=validate.OneOf(("lots", "ratings")),
        metadata={"description": "A Swiss's pairing numbers: by the lots, or by rating then lot."},
    )
    phase = fields.String(required=True, validate=validate.OneOf(PHASES))
    round = fields.Integer(required=True, metadata={"description": "The last round paired (0: none yet)."})
    completed = fields.Integer(required=True, metadata={"description": "The last round with every result."})
    you = fields.String(
        required=True, allow_none=True, metadata={"description": "The token's entrant; null without one."}
    )
    entrants = fields.List(fields.Nested(TournamentEntrantSchema), required=True)
    lots = fields.List(
        fields.String(), required=True, metadata={"description": "Entrant ids in the lots' order."}
    )
    lots_due = fields.List(
        fields.String(), required=True, metadata={"description": "Entrants without a lot yet."}
    )
    pairing_order = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "Entrant ids by pairing number (the lots', or the ratings' then the lots')."
        },
    )
    tables = fields.List(fields.Nested(TournamentTableSchema), required=True)
    byes = fields.List(fields.Nested(TournamentByeSchema), required=True)
    standings = fields.List(fields.Nested(StandingSchema), required=True)
    chain_broken = fields.Nested(ChainBrokenSchema, required=True, allow_none=True)


class GameLinksSchema(Schema):
    game = fields.String(required=True, metadata={"description": "The game (its page for a player)."})
    replay = fields.String(required=True)


class ReportSchema(Schema):
    """What every report's JSON holds besides its own part."""

    tournament_id = fields.String(required=True)
    version = fields.Integer(required=True)
    games = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(GameLinksSchema),
        required=True,
        metadata={"description": "Each game of the tournament, by id: its links."},
    )


class StandingsReportSchema(ReportSchema):
    standings = fields.List(fields.Nested(StandingSchema), required=True)


class CrosstableEntrantSchema(Schema):
    entrant = fields.String(required=True)
    name = fields.String(required=True)
    rank = fields.Integer(required=True, metadata={"description": "1 = first."})
    points = fields.Float(required=True)
    byes = fields.List(fields.Integer(), required=True, metadata={"description": "The rounds of its byes."})


class MeetingSchema(Schema):
    round = fields.Integer(required=True)
    outcome = fields.Float(
        required=True, metadata={"description": "1 placed above the opponent, 0.5 equal, 0 below."}
    )
    how = fields.String(required=True, validate=validate.OneOf(HOWS))
    game_id = fields.String(required=True, allow_none=True)


class CrosstableReportSchema(ReportSchema):
    entrants = fields.List(
        fields.Nested(CrosstableEntrantSchema), required=True, metadata={"description": "In standings order."}
    )
    cells = fields.Dict(
        keys=fields.String(),
        values=fields.Dict(keys=fields.String(), values=fields.List(fields.Nested(MeetingSchema))),
        required=True,
        metadata={
            "description": "entrant -> opponent -> their meetings, round by round; none if they never met."
        },
    )


class PairedSeatSchema(Schema):
    entrant = fields.String(required=True)
    name = fields.String(required=True)


class PairedTableSchema(Schema):
    table = fields.Integer(required=True, metadata={"description": "The table's index in its round, from 0."})
    seats = fields.List(fields.Nested(PairedSeatSchema), required=True)
    game_id = fields.String(required=True, allow_none=True)
    result = fields.Nested(TableResultSchema, required=True, allow_none=True)


class PairedByeSchema(Schema):
    entrant = fields.String(required=True)
    name = fields.String(required=True)
    points = fields.Float(required=True)
    reason = fields.String(required=True, validate=validate.OneOf(BYE_REASONS))


class PairedRoundSchema(Schema):
    round = fields.Integer(required=True)
    tables = fields.List(fields.Nested(PairedTableSchema), required=True)
    byes = fields.List(fields.Nested(PairedByeSchema), required=True)


class PairingsReportSchema(ReportSchema):
    rounds = fields.List(fields.Nested(PairedRoundSchema), required=True)
