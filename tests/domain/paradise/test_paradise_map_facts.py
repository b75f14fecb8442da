"""The facts kept per map of groups (`map_facts`) and the explorer's reach kept beside them give,
at every state of seeded random games, what the state alone worked out from nothing gives:
who controls what, the victory points, the evaluation's prospects, the start region and the
first steps. The games share one process, so a fact kept under too coarse a key shows."""

from __future__ import annotations

import pytest

from domain.paradise import evaluate, explore
from domain.paradise.empire import components, controlled, controller, revealed_effect, vp_halves
from domain.paradise.hexes import distance, neighbours, reachable
from domain.paradise.state import State, replace, total
from domain.paradise.tables import CARDS, HALVES
from tests.domain.paradise.random_games import ADVANCED, states


def _held(state: State, seat: int) -> list[tuple[int, int]]:
    return sorted(at for at, island in state.islands.items() if controller(island) == seat)


def _vp_halves(state: State, seat: int, hidden_too: bool) -> int:
    """Q-D3 from the state alone, as the rules counted before anything was kept per map."""
    mine = _held(state, seat)
    base = state.bases[seat]
    chain = next((part for part in components(replace(state), seat) if base in part), set())
    got = sum(state.islands[at].villages for at in mine) * HALVES["village"]
    got += sum(1 for at in mine if at in chain) * HALVES["linked_group"]
    atoll = 2 if revealed_effect(state, seat, "atoll_full_point") else HALVES["linked_atoll"]
    got += sum(atoll for at in chain if at in state.islands and state.islands[at].atoll)
    names = {state.islands[at].name for at in mine}
    for name in state.revealed[seat] + (state.hands[seat] if hidden_too else ()):
        card = CARDS[name]
        got += 2 * (card.vp + (card.bonus_vp if names & set(card.bonus_islands) else 0))
    got += HALVES["kumara"] if state.kumara[seat] else 0
    return got - 2 * state.penalties[seat]


def _free(state: State, at: tuple[int, int]) -> bool:
    island = state.islands[at]
    return controller(island) is None and not island.atoll and island.squares > island.villages


def _prospects(state: State, seat: int) -> float:
    """The evaluation's prospects from the state alone, summed in the evaluation's order."""
    held = _held(state, seat)
    income = sum(state.islands[at].villages for at in held)
    room = sum(max(0, state.islands[at].squares - state.islands[at].villages) for at in held)
    points = evaluate.points_to_spend(state, seat, income) + income * evaluate.turns_left(state)
    got = evaluate.GROUP * len(held) + evaluate.INCOME * points + evaluate.ROOM * room
    for (at, owner), stack in state.stacks.items():
        if owner != seat:
            continue
        got += sum(evaluate.PIECE[kind] * n for kind, n in stack.pieces.items() if n > 0)
        if stack.pieces["colony"] > 0:
            near = [
                distance(at, there)
                for there, island in state.islands.items()
                if island.face_up and _free(state, there)
            ]
            got += evaluate.SETTLE_READY / (1 + min(near)) if near else 0.0
    for at, island in state.islands.items():
        known = island.face_up or seat in island.discoverers
        if known and not island.printed and _free(state, at):
            got += evaluate.FOUND
    return got


def _reach(state: State, seat: int) -> tuple[set[tuple[int, int]], list[tuple[int, int]]]:
    def passable(at: tuple[int, int]) -> bool:
        if at in state.unknown:
            return False
        island = state.islands.get(at)
        if island is not None and not (island.face_up or island.printed):
            return False
        if island is not None and controller(island) not in (None, seat):
            return False
        return not any(
            h == at and owner != seat and total(s.pieces) for (h, owner), s in state.stacks.items()
        )

    region = reachable(_held(state, seat), passable)
    steps = sorted({n for at in region for n in neighbours(at) if explore.explorable(state, n, seat)})
    return region, steps


@pytest.mark.parametrize(
    ("seats", "options", "seed"),
    [(2, {"last_turn": 12}, 3), (4, {**ADVANCED, "last_turn": 8}, 5)],
)
def test_facts_kept_per_map_equal_those_of_the_state_alone(
    seats: int, options: dict[str, object], seed: int
) -> None:
    checked = 0
    for state in states(seats, options, seed):
        for seat in range(seats):
            assert controlled(state, seat) == _held(state, seat)
            for hidden in (False, True):
                assert vp_halves(state, seat, hidden_too=hidden) == _vp_halves(state, seat, hidden)
            assert evaluate._prospects(state, seat) == _prospects(state, seat)
            assert (explore.start_region(state, seat), explore.first_steps(state, seat)) == _reach(
                state, seat
            )
            checked += 1
    assert checked > 300
