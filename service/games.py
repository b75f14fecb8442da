"""The application layer: load a game's events, ask the rules, append what they decide."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import redis
from redis.cluster import RedisCluster

from domain import resign, undo
from domain.actor import ORGANIZER as ORGANIZER_ACTOR
from domain.actor import SYSTEM, WORKER, Actor
from domain.decider import Command, Event, IllegalMove, fold
from domain.ending import GAME_RESIGNED, platform_end
from domain.game_module import GameModule
from domain.games import rules_for
from domain.history import fold_history, rewind_target
from domain.turns import Score
from record.chain import verify_chain
from record.commands import recorded, with_command
from record.convert import to_event
from record.deal import DealReport, check_deal
from record.draws import FIRST_SEAT_DRAW, SCHEME, DrawStream, commitment, creator_entropy
from record.envelope import Envelope, EventStorePort, NewEvent
from record.open_seats import OPEN_NAME
from record.referee import Refereed, referee
from record.seat_keys import INVALID_KEY, SIGNATURE_HEADER, command_signature_fault, public_key, seat_keys
from service.chance import Deal, Dice, committed, deal_of, draw_source
from service.entropy import ADD_ENTROPY, entropy_events
from service.errors import (
    ChainBroken,
    ChainTruncated,
    Conflict,
    Forbidden,
    GameNotFound,
    IdempotencyMismatch,
    PreconditionFailed,
    PreconditionRequired,
    SeatNotFound,
    VersionConflict,
)
from service.games_index import GamesIndex
from service.keys import GAME, SINGLE, Layout, layout_of
from service.open_seats import TAKE_SEAT, refuse_while_open, seat_events
from service.seat_keys import REGISTER_KEY, key_events
from service.seats import SeatTokens
from service.store import archive_key

CONFLICT_RETRIES = 5
MAX_SYSTEM_DRAWS = 256
"""Draws in a row with no seat's move between them; a longest battle has far fewer."""
RECHECK_SECONDS = 60.0
"""How long a cached fold is caught up by its new events alone; after that, the next load
reads and checks the game's whole chain again (and keeps the fold if nothing changed), so an
older event changed in Redis is noticed within this time even in a game watched all along."""
ORGANIZER = str(ORGANIZER_ACTOR)
"""The actor of what the organizer appends: the game's creation and corrections."""
CORRECT = "Correct"

Step = tuple[Command | None, Sequence[Event]]
"""A command and the events it caused, in the order they are appended; None for the events
no command caused (GameCreated: the setup the rules start from)."""


@dataclass(frozen=True)
class Loaded:
    """A game folded up to `version`, with the events that led there.

    When the stored chain breaks at `broken`, `envelopes` still holds every stored event
    (they are the evidence) but `state` folds only the ones before the break: a changed
    event must not move the game, nor open its secrets by faking its end.
    """

    game_id: str
    rules: Any
    state: Any
    envelopes: list[Envelope]
    broken: int | None = None

    @property
    def version(self) -> int:
        return len(self.envelopes)

    @property
    def trusted(self) -> list[Envelope]:
        """The events the state was folded from: all of them, or those before the break."""
        return self.envelopes if self.broken is None else self.envelopes[: self.broken - 1]

    @property
    def setup(self) -> dict[str, Any]:
        return self.envelopes[0].data

    @property
    def over(self) -> bool:
        """Whether the game has ended: by its rules, or by a forfeit, a resignation or an abort
        (domain/ending.py)."""
        return bool(self.rules.is_terminal(self.state)) or platform_end(self.trusted) is not None

    @property
    def ended_with_result(self) -> bool:
        """Whether the game ended by its rules or by a resignation: a result a tournament records
        (a forfeit brought its own, an abort has none)."""
        end = platform_end(self.trusted)
        return bool(self.rules.is_terminal(self.state)) if end is None else end.type == GAME_RESIGNED

    @property
    def result(self) -> Any:
        """The game's result once it has one: the rules' own, or a resignation's; else None."""
        end = platform_end(self.trusted)
        if end is not None:
            return resign.result(end)
        return self.rules.result(self.state) if self.over else None

    @property
    def revealed(self) -> bool:
        """After the end the whole log is open, unless the game was created otherwise."""
        return self.over and bool(self.setup.get("reveal_after_end", True))

    @property
    def takeback(self) -> undo.Takeback | None:
        """The takeback request waiting for its answers, if any (lapsed ones are not)."""
        return undo.pending_takeback(self.trusted)


