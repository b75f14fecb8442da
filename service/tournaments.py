"""The application layer of tournaments: load a tournament's events, ask its rules, append what
they decide, and do the service's part: the lots, a game per table, results and time limits.

A tournament's stream is chained like a game's (record/); its games are ordinary games in
`tournament` mode whose setup names the tournament, round and table, with the id
`<tournament>-r<round>-t<table>`: opening a table's game again finds it opened, so a
retried follow-up never opens two games for one table.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import redis
from redis.cluster import RedisCluster

from domain.actor import ORGANIZER, SYSTEM, WORKER, Actor
from domain.decider import Command, Event
from domain.ending import result_end
from domain.tournament_rules import AI, CLOSED, State, Table, rules
from record.convert import to_event
from record.draws import entropy_log
from record.envelope import Envelope, EventStorePort, NewEvent
from service.chance import Dice, committed, deal_of, draw_source
from service.clock import iso_utc, utc_now
from service.computer_seats import must_act
from service.errors import ChainBroken, Conflict, PreconditionFailed, TournamentNotFound, VersionConflict
from service.forfeits import end_forfeited_game, forfeit_of, forfeits_since
from service.game_commands import CONFLICT_RETRIES
from service.games import GameService
from service.idempotency import command_id_for
from service.keys import SINGLE, TOURNAMENT, Layout, layout_of
from service.loaded import Loaded
from service.loading import chains_onto, first_bad
from service.pairing_ratings import with_ratings
from service.ratings_projection import RatingsProjection
from service.seats import organizer_key as game_organizer_key
from service.tournament_tokens import TournamentTokens, organizer_key
from service.tournaments_index import TournamentsIndex

AI_PLAYER = "ismcts"
"""The computer player of an AI entrant; the entrant's level sets its search budget."""
RECHECK_SECONDS = 60.0
"""As for games: how long a cached fold is caught up by its new events alone."""
Who = Actor | Callable[[State], Actor]
"""The actor of a command, or how to tell it from the state it is decided on (a newcomer's
entrant number depends on how many registered before it)."""


@dataclass(frozen=True)
class LoadedTournament:
    """A tournament folded from its events; `state` folds only those before a break."""

    tournament_id: str
    state: State
    envelopes: list[Envelope]
    broken: int | None = None

    @property
    def version(self) -> int:
        return len(self.envelopes)


@dataclass(frozen=True)
class TournamentExecuted:
    version: int
    envelopes: list[Envelope]
    duplicate: bool
    loaded: LoadedTournament


def fold_tournament(envelopes: Sequence[Envelope]) -> State:
    """The tournament after `envelopes`, from TournamentCreated on."""
    state = rules.initial_state(envelopes[0].data)
    for envelope in envelopes[1:]:
        state = rules.evolve(state, to_event(envelope))
    return state


def checked(tournament_id: str, envelopes: list[Envelope]) -> LoadedTournament:
    """The tournament from all its stored events, its chain checked first."""
    if not envelopes:
        raise TournamentNotFound(tournament_id)
    broken = first_bad(envelopes)
    if broken == 1:
        raise ChainBroken(tournament_id, 1)
    trusted = envelopes if broken is None else envelopes[: broken - 1]
    return LoadedTournament(tournament_id, fold_tournament(trusted), envelopes, broken)


def game_id_of(tournament_id: str, table: Table) -> str:
    return f"{tournament_id}-r{table.round}-t{table.index}"


def game_setup(tournament_id: str, state: State, table: Table) -> dict[str, Any]:
    """The setup of a table's game: its entrants in seat order, computer seats for AI entrants."""
    seats = []
    for entrant_id in table.seats:
        entrant = state.entrant(entrant_id)
        assert entrant is not None
        seat: dict[str, Any] = {"name": entrant.name}
        if entrant.kind == AI:
            seat.update(ai=AI_PLAYER, level=entrant.level)
        if entrant.public_key is not None:
            seat["public_key"] = dict(entrant.public_key)
        seats.append(seat)
    return {
        "game": state.settings.game,
        "options": dict(state.settings.options),
        "seats": seats,
        "first_seat": 0,
        "mode": "tournament",
        "tournament": {"id": tournament_id, "round": table.round, "table": table.index},
    }


