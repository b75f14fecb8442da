"""The lobby's and the tournaments' lists on a Redis Cluster: they read the all-events stream of
every bucket and order the games by their newest event across buckets."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from service.keys import CLUSTER
from tests.api.helpers import create_game, post
from tests.api.tournament_helpers import create_tournament
from tests.web.pages import elements


@pytest.fixture
def store_backend() -> str:
    return "cluster"


def _listed(client: FlaskClient, path: str, attribute: str) -> list[str]:
    html = client.get(path).get_data(as_text=True)
    return [a[attribute] for tag, a, _ in elements(html) if attribute in a and tag in ("tr", "li", "a")]


def test_the_lobby_lists_the_games_of_every_bucket_newest_activity_first(client: FlaskClient) -> None:
    games = [create_game(client) for _ in range(5)]
    assert len({CLUSTER.bucket(g["game_id"]) for g in games}) > 1
    moved = post(client, games[0], 0, {"type": "DrawCard", "source": "stack"})
    assert moved.status_code == 200, moved.json

    rows = list(dict.fromkeys(_listed(client, "/", "data-game-id")))

    assert rows == [games[0]["game_id"], *(g["game_id"] for g in reversed(games[1:]))]


def test_the_tournaments_list_shows_the_tournaments_of_every_bucket(client: FlaskClient) -> None:
    made = [create_tournament(client, name=f"Open {i}")["tournament_id"] for i in range(4)]
    assert len({CLUSTER.bucket(t) for t in made}) > 1
    html = client.get("/t").get_data(as_text=True)
    assert all(f"/t/{t}" in html for t in made)
    assert [html.index(f"/t/{t}") for t in reversed(made)] == sorted(html.index(f"/t/{t}") for t in made)
