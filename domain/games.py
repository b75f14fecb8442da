"""The registry of playable games: name -> the GameModule that declares it (domain.core)."""

from __future__ import annotations

from typing import Any

from domain.core import GameModule, IllegalMove
from domain.islands.module import GAMES as ISLAND_GAMES
from domain.nanuuk.module import GAMES as NANUUK_GAMES
from domain.paradise.module import PARADISE

GAMES: dict[str, GameModule[Any]] = {}


def register_game(module: GameModule[Any]) -> GameModule[Any]:
    """Make `module` playable under its name; a name already taken by another module is refused."""
    known = GAMES.get(module.name)
    if known is not None and known is not module:
        raise ValueError(f"a game named {module.name!r} is registered already")
    GAMES[module.name] = module
    return module


def unregister_game(name: str) -> None:
    """Forget a game (for games registered only for a while, as tests do)."""
    GAMES.pop(name, None)


def rules_for(game: str) -> GameModule[Any]:
    """The rules of `game`; IllegalMove(unknown_game) when there is none."""
    try:
        return GAMES[game]
    except KeyError:
        known = sorted(GAMES)
        raise IllegalMove("unknown_game", f"unknown game {game!r}; known: {known}") from None


FAMILIES: tuple[tuple[GameModule[Any], ...], ...] = (ISLAND_GAMES, NANUUK_GAMES, (PARADISE,))

for _module in (module for family in FAMILIES for module in family):
    register_game(_module)
