"""The whole of a tournament through the API: a 6-entrant Swiss of Arabana-Ikibiti, five
computer entrants and one person who plays random legal commands over HTTP, from the
registrations to the close; then its audit, its bundle offline and the ratings."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from flask.testing import FlaskClient

from replays.bundle import verify_bundle
from tests.api.tournament_helpers import create_tournament, me, organize, register
from tests.api.tournament_play import play_tournament


@pytest.fixture(
    params=[("redis", 3), ("cluster", 1), pytest.param(("cluster", 3), marks=pytest.mark.long)],
    ids=["redis", "cluster-1-round", "cluster"],
)
def played_on(request: pytest.FixtureRequest) -> tuple[str, int]:
    """Three rounds on one Redis; on the cluster one round in make test, three in make test-long."""
    backend, rounds = request.param
    return str(backend), int(rounds)


@pytest.fixture
def store_backend(played_on: tuple[str, int]) -> str:
    return played_on[0]


@pytest.fixture(autouse=True)
def tiny_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """One search iteration per computer move: the test is about the tournament, not play."""
    monkeypatch.setenv("ARCHIPELAGO_AI_MAX_ITERATIONS", "1")
    monkeypatch.setenv("ARCHIPELAGO_AI_SECONDS", "1=60,2=60,3=60,4=60,5=60")


def test_a_six_entrant_swiss_of_arabana_ikibiti_with_ai_entrants_runs_to_its_end_over_http(
    client: FlaskClient, run_jobs: Callable[[], None], played_on: tuple[str, int]
) -> None:
    _, rounds = played_on
    tournament = create_tournament(client, name="Ikibiti Open", game="arabana-ikibiti", rounds=rounds)
    tid = tournament["tournament_id"]
    for level in (1, 2, 3, 1, 2):
        register(client, tournament, kind="ai", level=level)
    ann = register(client, tournament, name="Ann")
    organize(client, tournament, {"type": "StartTournament"})

    final = play_tournament(client, tournament, {ann["entrant"]: ann["token"]}, random.Random(7), run_jobs)

    assert final["phase"] == "closed" and final["completed"] == rounds
    last = me(client, tournament, ann["token"])["game"]
    assert (last["round"], last["finished"], last["forfeited_seat"]) == (rounds, True, None)
    assert len(final["tables"]) == 3 * rounds and all(t["result"]["how"] == "played" for t in final["tables"])
    assert sorted(line["games"] for line in final["standings"]) == [rounds] * 6
    met = {frozenset(t["seats"]) for t in final["tables"]}
    assert len(met) == 3 * rounds, "no rematch"
    report = client.get(f"/tournaments/{tid}/audit").json
    assert (report["ok"], report["streams"], report["broken"]) == (True, 1 + 3 * rounds, None)
    assert verify_bundle(client.get(f"/tournaments/{tid}/export").data).ok
    rated = {p["name"]: p["games"] for p in client.get("/ratings/arabana-ikibiti").json["players"]}
    names = {e["id"]: e["name"] for e in final["entrants"]}
    seated_with_ann = [names[s] for t in final["tables"] if ann["entrant"] in t["seats"] for s in t["seats"]]
    # Games of computer entrants alone are not rated; each computer entrant is its own player.
    assert rated == {name: (rounds if name == "Ann" else 1) for name in seated_with_ann}
