"""The notation as data: a record of tag pairs and lines (turns of moves, notes of items)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Move:
    """One token of a turn line: an action of the seat, or a consequence of one.

    `seat` names another seat concerned (an owner, a target); on a consequence it is None
    when that seat is the mover. `cards` None means the token shows no card list.
    """

    kind: str
    where: tuple[str, ...] = ()
    to: tuple[str, ...] = ()
    cards: tuple[str, ...] | None = None
    count: int | None = None
    seat: str | None = None
    god: str | None = None
    points: int | None = None


@dataclass(frozen=True)
class Turn:
    """`12. Ana: <moves>`: the moves of one turn of one seat."""

    number: int
    seat: str
    moves: tuple[Move, ...] = ()


@dataclass(frozen=True)
class Item:
    """`key(who:args)` on a note line, e.g. hand(Ana:ALOA,BARI,COCO) or deck(24)."""

    key: str
    args: tuple[str, ...] = ()
    who: str | None = None


@dataclass(frozen=True)
class Note:
    """A line of what happens between turns: `R2:` (a deal), `R1 score:`, `end:`, `undo:`..."""

    label: str
    items: tuple[Item, ...] = ()


Line = Turn | Note


@dataclass(frozen=True)
class Record:
    tags: tuple[tuple[str, str], ...]
    lines: tuple[Line, ...]

    @property
    def turns(self) -> list[Turn]:
        return [line for line in self.lines if isinstance(line, Turn)]

    def tag(self, name: str) -> str | None:
        return next((value for key, value in self.tags if key == name), None)


class NotationError(ValueError):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