@dataclass(frozen=True)
class Created:
    game_id: str
    version: int
    tokens: list[str | None]  # None for a computer seat and an open one
    organizer_token: str | None = field(default=None, repr=False)


@dataclass(frozen=True)
class Verified:
    """The stored chain's check: `first_bad` is None when every hash and link holds; and the
    referee replay of the stored commands (None when the chain breaks: nothing to vouch for).

    `vouched` is set when the stream lost its tail: the last version the store's head vouches
    for; `first_bad` is then the first missing one.
    """

    game_id: str
    version: int
    first_bad: int | None
    vouched: int | None = None
    deal: DealReport | None = None  # None when the chain breaks or lost its tail: no deal to check
    refereed: Refereed | None = None


@dataclass(frozen=True)
class Executed:
    version: int
    envelopes: list[Envelope]
    duplicate: bool
    loaded: Loaded


def fold_envelopes(rules: Any, envelopes: Sequence[Envelope]) -> Any:
    """The state after `envelopes` (from GameCreated on), undos and corrections included."""
    events = ((e.version, to_event(e)) for e in envelopes[1:])
    return fold_history(rules, envelopes[0].data, events)[-1]


def extended(loaded: Loaded, newer: Sequence[Envelope]) -> Loaded:
    """`loaded` with `newer` (the envelopes right after it) folded in.

    A rewind needs the state of an earlier version, which only a fold from the start
    keeps: rare, and cheap next to a round trip, so the game is then folded afresh.
    """
    envelopes = [*loaded.envelopes, *newer]
    events = [to_event(e) for e in newer]
    if any(rewind_target(event) is not None for event in events):
        state = fold_envelopes(loaded.rules, envelopes)
    else:
        state = fold(loaded.rules, loaded.state, events)
    return Loaded(loaded.game_id, loaded.rules, state, envelopes)


def first_bad(envelopes: Sequence[Envelope]) -> int | None:
    """The first bad version of a whole game's events (from version 1 on); None when they hold."""
    if envelopes and envelopes[0].version != 1:
        return 1  # the chain's start is missing, so nothing after it can be vouched for
    return verify_chain(envelopes)


def chains_onto(newest: Envelope, tail: Sequence[Envelope]) -> bool:
    """Whether `tail`, read after the already checked `newest`, links onto it and each of its
    hashes holds; `newest` itself is not hashed again."""
    if tail and (tail[0].prev_hash != newest.hash or tail[0].version != newest.version + 1):
        return False
    return verify_chain(tail) is None


def checked(game_id: str, envelopes: list[Envelope]) -> Loaded:
    """The game folded from `envelopes` (from version 1 on), its hash chain checked first.

    A break at version 1 leaves nothing to fold (not even which game it is): ChainBroken.
    """
    if not envelopes:
        raise GameNotFound(game_id)
    broken = first_bad(envelopes)
    if broken == 1:
        raise ChainBroken(game_id, 1)
    trusted = envelopes if broken is None else envelopes[: broken - 1]
    rules = rules_for(trusted[0].data["game"])
    return Loaded(game_id, rules, fold_envelopes(rules, trusted), envelopes, broken)


def deal_as_shown(loaded: Loaded) -> DealReport:
    """The deal's check as anyone may make it: the seed counts only once the log is revealed."""
    envelopes = loaded.envelopes
    if not loaded.revealed:
        envelopes = [dataclasses.replace(envelopes[0], secret=None), *envelopes[1:]]
    return check_deal(envelopes)


