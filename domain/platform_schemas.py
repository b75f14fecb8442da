"""The platform's own messages as JSON Schema: the setup, undo and takebacks that every game
shares, beside the commands and events each game gives in GameModule.schemas."""

from __future__ import annotations

from domain import ending, resign, undo
from domain.json_schema import SEAT, VERSION, JsonSchema, listed, nullable

COMMANDS: dict[str, JsonSchema] = {
    undo.UNDO: {
        "type": "object",
        "properties": {
            "scope": {
                "type": "string",
                "enum": list(undo.SCOPES),
                "description": '"command" (the default): the last one; "turn": back to its start.',
            }
        },
    },
    undo.REQUEST_TAKEBACK: {
        "type": "object",
        "required": ["to_version"],
        "properties": {
            "to_version": {**VERSION, "description": "The version whose state the game goes back to."}
        },
    },
    undo.ANSWER_TAKEBACK: {
        "type": "object",
        "required": ["accept"],
        "properties": {"accept": {"type": "boolean", "description": "true accepts, false declines."}},
    },
    resign.RESIGN: {
        "type": "object",
        "properties": {},
        "description": "Give up: the game ends at once and the other seat(s) win (domain/resign.py).",
    },
    resign.ABORT: {
        "type": "object",
        "properties": {},
        "description": "Call the game off with no result; only before a second seat has moved, "
        "never in a tournament.",
    },
}
"""The seat commands the platform decides for every game (domain/undo.py, domain/resign.py)."""

SETUP: JsonSchema = {
    "type": "object",
    "required": ["game", "seats"],
    "properties": {
        "game": {"type": "string"},
        "seats": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["name"],
                "properties": {
                    "name": {"type": "string"},
                    "ai": {"type": "string"},
                    "level": {"type": "integer"},
                    "open": {
                        "type": "boolean",
                        "description": "Created open: its name is empty until SeatTaken names who took it.",
                    },
                },
            },
        },
        "first_seat": SEAT,
        "options": {"type": "object"},
        "mode": {"type": "string", "enum": ["casual", "tournament"]},
        "reveal_after_end": {"type": "boolean"},
        "organizer": {"type": "string"},
        "deal": {
            "type": "object",
            "description": "The service's commitment to the game's seed (docs/replays.md, the deal): "
            "the seed itself is GameCreated's secret for no seat, revealed with the log at the end.",
            "required": ["scheme", "commitment"],
            "properties": {
                "scheme": {"type": "string", "description": "The generator every draw comes from."},
                "commitment": {"type": "string", "description": "sha256 of the 32-byte seed, hex."},
                "entropy": {"type": "string", "description": "The creator's entropy, hex, when given."},
            },
        },
    },
}

ENTROPY_ADDED = "EntropyAdded"
"""A seat's own entropy for the deal, mixed into every draw after it."""

SEAT_TAKEN = "SeatTaken"
"""An open seat taken: who sits there from now on (record.open_seats)."""

EVENTS: dict[str, JsonSchema] = {
    "GameCreated": SETUP,
    undo.UNDONE: {
        "type": "object",
        "required": ["to_version", "requested_by", "approved_by"],
        "properties": {
            "to_version": VERSION,
            "requested_by": SEAT,
            "approved_by": {"type": "array", "items": SEAT},
        },
    },
    undo.CORRECTED: {
        "type": "object",
        "required": ["to_version", "reason", "organizer"],
        "properties": {"to_version": VERSION, "reason": {"type": "string"}, "organizer": {"type": "string"}},
    },
    undo.TAKEBACK_REQUESTED: {
        "type": "object",
        "required": ["seat", "to_version"],
        "properties": {"seat": SEAT, "to_version": VERSION},
    },
    undo.TAKEBACK_ANSWERED: {
        "type": "object",
        "required": ["seat", "accept"],
        "properties": {"seat": SEAT, "accept": {"type": "boolean"}},
    },
    ENTROPY_ADDED: {
        "type": "object",
        "required": ["seat", "entropy"],
        "properties": {"seat": SEAT, "entropy": {"type": "string", "description": "Hex, 16 to 64 bytes."}},
    },
    SEAT_TAKEN: {
        "type": "object",
        "required": ["seat", "name"],
        "description": "An open seat taken by the person named (POST /games/{game_id}/seats/{seat}).",
        "properties": {"seat": SEAT, "name": {"type": "string"}},
    },
    undo.TAKEBACK_DECLINED: {
        "type": "object",
        "required": ["seat", "to_version", "by"],
        "properties": {"seat": SEAT, "to_version": VERSION, "by": SEAT},
    },
    ending.GAME_FORFEITED: {
        "type": "object",
        "required": ["seat", "reason"],
        "description": "The game's end when its tournament forfeited `seat` (with `tournament` and "
        "`tournament_version`), or when `seat` of a casual game let its time per move run out "
        "(reason timeout, with the setup's `move_time`) (domain/ending.py).",
        "properties": {
            "seat": SEAT,
            "reason": {"type": "string", "enum": ["timeout", "no_show", "withdrawal"]},
            "tournament": {"type": "string"},
            "tournament_version": VERSION,
            "move_time": {"type": "integer", "minimum": 1},
        },
    },
    ending.GAME_RESIGNED: {
        "type": "object",
        "required": ["seat", "winner", "winners", "totals", "reason", "resigned"],
        "description": "The game's end when `seat` resigned: a result as GameEnded gives one, "
        "the resigning seat placed last and every total 0 (no final scoring).",
        "properties": {
            "seat": SEAT,
            "winner": nullable(SEAT),
            "winners": listed(SEAT),
            "totals": listed({"type": "integer"}),
            "reason": {"type": "string", "enum": [resign.RESIGNED]},
            "resigned": SEAT,
        },
    },
    ending.GAME_ABORTED: {
        "type": "object",
        "required": ["seat"],
        "description": "The game's end when `seat` called it off before the second seat moved: no result.",
        "properties": {"seat": SEAT},
    },
}
"""The events the platform appends to every game: its setup, the history's own and its ends."""

SECRETS: dict[str, JsonSchema] = {
    "GameCreated": {
        "type": "object",
        "required": ["seed"],
        "description": "The deal's seed (32 bytes, hex) for no seat, opened with the log at the end.",
        "properties": {"seed": {"type": "string", "pattern": "^[0-9a-f]{64}$"}},
    },
}
"""The secrets of the platform's events: only the deal's seed (every other one carries none)."""
