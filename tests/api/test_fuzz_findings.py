"""What the long schemathesis run (tests/api/test_fuzz_long.py) found, held here in seconds: the
bounds the document gives the condition headers hold, a path offers only its own methods,
taking a seat of a tournament game is refused as the seat's operation documents, and a
tournament's option named longer than any game's option is the rules' refusal, not a malformed
request (the document cannot bound the names of its keys), and Explore's `from`, a hex, reaches
the rules as MoveShip's, a sea space, does."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from domain.games import GAMES
from service.api.preconditions import MAX_CONDITION
from tests.api.helpers import bearer, create_game
from tests.api.tournament_helpers import create_tournament, me, organize, register

DRAW = {"type": "DrawCard", "source": "stack"}


def test_an_if_none_match_over_its_documented_length_is_400_for_games_and_tournaments(
    client: FlaskClient,
) -> None:
    game = create_game(client)
    tournament = create_tournament(client)
    long = "0" * (MAX_CONDITION + 1)
    for path in (f"/games/{game['game_id']}", f"/tournaments/{tournament['tournament_id']}"):
        refused = client.get(path, headers={"If-None-Match": long})
        assert (refused.status_code, refused.json["code"]) == (400, "bad_if_none_match"), path
        assert client.get(path, headers={"If-None-Match": long[:MAX_CONDITION]}).status_code == 200


def test_an_if_match_over_its_documented_length_is_400_and_the_game_unchanged(client: FlaskClient) -> None:
    game = create_game(client)
    path = f"/games/{game['game_id']}/commands"
    padded = f'"{game["version"]}"'.ljust(MAX_CONDITION + 1)  # the pattern takes spaces after it
    refused = client.post(path, json=DRAW, headers={**bearer(game["tokens"][0]), "If-Match": padded})
    assert (refused.status_code, refused.json["code"]) == (400, "bad_if_match")
    assert client.get(f"/games/{game['game_id']}").json["version"] == game["version"]
    fits = padded[:MAX_CONDITION]
    taken = client.post(path, json=DRAW, headers={**bearer(game["tokens"][0]), "If-Match": fits})
    assert taken.status_code == 200, taken.json


def test_the_import_path_offers_post_only_though_a_game_id_could_be_named_import(client: FlaskClient) -> None:
    options = client.options("/games/import")
    assert options.status_code == 200
    assert set(options.headers["Allow"].split(", ")) == {"OPTIONS", "POST"}
    refused = client.put("/games/import")
    assert refused.status_code == 405
    assert set(refused.headers["Allow"].split(", ")) == {"OPTIONS", "POST"}
    game = set(client.options("/games/some-game").headers["Allow"].split(", "))
    assert game == {"GET", "HEAD", "OPTIONS"}


def test_taking_a_seat_of_a_tournament_game_is_409_seat_not_open_not_an_undocumented_428(
    client: FlaskClient,
) -> None:
    tournament = create_tournament(client, format="round_robin", rounds=None)
    ann = register(client, tournament, name="Ann")
    register(client, tournament, name="Ben")
    organize(client, tournament, {"type": "StartTournament"})
    organize(client, tournament, {"type": "PairRound"})
    game = me(client, tournament, ann["token"])["game"]
    before = client.get(game["url"]).json["version"]
    for seat in (0, 1):
        refused = client.post(f"{game['url']}/seats/{seat}", json={"name": "Cai"})
        assert (refused.status_code, refused.json["code"]) == (409, "seat_not_open"), refused.json
    assert client.get(game["url"]).json["version"] == before


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_tournament_option_with_a_long_name_is_refused_by_the_rules_as_a_bad_option(
    client: FlaskClient, game: str
) -> None:
    for name in ("o" * 32, "o" * 33):
        body = {"name": "Cup", "game": game, "format": "round_robin", "options": {name: True}}
        refused = client.post("/tournaments", json=body)
        assert (refused.status_code, refused.json["code"]) == (422, "bad_option"), refused.json
    assert client.get("/tournaments").json["tournaments"] == []


def test_explore_from_a_hex_reaches_the_rules_and_a_from_of_neither_shape_is_malformed(
    client: FlaskClient,
) -> None:
    seats = [{"name": "Ann"}, {"name": "Ben"}]
    body = {"game": "conquest-of-paradise", "seats": seats, "first_seat": 0}
    game = client.post("/games", json=body).json
    path, token = f"/games/{game['game_id']}/commands", game["seats"][0]["token"]
    order = {"type": "ChooseOrder", "first": 0, "clockwise": True}
    assert client.post(path, json=order, headers=bearer(token)).status_code == 200

    far = client.post(path, json={"type": "Explore", "hex": [6, 6], "from": [60, 60]}, headers=bearer(token))
    assert (far.status_code, far.json["code"]) == (422, "cannot_explore"), far.json
    assert "sets out from" in far.json["detail"]
    for wrong in ([6, "6"], [6, 6, 6], ["a", "b"], [True, 6]):
        refused = client.post(
            path, json={"type": "Explore", "hex": [6, 6], "from": wrong}, headers=bearer(token)
        )
        assert (refused.status_code, refused.json["code"]) == (422, "invalid_request"), wrong
