"""Given/when/then for the island games: every state is built by folding events.

A `Table` is a game with its options, board file and material (KAHUNA, IKIBITI, OPODOPO).
`given(*histories)` folds events from the GameCreated that opens them; `.when(command)`
returns the events `decide` gives (and the state they lead to); `.rejects(command)`
returns the refusal's code. `deal` opens a game on a chosen deal (O-2 choices and G-1
stones included); positions are built from BridgePlaced/ShipPlaced/IslandTaken events
(`layout`), never by poking a State. `random_game` and `play_out` play random legal games
of any table; `check_views` shows that no view depends on what its seat may not know.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from domain.decider import Command, Event, IllegalMove, fold
from domain.islands import engine
from domain.islands.setup import GOD_STONES
from domain.islands.state import State
from domain.turns import Shuffle

BLACK, WHITE = 0, 1
SEAT_NAMES = ["Capucine", "Matthieu", "Gaspard", "Ysaline", "Octave"]
SEATS = [{"name": name} for name in SEAT_NAMES[:2]]

Line = tuple[str, str]
Sea = tuple[str, ...]


@dataclass(frozen=True)
class BoardFile:
    """A board file read on its own, so tests do not trust the engine's reading of it."""

    islands: list[str]
    places: dict[str, int]
    lines: list[Line]  # sorted pairs, in sorted order
    seas: list[Sea]  # sorted triples (S)


def read_board(stem: str) -> BoardFile:
    raw = json.loads((Path(engine.__file__).parent / "boards" / f"{stem}.json").read_text())
    return BoardFile(
        islands=[i["name"] for i in raw["islands"]],
        places={i["name"]: i["places"] for i in raw["islands"]},
        lines=sorted((min(a, b), max(a, b)) for a, b in raw["bridges"]),
        seas=sorted(tuple(sorted(sea)) for sea in raw.get("sea_spaces", ())),
    )


@dataclass(frozen=True)
class Table:
    """A game as a test opens it: the GameCreated it needs, its board and its material."""

    game: str
    board: BoardFile
    copies: int  # cards per island
    bridges: int  # per seat
    seats: int = 2
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def deck(self) -> list[str]:
        return sorted(self.board.islands * self.copies)

    def created(self, first_seat: int = BLACK, **setup: Any) -> Event:
        data: dict[str, Any] = {
            "game": self.game,
            "seats": [{"name": name} for name in SEAT_NAMES[: self.seats]],
            "first_seat": first_seat,
        }
        if self.options:
            data["options"] = dict(self.options)
        return Event("GameCreated", {**data, **setup})

    def with_options(self, seats: int | None = None, **options: Any) -> Table:
        return replace(self, seats=seats or self.seats, options={**self.options, **options})


KAHUNA = Table("kahuna", read_board("kahuna"), copies=2, bridges=25)
IKIBITI = Table("arabana-ikibiti", read_board("arabana-ikibiti"), copies=2, bridges=25)
OPODOPO = Table("arabana-opodopo", read_board("arabana-opodopo"), copies=3, bridges=20, seats=4)

# Kahuna's board, as the Kahuna tests name it.
ISLANDS: list[str] = KAHUNA.board.islands
PLACES: dict[str, int] = KAHUNA.board.places
LINES: list[Line] = KAHUNA.board.lines
DECK: list[str] = KAHUNA.deck

Fact = tuple[str, dict[str, Any]]

