"""The tournaments listing (`/t`, GET /tournaments): one summary per tournament, newest activity
first, by status (its phase), game kind, and both (service.listing_index).

Kept as the games listing is (service.games_index): the TournamentService records each
tournament it has just folded after its appends, and the projector catches up from its
checkpoint with what no process recorded.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.folded_listing import FoldedListing
from service.listing_index import Page, kind_and_status


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


class TournamentsIndex(FoldedListing):
    """Records folded tournaments, catches up with the events, and reads pages of the listing."""

    name, noun = "tournaments", "tournament"

    def ident(self, loaded: Any) -> str:
        return str(loaded.tournament_id)

    def summary(self, loaded: Any) -> dict[str, Any]:
        return summary_of(loaded)

    def sets(self, summary: Mapping[str, Any]) -> tuple[str, ...]:
        return sets_of(summary)

    def sweep(self, games: Any) -> int:
        """The sweeper's pass (service.sweeper hands it the GameService); it enqueues no job: 0."""
        self.update(games.tournaments)
        return 0

    def page(
        self, limit: int, cursor: str | None = None, game: str | None = None, status: str | None = None
    ) -> Page:
        """A page of the tournaments of `game` and `status` (when given), newest activity first."""
        return self.listing.page(kind_and_status(game, status), cursor, limit)
