"""ARCHIPELAGO_GAME_PLUGINS: the web app and the worker register games from outside domain/ at
start, as the browser test of a family that lives in the tests runs its service."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from domain.games import GAMES
from service.app import create_app
from service.embedded_redis import EmbeddedRedis
from service.game_plugins import VARIABLE, load_game_plugins
from tests.families.registered import TEST_GAMES, unregister

REGISTER = "tests.families.registered:register"


@pytest.fixture
def forgotten() -> Iterator[None]:
    """Whatever a test registers is forgotten after it."""
    yield
    unregister()


@pytest.mark.usefixtures("forgotten")
def test_the_named_callables_register_their_games() -> None:
    assert not set(TEST_GAMES) & set(GAMES)
    assert load_game_plugins({VARIABLE: f" {REGISTER} ,"}) == [REGISTER]
    assert set(TEST_GAMES) <= set(GAMES)


@pytest.mark.usefixtures("forgotten")
def test_the_web_app_loads_them_before_it_serves(
    monkeypatch: pytest.MonkeyPatch, redis_server: EmbeddedRedis
) -> None:
    monkeypatch.setenv(VARIABLE, REGISTER)
    app = create_app({"TESTING": True, "REDIS_URL": redis_server.url, "RQ_REDIS_URL": redis_server.url})
    assert set(TEST_GAMES) <= set(GAMES)
    assert app.test_client().get(f"/rules/{TEST_GAMES[0]}").status_code == 200


def test_nothing_is_loaded_without_the_variable() -> None:
    assert load_game_plugins({}) == [] and not set(TEST_GAMES) & set(GAMES)


@pytest.mark.parametrize("spec", ["tests.families.registered", "tests.no_such_module:register", "os:no_such"])
def test_a_name_that_does_not_load_stops_the_start(spec: str) -> None:
    with pytest.raises((ValueError, ImportError, AttributeError)):
        load_game_plugins({VARIABLE: spec})
