"""kill -9 of one primary of the 3-primary Redis Cluster (appendfsync always) while clients append
through the EventStore, then a restart on the same port and data: every acknowledged append is
there, none twice; the API answers 503 problem+json while the primary is down and recovers after.

`make test` runs the short form (one kill, a short outage); `make faults` the long form (kills of
every primary in turn, some outages longer than the node timeout, so the cluster is down as a
whole until the primary is back).
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient
from redis.cluster import RedisCluster, key_slot

from service.app import create_app
from service.embedded_cluster import EmbeddedCluster, start_cluster
from service.embedded_redis import EmbeddedRedis
from service.keys import CLUSTER, GAME
from service.store import EventStore, NewEvent, stream_key, verify_chain
from tests.api.helpers import create_game
from tests.faults.test_redis_pause import TIMEOUT, Run, check_recorded

GAMES_PER_PRIMARY = 2
APPENDING = 0.4
"""Seconds of appends before each kill."""
NODE_TIMEOUT_MS = 1000
"""Short, so that an outage of a few seconds makes the other primaries declare the node failed
and the whole cluster refuse commands (CLUSTERDOWN) until it is back."""


@dataclass
class Tally:
    acknowledged: int = 0
    lost: int = 0
    unacknowledged_kept: int = 0
    retried: int = 0
    refused_by_others: int = 0
    """Clients on a primary that stayed up which still got an error (the cluster down as a whole)."""
    errors: Counter[str] = field(default_factory=Counter)
    """What the clients were refused with, by the error's class."""


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[EmbeddedCluster]:
    """A cluster of its own: the session's is not to be killed."""
    started = start_cluster(tmp_path / "cluster", appendfsync="always", node_timeout_ms=NODE_TIMEOUT_MS)
    yield started
    started.stop()


def _client(cluster: EmbeddedCluster) -> RedisCluster:
    # A node of the cluster that is not killed first, so a new client finds the others.
    return RedisCluster(
        host="127.0.0.1", port=cluster.nodes[-1].port, socket_timeout=5, socket_connect_timeout=1
    )


def _tick(version: int, game: str) -> NewEvent:
    return NewEvent(f"{game}:{version + 1}", "Tick", {"n": version + 1})


def _games_on_each_primary(cluster: EmbeddedCluster) -> dict[str, EmbeddedRedis]:
    """Game ids, GAMES_PER_PRIMARY served by each primary, with the primary serving each."""
    chosen: dict[str, EmbeddedRedis] = {}
    counts = {node.port: 0 for node in cluster.nodes}
    n = 0
    while min(counts.values()) < GAMES_PER_PRIMARY:
        game = f"g-{n}"
        n += 1
        owner = cluster.owner(key_slot(stream_key(game, GAME, CLUSTER).encode()))
        if counts[owner.port] < GAMES_PER_PRIMARY:
            counts[owner.port] += 1
            chosen[game] = owner
    return chosen


def _append_until_stopped(
    cluster: EmbeddedCluster,
    game: str,
    stop: threading.Event,
    acked: set[str],
    in_flight: dict[str, int],
    failed: dict[str, BaseException],
) -> None:
    """Append one event at a time to `game` until `stop` or an error; the version an append left
    unanswered expected stays in `in_flight`."""
    client = _client(cluster)
    store = EventStore(client)
    try:
        version = store.version(game)
        while not stop.is_set():
            in_flight[game] = version
            store.append(game, version, [_tick(version, game)])
            del in_flight[game]
            acked.add(f"{game}:{version + 1}")
            version += 1
    except redis.exceptions.RedisError as error:
        failed[game] = error  # as a web request would fail: 503, and its client sends it again
    finally:
        client.close()


