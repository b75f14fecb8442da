"""Given/when/then for the island games: every state is built by folding events.

`given(*histories)` folds events from the GameCreated that opens them; `.when(command)`
returns the events `decide` gives (and the state they lead to); `.rejects(command)`
returns the refusal's code. Positions are built from BridgePlaced/IslandTaken events,
never by poking a State.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from domain.core import Command, Event, IllegalMove, fold
from domain.islands import engine
from domain.islands.state import State

BLACK, WHITE = 0, 1
SEATS = [{"name": "Capucine"}, {"name": "Matthieu"}]

# The board file read on its own, so tests do not trust the engine's reading of it.
BOARD_FILE = Path(engine.__file__).parent / "boards" / "kahuna.json"
BOARD = json.loads(BOARD_FILE.read_text())
ISLANDS: list[str] = [i["name"] for i in BOARD["islands"]]
PLACES: dict[str, int] = {i["name"]: i["places"] for i in BOARD["islands"]}
LINES: list[tuple[str, str]] = sorted((min(a, b), max(a, b)) for a, b in BOARD["bridges"])
DECK: list[str] = sorted(ISLANDS * 2)

Fact = tuple[str, dict[str, Any]]


# --- events written out by hand: they pin the stored shapes ----------------------------


def created(first_seat: int = BLACK, **setup: Any) -> Event:
    return Event("GameCreated", {"game": "kahuna", "seats": SEATS, "first_seat": first_seat, **setup})


def line(a: str, b: str) -> list[str]:
    """A line as events spell it: the two island names in alphabetical order."""
    return sorted([a, b])


def placed(seat: int, a: str, b: str) -> Event:
    return Event("BridgePlaced", {"seat": seat, "line": line(a, b)})


def taken(seat: int, island: str) -> Event:
    return Event("IslandTaken", {"seat": seat, "island": island})


def lost(seat: int, island: str) -> Event:
    return Event("IslandLost", {"seat": seat, "island": island})


def removed(seat: int, a: str, b: str, by: int, cause: str) -> Event:
    return Event("BridgeRemoved", {"seat": seat, "line": line(a, b), "by": by, "cause": cause})


def played(seat: int, *cards: str) -> Event:
    return Event("CardsPlayed", {"seat": seat, "cards": list(cards)})


def round_ended(round_: int) -> Event:
    return Event("RoundEnded", {"round": round_})


def holds_majority(bridges: Iterable[tuple[str, str]], island: str) -> bool:
    """F-1 recomputed from the board file: more than half of the island's places."""
    return 2 * sum(1 for a, b in bridges if island in (a, b)) > PLACES[island]


def position(black: Sequence[tuple[str, str]] = (), white: Sequence[tuple[str, str]] = ()) -> list[Event]:
    """BridgePlaced for each bridge, then IslandTaken wherever a seat holds absolute majority."""
    events = [placed(BLACK, a, b) for a, b in black] + [placed(WHITE, a, b) for a, b in white]
    for seat, bridges in ((BLACK, black), (WHITE, white)):
        events += [taken(seat, island) for island in ISLANDS if holds_majority(bridges, island)]
    return events


# --- commands ------------------------------------------------------------------------


def place(seat: int, card: str, a: str, b: str) -> Command:
    return Command("PlaceBridge", seat, {"card": card, "line": [a, b]})


def attack(seat: int, cards: Sequence[str], a: str, b: str) -> Command:
    return Command("RemoveBridge", seat, {"cards": list(cards), "line": [a, b]})


def discard(seat: int, *cards: str) -> Command:
    return Command("DiscardCards", seat, {"cards": list(cards)})


def draw_face_up(seat: int, card: str) -> Command:
    return Command("DrawCard", seat, {"source": "face_up", "card": card})


def draw_stack(seat: int) -> Command:
    return Command("DrawCard", seat, {"source": "stack"})


def shuffle(order: Sequence[int]) -> Command:
    return Command("ShuffleDeck", None, {"order": list(order)})


def score(round_: int) -> Command:
    return Command("ScoreRound", None, {"round": round_})


# --- a chosen deal -------------------------------------------------------------------


def order_for(pool: Sequence[str], wanted: Sequence[str]) -> list[int]:
    """The ShuffleDeck order putting `wanted` on top of the stack, the rest in pool order."""
    free = list(range(len(pool)))
    order = []
    for card in wanted:
        index = next(i for i in free if pool[i] == card)
        free.remove(index)
        order.append(index)
    return order + free


