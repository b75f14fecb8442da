"""The games listing (the lobby, GET /games): one summary per game, newest activity first,
by status, game kind, game kind and status, player name and tournament (service.listing_index).

Kept two ways, both idempotent. After every append it makes, the GameService records the game
it has just folded (`record`): the listing is current when the command's answer leaves. The
projector (`update`) reads the all-events streams from its checkpoint and folds only the games
whose listed version is older than an event it reads, so it costs nothing for what was
recorded already, and repairs what a process that died between its append and its record
left behind; the worker's sweeper runs it, and `replays listings --rebuild` runs it from
nothing. Each write stores the checkpoint with the entries, in one script.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from record.open_seats import open_seats, seat_names
from service.folded_listing import FoldedListing
from service.listing_index import Page, kind_and_status

OPEN, ONGOING, FINISHED = "open", "ongoing", "finished"
STATUSES = (OPEN, ONGOING, FINISHED)
"""open: a seat waits for someone to take it (record.open_seats); ongoing: in play."""
"""Events the projector reads from each all-events stream per step."""


def player_key(name: str) -> str:
    """A player's name as the filter matches it: whole, case-insensitive."""
    return name.strip().casefold()


def seat_summary(seat: Mapping[str, Any], name: str, waiting: bool) -> dict[str, Any]:
    if seat.get("ai"):
        return {"name": name, "kind": "ai", "ai": seat["ai"], "level": seat.get("level")}
    return {"name": name, "kind": "open" if waiting else "person"}


def summary_of(loaded: Any) -> dict[str, Any]:
    """What the listing shows of a folded game (service.loaded.Loaded)."""
    setup = loaded.setup
    done = loaded.over
    names, waiting = seat_names(loaded.envelopes), open_seats(loaded.envelopes)
    result = loaded.result
    about = setup.get("tournament")
    tournament = None
    if isinstance(about, Mapping):
        tournament = {"id": str(about["id"]), "round": about.get("round"), "table": about.get("table")}
    return {
        "game_id": loaded.game_id,
        "game": setup["game"],
        "seats": [
            seat_summary(seat, name, n in waiting)
            for n, (seat, name) in enumerate(zip(setup["seats"], names, strict=True))
        ],
        "status": FINISHED if done else OPEN if waiting else ONGOING,
        "result": None if result is None else dict(result),
        "last_activity": loaded.envelopes[-1].at,
        "version": loaded.version,
        "tournament": tournament,
        "move_time": setup.get("move_time"),
    }


def sets_of(summary: Mapping[str, Any]) -> tuple[str, ...]:
    """The filter values a game is listed under."""
    status, game = summary["status"], summary["game"]
    sets = ["all", f"status:{status}", f"game:{game}", f"game:{game}:status:{status}"]
    sets += sorted({f"player:{player_key(seat['name'])}" for seat in summary["seats"] if seat["name"]})
    if summary["tournament"] is not None:
        sets.append(f"tournament:{summary['tournament']['id']}")
    return tuple(sets)


class GamesIndex(FoldedListing):
    """Records folded games, catches up with the events, and reads pages of the listing."""

    name, noun = "games", "game"

    def ident(self, loaded: Any) -> str:
        return str(loaded.game_id)

    def summary(self, loaded: Any) -> dict[str, Any]:
        return summary_of(loaded)

    def sets(self, summary: Mapping[str, Any]) -> tuple[str, ...]:
        return sets_of(summary)

    def sweep(self, service: Any) -> int:
        """The sweeper's pass (service.sweeper): the events the listing has not seen; it
        enqueues no job: 0."""
        self.update(service)
        return 0

    def page(
        self,
        limit: int,
        cursor: str | None = None,
        game: str | None = None,
        status: str | None = None,
        player: str | None = None,
        tournament: str | None = None,
    ) -> Page:
        """A page of the games that match every filter given, newest activity first.

        A tournament's set is read when one is named, else a player's (both are small next to
        the store), the other filters checked entry by entry; else the set of the game kind
        and status asked for, which needs no check."""
        if tournament is None and player is None:
            return self.listing.page(kind_and_status(game, status), cursor, limit)
        if tournament is not None:
            chosen, checks = f"tournament:{tournament}", Checks(game, status, player)
        else:
            chosen, checks = f"player:{player_key(player or '')}", Checks(game, status, None)
        return self.listing.page(chosen, cursor, limit, None if checks.none else checks.keep)


@dataclass(frozen=True)
class Checks:
    """The filters a chosen set does not answer, checked on each of its entries."""

    game: str | None
    status: str | None
    player: str | None

    @property
    def none(self) -> bool:
        return self.game is None and self.status is None and self.player is None

    def keep(self, summary: Mapping[str, Any]) -> bool:
        if self.game is not None and summary["game"] != self.game:
            return False
        if self.status is not None and summary["status"] != self.status:
            return False
        wanted = None if self.player is None else player_key(self.player)
        return wanted is None or any(player_key(seat["name"]) == wanted for seat in summary["seats"])