def _check_store(cluster: EmbeddedCluster, games: list[str]) -> set[str]:
    """Every stored event id; asserts gapless versions, no duplicate, an intact chain, and bucket
    streams that point at exactly the stored events, each a gapless sequence."""
    client = _client(cluster)
    store = EventStore(client)
    stored: set[str] = set()
    versions = set()
    for game in games:
        events = store.read(game)
        ids = [e.event_id for e in events]
        assert ids == [f"{game}:{n}" for n in range(1, len(ids) + 1)], "a gap or a duplicate"
        assert verify_chain(events) is None
        stored.update(ids)
        versions |= {(game, e.version) for e in events}
    pointers = store.read_pointers()
    by_stream: dict[str, list[int]] = {}
    for pointer in pointers:
        by_stream.setdefault(pointer.stream, []).append(pointer.position)
    for stream, positions in by_stream.items():
        assert positions == list(range(1, len(positions) + 1)), f"a gap in {stream}"
    assert {(p.game_id, p.version) for p in pointers} == versions
    assert len(pointers) == len(versions)
    client.close()
    return stored


def kill_primaries_while_appending(cluster: EmbeddedCluster, kills: int, outages: list[float]) -> Tally:
    """`kills` kill -9s of a primary (each in turn), each down for the next of `outages` (seconds,
    cycled) while the clients of every primary go on, then restarted on its port and data."""
    owners = _games_on_each_primary(cluster)
    games = list(owners)
    tally = Tally()
    stored: set[str] = set()
    for kill in range(kills):
        victim = cluster.nodes[kill % len(cluster.nodes)]
        stop = threading.Event()
        acked: set[str] = set()
        in_flight: dict[str, int] = {}
        failed: dict[str, BaseException] = {}
        clients = [
            threading.Thread(target=_append_until_stopped, args=(cluster, g, stop, acked, in_flight, failed))
            for g in games
        ]
        for c in clients:
            c.start()
        time.sleep(APPENDING)
        victim.stop(kill=True)
        # The clients on the other primaries keep appending while it is down.
        time.sleep(outages[kill % len(outages)])
        stop.set()
        for c in clients:
            c.join(timeout=30)
        assert not any(c.is_alive() for c in clients), "a client hangs on the dead primary"
        assert {g for g, owner in owners.items() if owner.port == victim.port} <= set(failed)
        tally.refused_by_others += sum(1 for g in failed if owners[g].port != victim.port)
        tally.errors.update(type(error).__name__ for error in failed.values())
        cluster.restart(victim)
        before, stored = stored, _check_store(cluster, games)
        tally.acknowledged += len(acked)
        tally.lost += len(acked - stored)
        # The append in flight at the kill may be kept without its answer: its retry with the
        # same event id is recognised as a duplicate.
        tally.unacknowledged_kept += len(stored - before - acked)
        tally.retried += _retry_in_flight(cluster, in_flight)
        stored = _check_store(cluster, games)
    print(
        f"\ncluster, appendfsync always: {kills} kills of a primary, {tally.acknowledged} appends "
        f"acknowledged, {tally.lost} lost, {tally.unacknowledged_kept} kept without an answer, "
        f"{tally.retried} unanswered appends sent again, {tally.refused_by_others} refusals on "
        f"primaries that stayed up; refused with {dict(tally.errors)}"
    )
    return tally


def _retry_in_flight(cluster: EmbeddedCluster, in_flight: dict[str, int]) -> int:
    """Each client sends its unanswered append again with the same event id: recorded once."""
    client = _client(cluster)
    store = EventStore(client)
    for game, version in in_flight.items():
        kept = store.version(game) > version
        assert store.append(game, version, [_tick(version, game)]).duplicate == kept
    client.close()
    return len(in_flight)


def test_kill_9_of_a_cluster_primary_loses_no_acknowledged_append_and_a_retry_is_recorded_once(
    cluster: EmbeddedCluster,
) -> None:
    tally = kill_primaries_while_appending(cluster, kills=1, outages=[0.5])
    assert tally.acknowledged > 0 and tally.retried > 0
    assert tally.lost == 0


@pytest.mark.faults
def test_twelve_kills_of_cluster_primaries_while_clients_append(cluster: EmbeddedCluster) -> None:
    # Every other outage outlasts the node timeout: the cluster is then down as a whole.
    tally = kill_primaries_while_appending(cluster, kills=12, outages=[0.5, 3 * NODE_TIMEOUT_MS / 1000])
    assert tally.acknowledged > 0 and tally.retried > 0
    assert tally.lost == 0
    assert tally.refused_by_others > 0


