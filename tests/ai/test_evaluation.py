"""The evaluation and the move order, read from per-ruleset island tables, give exactly what the
rules' own State methods give (docs/ai.md, "The evaluation"), in every game and variant."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from ai.table import Table
from domain.decider import Command
from domain.islands import engine, evaluate
from domain.islands.evaluate import BRIDGE, CARD, ISLAND, READY, SCORE, THREAT
from domain.islands.state import State
from tests.ai.test_knowledge import SETUPS, _setup


def reference_score(state: State, seat: int, viewer: int | None) -> float:
    """The evaluation written with the State's own methods, term by term as docs/ai.md gives it."""
    value = ISLAND * len(state.islands_of(seat)) + SCORE * state.scores[seat]
    hand = state.hands[seat]
    value += CARD * min(len(hand), state.hand_limit(seat))
    board = state.rules.board
    for index, island in enumerate(board.names):
        if state.control[index] is not None:
            continue
        need = state.places(island) // 2 + 1
        mine = state.presence(island, seat)
        free = [n for n in board.lines_of(island) if state.owners[n] is None]
        if mine + len(free) < need:
            continue
        value += BRIDGE * mine
        if need - mine == 1 and free:
            value += THREAT
            if viewer is None or seat == viewer:
                ends = {end for n in free for end in board.lines[n]}
                if island in hand or ends & set(hand):
                    value += READY
            elif hand:
                value += READY / 2
    return value


def reference_gain(state: State, seat: int, island: str) -> float:
    if state.controller(island) is not None:
        return 0.0
    need = state.places(island) // 2 + 1
    mine = state.presence(island, seat) + 1
    if mine >= need:
        return 8.0
    return 2.0 if mine == need - 1 else 0.5


def _states(spec: dict, games: int = 2) -> Iterator[State]:
    rng = random.Random(11)
    for game in range(games):
        table = Table(_setup(spec), random.Random(game))
        while not table.ended:
            yield table.state
            seat = table.mover()
            assert seat is not None
            table.play(rng.choice(table.legal(seat)))


@pytest.mark.parametrize("spec", SETUPS, ids=lambda s: f"{s['game']}-{s['seats']}-{s.get('options')}")
def test_the_evaluation_equals_its_definition_in_every_state_of_random_games(spec: dict) -> None:
    checked = 0
    for state in _states(spec):
        for viewer in (None, *range(state.seats)):
            found = evaluate.scores(state, viewer)
            assert found == [reference_score(state, seat, viewer) for seat in range(state.seats)]
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("spec", SETUPS, ids=lambda s: f"{s['game']}-{s['seats']}-{s.get('options')}")
def test_the_move_order_of_a_placement_is_one_plus_the_gain_at_each_end(spec: dict) -> None:
    placements = 0
    for state in _states(spec, games=1):
        for seat in range(state.seats):
            for command in _placements(state, seat):
                expected = 1.0 + sum(reference_gain(state, seat, end) for end in command.args["line"])
                assert evaluate.quick(state, command) == expected
                placements += 1
    assert placements > 100


def _placements(state: State, seat: int) -> list[Command]:
    """A placement on every free line (legal or not: the order is asked of any candidate)."""
    board = state.rules.board
    return [
        Command("PlaceBridge", seat, {"card": line[0], "line": list(line)})
        for n, line in enumerate(board.lines)
        if state.owners[n] is None
    ]


@pytest.mark.parametrize("spec", SETUPS, ids=lambda s: f"{s['game']}-{s['seats']}-{s.get('options')}")
def test_the_move_order_of_a_listing_is_each_commands_own_order(spec: dict) -> None:
    # `priors` shares the islands' gains among a listing's commands; the values stay `quick`'s.
    ordered = 0
    for state in _states(spec, games=1):
        for seat in range(state.seats):
            listed = [*engine.legal_commands(state, seat), *_placements(state, seat)]
            assert evaluate.priors(state, listed) == [evaluate.quick(state, c) for c in listed]
            ordered += len(listed)
    assert ordered > 1000