def dealt(
    black: Sequence[str] = ("ALOA", "BARI", "COCO"),
    white: Sequence[str] = ("DUDA", "ELAI", "FAAA"),
    face_up: Sequence[str] = ("GOLA", "HUNA", "IFFI"),
    stack: Sequence[str] = (),
    first_seat: int = BLACK,
) -> list[Event]:
    """GameCreated and the deal of a shuffle giving these hands, face-up row and stack top."""
    game = created(first_seat)
    order = order_for(DECK, [*black, *white, *face_up, *stack])
    return [game, *engine.decide(engine.initial_state(game.data), shuffle(order))]


# --- given / when / then -------------------------------------------------------------


def facts(events: Iterable[Event]) -> list[Fact]:
    """The public part of events, for comparing with what a rule says should happen."""
    return [(e.type, dict(e.data)) for e in events]


@dataclass(frozen=True)
class Then:
    events: list[Event]
    state: State

    @property
    def facts(self) -> list[Fact]:
        return facts(self.events)

    @property
    def types(self) -> list[str]:
        return [e.type for e in self.events]


@dataclass(frozen=True)
class Given:
    history: list[Event]
    state: State = field(repr=False)

    def when(self, command: Command) -> Then:
        """What `decide` makes of `command`, and the state after its events."""
        events = engine.decide(self.state, command)
        return Then(events, fold(engine, self.state, events))

    def rejects(self, command: Command) -> str:
        """The code of the IllegalMove `command` raises; decide must leave the state alone."""
        before = self.state
        with pytest.raises(IllegalMove) as refusal:
            engine.decide(self.state, command)
        assert self.state == before
        return refusal.value.code

    def then(self, *commands: Command) -> Given:
        """The game after `commands` were accepted one after the other."""
        history, state = list(self.history), self.state
        for command in commands:
            events = engine.decide(state, command)
            history += events
            state = fold(engine, state, events)
        return Given(history, state)

    def plus(self, *events: Event) -> Given:
        """The game after some more recorded facts."""
        return Given([*self.history, *events], fold(engine, self.state, events))

    def end_round(self) -> Given:
        """Both seats only draw (discarding one card when full) until the round ends."""
        game = self
        while game.state.phase == "play":
            seat = game.state.active
            if len(game.state.hands[seat]) == 5:
                game = game.then(discard(seat, game.state.hands[seat][0]))
            if game.state.stack:
                game = game.then(draw_stack(seat))
            else:
                game = game.then(draw_face_up(seat, game.state.face_up[0]))
        return game


def given(*histories: Iterable[Event]) -> Given:
    """The game the events tell, from the GameCreated that opens them."""
    events = [e for history in histories for e in history]
    assert events and events[0].type == "GameCreated", "a history opens with GameCreated"
    state = fold(engine, engine.initial_state(events[0].data), events[1:])
    return Given(events, state)


def cards_in_play(state: State) -> Counter[str]:
    """Every card the state knows of, wherever it lies."""
    return Counter(
        [
            *(c for hand in state.hands for c in hand),
            *state.face_up,
            *state.stack,
            *state.played,
            *state.hidden,
        ]
    )


# --- random play -------------------------------------------------------------------


Step = tuple[Command | None, list[Event], State]


def random_command(rnd: random.Random, state: State) -> Command:
    """A legal command for whoever must act: the seat to move, or the system's pending work."""
    pending = engine.pending_system(state)
    if pending is None:
        legal = engine.legal_commands(state, state.active)
        # Pick a kind first, so attacks and draws are not drowned by the many placements.
        kind = rnd.choice(sorted({c.type for c in legal}))
        return rnd.choice([c for c in legal if c.type == kind])
    if pending["kind"] == "shuffle":
        args = {name: rnd.sample(range(size), size) for name, size in pending["permutations"].items()}
        return Command("ShuffleDeck", None, args)
    return score(pending["round"])


def random_game(rnd: random.Random) -> Iterator[Step]:
    """A whole game of random legal commands: (command, its events, the state after), from GameCreated."""
    game = created(first_seat=rnd.randrange(2))
    state = engine.initial_state(game.data)
    yield None, [game], state
    while not engine.is_terminal(state):
        command = random_command(rnd, state)
        events = engine.decide(state, command)
        state = fold(engine, state, events)
        yield command, events, state
