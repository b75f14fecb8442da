"""How a game's log ends: the one rule every reader applies (the service, the undo policy, the
bundle and the audit).

A game ends with the rules' own end, the event its module declares (`GameModule.end_event`),
or with one of the platform's ends, which the rules do not decide: `GameForfeited`, which the
service appends when a tournament forfeits a seat of a game still in play (a timeout, a no-show,
a withdrawal) or when a seat of a casual game with a time per move let it run out,
`GameResigned` (a seat gave up: the others win; shaped as the rules' end) and `GameAborted`
(called off before the second seat moved: no result).
The last two come from seat commands decided by domain/resign.py. Nothing is appended after any
of them: the game refuses every later command. The rules' `evolve` knows none of the platform's
ends and leaves the state as it was, so the board stays as the last move left it; readers that
ask "is it over?" ask `ending`, not the state alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from domain.decider import Event
from domain.game_module import Recorded

R = TypeVar("R", bound=Recorded)

GAME_FORFEITED = "GameForfeited"
FORFEIT = "Forfeit"
"""The system's command that appends GameForfeited, as the log records it."""
GAME_RESIGNED = "GameResigned"
GAME_ABORTED = "GameAborted"
PLATFORM_ENDINGS = frozenset({GAME_FORFEITED, GAME_RESIGNED, GAME_ABORTED})
"""The ends the rules' state does not show (their `evolve` ignores them)."""


def endings(end_event: str | None) -> frozenset[str]:
    """Every event that ends a game whose rules end it with `end_event` (None: a game no longer
    registered, whose log only the platform's ends are read from)."""
    return PLATFORM_ENDINGS if end_event is None else frozenset({end_event, *PLATFORM_ENDINGS})


def result_endings(end_event: str | None) -> frozenset[str]:
    """The ends that carry the result a tournament records: the rules' and a resignation (shaped
    as the rules' end); a forfeit brings its own result and an abort has none."""
    return frozenset({GAME_RESIGNED} if end_event is None else {end_event, GAME_RESIGNED})


def ending(records: Sequence[R], end_event: str | None) -> R | None:
    """The event that ended the game (the last ending one), or None while it is in play;
    `end_event` is the rules' end, as the game's module declares it."""
    ends = endings(end_event)
    return next((record for record in reversed(records) if record.type in ends), None)


def result_end(records: Sequence[R], end_event: str | None) -> R | None:
    """The event whose data is the game's result (the rules' end or GameResigned), or None: in
    play, forfeited or aborted."""
    end = ending(records, end_event)
    return end if end is not None and end.type in result_endings(end_event) else None


def platform_end(records: Sequence[R]) -> R | None:
    """The forfeit, resignation or abort that ended the game, or None (in play, or ended by its
    rules): nothing is appended after any end, so the last platform end is the end."""
    return next((record for record in reversed(records) if record.type in PLATFORM_ENDINGS), None)


def forfeit(records: Sequence[Recorded]) -> Recorded | None:
    """The GameForfeited that ended the game, or None when it was not forfeited."""
    end = platform_end(records)
    return end if end is not None and end.type == GAME_FORFEITED else None


def game_forfeited(seat: int, reason: str, tournament_id: str, tournament_version: int) -> Event:
    """The end of a game whose seat its tournament forfeited; `tournament_version` is the version
    of the tournament's SeatForfeited, so either stream leads to the other."""
    data = {
        "seat": seat,
        "reason": reason,
        "tournament": tournament_id,
        "tournament_version": tournament_version,
    }
    return Event(GAME_FORFEITED, data)


def game_timed_out(seat: int, move_time: int) -> Event:
    """The end of a casual game whose `seat` took longer than the setup's `move_time` seconds
    over one move (no tournament stands behind it: the game's own setup set the clock)."""
    return Event(GAME_FORFEITED, {"seat": seat, "reason": "timeout", "move_time": move_time})
