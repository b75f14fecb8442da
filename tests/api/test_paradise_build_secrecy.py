"""Q-1 over HTTP (issue P16 item 15): while seats commit their build orders, another seat's
view, its event feed and stream, a spectator's, and the game's version tell nothing of how many
orders a seat gave; after the last commit every order is shown and applied."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.api.helpers import bearer, events, post, sse_events, view

NAME = "conquest-of-paradise"
TONGA = [5, 6]
ORDERS = {
    "none": [],
    "one": [{"item": "band", "hex": TONGA}],
    "three": [{"item": "rotate"}, {"item": "band", "hex": TONGA}, {"item": "transport", "hex": TONGA}],
}
SHAPE = ("version", "type", "data", "audience", "actor", "redacted")
"""What every reader of an event sees; the rest (ids, times, hashes, digests) differs by game,
though every event has the same fields whatever the orders."""


def _building(client: FlaskClient) -> dict[str, Any]:
    """A two-player game at its first build phase, seat 0 to commit first."""
    body = {"game": NAME, "seats": [{"name": "Ann"}, {"name": "Ben"}], "first_seat": 0}
    answer = client.post("/games", json={**body, "options": {"last_turn": 2}})
    assert answer.status_code == 201, answer.json
    game: dict[str, Any] = answer.json
    game["tokens"] = [s.get("token") for s in game["seats"]]
    assert post(client, game, 0, {"type": "ChooseOrder", "first": 0, "clockwise": True}).status_code == 200
    for command in ("EndExploration", "EndMovement"):
        for seat in (0, 1):
            assert post(client, game, seat, {"type": command}).status_code == 200
    assert view(client, game, 0)["phase"] == "build"
    return game


def _streamed(
    client: FlaskClient, game: dict[str, Any], seat: int | None, after: int
) -> list[dict[str, Any]]:
    headers = {} if seat is None else bearer(game["tokens"][seat])
    stream = client.get(f"/games/{game['game_id']}/stream?after={after}", headers=headers)
    assert stream.status_code == 200
    return sse_events(stream)


def _as_read_by(client: FlaskClient, game: dict[str, Any], seat: int | None, after: int) -> dict[str, Any]:
    """Everything `seat` (None: a spectator) may read of the game after version `after`."""
    fed = events(client, game, seat, after=after)["events"]
    streamed = _streamed(client, game, seat, after)
    for event in fed + streamed:
        assert event.get("secret") is None, event
    seen = view(client, game, seat)
    answer = client.get(
        f"/games/{game['game_id']}", headers={} if seat is None else bearer(game["tokens"][seat])
    )
    return {
        "feed": [{"keys": sorted(e), **{k: e.get(k) for k in SHAPE}} for e in fed],
        "stream": [{"keys": sorted(e), **{k: e.get(k) for k in SHAPE}} for e in streamed],
        "view": {k: v for k, v in seen.items() if k not in ("game_id", "created_at", "updated_at")},
        "etag": answer.headers.get("ETag"),
    }


def test_Q1_no_one_learns_how_many_build_orders_a_seat_gave_before_all_commit(client: FlaskClient) -> None:
    read: dict[str, dict[str, Any]] = {}
    for name, orders in ORDERS.items():
        game = _building(client)
        before = view(client, game, 1)["version"]
        committed = post(client, game, 0, {"type": "EndBuild", "orders": orders})
        assert committed.status_code == 200, committed.json
        mine = events(client, game, 0, after=before)["events"]
        assert [e["type"] for e in mine] == ["BuildCommitted"]
        assert mine[0]["secret"]["orders"] == [{"hex": None, **o} for o in orders]
        read[name] = {
            "ben": _as_read_by(client, game, 1, before),
            "spectator": _as_read_by(client, game, None, before),
        }
    assert read["none"] == read["one"] == read["three"]
    assert [e["version"] for e in read["three"]["ben"]["feed"]] == [before + 1]


def test_Q1_after_the_last_commit_every_order_is_shown_and_applied(client: FlaskClient) -> None:
    game = _building(client)
    assert post(client, game, 0, {"type": "EndBuild", "orders": ORDERS["three"]}).status_code == 200
    assert view(client, game, 0)["draft"]["committed"] is True
    before = view(client, game, 1)["version"]
    assert post(client, game, 1, {"type": "EndBuild"}).status_code == 200
    shown = [e for e in events(client, game, 1, after=before)["events"] if e["type"] == "BuildRevealed"]
    assert [e["data"]["seat"] for e in shown] == [0]
    assert shown[0]["data"]["placed"] == {"5,6": 2} and shown[0]["data"]["rotate"] is True
    stacks = {(tuple(s["hex"]), s["seat"]): s for s in view(client, game, 0)["stacks"]}
    assert stacks[((5, 6), 0)]["pieces"]["band"] == 3 and stacks[((5, 6), 0)]["pieces"]["transport"] >= 1


def test_Q1_a_bad_list_of_orders_is_refused_and_writes_nothing(client: FlaskClient) -> None:
    game = _building(client)
    before = view(client, game, 0)["version"]
    for orders, code in (
        ([{"item": "band", "hex": TONGA}] * 3, "cannot_build"),  # two points only
        ([{"hex": TONGA}], "invalid_request"),  # no item
        ([{"item": "band", "hex": [5]}], "invalid_request"),
        ("band", "invalid_request"),
    ):
        answer = post(client, game, 0, {"type": "EndBuild", "orders": orders})
        assert answer.status_code == 422 and answer.mimetype == "application/problem+json"
        assert answer.json["code"] == code and "orders" in answer.json["errors"], answer.json
    assert view(client, game, 0)["version"] == before