# Arabana-Opodopo positions random games seldom reach. Seat 0 holds ten islands (Arabana,
# Barilub, Cocotac, Garanig, Ikibiti, Lusepil, Mosedam, Opodopo, Papalua, Rarotiki); Elamite-Hunisch
# would make Hunisch (3 of 5) the eleventh (O-10).
OPODOPO_TEN: list[Line] = [
    ("Arabana", "Barilub"), ("Arabana", "Cocotac"), ("Arabana", "Papalua"), ("Barilub", "Cocotac"),
    ("Barilub", "Lusepil"), ("Cocotac", "Rarotiki"), ("Danidad", "Opodopo"), ("Garanig", "Krapink"),
    ("Garanig", "Nuridan"), ("Garanig", "Rarotiki"), ("Hunisch", "Lusepil"), ("Hunisch", "Mosedam"),
    ("Ikibiti", "Lusepil"), ("Ikibiti", "Opodopo"), ("Lusepil", "Papalua"), ("Mosedam", "Opodopo"),
]  # fmt: skip
# Three seats; seat 0 has its 20 bridges out (O-11) and holds Elamite (3 of 5), Fafnuff, Hunisch,
# Mosedam and Opodopo; Arabana-Papalua and Cocotac-Rarotiki are free.
OPODOPO_ALL_OUT: list[list[Line]] = [
    [("Arabana", "Cocotac"), ("Arabana", "Danidad"), ("Barilub", "Elamite"), ("Barilub", "Fafnuff"),
     ("Cocotac", "Fafnuff"), ("Danidad", "Opodopo"), ("Elamite", "Hunisch"), ("Elamite", "Lusepil"),
     ("Fafnuff", "Garanig"), ("Fafnuff", "Krapink"), ("Garanig", "Rarotiki"), ("Hunisch", "Krapink"),
     ("Hunisch", "Lusepil"), ("Hunisch", "Mosedam"), ("Hunisch", "Opodopo"), ("Ikibiti", "Opodopo"),
     ("Lusepil", "Papalua"), ("Mosedam", "Nuridan"), ("Mosedam", "Opodopo"), ("Nuridan", "Opodopo")],
    [("Barilub", "Lusepil"), ("Cocotac", "Garanig"), ("Danidad", "Papalua"), ("Elamite", "Fafnuff"),
     ("Elamite", "Krapink"), ("Garanig", "Krapink"), ("Ikibiti", "Lusepil"), ("Nuridan", "Rarotiki")],
    [("Arabana", "Barilub"), ("Arabana", "Lusepil"), ("Barilub", "Cocotac"), ("Danidad", "Ikibiti"),
     ("Danidad", "Lusepil"), ("Garanig", "Nuridan"), ("Krapink", "Nuridan")],
]  # fmt: skip


# --- events written out by hand: they pin the stored shapes ----------------------------


def created(first_seat: int = BLACK, **setup: Any) -> Event:
    return KAHUNA.created(first_seat, **setup)


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


def turn_ended(seat: int, next_seat: int) -> Event:
    """A turn over: the next one starts afresh (S-4 and O-5 look at what a turn did)."""
    return Event("TurnEnded", {"seat": seat, "next": next_seat})


def ship_placed(seat: int, sea: Sequence[str]) -> Event:
    return Event("ShipPlaced", {"seat": seat, "sea": sorted(sea)})


def places_of(board: BoardFile, ships: Mapping[Sea, int], island: str) -> int:
    """S-3 recomputed from the board file: the island's lines plus one place per adjacent ship."""
    return board.places[island] + sum(1 for sea in ships if island in sea)


def majority_holders(
    board: BoardFile, bridges: Mapping[Line, int], ships: Mapping[Sea, int]
) -> dict[str, int | None]:
    """F-1 (with S-2) recomputed from the board file: each island's seat holding more than half its places."""
    presence: dict[str, Counter[int]] = {island: Counter() for island in board.islands}
    for piece, seat in [*bridges.items(), *ships.items()]:
        for island in piece:
            presence[island][seat] += 1
    return {
        island: next((seat for seat, n in counts.items() if 2 * n > places_of(board, ships, island)), None)
        for island, counts in presence.items()
    }


def layout(
    board: BoardFile, bridges: Sequence[Sequence[Line]], ships: Sequence[Sequence[Sea]] = ()
) -> list[Event]:
    """Each seat's bridges and ships, then IslandTaken wherever a seat holds absolute majority."""
    events = [placed(seat, a, b) for seat, lines in enumerate(bridges) for a, b in lines]
    events += [ship_placed(seat, sea) for seat, seas in enumerate(ships) for sea in seas]
    owners = {(min(a, b), max(a, b)): seat for seat, lines in enumerate(bridges) for a, b in lines}
    fleet = {tuple(sorted(sea)): seat for seat, seas in enumerate(ships) for sea in seas}
    holders = majority_holders(board, owners, fleet)
    for seat in range(max(len(bridges), len(ships))):
        events += [taken(seat, island) for island in board.islands if holders[island] == seat]
    return events


def position(black: Sequence[Line] = (), white: Sequence[Line] = ()) -> list[Event]:
    """A Kahuna position: BridgePlaced for each bridge, then IslandTaken where a seat holds majority."""
    return layout(KAHUNA.board, [black, white])


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


def act(kind: str, seat: int, **args: Any) -> Command:
    """Any seat command, for the variants' rarer commands: act("UsePele", BLACK)."""
    return Command(kind, seat, args)


def swap(seat: int, cards: Sequence[str], a: str, b: str, **kanaloa: bool) -> Command:
    """O-4 (G-5 with kanaloa=True: one card and the Kanaloa stone)."""
    return Command("SwapBridge", seat, {"cards": list(cards), "line": [a, b], **kanaloa})


def end_turn(seat: int) -> Command:
    return Command("EndTurn", seat, {})


def shuffle(order: Sequence[int], **more: Sequence[int]) -> Command:
    """ShuffleDeck; `more` holds further permutations (gods=..., G-1)."""
    return Command("ShuffleDeck", None, {"order": list(order), **{k: list(v) for k, v in more.items()}})


