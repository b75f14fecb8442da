"""A Swiss paired by rating: the lots are drawn with each entrant's rating for the game, and
the pairing numbers (and the TRF's start numbers) follow the ratings, then the lots."""

from __future__ import annotations

import json

import redis
from flask.testing import FlaskClient

from service.ratings_projection import KEY, empty
from tests.api.tournament_helpers import create_tournament, organize, register


def rated(redis_client: redis.Redis, game: str, ordinals: dict[str, float]) -> None:
    """The ratings projection as if these people had played rated games of `game`."""
    doc = empty()
    doc["ratings"][game] = {
        f"person:{name.casefold()}": {"player": f"person:{name.casefold()}", "name": name, "ordinal": o}
        for name, o in ordinals.items()
    }
    redis_client.set(KEY, json.dumps(doc))


def test_pairing_numbers_follow_the_ratings_the_unrated_last(
    client: FlaskClient, redis_client: redis.Redis
) -> None:
    rated(redis_client, "kahuna", {"Cy": 12.5, "Bo": 3.0})
    tournament = create_tournament(client, rounds=1, pairing_numbers="ratings")
    for name in ("Ann", "Bo", "Cy", "Di"):
        register(client, tournament, name=name)
    organize(client, tournament, {"type": "StartTournament"})
    tid = tournament["tournament_id"]
    view = client.get(f"/tournaments/{tid}").json
    names = {e["id"]: e["name"] for e in view["entrants"]}
    order = [names[e] for e in view["pairing_order"]]
    assert order[:2] == ["Cy", "Bo"] and sorted(order[2:]) == ["Ann", "Di"]
    unrated = [names[e] for e in view["lots"] if names[e] in ("Ann", "Di")]
    assert order[2:] == unrated  # the unrated by their lots
    organize(client, tournament, {"type": "PairRound"})
    trf = client.get(f"/tournaments/{tid}/pairings?format=trf").get_data(as_text=True)
    numbers = [line[14:47].strip() for line in trf.splitlines() if line.startswith("001")]
    assert numbers == order
    # Round 1: 1-3 and 2-4 by pairing number.
    tables = client.get(f"/tournaments/{tid}").json["tables"]
    assert [{names[e] for e in t["seats"]} for t in tables] == [{order[0], order[2]}, {order[1], order[3]}]


def test_pairing_by_rating_is_for_a_swiss(client: FlaskClient) -> None:
    body = {"game": "kahuna", "format": "round_robin", "pairing_numbers": "ratings"}
    answer = client.post("/tournaments", json=body)
    assert (answer.status_code, answer.json["code"]) == (422, "bad_pairing_numbers")
    answer = client.post(
        "/tournaments", json={"game": "kahuna", "format": "swiss", "rounds": 2, "pairing_numbers": "elo"}
    )
    assert (answer.status_code, answer.json["code"]) == (422, "invalid_request")
