"""What the greedy and search players need of Nanuuk! (domain.game_module.AIHooks).

Nothing in these games is hidden and nothing is left to chance once the ice is laid out
(N-2, V-3): a seat knows the whole state. So the one world a search samples is the state
itself, folded once from the live events the seat's knowledge holds and kept in the
knowledge's cache; every iteration of a search starts from it, and what the search
explores is only the future (the seats' choices). The evaluation turns each seat's
prospects into win chances: in Nanuuk! its points so far (N-11) and whether its hunters can
still move and reach an igloo; in the learning games, how free each seat's key pieces are
against those of the seats it plays against (a piece that cannot move loses those games).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Any

from domain.decider import Command, Event
from domain.game_module import AIHooks
from domain.nanuuk.board import Cell, line
from domain.nanuuk.decide import legal_commands
from domain.nanuuk.evolve import evolve
from domain.nanuuk.rules import AIMS, BEAR_FLIGHT, BEAR_HUNT, HELPER, PARTNERS, POINTS
from domain.nanuuk.setup import initial_state
from domain.nanuuk.state import State

CACHE_KEY = "nanuuk:state"
POINTS_SCALE = 3.0  # points apart that make one seat e (2.7) times likelier to win
FREEDOM_SCALE = 2.0
SHUT_IN = -10.0  # a key piece that cannot move: in the learning games, the game is lost


def world(knowledge: Any, rng: Any) -> State:
    """The state the seat's knowledge describes: its live events folded from the setup.

    The same value for every call on one knowledge (there is nothing to sample): folded
    once, then kept in the knowledge's cache.
    """
    cached: State | None = knowledge.cache.get(CACHE_KEY)
    if cached is None:
        events = list(knowledge.events)
        if not events or events[0][0] != "GameCreated":
            raise ValueError("a Nanuuk! world is folded from the game's events, GameCreated first")
        cached = initial_state(events[0][1])
        for kind, data in events[1:]:
            cached = evolve(cached, Event(kind, data))
        knowledge.cache[CACHE_KEY] = cached
    return cached


# --- how free a piece is -------------------------------------------------------------------


def _occupied(state: State) -> set[Cell]:
    return {p.cell for p in state.pieces if p.cell is not None and not p.out}


def steps_free(state: State, cell: Cell, occupied: set[Cell]) -> int:
    """The neighbouring cells a piece on `cell` could step to: no crack between, and no piece
    there unless it is an igloo (X-2)."""
    ice = state.rules.ice
    return sum(
        1
        for near in ice.near(cell)
        if line(cell, near) not in state.cracks and (near not in occupied or ice.is_igloo(near))
    )


def region(state: State, cell: Cell) -> set[Cell]:
    """The cells reachable from `cell` across lines with no crack (pieces aside)."""
    ice, seen, todo = state.rules.ice, {cell}, [cell]
    while todo:
        here = todo.pop()
        for near in ice.near(here):
            if near not in seen and line(here, near) not in state.cracks:
                seen.add(near)
                todo.append(near)
    return seen


def freedom(state: State, piece: int, occupied: set[Cell]) -> float:
    """How far a piece is from being shut in: its free steps, and a little for its room."""
    p = state.pieces[piece]
    if p.out or p.cell is None:
        return SHUT_IN
    free = steps_free(state, p.cell, occupied)
    if free == 0:
        return SHUT_IN
    return free + 0.25 * len(region(state, p.cell))


# --- the evaluation ------------------------------------------------------------------------


def _softmax(values: list[float], scale: float) -> list[float]:
    top = max(values)
    weights = [math.exp((v - top) / scale) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def _ended(state: State) -> list[float]:
    result = state.result or {}
    winners = result.get("winners") or ([] if result.get("winner") is None else [result["winner"]])
    if not winners:
        return [1.0 / state.seats] * state.seats
    return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(state.seats)]


def _hunter_prospects(state: State, seat: int, occupied: set[Cell]) -> float:
    """Nanuuk!: what a seat's hunters may still add to its points (N-11 so far is counted
    apart): a hunter still out on the ice may take the animals it can reach and come home;
    one cut off from every igloo loses its 2 points and its animals' way home."""
    value = 0.0
    ice = state.rules.ice
    for n, p in enumerate(state.pieces):
        if p.kind != "hunter" or p.seat != seat or p.cell is None or p.retired:
            continue
        room = region(state, p.cell)
        home = any(ice.is_igloo(c) for c in room)
        sheet = state.sheets[n]
        reachable = sum(POINTS.get(state.tokens.get(c, ""), 0) for c in room)
        value += 0.15 * steps_free(state, p.cell, occupied) + 0.25 * min(reachable, 16)
        value += 0.3 * len(sheet.carried & {"husky", "sled", "kayak"})
        if not ice.is_igloo(p.cell):
            value += 1.5 if home else -2.0 - sheet.points()
    return value


