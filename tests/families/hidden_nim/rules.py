"""Hidden Nim's rules as a Decider: pure, no I/O, chance only as the system's DealPile."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from domain.decider import SERVER, Command, Event, IllegalMove
from domain.turns import CHANCE, TERMINAL, Draw, Seats, ToAct

NAME = "hidden-nim"
LEAST, SIZES = 10, 6  # the pile holds LEAST to LEAST + SIZES - 1 stones
MOST_TAKEN = 3
DEAL, TAKE = "DealPile", "Take"
PILE_DEALT, TAKEN, WON = "PileDealt", "StonesTaken", "NimWon"


@dataclass(frozen=True)
class Nim:
    names: tuple[str, ...]
    active: int
    pile: int | None = None  # None until dealt: the server's secret until the end
    taken: tuple[int, ...] = (0, 0)
    winner: int | None = None

    @property
    def left(self) -> int:
        return 0 if self.pile is None else self.pile - sum(self.taken)


def check_options(options: Mapping[str, Any]) -> None:
    if options:
        raise IllegalMove("bad_option", f"hidden nim takes no options, not {sorted(options)}", "options")


def initial_state(setup: Mapping[str, Any]) -> Nim:
    names = tuple(str(seat["name"]) for seat in setup["seats"])
    if len(names) != 2:
        raise IllegalMove("bad_seat_count", f"hidden nim is played by 2 seats, not {len(names)}")
    check_options(setup.get("options") or {})
    return Nim(names, active=int(setup.get("first_seat") or 0))


def to_act(state: Nim) -> ToAct:
    if state.winner is not None:
        return TERMINAL
    return CHANCE if state.pile is None else Seats((state.active,))


def pending_system(state: Nim) -> Draw | None:
    return Draw({"pile": SIZES}, DEAL) if state.pile is None else None


def legal_commands(state: Nim, seat: int) -> list[Command]:
    if to_act(state) != Seats((seat,)):
        return []
    return [Command(TAKE, seat, {"count": n}) for n in range(1, MOST_TAKEN + 1)]


def decide(state: Nim, command: Command) -> list[Event]:
    if command.type == DEAL and command.seat is None and state.pile is None:
        draw = (command.args.get("draws") or {}).get("pile")
        if not isinstance(draw, int) or not 0 <= draw < SIZES:
            raise IllegalMove("bad_draw", f"the pile's draw is 0..{SIZES - 1}")
        return [Event(PILE_DEALT, {}, {"stones": LEAST + draw}, SERVER)]
    if command.type != TAKE:
        raise IllegalMove("unknown_command", f"hidden nim knows Take, not {command.type!r}")
    if command not in legal_commands(state, command.seat if command.seat is not None else -1):
        raise IllegalMove("not_allowed", f"seat {command.seat} may not take {dict(command.args)} now")
    seat, count = state.active, int(command.args["count"])
    taken = [Event(TAKEN, {"seat": seat, "count": min(count, state.left)})]
    if count < state.left:
        return taken
    totals = [t + (min(count, state.left) if n == seat else 0) for n, t in enumerate(state.taken)]
    won = {"winner": seat, "totals": totals, "reason": "last_stone", "stones": state.pile}
    return [*taken, Event(WON, won)]


def evolve(state: Nim, event: Event) -> Nim:
    if event.type == PILE_DEALT:
        secret = event.secret or {}
        return replace(state, pile=int(secret.get("stones", LEAST)))
    if event.type == TAKEN:
        seat, count = int(event.data["seat"]), int(event.data["count"])
        taken = tuple(t + (count if n == seat else 0) for n, t in enumerate(state.taken))
        return replace(state, taken=taken, active=1 - seat)
    if event.type == WON:
        return replace(state, winner=int(event.data["winner"]))
    return state


def is_terminal(state: Nim) -> bool:
    return state.winner is not None


def result(state: Nim) -> dict[str, Any] | None:
    if state.winner is None:
        return None
    return {"winner": state.winner, "totals": list(state.taken), "reason": "last_stone", "stones": state.pile}


def view(state: Nim, seat: int | None) -> dict[str, Any]:
    """What every viewer sees: the stones each seat took, never the pile until the end."""
    ended = is_terminal(state)
    return {
        "game": NAME,
        "phase": "ended" if ended else "dealing" if state.pile is None else "play",
        "active": state.active,
        "taken": list(state.taken),
        "pile": state.pile if ended else None,
        "seats": [{"seat": n, "name": name} for n, name in enumerate(state.names)],
        "result": result(state),
    }
