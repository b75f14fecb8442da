"""A long search cut into slices (P5 B.9): the budget is spent exactly once, the statistics add up."""

from __future__ import annotations

import random

import pytest

from ai.ismcts import Budget, Searched, search
from ai.policies import commands
from ai.sim import key
from ai.slices import Tally, best, next_budget, record
from ai.table import Table
from domain.decider import Command


def _cmd(card: str) -> Command:
    return Command("PlaceBridge", 0, {"card": card})


def _searched(visits: dict[str, float], chances: dict[str, float], iterations: int) -> Searched:
    first = max(visits, key=lambda k: visits[k])
    return Searched(
        _cmd(first),
        {key(_cmd(c)): v for c, v in chances.items()},
        {key(_cmd(c)): v for c, v in visits.items()},
        iterations,
        0.5,
    )


def test_a_five_second_budget_is_five_slices_of_one_second() -> None:
    tally, budgets = Tally(), []
    while (budget := next_budget(Budget(seconds=5.0), tally, 1.0)) is not None:
        budgets.append(budget.seconds)
        tally = record(tally, _searched({"A": 2, "B": 1}, {"A": 0.5, "B": 0.4}, 10), budget)
    assert budgets == [1.0] * 5
    assert tally.slices == 5 and tally.iterations == 50


def test_the_last_slice_gets_what_is_left_and_short_budgets_are_one_slice() -> None:
    tally = record(Tally(), _searched({"A": 1}, {"A": 0.5}, 1), Budget(seconds=1.0))
    tally = record(tally, _searched({"A": 1}, {"A": 0.5}, 1), Budget(seconds=1.0))
    assert next_budget(Budget(seconds=2.5), tally, 1.0) == Budget(seconds=0.5)
    assert next_budget(Budget(seconds=0.3), Tally(), 1.0) == Budget(seconds=0.3)


def test_an_iteration_cap_holds_for_the_whole_move_not_each_slice() -> None:
    budget = Budget(seconds=60.0, iterations=4)
    first = next_budget(budget, Tally(), 1.0)
    assert first == Budget(seconds=1.0, iterations=4)
    tally = record(Tally(), _searched({"A": 3, "B": 4}, {"A": 0.5, "B": 0.4}, 4), first)
    assert next_budget(budget, tally, 1.0) is None


def test_the_move_is_the_command_most_visited_over_all_slices() -> None:
    one = _searched({"A": 10, "B": 6}, {"A": 0.5, "B": 0.6}, 16)
    two = _searched({"A": 2, "B": 9}, {"A": 0.4, "B": 0.6}, 11)
    tally = record(record(Tally(), one, Budget(seconds=1.0)), two, Budget(seconds=1.0))
    assert tally.visits == {key(_cmd("A")): 12, key(_cmd("B")): 15}
    assert tally.totals[key(_cmd("A"))] == pytest.approx(10 * 0.5 + 2 * 0.4)
    assert best(tally, [_cmd("A"), _cmd("B")]) == _cmd("B")


def test_a_tally_survives_json_between_jobs() -> None:
    tally = record(Tally(), _searched({"A": 2, "B": 1}, {"A": 0.5, "B": 0.4}, 3), Budget(seconds=1.0))
    assert Tally.from_json(tally.to_json()) == tally


def test_one_slice_chooses_what_the_unsliced_search_chooses(kahuna_knowledge: tuple) -> None:
    knowledge, legal = kahuna_knowledge
    budget = Budget(iterations=30)
    whole = search(knowledge, legal, random.Random(5), budget)
    sliced = record(Tally(), search(knowledge, legal, random.Random(5), budget), budget)
    assert best(sliced, legal) == whole.command


@pytest.fixture
def kahuna_knowledge() -> tuple:
    """The knowledge of the seat to move at the start of a Kahuna game, and its legal commands."""
    setup = {"game": "kahuna", "seats": [{"name": "A"}, {"name": "B"}], "first_seat": 0}
    table = Table(setup, random.Random(1))
    seat = table.mover()
    return table.knowledge(seat), commands(seat, table.legal(seat))
