"""Hidden Nim's declaration: everything the platform asks of the game, in one GameModule."""

from __future__ import annotations

from domain.game_module import GameModule, GameSchemas, Recorded, UndoHints
from tests.families.hidden_nim import rules
from tests.families.hidden_nim.ai import HOOKS
from tests.families.hidden_nim.describe import WORDS, describe


def learners(record: Recorded, seats: int) -> set[int]:
    """The pile's size is shown to every seat only by the end, which nothing undoes."""
    return set(range(seats)) if record.type == rules.WON else set()


SEAT = {"type": "integer", "minimum": 0, "maximum": 1}
COUNT = {"type": "integer", "minimum": 1, "maximum": rules.MOST_TAKEN}
STONES = {"type": "integer", "minimum": rules.LEAST, "maximum": rules.LEAST + rules.SIZES - 1}
TOTALS = {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 2, "maxItems": 2}
RESULT = {
    "type": "object",
    "required": ["winner", "totals", "reason", "stones"],
    "properties": {"winner": SEAT, "totals": TOTALS, "reason": {"type": "string"}, "stones": STONES},
}
SCHEMAS = GameSchemas(
    commands={
        rules.TAKE: {"type": "object", "required": ["count"], "properties": {"count": COUNT}},
    },
    events={
        rules.PILE_DEALT: {"type": "object", "properties": {}},
        rules.TAKEN: {
            "type": "object",
            "required": ["seat", "count"],
            "properties": {"seat": SEAT, "count": COUNT},
        },
        rules.WON: RESULT,
    },
    secrets={rules.PILE_DEALT: {"type": "object", "required": ["stones"], "properties": {"stones": STONES}}},
    view={
        "type": "object",
        "required": ["game", "phase", "active", "taken", "pile", "seats", "result"],
        "properties": {
            "game": {"type": "string", "enum": [rules.NAME]},
            "phase": {"type": "string", "enum": ["dealing", "play", "ended"]},
            "active": SEAT,
            "taken": TOTALS,
            "pile": {**STONES, "nullable": True},
            "seats": {
                "type": "array",
                "items": {"type": "object", "properties": {"seat": SEAT, "name": {"type": "string"}}},
            },
            "result": {**RESULT, "nullable": True},
        },
    },
    options={"type": "object", "additionalProperties": False},
    result=RESULT,
)

HIDDEN_NIM: GameModule[rules.Nim] = GameModule(
    name=rules.NAME,
    min_seats=2,
    max_seats=2,
    check_options=rules.check_options,
    initial_state=rules.initial_state,
    decide=rules.decide,
    evolve=rules.evolve,
    legal_commands=rules.legal_commands,
    view=rules.view,
    is_terminal=rules.is_terminal,
    to_act=rules.to_act,
    pending_system=rules.pending_system,
    result=rules.result,
    describe=describe,
    undo=UndoHints(turn_markers=frozenset({rules.TAKEN}), round_markers=frozenset(), learners=learners),
    command_fields=("count",),
    board=lambda game: None,
    end_event=rules.WON,
    words=WORDS,
    renderer="hidden-nim",
    ai=HOOKS,
    schemas=SCHEMAS,
)
