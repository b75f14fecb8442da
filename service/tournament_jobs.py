"""RQ's side of tournaments: record a finished game's result, update the ratings, enforce the
move time limit; and the sweep that catches a lost job.

Jobs have deterministic ids (`result-<game>`, `ratings-<tournament>-<version>`) and are
idempotent: a recorded result is recognised by its command id, the ratings projection by
its checkpoint. Every game a tournament opens is watched (a set) until the tournament has
its result: each sweep re-enqueues the result of an ended game whose job is gone, forfeits
a seat that has waited longer than the move time limit (the sweep is the clock's job), and
catches the ratings up.
"""

from __future__ import annotations

import logging
from typing import Any

import redis
from rq.exceptions import DuplicateJobError

from service import jobs
from service.queues import QUEUE_DEFAULT, queue
from service.ratings_projection import RatingsProjection
from service.sweeper import each_game, job_alive

log = logging.getLogger("archipelago.tournaments")

RATED = frozenset({"ResultRecorded", "ResultCorrected"})
"""The events that change a rated game kind's ratings (forfeits are not rated)."""
PLAYING = "tournaments:playing"
"""Set of the ids of tournament games whose result the tournament does not have yet."""


def result_job_id(game_id: str) -> str:
    return f"result-{game_id}"


def ratings_job_id(tournament_id: str, version: int) -> str:
    return f"ratings-{tournament_id}-{version}"


def record_result(game_id: str) -> bool:
    """Append the result of the ended tournament game `game_id`; False when it is recorded."""
    return bool(jobs.worker_service().tournaments.record_result(game_id))


def update_ratings() -> int:
    """Fold the tournament events the ratings have not seen; the number of events read."""
    service = jobs.worker_service()
    return RatingsProjection(service.redis, service.tournaments.store).update()


class TournamentQueue:
    """Enqueues the tournament jobs on RQ's Redis (`connection`) and sweeps for lost ones."""

    def __init__(self, connection: redis.Redis) -> None:
        self.connection = connection

    def watch(self, game_id: str) -> None:
        self.connection.sadd(PLAYING, game_id)

    def record_result(self, game_id: str) -> None:
        self._enqueue(record_result, (game_id,), result_job_id(game_id))

    def after_append(self, loaded: Any, since: int) -> None:
        """Enqueue the ratings when the events from version `since` on hold a rated result."""
        new = loaded.envelopes[since - 1 :]
        if loaded.state.settings.rated and any(e.type in RATED for e in new):
            self._enqueue(update_ratings, (), ratings_job_id(loaded.tournament_id, loaded.version))

    def sweep(self, service: Any) -> int:
        """One pass over the watched games, then the ratings; the jobs enqueued or acted on."""
        tournaments = service.tournaments
        again = each_game(self.connection, PLAYING, lambda g: self._sweep_game(tournaments, g), "tournament")
        RatingsProjection(service.redis, tournaments.store).update()
        return again

    def _sweep_game(self, tournaments: Any, game_id: str) -> int:
        if tournaments.decided(game_id):
            # A forfeit decided it: the game itself must end too before it is let go.
            ended = int(tournaments.end_forfeit(game_id))
            self.connection.srem(PLAYING, game_id)
            return ended
        game = tournaments.games.load(game_id)
        if game.ended_with_result:  # ended by its rules or a resignation: the result is due
            if job_alive(self.connection, result_job_id(game_id)):
                return 0
            log.warning("re-enqueueing the lost result of tournament game %s", game_id)
            self.record_result(game_id)
            return 1
        return int(tournaments.enforce_time_limit(game_id))

    def _enqueue(self, job: Any, args: tuple[Any, ...], ident: str) -> None:
        try:
            queue(QUEUE_DEFAULT, self.connection).enqueue(job, *args, job_id=ident, unique=True)
        except DuplicateJobError:
            pass  # already enqueued; the job is idempotent too
