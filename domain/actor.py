"""Who appended an event: a seat, the system (chance), the worker (scoring) or the organizer.

Stored events keep the actor as text ("seat:2", "system", "worker", "organizer"); `Actor`
is that text read once, so no other module takes the string apart.
"""

from __future__ import annotations

from dataclasses import dataclass

KINDS = ("seat", "system", "worker", "organizer")


@dataclass(frozen=True)
class Actor:
    kind: str
    seat: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS or (self.kind == "seat") != (self.seat is not None):
            raise ValueError(f"no actor: {self.kind!r} {self.seat!r}")

    @staticmethod
    def of_seat(seat: int) -> Actor:
        return Actor("seat", seat)

    @staticmethod
    def parse(text: str) -> Actor:
        """The actor a stored text names; ValueError for any other text."""
        kind, colon, number = text.partition(":")
        if colon and kind == "seat" and number.isdigit() and str(int(number)) == number:
            return Actor("seat", int(number))
        if not colon and kind in KINDS and kind != "seat":
            return Actor(kind)
        raise ValueError(f"no actor: {text!r}")

    @staticmethod
    def seat_in(text: object) -> int | None:
        """The seat of a stored actor text; None for the others and for text that names no actor."""
        try:
            return Actor.parse(str(text)).seat
        except ValueError:
            return None

    def __str__(self) -> str:
        return f"seat:{self.seat}" if self.kind == "seat" else self.kind


SYSTEM = Actor("system")
WORKER = Actor("worker")
ORGANIZER = Actor("organizer")
