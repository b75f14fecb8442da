"""The families that live in the tests (tests/families), registered by the test suite only: the
fixture `test_families` (tests/conftest.py) registers them for one test, and the registry-wide
tests parametrize over EVERY_GAME, the registry's games and these."""

from __future__ import annotations

from typing import Any

from domain.game_module import GameModule
from domain.games import GAMES, register_game, unregister_game
from replays.renderers import Renderer, register_renderer, unregister_renderer
from tests.families.hidden_nim.module import HIDDEN_NIM
from tests.families.hidden_nim.render import RENDERER as HIDDEN_NIM_RENDERER

FAMILIES: tuple[tuple[GameModule[Any], Renderer], ...] = ((HIDDEN_NIM, HIDDEN_NIM_RENDERER),)
TEST_GAMES = tuple(module.name for module, _ in FAMILIES)
EVERY_GAME = sorted({*GAMES, *TEST_GAMES})
"""Every game a registry-wide test plays: the registered ones and the test families'."""
EVERY_MODULE: dict[str, GameModule[Any]] = {**GAMES, **{module.name: module for module, _ in FAMILIES}}
"""Their modules by name, for a test's parameters (collected before any fixture registers)."""


def register() -> None:
    """Register every test family and its renderer."""
    for module, renderer in FAMILIES:
        register_game(module)
        register_renderer(renderer)


def unregister() -> None:
    """Forget them again."""
    for module, renderer in FAMILIES:
        unregister_game(module.name)
        unregister_renderer(renderer.kind)
