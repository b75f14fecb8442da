"""The backup and restore commands of docs/operations.md, run as written: after each restore every
game reads back event for event (or, from game files, byte for byte)."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import redis
from flask.testing import FlaskClient

from service.embedded_redis import EmbeddedRedis, free_port, redis_server_binary, start_redis
from service.store import GLOBAL_STREAM, EventStore, stream_key
from tests.api.helpers import create_game, play
from tests.live_web import live_web

ROOT = Path(__file__).resolve().parents[2]
OPERATIONS = ROOT / "docs" / "operations.md"


def block(name: str) -> str:
    """The shell block of docs/operations.md marked `<!-- tested: name -->`."""
    found = re.search(rf"<!-- tested: {name} -->\n```sh\n(.*?)```", OPERATIONS.read_text(), re.DOTALL)
    assert found, f"docs/operations.md has no block {name}"
    return found.group(1)


def run(name: str, **env: str) -> str:
    """Run a block with bash, stopping at its first failure; redis-cli, redis-server, replays on the PATH."""
    tools = [str(Path(redis_server_binary()).parent), str(Path(sys.executable).parent)]
    path = os.pathsep.join([*tools, os.environ.get("PATH", "")])
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", block(name)],
        cwd=ROOT,
        env={**os.environ, **env, "PATH": path},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, f"{name} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def games_in(client: redis.Redis) -> dict[str, list[object]]:
    """Every game's events, by game id."""
    store = EventStore(client)
    ids = [key.decode().split("{")[1].split("}")[0] for key in client.scan_iter("game:{*}:events")]
    return {game_id: store.read(game_id) for game_id in ids}


@pytest.fixture
def some_games(client: FlaskClient, run_worker: Callable[[], None]) -> list[dict]:
    """Two finished Kahuna games and one in play."""
    games = [create_game(client) for _ in range(3)]
    for seed, game in enumerate(games[:2]):
        play(client, game, random.Random(seed), run_worker)
    play(client, games[2], random.Random(9), run_worker, until=lambda v: v["version"] > 12)
    return games


def test_a_snapshot_over_the_network_restores_every_game(
    some_games: list[dict], redis_server: EmbeddedRedis, redis_client: redis.Redis, tmp_path: Path
) -> None:
    before = games_in(redis_client)
    backup, data = tmp_path / "backup", tmp_path / "restored"
    data.mkdir()

    run("snapshot-backup", REDIS_URL=redis_server.url, BACKUP=str(backup))
    redis_client.flushall()  # the store is lost
    run("snapshot-restore", BACKUP=str(backup), DATA=str(data), RESTORE_PORT=str(free_port()))

    restored = start_redis(data)  # as Redis starts in production: appendonly yes
    try:
        client = redis.Redis.from_url(restored.url)
        assert (data / "appendonly.aof").stat().st_size > 0
        assert games_in(client) == before and len(before) == 3
        assert client.xlen(GLOBAL_STREAM) == sum(len(events) for events in before.values())
    finally:
        restored.stop()


def test_a_copy_of_the_append_only_file_restores_every_game(
    some_games: list[dict], redis_server: EmbeddedRedis, redis_client: redis.Redis, tmp_path: Path
) -> None:
    before = games_in(redis_client)
    backup, data = tmp_path / "backup", tmp_path / "restored"
    data.mkdir()
    percentage = redis_client.config_get("auto-aof-rewrite-percentage")

    run("aof-backup", REDIS_URL=redis_server.url, BACKUP=str(backup), REDIS_DIR=str(redis_server.data_dir))
    assert redis_client.config_get("auto-aof-rewrite-percentage") == percentage  # put back
    run("aof-restore", BACKUP=str(backup), DATA=str(data))

    restored = start_redis(data)
    try:
        assert games_in(redis.Redis.from_url(restored.url)) == before and len(before) == 3
    finally:
        restored.stop()


def test_game_files_restore_every_finished_game_byte_for_byte(
    some_games: list[dict],
    client: FlaskClient,
    redis_server: EmbeddedRedis,
    redis_client: redis.Redis,
    tmp_path: Path,
) -> None:
    backup = tmp_path / "backup"
    with live_web(redis_server.url, tmp_path, workers=1) as web:
        run("export-backup", REDIS_URL=redis_server.url, BACKUP=str(backup), ARCHIPELAGO_URL=web.url)
        files = sorted((backup / "games").glob("*.jsonl"))
        finished = sorted(f"{game['game_id']}.jsonl" for game in some_games[:2])
        assert [f.name for f in files] == finished  # the game in play exports redacted: left out

        redis_client.flushall()  # the store is lost
        printed = run("export-restore", BACKUP=str(backup), ARCHIPELAGO_URL=web.url)

    new_ids = re.findall(r"imported as game (\S+) ", printed)
    assert len(new_ids) == 2
    assert {key.decode() for key in redis_client.scan_iter("game:{*}:events")} == {
        stream_key(game_id) for game_id in new_ids
    }
    exports = {client.get(f"/games/{game_id}/export").get_data() for game_id in new_ids}
    assert exports == {f.read_bytes() for f in files}
