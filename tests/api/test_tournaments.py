"""Tournaments over HTTP: tokens, registration, the organizer's commands, games per table,
results recorded by a job, the sweeper, move time limits, conditional requests."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from freezegun import freeze_time

from domain.decider import Event
from service import game_system, sweeper
from service.ai_games import AiGameLimits
from service.api.context import EXTENSION, game_service
from service.chance import Dice
from service.game_commands import Step
from service.store import GLOBAL_STREAMS, TOURNAMENT, stream_key
from service.tournament_jobs import TournamentQueue
from service.tournament_tokens import entrants_key, organizer_key
from tests.api.helpers import bearer, create_game, play
from tests.api.tournament_helpers import command, create_tournament, me, organize, register, view


@pytest.fixture(autouse=True)
def tiny_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Computer entrants search a few iterations: these tests check the service, not strength."""
    monkeypatch.setenv("ARCHIPELAGO_AI_MAX_ITERATIONS", "4")
    monkeypatch.setenv("ARCHIPELAGO_AI_SECONDS", "1=60,2=60,3=60,4=60,5=60")


def _tournament_events(redis_client: redis.Redis) -> int:
    return int(redis_client.xlen(GLOBAL_STREAMS[TOURNAMENT]))


def _paired_pair(client: FlaskClient, **settings: object) -> tuple[dict, dict, dict]:
    """A started and paired one-round Kahuna Swiss of Ann and Ben."""
    tournament = create_tournament(client, rounds=1, **settings)
    ann, ben = register(client, tournament, name="Ann"), register(client, tournament, name="Ben")
    organize(client, tournament, {"type": "StartTournament"})
    organize(client, tournament, {"type": "PairRound"})
    return tournament, ann, ben


def _events(client: FlaskClient, tournament: dict) -> list[dict]:
    return list(client.get(f"/tournaments/{tournament['tournament_id']}/events").json["events"])


def test_the_organizer_token_and_entrant_tokens_are_stored_only_as_hashes(
    client: FlaskClient, redis_client: redis.Redis
) -> None:
    tournament = create_tournament(client)
    ann = register(client, tournament, name="Ann")
    tid = tournament["tournament_id"]

    def digest(token: str) -> bytes:
        return hashlib.sha256(token.encode()).hexdigest().encode()

    assert redis_client.get(organizer_key(tid)) == digest(tournament["organizer_token"])
    assert redis_client.hgetall(entrants_key(tid)) == {b"e1": digest(ann["token"])}
    dump = b"".join(redis_client.dump(k) or b"" for k in redis_client.keys("tournament:*"))
    assert tournament["organizer_token"].encode() not in dump and ann["token"].encode() not in dump


@pytest.mark.parametrize(
    ("settings", "code"),
    [
        ({"format": "tables"}, "format_not_for_game"),
        ({"format": "round_robin", "rounds": 3}, "bad_rounds"),
        ({"format": "swiss", "rounds": 0}, "invalid_request"),
        ({"game": "chess"}, "invalid_request"),
        ({"unknown": 1}, "invalid_request"),
    ],
)
def test_bad_settings_are_refused_as_problem_json_and_write_nothing(
    client: FlaskClient, redis_client: redis.Redis, settings: dict, code: str
) -> None:
    body = {"game": "kahuna", "format": "swiss", "rounds": 3, **settings}
    answer = client.post("/tournaments", json=body)

    assert answer.status_code == 422 and answer.mimetype == "application/problem+json"
    assert answer.json["code"] == code
    assert redis_client.keys("tournament*") == []


def test_only_the_organizer_registers_an_ai_entrant(client: FlaskClient, redis_client: redis.Redis) -> None:
    tournament = create_tournament(client)
    ann = register(client, tournament, name="Ann")
    written = _tournament_events(redis_client)
    url = f"/tournaments/{tournament['tournament_id']}/entrants"

    for headers in ({}, bearer(ann["token"])):
        answer = client.post(url, json={"kind": "ai", "level": 2}, headers=headers)
        assert (answer.status_code, answer.json["code"]) == (403, "organizer_only")
    assert _tournament_events(redis_client) == written
    bot = register(client, tournament, kind="ai", level=2)
    assert "token" not in bot and view(client, tournament)["entrants"][1]["kind"] == "ai"


