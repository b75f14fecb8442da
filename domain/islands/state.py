"""The state of an island game: an immutable value rebuilt by folding its events."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from domain.islands.ruleset import Ruleset

# Phases: "setup" waits for the system's shuffle, "choosing" for every seat's O-2 face-up
# card, "play" takes the active seat's commands, "final" is the last turn of each seat
# (I-6, O-7), "scoring" waits for the scoring job, "ended" takes nothing.
SETUP, CHOOSING, PLAY, FINAL, SCORING, ENDED = "setup", "choosing", "play", "final", "scoring", "ended"
ACTING = (PLAY, FINAL)


@dataclass(frozen=True)
class Turn:
    """What the active seat did so far this turn: several rules depend on it."""

    played: bool = False  # S-4: a ship moves only on a turn without cards
    moved: bool = False  # S-4: and after the move no card is played
    discarded: bool = False  # O-5: one face-down discard per turn
    taken_back: tuple[int, ...] = ()  # O-11: lines a bridge was taken back from this turn
    skipped_draw: bool = False  # K-9: the seat abstained from drawing


NEW_TURN = Turn()
"""A turn where nothing happened yet; one value serves every turn, as Turn is immutable."""


@dataclass(frozen=True)
class Pending:
    """A choice the rules wait for before anything else: `kind`, who, and the options."""

    kind: str  # "relative_majority" (O-6), "ku" (G-6), "pele_return" (G-7), "pele_draw"
    seat: int
    island: str = ""
    options: tuple[Any, ...] = ()
    target: int | None = None


@dataclass(frozen=True)
class State:
    rules: Ruleset
    names: tuple[str, ...]
    mode: str
    phase: str
    round: int
    active: int
    owners: tuple[int | None, ...]  # per board line: the seat whose bridge lies there
    control: tuple[int | None, ...]  # per island: the seat whose marker stands there
    stock: tuple[int, ...]  # bridges each seat still has off the board
    hands: tuple[tuple[str, ...], ...]  # sorted
    face_up: tuple[str, ...] = ()
    stack: tuple[str, ...] = ()  # the stack or bag; index 0 is drawn next
    played: tuple[str, ...] = ()  # discard pile, face up
    hidden: tuple[str, ...] = ()  # discard pile, face down
    scores: tuple[int, ...] = ()
    scorings: tuple[tuple[int, ...], ...] = ()  # points of each scoring so far
    result: dict[str, Any] | None = None
    turn: Turn = field(default_factory=Turn)
    ships: tuple[int | None, ...] = ()  # per sea space: the seat whose ship is there (S)
    ship_stock: tuple[int, ...] = ()
    free_bridges: tuple[int, ...] = ()  # I-8 handicap bridges still to place
    skipped_last: bool = False  # K-9: the previous turn ended without a draw by choice
    final_order: tuple[int, ...] = ()  # seats still owed their final turn, next first
    finished: tuple[int, ...] = ()  # seats in the order they finished their final turn
    chosen: tuple[str | None, ...] = ()  # O-2: each seat's secret face-up choice
    pending: tuple[Pending, ...] = ()
    gods: tuple[str | None, ...] = ()  # per island: the god stone still lying there (G-1)
    stones: tuple[tuple[str, ...], ...] = ()  # god stones each seat holds unused
    # Per seat, the lines its bridges lie on as bits (line n: 1 << n), kept beside `owners` by
    # evolve: a seat's bridges on an island are then one `&` and a bit count. Derived, so
    # neither given to __init__ nor compared.
    held: tuple[int, ...] = field(init=False, repr=False, compare=False)
    # Per seat, the sea spaces its ships lie on as bits (sea n: 1 << n), kept beside `ships`
    # as `held` is beside `owners`: a seat's ships around an island are one `&`. Derived too.
    fleets: tuple[int, ...] = field(init=False, repr=False, compare=False)
    # The seat count and each seat's hand limit, read several times a command: looked up once.
    seats: int = field(init=False, repr=False, compare=False)
    hand_limits: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "held", masks(self.owners, len(self.names)))
        object.__setattr__(self, "fleets", masks(self.ships, len(self.names)))
        object.__setattr__(self, "seats", len(self.names))
        object.__setattr__(self, "hand_limits", tuple(map(self.rules.hand_limit_of, range(len(self.names)))))

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.seats

    def island_index(self, island: str) -> int:
        return self.rules.board.index_of(island)

    def ships_on(self, island: str, seat: int | None = None) -> int:
        """Ships next to `island` (of `seat` only, when given); S-2/S-3."""
        if not self.ships:
            return 0
        around = self.rules.board.seas_mask(island)
        if seat is not None:
            return (self.fleets[seat] & around).bit_count()
        afloat = 0  # the fleets share no sea space: their union counts every ship once
        for fleet in self.fleets:
            afloat |= fleet
        return (afloat & around).bit_count()

    def places(self, island: str) -> int:
        """S-3: the island's lines plus one place per adjacent ship."""
        return self.rules.board.places(island) + self.ships_on(island)

    def bridges_on(self, island: str, seat: int) -> int:
        """How many of `seat`'s bridges touch `island`."""
        return (self.held[seat] & self.rules.board.line_mask(island)).bit_count()

    def presence(self, island: str, seat: int) -> int:
        """Bridges plus ships (S-2) of `seat` counted on `island`."""
        return self.bridges_on(island, seat) + self.ships_on(island, seat)

    def holds_majority(self, island: str, seat: int) -> bool:
        """F-1: more than half of the island's places are `seat`'s.

        Counted here rather than by `presence` and `places`: settling asks it of every
        controlled island a change touches, and late in a game most islands are controlled.
        """
        board = self.rules.board
        _, lines, places = board.shape[island]
        mine = (self.held[seat] & lines).bit_count()
        if self.ships:  # S-2/S-3: one's ships count, and every ship adds a place
            mine += (self.fleets[seat] & board.seas_mask(island)).bit_count()
            places += self.ships_on(island)
        return 2 * mine > places

    def majority_holder(self, island: str) -> int | None:
        """F-1: the seat holding more than half of the island's places, if one does.

        At most one seat can; asked once per island instead of once per seat and island.
        """
        board = self.rules.board
        _, lines, places = board.shape[island]
        if self.ships:  # S-2/S-3: each ship around counts for its seat and adds a place
            seas = board.seas_mask(island)
            presence = []
            for held, fleet in zip(self.held, self.fleets, strict=True):
                ships = (fleet & seas).bit_count()
                places += ships
                presence.append((held & lines).bit_count() + ships)
            for seat, count in enumerate(presence):
                if 2 * count > places:
                    return seat
            return None
        for seat, held in enumerate(self.held):  # without ships (all but Seafarers): bridges alone
            if 2 * (held & lines).bit_count() > places:
                return seat
        return None

    def controller(self, island: str) -> int | None:
        return self.control[self.rules.board.index_of(island)]

    def islands_of(self, seat: int) -> tuple[str, ...]:
        names = self.rules.board.names
        return tuple(names[i] for i, owner in enumerate(self.control) if owner == seat)

    def bridges_of(self, seat: int) -> int:
        """How many bridges `seat` has on the board."""
        return self.held[seat].bit_count()

    def hand_limit(self, seat: int) -> int:
        return self.hand_limits[seat]

    def pool(self) -> tuple[str, ...]:
        """Every card outside the hands, sorted: what a new round shuffles."""
        return tuple(sorted(self.face_up + self.stack + self.played + self.hidden))


