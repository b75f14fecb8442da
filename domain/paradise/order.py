"""P-1 turn order: the last in VP holds the marker and sets who starts and which way; malaria (Q-A3)."""

from __future__ import annotations

from typing import Any

from domain.decider import Command, Event, IllegalMove
from domain.paradise.empire import controller, revealed_effect, vp_halves
from domain.paradise.state import (
    EXPLORE,
    ORDER,
    Choice,
    Draft,
    Due,
    Stack,
    State,
    counts,
    replace,
    with_island,
)

TIE_ORDER = ("Tonga", "Raiatea", "Hiva", "Samoa")
"""Q-5: ties for the marker go to the first base in this list."""
STARTS = ("Tonga", "Samoa", "Hiva", "Raiatea")
"""Seat n starts on STARTS[n] (set-up gives the bases in this order)."""


def marker_holder(state: State) -> int:
    """The seat last on the VP track, ties broken by Q-5."""
    score = [vp_halves(state, seat) for seat in range(state.seats)]
    low = min(score)
    tied = [seat for seat in range(state.seats) if score[seat] == low]
    return min(tied, key=lambda seat: TIE_ORDER.index(STARTS[seat]))


REST = counts()
"""No piece moved this turn: what a stack's `spent` is at a turn's start (never changed)."""


def _rested(stack: Stack) -> bool:
    return stack.aboard_war == 0 and stack.spent == REST


def begin_turn(state: State, turn: int) -> State:
    """`state` at the start of turn `turn`'s turn-order phase (pieces rested, moves reset)."""
    # A stack already at rest is kept as it is: the lists kept across a seat's moves
    # (domain.paradise.terrain) are reused while the stacks they read are the same objects.
    stacks = {
        key: s if _rested(s) else replace(s, spent=REST, aboard_war=0) for key, s in state.stacks.items()
    }
    # The marker read from the state before, and one new state: the victory points read
    # nothing a turn's start changes (pieces moved, orders, phase and turn).
    marker = marker_holder(state)
    waiting: dict[str, Due | Choice]
    if state.options.malaria and state.malaria_armed:
        waiting = {"due": Due("malaria", {"die": 6})}
    else:
        waiting = {"choice": Choice("order", marker)}
    return replace(
        state,
        phase=ORDER,
        turn=turn,
        stacks=stacks,
        order=(),
        active=0,
        settled=frozenset(),
        claims=(),
        passed=frozenset(),
        drafts=(Draft(),) * state.seats,
        marker=marker,
        **waiting,
    )


def turn_started(state: State, data: dict[str, Any], secret: Any) -> State:
    return begin_turn(state, data["turn"])


def order_of(seats: int, first: int, clockwise: bool) -> tuple[int, ...]:
    step = 1 if clockwise else -1
    return tuple((first + step * n) % seats for n in range(seats))


def decide_order(state: State, command: Command) -> list[Event]:
    """P-1.2: the marker holder names the first seat and the direction of play."""
    first, clockwise = command.args.get("first"), command.args.get("clockwise", True)
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < state.seats:
        raise IllegalMove("bad_seat", "first names a seat of this game", field="first")
    if not isinstance(clockwise, bool):
        raise IllegalMove("bad_direction", "clockwise is true or false", field="clockwise")
    order = order_of(state.seats, first, clockwise)
    return [
        Event(
            "OrderChosen",
            {"seat": command.seat, "first": first, "clockwise": clockwise, "order": list(order)},
        )
    ]


def order_chosen(state: State, data: dict[str, Any], secret: Any) -> State:
    return replace(state, order=tuple(data["order"]), active=0, choice=None, phase=EXPLORE, expedition=None)


MALARIA_ARMED = "MalariaArmed"


def malaria_events(state: State, roll: int) -> list[Event]:
    """Q-A3: the die names a malarial group; a player's group there loses a village."""
    struck = next((at for at, i in state.islands.items() if roll in i.malaria), None)
    data: dict[str, Any] = {"roll": roll, "hex": list(struck) if struck else None, "seat": None}
    if struck is not None:
        owner = controller(state.islands[struck])
        if owner is not None and owner >= 0 and not revealed_effect(state, owner, "malaria_immunity"):
            data["seat"] = owner
    return [Event("MalariaStruck", data)]


def malaria_struck(state: State, data: dict[str, Any], secret: Any) -> State:
    state = replace(state, due=None, choice=Choice("order", state.marker))
    if data["seat"] is None:
        return state
    at = tuple(data["hex"])
    island = state.islands[at]
    lost = replace(island, villages=island.villages - 1)
    return with_island(state, at, lost if lost.villages else replace(lost, owner=None))


def malaria_armed(state: State, data: dict[str, Any], secret: Any) -> State:
    return replace(state, malaria_armed=True)


def should_arm_malaria(state: State) -> bool:
    """Q-A3 takes effect the turn after any player first controls a malarial group."""
    if not state.options.malaria or state.malaria_armed:
        return False
    return any(i.malaria and controller(i) not in (None, -1) for i in state.islands.values())


EVOLVERS = {
    "TurnStarted": turn_started,
    "OrderChosen": order_chosen,
    "MalariaStruck": malaria_struck,
    MALARIA_ARMED: malaria_armed,
}
