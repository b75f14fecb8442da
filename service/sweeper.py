"""The worker's sweeper: re-enqueues the jobs play waits for when they were lost or failed.

It covers round scoring and computer seats' moves (the enqueuers of service.queues), the
games of tournaments: their results, move time limits and the ratings (service.tournament_jobs),
the time per move of casual games (service.move_clock);
and it catches the listings of games and tournaments up with events no process recorded
(service.games_index).
Each keeps a set of the games that wait for a job; for each such game the sweep checks
that the job is queued or running, else deletes what is left of it and enqueues it again.
One game's error is logged and the sweep goes on to the next game.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable

import redis
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus

log = logging.getLogger("archipelago.sweeper")

ALIVE = {JobStatus.QUEUED, JobStatus.STARTED, JobStatus.DEFERRED, JobStatus.SCHEDULED}


def job_alive(connection: redis.Redis, ident: str) -> bool:
    """Whether job `ident` is queued or running; a finished, failed or lost one is deleted,
    which makes room for a fresh job under the same (deterministic) id."""
    try:
        job = Job.fetch(ident, connection=connection)
    except NoSuchJobError:
        return False
    status = job.get_status(refresh=True)
    if status in ALIVE and (status != JobStatus.STARTED or _running(job)):
        return True
    try:
        job.delete()
    except ValueError:
        # A killed run leaves its execution listed after the execution's own record
        # expired; rq's delete cannot fetch it and gives up. Drop the stale list first.
        connection.delete(job.execution_registry.key)
        job.delete()
    return False


def _running(job: Job) -> bool:
    """Whether a started job has a live execution (its worker renews it while the job runs).

    A worker killed mid-job leaves the job "started" until RQ's own cleanup, minutes later,
    marks it failed; its execution's record expires within about a minute and a half.
    """
    try:
        return bool(job.get_executions())
    except ValueError:  # listed, but its record expired with the worker that ran it
        return False


def each_game(
    connection: redis.Redis,
    key: str,
    sweep_one: Callable[[str], int],
    what: str,
    ids: Iterable[bytes | str] | None = None,
) -> int:
    """`sweep_one(game_id)` for every game in the set `key` (or in `ids`, read from it by the
    caller when `key` is not a set); the sum of what it returns."""
    again = 0
    for raw in connection.smembers(key) if ids is None else ids:
        game_id = raw.decode() if isinstance(raw, bytes) else raw
        try:
            again += sweep_one(game_id)
        except Exception:
            log.exception("sweeping the %s of game %s failed; going on with the others", what, game_id)
    return again


def sweep(service) -> int:  # type: ignore[no-untyped-def]
    """One pass over scoring, computer seats and tournament games; the number of jobs enqueued
    again (and of seats forfeited for time).

    A part that cannot reach Redis is skipped until the next pass.
    """
    again = 0
    parts = [("scoring", service.scoring)]
    if service.ai is not None:
        parts.append(("AI", service.ai))
    if getattr(service, "tournaments", None) is not None:
        parts.append(("tournament", service.tournaments.jobs))
        parts.append(("tournaments listing", service.tournaments.listings))
    parts.append(("move clock", getattr(service, "move_clock", None)))
    parts.append(("games listing", service.listings))
    for name, part in parts:
        if part is None:
            continue
        try:
            again += part.sweep(service)
        except redis.exceptions.RedisError as exc:
            log.warning("%s sweep skipped: %s", name, exc)
    return again


def sweep_forever(service, interval: float, stop: threading.Event) -> None:  # type: ignore[no-untyped-def]
    """Sweep now and then every `interval` seconds until `stop` is set (a worker's thread)."""
    while True:
        sweep(service)
        if stop.wait(interval):
            return
