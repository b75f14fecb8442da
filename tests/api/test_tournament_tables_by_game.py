"""Tournaments of the hex games over HTTP: a Swiss at tables of two and placement tournaments
at tables of three and four, with computer entrants and a person."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.api.tournament_helpers import create_tournament, organize, register
from tests.api.tournament_play import play_tournament

PARADISE = {"game": "conquest-of-paradise", "options": {"last_turn": 2}}


@pytest.fixture(autouse=True)
def tiny_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """One search iteration per computer move: the test is about the tournament, not play."""
    monkeypatch.setenv("ARCHIPELAGO_AI_MAX_ITERATIONS", "1")
    monkeypatch.setenv("ARCHIPELAGO_AI_SECONDS", "1=60,2=60,3=60,4=60,5=60")


@pytest.mark.parametrize(
    ("settings", "fmt", "entrants", "sizes"),
    [
        ({"game": "nanuuk"}, "swiss", 4, {2}),
        ({"game": "nanuuk"}, "tables", 7, {3, 4}),
        ({"game": "nanuuk-learning"}, "tables", 4, {4}),
        (PARADISE, "swiss", 4, {2}),
        (PARADISE, "tables", 7, {3, 4}),
    ],
    ids=["nanuuk-swiss", "nanuuk-tables", "nanuuk-learning-tables", "paradise-swiss", "paradise-tables"],
)
def test_a_tournament_runs_to_its_end_with_tables_of_its_size(
    client: FlaskClient,
    run_jobs: Callable[[], None],
    settings: dict[str, Any],
    fmt: str,
    entrants: int,
    sizes: set[int],
) -> None:
    tournament = create_tournament(client, name="Island Cup", format=fmt, rounds=2, **settings)
    for n in range(entrants - 1):
        register(client, tournament, kind="ai", level=1 + n % 3)
    ann = register(client, tournament, name="Ann")
    organize(client, tournament, {"type": "StartTournament"})

    final = play_tournament(client, tournament, {ann["entrant"]: ann["token"]}, random.Random(3), run_jobs)

    assert final["phase"] == "closed" and final["completed"] == 2
    assert {len(t["seats"]) for t in final["tables"]} == sizes
    assert all(t["result"]["how"] == "played" for t in final["tables"])
    assert sorted(line["games"] for line in final["standings"]) == [2] * entrants
    # Each result carries its game's end as the game wrote it: the document must allow it.
    events = client.get(f"/tournaments/{tournament['tournament_id']}/events")
    assert events.status_code == 200
    assert any(e["type"] == "ResultRecorded" for e in events.get_json()["events"])
