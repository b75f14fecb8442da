"""A tournament's forfeit written on the game it ends (GameForfeited, domain/ending.py).

The tournament decides a forfeit on its own stream (SeatForfeited: a timeout, a no-show, a
withdrawal); the game the seat was playing then gets GameForfeited as its last event, so it
refuses every later command and its computer seats stop. The append names the tournament's
event in its command id and is skipped once the game has ended, so a retry writes nothing
twice; the sweep of the tournament's games writes it when the first try did not.
"""

from __future__ import annotations

from typing import Any

from domain.actor import SYSTEM
from domain.decider import Command
from domain.ending import FORFEIT, game_forfeited
from record.commands import recorded, with_command
from record.envelope import Envelope, NewEvent
from service.errors import VersionConflict
from service.game_commands import CONFLICT_RETRIES

SEAT_FORFEITED = "SeatForfeited"


def forfeits_since(tournament: Any, since: int) -> list[Envelope]:
    """The SeatForfeited events of a loaded tournament from version `since` on."""
    return [e for e in tournament.envelopes[max(since, 1) - 1 :] if e.type == SEAT_FORFEITED]


def forfeit_of(tournament: Any, game_id: str) -> Envelope | None:
    """The SeatForfeited that gave `game_id` its result, if a forfeit did (a later correction
    changes the result, not the fact that the game stopped there)."""
    return next(
        (
            e
            for e in reversed(tournament.envelopes)
            if e.type == SEAT_FORFEITED and e.data.get("game_id") == game_id
        ),
        None,
    )


def end_forfeited_game(games: Any, tournament_id: str, forfeit: Envelope) -> bool:
    """Append GameForfeited to the game `forfeit` names; False when the game has ended already
    (by its rules, or by this forfeit on an earlier try) or its chain is broken."""
    game_id = str(forfeit.data["game_id"])
    args: dict[str, Any] = {
        "seat": int(forfeit.data["seat"]),
        "reason": str(forfeit.data["reason"]),
        "tournament": tournament_id,
        "tournament_version": forfeit.version,
    }
    event = game_forfeited(args["seat"], args["reason"], tournament_id, forfeit.version)
    new = [NewEvent.recording(event, 0, str(SYSTEM), f"forfeit-{tournament_id}-{forfeit.version}")]
    # Recorded as the system's command, so the referee replay knows the event for what it is.
    batch = with_command(new, recorded(Command(FORFEIT, None, args), [event]))
    for _ in range(CONFLICT_RETRIES):
        loaded = games.load(game_id)
        if loaded.broken is not None or loaded.over:
            return False
        try:
            games.store.append(game_id, loaded.version, batch)
        except VersionConflict:
            continue  # a move came first: forfeit the game as it now stands
        games.appended(game_id)
        return True
    return False
