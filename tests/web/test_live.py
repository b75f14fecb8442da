"""Live updates: the play page listens to its game's SSE stream from the version it shows."""

from __future__ import annotations

from collections.abc import Callable

from flask.testing import FlaskClient

from tests.api.helpers import create_game, legal_commands, parse_sse, post
from tests.web.pages import by_id


def page_stream(client: FlaskClient, game_id: str) -> tuple[str, int]:
    """The stream URL and the version the page hands its script."""
    root = by_id(client.get(f"/play/{game_id}").get_data(as_text=True), "game")
    assert root is not None
    return root["data-stream-url"], int(root["data-version"])


def test_the_page_streams_each_event_after_the_version_it_shows(client: FlaskClient) -> None:
    created = create_game(client)
    url, shown = page_stream(client, created["game_id"])
    draw = next(c for c in legal_commands(client, created, 0)["commands"] if c["type"] == "DrawCard")
    answer = post(client, created, 0, draw).json

    streamed = parse_sse(client.get(f"{url}?after={shown}").get_data(as_text=True))
    assert [e["version"] for e in streamed] == list(range(shown + 1, answer["version"] + 1))


def test_a_reconnecting_page_resumes_after_the_last_event_it_saw(client: FlaskClient) -> None:
    created = create_game(client)
    url, shown = page_stream(client, created["game_id"])
    draw = next(c for c in legal_commands(client, created, 0)["commands"] if c["type"] == "DrawCard")
    newest = post(client, created, 0, draw).json["version"]

    resumed = client.get(f"{url}?after=0", headers={"Last-Event-ID": str(newest - 1)})
    assert [e["version"] for e in parse_sse(resumed.get_data(as_text=True))] == [newest]


def test_the_computers_moves_reach_the_page_as_they_are_made(
    client: FlaskClient, run_jobs: Callable[[], None]
) -> None:
    seats = [{"name": "Ann"}, {"name": "Robo", "ai": "random", "level": 1}]
    created = client.post("/games", json={"game": "kahuna", "seats": seats, "first_seat": 1}).json
    url, shown = page_stream(client, created["game_id"])
    run_jobs()  # the computer plays its turn

    streamed = parse_sse(client.get(f"{url}?after={shown}").get_data(as_text=True))
    assert streamed and {e["actor"] for e in streamed} >= {"seat:1"}
    panel = client.get(f"/play/{created['game_id']}/panel").get_data(as_text=True)
    assert f'data-version="{streamed[-1]["version"]}"' in panel
