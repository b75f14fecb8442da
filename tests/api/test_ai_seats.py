"""Computer seats over HTTP: created without a token, played by `ai_move` jobs on the "ai" queue,
reviewed by the analysis job once a casual game ends."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from rq.job import Job

from ai.policies import greedy_ranked
from ai.sim import key
from service import analysis, computer_seats, jobs, queues
from service.api.context import game_service
from service.store import EventStore
from tests.api.helpers import bearer, legal_commands, post, view


@pytest.fixture(autouse=True)
def tiny_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Searches of a few iterations: these tests check behaviour, not strength.

    The iteration cap, never the clock, ends every search, so a loaded machine plays
    (and reviews) the same moves as an idle one.
    """
    monkeypatch.setenv("ARCHIPELAGO_AI_MAX_ITERATIONS", "4")
    monkeypatch.setenv("ARCHIPELAGO_AI_SECONDS", "1=60,2=60,3=60,4=60,5=60")
    monkeypatch.setenv("ARCHIPELAGO_ANALYSIS_SECONDS", "60")


def _create(client: FlaskClient, seats: list[dict], **setup: object) -> dict:
    response = client.post("/games", json={"game": "kahuna", "seats": seats, "first_seat": 0, **setup})
    assert response.status_code == 201, response.json
    game = dict(response.json)
    game["tokens"] = [s.get("token") for s in game["seats"]]
    return game


def _versions(redis_client: redis.Redis, game: dict) -> int:
    return EventStore(redis_client).version(game["game_id"])


def _worst(app: Flask, game_id: str, commands: list[dict]) -> dict:
    """The command the evaluation likes least: the human player blunders now and then."""
    with app.app_context():
        knowledge = computer_seats.knowledge_for(game_service().load(game_id), 0)
    return greedy_ranked(knowledge, commands, random.Random(1))[-1][1].to_json()


def test_a_human_plays_a_kahuna_game_against_ismcts_to_the_end(
    app: Flask, client: FlaskClient, run_jobs: Callable[[], None], redis_client: redis.Redis
) -> None:
    game = _create(client, [{"name": "Ann"}, {"name": "Bot", "ai": "ismcts", "level": 1}])
    assert game["seats"][1] == {"seat": 1, "name": "Bot", "ai": "ismcts", "level": 1}
    assert game["tokens"][0] and game["tokens"][1] is None
    human, bot = view(client, game, 0)["seats"]
    assert (bot["ai"], bot["level"]) == ("ismcts", 1) and "ai" not in human
    rng = random.Random(11)
    for _ in range(400):
        run_jobs()
        current = view(client, game, 0)
        if current["phase"] == "ended":
            break
        commands = legal_commands(client, game, 0)["commands"]
        assert commands, f"the game waits for nobody: {current['phase']}, active {current['active']}"
        command = rng.choice(commands) if rng.random() < 0.5 else _worst(app, game["game_id"], commands)
        answer = post(client, game, 0, command, **{"If-Match": f'"{current["version"]}"'})
        assert answer.status_code == 200, answer.json
    else:
        raise AssertionError("the game did not end")
    actors = [e.actor for e in EventStore(redis_client).read(game["game_id"])]
    assert "seat:1" in actors, "the computer seat played"
    run_jobs()  # the analysis
    notes = client.get(f"/games/{game['game_id']}/annotations?layer=analysis").json["annotations"]
    comments = [n for n in notes if n["kind"] == "comment"]
    marks = [n for n in notes if n["kind"] == "mark"]
    assert comments and all(n["author_kind"] == "analysis" for n in notes)
    assert "win chance" in comments[0]["text"]
    # Whether this game earns marks depends on the search; the marking itself is pinned below.
    assert all(m["mark"] in ("?", "??") and "preferred" in m["text"] for m in marks)
    assert {m["version"] for m in marks} <= {c["version"] for c in comments}


