"""Nothing moves after the end: a forfeit ends the game's own stream (GameForfeited), a game of a
closed tournament refuses every command (tournament_closed), and the closed tournament's bundle
is the same bytes whenever it is exported."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from flask.testing import FlaskClient

from replays import archive
from tests.api.helpers import bearer
from tests.api.tournament_helpers import create_tournament, me, organize, register, view
from tests.api.tournament_play import _move


def _paired(client: FlaskClient, **entrant: Any) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """A started, paired one-round Kahuna Swiss of Ann and a second entrant (Ben by default)."""
    tournament = create_tournament(client, rounds=1)
    ann = register(client, tournament, name="Ann")
    other = register(client, tournament, **(entrant or {"name": "Ben"}))
    organize(client, tournament, {"type": "StartTournament"})
    organize(client, tournament, {"type": "PairRound"})
    return tournament, ann, other


def _game_events(client: FlaskClient, url: str) -> list[dict[str, Any]]:
    answer = client.get(f"{url}/events")
    assert answer.status_code == 200, answer.json
    return list(answer.json["events"])


def _a_pending_command(
    client: FlaskClient, games: list[dict[str, Any]]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the game as /me shows it to a seat that may act now, one command that seat may send)."""
    for game in games:
        legal = client.get(f"{game['url']}/legal", headers=bearer(game["seat_token"])).json
        if legal["commands"]:
            return game, legal["commands"][0]
    raise AssertionError("no seat may act")


def _late(client: FlaskClient, game: dict[str, Any], command: dict[str, Any]) -> Any:
    """`command` sent as the seat would send it, naming the game's current version."""
    version = client.get(game["url"]).json["version"]
    headers = {**bearer(game["seat_token"]), "If-Match": f'"{version}"'}
    return client.post(f"{game['url']}/commands", json=command, headers=headers)


def _withdraw(client: FlaskClient, tournament: dict[str, Any], entrant: dict[str, Any]) -> None:
    url = f"/tournaments/{tournament['tournament_id']}/entrants/{entrant['entrant']}/withdraw"
    answer = client.post(url, headers=bearer(entrant["token"]))
    assert answer.status_code == 200, answer.json


def test_a_forfeit_ends_the_game_itself_and_the_game_refuses_every_later_command(client: FlaskClient) -> None:
    tournament, ann, ben = _paired(client)
    games = [me(client, tournament, who["token"])["game"] for who in (ann, ben)]
    game, pending = _a_pending_command(client, games)
    forfeit = {"type": "ForfeitSeat", "game_id": game["game_id"], "seat": 1, "reason": "no_show"}

    organize(client, tournament, forfeit)

    events = _game_events(client, game["url"])
    assert events[-1]["type"] == "GameForfeited"
    assert events[-1]["data"]["seat"] == 1 and events[-1]["data"]["reason"] == "no_show"
    assert events[-1]["data"]["tournament"] == tournament["tournament_id"]
    refused = _late(client, game, pending)
    assert (refused.status_code, refused.json["code"]) == (409, "game_over")
    assert refused.mimetype == "application/problem+json"
    assert _game_events(client, game["url"]) == events, "a refused command writes nothing"
    for shown in games:
        legal = client.get(f"{shown['url']}/legal", headers=bearer(shown["seat_token"])).json
        assert legal["commands"] == []
    for who in (ann, ben):
        mine = me(client, tournament, who["token"])["game"]
        assert (mine["finished"], mine["forfeited_seat"]) == (True, 1)
    for path in ("/replay", "/notation", "/export", "/verify"):
        assert client.get(f"{game['url']}{path}").status_code == 200, path
    assert archive.verify(client.get(f"{game['url']}/export").get_data()).ok


def test_the_computer_does_not_reply_in_a_game_a_withdrawal_forfeited(
    client: FlaskClient, run_jobs: Callable[[], None]
) -> None:
    tournament, ann, computer = _paired(client, kind="ai", level=1)
    game = me(client, tournament, ann["token"])["game"]
    _move(client, game, random.Random(5))  # Ann's turn, if it is hers: the computer is due next

    _withdraw(client, tournament, ann)
    forfeited = _game_events(client, game["url"])
    run_jobs()

    assert forfeited[-1]["type"] == "GameForfeited"
    assert _game_events(client, game["url"]) == forfeited, "no computer move after the end"


def test_a_closed_tournament_refuses_its_games_commands_and_its_bundle_never_changes(
    client: FlaskClient, run_jobs: Callable[[], None]
) -> None:
    tournament, ann, ben = _paired(client)
    games = [me(client, tournament, who["token"])["game"] for who in (ann, ben)]
    game, pending = _a_pending_command(client, games)
    _withdraw(client, tournament, ann)
    organize(client, tournament, {"type": "CloseTournament"})
    assert view(client, tournament)["phase"] == "closed"
    url = f"/tournaments/{tournament['tournament_id']}/export"
    first = client.get(url)
    assert first.status_code == 200

    late = _late(client, game, pending)
    version = client.get(game["url"]).json["version"]
    correction = client.post(
        f"{game['url']}/corrections",
        json={"to_version": 2, "reason": "a late change"},
        headers={**bearer(tournament["organizer_token"]), "If-Match": f'"{version}"'},
    )
    run_jobs()
    again = client.get(url)

    assert again.get_data() == first.get_data(), "a closed tournament's bundle is the same bytes"
    assert (late.status_code, late.json["code"]) == (409, "tournament_closed")
    assert (correction.status_code, correction.json["code"]) == (409, "tournament_closed")
    audit = client.get(f"/tournaments/{tournament['tournament_id']}/audit").json
    assert audit["ok"] is True and audit["chain_truncated"] is None
    described = client.get("/openapi.json").json["components"]["responses"]["Status409"]["description"]
    assert "tournament_closed" in described and "game_over" in described
