"""The families that live in the tests (tests/families), registered by the test suite only: the
fixture `test_families` (tests/conftest.py) registers them for one test, and the registry-wide
tests parametrize over EVERY_GAME, the registry's games and these."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tests.families.hidden_nim
from domain.game_module import GameModule
from domain.games import GAMES, register_game, unregister_game
from replays.renderers import Renderer, register_renderer, unregister_renderer
from tests.families.hidden_nim.module import HIDDEN_NIM
from tests.families.hidden_nim.render import RENDERER as HIDDEN_NIM_RENDERER


@dataclass(frozen=True)
class Family:
    """A family that lives in the tests: its game, its renderer and its folder (where its golden
    games are kept, in `golden/`)."""

    module: GameModule[Any]
    renderer: Renderer
    folder: Path

    @property
    def golden(self) -> Path:
        return self.folder / "golden"


FAMILIES: tuple[Family, ...] = (
    Family(HIDDEN_NIM, HIDDEN_NIM_RENDERER, Path(tests.families.hidden_nim.__file__).parent),
)
TEST_GAMES = tuple(family.module.name for family in FAMILIES)
EVERY_GAME = sorted({*GAMES, *TEST_GAMES})
"""Every game a registry-wide test plays: the registered ones and the test families'."""
EVERY_MODULE: dict[str, GameModule[Any]] = {
    **GAMES,
    **{family.module.name: family.module for family in FAMILIES},
}
"""Their modules by name, for a test's parameters (collected before any fixture registers)."""


def register() -> None:
    """Register every test family and its renderer."""
    for family in FAMILIES:
        register_game(family.module)
        register_renderer(family.renderer)


def unregister() -> None:
    """Forget them again."""
    for family in FAMILIES:
        unregister_game(family.module.name)
        unregister_renderer(family.renderer.kind)
