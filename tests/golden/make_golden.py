"""Writes the golden games of tests/golden/: one finished game per game and option, played
through the real service (the HTTP API on an embedded Redis, jobs run by an in-process
worker) with seeded dice, and exported with everything revealed.

Run by hand from the project root when a game or an option is added (never by the tests):

    .venv/bin/python -m tests.golden.make_golden            # every missing file
    .venv/bin/python -m tests.golden.make_golden --force    # rewrite them all
    .venv/bin/python -m tests.golden.make_golden --to /tmp/g kahuna   # try it elsewhere

A family that lives in the tests (tests/families) gets a plain game of each seat count it
takes, kept in its own folder (`<family>/golden/`), as a registered game's are kept here.

The files are the record of what old games look like: rewrite one only on purpose, never to
make a failing golden test pass.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis
from flask.testing import FlaskClient
from rq import SimpleWorker
from rq.serializers import JSONSerializer

from service.app import create_app
from service.chance import SEED_VARIABLE
from service.embedded_redis import start_redis
from service.queues import QUEUE_AI, QUEUE_DEFAULT, queue
from tests.api.helpers import NAMES, bearer, legal_commands, play, post, view
from tests.domain.nanuuk.game import LAYOUT_2
from tests.families import registered

HERE = Path(__file__).parent
SEED = 20261123


@dataclass(frozen=True)
class Golden:
    """One golden game: its POST /games body and what happens beside plain play."""

    game: str
    seats: int
    options: dict[str, Any] = field(default_factory=dict)
    computers: tuple[str, ...] = ()  # the `ai` of every seat, when the computer plays them all
    undo_and_takeback: bool = False


GOLDEN: dict[str, Golden] = {
    "kahuna": Golden("kahuna", 2),
    "kahuna-thames-kosmos": Golden("kahuna", 2, {"edition": "thames-kosmos"}),
    "arabana-ikibiti": Golden("arabana-ikibiti", 2),
    "arabana-ikibiti-seafarers": Golden("arabana-ikibiti", 2, {"seafarers": True}),
    "arabana-ikibiti-handicap": Golden(
        "arabana-ikibiti", 2, {"handicap": {"seat": 1, "free_bridges": 2, "extra_cards": 1, "hand_limit": 6}}
    ),
    "arabana-opodopo-3": Golden("arabana-opodopo", 3),
    "arabana-opodopo-4": Golden("arabana-opodopo", 4),
    "arabana-opodopo-3-gods": Golden("arabana-opodopo", 3, {"gods": True}),
    "arabana-opodopo-4-gods": Golden("arabana-opodopo", 4, {"gods": True}),
    "kahuna-undo-takeback": Golden("kahuna", 2, {"edition": "thames-kosmos"}, undo_and_takeback=True),
    "kahuna-computers": Golden("kahuna", 2, computers=("greedy", "random")),
    "nanuuk-2": Golden("nanuuk", 2),
    "nanuuk-2-given-layout": Golden(
        "nanuuk", 2, {"layout": LAYOUT_2, "cracks": [[[0, -1], [1, -1]], [[1, 1], [1, 2]]]}
    ),
    "nanuuk-2-two-hunters": Golden("nanuuk", 2, {"two_hunters": True}),
    "nanuuk-3-variants": Golden(
        "nanuuk", 3, {"double_move_cracks": "mover_chooses", "keep_igloo_reachable": True, "pre_cracks": 4}
    ),
    "nanuuk-4": Golden("nanuuk", 4),
    "nanuuk-learning-2": Golden("nanuuk-learning", 2),
    "nanuuk-learning-3": Golden("nanuuk-learning", 3),
    "nanuuk-learning-4": Golden("nanuuk-learning", 4),
    "nanuuk-bear-hunt-2": Golden("nanuuk-bear-hunt", 2, {"bear_seat": 1, "bear_must_move_twice": True}),
    "nanuuk-bear-hunt-3": Golden(
        "nanuuk-bear-hunt", 3, {"crack_each_step": True, "bear_may_stay": True, "play_on": True}
    ),
    "nanuuk-bear-flight": Golden(
        "nanuuk-bear-flight", 2, {"bears": 2, "bear_must_move_twice": True, "bear_may_stay": True}
    ),
    "nanuuk-partners": Golden("nanuuk-partners", 4),
    "nanuuk-partners-right": Golden("nanuuk-partners", 4, {"aim": "right"}),
    "nanuuk-partners-left": Golden("nanuuk-partners", 4, {"aim": "left"}),
    "nanuuk-helper": Golden("nanuuk-helper", 2),
    "conquest-of-paradise-2-advanced": Golden(
        "conquest-of-paradise",
        2,
        {
            "variable_start": True,
            "saved_resources": True,
            "malaria": True,
            "south_island": True,
            "kumara": True,
            "end_shift": -3,
            "last_turn": 4,
        },
    ),
    "conquest-of-paradise-3": Golden("conquest-of-paradise", 3, {"last_turn": 3}),
    "conquest-of-paradise-4": Golden("conquest-of-paradise", 4, {"last_turn": 2}),
    # Long enough for canoes to put passengers ashore and take them aboard on the way (P-3.3).
    "conquest-of-paradise-3-stops": Golden("conquest-of-paradise", 3, {"last_turn": 6}),
}


FAMILY_GOLDEN: dict[str, tuple[Golden, Path]] = {
    f"{family.module.name}-{seats}": (Golden(family.module.name, seats), family.golden)
    for family in registered.FAMILIES
    for seats in range(family.module.min_seats, family.module.max_seats + 1)
}
"""The golden games of the families that live in the tests, by name, with their folders."""
GOLDEN.update({name: golden for name, (golden, _) in FAMILY_GOLDEN.items()})


def create(client: FlaskClient, golden: Golden) -> dict[str, Any]:
    if golden.computers:
        seats = [{"name": f"{kind} {n}", "ai": kind, "level": 1} for n, kind in enumerate(golden.computers)]
    else:
        seats = [{"name": name} for name in NAMES[: golden.seats]]
    body = {"game": golden.game, "seats": seats, "first_seat": 0, "reveal_after_end": True}
    if golden.options:
        body["options"] = golden.options
    answer = client.post("/games", json=body)
    assert answer.status_code == 201, answer.json
    game = dict(answer.json)
    game["tokens"] = [seat.get("token") for seat in game["seats"]]
    return game


def undo_and_take_back(client: FlaskClient, game: dict[str, Any], run_jobs: Callable[[], None]) -> None:
    """Seat 0 places a bridge and undoes it, then asks to take back seat 1's first bridge: accepted."""

    def first(seat: int, kind: str) -> None:
        command = next(c for c in legal_commands(client, game, seat)["commands"] if c["type"] == kind)
        answer = post(client, game, seat, command)
        assert answer.status_code == 200, answer.json

    def send(seat: int, path: str, body: dict[str, Any]) -> None:
        url = f"/games/{game['game_id']}/{path}"
        answer = client.post(url, json=body, headers=bearer(game["tokens"][seat]))
        assert answer.status_code in (200, 201), answer.json

    first(0, "PlaceBridge")
    send(0, "undo", {"scope": "command"})
    first(0, "PlaceBridge")
    first(0, "SkipDraw")
    to_version = view(client, game)["version"]
    first(1, "PlaceBridge")
    send(0, "takebacks", {"to_version": to_version})
    send(1, "takebacks/current", {"accept": True})