def key_pieces(state: State, seat: int) -> list[int]:
    """The pieces whose being shut in decides a learning game for `seat`."""
    game = state.rules.game
    own = [n for n, p in enumerate(state.pieces) if p.seat == seat]
    if game == HELPER:
        return [n for n in own if state.pieces[n].kind == "bear"]
    if game == BEAR_FLIGHT:
        return [n for n in own if state.pieces[n].kind == "inuk"]
    return own


def rivals(state: State, seat: int) -> list[int]:
    """The seats whose key pieces `seat` tries to shut in (L-4..L-8)."""
    game, seats = state.rules.game, state.seats
    if game == PARTNERS:
        return [(seat + AIMS[state.rules.options["aim"]]) % seats]
    if game == BEAR_HUNT:
        bear = state.rules.options["bear_seat"]
        return [s for s in range(seats) if s != bear] if seat == bear else [bear]
    return [s for s in range(seats) if s != seat and s not in state.gone]


def _learning_value(state: State, seat: int, occupied: set[Cell]) -> float:
    mine = [freedom(state, n, occupied) for n in key_pieces(state, seat)]
    if not mine:
        return SHUT_IN
    theirs = [
        min((freedom(state, n, occupied) for n in key_pieces(state, r)), default=0.0)
        for r in rivals(state, seat)
    ]
    return min(mine) - min(theirs, default=0.0)


def win_chances(state: State, viewer: int | None = None) -> list[float]:
    """Each seat's chance to win, from 0 to 1 (nothing is hidden: `viewer` changes nothing)."""
    if state.result is not None:
        return _ended(state)
    occupied = _occupied(state)
    if state.rules.full:
        values = [score + _hunter_prospects(state, seat, occupied) for seat, score in enumerate(state.scores)]
        return _softmax(values, POINTS_SCALE)
    values = [_learning_value(state, seat, occupied) for seat in range(state.seats)]
    return _softmax(values, FREEDOM_SCALE)


# --- the search's helpers ------------------------------------------------------------------

PRIORS = {
    "TakeAnimal": 2.0,
    "Exchange": 1.5,
    "BringIn": 1.0,
    "SendBear": 0.5,
    "EndIglooVisit": 0.0,
    "LeaveAnimal": -1.0,
    "Retire": -0.5,
}


def prior(state: State, command: Command) -> float:
    """A cheap order for rollouts: take and bank animals, step towards tokens, retire late."""
    value = PRIORS.get(command.type, 0.0)
    if command.type == "Move" and state.rules.full:
        cell = command.args.get("cell")
        if cell is not None:
            target = (int(cell[0]), int(cell[1]))
            value += 1.0 if target in state.tokens else 0.0
    return value


def searched_moves(state: State, seat: int) -> list[Command]:
    return list(legal_commands(state, seat))


def moves_key(state: State, seat: int) -> Hashable:
    """The state's features its legal commands depend on (nearly all of it: the key is exact)."""
    return (
        seat,
        state.phase,
        state.active,
        state.pieces,
        state.cracks,
        tuple(sorted(state.tokens.items())),
        tuple((s.carried, s.animals, s.inuk, s.igloo) for s in state.sheets),
        state.turn,
        state.to_place,
    )


def priors(state: State, commands: Sequence[Command]) -> list[float]:
    """The rollout order of a whole listing: each command's own prior."""
    return [prior(state, command) for command in commands]


def turn(state: State) -> Hashable:
    return (state.active, state.phase)


HOOKS: AIHooks[State] = AIHooks(
    world=world,
    evaluate=win_chances,
    priors=priors,
    moves=searched_moves,
    moves_key=moves_key,
    turn=turn,
)