def test_organizer_commands_need_the_organizer_token(client: FlaskClient, redis_client: redis.Redis) -> None:
    tournament = create_tournament(client, rounds=1)
    ann = register(client, tournament, name="Ann")
    register(client, tournament, name="Ben")
    url = f"/tournaments/{tournament['tournament_id']}/commands"
    written = _tournament_events(redis_client)

    refusals = [
        (client.post(url, json={"type": "StartTournament"}), 401, "token_required"),
        (client.post(url, json={"type": "StartTournament"}, headers=bearer("forged")), 401, "invalid_token"),
        (
            client.post(url, json={"type": "StartTournament"}, headers=bearer(ann["token"])),
            403,
            "organizer_only",
        ),
        (command(client, tournament, {"type": "RecordResult"}), 422, "invalid_request"),
        (command(client, tournament, {"type": "PairRound"}), 409, "not_started"),
    ]

    for answer, status, code in refusals:
        assert (answer.status_code, answer.json["code"]) == (status, code)
        assert answer.mimetype == "application/problem+json"
    assert _tournament_events(redis_client) == written
    missing = client.get("/tournaments/nope")
    assert (missing.status_code, missing.json["code"]) == (404, "tournament_not_found")


def test_pairing_opens_a_tournament_game_per_table_and_me_hands_each_entrant_its_own_seat(
    client: FlaskClient,
) -> None:
    tournament, ann, ben = _paired_pair(client)
    table = view(client, tournament)["tables"][0]
    assigned = [e for e in _events(client, tournament) if e["type"] == "GameAssigned"]

    assert [e["data"]["game_id"] for e in assigned] == [table["game_id"]]
    mine = {who["token"]: me(client, tournament, who["token"])["game"] for who in (ann, ben)}
    seats = {game["seat"] for game in mine.values()}
    assert seats == {0, 1} and {g["game_id"] for g in mine.values()} == {table["game_id"]}
    created = client.get(f"/games/{table['game_id']}/events").json["events"][0]
    assert created["data"]["mode"] == "tournament"
    assert created["data"]["tournament"] == {"id": tournament["tournament_id"], "round": 1, "table": 0}
    for token, game in mine.items():
        assert me(client, tournament, token)["game"]["seat_token"] == game["seat_token"], "asking again"
        seen = client.get(f"{game['url']}/legal", headers=bearer(game["seat_token"]))
        assert seen.status_code == 200
        legal = seen.json["commands"]
        if legal:
            without = client.post(
                f"{game['url']}/commands", json=legal[0], headers=bearer(game["seat_token"])
            )
            assert (without.status_code, without.json["code"]) == (428, "if_match_required")
    entrant_token = client.get(f"/games/{table['game_id']}/legal", headers=bearer(ann["token"]))
    assert entrant_token.status_code == 401, "an entrant token is no seat token"
    organizer = client.get(
        f"/tournaments/{tournament['tournament_id']}/me", headers=bearer(tournament["organizer_token"])
    )
    assert (organizer.status_code, organizer.json["code"]) == (403, "not_an_entrant")


def test_an_entrant_withdraws_itself_only_and_its_game_is_forfeited(
    client: FlaskClient, redis_client: redis.Redis
) -> None:
    tournament, ann, ben = _paired_pair(client)
    url = f"/tournaments/{tournament['tournament_id']}/entrants"
    written = _tournament_events(redis_client)

    other = client.post(f"{url}/e2/withdraw", headers={**bearer(ann["token"]), "Idempotency-Key": "w1"})
    assert (other.status_code, other.json["code"]) == (403, "not_your_entrant")
    assert other.mimetype == "application/problem+json"
    unknown = client.post(f"{url}/e9/withdraw", headers=bearer(ann["token"]))
    assert (unknown.status_code, unknown.json["code"]) == (403, "not_your_entrant")
    assert _tournament_events(redis_client) == written
    assert all(e["withdrawn"] is None for e in view(client, tournament)["entrants"])
    operation = client.get("/openapi.json").json["paths"][
        "/tournaments/{tournament_id}/entrants/{entrant}/withdraw"
    ]["post"]
    assert "403" in operation["responses"]
    own = client.post(f"{url}/e1/withdraw", headers=bearer(ann["token"]))

    assert own.status_code == 200
    types = [e["type"] for e in own.json["events"]]
    assert types[:2] == ["EntrantWithdrawn", "SeatForfeited"]
    assert view(client, tournament)["tables"][0]["result"]["how"] == "forfeit"


def test_me_says_a_forfeited_game_is_finished_and_names_the_forfeited_seat(
    client: FlaskClient,
) -> None:
    tournament, ann, ben = _paired_pair(client)
    before = me(client, tournament, ann["token"])["game"]
    assert (before["finished"], before["forfeited_seat"]) == (False, None)
    forfeit = {"type": "ForfeitSeat", "game_id": before["game_id"], "seat": 1, "reason": "no_show"}
    organize(client, tournament, forfeit)

    assert view(client, tournament)["tables"][0]["result"]["how"] == "forfeit"
    game_events = client.get(f"{before['url']}/events").json["events"]
    assert game_events[-1]["type"] == "GameForfeited", "a forfeit ends the game's own stream"
    for who in (ann, ben):
        game = me(client, tournament, who["token"])["game"]
        assert (game["finished"], game["forfeited_seat"]) == (True, 1)