def score(round_: int) -> Command:
    return Command("ScoreRound", None, {"round": round_})


# --- a chosen deal -------------------------------------------------------------------


def order_for(pool: Sequence[str], wanted: Sequence[str]) -> list[int]:
    """The ShuffleDeck order putting `wanted` on top of the stack, the rest in pool order."""
    free = list(range(len(pool)))
    order = []
    for card in wanted:
        index = next((i for i in free if pool[i] == card), None)
        assert index is not None, f"the deck holds no further {card}"
        free.remove(index)
        order.append(index)
    return order + free


def gods_order(board: BoardFile, gods: Mapping[str, str]) -> list[int]:
    """The `gods` permutation laying these stones on these islands (G-1), the rest in island order."""
    spare = Counter(GOD_STONES) - Counter(gods.values())
    fill = iter(sorted(spare.elements()))
    laid = [gods[island] if island in gods else next(fill) for island in board.islands]
    return order_for(GOD_STONES, laid)


def deal(
    table: Table,
    hands: Sequence[Sequence[str]],
    face_up: Sequence[str],
    stack: Sequence[str] = (),
    first_seat: int = BLACK,
    gods: Mapping[str, str] | None = None,
) -> list[Event]:
    """GameCreated and the deal giving these hands, face-up row and stack top.

    In Arabana-Opodopo (O-2) `hands` are the cards each seat keeps and the first face-up cards
    are those the seats chose, in seat order, the rest drawn from the bag.
    """
    game = table.created(first_seat)
    state = engine.initial_state(game.data)
    choosing = state.rules.choose_face_up
    held = [[*hand, face_up[seat]] for seat, hand in enumerate(hands)] if choosing else hands
    rest = face_up[len(hands) :] if choosing else face_up
    order = order_for(table.deck, [*(c for hand in held for c in hand), *rest, *stack])
    more = {"gods": gods_order(table.board, gods or {})} if state.rules.gods else {}
    then = given([game]).then(shuffle(order, **more))
    if choosing:
        then = then.then(*(act("ChooseFaceUp", seat, card=face_up[seat]) for seat in range(len(hands))))
    return then.history


def dealt(
    black: Sequence[str] = ("ALOA", "BARI", "COCO"),
    white: Sequence[str] = ("DUDA", "ELAI", "FAAA"),
    face_up: Sequence[str] = ("GOLA", "HUNA", "IFFI"),
    stack: Sequence[str] = (),
    first_seat: int = BLACK,
) -> list[Event]:
    """Kahuna: GameCreated and the deal of a shuffle giving these hands, face-up row and stack top."""
    return deal(KAHUNA, [black, white], face_up, stack, first_seat)


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

    @property
    def markers(self) -> dict[str, int]:
        """The markers on the board, island -> seat, as every seat sees them."""
        seen: dict[str, int] = engine.view(self.state, None)["control"]
        return seen

    def draw_out(self) -> Given:
        """Every seat only draws (discarding when full) until no card is left to draw."""
        game = self
        while game.state.phase == "play":
            seat = game.state.active
            held, limit = game.state.hands[seat], game.state.hand_limit(seat)
            if len(held) > limit:  # G-9: the turn ends discarding down to the limit, without a draw
                game = game.then(Command("EndTurn", seat, {"cards": list(held[limit:])}))
                continue
            if len(held) == limit:
                game = game.then(discard(seat, held[0]))
            if len(game.state.hands[seat]) >= limit:
                game = game.then(end_turn(seat))  # O-5: a full hand may end the turn without drawing
            elif game.state.stack:
                game = game.then(draw_stack(seat))
            else:
                game = game.then(draw_face_up(seat, game.state.face_up[0]))
        return game

    def end_round(self) -> Given:
        """The round drawn out, and every final turn (I-6, O-7) passed: the scoring is due."""
        game = self.draw_out()
        while game.state.phase == "final":
            game = game.then(end_turn(game.state.active))
        return game

    def at_round(self, round_: int) -> Given:
        """The game moved on to `round_`, each round before ending as it stands (no card drawn)."""
        game = self
        while game.state.round < round_:
            if game.state.phase in ("play", "final"):
                game = game.plus(round_ended(game.state.round))
            game = game.next_round()
        return game

    def next_round(self) -> Given:
        """The scoring due, then the next round dealt in pool order (the stones too, G-1)."""
        game = self.then(score(self.state.round)) if self.state.phase == "scoring" else self
        due = engine.pending_system(game.state)
        assert isinstance(due, Shuffle), due
        return game.then(shuffle(**{name: range(size) for name, size in due.permutations.items()}))


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


# --- what a store gives back, and what a seat may see ---------------------------------


