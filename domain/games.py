"""The registry of playable games: name -> rules module honouring domain.core.Decider."""

from __future__ import annotations

from typing import Any

from domain.core import IllegalMove
from domain.islands import engine

GAMES: dict[str, Any] = {
    "kahuna": engine,
    "arabana-ikibiti": engine,
    "arabana-opodopo": engine,
}


def rules_for(game: str) -> Any:
    """The rules of `game`; IllegalMove(unknown_game) when there is none."""
    try:
        return GAMES[game]
    except KeyError:
        known = sorted(GAMES)
        raise IllegalMove("unknown_game", f"unknown game {game!r}; known: {known}") from None
