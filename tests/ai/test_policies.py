"""Every computer player answers a legal command, in every game, phase and pending choice;
and what it cannot see cannot change its answer."""

from __future__ import annotations

import random

import pytest

from ai.ismcts import Budget, search
from ai.knowledge import build
from ai.policies import KINDS, budget_for, choose, commands
from ai.sim import as_command, key
from ai.table import Table
from domain.decider import Command
from domain.islands import engine
from domain.islands import events as domain_events
from record.redaction import redact_event

TINY = Budget(iterations=3)

SETUPS = [
    ("kahuna", 2, {}),
    ("kahuna", 2, {"edition": "thames-kosmos"}),
    ("arabana-ikibiti", 2, {"seafarers": True, "handicap": {"seat": 1, "free_bridges": 2}}),
    ("arabana-opodopo", 3, {"gods": True}),
    ("arabana-opodopo", 4, {}),
]


def _setup(game: str, seats: int, options: dict) -> dict:
    names = [{"name": f"P{n}"} for n in range(seats)]
    return {"game": game, "seats": names, "first_seat": 0, "options": options}


def _situation(table: Table) -> str:
    state = table.state
    if state.phase == "choosing":
        return "choosing"
    if state.pending:
        return f"pending {state.pending[0].kind}"
    return state.phase


@pytest.mark.parametrize("game,seats,options", SETUPS, ids=lambda v: str(v))
def test_every_player_answers_a_legal_command(game: str, seats: int, options: dict) -> None:
    seen: set[str] = set()
    for number in range(2):
        table = Table(_setup(game, seats, options), random.Random(number))
        rng = random.Random(number)
        moves = 0
        while not table.ended:
            seat = table.mover()
            assert seat is not None
            legal = table.legal(seat)
            situation = _situation(table)
            kinds = KINDS if situation not in seen or moves % 25 == 0 else ("random", "greedy")
            seen.add(situation)
            picked = {}
            for kind in kinds:
                body = choose(kind, table.knowledge(seat), legal, random.Random(moves), TINY)
                assert key(body) in {key(c) for c in legal}, (kind, body)
                picked[kind] = body
            table.play(as_command(picked["greedy" if rng.random() < 0.7 else "random"], seat))
            moves += 1
    if game == "arabana-opodopo":
        assert "choosing" in seen
    if options.get("gods"):
        assert any(s.startswith("pending") for s in seen), seen
    assert "play" in seen


def _dealt(order: list[int]) -> tuple[object, list]:
    setup = _setup("kahuna", 2, {})
    state = engine.initial_state(setup)
    events = [
        domain_events.game_created(setup),
        *engine.decide(state, Command("ShuffleDeck", None, {"order": order})),
    ]
    for event in events[1:]:
        state = engine.evolve(state, event)
    return state, events


def test_hidden_cards_change_neither_the_knowledge_nor_the_decision() -> None:
    order = random.Random(5).sample(range(24), 24)
    pool = engine.initial_state(_setup("kahuna", 2, {})).pool()
    other = list(order)
    swap = next(n for n in range(9, 24) if pool[order[n]] != pool[order[3]])
    other[3], other[swap] = other[swap], other[3]  # a card of seat 1's hand trades places with the stack
    first, first_events = _dealt(order)
    second, second_events = _dealt(other)
    assert first.hands[0] == second.hands[0] and first.hands[1] != second.hands[1]
    assert first.stack != second.stack

    def knowledge(state, events):  # type: ignore[no-untyped-def]
        shown = [redact_event(e, n, 0) for n, e in enumerate(events, start=1)]
        return build(0, engine.view(state, 0), shown)

    mine, theirs = knowledge(first, first_events), knowledge(second, second_events)
    assert mine == theirs
    legal = engine.legal_commands(first, 0)
    assert legal == engine.legal_commands(second, 0)
    for kind in KINDS:
        budget = Budget(iterations=40)
        assert choose(kind, mine, legal, random.Random(9), budget) == choose(
            kind, theirs, legal, random.Random(9), budget
        )


def test_a_search_keeps_to_its_time_budget() -> None:
    """Read on a clock that moves 10 ms a look, a 50 ms budget is the iterations that fit."""
    table = Table(_setup("kahuna", 2, {}), random.Random(1))
    seat = table.mover()
    legal = commands(seat, table.legal(seat))
    looks = iter(range(10_000))
    found = search(
        table.knowledge(seat), legal, random.Random(1), Budget(seconds=0.05), clock=lambda: next(looks) / 100
    )
    # The start is look 0, the deadline 0.05: the first iteration runs unasked, looks 1-4 let one
    # more run each, look 5 ends it.
    assert found.iterations == 5
    assert found.seconds == pytest.approx(0.06)
    assert key(found.command) in {key(c) for c in legal}
    assert set(found.chances) == {key(c) for c in legal}
    assert all(0.0 <= c <= 1.0 for c in found.chances.values())


def test_a_search_whose_time_was_spent_before_it_began_still_looks_once() -> None:
    """A busy machine can spend a short budget before the first iteration (the priors, a wait for
    the core): the search then still plays one, and its move comes from a look, not from nothing."""
    table = Table(_setup("kahuna", 2, {}), random.Random(1))
    seat = table.mover()
    legal = commands(seat, table.legal(seat))
    looks = iter(range(0, 10_000, 100))  # every look is a second later than the last
    found = search(
        table.knowledge(seat), legal, random.Random(1), Budget(seconds=0.05), clock=lambda: next(looks) / 100
    )
    assert found.iterations == 1
    assert sum(found.visits.values()) >= 1


def test_levels_map_to_seconds_and_the_environment_overrides_them() -> None:
    assert budget_for(1, {}) == Budget(seconds=0.1)
    assert budget_for(5, {}) == Budget(seconds=5.0)
    env = {
        "ARCHIPELAGO_AI_SECONDS": "2=0.5",
        "ARCHIPELAGO_AI_BUDGET_SCALE": "2",
        "ARCHIPELAGO_AI_MAX_ITERATIONS": "7",
    }
    assert budget_for(2, env) == Budget(seconds=1.0, iterations=7)
    with pytest.raises(ValueError):
        budget_for(6, {})
