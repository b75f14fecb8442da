"""A store that refuses writes (full memory, full disk, a replica, loading) or loses an answer:
503 with Retry-After, never a 500, nothing written; the service serves again by itself.

Each test runs its own redis-server (the session's is shared with every other test).
"""

from __future__ import annotations

import random
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from rq.job import Job

from service import jobs
from service.api.context import EXTENSION, game_service
from service.app import create_app
from service.chance import SEED_VARIABLE
from service.embedded_redis import EmbeddedRedis, start_redis
from service.queues import QUEUE_DEFAULT, queue
from service.refusals import StoreState, refusal
from service.store import EventStore
from service.sweeper import sweep
from service.wiring import build_service
from service.worker import make_worker
from service.worker_loop import work_until_stopped
from tests.api.contract import ValidatingClient
from tests.api.helpers import choose, create_game, legal_commands, play, post, view

WITHIN = 10.0  # seconds: a generous ceiling for Redis to notice a freed disk


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[EmbeddedRedis]:
    server = start_redis(tmp_path / "redis")
    yield server
    server.stop()


@pytest.fixture
def app_on(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., Flask]]:
    """A factory of apps on a given server; their clients are closed after the test."""
    made: list[Flask] = []

    def make(server: EmbeddedRedis, limits: bool = False) -> Flask:
        monkeypatch.setenv("REDIS_URL", server.url)
        monkeypatch.setenv("RQ_REDIS_URL", server.url)
        monkeypatch.setenv(SEED_VARIABLE, "20261127")
        monkeypatch.delenv("REDIS_CLUSTER_URL", raising=False)
        app = create_app({"REDIS_URL": server.url, "TESTING": True, "RATE_LIMITS_ENABLED": limits})
        app.test_client_class = ValidatingClient
        jobs.serve_with(build_service)
        made.append(app)
        return app

    yield make
    for app in made:
        app.extensions[EXTENSION].redis.close()


@pytest.fixture
def app(own_redis: EmbeddedRedis, app_on: Callable[..., Flask]) -> Flask:
    return app_on(own_redis)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def store(own_redis: EmbeddedRedis) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(own_redis.url)
    yield client
    client.close()


