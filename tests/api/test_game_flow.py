"""A whole Kahuna game through HTTP only, with rounds scored by a real RQ worker."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
import redis
from flask.testing import FlaskClient
from redis.cluster import RedisCluster

from service import jobs
from service.queues import QUEUE_DEFAULT, queue
from service.store import EventStore
from tests.api.helpers import create_game, events, legal_commands, play, post, view
from tests.backends import store_backend  # noqa: F401  (every test here on one Redis and on a cluster)


def test_a_full_game_ends_with_three_scorings_and_the_result_of_the_scores(
    client: FlaskClient, run_worker: Callable[[], None]
) -> None:
    game = create_game(client)

    final = play(client, game, random.Random(7), run_worker)

    log = events(client, game)["events"]
    types = [e["type"] for e in log]
    assert types.count("RoundScored") == 3
    assert types[-1] == "GameEnded"
    totals = log[-1]["data"]["totals"]
    assert totals == [s["score"] for s in final["seats"]]
    assert final["result"] == log[-1]["data"]
    best = max(totals)
    expected_winner = totals.index(best) if totals.count(best) == 1 else None
    assert final["result"]["winner"] == expected_winner
    assert final["version"] == len(log)


def test_commands_after_the_end_are_refused(client: FlaskClient, run_worker: Callable[[], None]) -> None:
    game = create_game(client)
    play(client, game, random.Random(3), run_worker)

    answer = post(client, game, 0, {"type": "DrawCard", "source": "stack"})

    assert answer.status_code == 409
    assert answer.json["code"] == "game_ended"
    assert legal_commands(client, game, 0)["commands"] == []


def test_play_waits_for_the_scoring_job_which_appends_once(
    client: FlaskClient,
    run_worker: Callable[[], None],
    redis_client: redis.Redis,
    events_client: redis.Redis | RedisCluster,
) -> None:
    game = create_game(client)
    game_id = game["game_id"]
    scoring = play(client, game, random.Random(11), run_worker, until=_scoring)
    seat = scoring["active"]

    waiting = post(client, game, seat, {"type": "DrawCard", "source": "stack"})
    assert (waiting.status_code, waiting.json["code"]) == (409, "waiting_for_scoring")
    # The service enqueued the job; enqueue it twice more by hand.
    for _ in range(2):
        queue(QUEUE_DEFAULT, redis_client).enqueue(jobs.score_round, game_id, 1)
    run_worker()

    store = EventStore(events_client)
    scored = store.read(game_id)
    assert [e.type for e in scored].count("RoundScored") == 1
    assert view(client, game)["phase"] == "play"
    assert jobs.score_round(game_id, 1) is False
    run_worker()
    assert store.version(game_id) == len(scored)


def _scoring(current: dict) -> bool:
    return bool(current["phase"] == "scoring")


@pytest.mark.parametrize(
    ("game_name", "options", "seats"),
    [
        ("kahuna", {"edition": "thames-kosmos"}, 2),
        ("arabana-ikibiti", {}, 2),
        ("arabana-ikibiti", {"seafarers": True}, 2),
        ("arabana-opodopo", {}, 3),
        ("arabana-opodopo", {"gods": True}, 4),
    ],
)
def test_every_game_plays_to_its_end_with_the_legal_commands_as_posted_bodies(
    client: FlaskClient,
    run_worker: Callable[[], None],
    game_name: str,
    options: dict,
    seats: int,
) -> None:
    game = create_game(client, seats, game=game_name, options=options)
    final = play(client, game, random.Random(1), run_worker)
    assert final["result"] is not None
    assert events(client, game)["events"][-1]["type"] == "GameEnded"


def test_seeded_dice_deal_the_same_game_and_the_os_dice_do_not() -> None:
    from service.chance import Dice, dice_from

    seeded = [dice_from({"ARCHIPELAGO_DICE_SEED": "7"}) for _ in range(2)]
    series = [[dice.fresh_seed() for _ in range(3)] for dice in seeded]
    assert series[0] == series[1] and len(set(series[0])) == 3
    assert Dice().fresh_seed() != Dice().fresh_seed()  # 1 in 2**256 to fail by chance
