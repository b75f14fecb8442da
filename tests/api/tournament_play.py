"""Playing a tournament to its end through HTTP: people's seats play random legal commands
with the seat tokens /me hands them, computer seats and scoring run on the worker."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from flask.testing import FlaskClient

from tests.api.helpers import bearer, choose
from tests.api.tournament_helpers import me, organize, view


def play_round(
    client: FlaskClient,
    tournament: dict[str, Any],
    people: dict[str, str],
    rng: random.Random,
    run_jobs: Callable[[], None],
    max_steps: int = 20000,
) -> dict[str, Any]:
    """Play the current round until every table has its result; the tournament then.

    `people`: entrant id -> entrant token, for the entrants that play over HTTP."""
    for _ in range(max_steps):
        run_jobs()
        current = view(client, tournament)
        if current["completed"] == current["round"]:
            return current
        moved = False
        for token in people.values():
            game = me(client, tournament, token)["game"]
            if game is None or game["finished"] or game["round"] != current["round"]:
                continue
            moved |= _move(client, game, rng)
        if not moved and view(client, tournament) == current:
            raise AssertionError(f"round {current['round']} is stuck: {_waiting(client, current)}")
    raise AssertionError("the round did not end")


def _waiting(client: FlaskClient, current: dict[str, Any]) -> list[dict[str, Any]]:
    """What each game without a result shows: where it stands and its last events."""
    shown = []
    for table in current["tables"]:
        if table["result"] is None and table["game_id"] is not None:
            game = client.get(f"/games/{table['game_id']}").json
            events = client.get(f"/games/{table['game_id']}/events").json["events"]
            keys = ("phase", "active", "pending", "round", "version", "seats")
            shown.append({**{k: game.get(k) for k in keys}, "last": [e["type"] for e in events[-5:]]})
    return shown


def _move(client: FlaskClient, game: dict[str, Any], rng: random.Random) -> bool:
    """Random legal commands of the seat for as long as it has some; whether it moved."""
    headers = bearer(game["seat_token"])
    moved = False
    while commands := (legal := client.get(f"{game['url']}/legal", headers=headers).json)["commands"]:
        answer = client.post(
            f"{game['url']}/commands",
            json=choose(rng, commands),
            headers={**headers, "If-Match": f'"{legal["version"]}"'},
        )
        assert answer.status_code == 200, answer.json
        moved = True
    return moved


def play_tournament(
    client: FlaskClient,
    tournament: dict[str, Any],
    people: dict[str, str],
    rng: random.Random,
    run_jobs: Callable[[], None],
) -> dict[str, Any]:
    """Pair and play every planned round, then close; the closed tournament."""
    current = view(client, tournament)
    while current["round"] < current["rounds"]:
        organize(client, tournament, {"type": "PairRound"})
        current = play_round(client, tournament, people, rng, run_jobs)
    organize(client, tournament, {"type": "CloseTournament"})
    return view(client, tournament)