def test_if_match_and_idempotency_key_work_on_tournament_commands_as_on_games(
    client: FlaskClient, redis_client: redis.Redis
) -> None:
    tournament = create_tournament(client, rounds=1)
    register(client, tournament, name="Ann")
    register(client, tournament, name="Ben")
    version = view(client, tournament)["version"]

    stale = command(client, tournament, {"type": "StartTournament"}, **{"If-Match": f'"{version - 1}"'})
    assert (stale.status_code, stale.json["code"]) == (412, "version_mismatch")
    first = command(client, tournament, {"type": "StartTournament"}, **{"Idempotency-Key": "k1"})
    again = command(client, tournament, {"type": "StartTournament"}, **{"Idempotency-Key": "k1"})
    other = command(client, tournament, {"type": "PairRound"}, **{"Idempotency-Key": "k1"})

    assert first.status_code == again.status_code == 200
    assert (first.json["duplicate"], again.json["duplicate"]) == (False, True)
    assert first.json["events"] == again.json["events"] and first.headers["ETag"] == again.headers["ETag"]
    assert (other.status_code, other.json["code"]) == (422, "idempotency_key_reused")
    assert [e["type"] for e in _events(client, tournament)].count("TournamentStarted") == 1


def _play_to_results(client: FlaskClient, tournament: dict, run_jobs: Callable[[], None]) -> dict:
    for _ in range(400):
        run_jobs()
        current = view(client, tournament)
        if current["completed"] == current["round"]:
            return current
    raise AssertionError("the computer entrants did not finish their round")


def _bots(client: FlaskClient, **settings: object) -> dict:
    """A started, paired one-round Kahuna Swiss of two computer entrants."""
    tournament = create_tournament(client, rounds=1, **settings)
    register(client, tournament, kind="ai", level=1)
    register(client, tournament, kind="ai", level=2)
    organize(client, tournament, {"type": "StartTournament"})
    organize(client, tournament, {"type": "PairRound"})
    return tournament


def test_a_finished_game_s_result_is_recorded_by_a_job_with_its_game_end_and_final_hash(
    client: FlaskClient, run_jobs: Callable[[], None]
) -> None:
    tournament = _bots(client)
    table = _play_to_results(client, tournament, run_jobs)["tables"][0]
    game_events = client.get(f"/games/{table['game_id']}/events").json["events"]
    ended = next(e for e in game_events if e["type"] == "GameEnded")
    recorded = [e for e in _events(client, tournament) if e["type"] == "ResultRecorded"]

    assert len(recorded) == 1 and recorded[0]["actor"] == "worker"
    assert recorded[0]["data"]["final_hash"] == ended["hash"] == table["result"]["final_hash"]
    assert recorded[0]["data"]["game_end"] == ended["data"]
    assert recorded[0]["command_id"] == f"result-{table['game_id']}"


