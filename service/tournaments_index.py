"""The tournaments listing (`/t`, GET /tournaments): one summary per tournament, newest activity
first, by status (its phase), game kind, and both (service.listing_index).

Kept as the games listing is (service.games_index): the TournamentService records each
tournament it has just folded after its appends, and the projector catches up from its
checkpoint with what no process recorded.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import redis
from redis.cluster import RedisCluster

from service.keys import layout_of
from service.listing_index import Entry, ListingIndex, Page, catch_up, kind_and_status, order_of

log = logging.getLogger("archipelago.listings")

BATCH = 2000


def summary_of(loaded: Any) -> dict[str, Any]:
    """What the listing shows of a folded tournament (service.tournaments.LoadedTournament)."""
    state = loaded.state
    settings = state.settings
    return {
        "tournament_id": loaded.tournament_id,
        "name": settings.name,
        "game": settings.game,
        "format": settings.format,
        "rated": bool(settings.rated),
        "status": state.phase,
        "round": state.round,
        "rounds": state.rounds,
        "entrants": len(state.entrants),
        "last_activity": loaded.envelopes[-1].at,
        "version": loaded.version,
    }


def sets_of(summary: Mapping[str, Any]) -> tuple[str, ...]:
    status, game = summary["status"], summary["game"]
    return ("all", f"status:{status}", f"game:{game}", f"game:{game}:status:{status}")


class TournamentsIndex:
    """Records folded tournaments, catches up with the events, and reads pages of the listing."""

    def __init__(self, client: redis.Redis | RedisCluster) -> None:
        self.layout = layout_of(client)
        self.listing = ListingIndex(client, "tournaments")

    def entry(self, loaded: Any) -> Entry:
        newest = loaded.envelopes[-1]
        summary = summary_of(loaded)
        order = order_of(self.layout, newest.position, newest.at)
        return Entry(loaded.tournament_id, loaded.version, order, summary, sets_of(summary))

    def record(self, loaded: Any) -> None:
        """List the tournament as `loaded` folds it; a failure is left to the projector."""
        try:
            self.listing.write([self.entry(loaded)])
        except redis.RedisError as error:
            log.warning(
                "the listing of tournament %s waits for the projector: %s", loaded.tournament_id, error
            )

    def update(self, service: Any, batch: int = BATCH) -> int:
        """Catch up with the events after the checkpoint (service: the TournamentService)."""
        return catch_up(self.listing, service.store, lambda i: self.entry(service.load(i)), batch)

    def rebuild(self, service: Any) -> int:
        """The listing afresh from every stored event; how many events were read."""
        self.listing.clear()
        return self.update(service)

    def sweep(self, games: Any) -> int:
        """The sweeper's pass (service.sweeper hands it the GameService); it enqueues no job: 0."""
        self.update(games.tournaments)
        return 0

    def page(
        self, limit: int, cursor: str | None = None, game: str | None = None, status: str | None = None
    ) -> Page:
        """A page of the tournaments of `game` and `status` (when given), newest activity first."""
        return self.listing.page(kind_and_status(game, status), cursor, limit)
