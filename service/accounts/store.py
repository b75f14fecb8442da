"""Accounts in Redis, each under its normalized name (service.accounts.names).

Keys, all of one account sharing the hash tag of its normalized name (one slot on a cluster):
  account:{<name>}:record    JSON {name, password (argon2id hash), player, user}: SET NX makes a
                             name one account's, first come first served
  account:{<name>}:failures  wrong passwords in the current window (INCR, EXPIRE)
  account:{<name>}:seats     hash "<game_id>/<seat>" -> the seat's token, so that the account gets
                             its seats back in any browser where it signs in
  account:{<name>}:games     sorted set "<game_id>/<seat>" by when it was bound, newest last
  account:{<name>}:tournaments sorted set "<tournament_id>/<entrant>" by when registered
  seat-accounts              hash "<game_id>/<seat>" -> the name of the account that keeps it, so
                             that lists tell an account's seat from a guest's of the same name:
                             one hash, so a page of the lobby reads its lines' seats in one HMGET
The seat tokens are kept as they are (not hashed, unlike the service's own copy): giving them
back is the point. Whoever can read this Redis can also read every game, so they reveal nothing
new to an operator; they give a reader of a leaked copy the seats of unfinished games.
"""

from __future__ import annotations

import functools
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import redis
from redis.cluster import RedisCluster

from domain.games import GAMES
from service.accounts import names, passwords
from service.accounts.errors import TooManyAttempts
from service.errors import Conflict, Unauthorized, Unprocessable
from service.players import Players

#: Wrong passwords one name may take in a window before sign-in by password waits.
MAX_FAILURES = 10
FAILURE_WINDOW = 15 * 60
LISTED = 50
WRONG = "the name or the password is wrong"


@functools.cache
def _decoy() -> str:
    """Checked against when the name has no account, so that a wrong name costs what a wrong
    password does and the answer's time tells nothing about which names exist."""
    return passwords.hashed(secrets.token_urlsafe(16))


@dataclass(frozen=True)
class Account:
    """An account as the service shows it: its name as typed, the key of that name, the player
    id its ratings follow and its WebAuthn user handle (hex)."""

    key: str
    name: str
    player: str
    user: str


def record_key(key: str) -> str:
    return f"account:{{{key}}}:record"


SEAT_ACCOUNTS = "seat-accounts"


def _part(key: str, part: str) -> str:
    return f"account:{{{key}}}:{part}"


