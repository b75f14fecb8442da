"""The live stream folds the events it brings through the service's fold cache (Loader.advanced):
the command that appended them folded them already, so its watchers fold nothing again."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service import loading
from service.api.context import EXTENSION
from service.games import GameService
from tests.api.helpers import create_game, post

DRAW = {"type": "DrawCard", "source": "stack"}


def _service(app: Flask) -> GameService:
    service: GameService = app.extensions[EXTENSION]
    return service


def _counted(monkeypatch: pytest.MonkeyPatch, name: str) -> list[object]:
    calls: list[object] = []
    real: Callable[..., Any] = getattr(loading, name)

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(loading, name, counting)
    return calls


def test_a_watcher_takes_the_fold_the_command_left_in_the_cache(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = create_game(client)
    service = _service(app)
    watched = service.load(game["game_id"])
    assert post(client, game, 0, DRAW).status_code == 200
    newest = service.load(game["game_id"])
    folds = _counted(monkeypatch, "extended")

    advanced = service.loader.advanced(watched, newest.envelopes[watched.version :])

    assert advanced is not None and folds == []
    assert advanced.state is newest.state and advanced.envelopes == newest.envelopes


def test_a_watcher_ahead_of_the_cache_folds_once_and_leaves_its_fold_there(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = create_game(client)
    service = _service(app)
    watched = service.load(game["game_id"])
    other = GameService(service.store, service.redis)  # another web worker appends the move
    other.execute(game["game_id"], 0, DRAW)
    newer = other.load(game["game_id"]).envelopes[watched.version :]
    folds = _counted(monkeypatch, "extended")

    first = service.loader.advanced(watched, newer)
    second = service.loader.advanced(watched, newer)

    assert first is not None and second is not None and len(folds) == 1
    assert second.state is first.state and second.version == watched.version + len(newer)
    assert service.load(game["game_id"]).state is first.state  # a later load catches up from it


def test_events_that_do_not_chain_onto_the_watched_ones_are_refused(app: Flask, client: FlaskClient) -> None:
    game = create_game(client)
    service = _service(app)
    watched = service.load(game["game_id"])
    assert post(client, game, 0, DRAW).status_code == 200
    newer = service.load(game["game_id"]).envelopes[watched.version :]
    forged = [dataclasses.replace(newer[0], prev_hash="0" * 64), *newer[1:]]

    assert service.loader.advanced(watched, forged) is None
    skipped = [dataclasses.replace(newer[0], version=newer[0].version + 1)]
    assert service.loader.advanced(watched, skipped) is None  # a gap: a version is missing
