"""Reports of a tournament from its view (domain.tournament.module.view): standings, crosstable,
pairings as JSON-ready values and CSV, and a 2-player tournament as a FIDE TRF file.

The view holds every fact the reports need (entrants, tables with their results, byes, the
standings with their tie-breaks), so a report is a pure function of it. CSV is RFC 4180
(comma, "\\r\\n"); ranks are 1-based; a half is written 0.5, except in the crosstable's cells.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

STANDINGS_COLUMNS = (
    "rank", "entrant", "name", "points", "island_points", "buchholz", "sonneborn_berger",
    "direct_encounter", "games", "byes", "withdrawn",
)  # fmt: skip
PAIRINGS_COLUMNS = ("round", "table", "game_id", "entrants", "points", "how")
OUTCOMES = {1.0: "1", 0.5: "½", 0.0: "0"}
# A meeting one seat lost by forfeiting, written as the TRF writes it (no game was played out).
FORFEITS = {1.0: "+", 0.0: "-"}


def _csv(rows: Iterable[Sequence[Any]]) -> str:
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue()


def figure(value: Any) -> str:
    """A number as the reports print it: 3, 2.5, -4 (never 3.0)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


def names(view: Mapping[str, Any]) -> dict[str, str]:
    """Each entrant's name, by entrant id."""
    return {e["id"]: e["name"] for e in view["entrants"]}


def standings_csv(view: Mapping[str, Any]) -> str:
    """The standings as CSV: one row per entrant, first first, every tie-break in order."""
    called = names(view)
    rows: list[Sequence[Any]] = [STANDINGS_COLUMNS]
    for line in view["standings"]:
        figures = [figure(line[c]) for c in STANDINGS_COLUMNS[3:-1]]
        withdrawn = "yes" if line["withdrawn"] else ""
        rows.append([line["rank"] + 1, line["entrant"], called[line["entrant"]], *figures, withdrawn])
    return _csv(rows)


def meetings(view: Mapping[str, Any]) -> Iterable[tuple[str, str, float, Mapping[str, Any]]]:
    """Every seat against every other seat of every table with a result: (entrant, opponent,
    outcome 1 / 0.5 / 0 by their places, the table), as the standings count them."""
    for table in view["tables"]:
        result = table.get("result")
        if result is None:
            continue
        places, seats = result["places"], table["seats"]
        for i, entrant in enumerate(seats):
            for j, opponent in enumerate(seats):
                if i != j:
                    outcome = 1.0 if places[i] < places[j] else 0.5 if places[i] == places[j] else 0.0
                    yield entrant, opponent, outcome, table


def crosstable(view: Mapping[str, Any]) -> dict[str, Any]:
    """Every entrant's outcomes against every other, rows and columns in standings order.

    {"entrants": [{entrant, name, rank, points, byes: [rounds]}], "cells": {entrant: {opponent:
    [{round, outcome, how, game_id}]}}}; `how` is the table's result's: played, forfeit or
    corrected. A pair that never met has no cell.
    """
    called = names(view)
    order = [line["entrant"] for line in view["standings"]]
    cells: dict[str, dict[str, list[dict[str, Any]]]] = {e: {} for e in order}
    for entrant, opponent, outcome, table in meetings(view):
        meeting = {
            "round": table["round"],
            "outcome": outcome,
            "how": table["result"]["how"],
            "game_id": table.get("game_id"),
        }
        cells.setdefault(entrant, {}).setdefault(opponent, []).append(meeting)
    byes: dict[str, list[int]] = {}
    for bye in view["byes"]:
        byes.setdefault(bye["entrant"], []).append(bye["round"])
    entrants = [
        {
            "entrant": line["entrant"],
            "name": called[line["entrant"]],
            "rank": line["rank"] + 1,
            "points": line["points"],
            "byes": byes.get(line["entrant"], []),
        }
        for line in view["standings"]
    ]
    return {"entrants": entrants, "cells": cells}


def outcome_text(meeting: Mapping[str, Any]) -> str:
    """1, ½, 0 for a game; + and - for a win and a loss by forfeit. Two seats that shared a
    place because a third forfeited their table stand equal to each other: ½."""
    outcome = meeting["outcome"]
    if meeting.get("how") == "forfeit" and outcome in FORFEITS:
        return FORFEITS[outcome]
    return OUTCOMES.get(outcome, figure(outcome))


def cell_text(meetings: Sequence[Mapping[str, Any]]) -> str:
    """The outcomes of one pair's meetings, round by round: "1", "½ 0", "+", ..."""
    return " ".join(outcome_text(m) for m in meetings)


def crosstable_csv(view: Mapping[str, Any]) -> str:
    """The crosstable as CSV: a row per entrant, a column per opponent by rank, then the points."""
    table = crosstable(view)
    rows = table["entrants"]
    head = ["rank", "entrant", "name", *(str(r["rank"]) for r in rows), "points"]
    body = [
        [
            row["rank"],
            row["entrant"],
            row["name"],
            *(cell_text(table["cells"][row["entrant"]].get(col["entrant"], [])) for col in rows),
            figure(row["points"]),
        ]
        for row in rows
    ]
    return _csv([head, *body])


def pairings(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Round by round: the tables (seats, game, result) and the byes."""
    called = names(view)
    rounds = []
    for round_ in range(1, view["round"] + 1):
        tables = [
            {
                "table": t["index"],
                "seats": [{"entrant": e, "name": called[e]} for e in t["seats"]],
                "game_id": t.get("game_id"),
                "result": t.get("result"),
            }
            for t in view["tables"]
            if t["round"] == round_
        ]
        byes = [
            {
                "entrant": b["entrant"],
                "name": called[b["entrant"]],
                "points": b["points"],
                "reason": b["reason"],
            }
            for b in view["byes"]
            if b["round"] == round_
        ]
        rounds.append({"round": round_, "tables": tables, "byes": byes})
    return rounds


def pairings_csv(view: Mapping[str, Any]) -> str:
    """The pairings as CSV: a row per table ("Ada - Bo", points "3-1") and per bye (table "bye")."""
    rows: list[Sequence[Any]] = [PAIRINGS_COLUMNS]
    for round_ in pairings(view):
        for table in round_["tables"]:
            result = table["result"]
            points = "" if result is None else "-".join(figure(p) for p in result["points"])
            how = "" if result is None else result["how"]
            who = " - ".join(seat["name"] for seat in table["seats"])
            rows.append([round_["round"], table["table"] + 1, table["game_id"] or "", who, points, how])
        for bye in round_["byes"]:
            rows.append([round_["round"], "bye", "", bye["name"], figure(bye["points"]), bye["reason"]])
    return _csv(rows)
