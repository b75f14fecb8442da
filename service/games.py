"""The application layer: load a game's events, ask the rules, append what they decide.

GameService is the one door the rest of the service goes through; the work is in the rooms
named for it: service.loading (the store read, the chain checked, the fold cache),
service.verifying (the audit), service.idempotency, service.game_creation,
service.game_commands and service.game_system (the chance, the scoring, the follow-ups).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

import redis
from redis.cluster import RedisCluster

from record.envelope import AppendResult, EventStorePort
from service import game_commands, game_creation, game_system
from service.archived_games import ArchivedGames
from service.chance import Dice
from service.game_commands import Executed
from service.game_creation import Created
from service.games_index import GamesIndex
from service.keys import layout_of
from service.loaded import Loaded
from service.loading import (
    RECHECK_SECONDS,
    Loader,
)
from service.past_states import PastStates
from service.replay_steps import ReplaySteps
from service.seats import SeatTokens
from service.verifying import Verified, verify


class GameService:
    """Creates games and runs commands; every change is an append with the version it read."""

    def __init__(
        self,
        store: EventStorePort,
        client: redis.Redis | RedisCluster,
        scoring: Any = None,
        cache_size: int = 256,
        ai: Any = None,
        dice: Dice | None = None,
        clock: Callable[[], float] = time.monotonic,
        recheck_seconds: float = RECHECK_SECONDS,
    ) -> None:
        self.store = store
        self.redis = client
        self.layout = layout_of(client)
        self.tokens = SeatTokens(client)
        self.scoring = scoring
        # service.tournaments.TournamentService, when tournaments are served: it records
        # the results of the games it opened.
        self.tournaments: Any = None
        # service.move_clock.MoveClock: watches the games created with a time per move.
        self.move_clock: Any = None
        self.ai = ai  # service.queues.AiQueue: computer seats' moves and the analysis
        # The games listing, recorded after each append this service makes (the lobby, GET /games).
        self.listings = GamesIndex(client)
        # Imported games take no command; asked of Redis once per game in play.
        self.archived = ArchivedGames(client, self.layout)
        self.dice = dice or Dice()
        self.loader = Loader(store, cache_size, clock, recheck_seconds)
        # The states replays step through (GET /games/{id}?at=N, /replay/{id}/frame).
        self.past = PastStates()
        # Each viewer's steps in words (the logs of the play page and the replays).
        self.steps = ReplaySteps()

    # --- creating -------------------------------------------------------------------

    def create(
        self,
        setup: Mapping[str, Any],
        client: str | None = None,
        game_id: str | None = None,
        capped: bool = True,
    ) -> Created:
        """A new game: GameCreated and the first deal in one append, plus one token per seat.

        `client` (the creator's address) counts the game under the caps on open games with
        computer seats (service.ai_games), which may refuse it before anything is written;
        a tournament's games (`capped` False) are the organizer's, not a visitor's, and do
        not count. A given `game_id` that holds a game already: VersionConflict, nothing
        written (a tournament's retry of a table's game)."""
        return game_creation.create(self, setup, client, game_id, capped)

    # --- reading --------------------------------------------------------------------

    def load(self, game_id: str, upto: int | None = None, fresh: bool = False) -> Loaded:
        """The game folded from its events (all, or up to version `upto`), chain checked.

        `fresh` reads every event from the store even when a fold is cached (an export,
        which must show what is stored). A game whose chain breaks is never cached, so
        every later load reads (and checks) the store again.
        """
        return self.loader.load(game_id, upto, fresh)

    def after_append(self, loaded: Loaded, result: AppendResult) -> Loaded:
        """The game after `result`, an append onto `loaded`: the events it wrote folded onto
        `loaded` without reading them back (the fold cache keeps it for the next load); a load
        from the store when it wrote none (a recognised retry)."""
        after = self.loader.advanced(loaded, result.written) if result.written else None
        return after if after is not None else self.load(loaded.game_id)

    def verify(self, game_id: str) -> Verified:
        """The hash chain of every stored event, read from the store, never from the cache."""
        return verify(self.loader, game_id)

    def forget(self, game_id: str) -> None:
        """Drop the game's cached fold: the next load reads the store from version 1."""
        self.loader.forget(game_id)

    # --- commanding -----------------------------------------------------------------

    def execute(
        self,
        game_id: str,
        seat: int,
        body: Mapping[str, Any],
        expected_version: int | None = None,
        key: str | None = None,
        signature: str | None = None,
    ) -> Executed:
        """Run one seat's command; a repeated Idempotency-Key returns the first answer.

        Undo, RequestTakeback and AnswerTakeback are seat commands too, decided by the
        undo policy over the recorded history instead of by the rules over the state; so are
        Resign and Abort (domain/resign.py). A seat that holds a key (record.seat_keys) signs
        each command: `signature`, over the game, `expected_version` and the command.
        """
        return game_commands.execute(self, game_id, seat, body, expected_version, key, signature)

    def take_seat(self, game_id: str, seat: int, name: str) -> tuple[Executed, str]:
        """Take the open `seat` under `name` (SeatTaken) and issue its token; GameNotFound or
        404 seat_not_found for a seat the game does not have, 409 seat_not_open for one it
        created with a player or that someone took first."""
        return game_commands.take_seat(self, game_id, seat, name)

    def correct(
        self,
        game_id: str,
        to_version: int,
        reason: str,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Executed:
        """The organizer's correction of a tournament game: Corrected, with the reason."""
        return game_commands.correct(self, game_id, to_version, reason, expected_version, key)

    # --- the system's part ------------------------------------------------------------

    def follow_up(self, loaded: Loaded) -> None:
        """Start what the game now waits for: a shuffle at once, a scoring or AI moves on the worker."""
        game_system.follow_up(self, loaded)

    def appended(self, game_id: str) -> None:
        """List the game as it now is and enqueue the moves of computer seats the newest version
        waits for (and the analysis)."""
        game_system.appended(self, game_id)

    def score_round(self, game_id: str, round_: int) -> bool:
        """Append the scoring of `round_` (and the next deal); False when it is not due."""
        return game_system.score_round(self, game_id, round_)
