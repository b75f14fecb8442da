"""The forking worker as deployed (`python -m service.worker` with ARCHIPELAGO_WORKER_PORT): its
port times the jobs its work horses ran, and its log lines are JSON, a job's with the job id."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import redis
from flask.testing import FlaskClient
from prometheus_client.parser import text_string_to_metric_families

from service.embedded_redis import EmbeddedRedis, free_port
from service.queues import scoring_job_id
from tests.api.helpers import create_game, play, view
from tests.live_web import get, wait_for

ROOT = Path(__file__).resolve().parents[2]


def test_the_worker_port_times_its_horses_jobs_and_its_lines_name_the_job(
    client: FlaskClient,
    run_worker: Callable[[], None],
    redis_client: redis.Redis,
    redis_server: EmbeddedRedis,
    tmp_path: Path,
) -> None:
    game = create_game(client)
    waiting = play(client, game, random.Random(5), run_worker, until=lambda v: v["phase"] == "scoring")
    port = free_port()
    env = dict(
        os.environ,
        REDIS_URL=redis_server.url,
        RQ_REDIS_URL=redis_server.url,
        ARCHIPELAGO_WORKER_PORT=str(port),
        ARCHIPELAGO_HOST="127.0.0.1",
    )
    log = tmp_path / "worker.log"
    with log.open("wb") as stderr:
        worker = subprocess.Popen(
            [sys.executable, "-m", "service.worker", "--sweep-interval", "0"],
            cwd=ROOT,
            env=env,
            stderr=stderr,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: view(client, game)["phase"] == "play", seconds=20)
        wait_for(lambda: get(f"{base}/health/live")[0] == 200)
        assert get(f"{base}/health")[0] == 200
        # The job's events are stored before the horse reports it finished: wait for the count.
        wait_for(lambda: finished_scorings(get(f"{base}/metrics")) is not None, seconds=20)
        finished = finished_scorings(get(f"{base}/metrics"))
    finally:
        worker.terminate()
        worker.wait(timeout=20)

    assert finished == 1
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    job_id = scoring_job_id(game["game_id"], waiting["version"])
    assert any(r.get("job_id") == job_id and "Job OK" in r["message"] for r in lines)
    assert any("metrics and probes on" in r["message"] for r in lines)


def finished_scorings(answer: tuple[int, str]) -> float | None:
    """The worker port's count of finished score_round jobs; None until it has one."""
    status, text = answer
    assert status == 200
    counts = {
        (s.name, s.labels.get("job"), s.labels.get("status")): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }
    return counts.get(("archipelago_job_duration_seconds_count", "score_round", "finished"))
