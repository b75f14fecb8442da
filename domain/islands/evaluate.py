"""The evaluation of a position for each seat, and the cheap move ordering searches use.

`score(state, seat)` adds up, in "island" units (docs/ai.md, "The evaluation"):

- ISLAND per island the seat holds, and SCORE per point it has already scored;
- per island nobody holds yet that the seat can still win (its bridges plus the free
  lines reach a majority): BRIDGE per bridge it has there, plus THREAT when it is one
  bridge short of the majority with a free line left, plus READY when it also holds a
  card that places that bridge (for the others, whose cards it does not know, READY
  counts half when they hold any card);
- CARD per card in hand, up to the hand limit.

A position's value for a seat is its score less the best other seat's; `win_chances`
turns the values into chances with a logistic curve of width SCALE, and a finished game
into 1 for the winner, 0 for the others (a draw shares 1 among the tied leaders).
"""

from __future__ import annotations

import math

from domain.core import Command
from domain.islands.state import ENDED, State

ISLAND = 10.0
SCORE = 12.0
BRIDGE = 1.5
THREAT = 3.0
READY = 2.0
CARD = 1.0
SCALE = 15.0


def score(state: State, seat: int, viewer: int | None = None) -> float:
    """The evaluation of `state` for `seat`; with a `viewer`, others' cards count unseen."""
    value = ISLAND * len(state.islands_of(seat)) + SCORE * state.scores[seat]
    hand = state.hands[seat]
    value += CARD * min(len(hand), state.hand_limit(seat))
    own = viewer is None or seat == viewer
    board = state.rules.board
    for index, island in enumerate(board.names):
        if state.control[index] is not None:
            continue
        places = state.places(island)
        need = places // 2 + 1
        mine = state.presence(island, seat)
        free = [n for n in board.lines_of(island) if state.owners[n] is None]
        if mine + len(free) < need:
            continue
        value += BRIDGE * mine
        if need - mine == 1 and free:
            value += THREAT
            if own:
                if _can_place(state, hand, island, free):
                    value += READY
            elif hand:
                value += READY / 2
    return value


def _can_place(state: State, hand: tuple[str, ...], island: str, free: list[int]) -> bool:
    lines = state.rules.board.lines
    return island in hand or any(end in hand for n in free for end in lines[n])


def values(state: State, viewer: int | None = None) -> list[float]:
    """Each seat's score less the best score among the other seats."""
    scores = [score(state, seat, viewer) for seat in range(state.seats)]
    return [s - max(o for n, o in enumerate(scores) if n != seat) for seat, s in enumerate(scores)]


def win_chances(state: State, viewer: int | None = None) -> list[float]:
    """Each seat's estimated chance to win, from 0 to 1."""
    if state.phase == ENDED:
        return final_chances(state)
    return [1.0 / (1.0 + math.exp(-v / SCALE)) for v in values(state, viewer)]


def final_chances(state: State) -> list[float]:
    """1 for the winner; a draw splits 1 among the seats with the best total."""
    result = state.result or {}
    winner = result.get("winner")
    if winner is not None:
        return [1.0 if seat == winner else 0.0 for seat in range(state.seats)]
    totals = list(result.get("totals") or state.scores)
    best = max(totals)
    leaders = [seat for seat, t in enumerate(totals) if t == best]
    return [1.0 / len(leaders) if seat in leaders else 0.0 for seat in range(state.seats)]


def quick(state: State, command: Command) -> float:
    """A cheap guess of how good `command` is, without deciding it: the searches' move order."""
    seat = command.seat
    assert seat is not None
    args = command.args
    kind = command.type
    if kind == "PlaceBridge" or (kind == "UseKanaloa" and "line" in args):
        return 1.0 + sum(_gain(state, seat, end) for end in args["line"])
    if kind in ("RemoveBridge", "SwapBridge"):
        return 2.0 + sum(_break(state, seat, args["line"], end) for end in args["line"])
    if kind == "DrawCard":
        return 1.5
    if kind == "DiscardCards":
        return 0.3 if len(args.get("cards", ())) == 1 else 0.0
    if kind in ("EndTurn", "SkipDraw"):
        return 0.5
    return 1.0


def _gain(state: State, seat: int, island: str) -> float:
    if state.controller(island) is not None:
        return 0.0
    need = state.places(island) // 2 + 1
    mine = state.presence(island, seat) + 1
    if mine >= need:
        return 8.0
    return 2.0 if mine == need - 1 else 0.5


def _break(state: State, seat: int, line: list[str], island: str) -> float:
    board = state.rules.board
    index = board.line_index(line[0], line[1])
    owner = state.owners[index] if index is not None else None
    if owner is None:
        return 0.0
    need = state.places(island) // 2 + 1
    held = state.presence(island, owner)
    if state.controller(island) == owner and held == need:
        return 8.0
    return 3.0 if held == need - 1 else 0.0
