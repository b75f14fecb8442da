"""A rated result without playing a game: a forfeit (not rated) corrected by the organizer into
a played result (rated)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask.testing import FlaskClient

from tests.api.tournament_helpers import organize, view


def result_of(table: dict[str, Any], order: list[str]) -> dict[str, Any]:
    """A GameEnded's data whose places follow `order` (entrant ids, the winner first)."""
    totals = [10 - 2 * order.index(entrant) for entrant in table["seats"]]
    return {"winner": totals.index(max(totals)), "totals": totals, "reason": "islands_scored"}


def correct(client: FlaskClient, tournament: dict[str, Any], table: dict[str, Any], order: list[str]) -> None:
    body = {"type": "CorrectResult", "game_id": table["game_id"], "result": result_of(table, order)}
    organize(client, tournament, {**body, "reason": "score sheet"})


def rated_by_forfeit_and_correction(
    client: FlaskClient, run_jobs: Callable[[], None], tournament: dict[str, Any], order: list[str]
) -> dict[str, Any]:
    """Start, pair one table, forfeit its first seat, then correct the result to places that
    follow `order`, and let the ratings run; the table."""
    organize(client, tournament, {"type": "StartTournament"})
    organize(client, tournament, {"type": "PairRound"})
    (table,) = view(client, tournament)["tables"]
    forfeit = {"type": "ForfeitSeat", "game_id": table["game_id"], "seat": 0, "reason": "no_show"}
    organize(client, tournament, forfeit)
    correct(client, tournament, table, order)
    run_jobs()
    return dict(table)
