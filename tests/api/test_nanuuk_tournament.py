"""Nanuuk! tournaments over HTTP: a Swiss at tables of two and a placement tournament at tables
of three and four (P7), computer entrants and a person playing random legal commands."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from flask.testing import FlaskClient

from tests.api.tournament_helpers import create_tournament, organize, register
from tests.api.tournament_play import play_tournament


@pytest.fixture(autouse=True)
def tiny_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """One search iteration per computer move: the test is about the tournament, not play."""
    monkeypatch.setenv("ARCHIPELAGO_AI_MAX_ITERATIONS", "1")
    monkeypatch.setenv("ARCHIPELAGO_AI_SECONDS", "1=60,2=60,3=60,4=60,5=60")


@pytest.mark.parametrize(
    ("game", "fmt", "entrants", "sizes"),
    [("nanuuk", "swiss", 4, {2}), ("nanuuk", "tables", 7, {3, 4}), ("nanuuk-learning", "tables", 4, {4})],
)
def test_a_nanuuk_tournament_runs_to_its_end_with_tables_of_its_size(
    client: FlaskClient, run_jobs: Callable[[], None], game: str, fmt: str, entrants: int, sizes: set[int]
) -> None:
    tournament = create_tournament(client, name="Ice Cup", game=game, format=fmt, rounds=2)
    for n in range(entrants - 1):
        register(client, tournament, kind="ai", level=1 + n % 3)
    ann = register(client, tournament, name="Ann")
    organize(client, tournament, {"type": "StartTournament"})

    final = play_tournament(client, tournament, {ann["entrant"]: ann["token"]}, random.Random(3), run_jobs)

    assert final["phase"] == "closed" and final["completed"] == 2
    assert {len(t["seats"]) for t in final["tables"]} == sizes
    assert all(t["result"]["how"] == "played" for t in final["tables"])
    played = [line["games"] for line in final["standings"]]
    assert sorted(played) == [2] * entrants
