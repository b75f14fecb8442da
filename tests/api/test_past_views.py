"""A replay's steps through a game: the state after each past version comes from the states kept
every few versions (service.past_states) and the steps in words are kept per viewer as the game
grows (service.replay_steps), and both answer exactly as reading the record afresh does, undos
included, in whatever order the versions are asked."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service import replay_steps
from service.api.context import EXTENSION
from service.games import GameService
from service.loading import fold_envelopes
from service.past_states import PastStates
from service.replay_steps import ReplaySteps, described
from tests.api.helpers import bearer, create_game, legal_commands, post, view
from tests.api.helpers import play as play_randomly

LATER = {"game": "kahuna", "options": {"edition": "thames-kosmos"}}  # K-9: turns undo freely


def played_with_undos(client: FlaskClient, run_worker: Callable[[], None]) -> dict[str, Any]:
    """A game of random commands, where now and then the seat to move places a bridge and undoes
    its turn, until some undos are on the record."""
    game = create_game(client, **LATER)
    rng, undos = random.Random(5), 0
    while undos < 4:
        target = view(client, game)["version"] + 9
        play_randomly(client, game, rng, run_worker, until=lambda v, target=target: v["version"] >= target)
        seat = view(client, game)["active"]
        placed = [c for c in legal_commands(client, game, seat)["commands"] if c["type"] == "PlaceBridge"]
        if placed and post(client, game, seat, placed[0]).status_code == 200:
            assert post(client, game, seat, {"type": "Undo", "scope": "turn"}).status_code == 200
            undos += 1
    return game


def test_the_state_after_each_past_version_is_the_fold_of_the_events_before_it(
    app: Flask, client: FlaskClient, run_worker: Callable[[], None]
) -> None:
    game = played_with_undos(client, run_worker)
    service: GameService = app.extensions[EXTENSION]
    service.past = PastStates(stride=4, kept=6)  # few kept: some asked for again are gone
    loaded = service.load(game["game_id"])
    assert any(e.type == "Undone" for e in loaded.envelopes), "the record holds undos"
    versions = list(range(1, loaded.version + 1)) * 2
    random.Random(1).shuffle(versions)
    for at in versions:
        assert service.past.state_at(loaded, at) == fold_envelopes(loaded.rules, loaded.envelopes[:at]), at
    for at in (1, 5, loaded.version // 2, loaded.version):
        answer = client.get(f"/games/{game['game_id']}?at={at}", headers=bearer(game["tokens"][0]))
        assert answer.status_code == 200
        shown = loaded.rules.view(fold_envelopes(loaded.rules, loaded.envelopes[:at]), 0)
        assert {k: answer.json[k] for k in shown} == shown


def test_each_viewers_steps_are_kept_and_extended_as_the_game_grows(
    app: Flask, client: FlaskClient, run_worker: Callable[[], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = create_game(client, **LATER)
    service: GameService = app.extensions[EXTENSION]
    service.steps = ReplaySteps(kept=2)
    read: list[int] = []  # the events each description of the kept steps read

    def counted(loaded: Any, viewer: Any, envelopes: Any) -> Any:
        read.append(len(envelopes))
        return described(loaded, viewer, envelopes)

    monkeypatch.setattr(replay_steps, "described", counted)
    rng = random.Random(8)
    for round_ in range(6):
        current = view(client, game)["version"]
        play_randomly(client, game, rng, run_worker, until=lambda v, n=current: v["version"] >= n + 7)
        loaded = service.load(game["game_id"])
        # Two viewers' steps are kept: seat 1's, asked every other round, push the spectator's
        # out, to be described afresh; seat 0's stay, extended round by round.
        for viewer in (None, 0, 1) if round_ % 2 else (0, None):
            read.clear()
            assert service.steps.of(loaded, viewer) == described(loaded, viewer, loaded.envelopes)
            if round_ and viewer == 0 and round_ % 2 == 0:  # kept since the round before
                assert read and read[0] < loaded.version - 7, "only the newer events are described"
    log = client.get(f"/replay/{game['game_id']}/log", headers=bearer(game["tokens"][0]))
    assert log.status_code == 200
    kept = service.steps.of(service.load(game["game_id"]), 0)
    assert all("index" not in step and "marks" not in step for step in kept), "the log marks copies"
