"""Whether a command's cost stays flat as one game grows long: a Conquest of Paradise game of two
seats (its deal seeded) played through the app to its end, each command as a player's client
sends it — GET /games/{id}/legal, GET /games/{id}, POST one random legal command — and the
app's CPU time per command over each window of WINDOW commands, beside the game's version.

A long Paradise game passes 4,000 versions, and every answer reads its whole record: what a
request reads off it must be kept as it grows (service.record_marks), not read again. The
view and the legal list grow with the board, so the figure rises; what is measured is by how
much. Timed in the app's process (Flask's test client: the server's time, no network) on a
fresh embedded Redis; CPU time, which other work on a shared machine does not inflate.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Mapping
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from bench.common import Figure, say, temp_redis
from service.app import create_app
from service.chance import Dice
from service.wiring import build_service

GAME = {"game": "conquest-of-paradise", "seats": [{"name": "Ann"}, {"name": "Ben"}]}
WINDOW = 250
MAX_COMMANDS = 4_000
QUICK_COMMANDS = 2 * 40


def run(quick: bool = False, seed: int = 1, seconds: float | None = None) -> list[Figure]:
    window, most = (40, QUICK_COMMANDS) if quick else (WINDOW, MAX_COMMANDS)
    say("== long game: a command's CPU time as one Conquest of Paradise game grows ==")
    with temp_redis("everysec", label="long") as server:
        windows = play(app_on(server.url, seed).test_client(), random.Random(seed), window, most)
    return report(windows)


def app_on(redis_url: str, seed: int) -> Flask:
    """The app on the Redis at `redis_url`, its deal seeded: the same game every run, figures
    of one game to compare."""
    service = build_service(redis_url, redis_url)
    service.dice = Dice(seed)
    return create_app({"GAME_SERVICE": service, "TESTING": True, "RATE_LIMITS_ENABLED": False})


def play(client: FlaskClient, rng: random.Random, window: int, most: int) -> list[tuple[int, int, float]]:
    """(commands so far, version, CPU ms per command of the window) at the end of each window."""
    created = _json(client.post("/games", json=GAME), 201)
    game_id = created["game_id"]
    tokens = {int(seat["seat"]): {"Authorization": f"Bearer {seat['token']}"} for seat in created["seats"]}
    windows, done, started = [], 0, time.process_time()
    while done < most and _one_command(client, game_id, tokens, rng):
        done += 1
        if done % window == 0:
            spent = time.process_time() - started
            version = _json(client.get(f"/games/{game_id}", headers=tokens[0]), 200)["version"]
            windows.append((done, version, spent / window * 1000))
            say(
                f"   commands {done - window + 1:,}-{done:,} (version {version:,}): "
                f"{spent / window * 1000:.2f} ms CPU each; load average {os.getloadavg()[0]:.2f}"
            )
            started = time.process_time()
    return windows


def _one_command(client: FlaskClient, game_id: str, tokens: Mapping[int, Any], rng: random.Random) -> bool:
    """One seat's legal list, view and command; False when no seat has a command (the end)."""
    for headers in tokens.values():
        commands = _json(client.get(f"/games/{game_id}/legal", headers=headers), 200).get("commands")
        if commands:
            _json(client.get(f"/games/{game_id}", headers=headers), 200)
            _json(client.post(f"/games/{game_id}/commands", json=rng.choice(commands), headers=headers), 200)
            return True
    return False


def _json(answer: Any, status: int) -> Any:
    if answer.status_code != status:
        raise RuntimeError(
            f"{answer.request.method} {answer.request.path}: {answer.status_code} {answer.data[:300]!r}"
        )
    return answer.get_json()


def report(windows: list[tuple[int, int, float]]) -> list[Figure]:
    if len(windows) < 2:
        say("   the game ended within one window: nothing to compare")
        return []
    (_, first_version, first), (commands, last_version, last) = windows[0], windows[-1]
    say(
        f"   last window (to version {last_version:,}) / first (to version {first_version:,}): "
        f"{last / first:.2f}x"
    )
    return [
        Figure("long", f"ms CPU per command, first {windows[0][0]:,} commands", first, "ms"),
        Figure(
            "long", f"ms CPU per command, commands to {commands:,} (version {last_version:,})", last, "ms"
        ),
        Figure("long", "last window / first", last / first, "ratio"),
    ]
