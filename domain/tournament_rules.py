"""The tournament aggregate's public face: what the service, the replays and the pages use.

Code outside domain/ reaches the tournament package (domain/tournament/) only through this
module, as it reaches a game only through `domain.games`, so the package's inner modules can
change shape freely.
"""

from __future__ import annotations

from domain.tournament import module as rules
from domain.tournament.entrants import AI_LEVELS, PLAYER_ID, entrant_id
from domain.tournament.points import read_game_end, score_game
from domain.tournament.settings import SWISS
from domain.tournament.standings import standings
from domain.tournament.state import AI, CLOSED, REGISTRATION, RUNNING, State, Table

__all__ = [
    "AI",
    "AI_LEVELS",
    "CLOSED",
    "PLAYER_ID",
    "REGISTRATION",
    "RUNNING",
    "SWISS",
    "State",
    "Table",
    "entrant_id",
    "read_game_end",
    "rules",
    "score_game",
    "standings",
]