def parse_at(text: str) -> datetime:
    """An envelope's `at` as an aware datetime."""
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)


class TournamentService:
    """Creates tournaments, runs their commands and plays the service's part in them."""

    def __init__(
        self,
        store: EventStorePort,
        client: redis.Redis | RedisCluster,
        games: GameService,
        dice: Dice | None = None,
        jobs: Any = None,
        cache_size: int = 64,
        monotonic: Callable[[], float] = time.monotonic,
        clock: Callable[[], datetime] = utc_now,
    ) -> None:
        self.store = store
        self.redis = client
        self.layout = layout_of(client)
        self.games = games
        self.tokens = TournamentTokens(client)
        self.dice = dice or Dice()
        self.jobs = jobs  # service.tournament_jobs.TournamentQueue: results, ratings, clocks
        # The tournaments listing, recorded after each append this service makes (/t, GET /tournaments).
        self.listings = TournamentsIndex(client)
        self._cache: OrderedDict[str, tuple[LoadedTournament, float]] = OrderedDict()
        self._cache_size = cache_size
        self._monotonic = monotonic
        self._clock = clock
        self._lock = threading.Lock()
        games.tournaments = self

    # --- creating and reading -----------------------------------------------------------

    def create(self, request: Mapping[str, Any]) -> tuple[str, int, str]:
        """TournamentCreated from the organizer's settings (IllegalMove when they are bad,
        nothing written); its id, version and the organizer's token, shown only once."""
        event = committed(rules.created(request), self.dice.fresh_seed())
        tournament_id = secrets.token_hex(8)
        self.store.append(tournament_id, 0, _envelopes([event], str(ORGANIZER), f"create-{tournament_id}"))
        token = self.tokens.issue_organizer(tournament_id)
        self.listings.record(self.load(tournament_id))
        return tournament_id, 1, token

    def load(self, tournament_id: str) -> LoadedTournament:
        """The tournament folded from its events, chain checked. A cached fold is caught up by
        its newer events while its whole chain was read less than RECHECK_SECONDS ago."""
        with self._lock:
            cached = self._cache.get(tournament_id)
        now = self._monotonic()
        loaded, checked_at = None, now
        if cached is not None and now - cached[1] < RECHECK_SECONDS:
            loaded, checked_at = self._caught_up(cached[0]), cached[1]
        if loaded is None:
            loaded = checked(tournament_id, self.store.read(tournament_id))
        with self._lock:
            if loaded.broken is None:
                self._cache[tournament_id] = (loaded, checked_at)
                self._cache.move_to_end(tournament_id)
                while len(self._cache) > self._cache_size:
                    self._cache.popitem(last=False)
            else:
                self._cache.pop(tournament_id, None)
        return loaded

    def _caught_up(self, loaded: LoadedTournament) -> LoadedTournament | None:
        """The cached fold with the newer events, or None when the store no longer agrees."""
        newest = loaded.envelopes[-1]
        read = self.store.read(loaded.tournament_id, after=newest.version - 1)
        if not read or read[0] != newest or not chains_onto(newest, read[1:]):
            return None
        state = loaded.state
        for envelope in read[1:]:
            state = rules.evolve(state, to_event(envelope))
        return LoadedTournament(loaded.tournament_id, state, [*loaded.envelopes, *read[1:]])

    # --- commanding -------------------------------------------------------------------

    def execute(
        self,
        tournament_id: str,
        actor: Who,
        body: Mapping[str, Any],
        expected_version: int | None = None,
        key: str | None = None,
    ) -> TournamentExecuted:
        """Run one command (a request body with its `type`); a repeated Idempotency-Key
        returns the first answer. `actor` is who sends it."""
        who = actor if isinstance(actor, Actor) else "newcomer"
        command_id = command_id_for(
            self.redis, idempotency_key(tournament_id, self.layout), str(who), body, key
        )
        return self.run(tournament_id, actor, body, command_id, expected_version)

    def run(
        self,
        tournament_id: str,
        actor: Who,
        body: Mapping[str, Any],
        command_id: str,
        expected_version: int | None = None,
    ) -> TournamentExecuted:
        """Decide `body` on the newest version and append its events under `command_id`; an
        earlier append under the same id is answered again, nothing written."""
        for _ in range(CONFLICT_RETRIES):
            loaded = self.load(tournament_id)
            if loaded.broken is not None:
                raise ChainBroken(tournament_id, loaded.broken)
            earlier = [e for e in loaded.envelopes if e.command_id == command_id]
            if earlier:
                return TournamentExecuted(earlier[-1].version, earlier, True, loaded)
            if expected_version is not None and expected_version != loaded.version:
                raise PreconditionFailed(
                    "version_mismatch",
                    f"If-Match names version {expected_version}, the tournament is at {loaded.version}",
                )
            who = actor if isinstance(actor, Actor) else actor(loaded.state)
            args = {k: v for k, v in body.items() if k != "type"}
            command = Command(str(body.get("type")), who.seat, args)
            events = rules.decide(loaded.state, command, who)
            try:
                result = self.store.append(
                    tournament_id, loaded.version, _envelopes(events, str(who), command_id)
                )
            except VersionConflict:
                if expected_version is not None:
                    raise
                continue
            after = self.follow_up(tournament_id, since=result.versions[0])
            written = after.envelopes[result.versions[0] - 1 : result.versions[-1]]
            return TournamentExecuted(result.versions[-1], written, result.duplicate, after)
        raise VersionConflict(tournament_id, loaded.version, self.store.version(tournament_id))

    # --- the service's part -------------------------------------------------------------

    def follow_up(self, tournament_id: str, since: int | None = None) -> LoadedTournament:
        """Draw the lots the tournament waits for and open a game for each table without one;
        enqueue the ratings when a rated result came in the events from version `since` on.
        The tournament after that."""
        loaded = self.load(tournament_id)
        since = loaded.version + 1 if since is None else since
        while loaded.broken is None:
            step = self._next_step(loaded)
            if step is None:
                break
            events, command_id = step
            try:
                self.store.append(tournament_id, loaded.version, _envelopes(events, str(SYSTEM), command_id))
            except VersionConflict:
                pass  # someone else moved it on: decide again on what is stored now
            loaded = self.load(tournament_id)
        if loaded.broken is None:
            self.listings.record(loaded)
            for forfeit in forfeits_since(loaded, since):
                end_forfeited_game(self.games, tournament_id, forfeit)
        if self.jobs is not None:
            self.jobs.after_append(loaded, since)
        return loaded

    def _next_step(self, loaded: LoadedTournament) -> tuple[list[Event], str] | None:
        state = loaded.state
        pending = rules.pending_system(state)
        if pending is not None:
            entropy = entropy_log(loaded.envelopes)
            source = draw_source(deal_of(loaded.envelopes[0]), entropy, loaded.version + 1)
            command = self.dice.command(pending, source)
            assert command is not None
            command = with_ratings(command, state, RatingsProjection(self.redis, self.store))
            return rules.decide(state, command, SYSTEM), f"lots-{loaded.version}"
        for table in state.round_tables(state.round):
            if table.game_id is None and table.result is None:
                game_id = self._open_game(loaded.tournament_id, state, table)
                args = {"table": table.index, "game_id": game_id}
                events = rules.decide(state, Command("AssignGame", None, args), SYSTEM)
                return events, f"assign-{table.round}-{table.index}"
        return None

    def _open_game(self, tournament_id: str, state: State, table: Table) -> str:
        """The table's game, created in tournament mode unless an earlier try did."""
        game_id = game_id_of(tournament_id, table)
        try:
            self.games.create(game_setup(tournament_id, state, table), game_id=game_id, capped=False)
        except VersionConflict:
            pass  # opened already; its AI seats were scheduled then
        # The tournament's organizer referees its games with the same token.
        # A read and a write, not COPY: on a cluster the two keys live in different slots.
        organizer = self.redis.get(organizer_key(tournament_id, self.layout))
        if organizer is not None:
            self.redis.set(game_organizer_key(game_id, self.layout), organizer)
        if self.jobs is not None:
            self.jobs.watch(game_id)
        return game_id

    def refuse_if_closed(self, game: Loaded) -> None:
        """Conflict (tournament_closed) when `game` belongs to a closed tournament: its record is
        final, so none of its games takes another command (a correction included)."""
        about = game.setup.get("tournament")
        if not isinstance(about, Mapping):
            return
        try:
            tournament = self.load(str(about["id"]))
        except TournamentNotFound:
            return
        if tournament.state.phase == CLOSED:
            raise Conflict(
                "tournament_closed",
                f"tournament {tournament.tournament_id} is closed: its games take no more commands",
            )

    def end_forfeit(self, game_id: str) -> bool:
        """Write the forfeit that decided `game_id` on the game, when it is not there yet (the
        sweep's catch-up of a follow-up that stopped halfway); False when nothing was written."""
        about = self.games.load(game_id).setup.get("tournament")
        if not isinstance(about, Mapping):
            return False
        tournament = self.load(str(about["id"]))
        forfeit = forfeit_of(tournament, game_id)
        if tournament.broken is not None or forfeit is None:
            return False
        return end_forfeited_game(self.games, tournament.tournament_id, forfeit)

    def game_ended(self, game: Loaded) -> None:
        """A game reached its end: its tournament's result is recorded by a job."""
        if self.jobs is not None and isinstance(game.setup.get("tournament"), Mapping):
            self.jobs.record_result(game.game_id)

    def record_result(self, game_id: str) -> bool:
        """Append RecordResult for an ended game of a tournament (its GameEnded data and that
        event's hash); False when there is nothing to record (not ended, recorded already)."""
        game = self.games.load(game_id)
        about = game.setup.get("tournament")
        # A result comes from the rules' own end (the module's end_event) or a resignation (GameResigned,
        # shaped alike); a forfeit brought its own.
        if game.broken is not None or not game.ended_with_result or not isinstance(about, Mapping):
            return False
        tournament_id = str(about["id"])
        table = self.load(tournament_id).state.table_of_game(game_id)
        if table is None or table.result is not None:
            return False
        end = result_end(game.envelopes, game.rules.end_event)
        assert end is not None  # ended_with_result
        body = {"type": "RecordResult", "game_id": game_id, "result": end.data, "final_hash": end.hash}
        return not self.run(tournament_id, WORKER, body, f"result-{game_id}").duplicate

    def enforce_time_limit(self, game_id: str) -> bool:
        """Forfeit the seat a tournament game waits for when it has waited longer than the move
        time limit (SeatForfeited with the clock facts); False when no one is out of time."""
        game = self.games.load(game_id)
        about = game.setup.get("tournament")
        if game.broken is not None or game.over or not isinstance(about, Mapping):
            return False
        loaded = self.load(str(about["id"]))
        limit = loaded.state.settings.move_time_limit
        table = loaded.state.table_of_game(game_id)
        if limit is None or table is None or table.result is not None:
            return False
        last = game.envelopes[-1]
        now = self._clock()
        waited = (now - parse_at(last.at)).total_seconds()
        waiting = [seat for seat in range(len(table.seats)) if must_act(game, seat)]
        if waited < limit or not waiting:
            return False
        clock = {"last_move_at": last.at, "now": iso_utc(now), "limit": limit, "waited": waited}
        body = {
            "type": "ForfeitSeat",
            "game_id": game_id,
            "seat": waiting[0],
            "reason": "timeout",
            "clock": clock,
        }
        command_id = f"timeout-{game_id}-{game.version}"
        return not self.run(loaded.tournament_id, WORKER, body, command_id).duplicate

    def decided(self, game_id: str) -> bool:
        """Whether the tournament has the result of `game_id` (or no longer knows the game)."""
        game = self.games.load(game_id)
        about = game.setup.get("tournament")
        if not isinstance(about, Mapping):
            return True
        table = self.load(str(about["id"])).state.table_of_game(game_id)
        return table is None or table.result is not None


def idempotency_key(tournament_id: str, layout: Layout = SINGLE) -> str:
    return layout.key(TOURNAMENT, tournament_id, "idempotency")


def _envelopes(events: Sequence[Event], actor: str, command_id: str) -> list[NewEvent]:
    return [NewEvent.recording(e, i, actor, command_id) for i, e in enumerate(events)]