def a_move(client: FlaskClient, game: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """The seat to act and one of its legal commands."""
    seat = view(client, game)["active"]
    return seat, legal_commands(client, game, seat)["commands"][0]


def assert_refused(answer: Any, state: str, code: str = "store_unavailable") -> None:
    assert answer.status_code == 503, answer.json
    assert answer.mimetype == "application/problem+json"
    assert answer.json["code"] == code
    if code == "store_unavailable":
        assert answer.json["store"] == state
    assert int(answer.headers["Retry-After"]) >= 1


def fill_memory(store: redis.Redis) -> None:
    store.config_set("maxmemory", 1)  # below what any server uses: every write refused


def test_full_memory_refuses_commands_with_503_and_serves_again_once_raised(
    client: FlaskClient, store: redis.Redis
) -> None:
    game = create_game(client)
    seat, command = a_move(client, game)
    before = view(client, game)["version"]

    fill_memory(store)
    key = {"Idempotency-Key": "move-1"}
    assert_refused(post(client, game, seat, command, **key), "full")
    assert_refused(
        client.post("/games", json={"game": "kahuna", "seats": [{"name": "A"}, {"name": "B"}]}), "full"
    )
    health = client.get("/health")
    assert (health.status_code, health.json) == (200, {"status": "ok", "store": "full"})
    assert view(client, game)["version"] == before  # reads still served, nothing written

    store.config_set("maxmemory", 0)
    assert client.get("/health").json["store"] == "ok"
    answer = post(client, game, seat, command, **key)
    assert answer.status_code == 200, answer.json
    assert answer.json["duplicate"] is False
    assert view(client, game)["version"] == answer.json["version"] > before


def test_a_full_store_leaves_reads_and_health_served_under_rate_limits(
    own_redis: EmbeddedRedis, store: redis.Redis, app_on: Callable[..., Flask]
) -> None:
    """The limits' counting is a write too: refused, it must not refuse the request with it."""
    client = app_on(own_redis, limits=True).test_client()
    game = create_game(client)
    seat, command = a_move(client, game)
    fill_memory(store)
    assert client.get(f"/games/{game['game_id']}").status_code == 200
    assert client.get("/health").json == {"status": "ok", "store": "full"}
    assert_refused(post(client, game, seat, command), "full")


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MiB tmpfs: a disk that fills at once."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs to fill (needs root): {done.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def wait_for(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WITHIN
    while not condition():
        assert time.monotonic() < deadline, f"not within {WITHIN} s: {what}"
        time.sleep(0.05)


def refuses_writes(store: redis.Redis) -> bool:
    try:
        store.set("filler", "x" * 10_000)
    except redis.exceptions.ResponseError as error:
        assert "MISCONF" in str(error)
        return True
    return False


def test_a_full_disk_refuses_commands_with_503_and_serves_again_once_freed(
    small_disk: Path, app_on: Callable[..., Flask]
) -> None:
    server = start_redis(small_disk / "redis")  # appendfsync everysec, as deploy/redis.conf
    try:
        client = app_on(server).test_client()
        store = redis.Redis.from_url(server.url)
        game = create_game(client)
        seat, command = a_move(client, game)
        before = view(client, game)["version"]
        filler = small_disk / "filler"
        subprocess.run(["dd", "if=/dev/zero", f"of={filler}", "bs=64k", "count=64"], capture_output=True)
        wait_for(lambda: refuses_writes(store), "the AOF write fails")

        key = {"Idempotency-Key": "move-1"}
        assert_refused(post(client, game, seat, command, **key), "full")
        assert client.get("/health").json == {"status": "ok", "store": "full"}
        assert view(client, game)["version"] == before

        filler.unlink()
        wait_for(lambda: client.get("/health").json["store"] == "ok", "Redis writes its AOF again")
        answer = post(client, game, seat, command, **key)
        assert answer.status_code == 200, answer.json
        assert view(client, game)["version"] == answer.json["version"] > before
        store.close()
        server.stop()  # and read back from the AOF: nothing acknowledged was lost
        server = start_redis(small_disk / "redis")
        with redis.Redis.from_url(server.url) as again:
            assert EventStore(again).version(game["game_id"]) == answer.json["version"]
    finally:
        server.stop()


def test_a_full_disk_under_appendfsync_always_stops_redis_and_loses_nothing_acknowledged(
    small_disk: Path, app_on: Callable[..., Flask]
) -> None:
    """Redis 6.2 cannot go on when a write it must fsync fails: it exits. The command under
    way has no answer (outcome_unknown); every acknowledged one is in the AOF."""
    server = start_redis(small_disk / "redis", appendfsync="always")
    try:
        client = app_on(server).test_client()
        game = create_game(client)
        filler = small_disk / "filler"
        subprocess.run(["dd", "if=/dev/zero", f"of={filler}", "bs=64k", "count=64"], capture_output=True)
        rng = random.Random(1)
        acknowledged = view(client, game)["version"]
        for n in range(100):  # the first writes may still fit the AOF's last page
            answer = client.get(f"/games/{game['game_id']}")
            if answer.status_code != 200:
                break  # Redis died writing the listing after it acknowledged the last command
            seat = answer.json["active"]
            command = choose(rng, legal_commands(client, game, seat)["commands"])
            answer = post(client, game, seat, command, **{"Idempotency-Key": f"move-{n}"})
            if answer.status_code != 200:
                break
            acknowledged = answer.json["version"]
        # Redis died under the append (or under the Idempotency-Key's record just before it), or
        # just after it, under the listing's write: then the next read found it gone.
        if answer.json["code"] == "outcome_unknown":
            assert_refused(answer, "", code="outcome_unknown")
        else:
            assert_refused(answer, "unreachable")
        server.process.wait(timeout=WITHIN)  # Redis exited
        assert_refused(client.get("/health"), "unreachable")

        filler.unlink()
        server = start_redis(small_disk / "redis", appendfsync="always")
        with redis.Redis.from_url(server.url) as again:
            assert EventStore(again).version(game["game_id"]) == acknowledged
    finally:
        server.stop()


def aof_rewriting(store: redis.Redis) -> bool:
    persistence = store.info("persistence")
    return bool(persistence["aof_rewrite_in_progress"] or persistence["aof_rewrite_scheduled"])


def test_a_replica_refuses_commands_with_503_until_promoted(
    tmp_path: Path, app_on: Callable[..., Flask]
) -> None:
    primary = start_redis(tmp_path / "primary")
    replica = start_redis(tmp_path / "replica")
    try:
        game = create_game(app_on(primary).test_client())
        store = redis.Redis.from_url(replica.url)
        store.replicaof("127.0.0.1", primary.port)
        wait_for(lambda: store.info("replication").get("master_link_status") == "up", "the replica syncs")
        # Redis ignores a SIGTERM while it writes the AOF it starts after a sync.
        wait_for(lambda: not aof_rewriting(store), "the replica's AOF is written")
        client = app_on(replica).test_client()
        seat, command = a_move(client, game)

        assert_refused(post(client, game, seat, command), "read_only")
        assert client.get("/health").json == {"status": "ok", "store": "read_only"}

        store.replicaof("NO", "ONE")
        answer = post(client, game, seat, command)
        assert answer.status_code == 200, answer.json
        store.close()
    finally:
        replica.stop()
        primary.stop()


def test_a_store_loading_its_data_answers_503(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A real load is over too fast to aim at: the client answers as Redis does while loading."""
    game = create_game(client)
    seat, command = a_move(client, game)

    def loading(*args: object, **kwargs: object) -> None:
        raise redis.exceptions.BusyLoadingError("Redis is loading the dataset in memory")

    with app.app_context():
        monkeypatch.setattr(game_service().redis, "execute_command", loading)
    assert_refused(post(client, game, seat, command), "loading")
    assert_refused(client.get("/health"), "loading")


def test_a_lost_answer_is_outcome_unknown_and_the_retry_is_answered_without_a_second_append(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = create_game(client)
    seat, command = a_move(client, game)
    before = view(client, game)["version"]
    with app.app_context():
        store = game_service().store
    script = store._append  # type: ignore[attr-defined]

    def sent_then_lost(*args: Any, **kwargs: Any) -> Any:
        script(*args, **kwargs)
        raise redis.exceptions.TimeoutError("Timeout reading from socket")

    monkeypatch.setattr(store, "_append", sent_then_lost)
    key = {"Idempotency-Key": "move-1"}
    lost = post(client, game, seat, command, **key)
    assert_refused(lost, "", code="outcome_unknown")
    assert "Idempotency-Key" in lost.json["detail"]
    stored = store.version(game["game_id"])
    assert stored > before  # it ran

    monkeypatch.setattr(store, "_append", script)
    retry = post(client, game, seat, command, **key)
    assert retry.status_code == 200, retry.json
    assert retry.json["duplicate"] is True
    assert retry.json["version"] == stored == store.version(game["game_id"])


def test_a_job_refused_by_a_full_store_leaves_the_worker_working(
    client: FlaskClient, store: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store fills up under a running scoring job: the worker's loop backs off instead of
    quitting, ends the job's execution once it can, and the sweeper has the round scored."""
    game = create_game(client)
    play(client, game, random.Random(3), lambda: None, until=lambda v: v["phase"] == "scoring")
    (job_id,) = queue(QUEUE_DEFAULT, store).job_ids
    append = EventStore.append

    def filling(self: EventStore, *args: Any, **kwargs: Any) -> Any:
        fill_memory(store)
        return append(self, *args, **kwargs)

    monkeypatch.setattr(EventStore, "append", filling)
    pauses: list[float] = []

    def sleep(seconds: float) -> None:
        pauses.append(seconds)
        if len(pauses) == 2:  # freed while the worker waits
            monkeypatch.setattr(EventStore, "append", append)
            store.config_set("maxmemory", 0)

    work_until_stopped(lambda: make_worker(store, simple=True), burst=True, sleep=sleep)
    assert pauses == [1.0, 2.0]
    assert view(client, game)["phase"] == "scoring"
    assert Job.fetch(job_id, connection=store).get_executions() == []  # ended: the sweeper's to run

    service = build_service()
    assert sweep(service) == 1
    service.redis.close()
    work_until_stopped(lambda: make_worker(store, simple=True), burst=True, sleep=sleep)
    assert view(client, game)["phase"] != "scoring"
    assert Job.fetch(job_id, connection=store).get_status() == "finished"


def test_a_sweep_over_a_full_store_does_not_raise(client: FlaskClient, store: redis.Redis) -> None:
    game = create_game(client)
    play(client, game, random.Random(3), lambda: None, until=lambda v: v["phase"] == "scoring")
    store.delete(*store.keys("rq:job:*"))  # the scoring's job lost: the sweep enqueues it again
    fill_memory(store)
    service = build_service()
    assert sweep(service) == 0
    store.config_set("maxmemory", 0)
    assert sweep(service) == 1
    service.redis.close()


def test_refusals_are_named_as_a_script_quotes_them() -> None:
    """Redis 6.2 quotes the refusal inside a script's error; Redis 7 and redis-py name it."""
    quoted = "Error running script (call to f_0): @user_script:90: @user_script: 90: -{} x"
    for prefix, state in [
        ("OOM command not allowed", StoreState.FULL),
        ("MISCONF Errors writing to the AOF file", StoreState.FULL),
        ("READONLY You can't write against a read only replica.", StoreState.READ_ONLY),
        ("LOADING Redis is loading", StoreState.LOADING),
        ("NOREPLICAS Not enough good replicas to write.", StoreState.READ_ONLY),
        ("MASTERDOWN Link with MASTER is down", StoreState.UNREACHABLE),
    ]:
        assert refusal(redis.exceptions.ResponseError(quoted.format(prefix))) == state
        assert refusal(redis.exceptions.ResponseError(prefix)) == state
    assert refusal(redis.exceptions.ResponseError("WRONGTYPE Operation against a key")) is None


def test_a_command_stored_before_its_follow_up_was_refused_gets_it_on_the_retry(
    app: Flask, client: FlaskClient, store: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store fills between the append and the scoring's enqueue: 503 (the command is
    stored), and the retry with the same key answers it again and enqueues the scoring."""
    with app.app_context():
        scoring = game_service().scoring
    schedule = scoring.schedule

    def refused_once(*args: Any) -> None:
        monkeypatch.setattr(scoring, "schedule", schedule)
        raise redis.exceptions.OutOfMemoryError("command not allowed when used memory > 'maxmemory'.")

    monkeypatch.setattr(scoring, "schedule", refused_once)
    game = create_game(client)
    rng = random.Random(3)
    for n in range(500):
        seat, _ = a_move(client, game)
        command = choose(rng, legal_commands(client, game, seat)["commands"])
        key = {"Idempotency-Key": f"move-{n}"}
        before = view(client, game)["version"]
        answer = post(client, game, seat, command, **key)
        if answer.status_code != 200:
            break
    assert_refused(answer, "full")
    stored = view(client, game)["version"]
    assert stored > before  # stored, though refused
    assert queue(QUEUE_DEFAULT, store).job_ids == []

    retry = post(client, game, seat, command, **key)
    assert (retry.status_code, retry.json["duplicate"]) == (200, True)
    assert view(client, game)["version"] == stored
    assert len(queue(QUEUE_DEFAULT, store).job_ids) == 1  # the scoring, enqueued by the retry