class Accounts:
    """Creates accounts, checks passwords and keeps what an account holds."""

    def __init__(self, client: redis.Redis | RedisCluster, clock: Callable[[], float] = time.time) -> None:
        self._redis = client
        self._clock = clock

    def create(self, name: str, password: str) -> Account:
        """A new account; 422 bad_name or bad_password, 409 name_taken for a name an account has."""
        for field, problem in (
            ("name", names.problem_with(name)),
            ("password", passwords.problem_with(password)),
        ):
            if problem:
                raise Unprocessable(f"bad_{field}", problem, errors={field: [problem]})
        shown = names.normalize_shown(name)
        key = names.normalized(shown)
        player, _ = Players(self._redis).create()
        record = {
            "name": shown,
            "password": passwords.hashed(password),
            "player": player,
            "user": secrets.token_hex(16),
        }
        if not self._redis.set(record_key(key), json.dumps(record), nx=True):
            raise Conflict("name_taken", f"the name {shown!r} is taken: choose another")
        return _account(key, record)

    def get(self, name: str) -> Account | None:
        """The account of `name` (in any case or width), or None."""
        key = names.normalized(name)
        record = self._record(key)
        return None if record is None else _account(key, record)

    def by_key(self, key: str) -> Account | None:
        """The account of a normalized name, or None."""
        record = self._record(key)
        return None if record is None else _account(key, record)

    def signed_in(self, name: str, password: str) -> Account:
        """The account whose name and password these are; 401 wrong_credentials otherwise, 429
        too_many_attempts after MAX_FAILURES wrong ones in FAILURE_WINDOW seconds."""
        key = names.normalized(name)
        failures = _part(key, "failures")
        if int(self._redis.get(failures) or 0) >= MAX_FAILURES:
            raise TooManyAttempts(max(1, int(self._redis.ttl(failures))))
        record = self._record(key)
        stored = _decoy() if record is None else str(record["password"])
        if record is None or not passwords.matches(stored, password):
            with self._redis.pipeline(transaction=True) as pipe:
                # The window starts at the first failure (EXPIRE NX needs Redis 7; 6.2 is supported).
                pipe.set(failures, 0, ex=FAILURE_WINDOW, nx=True)
                pipe.incr(failures)
                pipe.execute()
            raise Unauthorized("wrong_credentials", WRONG)
        self._redis.delete(failures)
        if passwords.outdated(stored):
            record["password"] = passwords.hashed(password)
            self._redis.set(record_key(key), json.dumps(record), xx=True)
        return _account(key, record)

    def bind_seat(self, account: Account, game_id: str, seat: int, token: str) -> None:
        """Keep `seat` of `game_id` (and its token) with `account`."""
        member = f"{game_id}/{seat}"
        with self._redis.pipeline(transaction=True) as pipe:
            pipe.hset(_part(account.key, "seats"), member, token)
            pipe.zadd(_part(account.key, "games"), {member: self._clock()}, nx=True)
            pipe.execute()
        # Another slot on a cluster: written on its own, after the account's own keys.
        self._redis.hset(SEAT_ACCOUNTS, member, account.name)

    def seat_accounts(self, game_ids: list[str]) -> dict[str, dict[int, str]]:
        """For each game, its seats kept by an account and that account's name (one command for
        all of them: a lobby page asks this of each of its lists)."""
        most = max(game.max_seats for game in GAMES.values())  # each seat a listed game may have
        asked = [(game_id, seat) for game_id in game_ids for seat in range(most)]
        if not asked:
            return {}
        names = cast(list[bytes | None], self._redis.hmget(SEAT_ACCOUNTS, [f"{g}/{s}" for g, s in asked]))
        held: dict[str, dict[int, str]] = {}
        for (game_id, seat), name in zip(asked, names, strict=True):
            if name is not None:
                held.setdefault(game_id, {})[seat] = _text(name)
        return held

    def seat_tokens(self, account: Account, game_id: str) -> list[tuple[int, str]]:
        """The seats of `game_id` the account holds and their tokens, by seat."""
        held = self._redis.hgetall(_part(account.key, "seats"))
        found = []
        for member, token in held.items():
            game, _, seat = _text(member).rpartition("/")
            if game == game_id:
                found.append((int(seat), _text(token)))
        return sorted(found)

    def seats(self, account: Account, limit: int = LISTED) -> list[tuple[str, int]]:
        """The account's seats, newest first: (game id, seat)."""
        members = cast(list[bytes], self._redis.zrevrange(_part(account.key, "games"), 0, limit - 1))
        return [(game, int(seat)) for game, _, seat in (_text(m).rpartition("/") for m in members)]

    def bind_entrant(self, account: Account, tournament_id: str, entrant: str) -> None:
        """Keep the account's entrant of a tournament, for its page."""
        member = f"{tournament_id}/{entrant}"
        self._redis.zadd(_part(account.key, "tournaments"), {member: self._clock()}, nx=True)

    def tournaments(self, account: Account, limit: int = LISTED) -> list[tuple[str, str]]:
        """The account's tournament entrants, newest first: (tournament id, entrant)."""
        members = cast(list[bytes], self._redis.zrevrange(_part(account.key, "tournaments"), 0, limit - 1))
        return [(t, e) for t, _, e in (_text(m).rpartition("/") for m in members)]

    def _record(self, key: str) -> dict[str, Any] | None:
        raw = self._redis.get(record_key(key))
        return None if raw is None else dict(json.loads(raw))


def _account(key: str, record: dict[str, Any]) -> Account:
    return Account(key, str(record["name"]), str(record["player"]), str(record["user"]))


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
