"""The service's answer to open seats (record.open_seats): refusals become problems, and the
game's own commands wait until every seat has a player."""

from __future__ import annotations

from collections.abc import Sequence

from domain import resign
from domain.decider import Command, Event, IllegalMove
from record.entropy import ADD_ENTROPY
from record.envelope import Envelope
from record.open_seats import TAKE_SEAT, open_seats
from record.open_seats import seat_events as decided
from record.seat_keys import REGISTER_KEY
from service.errors import Conflict, record_refusal

__all__ = ["TAKE_SEAT", "refuse_while_open", "seat_events"]

WHILE_OPEN = frozenset({TAKE_SEAT, ADD_ENTROPY, REGISTER_KEY, resign.ABORT})
"""What a seat may do before the table is full: take a seat, prepare its own (entropy, a key),
or call off a game nobody came to."""


def seat_events(envelopes: Sequence[Envelope], ended: bool, command: Command) -> list[Event]:
    """SeatTaken for the command's seat; 422 bad_name for a malformed name, 409 for a game that
    is over or a seat that is not open (seat_not_open)."""
    try:
        return decided(envelopes, ended, command)
    except IllegalMove as refusal:
        raise record_refusal(refusal, "bad_name", "name") from None


def refuse_while_open(envelopes: Sequence[Envelope], command: Command) -> None:
    """409 seats_open for a seat's command of the game while a seat still waits for a player:
    nobody moves before the table is full."""
    if command.seat is None or command.type in WHILE_OPEN:
        return
    waiting = open_seats(envelopes)
    if waiting:
        seats = ", ".join(str(n) for n in waiting)
        raise Conflict(
            "seats_open", f"the game starts when every seat has a player: seat(s) {seats} still open"
        )