def takeback_view(loaded: Loaded) -> dict[str, Any] | None:
    """The pending takeback as every viewer may see it (it is public), or None."""
    pending = loaded.takeback
    if pending is None:
        return None
    return {
        "requested_by": pending.seat,
        "to_version": pending.to_version,
        "version": pending.version,
        "accepted_by": list(pending.accepted),
        "waiting_for": pending.waiting_for(len(loaded.setup["seats"])),
    }


def takeback_answers(loaded: Loaded, seat: int) -> list[dict[str, Any]]:
    """The AnswerTakeback commands `seat` may send now: both answers while its answer is due."""
    pending = loaded.takeback
    if pending is None or seat not in pending.waiting_for(len(loaded.setup["seats"])):
        return []
    return [{"type": undo.ANSWER_TAKEBACK, "accept": answer} for answer in (True, False)]


def idempotency_key(game_id: str, layout: Layout = SINGLE) -> str:
    return layout.key(GAME, game_id, "idempotency")


def command_id_for(
    client: redis.Redis | RedisCluster, keys: str, who: int | str, body: Mapping[str, Any], key: str | None
) -> str:
    """The command id of a request: random, or fixed by its Idempotency-Key `key` (scoped to
    `who`, remembered with the body's fingerprint in the hash `keys`); IdempotencyMismatch
    when the key came before with another body."""
    if key is None:
        return secrets.token_hex(12)
    fingerprint = hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()
    scoped = hashlib.sha256(f"{who}\0{key}".encode()).hexdigest()[:32]
    client.hsetnx(keys, scoped, fingerprint)
    stored = client.hget(keys, scoped)
    stored_text = stored.decode() if isinstance(stored, bytes) else stored
    if stored_text != fingerprint:
        raise IdempotencyMismatch(
            "idempotency_key_reused",
            "this Idempotency-Key was used with a different request",
        )
    return f"idem-{scoped}"


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
        self.dice = dice or Dice()
        # game id -> (state, its envelopes, when the whole chain was last read and checked)
        self._cache: OrderedDict[str, tuple[Any, list[Envelope], float]] = OrderedDict()
        self._cache_size = cache_size
        self._clock = clock
        self._recheck_seconds = recheck_seconds
        self._lock = threading.Lock()

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
        rules = rules_for(setup["game"])
        rules.check_options_for(setup.get("options") or {}, len(setup["seats"]))
        setup = dict(setup)
        deal = self._new_deal(setup.pop("entropy", None))
        if setup.get("first_seat") is None:
            lot = DrawStream(deal.seed, creator_entropy(deal.data), FIRST_SEAT_DRAW)
            setup["first_seat"] = lot.below(max(1, len(setup["seats"])))
        setup["seats"] = _keyed(_opened(setup["seats"]))
        if setup.get("mode") == "tournament" and any(seat.get("open") for seat in setup["seats"]):
            # A tournament seats its own entrants: no seat of its games waits for a passer-by.
            raise IllegalMove("open_seat_in_tournament", "a tournament game has no open seat", "seats")
        state = rules.initial_state(setup)
        _check_computers(rules, setup["seats"])
        game_id = game_id or secrets.token_hex(8)
        # The seed is GameCreated's secret for no seat: hidden like any secret until the end.
        created = committed(rules.created_event(setup), deal.seed, deal.data)
        steps: list[Step] = [(None, [created]), *self._system_steps(rules, state, deal, [], 2)]
        if self.ai is not None and capped:
            self.ai.admit(game_id, setup, client)
        # Tokens only once the game exists: a refused append (or an id that is taken)
        # must leave no key behind, nor overwrite another game's tokens.
        events = self._envelopes(steps, ORGANIZER, f"create-{game_id}")
        self.store.append(game_id, 0, events)
        issued = self.tokens.issue(game_id, len(setup["seats"]))
        # A computer seat's token is never handed out: the service alone plays that seat.
        # Nor an open seat's: its token is made when someone takes it (take_seat).
        tokens = [
            None if seat.get("ai") or seat.get("open") else t
            for seat, t in zip(setup["seats"], issued, strict=True)
        ]
        organizer = self.tokens.issue_organizer(game_id) if setup.get("mode") == "tournament" else None
        if self.move_clock is not None:
            self.move_clock.watch(game_id, setup)
        self.appended(game_id)
        return Created(game_id, len(events), tokens, organizer)

    def _new_deal(self, entropy: str | None) -> Deal:
        """A fresh seed and its public commitment, with the creator's entropy when given."""
        seed = self.dice.fresh_seed()
        data: dict[str, Any] = {"scheme": SCHEME, "commitment": commitment(seed)}
        if entropy is not None:
            data["entropy"] = entropy
        return Deal(seed, data)

    # --- reading --------------------------------------------------------------------

    def load(self, game_id: str, upto: int | None = None, fresh: bool = False) -> Loaded:
        """The game folded from its events (all, or up to version `upto`), chain checked.

        `fresh` reads every event from the store even when a fold is cached (an export,
        which must show what is stored). A game whose chain breaks is never cached, so
        every later load reads (and checks) the store again.
        """
        if upto is not None:
            return checked(game_id, self.store.read(game_id, upto=upto))
        with self._lock:
            cached = None if fresh else self._cache.get(game_id)
        try:
            loaded, checked_at = self._loaded(game_id, cached)
        except (ChainBroken, ChainTruncated):  # nothing to fold at all, or not the whole of it
            self.forget(game_id)
            raise
        if loaded.broken is None:
            self._remember(game_id, loaded.state, loaded.envelopes, checked_at)
        else:
            self.forget(game_id)
        return loaded

    def _loaded(self, game_id: str, cached: tuple[Any, list[Envelope], float] | None) -> tuple[Loaded, float]:
        """The game, and when its whole chain was last read and checked."""
        now = self._clock()
        if cached is None:
            return checked(game_id, self.store.read(game_id)), now
        state, envelopes, checked_at = cached
        if now - checked_at >= self._recheck_seconds:
            return self._rechecked(game_id, state, envelopes), now
        caught_up = self._catch_up(game_id, state, envelopes)
        if caught_up is None:
            return checked(game_id, self.store.read(game_id)), now
        return caught_up, checked_at

    def _rechecked(self, game_id: str, state: Any, envelopes: list[Envelope]) -> Loaded:
        """The game from a read of every stored event, its whole chain checked; the cached
        fold is kept (not folded again) while the store still holds its events unchanged."""
        read = self.store.read(game_id)
        newest = envelopes[-1]
        unchanged = len(read) >= newest.version and read[newest.version - 1] == newest
        if unchanged and first_bad(read) is None:
            rules = rules_for(envelopes[0].data["game"])
            return extended(Loaded(game_id, rules, state, envelopes), read[newest.version :])
        return checked(game_id, read)

    def _catch_up(self, game_id: str, state: Any, envelopes: list[Envelope]) -> Loaded | None:
        """The cached fold with the newer events, or None when the store no longer agrees.

        The one read starts at the cached newest event, so it costs no extra round trip:
        that event must come back unchanged and the new tail must chain onto it. Older
        events are not read again until RECHECK_SECONDS have passed; `verify` (and any load
        without the cache) checks them at once.
        """
        newest = envelopes[-1]
        read = self.store.read(game_id, after=newest.version - 1)
        if not read or read[0] != newest:
            return None
        tail = read[1:]
        if not chains_onto(newest, tail):
            return None
        rules = rules_for(envelopes[0].data["game"])
        return extended(Loaded(game_id, rules, state, envelopes), tail)

    def verify(self, game_id: str) -> Verified:
        """The hash chain of every stored event, read from the store, never from the cache."""
        try:
            envelopes = self.store.read(game_id)
        except ChainTruncated as cut:
            self.forget(game_id)
            stored = cut.stored_version
            return Verified(
                game_id,
                stored,
                first_bad(self.store.read(game_id, upto=stored)) or stored + 1,
                cut.vouched_version,
            )
        except ChainBroken as error:
            self.forget(game_id)
            return Verified(game_id, self.store.version(game_id), error.version)
        if not envelopes:
            raise GameNotFound(game_id)
        broken = first_bad(envelopes)
        if broken is not None:
            self.forget(game_id)
            return Verified(game_id, envelopes[-1].version, broken)
        refereed = referee(envelopes)
        try:
            deal: DealReport | None = deal_as_shown(checked(game_id, envelopes))
        except Exception:  # noqa: BLE001 - a forged record the rules cannot fold: the referee names where
            if refereed.ok:
                raise
            deal = None
        return Verified(game_id, envelopes[-1].version, None, deal=deal, refereed=refereed)

    def forget(self, game_id: str) -> None:
        """Drop the game's cached fold: the next load reads the store from version 1."""
        with self._lock:
            self._cache.pop(game_id, None)

    def _remember(self, game_id: str, state: Any, envelopes: list[Envelope], checked_at: float) -> None:
        with self._lock:
            self._cache[game_id] = (state, envelopes, checked_at)
            self._cache.move_to_end(game_id)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

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
        command_id = self._command_id(game_id, seat, body, key)
        args = {k: v for k, v in body.items() if k != "type"}
        command = Command(str(body.get("type")), seat, args)
        return self._run(game_id, str(Actor.of_seat(seat)), command, command_id, expected_version, signature)

    def take_seat(self, game_id: str, seat: int, name: str) -> tuple[Executed, str]:
        """Take the open `seat` under `name` (SeatTaken) and issue its token; GameNotFound or
        404 seat_not_found for a seat the game does not have, 409 seat_not_open for one it
        created with a player or that someone took first."""
        loaded = self.load(game_id)
        if not 0 <= seat < len(loaded.setup.get("seats") or []):
            raise SeatNotFound(game_id, seat)
        command = Command(TAKE_SEAT, seat, {"name": name})
        command_id = f"take-{seat}-{secrets.token_hex(8)}"
        executed = self._run(game_id, str(Actor.of_seat(seat)), command, command_id, None)
        # After the append: only the one whose SeatTaken was stored gets a token.
        return executed, self.tokens.reissue(game_id, seat)

    def correct(
        self,
        game_id: str,
        to_version: int,
        reason: str,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Executed:
        """The organizer's correction of a tournament game: Corrected, with the reason."""
        body = {"type": CORRECT, "to_version": to_version, "reason": reason}
        command_id = self._command_id(game_id, ORGANIZER, body, key)
        command = Command(CORRECT, None, {"to_version": to_version, "reason": reason})
        return self._run(game_id, ORGANIZER, command, command_id, expected_version)

    def _run(
        self,
        game_id: str,
        actor: str,
        command: Command,
        command_id: str,
        expected_version: int | None,
        signature: str | None = None,
    ) -> Executed:
        """Decide `command` on the newest version and append its events as `actor`."""
        if self.redis.exists(archive_key(game_id, self.layout)):
            raise Conflict("game_archived", "this game was imported from a file: it is read-only")
        for _ in range(CONFLICT_RETRIES):
            loaded = self.load(game_id)
            if loaded.broken is not None:
                raise ChainBroken(game_id, loaded.broken)
            earlier = [e for e in loaded.envelopes if e.command_id == command_id]
            if earlier:
                if earlier[-1].version == loaded.version:
                    # The first try may have been refused after its append (a full store
                    # refusing the scoring's enqueue or the next deal): start what it could not.
                    self.follow_up(loaded)
                return Executed(earlier[-1].version, earlier, True, loaded)
            self._refuse_after_end(loaded)
            if command.type in undo.COMMANDS:
                # Refused whatever the version: no point in asking for If-Match first.
                undo.refuse_in_tournament(loaded.envelopes)
            if expected_version is None and loaded.setup.get("mode") == "tournament":
                raise PreconditionRequired(
                    "if_match_required",
                    "tournament games take commands only with If-Match naming the version",
                )
            if expected_version is not None and expected_version != loaded.version:
                raise PreconditionFailed(
                    "version_mismatch",
                    f"If-Match names version {expected_version}, the game is at {loaded.version}",
                )
            refuse_while_open(loaded.envelopes, command)
            signed = _signed(loaded, command, expected_version, signature)
            events = self._decide(loaded, actor, command)
            try:
                result = self.store.append(
                    game_id, loaded.version, self._envelopes([(command, events)], actor, command_id, signed)
                )
            except VersionConflict:
                if expected_version is not None:
                    raise
                continue
            after = self.load(game_id)
            self.follow_up(after)
            written = after.envelopes[result.versions[0] - 1 : result.versions[-1]]
            return Executed(result.versions[-1], written, result.duplicate, after)
        raise VersionConflict(game_id, loaded.version, self.store.version(game_id))

    def _refuse_after_end(self, loaded: Loaded) -> None:
        """Conflict for a game of a closed tournament (tournament_closed) or one that a forfeit,
        a resignation or an abort ended (game_over): nothing moves after the end. A game the
        rules ended refuses by its rules."""
        if self.tournaments is not None:
            self.tournaments.refuse_if_closed(loaded)
        ended = platform_end(loaded.trusted)
        if ended is not None:
            how = {
                "GameForfeited": "its tournament forfeited seat",
                "GameResigned": "it was resigned by seat",
                "GameAborted": "it was aborted by seat",
            }[ended.type]
            raise Conflict(
                "game_over", f"the game ended at version {ended.version}: {how} {ended.data.get('seat')}"
            )

    @staticmethod
    def _decide(loaded: Loaded, actor: str, command: Command) -> list[Event]:
        """The events of `command`: the undo policy's for undos, the rules' for the rest."""
        if actor == ORGANIZER and command.type == CORRECT:
            organizer = str(loaded.setup.get("organizer") or ORGANIZER)
            args = command.args
            return undo.correct(loaded.envelopes, args["to_version"], args["reason"], organizer, loaded.rules)
        if command.type in undo.COMMANDS:
            return undo.decide(loaded.envelopes, command, loaded.rules)
        if command.type in resign.COMMANDS:
            return resign.decide(loaded.envelopes, command, loaded.rules.end_event)
        if command.type == ADD_ENTROPY:
            return entropy_events(loaded.envelopes, loaded.over, command)
        if command.type == REGISTER_KEY:
            return key_events(loaded.envelopes, loaded.over, command)
        if command.type == TAKE_SEAT:
            return seat_events(loaded.envelopes, loaded.over, command)
        return list(loaded.rules.decide(loaded.state, command))

    def _command_id(self, game_id: str, seat: int | str, body: Mapping[str, Any], key: str | None) -> str:
        return command_id_for(self.redis, idempotency_key(game_id, self.layout), seat, body, key)

    # --- the system's part ------------------------------------------------------------

    def follow_up(self, loaded: Loaded) -> None:
        """Start what the game now waits for: a shuffle at once, a scoring or AI moves on the worker."""
        if loaded.broken is not None:
            return
        loaded = self._system_follow_up(loaded)
        self.listings.record(loaded)
        if self.ai is not None:
            self.ai.schedule(loaded)
        if self.tournaments is not None and loaded.ended_with_result:
            self.tournaments.game_ended(loaded)

    def appended(self, game_id: str) -> None:
        """List the game as it now is and enqueue the moves of computer seats the newest version
        waits for (and the analysis)."""
        loaded = self.load(game_id)
        if loaded.broken is None:
            self.listings.record(loaded)
            if self.ai is not None:
                self.ai.schedule(loaded)

    def _system_follow_up(self, loaded: Loaded) -> Loaded:
        """Schedule the scoring, or append the chance the game waits for; the game after that."""
        pending = None if loaded.over else loaded.rules.pending_system(loaded.state)
        if pending is None:
            return loaded
        if isinstance(pending, Score) and self.scoring is not None:
            self.scoring.schedule(loaded.game_id, pending.round, loaded.version)
        elif pending.immediate:
            steps = self._system_steps(
                loaded.rules, loaded.state, deal_of(loaded.envelopes[0]), loaded.envelopes, loaded.version + 1
            )
            try:
                self.store.append(
                    loaded.game_id,
                    loaded.version,
                    self._envelopes(steps, str(SYSTEM), f"chance-{loaded.version}"),
                )
            except VersionConflict:
                return loaded  # someone else moved the game on; their follow-up handles it
            return self.load(loaded.game_id)
        return loaded

    def score_round(self, game_id: str, round_: int) -> bool:
        """Append the scoring of `round_` (and the next deal); False when it is not due.

        Seats may append meanwhile (a takeback request or answer): the scoring is then
        decided again on the newer version, if it is still due there.
        """
        for _ in range(CONFLICT_RETRIES):
            loaded = self.load(game_id)
            if loaded.broken is not None:
                raise ChainBroken(game_id, loaded.broken)
            pending = None if loaded.over else loaded.rules.pending_system(loaded.state)
            if not isinstance(pending, Score) or pending.round != round_:
                return False
            command = pending.answer()
            events = loaded.rules.decide(loaded.state, command)
            state = fold(loaded.rules, loaded.state, events)
            deal = deal_of(loaded.envelopes[0])
            steps = [
                (command, events),
                *self._system_steps(
                    loaded.rules, state, deal, loaded.envelopes, loaded.version + 1 + len(events)
                ),
            ]
            try:
                self.store.append(
                    game_id, loaded.version, self._envelopes(steps, str(WORKER), f"score-{round_}")
                )
            except VersionConflict:
                continue
            self.appended(game_id)
            if self.tournaments is not None:
                # The deal after the scoring may end the game too (a premature end, I-7).
                after = self.load(game_id)
                if after.rules.is_terminal(after.state):
                    self.tournaments.game_ended(after)
            return True
        raise VersionConflict(game_id, loaded.version, self.store.version(game_id))

    def _system_steps(
        self, rules: Any, state: Any, deal: Deal | None, records: Sequence[Envelope], version: int
    ) -> list[Step]:
        """The random draws the game now waits for (a deal, Pele's picks), and those each draw
        leads to (a discovery chit, then its tile; a die, then the next), with their events.

        `version` is where the first of them will be stored: each draw is the deal's draw at
        the version of its first event, with the entropy `records` hold."""
        found: list[Step] = []
        drawn = 0
        for _ in range(MAX_SYSTEM_DRAWS):
            pending = rules.pending_system(state)
            source = draw_source(deal, records, version + drawn)
            command = None if pending is None else self.dice.command(pending, source)
            if command is None:
                return found
            events = list(rules.decide(state, command))
            found.append((command, events))
            drawn += len(events)
            state = fold(rules, state, events)
        raise RuntimeError(f"more than {MAX_SYSTEM_DRAWS} draws in a row: the rules never stop drawing")

    @staticmethod
    def _envelopes(
        steps: Sequence[Step], actor: str, command_id: str, signature: str | None = None
    ) -> list[NewEvent]:
        """The records of `steps`, appended as one batch: each command on its first event (a
        seat's signed command, always alone in its batch, with its `signature`)."""
        batch: list[NewEvent] = []
        for command, events in steps:
            new = [NewEvent.recording(e, len(batch) + i, actor, command_id) for i, e in enumerate(events)]
            batch += new if command is None else with_command(new, recorded(command, events, signature))
        return batch


def _signed(
    loaded: Loaded, command: Command, expected_version: int | None, signature: str | None
) -> str | None:
    """The signature to record with `command`; None when its seat holds no key. A seat that holds
    one names the version it signed (428 if_match_required) and signs (403 signature_required,
    403 signature_invalid): the service can refuse its move, never make one up."""
    keys = seat_keys(loaded.envelopes)
    if command.seat is None or command.seat not in keys or command.type == REGISTER_KEY:
        return None  # a second key is refused as such (409 key_registered), signed or not
    if expected_version is None:
        raise PreconditionRequired(
            "if_match_required",
            f"seat {command.seat} signs its commands: If-Match names the version the signature covers",
        )
    if not signature:
        raise Forbidden(
            "signature_required",
            f"seat {command.seat} registered a key: each of its commands carries its signature "
            f"in the {SIGNATURE_HEADER} header",
        )
    fault = command_signature_fault(keys, loaded.game_id, expected_version, command, signature)
    if fault is not None:
        raise Forbidden("signature_invalid", fault)
    return signature


def _keyed(seats: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """`seats` with each public_key in its recorded form (record.seat_keys); IllegalMove (422,
    naming the seat) for one that is no P-256 or Ed25519 public JWK, or that is given to a
    computer seat (which signs nothing)."""
    keyed = []
    for n, seat in enumerate(seats):
        seat = dict(seat)
        if seat.get("public_key") is not None:
            if seat.get("ai"):
                raise IllegalMove(
                    "key_for_computer",
                    "a computer seat signs nothing: no public_key",
                    f"seats.{n}.public_key",
                )
            try:
                seat["public_key"] = public_key(seat["public_key"])
            except ValueError as error:
                raise IllegalMove(INVALID_KEY, str(error), f"seats.{n}.public_key") from None
        keyed.append(seat)
    return keyed


def _opened(seats: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """`seats` with each open seat in its recorded form (no name yet); IllegalMove (422, naming
    the seat) for a seat with neither a name nor open, or an open one given a name, a computer
    or a key: whoever takes it brings those."""
    opened = []
    for n, seat in enumerate(seats):
        seat = dict(seat)
        if seat.get("open"):
            # The recorded form (a rematch of a game whose seat nobody took) names it "".
            given = {k for k in seat if k != "name" or seat[k] != OPEN_NAME}
            extra = sorted(given & {"name", "ai", "level", "public_key"})
            if extra:
                raise IllegalMove(
                    "open_seat_with_player",
                    f"an open seat has no {extra[0]}: who takes it brings one",
                    f"seats.{n}.{extra[0]}",
                )
            seat = {"name": OPEN_NAME, "open": True}
        else:
            seat.pop("open", None)
            if "name" not in seat:
                raise IllegalMove("name_required", "a seat that is not open has a name", f"seats.{n}.name")
        opened.append(seat)
    return opened


def _check_computers(rules: GameModule[Any], seats: Sequence[Mapping[str, Any]]) -> None:
    """IllegalMove (422, naming the seat) for a computer that needs the game's AI hooks
    (an evaluation to search with) when the game declares none: only the random one plays it."""
    if rules.ai is not None:
        return
    for n, seat in enumerate(seats):
        kind = seat.get("ai")
        if kind is not None and kind != "random":
            raise IllegalMove(
                "computer_not_available",
                f"{rules.name} is played by the random computer only, not {kind}",
                f"seats.{n}.ai",
            )


__all__ = [
    "Created",
    "Executed",
    "GameService",
    "IllegalMove",
    "Loaded",
    "Verified",
    "chains_onto",
    "checked",
    "command_id_for",
    "first_bad",
    "extended",
    "fold_envelopes",
    "takeback_answers",
    "takeback_view",
]
