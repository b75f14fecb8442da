"""The schemas of a casual game's time per move: the setup's field and the view's running clock."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from service.move_clock import MAX_MOVE_TIME, MIN_MOVE_TIME


def move_time_field() -> fields.Integer:
    """POST /games' optional `move_time`."""
    return fields.Integer(
        strict=True,
        validate=validate.Range(min=MIN_MOVE_TIME, max=MAX_MOVE_TIME),
        metadata={
            "description": f"Seconds a seat may take over one move ({MIN_MOVE_TIME} to "
            f"{MAX_MOVE_TIME}, a week); absent: no clock. Casual games only (a tournament sets its "
            "own limit: 422 move_time_in_tournament). The clock starts when every seat has a "
            "player and restarts with every event; a person who lets it run out loses the game "
            "(GameForfeited, reason timeout), written by the worker's sweep."
        },
    )


class MoveClockSchema(Schema):
    """The running clock of a timed game."""

    move_time = fields.Integer(required=True, metadata={"description": "The setup's seconds per move."})
    seats = fields.List(
        fields.Integer(), required=True, metadata={"description": "The seats whose time is running."}
    )
    deadline = fields.String(
        required=True,
        metadata={
            "description": "When their time runs out (ISO-8601 UTC): the newest event's time plus "
            "move_time. The worker's sweep forfeits the game for the first of them soon after."
        },
    )


def move_clock_field() -> Any:
    """The game view's `move_clock`."""
    return fields.Nested(
        MoveClockSchema,
        allow_none=True,
        metadata={
            "description": "The time per move while it runs; null without one, before the table "
            "is full, while only the computer is to move, and once the game has ended."
        },
    )
