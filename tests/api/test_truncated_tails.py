"""A tail deleted from a stream in the store (XDEL, outside the service) is reported as
chain_truncated, with the last version the store's head vouches for, by /verify, /audit and
every load: a 409 problem, never a 500, and a closed tournament never reopens."""

from __future__ import annotations

import redis
from flask.testing import FlaskClient
from redis.cluster import RedisCluster

from service.keys import GAME, TOURNAMENT, layout_of
from service.store import stream_key
from tests.api.helpers import bearer, create_game, legal_commands, post
from tests.api.tournament_helpers import command, create_tournament, me, organize, register
from tests.backends import store_backend  # noqa: F401  (each test on one Redis and on a cluster)

PROBLEM_JSON = "application/problem+json"


def _cut(client: redis.Redis | RedisCluster, kind: str, stream_id: str, versions: range) -> None:
    """Delete the entries of `versions` from the stream, as a hand outside the service would."""
    key = stream_key(stream_id, kind, layout_of(client))
    assert client.xdel(key, *(f"0-{v}" for v in versions)) == len(versions)


def _truncated(answer: object, stored: int, vouched: int) -> None:
    status, body = answer.status_code, answer.json  # type: ignore[attr-defined]
    assert (status, answer.mimetype) == (409, PROBLEM_JSON), body  # type: ignore[attr-defined]
    assert (body["code"], body["stored_version"], body["vouched_version"]) == (
        "chain_truncated",
        stored,
        vouched,
    )


def _played(client: FlaskClient) -> tuple[dict, int]:
    """A casual game a few commands in; its version."""
    game = create_game(client)
    for _ in range(3):
        commands = legal_commands(client, game, 0)["commands"]
        if not commands:
            break
        assert post(client, game, 0, commands[0]).status_code == 200
    version: int = client.get(f"/games/{game['game_id']}").json["version"]  # warms the fold cache too
    return game, version


def test_a_game_missing_its_last_events_is_chain_truncated_for_every_reader(
    client: FlaskClient, events_client: redis.Redis | RedisCluster
) -> None:
    game, newest = _played(client)
    seat_command = legal_commands(client, game, 0)["commands"][0]
    url = f"/games/{game['game_id']}"

    _cut(events_client, GAME, game["game_id"], range(newest - 1, newest + 1))

    verified = client.get(f"{url}/verify")
    assert verified.status_code == 200
    assert (verified.json["ok"], verified.json["first_bad_version"]) == (False, newest - 1)
    assert verified.json["version"] == newest - 2
    assert verified.json["chain_truncated"] == {"stored_version": newest - 2, "vouched_version": newest}
    for path in ("", "/events", "/legal", "/export"):
        _truncated(client.get(f"{url}{path}", headers=bearer(game["tokens"][0])), newest - 2, newest)
    _truncated(post(client, game, 0, seat_command), newest - 2, newest)
    assert events_client.xlen(stream_key(game["game_id"], GAME, layout_of(events_client))) == newest - 2


def test_a_closed_tournament_missing_its_close_stays_closed_and_every_reader_says_chain_truncated(
    client: FlaskClient, events_client: redis.Redis | RedisCluster
) -> None:
    tournament = create_tournament(client, rounds=1)
    ann, ben = register(client, tournament, name="Ann"), register(client, tournament, name="Ben")
    organize(client, tournament, {"type": "StartTournament"})
    organize(client, tournament, {"type": "PairRound"})
    game = me(client, tournament, ben["token"])["game"]
    tid = tournament["tournament_id"]
    withdrawn = client.post(
        f"/tournaments/{tid}/entrants/{ann['entrant']}/withdraw", headers=bearer(ann["token"])
    )
    assert withdrawn.status_code == 200
    closed = organize(client, tournament, {"type": "CloseTournament"})["version"]

    _cut(
        events_client, TOURNAMENT, tid, range(closed - 2, closed + 1)
    )  # the result, the round's end, the close

    audit = client.get(f"/tournaments/{tid}/audit")
    assert audit.status_code == 200 and audit.json["ok"] is False
    assert audit.json["chain_truncated"] == {
        "stream": "tournament",
        "stored_version": closed - 3,
        "vouched_version": closed,
    }
    assert audit.json["broken"]["version"] == closed - 2
    for path in ("", "/events", "/standings", "/export"):
        _truncated(client.get(f"/tournaments/{tid}{path}"), closed - 3, closed)
    correction = {
        "type": "CorrectResult",
        "game_id": game["game_id"],
        "result": {"winner": 1, "totals": [0, 1], "reason": "points"},
        "reason": "a late change",
    }
    _truncated(command(client, tournament, correction), closed - 3, closed)
    _truncated(command(client, tournament, {"type": "CloseTournament"}), closed - 3, closed)
    version = client.get(game["url"]).json["version"]
    late = client.post(
        f"{game['url']}/corrections",
        json={"to_version": 2, "reason": "a late change"},
        headers={**bearer(tournament["organizer_token"]), "If-Match": f'"{version}"'},
    )
    _truncated(late, closed - 3, closed)


def test_a_tournament_game_missing_its_tail_fails_the_tournament_audit(
    client: FlaskClient, events_client: redis.Redis | RedisCluster
) -> None:
    tournament = create_tournament(client, rounds=1)
    register(client, tournament, name="Ann")
    ben = register(client, tournament, name="Ben")
    organize(client, tournament, {"type": "StartTournament"})
    organize(client, tournament, {"type": "PairRound"})
    game = me(client, tournament, ben["token"])["game"]
    newest = client.get(game["url"]).json["version"]

    _cut(events_client, GAME, game["game_id"], range(newest, newest + 1))

    audit = client.get(f"/tournaments/{tournament['tournament_id']}/audit")
    assert audit.status_code == 200 and audit.json["ok"] is False
    assert audit.json["chain_truncated"] == {
        "stream": f"game {game['game_id']}",
        "stored_version": newest - 1,
        "vouched_version": newest,
    }
    _truncated(client.get(game["url"]), newest - 1, newest)
