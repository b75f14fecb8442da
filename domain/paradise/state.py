"""The state of a game of Conquest of Paradise: immutable values, replaced by `evolve`."""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from domain.paradise.tables import KINDS, Hex

INDEPENDENT = -1
"""The owner of a printed group nobody has conquered; an enemy of every player."""

HOME, LOST = "home", "lost"
"""Where an explorer waits between explorations: before its player, or in the Lost box."""

# phases of a turn (P-1)
START, ORDER, EXPLORE, MOVE, BUILD, VICTORY, ENDED = (
    "start",
    "order",
    "explore",
    "move",
    "build",
    "victory",
    "ended",
)

Counts = Mapping[str, int]
Value = TypeVar("Value")
Computed = TypeVar("Computed", bound=Callable[..., Any])
DERIVED = "_derived"
"""Where a State keeps what it computed from itself (see `kept`); never copied by `replace`."""


def replace(value: Value, /, **changes: Any) -> Value:
    """`dataclasses.replace` for the rules' frozen values (no __post_init__, no init=False
    fields), without running __init__: a State has some forty fields, and the generated frozen
    __init__ sets each through object.__setattr__, which made replacing the hottest call of a game."""
    # A copy of the fields handed to the new object whole: filling its own empty dict cost
    # nearly twice as much.
    fields = value.__dict__.copy()
    fields.pop(DERIVED, None)
    fields.update(changes)
    new = object.__new__(type(value))
    object.__setattr__(new, "__dict__", fields)
    return new


assert KINDS == ("transport", "war_canoe", "band", "colony", "rumor"), "counts and add spell the kinds out"


def counts(**given: int) -> dict[str, int]:
    """A full count of every piece kind, zero where not given."""
    # Spelled out rather than a comprehension over KINDS: counts are made millions of times a game.
    get = given.get
    return {
        "transport": get("transport", 0),
        "war_canoe": get("war_canoe", 0),
        "band": get("band", 0),
        "colony": get("colony", 0),
        "rumor": get("rumor", 0),
    }


def add(a: Counts, b: Counts, sign: int = 1) -> dict[str, int]:
    x, y = a.get, b.get
    return {
        "transport": x("transport", 0) + sign * y("transport", 0),
        "war_canoe": x("war_canoe", 0) + sign * y("war_canoe", 0),
        "band": x("band", 0) + sign * y("band", 0),
        "colony": x("colony", 0) + sign * y("colony", 0),
        "rumor": x("rumor", 0) + sign * y("rumor", 0),
    }


def total(c: Counts) -> int:
    return sum(c.values())


@dataclass(frozen=True)
class Stack:
    """One player's pieces in one hex: counts by kind, those moved by a canoe this turn
    (`spent`), whether one transport lies face up (`shown`), bands that came aboard war
    canoes this turn (`aboard_war`, first line in an attack)."""

    pieces: Counts
    spent: Counts = field(default_factory=counts)
    shown: bool = False
    aboard_war: int = 0


@dataclass(frozen=True)
class Island:
    """An island group on the map: a printed group or a placed tile."""

    name: str
    green: int
    brown: int
    atoll: bool
    printed: bool
    face_up: bool
    discoverers: tuple[int, ...] = ()
    owner: int | None = None
    villages: int = 0
    agriculture: int = 0
    warriors: int = 0
    malaria: tuple[int, ...] = ()
    garrison: int | None = None  # a conquered printed group: its conqueror keeps a piece there (P-3.8)

    @property
    def squares(self) -> int:
        """Squares a village may stand on now."""
        return self.green + self.agriculture


@dataclass(frozen=True)
class Expedition:
    """The explorer out this turn: where, knots shown, hexes explored, whether it came back."""

    seat: int
    at: Hex | None = None
    came_from: Hex | None = None
    knots: int = 0
    explored: tuple[Hex, ...] = ()
    disrupted: bool = False  # the seat to the left chooses where the voyage goes (P-2.3)
    crossing: bool = False  # the last step crossed a known hex: the next must be unknown
    ignored_disruption: bool = False
    kumara: bool = False  # Q-A5: a voyage to South America


@dataclass(frozen=True)
class Battle:
    """A battle in progress (P-3.4): each side's first line, panicked and second-line pieces."""

    hex: Hex
    attacker: int
    defender: int
    front: tuple[Counts, Counts]  # kinds: war_canoe, band, local
    panicked: tuple[Counts, Counts]
    rear: tuple[Counts, Counts]
    villages: int
    haka: tuple[bool, bool] = (False, False)  # used in this battle, by side
    roll: int | None = None
    winner: int | None = None  # side: 0 attacker, 1 defender


