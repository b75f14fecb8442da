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
from collections.abc import Sequence
from dataclasses import dataclass

from domain.decider import Command
from domain.islands.ruleset import Ruleset
from domain.islands.state import ENDED, State

ISLAND = 10.0
SCORE = 12.0
BRIDGE = 1.5
THREAT = 3.0
READY = 2.0
CARD = 1.0
SCALE = 15.0


@dataclass(frozen=True)
class _Island:
    """What the evaluation reads of one island, looked up once per ruleset."""

    index: int
    name: str
    places: int  # without ships
    lines: tuple[int, ...]
    ends: tuple[tuple[int, tuple[str, str]], ...]  # each line with its two ends
    seas: tuple[int, ...]
    mask: int  # its lines as bits, as State.held has them
    seas_mask: int  # its sea spaces as bits, as State.fleets has them


def _islands(rules: Ruleset) -> tuple[tuple[_Island, ...], dict[str, _Island]]:
    """The board's islands in board order, and by name: built once, read in every evaluation."""
    found = rules.derived.get("evaluate")
    if found is None:
        board = rules.board
        ordered = tuple(
            _Island(
                index,
                name,
                board.places(name),
                board.lines_of(name),
                tuple((n, board.lines[n]) for n in board.lines_of(name)),
                board.seas_of(name),
                board.line_mask(name),
                board.seas_mask(name),
            )
            for index, name in enumerate(board.names)
        )
        found = rules.derived["evaluate"] = (ordered, {i.name: i for i in ordered})
    return found


def _ships(state: State, island: _Island, seat: int | None = None) -> int:
    """S-2/S-3: ships next to `island` (of `seat` only, when given)."""
    if seat is not None:
        return (state.fleets[seat] & island.seas_mask).bit_count()
    return sum((fleet & island.seas_mask).bit_count() for fleet in state.fleets)


def scores(state: State, viewer: int | None = None) -> list[float]:
    """Every seat's evaluation (`score`), one pass over the islands for all seats.

    Bridges and ships are counted with the per-seat masks (`State.held`, `State.fleets`):
    the searches evaluate every rollout's end.
    """
    seats = range(state.seats)
    control, owners, hands, held = state.control, state.owners, state.hands, state.held
    value = [
        ISLAND * control.count(seat)
        + SCORE * state.scores[seat]
        + CARD * min(len(hands[seat]), state.hand_limit(seat))
        for seat in seats
    ]
    taken = 0
    for lines in held:
        taken |= lines
    for island in _islands(state.rules)[0]:
        if control[island.index] is not None:
            continue
        free = (island.mask & ~taken).bit_count()
        need = _places(state, island) // 2 + 1
        for seat in seats:
            mine = (held[seat] & island.mask).bit_count() + (
                _ships(state, island, seat) if state.ships else 0
            )
            if mine + free < need:
                continue
            value[seat] += BRIDGE * mine
            if need - mine == 1 and free:
                value[seat] += THREAT
                hand = hands[seat]
                if viewer is None or seat == viewer:
                    if island.name in hand or _places_a_free_line(hand, island, owners):
                        value[seat] += READY
                elif hand:
                    value[seat] += READY / 2
    return value


def _places_a_free_line(hand: tuple[str, ...], island: _Island, owners: tuple[int | None, ...]) -> bool:
    """Whether `hand` holds a card of an end of one of `island`'s free lines."""
    return any(end in hand for n, ends in island.ends if owners[n] is None for end in ends)


def score(state: State, seat: int, viewer: int | None = None) -> float:
    """The evaluation of `state` for `seat`; with a `viewer`, others' cards count unseen."""
    return scores(state, viewer)[seat]


def values(state: State, viewer: int | None = None) -> list[float]:
    """Each seat's score less the best score among the other seats."""
    found = scores(state, viewer)
    return [s - max(o for n, o in enumerate(found) if n != seat) for seat, s in enumerate(found)]


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
        islands = _islands(state.rules)[1]
        return 1.0 + sum([_gain(state, seat, islands[end]) for end in args["line"]])
    if kind in ("RemoveBridge", "SwapBridge"):
        return 2.0 + sum(_break(state, seat, args["line"], end) for end in args["line"])
    if kind in FIXED:
        return FIXED[kind]
    if kind == "DiscardCards":
        return 0.3 if len(args.get("cards", ())) == 1 else 0.0
    return 1.0


FIXED = {"DrawCard": 1.5, "EndTurn": 0.5, "SkipDraw": 0.5}
"""The move order's value of the commands whose value depends on nothing else."""


def priors(state: State, commands: Sequence[Command]) -> list[float]:
    """`quick` of each of `commands`, each island's gain computed once for the whole list.

    A rollout orders a whole listing at every step: its placements name the same few
    islands again and again, and their gains were most of the ordering's cost.
    """
    islands = _islands(state.rules)[1]
    gains: dict[tuple[int | None, str], float] = {}
    found = []
    for command in commands:
        kind = command.type
        if kind == "PlaceBridge" or (kind == "UseKanaloa" and "line" in command.args):
            added = 0.0
            for end in command.args["line"]:
                gain = gains.get((command.seat, end))
                if gain is None:
                    assert command.seat is not None
                    gain = gains[command.seat, end] = _gain(state, command.seat, islands[end])
                added += gain
            found.append(1.0 + added)
        else:
            fixed = FIXED.get(kind)
            found.append(fixed if fixed is not None else quick(state, command))
    return found


def _gain(state: State, seat: int, island: _Island) -> float:
    if state.control[island.index] is not None:
        return 0.0
    need = _places(state, island) // 2 + 1
    mine = _presence(state, island, seat) + 1
    if mine >= need:
        return 8.0
    return 2.0 if mine == need - 1 else 0.5


def _break(state: State, seat: int, line: list[str], name: str) -> float:
    index = state.rules.board.line_index(line[0], line[1])
    owner = state.owners[index] if index is not None else None
    if owner is None:
        return 0.0
    island = _islands(state.rules)[1][name]
    need = _places(state, island) // 2 + 1
    held = _presence(state, island, owner)
    if state.control[island.index] == owner and held == need:
        return 8.0
    return 3.0 if held == need - 1 else 0.0


def _places(state: State, island: _Island) -> int:
    """S-3: the island's lines plus one place per adjacent ship."""
    return island.places + (_ships(state, island) if state.ships else 0)


def _presence(state: State, island: _Island, seat: int) -> int:
    """Bridges plus ships (S-2) of `seat` counted on `island`."""
    bridges = (state.held[seat] & island.mask).bit_count()
    return bridges + (_ships(state, island, seat) if state.ships else 0)