def play_out(client: FlaskClient, game: dict[str, Any], golden: Golden, run_jobs: Callable[[], None]) -> None:
    if golden.computers:
        for _ in range(50):
            run_jobs()
            if view(client, game)["phase"] == "ended":
                return
        raise AssertionError("the computers did not finish the game")
    if golden.undo_and_takeback:
        undo_and_take_back(client, game, run_jobs)
    play(client, game, random.Random(SEED), run_jobs)


def folder_of(name: str, to: Path | None = None) -> Path:
    """Where a golden game is written: `to` when given, else its family's folder or this one."""
    return to or (FAMILY_GOLDEN[name][1] if name in FAMILY_GOLDEN else HERE)


def write(names: list[str], to: Path | None = None) -> None:
    # Searches end on an iteration cap, never the clock: the same moves on any machine.
    os.environ["ARCHIPELAGO_AI_MAX_ITERATIONS"] = "4"
    os.environ[SEED_VARIABLE] = str(SEED)
    with tempfile.TemporaryDirectory() as workdir:
        server = start_redis(Path(workdir))
        try:
            os.environ["REDIS_URL"] = os.environ["RQ_REDIS_URL"] = server.url
            config = {"REDIS_URL": server.url, "TESTING": True, "RATE_LIMITS_ENABLED": False}
            client = create_app(config).test_client()
            registered.register()
            connection = redis.Redis.from_url(server.url)

            def run_jobs() -> None:
                queues = [queue(QUEUE_DEFAULT, connection), queue(QUEUE_AI, connection)]
                worker = SimpleWorker(queues, connection=connection, serializer=JSONSerializer)
                worker.work(burst=True, logging_level="WARNING")

            for name in names:
                golden = GOLDEN[name]
                game = create(client, golden)
                play_out(client, game, golden, run_jobs)
                run_jobs()  # whatever the end queued (the analysis of computer games)
                exported = client.get(f"/games/{game['game_id']}/export")
                assert exported.status_code == 200, exported.json
                folder = folder_of(name, to)
                folder.mkdir(exist_ok=True)
                (folder / f"{name}.jsonl").write_bytes(exported.data)
                print(f"{name}: {view(client, game)['version']} events")
            connection.close()
        finally:
            registered.unregister()
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="rewrite the files that exist too")
    parser.add_argument("--to", type=Path, help="the folder to write to (default: here, or the family's)")
    parser.add_argument("names", nargs="*", help=f"some of {sorted(GOLDEN)} (default: all)")
    args = parser.parse_args()
    names = args.names or sorted(GOLDEN)
    write([n for n in names if args.force or not (folder_of(n, args.to) / f"{n}.jsonl").exists()], args.to)


if __name__ == "__main__":
    main()