@pytest.mark.parametrize(
    "game,players,options",
    [
        ("kahuna", ["greedy", "random"], {}),
        ("arabana-ikibiti", ["random", "greedy"], {"seafarers": True}),
        ("arabana-opodopo", ["greedy", "random", "ismcts", "greedy"], {"gods": True}),
    ],
)
def test_a_game_of_computers_plays_to_the_end_on_the_worker_alone(
    client: FlaskClient, run_jobs: Callable[[], None], game: str, players: list[str], options: dict
) -> None:
    seats = [{"name": f"{kind} {n}", "ai": kind, "level": 1} for n, kind in enumerate(players)]
    created = _create(client, seats, game=game, options=options)
    for _ in range(20):
        run_jobs()
        if view(client, created)["phase"] == "ended":
            break
    assert view(client, created)["phase"] == "ended"


def test_a_stale_or_repeated_job_appends_nothing(
    app: Flask, client: FlaskClient, redis_client: redis.Redis
) -> None:
    game = _create(client, [{"name": "Bot", "ai": "greedy"}, {"name": "Ann"}])
    game_id = game["game_id"]
    version = _versions(redis_client, game)
    assert Job.fetch(queues.move_job_id(game_id, 0, version), connection=redis_client)
    with app.app_context():
        assert game_service().ai.schedule(game_service().load(game_id)) == [], "a duplicate is refused"

    assert jobs.ai_move(game_id, 0, version - 1) == "stale"
    assert _versions(redis_client, game) == version
    assert jobs.ai_move(game_id, 1, version) == "not_an_ai_seat"
    assert jobs.ai_move(game_id, 0, version) == "played"
    after = _versions(redis_client, game)
    assert after > version
    assert jobs.ai_move(game_id, 0, version) == "stale", "a re-run finds the game moved on"
    assert _versions(redis_client, game) == after


def test_a_computer_seat_has_no_token_to_play_with(client: FlaskClient) -> None:
    game = _create(client, [{"name": "Ann"}, {"name": "Bot", "ai": "random"}])
    assert game["seats"][1]["level"] == 2, "the default level"
    assert "token" not in game["seats"][1]
    answer = client.get(f"/games/{game['game_id']}/legal", headers=bearer("not-a-token"))
    assert answer.status_code == 401


@pytest.mark.parametrize(
    "seat,field",
    [
        ({"name": "Bot", "ai": "genius"}, "ai"),
        ({"name": "Bot", "ai": "ismcts", "level": 6}, "level"),
        ({"name": "Bot", "ai": "ismcts", "level": "3"}, "level"),
        ({"name": "Bot", "level": 3}, "level"),
    ],
)
def test_a_bad_computer_seat_is_refused_naming_the_field(client: FlaskClient, seat: dict, field: str) -> None:
    response = client.post("/games", json={"game": "kahuna", "seats": [{"name": "Ann"}, seat]})
    assert response.status_code == 422, response.json
    assert field in str(response.json["errors"]["seats"]["1"])


def test_a_computer_seat_accepts_a_takeback_of_none_of_its_commands(
    app: Flask, client: FlaskClient, run_jobs: Callable[[], None], redis_client: redis.Redis
) -> None:
    game = _create(
        client, [{"name": "Ann"}, {"name": "Cai"}, {"name": "Bot", "ai": "greedy"}], game="arabana-opodopo"
    )
    for seat in (0, 1):  # O-2: the humans choose their face-up cards; the computer too
        choice = legal_commands(client, game, seat)["commands"][0]
        assert post(client, game, seat, choice).status_code == 200
    run_jobs()
    assert view(client, game)["phase"] == "play"
    place = next(c for c in legal_commands(client, game, 0)["commands"] if c["type"] == "PlaceBridge")
    before = view(client, game)["version"]
    assert post(client, game, 0, place).status_code == 200
    asked = client.post(
        f"/games/{game['game_id']}/takebacks", json={"to_version": before}, headers=bearer(game["tokens"][0])
    )
    assert asked.status_code == 201, asked.json
    assert post(client, game, 1, {"type": "AnswerTakeback", "accept": True}).status_code == 200
    run_jobs()
    types = [e.type for e in EventStore(redis_client).read(game["game_id"])]
    assert types[-2:] == ["TakebackAnswered", "Undone"]
    assert view(client, game)["version"] == len(types)


