"""The listings over HTTP: GET /games and GET /tournaments, newest activity first, a page at a
time, read from the read models (service.games_index, service.tournaments_index): a page costs
the same whatever the store holds, and no game is folded to answer it."""

from __future__ import annotations

from typing import Any

from flask import url_for

from service.api.blueprint import Blueprint
from service.api.context import game_service, tournament_service
from service.api.listing_schemas import (
    GamesPageSchema,
    GamesQuerySchema,
    TournamentsPageSchema,
    TournamentsQuerySchema,
)
from service.listing_index import Page

blp = Blueprint("listings", __name__, description="The games and the tournaments, newest activity first.")


def next_link(endpoint: str, query: dict[str, Any], page: Page) -> str | None:
    """The URL of the page after `page`, with the same filters and limit; None after the last."""
    if page.cursor is None:
        return None
    return url_for(endpoint, **{**query, "cursor": page.cursor})


@blp.get("/games")
@blp.arguments(GamesQuerySchema, location="query")
@blp.response(200, GamesPageSchema)
def list_games(query: dict[str, Any]) -> Any:
    """The games, newest activity first, by game kind, status, player and tournament; a page
    at a time (`next`). A filter by player (or tournament) together with another checks at most
    1,000 of that player's games per page: such a page may hold fewer than `limit`, and `next`
    goes on from where it stopped."""
    filters = {k: query.get(k) for k in ("game", "status", "player", "tournament")}
    page = game_service().listings.page(query["limit"], query.get("cursor"), **filters)
    return {"games": page.items, "next": next_link(".list_games", query, page)}


@blp.get("/tournaments")
@blp.arguments(TournamentsQuerySchema, location="query")
@blp.response(200, TournamentsPageSchema)
def list_tournaments(query: dict[str, Any]) -> Any:
    """The tournaments, newest activity first, by game and status; a page at a time (`next`)."""
    service = tournament_service()
    page = service.listings.page(query["limit"], query.get("cursor"), query.get("game"), query.get("status"))
    return {"tournaments": page.items, "next": next_link(".list_tournaments", query, page)}
