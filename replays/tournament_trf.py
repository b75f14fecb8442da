"""A 2-player tournament as the FIDE TRF-16 file pairing programs and rating officers read.

Start numbers are the pairing numbers: the order of the lots, or of the ratings when the Swiss
pairs by rating (entrants without a lot, before the draw, after them in registration order).
The first seat is white; pairing number 1 had white in round 1 ("XXC white1"), as the Dutch
system's E.5 gives it. Each completed round is one column: a played game's 1 / = / 0 (a
corrected result too), a forfeit's + / -, a pairing bye U, an organizer's bye or an opponent's
withdrawal F (a full-point bye), and Z for a round the entrant was not in (absent, withdrawn,
not yet entered).

Points: the 2-player scoring of the service (win 3, draw 2, loss 1, forfeit loss 0, a bye 3)
is declared as the file's point system, and the points column is the tournament's own.
Arabana-Ikibiti's I-9 scoring (a win 3, 4 or 5 by how it ended) has no fixed value per result,
so its file maps every result to chess points instead: a win or forfeit win 1, a draw 1/2, a
loss or forfeit loss 0, U and F 1, Z 0; the points column is then those chess points and the
rank stays the tournament's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from replays.trf import STANDARD, PointSystem, TrfGame, TrfPlayer, TrfTournament, score_mismatches, write_trf

WIN_DRAW = PointSystem(
    win=3, draw=2, loss=1, forfeit_loss=0, pairing_bye=3, full_bye=3, half_bye=2, zero_bye=0
)
POINT_SYSTEMS = {"win_draw": WIN_DRAW, "i9": STANDARD}


def start_numbers(view: Mapping[str, Any]) -> dict[str, int]:
    """Each listed entrant's start number: its pairing number (the lots' order, or the ratings'
    when the Swiss pairs by rating)."""
    listed = [line["entrant"] for line in view["standings"]]
    order = [e for e in view.get("pairing_order", view["lots"]) if e in listed]
    order += [e["id"] for e in view["entrants"] if e["id"] in listed and e["id"] not in order]
    return {entrant: n for n, entrant in enumerate(order, start=1)}


def trf(
    view: Mapping[str, Any],
    *,
    city: str = "",
    federation: str = "",
    arbiter: str = "",
    start: date | None = None,
    end: date | None = None,
    round_dates: Sequence[date] = (),
) -> str:
    """A Swiss (or round robin) of a 2-player game as TRF-16 text (replays.trf.write_trf)."""
    if view["format"] == "tables":
        raise ValueError("a TRF file reports games of two players; this tournament plays at tables")
    points = POINT_SYSTEMS[view["scoring"]]
    numbers = start_numbers(view)
    called = {e["id"]: e["name"] for e in view["entrants"]}
    players = []
    for line in view["standings"]:
        entrant = line["entrant"]
        games = tuple(_game(view, entrant, r, numbers) for r in range(1, view["completed"] + 1))
        own = float(line["points"]) if points is WIN_DRAW else sum(points.points(g.result) for g in games)
        players.append(TrfPlayer(numbers[entrant], called[entrant], own, line["rank"] + 1, games))
    tournament = TrfTournament(
        name=view["name"] or view["game"],
        players=tuple(sorted(players, key=lambda p: p.number)),
        city=city,
        federation=federation,
        start=start,
        end=end,
        arbiter=arbiter,
        round_dates=tuple(round_dates),
        rounds=view["rounds"],
        points=points,
        white1=True,
    )
    if score_mismatches(tournament):
        raise ValueError(f"points that the results do not score: {score_mismatches(tournament)}")
    return write_trf(tournament)


def _game(view: Mapping[str, Any], entrant: str, round_: int, numbers: Mapping[str, int]) -> TrfGame:
    for table in view["tables"]:
        if table["round"] == round_ and entrant in table["seats"]:
            seat = table["seats"].index(entrant)
            result = table["result"]
            places = result["places"]
            won, lost = places[seat] < places[1 - seat], places[seat] > places[1 - seat]
            if result["how"] == "forfeit":
                mark = "+" if won else "-"
            else:
                mark = "1" if won else "0" if lost else "="
            return TrfGame(numbers[table["seats"][1 - seat]], "wb"[seat], mark)
    for bye in view["byes"]:
        if bye["round"] == round_ and bye["entrant"] == entrant:
            return TrfGame(None, "-", "U" if bye["reason"] == "pairing" else "F")
    return TrfGame(None, "-", "Z")
