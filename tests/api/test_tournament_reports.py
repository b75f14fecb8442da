"""A tournament's ratings, audit, bundle, reports and live stream over HTTP."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
import redis
from flask.testing import FlaskClient

from record.envelope import from_fields
from replays.bundle import read_bundle, verify_bundle
from service.store import TOURNAMENT, stream_key
from tests.api.helpers import parse_sse
from tests.api.rating_helpers import correct, rated_by_forfeit_and_correction
from tests.api.tournament_helpers import create_tournament, organize, register, view


@pytest.fixture(autouse=True)
def tiny_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARCHIPELAGO_AI_MAX_ITERATIONS", "4")
    monkeypatch.setenv("ARCHIPELAGO_AI_SECONDS", "1=60,2=60,3=60,4=60,5=60")


def _played(client: FlaskClient, run_jobs: Callable[[], None], **settings: object) -> dict:
    """A one-round Kahuna Swiss of two computer entrants (levels 1 and 2), played to its result."""
    tournament = create_tournament(client, rounds=1, **settings)
    register(client, tournament, kind="ai", level=1)
    register(client, tournament, kind="ai", level=2)
    organize(client, tournament, {"type": "StartTournament"})
    organize(client, tournament, {"type": "PairRound"})
    for _ in range(400):
        run_jobs()
        if view(client, tournament)["completed"] == 1:
            return tournament
    raise AssertionError("the computer entrants did not finish")


def _table(client: FlaskClient, tournament: dict) -> dict:
    return dict(view(client, tournament)["tables"][0])


def _ratings(client: FlaskClient) -> dict[str, dict]:
    answer = client.get("/ratings/kahuna")
    assert answer.status_code == 200, answer.json
    return {p["name"]: p for p in answer.json["players"]}


def test_a_rated_result_rates_both_players_and_a_correction_rates_again_from_the_results(
    client: FlaskClient, run_jobs: Callable[[], None]
) -> None:
    tournament = create_tournament(client, rounds=1)
    register(client, tournament, name="Ann")
    register(client, tournament, name="Ben")
    table = rated_by_forfeit_and_correction(client, run_jobs, tournament, ["e1", "e2"])
    before = _ratings(client)
    assert set(before) == {"Ann", "Ben"} and all(p["games"] == 1 for p in before.values())
    assert before["Ann"]["ordinal"] > before["Ben"]["ordinal"]

    correct(client, tournament, table, ["e2", "e1"])
    run_jobs()
    after = _ratings(client)

    assert view(client, tournament)["standings"][0]["entrant"] == "e2", "to the standings"
    assert after["Ben"]["ordinal"] > after["Ann"]["ordinal"], "and to the ratings"
    assert all(p["games"] == 1 and len(p["history"]) == 1 for p in after.values()), "rated once, not twice"
    assert after["Ben"]["ordinal"] == pytest.approx(before["Ann"]["ordinal"])


def test_an_unrated_tournament_leaves_the_ratings_alone_and_an_unknown_game_is_404(
    client: FlaskClient, run_jobs: Callable[[], None]
) -> None:
    tournament = create_tournament(client, rounds=1, rated=False)
    register(client, tournament, name="Ann")
    register(client, tournament, name="Ben")
    rated_by_forfeit_and_correction(client, run_jobs, tournament, ["e1", "e2"])
    assert client.get("/ratings/kahuna").json["players"] == []
    missing = client.get("/ratings/chess")
    assert (missing.status_code, missing.json["code"]) == (404, "unknown_game")


def test_a_game_of_computer_entrants_alone_is_not_rated(
    client: FlaskClient, run_jobs: Callable[[], None]
) -> None:
    tournament = _played(client, run_jobs)
    assert _table(client, tournament)["result"]["how"] == "played"
    assert client.get("/ratings/kahuna").json["players"] == []


def test_the_audit_of_a_played_tournament_is_ok_and_lists_each_correction(
    client: FlaskClient, run_jobs: Callable[[], None]
) -> None:
    tournament = _played(client, run_jobs)
    url = f"/tournaments/{tournament['tournament_id']}/audit"
    clean = client.get(url).json
    assert (clean["ok"], clean["streams"], clean["broken"], clean["corrections"]) == (True, 2, None, [])

    table = _table(client, tournament)
    recorded = next(
        e
        for e in client.get(f"/tournaments/{tournament['tournament_id']}/events").json["events"]
        if e["type"] == "ResultRecorded"
    )
    end = recorded["data"]["game_end"]
    flipped = {**end, "winner": 1 - end["winner"] if end["winner"] is not None else 0}
    body = {"type": "CorrectResult", "game_id": table["game_id"], "result": flipped, "reason": "score sheet"}
    organize(client, tournament, body)

    corrected = client.get(url).json
    assert [(c["actor"], c["reason"]) for c in corrected["corrections"]] == [("organizer", "score sheet")]


def _tamper(redis_client: redis.Redis, key: str, version: int) -> None:
    """Change event `version`'s data straight in Redis, as a hand outside the service would: a
    stream entry cannot be edited, so the stream is written again, that one entry changed
    (inside the body, the hashed fields' JSON, so only the hash gives it away)."""
    entries = redis_client.xrange(key)
    redis_client.delete(key)
    for entry_id, fields in entries:
        if entry_id == f"0-{version}".encode():
            body = json.loads(fields[b"body"])
            body["data"]["tampered"] = True
            fields = {**fields, b"body": json.dumps(body, separators=(",", ":"), sort_keys=True).encode()}
            from_fields(fields)
        redis_client.xadd(key, fields, id=entry_id)


@pytest.mark.parametrize("where", ["tournament", "game"])
def test_the_audit_rereads_the_store_and_names_a_changed_entry(
    client: FlaskClient, redis_client: redis.Redis, run_jobs: Callable[[], None], where: str
) -> None:
    tournament = _played(client, run_jobs)
    tid = tournament["tournament_id"]
    game_id = _table(client, tournament)["game_id"]
    assert client.get(f"/tournaments/{tid}/audit").json["ok"], "read once: nothing is cached for the audit"
    key, stream = (
        (stream_key(tid, TOURNAMENT), "tournament")
        if where == "tournament"
        else (
            stream_key(game_id),
            f"game {game_id}",
        )
    )

    _tamper(redis_client, key, 3)
    report = client.get(f"/tournaments/{tid}/audit").json

    assert report["ok"] is False
    assert (report["broken"]["stream"], report["broken"]["version"]) == (stream, 3)


def test_the_export_is_a_bundle_that_verifies_offline_and_shows_no_hidden_card_of_a_game_in_play(
    client: FlaskClient, run_jobs: Callable[[], None]
) -> None:
    tournament = create_tournament(client, rounds=1)
    register(client, tournament, name="Ann")
    register(client, tournament, name="Ben")
    organize(client, tournament, {"type": "StartTournament"})
    organize(client, tournament, {"type": "PairRound"})
    answer = client.get(f"/tournaments/{tournament['tournament_id']}/export")

    assert answer.status_code == 200
    assert verify_bundle(answer.data).ok
    _, games = read_bundle(answer.data)
    (events,) = games.values()
    hands = [e for e in events if e.type == "HandDealt"]
    assert hands and all(e.secret is None for e in hands), "a spectator's bundle hides the hands in play"


def test_standings_in_json_and_a_round_s_events_and_standings_in_the_live_stream(
    client: FlaskClient, run_jobs: Callable[[], None]
) -> None:
    tournament = _played(client, run_jobs)
    tid = tournament["tournament_id"]
    standings = client.get(f"/tournaments/{tid}/standings").json
    assert [line["entrant"] for line in standings["standings"]] == [
        line["entrant"] for line in view(client, tournament)["standings"]
    ]
    organize(client, tournament, {"type": "CloseTournament"})

    text = client.get(f"/tournaments/{tid}/stream").get_data(as_text=True)

    kinds = [line.split(": ", 1)[1] for line in text.splitlines() if line.startswith("event: ")]
    assert {"RoundPaired", "GameAssigned", "ResultRecorded", "standings", "TournamentClosed"} <= set(kinds)
    frames = parse_sse(text)
    events = [f for f in frames if "type" in f]
    assert [e["version"] for e in events] == list(range(1, view(client, tournament)["version"] + 1))
    (table,) = [f["standings"] for f in frames if "standings" in f]
    assert [line["entrant"] for line in table] == [line["entrant"] for line in standings["standings"]]
    after = client.get(f"/tournaments/{tid}/stream", headers={"Last-Event-ID": "5"}).get_data(as_text=True)
    assert parse_sse(after)[0]["version"] == 6


def test_crosstable_and_pairings_link_each_game_and_come_as_csv_and_a_swiss_as_trf(
    client: FlaskClient, run_jobs: Callable[[], None]
) -> None:
    tournament = _played(client, run_jobs)
    tid = tournament["tournament_id"]
    game_id = _table(client, tournament)["game_id"]

    cross = client.get(f"/tournaments/{tid}/crosstable").json
    rounds = client.get(f"/tournaments/{tid}/pairings").json
    csv_by_accept = client.get(f"/tournaments/{tid}/standings", headers={"Accept": "text/csv"})
    csv_by_query = client.get(f"/tournaments/{tid}/pairings?format=csv")
    trf = client.get(f"/tournaments/{tid}/pairings?format=trf")

    assert cross["games"][game_id] == {"game": f"/games/{game_id}", "replay": f"/games/{game_id}/replay"}
    assert client.get(cross["games"][game_id]["replay"]).status_code == 200
    assert {c["entrant"] for c in cross["entrants"]} == {"e1", "e2"}
    assert rounds["rounds"][0]["tables"][0]["game_id"] == game_id and game_id in rounds["games"]
    assert csv_by_accept.mimetype == "text/csv" and csv_by_accept.get_data(as_text=True).startswith("rank,")
    assert csv_by_query.mimetype == "text/csv" and game_id in csv_by_query.get_data(as_text=True)
    assert trf.mimetype == "text/plain" and trf.get_data(as_text=True).startswith("012 ")


def test_a_trf_file_is_for_a_swiss_only(client: FlaskClient) -> None:
    tournament = create_tournament(client, format="round_robin", rounds=None)
    answer = client.get(f"/tournaments/{tournament['tournament_id']}/pairings?format=trf")
    assert (answer.status_code, answer.json["code"]) == (409, "trf_swiss_only")


def test_an_unreadable_game_entry_is_named_by_the_audit_not_a_500(
    client: FlaskClient, redis_client: redis.Redis, run_jobs: Callable[[], None]
) -> None:
    tournament = _played(client, run_jobs)
    game_id = _table(client, tournament)["game_id"]
    key = stream_key(game_id)
    entries = redis_client.xrange(key)
    redis_client.delete(key)
    for entry_id, fields in entries:
        redis_client.xadd(key, {b"junk": b"1"} if entry_id == b"0-4" else fields, id=entry_id)

    report = client.get(f"/tournaments/{tournament['tournament_id']}/audit").json

    assert report["ok"] is False and (report["broken"]["stream"], report["broken"]["version"]) == (
        f"game {game_id}",
        4,
    )
