"""Builds the service's parts from configuration, the same way for the API and the worker."""

from __future__ import annotations

import os
from collections.abc import Mapping

from service import jobs
from service.chance import dice_from
from service.games import GameService
from service.queues import AiQueue, ScoringQueue, rq_connection, rq_redis_url
from service.redis_clients import connect
from service.store import TOURNAMENT, EventStore, check_server
from service.tournament_jobs import TournamentQueue
from service.tournaments import TournamentService

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


def redis_url(environ: Mapping[str, str] | None = None) -> str:
    env = os.environ if environ is None else environ
    return env.get("REDIS_URL") or DEFAULT_REDIS_URL


def build_service(url: str | None = None, rq_url: str | None = None) -> GameService:
    """A GameService on the Redis at `url` (default REDIS_URL), scoring and AI seats on RQ at `rq_url`,
    with its TournamentService as `tournaments`."""
    client = connect(url or redis_url())
    check_server(client)
    jobs = rq_connection(rq_url or rq_redis_url())
    dice = dice_from()
    games = GameService(EventStore(client), client, ScoringQueue(jobs), ai=AiQueue(jobs), dice=dice)
    # It hooks itself into `games` (games.tournaments), which records the results of its games.
    TournamentService(EventStore(client, kind=TOURNAMENT), client, games, dice, TournamentQueue(jobs))
    return games


# service.jobs cannot import this module (the queues built here enqueue its functions): this
# is where it learns how to build the service its jobs run with.
jobs.serve_with(build_service)
