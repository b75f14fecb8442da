"""The service's own refusals (not the rules'), each with a stable machine code."""

from __future__ import annotations

import redis

from domain.decider import IllegalMove


class ServiceError(Exception):
    """Root of every error the service raises on purpose; `code` is stable for clients."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class StoreError(ServiceError):
    """Root of the event store's refusals."""


class VersionConflict(StoreError):
    """The game moved on since the caller read it: nothing was written."""

    def __init__(self, game_id: str, expected: int, actual: int) -> None:
        super().__init__(
            "version_conflict",
            f"game {game_id!r} is at version {actual}, not the expected {expected}",
        )
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class PartialRetry(StoreError):
    """Some, but not all, event ids of a batch are already stored: nothing was written."""

    def __init__(self, game_id: str, recorded: list[str]) -> None:
        super().__init__(
            "partial_retry",
            f"game {game_id!r} already holds events {recorded}, but not the whole batch",
        )
        self.game_id = game_id
        self.recorded = recorded


class OutcomeUnknown(StoreError, redis.exceptions.ConnectionError):
    """The append was sent but its answer was lost (a timeout, a dropped connection): it may
    or may not have been stored. A retry of the same command (its Idempotency-Key) tells:
    the store recognises a stored batch by its event ids and answers it again. Still a lost
    connection to whoever handles those (a job, the sweeper, a client that stops)."""

    def __init__(self, game_id: str) -> None:
        super().__init__(
            "outcome_unknown",
            f"the store did not confirm the write to {game_id!r}: it may or may not be recorded. "
            "Send the same request again with the same Idempotency-Key: a recorded one is answered "
            "again (duplicate), never applied twice. Without a key, read the game first.",
        )
        self.game_id = game_id


class UnsupportedServer(StoreError):
    """The Redis server is too old for the store (streams with explicit ids need 6.2)."""

    def __init__(self, version: str) -> None:
        super().__init__("unsupported_redis", f"Redis {version} is older than the required 6.2")
        self.version = version


class GameNotFound(ServiceError):
    def __init__(self, game_id: str) -> None:
        super().__init__("game_not_found", f"there is no game {game_id!r}")


class SeatNotFound(GameNotFound):
    def __init__(self, game_id: str, seat: int) -> None:
        ServiceError.__init__(self, "seat_not_found", f"game {game_id!r} has no seat {seat}")


class TournamentNotFound(ServiceError):
    def __init__(self, tournament_id: str) -> None:
        super().__init__("tournament_not_found", f"there is no tournament {tournament_id!r}")


class UnknownGame(ServiceError):
    def __init__(self, game: str) -> None:
        super().__init__("unknown_game", f"there is no game kind {game!r}")


class Unauthorized(ServiceError):
    """No usable credentials for an action that needs a seat."""


class Forbidden(ServiceError):
    """Credentials that do not allow this action (another seat's, or a finished game's)."""


class PreconditionFailed(ServiceError):
    """If-Match named a version the game is no longer at."""


class PreconditionRequired(ServiceError):
    """Tournament games take commands only with If-Match."""


class IdempotencyMismatch(ServiceError):
    """An Idempotency-Key reused with a different request."""


class BadRequest(ServiceError):
    """A request the service cannot read (not the rules' refusal)."""


class GameExists(StoreError):
    """An import into a game id that already holds keys: nothing was written."""

    def __init__(self, game_id: str) -> None:
        super().__init__("game_exists", f"game {game_id!r} already exists; an import never overwrites")
        self.game_id = game_id


class Unprocessable(ServiceError):
    """A well-formed request the service refuses to process (e.g. a damaged game file).

    `members` are extra problem+json members for clients, e.g. {"version": 17}.
    """

    def __init__(self, code: str, message: str, **members: object) -> None:
        super().__init__(code, message)
        self.members = members


class Conflict(ServiceError):
    """The game cannot take this request in its state (e.g. an archived game, a command)."""


class ChainBroken(Conflict):
    """The game's stored events fail their hash chain: it takes no command until repaired.

    `version` names the first bad event; it is also a problem+json member for clients.
    """

    def __init__(self, game_id: str, version: int) -> None:
        super().__init__(
            "chain_broken",
            f"the stored events of game {game_id!r} fail their hash chain at event {version}: "
            "they were changed outside the service, so the game takes no command",
        )
        self.game_id = game_id
        self.version = version
        self.members = {"version": version}


class ChainTruncated(Conflict):
    """The store holds fewer events of a game (or tournament) than its head record vouches for:
    a tail was deleted outside the service. It takes no command, and no answer is built from
    what is left, which would show an earlier state as the newest one.

    `stored_version` is the last event the stream still holds, `vouched_version` the last one
    the head (written by every append, service/append.lua) vouches for; both are problem+json
    members for clients.
    """

    def __init__(self, stream_id: str, stored_version: int, vouched_version: int) -> None:
        super().__init__(
            "chain_truncated",
            f"the stored events of {stream_id!r} end at {stored_version}, but the store vouches for "
            f"{vouched_version}: events after {stored_version} were deleted outside the service",
        )
        self.stream_id = stream_id
        self.stored_version = stored_version
        self.vouched_version = vouched_version
        self.members = {"stored_version": stored_version, "vouched_version": vouched_version}


def record_refusal(refusal: IllegalMove, malformed: str, field: str) -> ServiceError:
    """A refusal of a record-level command (record.entropy, record.seat_keys) as the problem it
    answers: 422 naming `field` when its code is `malformed` (the command's form), else 409 (a
    conflict with the record: a game over, a second key or entropy)."""
    if refusal.code == malformed:
        return Unprocessable(refusal.code, refusal.message, errors={field: [refusal.message]})
    return Conflict(refusal.code, refusal.message)