# --- through the API ------------------------------------------------------------------------


def _game_on(client: FlaskClient, cluster: EmbeddedCluster, victim: EmbeddedRedis) -> dict[str, Any]:
    """A new game whose keys the `victim` primary serves."""
    for _ in range(60):
        game = create_game(client)
        if cluster.owner(key_slot(stream_key(game["game_id"], GAME, CLUSTER).encode())) is victim:
            return game
    raise AssertionError("no game landed on the primary to kill")


def kill_under_the_api(
    cluster: EmbeddedCluster, rq_url: str, monkeypatch: pytest.MonkeyPatch, outage: float
) -> tuple[Run, list[int]]:
    """Play a game on one primary, kill -9 it: reads and commands are answered 503 problem+json
    while it is down; restarted, the service answers again and the command refused during the
    outage, sent again with its Idempotency-Key, is recorded once. Also the statuses of reads of
    a game on another primary during the outage: 200 until the cluster declares the killed one
    failed, 503 problem+json after (CLUSTERDOWN), never anything else."""
    monkeypatch.setenv("ARCHIPELAGO_REDIS_TIMEOUT_SECONDS", str(TIMEOUT))
    app = create_app(
        {
            "REDIS_CLUSTER_URL": cluster.nodes[-1].url,
            "RQ_REDIS_URL": rq_url,
            "TESTING": True,
            "RATE_LIMITS_ENABLED": False,
        }
    )
    client = app.test_client()
    victim = cluster.nodes[0]
    run = Run(victim, client, _game_on(client, cluster, victim))
    elsewhere = _game_on(client, cluster, cluster.nodes[1])["game_id"]
    statuses: list[int] = []
    for _ in range(3):
        ready = run.next_command()
        if ready is not None:
            assert run.send(*ready).status_code == 200
    during = run.next_command()
    assert during is not None, "the game waits for a scoring already"
    victim.stop(kill=True)
    back_at = time.monotonic() + outage
    run.send(*during)
    while time.monotonic() < back_at:
        started = time.monotonic()
        answer = client.get(f"/games/{run.game['game_id']}")
        run.refused_503(answer, time.monotonic() - started)
        other = client.get(f"/games/{elsewhere}")
        statuses.append(other.status_code)
        if other.status_code != 200:
            assert (other.status_code, other.mimetype) == (503, "application/problem+json")
        time.sleep(0.1)
    run.server = cluster.restart(victim)
    assert client.get(f"/games/{run.game['game_id']}").status_code == 200
    assert client.get(f"/games/{elsewhere}").status_code == 200
    retried = run.send(*during)
    assert retried.status_code == 200, retried.json
    return run, statuses


def _check_on_cluster(run: Run, cluster: EmbeddedCluster) -> None:
    client = _client(cluster)
    check_recorded(run, EventStore(client))
    client.close()


def test_a_killed_cluster_primary_gets_503s_then_full_recovery_and_nothing_lost(
    cluster: EmbeddedCluster,
    redis_server: EmbeddedRedis,
    redis_client: redis.Redis,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    run, _ = kill_under_the_api(cluster, redis_server.url, monkeypatch, outage=1.5)
    _check_on_cluster(run, cluster)
    assert run.refused


@pytest.mark.faults
def test_a_cluster_primary_down_past_the_node_timeout_gets_503s_then_full_recovery(
    cluster: EmbeddedCluster,
    redis_server: EmbeddedRedis,
    redis_client: redis.Redis,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Past the node timeout the others declare the primary failed: CLUSTERDOWN, also a 503.
    run, elsewhere = kill_under_the_api(
        cluster, redis_server.url, monkeypatch, outage=6 * NODE_TIMEOUT_MS / 1000
    )
    _check_on_cluster(run, cluster)
    assert 503 in elsewhere
    print(
        f"\n{len(run.refused)} requests refused with 503 while the primary was down, "
        f"slowest in {max(run.refused):.2f} s; reads of a game on another primary: "
        f"{elsewhere.count(200)} answered 200, {elsewhere.count(503)} answered 503"
    )
