"""A casual game's time per move: the setup's `move_time` (seconds), run by the worker's sweep.

The clock of a seat starts with the game's newest event (a move, a seat taken, a chance draw)
and runs only while the table is full and the game waits for that seat; a seat that waits
longer than `move_time` loses the game by GameForfeited{reason: timeout} (domain/ending.py).
As for a tournament's move time limit (service.tournament_jobs), the sweep is the clock: a
timed game is listed in a set from its creation until it ends, and each pass checks it. The
append names the version it forfeits at in its command id, so a second pass writes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from domain.actor import SYSTEM
from domain.decider import Command
from domain.ending import FORFEIT, game_timed_out
from record.commands import recorded, with_command
from record.envelope import NewEvent
from record.open_seats import open_seats
from service.clock import iso_utc, utc_now
from service.computer_seats import ai_seats, must_act
from service.errors import VersionConflict
from service.game_commands import CONFLICT_RETRIES
from service.games import GameService
from service.loaded import Loaded
from service.sweeper import each_game

MIN_MOVE_TIME = 30
MAX_MOVE_TIME = 7 * 24 * 3600
"""Bounds of `move_time`: long enough for a click across a slow network, short of a week."""
TIMED = "games:timed"
"""Set of the ids of casual games with a time per move that have not ended."""


def move_time(setup: Mapping[str, Any]) -> int | None:
    """The seconds a seat may take over one move, or None for a game without a clock."""
    value = setup.get("move_time")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


@dataclass(frozen=True)
class Deadline:
    """When the seats the game waits for run out of time."""

    seats: list[int]
    at: datetime

    def to_json(self, seconds: int) -> dict[str, Any]:
        return {"move_time": seconds, "seats": self.seats, "deadline": iso_utc(self.at)}


def deadline(loaded: Loaded) -> Deadline | None:
    """The running clock of a timed game: the persons it waits for and when their time is up;
    None without a clock, before the table is full, once it has ended, or while only the
    computer or the system is to act."""
    seconds = move_time(loaded.setup)
    if seconds is None or loaded.broken is not None or loaded.over or open_seats(loaded.envelopes):
        return None
    computers = ai_seats(loaded.setup)
    seats = [
        n for n in range(len(loaded.setup.get("seats", ()))) if n not in computers and must_act(loaded, n)
    ]
    if not seats:
        return None
    since = datetime.strptime(loaded.envelopes[-1].at, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    return Deadline(seats, since + timedelta(seconds=seconds))


def clock_view(loaded: Loaded) -> dict[str, Any] | None:
    """The game view's `move_clock`: the time per move, who must move and by when (null when no
    clock runs)."""
    seconds, running = move_time(loaded.setup), deadline(loaded)
    return None if seconds is None or running is None else running.to_json(seconds)


class MoveClock:
    """Watches the timed games of `games` and forfeits the seat that let its time run out."""

    def __init__(self, games: GameService, clock: Callable[[], datetime] = utc_now) -> None:
        self.games = games
        self.redis = games.redis
        self._clock = clock
        games.move_clock = self

    def watch(self, game_id: str, setup: Mapping[str, Any]) -> None:
        """List a new game for the sweep when its setup sets a time per move."""
        if move_time(setup) is not None:
            self.redis.sadd(TIMED, game_id)

    def sweep(self, service: Any = None) -> int:
        """One pass over the timed games; the number of seats forfeited."""
        return each_game(self.redis, TIMED, self.enforce, "move clock")  # type: ignore[arg-type]

    def enforce(self, game_id: str) -> int:
        """Forfeit the seat `game_id` waits for once its time is up (1), else 0; a game that has
        ended (or whose record is broken) is let go."""
        for _ in range(CONFLICT_RETRIES):
            loaded = self.games.load(game_id)
            if loaded.broken is not None or loaded.over:
                self.redis.srem(TIMED, game_id)
                return 0
            running, seconds = deadline(loaded), move_time(loaded.setup)
            if running is None or seconds is None or self._clock() < running.at:
                return 0
            event = game_timed_out(running.seats[0], seconds)
            new = [NewEvent.recording(event, 0, str(SYSTEM), f"timeout-{game_id}-{loaded.version}")]
            args = dict(event.data)
            batch = with_command(new, recorded(Command(FORFEIT, None, args), [event]))
            try:
                self.games.store.append(game_id, loaded.version, batch)
            except VersionConflict:
                continue  # a move came first: the clock starts again from it
            self.redis.srem(TIMED, game_id)
            self.games.appended(game_id)
            return 1
        return 0
