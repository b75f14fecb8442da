"""The registry of playable games: name -> the GameModule that declares it (domain.game_module).

A game family is a package `domain/<family>/` whose `module.py` declares its games as
`GAMES = (...)`, a tuple of GameModule. The registry finds the families by that declaration,
in the packages' order, so a new one needs no line here (docs/adding-a-game.md).
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Sequence
from typing import Any

from domain.decider import IllegalMove
from domain.game_module import GameModule, Recorded

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


def end_event_of(records: Sequence[Recorded]) -> str | None:
    """The event with which the rules of the game `records` log end it (its module's
    `end_event`); None for a log without a GameCreated or of a game not registered."""
    return end_event(str(records[0].data.get("game"))) if records else None


def end_event(game: str) -> str | None:
    """The event with which `game`'s rules end it; None for a game not registered."""
    module = GAMES.get(game)
    return None if module is None else module.end_event


def rules_for(game: str) -> GameModule[Any]:
    """The rules of `game`; IllegalMove(unknown_game) when there is none."""
    try:
        return GAMES[game]
    except KeyError:
        known = sorted(GAMES)
        raise IllegalMove("unknown_game", f"unknown game {game!r}; known: {known}") from None


def _declares_games(name: str) -> bool:
    """Whether `name` (a module) declares GAMES, read from its source: importing a module that
    only shares the file name (domain/tournament/module.py) would import the registry back."""
    spec = importlib.util.find_spec(name)
    loader = getattr(spec, "loader", None)
    source = loader.get_source(name) if loader is not None and hasattr(loader, "get_source") else None
    return isinstance(source, str) and "\nGAMES = " in source


def _families() -> tuple[tuple[GameModule[Any], ...], ...]:
    """Each family's games, in the order of the packages' names."""
    package = importlib.import_module("domain")
    found = []
    for info in pkgutil.iter_modules(package.__path__):
        name = f"domain.{info.name}.module"
        if info.ispkg and _declares_games(name):
            found.append(tuple(importlib.import_module(name).GAMES))
    return tuple(found)


FAMILIES: tuple[tuple[GameModule[Any], ...], ...] = _families()

for _module in (module for family in FAMILIES for module in family):
    register_game(_module)
