"""A Nanuuk! game as a test plays it: real commands in, events out, positions built by events.

`Game(name, seats, **options)` opens a game from its GameCreated setup; `do(type, **args)`
plays the active seat's command and returns its events; `refused(...)` returns a refusal's
code; `offered(type)` lists the args of the legal commands of a type. `crack(...)` folds
CrackPlaced events to draw cracks where a test wants them (the only position not reached by
commands). LAYOUT_2 is a set-up meeting N-2 on the 2-player ice, laid out by hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.decider import Command, Event, IllegalMove
from domain.nanuuk import events as ev
from domain.nanuuk.decide import decide_with_state, legal_commands
from domain.nanuuk.evolve import evolve
from domain.nanuuk.setup import initial_state
from domain.nanuuk.state import State

NAMES = ["Aput", "Bodil", "Cass", "Dag", "Eira"]

# The 2-player ice (22 cells, igloos at 0,-2, 2,0 and -2,2): whales and Inuit apart from each
# other and from the igloos, every other cell filled.
LAYOUT_2: dict[str, list[list[int]]] = {
    "whale": [[-2, 0], [1, 2], [2, -3]],
    "inuk": [[0, 1], [-1, 3], [3, -2]],
    "bear": [[1, -1], [-1, 2]],
    "fish": [[1, -2], [2, -1], [0, 2]],
    "seal": [[0, -1], [1, 0], [-1, 1], [-1, 0]],
    "walrus": [[-1, -1], [1, 1], [-2, 1], [2, -2]],
}
IGLOO_N, IGLOO_E, IGLOO_W = [0, -2], [2, 0], [-2, 2]


def setup(name: str, seats: int, first: int = 0, **options: Any) -> dict[str, Any]:
    return {
        "game": name,
        "seats": [{"name": n} for n in NAMES[:seats]],
        "first_seat": first,
        "options": options,
    }


class Game:
    def __init__(self, name: str, seats: int, first: int = 0, **options: Any) -> None:
        self.setup = setup(name, seats, first, **options)
        self.state: State = initial_state(self.setup)
        self.events: list[Event] = []

    def command(self, kind: str, seat: int | None = None, **args: Any) -> Command:
        return Command(kind, self.state.active if seat is None else seat, args)

    def do(self, kind: str, seat: int | None = None, **args: Any) -> list[Event]:
        events, self.state = decide_with_state(self.state, self.command(kind, seat, **args))
        self.events += events
        return events

    def system(self, kind: str, **args: Any) -> list[Event]:
        events, self.state = decide_with_state(self.state, Command(kind, None, args))
        self.events += events
        return events

    def refused(self, kind: str, seat: int | None = None, **args: Any) -> str:
        try:
            decide_with_state(self.state, self.command(kind, seat, **args))
        except IllegalMove as refusal:
            return refusal.code
        raise AssertionError(f"{kind} {args} was not refused")

    def offered(self, kind: str | None = None) -> list[dict[str, Any]]:
        return [dict(c.args) for c in legal_commands(self.state, self.state.active) if kind in (None, c.type)]

    def types(self) -> set[str]:
        return {c.type for c in legal_commands(self.state, self.state.active)}

    def crack(self, *lines: tuple[list[int], list[int]]) -> None:
        for a, b in lines:
            low, high = sorted([tuple(a), tuple(b)])
            event = ev.crack_placed(0, (0, 0), ((low[0], low[1]), (high[0], high[1])), "C", forced=True)
            self.state = evolve(self.state, event)

    def place(self, *cells: list[int]) -> None:
        """Each next piece on the cells given, in the placing order."""
        for cell in cells:
            seat, piece = self.state.to_place[0]
            self.do("PlacePiece", piece=piece, cell=cell)

    def put(self, piece: int, cell: list[int]) -> None:
        """Folds a step of `piece` to `cell` (anywhere) and a fresh turn for the same seat."""
        start = self.state.pieces[piece].cell or (0, 0)
        seat, active = self.state.pieces[piece].seat or 0, self.state.active
        self.state = evolve(
            self.state, ev.piece_moved(piece, seat, start, (cell[0], cell[1]), False, False, False)
        )
        self.state = evolve(self.state, ev.turn_ended(active, active, True))

    def fold(self, event: Event) -> None:
        self.state = evolve(self.state, event)

    def cell_of(self, piece: int) -> list[int] | None:
        cell = self.state.pieces[piece].cell
        return None if cell is None else [cell[0], cell[1]]

    def types_of(self, events: list[Event]) -> list[str]:
        return [e.type for e in events]


def of(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in events if e.type == kind]


def line(a: list[int], b: list[int]) -> list[list[int]]:
    return sorted([a, b])


def solo(first_igloo: list[int] = IGLOO_N, **options: Any) -> Game:
    """A 2-player Nanuuk! on LAYOUT_2 where Bodil (seat 1) retires at once: Aput's hunter
    (piece 0, starting on `first_igloo`) then plays every turn."""
    game = Game("nanuuk", 2, first=1, layout=LAYOUT_2, **options)
    game.place(IGLOO_E, first_igloo)
    game.do("Retire", piece=1)
    assert game.state.active == 0
    return game


def settle(game: Game, keep: Sequence[list[list[int]]] = ()) -> list[Event]:
    """Ends the stage under way as simply as it can: leave animals, end igloo visits, and
    crack the first offered line not in `keep`; the events that gave."""
    events: list[Event] = []
    while game.state.active == 0 and game.state.phase == "play":
        kinds = game.types()
        if "PlaceCrack" in kinds:
            free = [a for a in game.offered("PlaceCrack") if a["crack"] not in keep]
            assert free, "every offered crack would cut the test's path"
            events += game.do("PlaceCrack", **free[0])
        elif "LeaveAnimal" in kinds:
            events += game.do("LeaveAnimal")
        elif "EndIglooVisit" in kinds:
            events += game.do("EndIglooVisit")
        else:
            break
    return events