def stored(event: Event) -> Event:
    """The event as a store gives it back: through JSON, secret and audience included."""
    raw = json.loads(
        json.dumps(
            {
                "type": event.type,
                "data": event.data,
                "secret": event.secret,
                "audience": event.audience,
                "schema": event.schema,
            }
        )
    )
    return Event(raw["type"], raw["data"], raw["secret"], tuple(raw["audience"]), raw["schema"])


def refold(history: list[Event]) -> State:
    """The state rebuilt from the stored history alone, from the GameCreated that opens it."""
    return fold(engine, engine.initial_state(history[0].data), history[1:])


def reshuffled_secrets(rnd: random.Random, state: State, viewer: int | None) -> State:
    """`state` with what `viewer` may not know dealt afresh.

    The other hands, the stack or bag and the face-down discards are shuffled together; the
    other seats' secret face-up choices (O-2) and the options of choices pending for another
    seat (G-6 shows a hand) are replaced.
    """
    others = [s for s in range(state.seats) if s != viewer]
    secret = [c for s in others for c in state.hands[s]] + list(state.stack) + list(state.hidden)
    rnd.shuffle(secret)
    hands = list(state.hands)
    for s in others:
        hands[s], secret = tuple(sorted(secret[: len(hands[s])])), secret[len(hands[s]) :]
    stack, hidden = tuple(secret[: len(state.stack)]), tuple(secret[len(state.stack) :])
    chosen = tuple(
        c if c is None or s == viewer else rnd.choice(hands[s] or ("",)) for s, c in enumerate(state.chosen)
    )
    pending = tuple(p if p.seat == viewer else replace(p, options=()) for p in state.pending)
    return replace(state, hands=tuple(hands), stack=stack, hidden=hidden, chosen=chosen, pending=pending)


def check_views(rnd: random.Random, state: State) -> None:
    """No view tells another seat's hand or choice, the stack order or hidden discards; all are JSON."""
    for viewer in [*range(state.seats), None]:
        seen = engine.view(state, viewer)
        text = json.dumps(seen)
        assert seen == engine.view(reshuffled_secrets(rnd, state, viewer), viewer)
        assert not {"hands", "stack", "hidden"} & set(seen)
        if viewer is None:
            assert "hand" not in seen
        else:
            assert seen["hand"] == list(state.hands[viewer])
        if len(state.stack) > 5:  # shorter lists could be a hand or a line by chance
            assert json.dumps(list(state.stack)) not in text  # the stack as a list, at any depth


# --- random play -------------------------------------------------------------------


Step = tuple[Command | None, list[Event], State]


def random_command(rnd: random.Random, state: State) -> Command:
    """A legal command for whoever must act: a seat (every seat still choosing, O-2), or the system."""
    pending = engine.pending_system(state)
    if pending is None:
        movers = [legal for seat in range(state.seats) if (legal := engine.legal_commands(state, seat))]
        legal = movers[0] if len(movers) == 1 else rnd.choice(movers)
        # Pick a kind first, so attacks and draws are not drowned by the many placements.
        kind = rnd.choice(sorted({c.type for c in legal}))
        return rnd.choice([c for c in legal if c.type == kind])
    return pending.answer(rnd)


def random_game(rnd: random.Random, table: Table = KAHUNA, start: Sequence[Event] = ()) -> Iterator[Step]:
    """A whole game of random legal commands: (command, its events, the state after).

    The first step is the GameCreated, or the `start` of the game when given (a position).
    """
    opening = list(start) or [table.created(first_seat=rnd.randrange(table.seats))]
    state = refold(opening)
    yield None, opening, state
    while not engine.is_terminal(state):
        command = random_command(rnd, state)
        events = engine.decide(state, command)
        state = fold(engine, state, events)
        yield command, events, state


Check = Callable[[State, Command, list[Event], State], None]


def play_out(
    rnd: random.Random, table: Table, check: Check, start: Sequence[Event] = ()
) -> tuple[list[Event], State]:
    """A random game of `table` (from `start`) to its end, checked after every command.

    After each command the stored events refold to the live state, and `check(before, command,
    events, after)` passes. Returns the stored history and the final state.
    """
    steps = random_game(rnd, table, start)
    _none, created, before = next(steps)
    history = [stored(e) for e in created]
    replica = refold(history)
    for command, events, state in steps:
        assert command is not None
        new = [stored(e) for e in events]
        history += new
        # fold(stored history so far) from initial_state, one step further each time:
        # the same value as a refold from scratch, without its quadratic cost.
        replica = fold(engine, replica, new)
        assert replica == state
        check(before, command, events, state)
        before = state
    assert engine.is_terminal(before)
    assert refold(history) == before
    return history, before
