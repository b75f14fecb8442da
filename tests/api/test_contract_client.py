"""A client generated from the served document (openapi-python-client, offline, into a temporary
directory) plays a whole game of every registered game through its typed models only: the
unions of views, commands and events parse every answer into a model of its own type."""

from __future__ import annotations

import importlib
import json
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
from flask import Flask

from domain.games import GAMES
from service.api.game_components import camel
from tests.families.registered import TEST_GAMES

PACKAGE = "archipelago_client"
# The generator types only the media types it knows; the client reads these answers as text.
CONFIG = {
    "project_name_override": "archipelago-client",
    "package_name_override": PACKAGE,
    "post_hooks": [],
    "content_type_overrides": {"application/x-ndjson": "text/plain"},
}
MAX_COMMANDS = 2000
SHORT = {"conquest-of-paradise": {"last_turn": 2}}
"""Options that end a game within MAX_COMMANDS: random play of Conquest of Paradise runs to
its victory target only after thousands of commands (about 60 to the end of turn 2)."""


@pytest.fixture
def generated(app: Flask, tmp_path: Path) -> Iterator[ModuleType]:
    """The client package generated from this app's /openapi.json, importable while the test runs."""
    (tmp_path / "openapi.json").write_text(json.dumps(app.test_client().get("/openapi.json").json))
    (tmp_path / "config.json").write_text(json.dumps(CONFIG))
    command = [
        str(Path(sys.executable).with_name("openapi-python-client")),
        "generate",
        "--path",
        str(tmp_path / "openapi.json"),
        "--output-path",
        str(tmp_path / PACKAGE),
        "--meta",
        "none",
        "--config",
        str(tmp_path / "config.json"),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def part(package: ModuleType, name: str) -> Any:
    return importlib.import_module(f"{PACKAGE}.{name}")


@pytest.mark.usefixtures("test_families")  # the families that live in the tests play too
def test_a_generated_client_plays_every_registered_game_through_its_typed_models(
    app: Flask, generated: ModuleType, run_worker: Callable[[], None]
) -> None:
    assert set(TEST_GAMES) <= set(GAMES)
    for name in sorted(GAMES):
        ended, log = play(app, generated, name, random.Random(name), run_worker)

        models = part(generated, "models")
        assert isinstance(ended, getattr(models, f"{camel(name)}View")), name
        assert ended.phase.value == "ended", name
        kinds = {type(event).__name__ for event in log.events}
        assert {"GameCreatedEvent", f"{GAMES[name].end_event}Event"} <= kinds, (name, kinds)
        assert "GenericEvent" not in kinds and not any(isinstance(e, dict) for e in log.events)
        streamed = stream(app, generated, ended.game_id)
        assert [e.to_dict() for e in streamed] == [e.to_dict() for e in log.events], name


def stream(app: Flask, client: ModuleType, game_id: str) -> list[Any]:
    """The ended game's stream read through the generated client: its text (the client must not
    throw on it), each message a GameStreamItem, each `data:` the Event model of its type."""
    models = part(client, "models")
    transport = {"transport": httpx.WSGITransport(app=app)}
    anyone = client.Client(base_url="http://archipelago.test", httpx_args=transport)
    text = importlib.import_module(f"{PACKAGE}.api.games.get_games_game_id_stream").sync(
        game_id, client=anyone
    )
    assert isinstance(text, str), text
    events = []
    for block in text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if line and not line.startswith(":"))
        if not fields:
            continue
        item = models.GameStreamItem.from_dict(fields)
        data = json.loads(item.data)
        events.append(getattr(models, f"{data['type']}Event").from_dict(data))
    return events


def play(
    app: Flask, client: ModuleType, name: str, rng: random.Random, run_worker: Callable[[], None]
) -> tuple[Any, Any]:
    """A whole game of `name`, random legal commands, every body a model of the client."""
    models = part(client, "models")
    api = part(client, "api.games")
    transport = {"transport": httpx.WSGITransport(app=app)}
    anyone = client.Client(base_url="http://archipelago.test", httpx_args=transport)
    create = getattr(models, f"Create{camel(name)}Game")
    rules = GAMES[name]
    body = create(
        game=getattr(models, f"Create{camel(name)}GameGame")(name),
        seats=[models.SeatRequest(name=f"P{n}") for n in range(rules.max_seats)],
        first_seat=0,
        options=getattr(models, f"{camel(name)}Options").from_dict(SHORT.get(name, {})),
    )
    created = importlib.import_module(f"{api.__name__}.post_games").sync(client=anyone, body=body)
    assert isinstance(created, models.Created), created
    seats = [
        client.AuthenticatedClient(base_url="http://archipelago.test", token=s.token, httpx_args=transport)
        for s in created.seats
    ]
    view_of = importlib.import_module(f"{api.__name__}.get_games_game_id").sync
    legal_of = importlib.import_module(f"{api.__name__}.get_games_game_id_legal").sync
    command = importlib.import_module(f"{api.__name__}.post_games_game_id_commands").sync
    for _ in range(MAX_COMMANDS):
        view = view_of(created.game_id, client=anyone)
        if view.phase.value == "ended":
            break
        moved = False
        for seat in seats:
            legal = legal_of(created.game_id, client=seat)
            assert isinstance(legal, models.Legal), legal
            if legal.commands:
                executed = command(created.game_id, client=seat, body=rng.choice(legal.commands))
                assert isinstance(executed, models.Executed), executed
                moved = True
                break
        if not moved:
            run_worker()  # the round waits for its scoring
    else:
        raise AssertionError(f"{name} did not end within {MAX_COMMANDS} commands")
    log = importlib.import_module(f"{api.__name__}.get_games_game_id_events").sync(
        created.game_id, client=anyone
    )
    assert isinstance(log, models.Events), log
    return view, log