def masks(owners: tuple[int | None, ...], seats: int) -> tuple[int, ...]:
    """Per seat, the positions of `owners` that are its own, as bits (position n: 1 << n)."""
    found = [0] * seats
    for n, owner in enumerate(owners):
        if owner is not None:
            found[owner] |= 1 << n
    return tuple(found)


def without(cards: tuple[str, ...], taken: Sequence[str]) -> tuple[str, ...]:
    """`cards` less one copy of each card in `taken` (the caller checked they are there)."""
    if len(taken) == 1:  # most events take one card: two slices, no list
        at = cards.index(taken[0])
        return cards[:at] + cards[at + 1 :]
    rest = list(cards)
    for card in taken:
        rest.remove(card)
    return tuple(rest)


def holds(cards: tuple[str, ...], wanted: Sequence[str]) -> bool:
    """Whether `cards` contains every card of `wanted`, counting copies."""
    if len(wanted) == 1:  # most commands play one card: no copies to count
        return wanted[0] in cards
    rest = list(cards)
    for card in wanted:
        if card not in rest:
            return False
        rest.remove(card)
    return True


def set_at(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return values[:index] + (value,) + values[index + 1 :]


Value = TypeVar("Value", State, Turn)


def update(value: Value, **changes: Any) -> Value:
    """`value` with `changes`, like `dataclasses.replace` but without re-running `__init__`."""
    return replaced(value, changes)


def replaced(value: Value, changes: Mapping[str, Any]) -> Value:
    """`value` with the fields `changes` names set to its values (`update` with a mapping).

    Every event makes a new State of some 30 fields; `replace` reads each field and passes
    them all to `__init__`, which was a third of the rules' time in random self-play. A copy
    of the fields' dict is three times cheaper still than filling a new one. The copy keeps
    the value frozen: nothing else writes to its `__dict__`.
    """
    fields = value.__dict__
    copied = fields.copy()
    copied.update(changes)
    # A name that is not a field adds a key: cheaper to notice than comparing the names.
    if len(copied) != len(fields):
        unknown = sorted(changes.keys() - type(value).__dataclass_fields__.keys())
        raise TypeError(f"{type(value).__name__} has no field(s) {unknown}")
    new = _new(type(value))
    _set_fields(new, "__dict__", copied)
    return new


# Looked up once: `update` runs for every event of every search.
_new = object.__new__
_set_fields = object.__setattr__
