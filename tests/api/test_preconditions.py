"""Optimistic concurrency (ETag / If-Match / If-None-Match) and retry-safe Idempotency-Keys."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.api.helpers import bearer, create_game, events, post, view
from tests.backends import store_backend  # noqa: F401  (on one Redis and on a cluster)

DRAW = {"type": "DrawCard", "source": "stack"}


def test_views_carry_the_version_as_etag_and_answer_304_when_unchanged(
    client: FlaskClient,
) -> None:
    game = create_game(client)
    path = f"/games/{game['game_id']}"
    first = client.get(path, headers=bearer(game["tokens"][0]))
    assert first.headers["ETag"] == f'"{game["version"]}"'

    cached = client.get(path, headers={**bearer(game["tokens"][0]), "If-None-Match": first.headers["ETag"]})
    assert (cached.status_code, cached.data) == (304, b"")
    assert cached.headers["ETag"] == first.headers["ETag"]

    post(client, game, 0, DRAW)
    changed = client.get(path, headers={"If-None-Match": first.headers["ETag"]})
    assert changed.status_code == 200
    assert changed.headers["ETag"] == f'"{changed.json["version"]}"'


def test_a_stale_if_match_is_refused_with_412_and_nothing_is_written(client: FlaskClient) -> None:
    game = create_game(client)
    stale = f'"{game["version"] - 1}"'

    answer = post(client, game, 0, DRAW, **{"If-Match": stale})

    assert (answer.status_code, answer.json["code"]) == (412, "version_mismatch")
    assert answer.mimetype == "application/problem+json"
    assert view(client, game)["version"] == game["version"]
    fresh = post(client, game, 0, DRAW, **{"If-Match": f'"{game["version"]}"'})
    assert fresh.status_code == 200
    assert fresh.headers["ETag"] == f'"{fresh.json["version"]}"'


def test_a_tournament_game_requires_if_match(client: FlaskClient) -> None:
    game = create_game(client, mode="tournament")

    missing = post(client, game, 0, DRAW)
    star = post(client, game, 0, DRAW, **{"If-Match": "*"})
    given = post(client, game, 0, DRAW, **{"If-Match": f'"{game["version"]}"'})

    assert (missing.status_code, missing.json["code"]) == (428, "if_match_required")
    assert (star.status_code, star.json["code"]) == (428, "if_match_required")
    assert given.status_code == 200


def test_a_casual_game_takes_commands_without_if_match(client: FlaskClient) -> None:
    game = create_game(client)
    assert post(client, game, 0, DRAW).status_code == 200


def test_an_idempotency_key_replay_gives_the_first_answer_and_appends_once(
    client: FlaskClient,
) -> None:
    game = create_game(client)
    key = {"Idempotency-Key": "turn-1-draw"}

    first = post(client, game, 0, DRAW, **key)
    again = post(client, game, 0, DRAW, **key)

    assert first.status_code == again.status_code == 200
    assert again.json == {**first.json, "duplicate": True}
    assert first.json["duplicate"] is False
    assert view(client, game)["version"] == first.json["version"]
    assert len(events(client, game)["events"]) == first.json["version"]


def test_an_idempotency_key_with_another_body_is_refused(client: FlaskClient) -> None:
    game = create_game(client)
    key = {"Idempotency-Key": "k-1"}
    first = post(client, game, 0, DRAW, **key)
    face_up = view(client, game, 1)["face_up"][0]

    other = post(client, game, 1, DRAW, **key)  # another seat: its own key space
    reused = post(client, game, 1, {"type": "DrawCard", "source": "face_up", "card": face_up}, **key)

    assert other.status_code == 200
    assert (reused.status_code, reused.json["code"]) == (422, "idempotency_key_reused")
    assert view(client, game)["version"] == other.json["version"] > first.json["version"]


def test_an_if_match_without_a_version_tag_is_a_400_bad_if_match_and_writes_nothing(
    client: FlaskClient,
) -> None:
    game = create_game(client)
    for header in ('""', "garbage", 'W/"1"', '"abc"', f'"{"9" * 5000}"', ","):
        answer = post(client, game, 0, DRAW, **{"If-Match": header})
        assert (answer.status_code, answer.json["code"]) == (400, "bad_if_match"), header
        assert answer.mimetype == "application/problem+json"
    assert view(client, game)["version"] == game["version"]
