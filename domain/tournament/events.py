"""Constructors of a tournament's events: stable type strings, past tense, one schema each."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.decider import Event
from domain.tournament.state import Bye, Entrant, Result, Table


def entrant_registered(entrant: Entrant, entropy: str | None = None) -> Event:
    data = {"entrant": entrant.id, "name": entrant.name, "kind": entrant.kind, "level": entrant.level}
    # Only a bound entrant names its player: the events of the others keep their earlier shape.
    bound = {} if entrant.player is None else {"player": entrant.player}
    key = {} if entrant.public_key is None else {"public_key": dict(entrant.public_key)}
    # The entrant's entropy mixes into the lots drawn after it (record.draws); kept in the event only.
    mixed = {} if entropy is None else {"entropy": entropy}
    return Event("EntrantRegistered", {**data, "round": entrant.joined, **bound, **key, **mixed})


def entrant_withdrawn(entrant_id: str, round_: int, by: str) -> Event:
    return Event("EntrantWithdrawn", {"entrant": entrant_id, "round": round_, "by": by})


def tournament_started(entrants: Sequence[str], rounds: int) -> Event:
    return Event("TournamentStarted", {"entrants": list(entrants), "rounds": rounds})


def lots_drawn(order: Sequence[str], ratings: Mapping[str, float | None] | None = None) -> Event:
    """The entrants that held no lot, in the order the service drew; they rank after the earlier
    ones. A Swiss paired by rating also records each one's rating (None: unrated)."""
    data: dict[str, Any] = {"entrants": list(order)}
    if ratings is not None:
        data["ratings"] = {e: ratings[e] for e in order}
    return Event("LotsDrawn", data)


def round_paired(round_: int, tables: Sequence[Sequence[str]], byes: Sequence[str]) -> Event:
    return Event("RoundPaired", {"round": round_, "tables": [list(t) for t in tables], "byes": list(byes)})


def bye_given(bye: Bye) -> Event:
    data = {"round": bye.round, "entrant": bye.entrant, "points": bye.points}
    return Event("ByeGiven", {**data, "island_points": bye.island_points, "reason": bye.reason})


def game_assigned(table: Table, game_id: str) -> Event:
    data = {"round": table.round, "table": table.index, "game_id": game_id, "seats": list(table.seats)}
    return Event("GameAssigned", data)


def _result(table: Table, result: Result) -> dict[str, Any]:
    return {
        "game_id": table.game_id,
        "round": table.round,
        "table": table.index,
        "seats": list(table.seats),
        "places": list(result.places),
        "points": list(result.points),
        "island_points": list(result.island_points),
        "final_hash": result.final_hash,
    }


def result_recorded(table: Table, result: Result, game_end: Mapping[str, Any]) -> Event:
    """`game_end`: the GameEnded data the points were read from, kept for the audit."""
    return Event("ResultRecorded", {**_result(table, result), "game_end": dict(game_end)})


def result_corrected(
    table: Table, result: Result, game_end: Mapping[str, Any] | None, reason: str, by: str
) -> Event:
    before = table.result
    assert before is not None
    was = {"places": list(before.places), "points": list(before.points), "final_hash": before.final_hash}
    data = {**_result(table, result), "game_end": None if game_end is None else dict(game_end)}
    return Event("ResultCorrected", {**data, "reason": reason, "by": by, "before": was})


def seat_forfeited(
    table: Table, seat: int, reason: str, result: Result, clock: Mapping[str, Any] | None
) -> Event:
    data = {**_result(table, result), "seat": seat, "entrant": table.seats[seat]}
    return Event("SeatForfeited", {**data, "reason": reason, "clock": None if clock is None else dict(clock)})


def round_completed(round_: int) -> Event:
    return Event("RoundCompleted", {"round": round_})


def tournament_closed(ranking: Sequence[str], rounds_played: int) -> Event:
    """`ranking`: every entrant, first first, as the standings stood at the close."""
    return Event("TournamentClosed", {"ranking": list(ranking), "rounds_played": rounds_played})
