"""The Nanuuk! family as the platform sees it: one GameModule per game name, one engine."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from domain.game_module import GameModule, Recorded, UndoHints
from domain.nanuuk.ai import HOOKS
from domain.nanuuk.board import board
from domain.nanuuk.decide import decide, decide_with_state, legal_commands
from domain.nanuuk.describe import describe, words
from domain.nanuuk.events import GAME_ENDED
from domain.nanuuk.evolve import evolve
from domain.nanuuk.rules import (
    BEAR_FLIGHT,
    BEAR_HUNT,
    HELPER,
    LEARNING,
    NANUUK,
    PARTNERS,
    SEATS,
    read_options,
)
from domain.nanuuk.schemas import schemas_for
from domain.nanuuk.setup import check_seated_options, initial_state, layout_due
from domain.nanuuk.state import ENDED, LAYOUT, State
from domain.nanuuk.view import view
from domain.turns import CHANCE, TERMINAL, Seats, Shuffle, SystemRequest, ToAct

COMMAND_FIELDS = ("piece", "cell", "bear", "crack", "kayak", "sled", "one_crack", "animal")
TURN_MARKERS = frozenset({"IceLaidOut", "PiecePlaced", "TurnEnded", "TurnSkipped"})
"""Events after which another seat's turn begins (each placement is a turn of its own)."""


def learners(record: Recorded, seats: int) -> set[int]:
    """Nothing is hidden; only the drawn layout is news that no seat could know before."""
    return set(range(seats)) if record.type == "IceLaidOut" else set()


def is_terminal(state: State) -> bool:
    return state.phase == ENDED


def to_act(state: State) -> ToAct:
    if state.phase == ENDED:
        return TERMINAL
    if state.phase == LAYOUT:
        return CHANCE
    return Seats((state.active,))


def pending_system(state: State) -> SystemRequest | None:
    """N-2, V-3: the layout and the pre-laid cracks, drawn by the service as permutations."""
    due = layout_due(state)
    return Shuffle(due, "LayOutIce") if due else None


def result(state: State) -> dict[str, Any] | None:
    return state.result


def _check_options(game: str) -> Callable[[Mapping[str, Any]], None]:
    def check(options: Mapping[str, Any]) -> None:
        read_options(game, options)

    return check


def _check_seated_options(game: str) -> Callable[[Mapping[str, Any], int], None]:
    def check(options: Mapping[str, Any], seats: int) -> None:
        check_seated_options(game, options, seats)

    return check


_NANUUK: GameModule[State] = GameModule(
    name=NANUUK,
    min_seats=SEATS[NANUUK][0],
    max_seats=SEATS[NANUUK][1],
    check_options=_check_options(NANUUK),
    check_seated_options=_check_seated_options(NANUUK),
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    legal_commands=legal_commands,
    view=view,
    is_terminal=is_terminal,
    to_act=to_act,
    pending_system=pending_system,
    result=result,
    describe=describe,
    undo=UndoHints(turn_markers=TURN_MARKERS, round_markers=frozenset(), learners=learners),
    command_fields=COMMAND_FIELDS,
    board=board,
    end_event=GAME_ENDED,
    words=words(NANUUK),
    renderer="hex",
    ai=HOOKS,
    decide_with_state=decide_with_state,
)


def _module(game: str) -> GameModule[State]:
    least, most = SEATS[game]
    return replace(
        _NANUUK,
        name=game,
        min_seats=least,
        max_seats=most,
        check_options=_check_options(game),
        check_seated_options=_check_seated_options(game),
        schemas=schemas_for(game),
        words=words(game),
    )


GAMES = tuple(_module(game) for game in (NANUUK, LEARNING, BEAR_HUNT, BEAR_FLIGHT, PARTNERS, HELPER))
