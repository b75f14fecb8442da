"""The registry of playable games: name -> the GameModule that declares it (domain.core)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.core import GameModule, IllegalMove, Recorded
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


FAMILIES: tuple[tuple[GameModule[Any], ...], ...] = (ISLAND_GAMES, NANUUK_GAMES, (PARADISE,))

for _module in (module for family in FAMILIES for module in family):
    register_game(_module)
