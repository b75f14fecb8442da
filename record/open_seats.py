"""Open seats: a game created with a seat nobody holds yet, which the first person to ask takes.

The setup marks such a seat `{"open": true}`; TakeSeat by that seat records SeatTaken{seat,
name}, so the replay, the export and the audit show who sat where and when. Until every open
seat is taken the game's own commands wait (the service refuses them, the computers do not
move). Decided from the record alone: the service appends what this decides, and the referee
replay decides it again. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.decider import Command, Event, IllegalMove
from domain.platform_schemas import SEAT_TAKEN
from record.envelope import Envelope

TAKE_SEAT = "TakeSeat"
OPEN_NAME = ""
"""The name an open seat has in the setup: the rules want one, and the taker's replaces it."""


def is_open_seat(seat: Mapping[str, Any]) -> bool:
    """Whether a seat of the setup was created open."""
    return seat.get("open") is True


def created_open(envelopes: Sequence[Envelope]) -> list[int]:
    """The seats the game was created with open (taken since or not), from its setup alone."""
    seats = (envelopes[0].data.get("seats") or []) if envelopes else []
    return [n for n, seat in enumerate(seats) if is_open_seat(seat)]


def takers(envelopes: Sequence[Envelope]) -> dict[int, str]:
    """Seat -> the name of who took it, for every open seat taken so far. A game created without
    an open seat (nearly every one) is answered from its setup, without reading its events: the
    play page, the views and every command ask."""
    taken: dict[int, str] = {}
    if not created_open(envelopes):
        return taken
    for envelope in envelopes[1:]:
        if envelope.type == SEAT_TAKEN:
            taken.setdefault(int(envelope.data["seat"]), str(envelope.data["name"]))
    return taken


def open_seats(envelopes: Sequence[Envelope]) -> list[int]:
    """The seats created open that nobody has taken yet, in order."""
    created = created_open(envelopes)
    if not created:
        return []
    taken = takers(envelopes)
    return [n for n in created if n not in taken]


def seat_names(envelopes: Sequence[Envelope]) -> list[str]:
    """Each seat's name as it now is: the setup's, or the taker's for a taken open seat."""
    taken = takers(envelopes)
    seats = envelopes[0].data.get("seats") or []
    return [taken.get(n, str(seat.get("name", OPEN_NAME))) for n, seat in enumerate(seats)]


def filled_setup(envelopes: Sequence[Envelope]) -> dict[str, Any]:
    """The game's setup with each taken open seat as a plain seat under its taker's name (a
    rematch seats the same people); a seat still open stays open."""
    setup = dict(envelopes[0].data)
    taken = takers(envelopes)
    setup["seats"] = [
        {"name": taken[n]} if n in taken else dict(seat) for n, seat in enumerate(setup.get("seats") or [])
    ]
    return setup


def seat_events(envelopes: Sequence[Envelope], ended: bool, command: Command) -> list[Event]:
    """SeatTaken for the command's seat; IllegalMove when the name is malformed (bad_name), the
    game is over, or the seat is not an open one nobody has taken (seat_not_open)."""
    name = command.args.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 64:
        raise IllegalMove("bad_name", "a name is 1-64 characters, not all blank", field="name")
    if ended:
        raise IllegalMove("game_over", "the game is over: its seats are no longer open")
    if command.seat not in open_seats(envelopes):
        raise IllegalMove("seat_not_open", f"seat {command.seat} is not an open seat: it has a player")
    return [Event(SEAT_TAKEN, {"seat": command.seat, "name": name})]