def test_practice_against_the_computer_takes_back_ones_move_across_reveals_and_says_so(
    client: FlaskClient, run_jobs: Callable[[], None], redis_client: redis.Redis
) -> None:
    game = _create(client, [{"name": "Ann"}, {"name": "Bot", "ai": "greedy"}])
    before = view(client, game, 0)
    assert before["undo"] == {"takeback_across_reveal": True}
    place = next(c for c in legal_commands(client, game, 0)["commands"] if c["type"] == "PlaceBridge")
    assert post(client, game, 0, place).status_code == 200
    draw = next(c for c in legal_commands(client, game, 0)["commands"] if c.get("source") == "face_up")
    assert post(client, game, 0, draw).status_code == 200  # the face-up row is refilled: a reveal
    run_jobs()  # the computer replies
    assert view(client, game)["active"] == 0

    asked = client.post(
        f"/games/{game['game_id']}/takebacks",
        json={"to_version": before["version"]},
        headers=bearer(game["tokens"][0]),
    )
    assert asked.status_code == 201, asked.json
    run_jobs()  # the computer accepts, though its reply is taken back too
    types = [e.type for e in EventStore(redis_client).read(game["game_id"])]
    assert types[-2:] == ["TakebackAnswered", "Undone"]
    assert view(client, game, 0)["hand"] == before["hand"]


def _computers_play_kahuna_to_the_end(client: FlaskClient, run_jobs: Callable[[], None]) -> dict:
    seats = [{"name": "G", "ai": "greedy", "level": 1}, {"name": "R", "ai": "random", "level": 1}]
    game = _create(client, seats)
    for _ in range(40):
        run_jobs()
        if view(client, game)["phase"] == "ended":
            return game
    raise AssertionError("the computers did not finish the game")


def test_the_analysis_runs_in_short_slices_that_cover_every_decision_once(
    client: FlaskClient, run_jobs: Callable[[], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    # One decision a job: a round's scoring on the same worker never waits behind a review.
    monkeypatch.setattr(analysis, "ANALYSIS_SLICE_SECONDS", 0.0)
    game = _computers_play_kahuna_to_the_end(client, run_jobs)
    run_jobs()
    notes = client.get(f"/games/{game['game_id']}/annotations?layer=analysis").json["annotations"]
    versions = [n["version"] for n in notes if n["kind"] == "comment"]
    assert len(versions) > 20
    assert len(versions) == len(set(versions)), "a decision was analysed twice"


def test_the_analysis_marks_a_move_that_loses_win_chance_with_the_preferred_move(
    app: Flask, client: FlaskClient, run_jobs: Callable[[], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = _computers_play_kahuna_to_the_end(client, run_jobs)

    class Verdict:
        """A search that rates every move played 0.5 and its own choice 0.9: a 0.4 loss."""

        def __init__(self, legal: list) -> None:
            self.command = legal[0]
            self.best_chance = 0.9
            self.chances = defaultdict(lambda: 0.5, {key(legal[0]): 0.9})

    monkeypatch.setattr(analysis, "search", lambda knowledge, legal, rng, budget: Verdict(legal))
    with app.app_context():
        loaded = game_service().load(game["game_id"])
        notes, rest = analysis.analysis_notes(loaded, analysis.analysis_budget())
    assert rest is None
    marks = [n for n in notes if n["kind"] == "mark"]
    assert marks and all(m["mark"] == "??" and "lost 40%" in m["text"] for m in marks)
    assert all("the AI preferred" in m["text"] for m in marks)
