"""The game families that live in the tests (tests/families), registered by the test suite only,
through every HTTP surface: create, /legal, commands, views, undo and takeback, replay, export and
import, notation, the play and replay pages, a tournament of people, one of computer entrants, and
one where a person meets a computer entrant.

Each family runs with its end event named its own way and a secret of the server's (Hidden Nim's
pile), so nothing here would pass on a name the platform matched instead of asking the module.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from domain.games import rules_for
from tests.api.helpers import bearer, events, legal_commands, post, view
from tests.api.tournament_helpers import create_tournament, me, organize, register
from tests.families.registered import TEST_GAMES

NDJSON = "application/x-ndjson"
pytestmark = [pytest.mark.usefixtures("test_families"), pytest.mark.parametrize("name", TEST_GAMES)]


def create(client: FlaskClient, name: str) -> dict[str, Any]:
    seats = [{"name": "Ann"}, {"name": "Ben"}]
    answer = client.post("/games", json={"game": name, "seats": seats, "first_seat": 0})
    assert answer.status_code == 201, answer.json
    game: dict[str, Any] = answer.json
    game["tokens"] = [s.get("token") for s in game["seats"]]
    return game


def play_to_the_end(client: FlaskClient, game: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    for _ in range(200):
        current = view(client, game)
        if current["phase"] == "ended":
            return current
        seat = current["active"]
        command = rng.choice(legal_commands(client, game, seat)["commands"])
        answer = post(client, game, seat, command)
        assert answer.status_code == 200, answer.json
    raise AssertionError("the game did not end")


def test_a_test_family_plays_through_the_api_to_its_declared_end(client: FlaskClient, name: str) -> None:
    game = create(client, name)
    assert legal_commands(client, game, 0)["commands"] and legal_commands(client, game, 1)["commands"] == []
    refused = post(client, game, 0, {"type": "Jump"})
    assert refused.status_code == 422 and refused.mimetype == "application/problem+json"

    ended = play_to_the_end(client, game, random.Random(4))

    log = events(client, game)["events"]
    assert log[-1]["type"] == rules_for(name).end_event and ended["result"] is not None
    late = post(client, game, 0, {"type": "RequestTakeback", "to_version": 2})
    assert (late.status_code, late.json["code"]) == (409, "game_ended")
    resigned = post(client, game, 1, {"type": "Resign"})
    assert (resigned.status_code, resigned.json["code"]) == (409, "game_over")
    assert client.get(f"/games/{game['game_id']}").json["ending"]["how"] == "rules"


def test_a_test_family_keeps_its_secret_until_the_end(client: FlaskClient, name: str) -> None:
    game = create(client, name)
    dealt = events(client, game, 0)["events"][1]
    assert dealt["secret"] is None and dealt.get("redacted")
    ended = play_to_the_end(client, game, random.Random(6))
    assert events(client, game, 0)["events"][1]["secret"] is not None  # revealed at the end
    assert ended["result"]


def test_a_test_family_takes_back_a_move_by_request(client: FlaskClient, name: str) -> None:
    game = create(client, name)
    assert post(client, game, 0, legal_commands(client, game, 0)["commands"][0]).status_code == 200
    undone = post(client, game, 0, {"type": "Undo"})  # its move ended its turn: too late to undo
    assert (undone.status_code, undone.json["code"]) == (409, "nothing_to_undo")
    before = view(client, game)
    assert post(client, game, 1, legal_commands(client, game, 1)["commands"][0]).status_code == 200

    asked = post(client, game, 1, {"type": "RequestTakeback", "to_version": before["version"]})
    accepted = post(client, game, 0, {"type": "AnswerTakeback", "accept": True})

    assert asked.status_code == 200 and accepted.status_code == 200, (asked.json, accepted.json)
    after = view(client, game)
    assert (after["taken"], after["active"]) == (before["taken"], before["active"])


def test_a_test_family_replays_exports_imports_and_writes_its_notation(
    client: FlaskClient, name: str
) -> None:
    game = create(client, name)
    ended = play_to_the_end(client, game, random.Random(5))
    gid = game["game_id"]
    replay = client.get(f"/games/{gid}/replay")
    assert replay.status_code == 200 and replay.json["steps"]
    notation = client.get(f"/games/{gid}/notation")
    assert notation.status_code == 200 and f'[Game "{name}"]' in notation.get_data(as_text=True)
    exported = client.get(f"/games/{gid}/export")
    assert exported.status_code == 200

    imported = client.post("/games/import", data=exported.data, content_type=NDJSON)

    assert imported.status_code == 201, imported.json
    again = client.get(f"/games/{imported.json['game_id']}")
    assert again.status_code == 200 and again.json["result"] == ended["result"]


def test_a_test_family_has_its_play_and_replay_pages(client: FlaskClient, name: str) -> None:
    game = create(client, name)
    title = rules_for(name).words.title
    for path in (f"/play/{game['game_id']}", f"/play/{game['game_id']}/panel"):
        page = client.get(path, headers=bearer(game["tokens"][0]))
        assert (
            page.status_code == 200
            and title in page.get_data(as_text=True)
            and "<svg" in page.get_data(as_text=True)
        )
    said = rules_for(name).words.command(legal_commands(client, game, 0)["commands"][0], ["Ann", "Ben"])
    assert said and said in client.get(
        f"/play/{game['game_id']}/panel", headers=bearer(game["tokens"][0])
    ).get_data(as_text=True)
    play_to_the_end(client, game, random.Random(3))
    replay = client.get(f"/replay/{game['game_id']}")
    assert replay.status_code == 200 and title in replay.get_data(as_text=True)


def test_a_tournament_of_a_test_family_is_played_by_people(
    client: FlaskClient, run_jobs: Callable[[], None], name: str
) -> None:
    tournament = create_tournament(client, game=name, format="round_robin", rounds=None)
    ann = register(client, tournament, name="Ann")
    ben = register(client, tournament, name="Ben")
    organize(client, tournament, {"type": "StartTournament"})
    organize(client, tournament, {"type": "PairRound"})
    seats = {
        me(client, tournament, who["token"])["game"]["seat"]: me(client, tournament, who["token"])["game"]
        for who in (ann, ben)
    }
    rng = random.Random(2)
    for _ in range(200):
        current = client.get(seats[0]["url"]).json
        if current["phase"] == "ended":
            break
        seat = seats[current["active"]]
        legal = client.get(f"{seat['url']}/legal", headers=bearer(seat["seat_token"])).json["commands"]
        headers = {**bearer(seat["seat_token"]), "If-Match": f'"{current["version"]}"'}
        answer = client.post(f"{seat['url']}/commands", json=rng.choice(legal), headers=headers)
        assert answer.status_code == 200, answer.json
    run_jobs()
    table = client.get(f"/tournaments/{tournament['tournament_id']}").json["tables"][0]
    assert table["result"] is not None and table["result"]["how"] != "forfeit"


def test_a_tournament_of_a_test_family_is_played_by_computer_entrants(
    client: FlaskClient, run_jobs: Callable[[], None], name: str
) -> None:
    tournament = create_tournament(client, game=name, format="round_robin", rounds=None)
    register(client, tournament, kind="ai", level=1)
    register(client, tournament, kind="ai", level=2)
    organize(client, tournament, {"type": "StartTournament"})
    organize(client, tournament, {"type": "PairRound"})
    for _ in range(100):
        run_jobs()
        current = client.get(f"/tournaments/{tournament['tournament_id']}").json
        if current["completed"] == current["round"]:
            break
    else:
        raise AssertionError("the computer entrants did not finish their game")
    table = current["tables"][0]
    game = client.get(f"/games/{table['game_id']}/events").json["events"]
    assert game[-1]["type"] == rules_for(name).end_event
    assert table["result"]["final_hash"] == game[-1]["hash"]


def test_a_tournament_of_a_test_family_pairs_a_person_with_a_computer_entrant(
    client: FlaskClient, run_jobs: Callable[[], None], name: str
) -> None:
    tournament = create_tournament(client, game=name, format="round_robin", rounds=None)
    ann = register(client, tournament, name="Ann")
    register(client, tournament, kind="ai", level=1)
    organize(client, tournament, {"type": "StartTournament"})
    organize(client, tournament, {"type": "PairRound"})
    seat = me(client, tournament, ann["token"])["game"]
    rng, played = random.Random(3), 0
    for _ in range(100):
        current = client.get(seat["url"]).json
        if current["phase"] == "ended":
            break
        legal = client.get(f"{seat['url']}/legal", headers=bearer(seat["seat_token"])).json["commands"]
        if not legal:
            run_jobs()  # the computer's move
            continue
        headers = {**bearer(seat["seat_token"]), "If-Match": f'"{current["version"]}"'}
        answer = client.post(f"{seat['url']}/commands", json=rng.choice(legal), headers=headers)
        assert answer.status_code == 200, answer.json
        played += 1
    run_jobs()  # the standings
    log = client.get(f"{seat['url']}/events").json["events"]
    movers = {e["command"]["seat"] for e in log if e.get("command") and e["type"] != log[0]["type"]}
    assert played >= 1 and {seat["seat"], 1 - seat["seat"]} <= movers, movers
    table = client.get(f"/tournaments/{tournament['tournament_id']}").json["tables"][0]
    assert log[-1]["type"] == rules_for(name).end_event
    assert table["result"] is not None and table["result"]["final_hash"] == log[-1]["hash"]
