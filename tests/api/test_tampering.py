"""Tampering seen by the service (P5 D.15): a byte changed in Redis under a running service.

Every load checks the hash chain of what it reads; a cached fold is used only while the
stored newest event is still the one it was folded to; verification reads the store, never
the cache; a game whose chain breaks takes no command and its view says where it broke.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from rq.job import Job
from werkzeug.test import TestResponse

from replays import archive
from service.api.context import game_service
from service.api.stream import follow
from service.games import GameService
from service.loading import RECHECK_SECONDS
from service.queues import SCORING_AWAITING, scoring_job_id
from service.store import EventStore, stream_key
from tests.api.helpers import bearer, create_game, legal_commands, parse_sse, play, post
from tests.api.test_replays import export, played, service_of
from tests.replays.play import play_on, rewrite_stored_event

A, B = 0, 1
PROBLEM_JSON = "application/problem+json"


def warm(client: FlaskClient, game: dict[str, object]) -> int:
    """GET the game (so its fold sits in the service's cache); its version."""
    answer = client.get(f"/games/{game['game_id']}")
    assert answer.status_code == 200 and answer.json.get("chain_broken") is None
    version: int = answer.json["version"]
    return version


def a_command(client: FlaskClient, game: dict[str, object], seat: int) -> dict[str, object]:
    commands = legal_commands(client, game, seat)["commands"]
    return commands[0] if commands else {"type": "DrawCard", "source": "stack"}


def assert_chain_broken(answer: TestResponse, version: int) -> None:
    assert answer.status_code == 409 and answer.mimetype == PROBLEM_JSON
    body = answer.json
    assert (body["code"], body["version"]) == ("chain_broken", version)
    assert f"event {version}" in body["detail"]


def test_a_changed_newest_event_is_seen_through_the_fold_cache(
    app: Flask, client: FlaskClient, redis_client: redis.Redis
) -> None:
    game = played(app, client, seed=11, until_version=25)
    newest = warm(client, game)
    commands = {seat: a_command(client, game, seat) for seat in (A, B)}

    rewrite_stored_event(redis_client, game["game_id"], newest)

    shown = client.get(f"/games/{game['game_id']}")
    assert shown.status_code == 200 and shown.json["chain_broken"] == {"version": newest}
    for seat in (A, B):
        assert_chain_broken(post(client, game, seat, commands[seat]), newest)
    assert legal_commands(client, game, A)["commands"] == []
    verified = client.get(f"/games/{game['game_id']}/verify")
    assert verified.status_code == 200
    assert (verified.json["ok"], verified.json["first_bad_version"]) == (False, newest)
    assert verified.json["version"] == newest
    feed = client.get(f"/games/{game['game_id']}/events")
    assert feed.status_code == 200 and len(feed.json["events"]) == newest
    result = archive.verify(export(client, game["game_id"]))
    assert (result.ok, result.first_bad) == (False, newest)


def test_a_client_holding_the_version_still_learns_of_the_break(
    app: Flask, client: FlaskClient, redis_client: redis.Redis
) -> None:
    game = played(app, client, seed=24, until_version=15)
    etag = client.get(f"/games/{game['game_id']}").headers["ETag"]

    rewrite_stored_event(redis_client, game["game_id"], 15)

    answer = client.get(f"/games/{game['game_id']}", headers={"If-None-Match": etag})
    assert answer.status_code == 200 and answer.json["chain_broken"] == {"version": 15}


def test_a_changed_older_event_is_found_by_verify_from_the_store(
    app: Flask, client: FlaskClient, redis_client: redis.Redis
) -> None:
    game = played(app, client, seed=12, until_version=25)
    newest = warm(client, game)
    command = a_command(client, game, A)

    rewrite_stored_event(redis_client, game["game_id"], 7)

    verified = client.get(f"/games/{game['game_id']}/verify", headers=bearer(game["tokens"][B]))
    assert verified.status_code == 200
    assert verified.json == {
        "game_id": game["game_id"],
        "ok": False,
        "first_bad_version": 7,
        "version": newest,
        "archived": False,
        "chain_truncated": None,
        "referee": None,  # a broken chain vouches for nothing to referee
    }
    assert client.get(f"/games/{game['game_id']}").json["chain_broken"] == {"version": 7}
    assert_chain_broken(post(client, game, A, command), 7)
    result = archive.verify(export(client, game["game_id"]))
    assert (result.ok, result.first_bad) == (False, 7)


def test_the_export_reads_the_store_not_the_cache(
    app: Flask, client: FlaskClient, redis_client: redis.Redis
) -> None:
    game = played(app, client, seed=13, until_version=25)
    warm(client, game)

    rewrite_stored_event(redis_client, game["game_id"], 9)

    result = archive.verify(export(client, game["game_id"]))
    assert (result.ok, result.first_bad) == (False, 9)
    assert client.get(f"/games/{game['game_id']}").json["chain_broken"] == {"version": 9}


def test_a_restarted_service_checks_the_whole_chain_it_reads(
    app: Flask, client: FlaskClient, redis_client: redis.Redis
) -> None:
    game = played(app, client, seed=14, until_version=25)
    rewrite_stored_event(redis_client, game["game_id"], 5)
    fresh = GameService(EventStore(redis_client), redis_client)

    loaded = fresh.load(game["game_id"])

    assert loaded.broken == 5 and loaded.version >= 25
    assert fresh.load(game["game_id"], upto=4).broken is None


def test_a_tail_read_after_the_cached_fold_is_checked(
    app: Flask, client: FlaskClient, redis_client: redis.Redis
) -> None:
    game = played(app, client, seed=15, until_version=20)
    cached = service_of(app)
    before = cached.load(game["game_id"]).version
    other = GameService(EventStore(redis_client), redis_client)  # another web worker
    play_on(other, game["game_id"], random.Random(15), until_version=before + 6)

    rewrite_stored_event(redis_client, game["game_id"], before + 2)

    assert cached.load(game["game_id"]).broken == before + 2


def test_a_cached_fold_is_checked_against_the_whole_store_once_it_is_old(
    app: Flask, client: FlaskClient, redis_client: redis.Redis
) -> None:
    game = played(app, client, seed=22, until_version=20)
    now = [1000.0]
    service = GameService(EventStore(redis_client), redis_client, clock=lambda: now[0])
    assert service.load(game["game_id"]).broken is None

    rewrite_stored_event(redis_client, game["game_id"], 6)
    now[0] += RECHECK_SECONDS

    assert service.load(game["game_id"]).broken == 6


def test_a_game_whose_first_event_is_gone_is_broken_at_version_1(
    app: Flask, client: FlaskClient, redis_client: redis.Redis
) -> None:
    game = played(app, client, seed=23, until_version=10)
    redis_client.xdel(stream_key(game["game_id"]), "0-1")

    assert client.get(f"/games/{game['game_id']}/verify").json["first_bad_version"] == 1
    assert_chain_broken(client.get(f"/games/{game['game_id']}"), 1)


@pytest.mark.parametrize("changed", [1, 4])
def test_the_scoring_sweeper_leaves_a_changed_game_waiting(
    app: Flask,
    client: FlaskClient,
    run_worker: Callable[[], None],
    redis_client: redis.Redis,
    changed: int,
) -> None:
    game = create_game(client)
    waiting = play(client, game, random.Random(5), run_worker, until=lambda v: v["phase"] == "scoring")
    Job.fetch(scoring_job_id(game["game_id"], waiting["version"]), connection=redis_client).delete()

    rewrite_stored_event(redis_client, game["game_id"], changed)

    with app.app_context():
        sweeper = game_service()
        sweeper.forget(game["game_id"])  # the worker's sweeper has no fold of this game cached
        assert sweeper.scoring.sweep(sweeper) == 0
    assert redis_client.sismember(SCORING_AWAITING, game["game_id"])


def test_an_intact_game_verifies_from_the_store(app: Flask, client: FlaskClient) -> None:
    game = played(app, client, seed=16, until_version=15)
    newest = warm(client, game)

    verified = client.get(f"/games/{game['game_id']}/verify")

    assert verified.status_code == 200
    body = dict(verified.json)
    deal = body.pop("deal")
    referee = body.pop("referee")
    assert body == {
        "game_id": game["game_id"],
        "ok": True,
        "first_bad_version": None,
        "version": newest,
        "archived": False,
        "chain_truncated": None,
    }
    assert deal["status"] == "committed"  # the seed is revealed when the game ends
    assert referee["status"] == "refereed" and referee["checked"] == referee["commands"] > 0


def test_verifying_a_missing_game_is_404(client: FlaskClient) -> None:
    answer = client.get("/games/no-such-game/verify")

    assert (answer.status_code, answer.mimetype, answer.json["code"]) == (404, PROBLEM_JSON, "game_not_found")


def test_an_archived_game_is_checked_the_same_way(
    app: Flask, client: FlaskClient, redis_client: redis.Redis
) -> None:
    game = played(app, client, seed=17)
    imported = client.post(
        "/games/import", data=export(client, game["game_id"]), content_type=archive.MEDIA_TYPE
    ).json["game_id"]
    assert client.get(f"/games/{imported}").json["chain_broken"] is None

    rewrite_stored_event(redis_client, imported, 12)

    verified = client.get(f"/games/{imported}/verify").json
    assert (verified["ok"], verified["first_bad_version"], verified["archived"]) == (False, 12, True)
    assert client.get(f"/games/{imported}").json["chain_broken"] == {"version": 12}
    result = archive.verify(export(client, imported))
    assert (result.ok, result.first_bad) == (False, 12)


def test_a_view_of_a_version_past_the_break_is_refused(
    app: Flask, client: FlaskClient, redis_client: redis.Redis
) -> None:
    """A past version is shown from the game as loaded, its chain checked: a change in Redis is
    refused there as soon as a load notices it (`verify` here, else the next whole read within
    RECHECK_SECONDS), as in the game's own view; the versions before the break still show."""
    game = create_game(client)
    play_on(service_of(app), game["game_id"], random.Random(18), until_version=20)
    shown = client.get(f"/games/{game['game_id']}?at=12").json
    rewrite_stored_event(redis_client, game["game_id"], 10)

    assert client.get(f"/games/{game['game_id']}?at=12").json == shown, "the checked events, not the changed"
    assert client.get(f"/games/{game['game_id']}/verify").json["first_bad_version"] == 10
    assert client.get(f"/games/{game['game_id']}?at=9").status_code == 200
    assert_chain_broken(client.get(f"/games/{game['game_id']}?at=12"), 10)


def test_a_changed_first_event_leaves_only_verify(
    app: Flask, client: FlaskClient, redis_client: redis.Redis
) -> None:
    game = played(app, client, seed=19, until_version=10)
    warm(client, game)

    rewrite_stored_event(redis_client, game["game_id"], 1)

    assert client.get(f"/games/{game['game_id']}/verify").json["first_bad_version"] == 1
    for path in ("", "/events", "/export", "/replay"):
        assert_chain_broken(client.get(f"/games/{game['game_id']}{path}"), 1)


def test_an_unreadable_stored_event_is_a_broken_chain_not_a_500(
    app: Flask, client: FlaskClient, redis_client: redis.Redis
) -> None:
    game = played(app, client, seed=20, until_version=12)
    warm(client, game)
    command = a_command(client, game, A)

    rewrite_stored_event(redis_client, game["game_id"], 5, data=b'{"seat":')

    verified = client.get(f"/games/{game['game_id']}/verify").json
    assert (verified["ok"], verified["first_bad_version"]) == (False, 5)
    assert_chain_broken(client.get(f"/games/{game['game_id']}"), 5)
    assert_chain_broken(post(client, game, A, command), 5)


@pytest.mark.parametrize("data", [None, b'{"seat":'], ids=["changed", "unreadable"])
def test_the_live_stream_ends_at_an_event_that_does_not_chain(
    app: Flask, client: FlaskClient, redis_client: redis.Redis, data: bytes | None
) -> None:
    game = played(app, client, seed=21, until_version=10)
    watched = service_of(app).load(game["game_id"])
    frames = follow(service_of(app).loader, watched, None, watched.version, 2.0, 0.05)
    other = GameService(EventStore(redis_client), redis_client)  # another web worker
    play_on(other, game["game_id"], random.Random(21), until_version=watched.version + 1)
    rewrite_stored_event(redis_client, game["game_id"], watched.version + 1, data)

    started = time.monotonic()
    sent = [frame for frame in frames if not frame.startswith(":")]

    assert sent == [] and time.monotonic() - started < 1.0
    replayed = client.get(f"/games/{game['game_id']}/stream")
    if data is None:  # the stored events are the evidence: a reconnect gets them, then the end
        assert replayed.status_code == 200
        assert len(parse_sse(replayed.get_data(as_text=True))) == other.store.version(game["game_id"])
    else:
        assert_chain_broken(replayed, watched.version + 1)


def test_the_openapi_document_has_verify_and_the_view_marks_a_broken_chain(client: FlaskClient) -> None:
    spec = client.get("/openapi.json").json

    assert "get" in spec["paths"]["/games/{game_id}/verify"]
    verify = spec["components"]["schemas"]["Verify"]["properties"]
    assert {"ok", "first_bad_version", "version", "archived", "game_id"} <= set(verify)
    assert "chain_broken" in spec["components"]["schemas"]["KahunaView"]["properties"]