def test_the_sweeper_records_the_result_of_a_game_whose_job_was_lost(
    app: Flask, client: FlaskClient, run_jobs: Callable[[], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament = _bots(client)
    with monkeypatch.context() as lost:
        lost.setattr(TournamentQueue, "record_result", lambda self, game_id: None)
        for _ in range(400):
            run_jobs()
            table = view(client, tournament)["tables"][0]
            if client.get(f"/games/{table['game_id']}").json["phase"] == "ended":
                break
    assert view(client, tournament)["tables"][0]["result"] is None, "no job recorded it"

    with app.app_context():
        assert sweeper.sweep(game_service()) == 1
    run_jobs()

    assert view(client, tournament)["tables"][0]["result"]["how"] == "played"
    with app.app_context():
        assert sweeper.sweep(game_service()) == 0, "a recorded result is not enqueued again"


def test_a_seat_that_outwaits_the_move_time_limit_is_forfeited_with_the_clock_facts(
    app: Flask, client: FlaskClient
) -> None:
    with freeze_time("2026-11-24 10:00:00") as clock:
        tournament, ann, ben = _paired_pair(client, move_time_limit=60)
        clock.tick(59)
        with app.app_context():
            assert sweeper.sweep(game_service()) == 0, "within the limit"
        clock.tick(2)
        with app.app_context():
            assert sweeper.sweep(game_service()) == 1

    forfeit = [e for e in _events(client, tournament) if e["type"] == "SeatForfeited"]
    assert len(forfeit) == 1
    assert forfeit[0]["data"]["reason"] == "timeout" and forfeit[0]["actor"] == "worker"
    assert forfeit[0]["data"]["clock"] == {
        "last_move_at": "2026-11-24T10:00:00.000000Z",
        "now": "2026-11-24T10:01:01.000000Z",
        "limit": 60,
        "waited": 61.0,
    }
    assert forfeit[0]["at"] == "2026-11-24T10:01:01.000000Z"


def test_without_a_time_limit_a_waiting_seat_is_never_forfeited(app: Flask, client: FlaskClient) -> None:
    with freeze_time("2026-11-24 10:00:00") as clock:
        tournament, _, _ = _paired_pair(client)
        clock.tick(7 * 24 * 3600)
        with app.app_context():
            assert sweeper.sweep(game_service()) == 0
    assert view(client, tournament)["tables"][0]["result"] is None


def test_the_cap_on_open_games_against_the_computer_does_not_stop_a_tournament_s_games(
    app: Flask, client: FlaskClient
) -> None:
    games = app.extensions[EXTENSION]
    games.ai.open_games.limits = AiGameLimits(per_client=0, overall=0)
    refused = client.post(
        "/games", json={"game": "kahuna", "seats": [{"name": "Ann"}, {"name": "Bot", "ai": "random"}]}
    )
    assert (refused.status_code, refused.json["code"]) == (429, "too_many_ai_games")
    tournament = create_tournament(client, rounds=1)
    for level in (1, 2, 3, 4):
        register(client, tournament, kind="ai", level=level)
    organize(client, tournament, {"type": "StartTournament"})
    organize(client, tournament, {"type": "PairRound"})

    assert [t["game_id"] is not None for t in view(client, tournament)["tables"]] == [True, True]
    assert games.ai.open_games.count() == 0, "a tournament's games are not counted"


def test_the_tournament_s_organizer_token_corrects_its_games(client: FlaskClient) -> None:
    tournament, ann, ben = _paired_pair(client)
    game = next(g for g in (me(client, tournament, t["token"])["game"] for t in (ann, ben)) if g["seat"] == 0)
    start = client.get(game["url"]).json["version"]
    headers = bearer(game["seat_token"])
    legal = client.get(f"{game['url']}/legal", headers=headers).json
    moved = client.post(
        f"{game['url']}/commands", json=legal["commands"][0], headers={**headers, "If-Match": f'"{start}"'}
    )
    assert moved.status_code == 200, moved.json
    body = {"to_version": start, "reason": "a slip of the mouse"}
    now = {"If-Match": f'"{moved.json["version"]}"'}

    by_seat = client.post(f"{game['url']}/corrections", json=body, headers={**headers, **now})
    corrected = client.post(
        f"{game['url']}/corrections", json=body, headers={**bearer(tournament["organizer_token"]), **now}
    )

    assert (by_seat.status_code, by_seat.json["code"]) == (403, "organizer_only")
    assert corrected.status_code == 200, corrected.json
    assert [(e["type"], e["actor"]) for e in corrected.json["events"]] == [("Corrected", "organizer")]


def test_a_changed_newest_tournament_event_is_seen_through_the_cache_and_stops_its_commands(
    client: FlaskClient, redis_client: redis.Redis
) -> None:
    tournament = create_tournament(client, rounds=1)
    register(client, tournament, name="Ann")
    newest = view(client, tournament)["version"]  # folded and cached
    key = stream_key(tournament["tournament_id"], TOURNAMENT)
    entries = redis_client.xrange(key)
    redis_client.delete(key)
    for entry_id, fields in entries:
        if entry_id == f"0-{newest}".encode():
            fields = {**fields, b"body": fields[b"body"].replace(b'"Ann"', b'"Anna"')}
        redis_client.xadd(key, fields, id=entry_id)

    seen = view(client, tournament)
    refused = client.post(f"/tournaments/{tournament['tournament_id']}/entrants", json={"name": "Ben"})

    assert seen["chain_broken"] == {"version": newest} and seen["entrants"] == []
    assert (refused.status_code, refused.json["code"]) == (409, "chain_broken")


def test_a_game_ended_by_the_deal_that_follows_a_scoring_is_reported_to_its_tournament(
    app: Flask, client: FlaskClient, run_worker: Callable[[], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = create_game(client)
    scoring = play(client, game, random.Random(3), run_worker, until=lambda v: v["phase"] == "scoring")
    service = app.extensions[EXTENSION]
    ended: list[str] = []
    monkeypatch.setattr(service, "tournaments", SimpleNamespace(game_ended=lambda g: ended.append(g.game_id)))
    deal = game_system.system_steps

    def deal_then_premature_end(dice: Dice, rules: Any, state: Any, *drawn_from: Any) -> list[Step]:
        end = Event("GameEnded", {"winner": 0, "totals": [1, 0], "reason": "premature", "round": 1})
        return [*deal(dice, rules, state, *drawn_from), (None, [end])]

    monkeypatch.setattr(game_system, "system_steps", deal_then_premature_end)
    assert service.score_round(game["game_id"], scoring["round"])

    assert ended == [game["game_id"]]
