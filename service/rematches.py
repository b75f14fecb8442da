"""Rematches: the same game again, its seats turned by one, once every person at the table agrees.

A finished game takes no more events, so the agreement lives beside it, in one hash per game
(`game:{<id>}:rematch`): the seats that asked (`asked:<n>`) and, once everyone has, the new
game's id. Computer seats always agree. The new game's id is derived from the old one, so two
seats agreeing at the same moment create one game, not two.

Tokens: the new game's seat tokens are not handed out when it is created. Each person fetches
the token of its new seat by presenting its token of the old game (`claim`); a claim issues a
fresh token for that seat and retires any earlier one, so only hashes are ever stored and a
token of the old game opens nothing in the new one except through this handshake.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from record.open_seats import filled_setup
from service.errors import ChainBroken, Conflict, VersionConflict
from service.games import GameService
from service.keys import GAME
from service.loaded import Loaded

KEPT = ("game", "options", "mode", "reveal_after_end")
"""What the new game keeps of the old setup (seats turn, the first seat stays the same index)."""


@dataclass(frozen=True)
class Rematch:
    """Where a rematch stands: who asked, who is awaited, the new game once it exists, and
    (for the seat that claimed it) its new seat and token."""

    game_id: str | None
    asked_by: list[int]
    waiting_for: list[int]
    seat: int | None = None
    token: str | None = None

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "rematch_id": self.game_id,
            "asked_by": self.asked_by,
            "waiting_for": self.waiting_for,
        }
        if self.token is not None:
            body.update(seat=self.seat, token=self.token)
        return body


def rematch_id(game_id: str) -> str:
    """The id of `game_id`'s rematch: derived, so concurrent agreements make one game."""
    return hashlib.sha256(f"rematch\0{game_id}".encode()).hexdigest()[:16]


def turned(seats: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The seats turned by one: old seat n sits at n+1 (two players swap)."""
    count = len(seats)
    return [dict(seats[(n - 1) % count]) for n in range(count)]


def new_seat(seat: int, seats: int) -> int:
    """Where the player of old seat `seat` sits in the rematch."""
    return (seat + 1) % seats


def rematch_setup(setup: Mapping[str, Any]) -> dict[str, Any]:
    """The new game's setup: the same game and options, the seats turned, the same first seat
    index (so another person moves first)."""
    kept = {key: setup[key] for key in KEPT if key in setup}
    return {**kept, "seats": turned(setup["seats"]), "first_seat": setup.get("first_seat")}


class Rematches:
    """Offers, accepts and hands out rematches of finished casual games."""

    def __init__(self, games: GameService) -> None:
        self.games = games
        self.redis = games.redis

    def _key(self, game_id: str) -> str:
        return self.games.layout.key(GAME, game_id, "rematch")

    def status(self, game_id: str) -> Rematch:
        """The rematch of `game_id` as anyone may see it (no token)."""
        loaded = self.games.load(game_id)
        stored = self._stored(game_id)
        people = _people(loaded.setup)
        asked = sorted(s for s in people if f"asked:{s}" in stored)
        return Rematch(stored.get("game_id"), asked, [s for s in people if s not in asked])

    def ask(self, game_id: str, seat: int, client: str | None) -> Rematch:
        """`seat` asks for (or agrees to) the rematch; once every person has, the new game is
        created, and `seat` gets its new seat and a fresh token there."""
        loaded = self._finished(game_id)
        self.redis.hset(self._key(game_id), f"asked:{seat}", "1")
        current = self.status(game_id)
        if current.waiting_for:
            return current
        new_id = current.game_id or self._create(loaded, client)
        seats = len(loaded.setup["seats"])
        moved = new_seat(seat, seats)
        token = self.games.tokens.reissue(new_id, moved)
        return Rematch(new_id, current.asked_by, [], moved, token)

    def _finished(self, game_id: str) -> Loaded:
        loaded = self.games.load(game_id)
        if loaded.broken is not None:
            raise ChainBroken(game_id, loaded.broken)
        if not loaded.over:
            raise Conflict("game_not_over", "a rematch is offered once the game is over")
        if loaded.setup.get("mode") == "tournament":
            raise Conflict("rematch_not_in_tournament", "a tournament pairs its own games: no rematch")
        return loaded

    def _create(self, loaded: Loaded, client: str | None) -> str:
        new_id = rematch_id(loaded.game_id)
        try:
            self.games.create(rematch_setup(filled_setup(loaded.envelopes)), client=client, game_id=new_id)
        except VersionConflict:
            pass  # the other seat's agreement created it a moment ago
        self.redis.hset(self._key(loaded.game_id), "game_id", new_id)
        return new_id

    def _stored(self, game_id: str) -> dict[str, str]:
        raw = self.redis.hgetall(self._key(game_id))
        return {_text(k): _text(v) for k, v in raw.items()}


def _people(setup: Mapping[str, Any]) -> list[int]:
    return [n for n, seat in enumerate(setup["seats"]) if not seat.get("ai")]


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