@dataclass(frozen=True)
class Choice:
    """A decision the rules wait for (Q-4): its kind, its seat, what it may choose among."""

    kind: str
    seat: int
    options: tuple[Any, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Due:
    """Chance the system must draw (Q-3): what for, and the piles with their sizes."""

    what: str
    piles: Mapping[str, int]
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Draft:
    """One seat's build orders of this phase, secret until every seat has committed (Q-1)."""

    items: tuple[tuple[str, Hex | None], ...] = ()
    rotate: bool = False
    save: bool = False
    committed: bool = False


@dataclass(frozen=True)
class Options:
    """Game options: the advanced rules Q-A1..Q-A6 and the victory target."""

    variable_start: bool = False
    saved_resources: bool = False
    malaria: bool = False
    south_island: bool = False
    kumara: bool = False
    end_shift: int = 0
    last_turn: int | None = None


@dataclass(frozen=True)
class State:
    names: tuple[str, ...]
    options: Options
    bases: tuple[Hex | None, ...]
    islands: Mapping[Hex, Island]
    ocean: frozenset[Hex]
    unknown: frozenset[Hex]
    stacks: Mapping[tuple[Hex, int], Stack]
    explorers: tuple[str | Hex, ...]
    chits: tuple[int, ...]
    tiles: tuple[str, ...]
    deck: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    revealed: tuple[tuple[str, ...], ...]
    phase: str = START
    turn: int = 0
    marker: int = 0
    order: tuple[int, ...] = ()
    active: int = 0  # index in `order`
    expedition: Expedition | None = None
    transit_open: bool = True
    moved: bool = False
    battles: tuple[tuple[Hex, int], ...] = ()
    battle: Battle | None = None
    choice: Choice | None = None
    due: Due | None = None
    drafts: tuple[Draft, ...] = ()
    saved: tuple[int, ...] = ()
    settled: frozenset[Hex] = frozenset()  # groups that got a new village this turn
    malaria_armed: bool = False
    kumara: tuple[bool, ...] = ()
    galapagos: tuple[bool, ...] = ()
    penalties: tuple[int, ...] = ()  # VP taken by Severe Deforestation
    spent_cards: tuple[tuple[str, ...], ...] = ()
    claims: tuple[int, ...] = ()
    south_done: bool = False  # Q-A4: Te Waka Maui placed or put out of the game
    passed: frozenset[int] = frozenset()  # holders of Severe Deforestation who kept it this claim
    given_up: tuple[tuple[int, int], ...] = ()  # per seat (war canoes, bands) out of the game (P-3.8)
    result: Mapping[str, Any] | None = None

    @property
    def seats(self) -> int:
        return len(self.names)

    @property
    def seat(self) -> int:
        """The seat whose part of a turn-ordered phase it is."""
        return self.order[self.active] if self.order else 0

    def stack(self, at: Hex, seat: int) -> Stack:
        return self.stacks.get((at, seat)) or EMPTY

    def pieces(self, at: Hex, seat: int) -> Counts:
        return self.stack(at, seat).pieces

    def occupants(self, at: Hex) -> list[int]:
        """The seats with pieces in `at`."""
        return list(occupied(self).get(at, ()))


EMPTY = Stack(counts())
"""No pieces: what `State.stack` answers for a hex where a seat has none (never changed)."""


def kept(compute: Computed) -> Computed:
    """`compute`, worked out once per state and arguments and then kept beside the state's
    fields (never copied by `replace`; shared with every caller: never to be changed by one):
    the legal lists, the evaluation and the automatic steps ask the same questions of one
    state many times over. A decorator rather than a helper taking a closure: a closure made
    at every call cost more than the lookup saved."""

    def lookup(state: State, /, *args: Hashable) -> Any:
        fields = state.__dict__
        cache = fields.get(DERIVED)
        if cache is None:
            cache = fields[DERIVED] = {}
        key = (compute, *args)
        found = cache.get(key, _UNKNOWN)
        if found is _UNKNOWN:
            found = cache[key] = compute(state, *args)
        return found

    return cast(Computed, functools.update_wrapper(lookup, compute))


_UNKNOWN = object()
_OVER_OWN_MOVES: list[Callable[..., Any]] = []


def kept_over_own_moves(compute: Computed) -> Computed:
    """`kept`, for a `compute(state, seat)` that reads nothing a move of `seat`'s own pieces
    changes (neither its stacks nor `transit_open` and `moved`): `carry_over` hands it on from
    the state before such a move to the state after it."""
    _OVER_OWN_MOVES.append(compute)
    return kept(compute)


def carry_over(before: State, after: State, seat: int) -> State:
    """`after`, the state following a move of `seat`'s own pieces from `before`, with what
    `before` kept of `kept_over_own_moves` for `seat`."""
    cache = before.__dict__.get(DERIVED)
    if cache:
        for compute in _OVER_OWN_MOVES:
            key = (compute, seat)
            found = cache.get(key, _UNKNOWN)
            if found is not _UNKNOWN:
                fields = after.__dict__
                fields.setdefault(DERIVED, {})[key] = found
    return after


@kept
def occupied(state: State) -> dict[Hex, tuple[int, ...]]:
    """The seats with pieces in each hex that has any, in seat order: worked out once per
    state, as the legal lists ask it for every step of every candidate move."""
    seats: dict[Hex, list[int]] = {}
    for (at, seat), stack in state.stacks.items():
        if total(stack.pieces):
            seats.setdefault(at, []).append(seat)
    return {at: tuple(sorted(present)) for at, present in seats.items()}


def out_of_game(state: State, seat: int) -> dict[str, int]:
    """The seat's pieces removed from the game for good (P-3.8: fighters given up to save
    villages), never built again; other losses go back to the unbuilt supply."""
    war, bands = state.given_up[seat] if seat < len(state.given_up) else (0, 0)
    return counts(war_canoe=war, band=bands)


def with_stack(state: State, at: Hex, seat: int, stack: Stack) -> State:
    """`state` with `seat`'s stack in `at` replaced (dropped when it holds nothing)."""
    stacks = dict(state.stacks)
    put_stack(stacks, at, seat, stack)
    return replace(state, stacks=stacks)


def put_stack(stacks: dict[tuple[Hex, int], Stack], at: Hex, seat: int, stack: Stack) -> None:
    """`with_stack`'s change, made to `stacks` in place (a copy the caller owns)."""
    if total(stack.pieces):
        stacks[(at, seat)] = stack
    else:
        stacks.pop((at, seat), None)


def with_island(state: State, at: Hex, island: Island) -> State:
    return replace(state, islands={**state.islands, at: island})


def put(tup: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return tup[:index] + (value,) + tup[index + 1 :]
