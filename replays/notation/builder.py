"""The state kept while events become lines: the open turn, the cards waiting for their action."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from replays.notation.model import Item, Line, Move, Note, Turn


@dataclass
class OpenTurn:
    number: int
    seat: int
    moves: list[Move] = field(default_factory=list)


@dataclass
class Builder:
    names: list[str]
    end: str | None = None  # the event with which the game's rules end it (its module's)
    lines: list[Line] = field(default_factory=list)
    turn: OpenTurn | None = None
    setup: list[Item] | None = None
    setup_label: str = "R1"
    round: int = 0
    count: int = 0  # turn lines numbered so far
    resume: tuple[int, int] | None = None  # (number, seat) a seat's interrupted turn goes on with
    played: tuple[int, tuple[str, ...], bool] | None = None  # cards waiting for their action
    joker: int | None = None  # the seat that just used Kanaloa
    swapped: tuple[Any, tuple[str, ...]] | None = None  # O-4: its BridgePlaced is part of the swap
    sunk: list[Move] = field(default_factory=list)  # S-5 "placed_on": told after the new ship
    group: Any = None
    group_drew: bool = False
    at_version: dict[int, tuple[int, tuple[int, int] | None]] = field(default_factory=dict)

    def name(self, seat: Any) -> str:
        if type(seat) is int and 0 <= seat < len(self.names):
            return self.names[seat]
        return f"seat {seat}"

    def other(self, seat: Any) -> str | None:
        """A consequence's seat, or None when it is the mover's."""
        return None if self.turn is not None and seat == self.turn.seat else self.name(seat)

    # lines

    def open_turn(self, seat: int) -> OpenTurn:
        if self.turn is not None and self.turn.seat != seat:
            self.close_turn()
        if self.turn is None:
            if self.resume is not None and self.resume[1] == seat:
                number = self.resume[0]
            else:
                self.count += 1
                number = self.count
            self.resume = None
            self.turn = OpenTurn(number, seat)
        return self.turn

    def close_turn(self, interrupted: bool = False) -> None:
        self.flush()
        if self.turn is not None:
            self.lines.append(Turn(self.turn.number, self.name(self.turn.seat), tuple(self.turn.moves)))
            self.resume = (self.turn.number, self.turn.seat) if interrupted else None
        self.turn = None

    def note(self, label: str, items: Iterable[Item]) -> None:
        self.close_turn(interrupted=True)
        self.close_setup()
        self.lines.append(Note(label, tuple(items)))

    def setup_item(self, item: Item) -> None:
        if self.setup is None:
            self.close_turn()
            self.setup = []
            self.setup_label = f"R{self.round + 1}"
        self.setup.append(item)

    def close_setup(self) -> None:
        if self.setup is not None:
            self.lines.append(Note(self.setup_label, tuple(self.setup)))
        self.setup = None

    def move(self, seat: int, m: Move) -> None:
        self.open_turn(seat).moves.append(m)

    def flush(self) -> None:
        """Cards played with no bridge or ship after them (O-11): a move of their own."""
        if self.played is not None and self.turn is not None:
            self.turn.moves.append(Move("play", cards=self.played[1]))
        self.played = None


def secret(event: Mapping[str, Any], key: str) -> Any:
    secret = event.get("secret")
    return secret.get(key) if isinstance(secret, Mapping) else None


def line_of(data: Mapping[str, Any], key: str = "line") -> tuple[str, ...]:
    return tuple(str(x) for x in data.get(key, ()))


def take_played(b: Builder) -> tuple[str, ...] | None:
    cards = b.played[1] if b.played is not None else None
    b.played = None
    return cards
