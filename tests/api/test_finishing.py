"""Resign, abort and rematch over HTTP, in every game (domain/resign.py, service/rematches.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from domain.games import GAMES
from replays.bundle import verify_bundle
from tests.api.helpers import NAMES, bearer, legal_commands, post, view
from tests.api.tournament_helpers import create_tournament, me, organize, register
from tests.api.tournament_helpers import view as tournament_view
from tests.families.registered import EVERY_GAME


def _create(client: FlaskClient, game: str = "kahuna", seats: int = 2, **setup: Any) -> dict[str, Any]:
    body = {"game": game, "seats": [{"name": n} for n in NAMES[:seats]], "first_seat": 0, **setup}
    answer = client.post("/games", json=body)
    assert answer.status_code == 201, answer.json
    created: dict[str, Any] = answer.json
    created["tokens"] = [s["token"] for s in created["seats"]]
    return created


def _mover(client: FlaskClient, game: dict[str, Any]) -> int:
    """A seat that may act now."""
    return next(s for s in range(len(game["tokens"])) if legal_commands(client, game, s)["commands"])


def _move(client: FlaskClient, game: dict[str, Any], seat: int) -> None:
    command = legal_commands(client, game, seat)["commands"][0]
    answer = post(client, game, seat, command)
    assert answer.status_code == 200, answer.json


@pytest.mark.usefixtures("test_families")  # the families that live in the tests too
@pytest.mark.parametrize("name", EVERY_GAME)
def test_a_seat_that_resigns_ends_the_game_the_others_win_and_nothing_moves_after(
    client: FlaskClient, name: str
) -> None:
    rules = GAMES[name]
    game = _create(client, name, rules.min_seats)
    mover = _mover(client, game)
    resigner = (mover + 1) % rules.min_seats
    before = view(client, game, resigner)
    assert before["finish"] == {"resign": True, "abort": True} and before["ending"] is None

    answer = client.post(f"/games/{game['game_id']}/resign", headers=bearer(game["tokens"][resigner]))

    assert answer.status_code == 200, answer.json
    [event] = answer.json["events"]
    others = [s for s in range(rules.min_seats) if s != resigner]
    assert event["type"] == "GameResigned"
    assert event["data"]["winners"] == others and event["data"]["resigned"] == resigner
    assert event["data"]["winner"] == (others[0] if len(others) == 1 else None)
    after = view(client, game, mover)
    assert after["ending"]["how"] == "resigned" and after["ending"]["seat"] == resigner
    assert after["ending"]["result"]["winners"] == others
    assert after["finish"] == {"resign": False, "abort": False}
    assert legal_commands(client, game, mover)["commands"] == []
    for seat in range(rules.min_seats):
        late = post(client, game, seat, {"type": "Resign"})
        assert (late.status_code, late.json["code"]) == (409, "game_over")
    listed = client.get("/games?status=finished").json["games"]
    assert [g["result"]["reason"] for g in listed if g["game_id"] == game["game_id"]] == ["resigned"]
    steps = client.get(f"/games/{game['game_id']}/replay").json["steps"]
    assert steps[-1]["description"] == f"{NAMES[resigner]} resigned"
    notation = client.get(f"/games/{game['game_id']}/notation").get_data(as_text=True)
    [result] = [line for line in notation.splitlines() if line.startswith("[Result ")]
    assert all(NAMES[s] in result for s in others) and NAMES[resigner] not in result, result


def test_either_seat_aborts_before_the_second_move_and_the_game_has_no_result(client: FlaskClient) -> None:
    game = _create(client)
    _move(client, game, 0)  # the first seat's first command: the other has not moved yet

    answer = post(client, game, 1, {"type": "Abort"})

    assert answer.status_code == 200, answer.json
    assert [e["type"] for e in answer.json["events"]] == ["GameAborted"]
    ended = view(client, game, 0)["ending"]
    assert (ended["how"], ended["seat"], ended["result"]) == ("aborted", 1, None)
    late = post(client, game, 0, {"type": "Resign"})
    assert (late.status_code, late.json["code"]) == (409, "game_over")
    listed = client.get("/games?status=finished").json["games"]
    assert [g["result"] for g in listed if g["game_id"] == game["game_id"]] == [None]


def test_abort_is_refused_once_the_second_seat_has_moved(client: FlaskClient) -> None:
    game = _create(client)
    while not legal_commands(client, game, 1)["commands"]:
        _move(client, game, 0)
    assert view(client, game, 1)["finish"]["abort"] is True
    _move(client, game, 1)

    for seat in (0, 1):
        refused = client.post(f"/games/{game['game_id']}/abort", headers=bearer(game["tokens"][seat]))
        assert (refused.status_code, refused.json["code"]) == (409, "abort_too_late")
    assert view(client, game, 0)["finish"] == {"resign": True, "abort": False}
    assert view(client, game)["ending"] is None


def test_a_rematch_swaps_the_seats_and_hands_each_a_fresh_token_through_the_old_one(
    client: FlaskClient,
) -> None:
    game = _create(client, options={"edition": "thames-kosmos"})
    old = game["game_id"]
    early = client.post(f"/games/{old}/rematch", headers=bearer(game["tokens"][1]))
    assert (early.status_code, early.json["code"]) == (409, "game_not_over")
    assert post(client, game, 0, {"type": "Resign"}).status_code == 200

    offered = client.post(f"/games/{old}/rematch", headers=bearer(game["tokens"][1]))
    assert offered.status_code == 200, offered.json
    assert offered.json == {"rematch_id": None, "asked_by": [1], "waiting_for": [0]}
    assert client.get(f"/games/{old}/rematch").json == offered.json
    assert client.post(f"/games/{old}/rematch").status_code == 401

    accepted = client.post(f"/games/{old}/rematch", headers=bearer(game["tokens"][0]))
    assert accepted.status_code == 200, accepted.json
    new, ann = accepted.json["rematch_id"], accepted.json["token"]
    assert accepted.json["seat"] == 1, "Ann sat at 0: now at 1"
    fresh = client.get(f"/games/{new}").json
    assert [s["name"] for s in fresh["seats"]] == ["Ben", "Ann"]
    created = client.get(f"/games/{new}/events").json["events"][0]["data"]
    assert created["options"] == {"edition": "thames-kosmos"} and created["first_seat"] == 0
    for token in game["tokens"]:
        assert client.get(f"/games/{new}", headers=bearer(token)).status_code == 401, (
            "old tokens open nothing"
        )
        assert client.get(f"/games/{new}/legal", headers=bearer(token)).status_code == 401
    assert client.get(f"/games/{new}/legal", headers=bearer(ann)).status_code == 200

    ben = client.post(f"/games/{old}/rematch", headers=bearer(game["tokens"][1]))
    assert (ben.json["rematch_id"], ben.json["seat"]) == (new, 0)
    rematch = {"game_id": new, "tokens": [ben.json["token"], ann]}
    assert legal_commands(client, rematch, 0)["commands"], "Ben moves first now"
    again = client.post(f"/games/{old}/rematch", headers=bearer(game["tokens"][1]))
    assert again.json["rematch_id"] == new, "one rematch, however often it is asked"
    stale = client.get(f"/games/{new}/legal", headers=bearer(ben.json["token"]))
    assert stale.status_code == 401, "a token fetched again retires the one before"


def test_resigning_a_tournament_game_records_a_loss_and_it_cannot_be_aborted(
    client: FlaskClient, run_jobs: Callable[[], None]
) -> None:
    tournament = create_tournament(client, rounds=1)
    ann = register(client, tournament, name="Ann")
    register(client, tournament, name="Ben")
    organize(client, tournament, {"type": "StartTournament"})
    organize(client, tournament, {"type": "PairRound"})
    game = me(client, tournament, ann["token"])["game"]
    headers = {**bearer(game["seat_token"]), "If-Match": f'"{client.get(game["url"]).json["version"]}"'}

    refused = client.post(f"{game['url']}/abort", headers=headers)
    assert (refused.status_code, refused.json["code"]) == (409, "abort_not_allowed_in_tournament")
    assert client.post(f"{game['url']}/rematch", headers=bearer(game["seat_token"])).status_code == 409
    assert client.post(f"{game['url']}/resign", headers=headers).status_code == 200
    run_jobs()

    [table] = tournament_view(client, tournament)["tables"]
    ann_seat = game["seat"]
    assert table["result"]["places"][ann_seat] == 2 and table["result"]["places"][1 - ann_seat] == 1
    assert table["result"]["points"][ann_seat] < table["result"]["points"][1 - ann_seat]

    # The audit finds the recorded result to be the game's own end, the resignation: online, and
    # offline on the exported bundle.
    audit = client.get(f"/tournaments/{tournament['tournament_id']}/audit").json
    assert audit["ok"] and audit["mismatches"] == [], audit
    bundle = client.get(f"/tournaments/{tournament['tournament_id']}/export").get_data()
    assert verify_bundle(bundle).ok


def test_a_resigned_game_is_exported_and_imported_again(client: FlaskClient) -> None:
    game = _create(client)
    assert post(client, game, 1, {"type": "Resign"}).status_code == 200
    exported = client.get(f"/games/{game['game_id']}/export").get_data()

    answer = client.post("/games/import", data=exported, content_type="application/x-ndjson")

    assert answer.status_code == 201, answer.json
    assert client.get(f"/games/{answer.json['game_id']}").json["ending"]["how"] == "resigned"
