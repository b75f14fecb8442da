"""Race to ten: the smallest game the platform plays, registered only in tests.

Two seats take turns; in a turn a seat steps the shared counter up by one, once or twice
(`Step`), then ends the turn (`Pass`). Whoever brings the counter to TARGET wins. There is
no hidden information and no chance, so the game gives no AI hooks: the random player
plays it all the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from domain.decider import Command, Event, IllegalMove
from domain.game_module import GameModule, GameSchemas, GameWords, Recorded, UndoHints
from domain.turns import TERMINAL, Seats, ToAct

TARGET = 10
STEPS_PER_TURN = 2


@dataclass(frozen=True)
class Race:
    names: tuple[str, ...]
    active: int
    total: int = 0
    steps: int = 0  # taken by the active seat this turn
    winner: int | None = None


def initial_state(setup: Mapping[str, Any]) -> Race:
    names = tuple(seat["name"] for seat in setup["seats"])
    if len(names) != 2:
        raise IllegalMove("bad_seat_count", f"race is played by 2 seats, not {len(names)}")
    return Race(names, active=int(setup.get("first_seat") or 0))


def legal_commands(state: Race, seat: int) -> list[Command]:
    if state.winner is not None or seat != state.active:
        return []
    steps = [Command("Step", seat)] if state.steps < STEPS_PER_TURN else []
    return steps + ([Command("Pass", seat)] if state.steps else [])


def decide(state: Race, command: Command) -> list[Event]:
    if command.type not in ("Step", "Pass") or command.args:
        raise IllegalMove("unknown_command", f"race knows Step and Pass, not {command.type!r}")
    if command not in legal_commands(state, command.seat if command.seat is not None else -1):
        raise IllegalMove("not_allowed", f"{command.type} is not legal for seat {command.seat} now")
    seat = state.active
    if command.type == "Pass":
        return [Event("TurnPassed", {"seat": seat, "next": 1 - seat})]
    stepped = Event("Stepped", {"seat": seat, "total": state.total + 1})
    return [stepped, Event("RaceWon", {"seat": seat})] if state.total + 1 == TARGET else [stepped]


def evolve(state: Race, event: Event) -> Race:
    if event.type == "Stepped":
        return replace(state, total=event.data["total"], steps=state.steps + 1)
    if event.type == "TurnPassed":
        return replace(state, active=event.data["next"], steps=0)
    if event.type == "RaceWon":
        return replace(state, winner=event.data["seat"])
    return state


def is_terminal(state: Race) -> bool:
    return state.winner is not None


def to_act(state: Race) -> ToAct:
    return TERMINAL if is_terminal(state) else Seats((state.active,))


def result(state: Race) -> dict[str, Any] | None:
    return None if state.winner is None else {"winner": state.winner}


def view(state: Race, seat: int | None) -> dict[str, Any]:
    return {
        "game": "race",
        "phase": "ended" if is_terminal(state) else "play",
        "active": state.active,
        "total": state.total,
        "seats": [{"seat": n, "name": name} for n, name in enumerate(state.names)],
        "result": result(state),
    }


def describe(events: Sequence[Mapping[str, Any]], names: Sequence[str]) -> str:
    def said(event: Mapping[str, Any]) -> str:
        data = event.get("data") or {}
        who = names[data["seat"]] if isinstance(data.get("seat"), int) else "the system"
        return f"{who}: {event.get('type')} {data.get('total', '')}".rstrip()

    return "; ".join(said(event) for event in events)


def learners(record: Recorded, seats: int) -> set[int]:
    return set()  # nothing is hidden, so nothing is revealed


SEAT = {"type": "integer", "minimum": 0, "maximum": 1}
NOTHING = {"type": "object", "properties": {}}
SCHEMAS = GameSchemas(
    commands={"Step": NOTHING, "Pass": NOTHING},
    events={
        "Stepped": {
            "type": "object",
            "required": ["seat", "total"],
            "properties": {"seat": SEAT, "total": {"type": "integer"}},
        },
        "TurnPassed": {
            "type": "object",
            "required": ["seat", "next"],
            "properties": {"seat": SEAT, "next": SEAT},
        },
        "RaceWon": {"type": "object", "required": ["seat"], "properties": {"seat": SEAT}},
    },
    view={
        "type": "object",
        "required": ["game", "phase", "active", "total", "seats", "result"],
        "properties": {
            "game": {"type": "string"},
            "phase": {"type": "string", "enum": ["play", "ended"]},
            "active": SEAT,
            "total": {"type": "integer", "minimum": 0, "maximum": TARGET},
            "seats": {
                "type": "array",
                "items": {"type": "object", "properties": {"seat": SEAT, "name": {"type": "string"}}},
            },
            "result": {"type": "object", "nullable": True, "properties": {"winner": SEAT}},
        },
    },
    options={"type": "object", "additionalProperties": False},
    result={"type": "object", "properties": {"winner": SEAT}},
)
"""What the race sends and shows, for the API document (GameModule.schemas)."""

RACE: GameModule[Race] = GameModule(
    name="race",
    min_seats=2,
    max_seats=2,
    check_options=lambda options: None,
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    legal_commands=legal_commands,
    view=view,
    is_terminal=is_terminal,
    to_act=to_act,
    pending_system=lambda state: None,
    result=result,
    describe=describe,
    undo=UndoHints(turn_markers=frozenset({"TurnPassed"}), round_markers=frozenset(), learners=learners),
    command_fields=(),
    board=lambda game: None,
    end_event="RaceWon",
    words=GameWords(
        title="Race to ten",
        commands={"Step": lambda c, n: "Step the counter up", "Pass": lambda c, n: "End your turn"},
    ),
    renderer="race",
    schemas=SCHEMAS,
)
