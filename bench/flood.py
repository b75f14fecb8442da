"""The P5 incident, replayed: `python -m bench.flood [GAMES]`.

One address asks for GAMES (default 20) games of two level-5 ismcts players; then another
address creates a game whose level-1 computer seat moves first. One in-process worker
(SimpleWorker) runs the queues; printed: how many of the flood's games were admitted, and the
wall time from the new game's creation to the end of its first computer move. The budgets
are the worker's (ARCHIPELAGO_AI_SECONDS, ARCHIPELAGO_AI_SLICE_SECONDS); rate limits are
off, so only the cap on open computer games and the slices are measured. Needs no Redis of
its own (an embedded one is started). Not part of `make bench`.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

FLOOD = {"REMOTE_ADDR": "192.0.2.66"}
PLAYER = {"REMOTE_ADDR": "192.0.2.7"}


def replay(games: int) -> str:
    from service.embedded_redis import start_redis

    server = start_redis(Path(tempfile.mkdtemp(prefix="bench-flood-")))
    try:
        os.environ.update(REDIS_URL=server.url, RQ_REDIS_URL=server.url, ARCHIPELAGO_RATE_LIMITS="off")
        return _run(server.url, games)
    finally:
        server.stop()


def _run(url: str, games: int) -> str:
    import redis
    from rq import SimpleWorker
    from rq.serializers import JSONSerializer

    from service import jobs
    from service.app import create_app
    from service.queues import QUEUES, queue

    client = create_app({"TESTING": True}).test_client()
    deep = [{"name": f"Deep {n}", "ai": "ismcts", "level": 5} for n in range(2)]
    body = {"game": "kahuna", "seats": deep, "first_seat": 0}
    codes = [client.post("/games", json=body, environ_base=FLOOD).status_code for _ in range(games)]
    quick_seats = [{"name": "Ben"}, {"name": "Quick", "ai": "ismcts", "level": 1}]
    started = time.perf_counter()
    created = client.post(
        "/games", json={"game": "kahuna", "seats": quick_seats, "first_seat": 1}, environ_base=PLAYER
    )
    quick = created.json["game_id"]
    waited: list[float] = []
    real_move = jobs.ai_move

    def timed(game_id: str, seat: int, version: int, tally: dict | None = None) -> str:
        answer = real_move(game_id, seat, version, tally)
        if game_id == quick and not waited:
            waited.append(time.perf_counter() - started)
        return answer

    jobs.ai_move = timed  # the worker imports the job by name when it runs it
    try:
        connection = redis.Redis.from_url(url)
        worker = SimpleWorker(
            [queue(q, connection) for q in QUEUES], connection=connection, serializer=JSONSerializer
        )
        # Each admitted game's first slice, then the new game's move, and a little slack.
        worker.work(burst=True, max_jobs=codes.count(201) + 2, logging_level="WARNING")
    finally:
        jobs.ai_move = real_move
    first = f"{waited[0]:.2f} s" if waited else "not within the jobs run"
    return (
        f"{codes.count(201)} of {games} flood games admitted, {codes.count(429)} refused; "
        f"the new level-1 game's first move done after {first}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    print(replay(int(args[0]) if args else 20))
    return 0


if __name__ == "__main__":
    sys.exit(main())
