"""Builds the service's parts from configuration, the same way for the API and the worker."""

from __future__ import annotations

import os
from collections.abc import Mapping

import redis
from redis.cluster import RedisCluster

from service import jobs
from service.chance import dice_from
from service.games import GameService
from service.move_clock import MoveClock
from service.queues import AiQueue, ScoringQueue, rq_connection, rq_redis_url
from service.redis_clients import connect, options
from service.store import TOURNAMENT, EventStore, check_server
from service.tournament_jobs import TournamentQueue
from service.tournaments import TournamentService

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


def redis_url(environ: Mapping[str, str] | None = None) -> str:
    env = os.environ if environ is None else environ
    return env.get("REDIS_URL") or DEFAULT_REDIS_URL


def cluster_url(environ: Mapping[str, str] | None = None) -> str | None:
    """REDIS_CLUSTER_URL: a node of the Redis Cluster that holds the events, when there is one."""
    env = os.environ if environ is None else environ
    return env.get("REDIS_CLUSTER_URL") or None


def plain_rq_url(environ: Mapping[str, str] | None = None) -> str:
    """RQ's Redis beside a cluster: RQ_REDIS_URL, else REDIS_URL; ValueError when neither is set
    (RQ cannot run on a cluster, and no default would be right)."""
    env = os.environ if environ is None else environ
    url = env.get("RQ_REDIS_URL") or env.get("REDIS_URL")
    if not url:
        raise ValueError("with REDIS_CLUSTER_URL, set RQ_REDIS_URL (or REDIS_URL) to a plain Redis for RQ")
    return url


def event_client(url: str | None = None, cluster: str | None = None) -> redis.Redis | RedisCluster:
    """The client of the data: a cluster client when `cluster` names a node, else the Redis at `url`
    (default REDIS_URL)."""
    if cluster:
        # A cluster client retries redirections itself; only the timeouts carry over.
        limits = options()
        return RedisCluster.from_url(
            cluster,
            socket_timeout=limits["socket_timeout"],
            socket_connect_timeout=limits["socket_connect_timeout"],
        )
    return connect(url or redis_url())


def build_service(
    url: str | None = None, rq_url: str | None = None, cluster: str | None = None
) -> GameService:
    """A GameService on the Redis at `url` (default REDIS_URL) or the Redis Cluster at `cluster`
    (default REDIS_CLUSTER_URL when no `url` is given), scoring and AI seats on RQ at `rq_url`,
    with its TournamentService as `tournaments`."""
    if url is None and cluster is None:
        cluster = cluster_url()
    if cluster and rq_url is None:
        rq_url = plain_rq_url()
    client = event_client(url, cluster)
    check_server(client)
    jobs = rq_connection(rq_url or rq_redis_url())
    dice = dice_from()
    games = GameService(EventStore(client), client, ScoringQueue(jobs), ai=AiQueue(jobs), dice=dice)
    # It hooks itself into `games` (games.tournaments), which records the results of its games.
    TournamentService(EventStore(client, kind=TOURNAMENT), client, games, dice, TournamentQueue(jobs))
    MoveClock(games)  # hooks itself in too (games.move_clock): the casual games' time per move
    return games


# service.jobs cannot import this module (the queues built here enqueue its functions): this
# is where it learns how to build the service its jobs run with.
jobs.serve_with(build_service)
