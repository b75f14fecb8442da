"""Conquest of Paradise as the platform sees it: one GameModule, registered in domain/games.py."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.game_module import GameModule, Recorded, UndoHints
from domain.paradise import engine, legal, setup, view
from domain.paradise.ai import HOOKS
from domain.paradise.describe import WORDS, describe
from domain.paradise.schemas import SCHEMAS
from domain.paradise.state import State
from domain.paradise.tables import BOARD_RAW
from domain.paradise.victory import GAME_ENDED

NAME = "conquest-of-paradise"
REVEALS = frozenset(
    {
        "SetupDrawn",
        "ChitDrawn",
        "DieRolled",
        "KumaraRolled",
        "MalariaStruck",
        "TileRevealed",
        "BattleStarted",
        "BuildRevealed",
        "CardRevealed",
        "CardUsed",
        "VictoryClaimed",
        GAME_ENDED,
    }
)
"""Events that show every seat a chance outcome or something hidden until then."""
LEARNED_BY_AUDIENCE = frozenset({"TileFound", "TileExamined", "CardDrawn"})
"""Secret events that show their audience a tile or card it did not know."""
TURN_MARKERS = frozenset(
    {
        "TurnStarted",
        "OrderChosen",
        "PhaseStarted",
        "ExplorerReturned",
        "ExplorerLost",
        "ExplorerRecovered",
        "MovementEnded",
        "BattleOver",
        "BuildCommitted",
    }
)
COMMAND_FIELDS = (
    "first",
    "clockwise",
    "hex",
    "path",
    "pieces",
    "stops",
    "defender",
    "piece",
    "use",
    "war_canoes",
    "bands",
    "orders",
    "card",
    "target",
)


def learners(record: Recorded, seats: int) -> set[int]:
    """The seats `record` showed something hidden: a reveal teaches all, a drawn tile or card its audience."""
    if record.type in REVEALS or (record.type == "TileFound" and record.secret is None):
        return set(range(seats))
    if record.type in LEARNED_BY_AUDIENCE and record.secret is not None:
        return set(record.audience)
    return set()


def result(state: State) -> Mapping[str, Any] | None:
    return state.result


PARADISE: GameModule[State] = GameModule(
    name=NAME,
    min_seats=2,
    max_seats=4,
    check_options=setup.check_options,
    initial_state=setup.initial_state,
    decide=engine.decide,
    evolve=engine.evolve,
    legal_commands=legal.legal_commands,
    view=view.view,
    is_terminal=engine.is_terminal,
    to_act=engine.to_act,
    pending_system=engine.pending_system,
    result=result,
    describe=describe,
    undo=UndoHints(turn_markers=TURN_MARKERS, round_markers=frozenset({"TurnStarted"}), learners=learners),
    command_fields=COMMAND_FIELDS,
    board=lambda game: BOARD_RAW,
    end_event=GAME_ENDED,
    words=WORDS,
    renderer="paradise",
    ai=HOOKS,
    decide_with_state=engine.decide_with_state,
    schemas=SCHEMAS,
)
GAMES = (PARADISE,)
"""The games of this family, as the registry finds them (domain/games.py)."""
