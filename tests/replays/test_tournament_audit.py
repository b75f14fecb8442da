"""The audit of a tournament's streams: chains, folds, each result against its game's own end,
every correction listed (replays.tournament_audit)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from record.envelope import Envelope
from replays.tournament_audit import BrokenPlace, audit
from tests.replays.play import rechained
from tests.replays.referee_play import out_of_turn
from tests.replays.tournament_play import NAMES, Tournament, at, played


@pytest.fixture(scope="module")
def finished() -> Tournament:
    tournament = played(seed=3)
    tournament.run("CloseTournament")
    return tournament


def recorded(tournament: Tournament, game_id: str) -> Envelope:
    return next(
        e for e in tournament.envelopes if e.type == "ResultRecorded" and e.data["game_id"] == game_id
    )


def test_a_sound_tournament_audits_ok_counting_every_stream_and_event(finished: Tournament) -> None:
    report = audit(finished.envelopes, finished.games)
    assert report.ok and report.broken is None and report.mismatches == [] and report.corrections == []
    assert report.streams == 1 + len(finished.games) == 5
    assert report.events == len(finished.envelopes) + sum(len(g) for g in finished.games.values())
    assert report.to_json()["broken"] is None and report.to_json()["ok"] is True


def test_a_result_recorded_that_is_not_the_games_own_end_is_a_mismatch(finished: Tournament) -> None:
    record = recorded(finished, "g1-0")
    end = dict(record.data["game_end"], totals=[t + 1 for t in record.data["game_end"]["totals"]])
    forged = rechained(finished.envelopes, record.version, data={**record.data, "game_end": end})
    report = audit(forged, finished.games)
    assert not report.ok and report.broken is None
    assert [(m["game_id"], m["version"], m["reason"]) for m in report.mismatches] == [
        ("g1-0", record.version, "game_end is not the data of the game's GameEnded")
    ]


def test_a_final_hash_that_is_not_the_games_last_hash_is_a_mismatch(finished: Tournament) -> None:
    record = recorded(finished, "g2-1")
    other = finished.games["g2-0"][-1].hash
    forged = rechained(finished.envelopes, record.version, data={**record.data, "final_hash": other})
    report = audit(forged, finished.games)
    assert not report.ok
    assert [m["reason"] for m in report.mismatches] == [
        f"final_hash {other} is not the hash of the game's GameEnded"
    ]


def test_points_that_are_not_the_scoring_of_the_end_are_a_mismatch(finished: Tournament) -> None:
    record = recorded(finished, "g1-1")
    points = list(reversed(record.data["points"]))
    forged = rechained(finished.envelopes, record.version, data={**record.data, "points": points})
    report = audit(forged, finished.games)
    assert [(m["type"], m["reason"]) for m in report.mismatches] == [
        ("ResultRecorded", "places or points are not what the scoring gives for game_end"),
        # round 2 was paired on the true points: from the changed ones the rules pair it otherwise
        ("RoundPaired", "not what the rules decide for PairRound from the events before it"),
    ]


def test_a_correction_is_listed_with_actor_time_reason_and_both_results() -> None:
    tournament = played(seed=5)
    game_id = "g1-0"
    before = recorded(tournament, game_id).data
    correction = tournament.correct(game_id, "seat 1 was given a wrong card by the dealer")
    report = audit(tournament.envelopes, tournament.games)
    assert report.ok, report.mismatches  # a correction may differ from the game's own end
    (listed,) = report.corrections
    assert listed["actor"] == "organizer" and listed["at"] == at(correction.version - 1)
    assert listed["reason"] == "seat 1 was given a wrong card by the dealer"
    assert (listed["game_id"], listed["round"], listed["version"]) == (game_id, 1, correction.version)
    assert listed["before"]["points"] == before["points"]
    assert listed["after"]["points"] == list(reversed(before["points"]))
    assert listed["game_end"] == tournament.games[game_id][-1].data


def test_a_correction_naming_another_games_hash_is_a_mismatch() -> None:
    tournament = played(seed=5)
    correction = tournament.correct("g1-0", "recount")
    other = tournament.games["g1-1"][-1].hash
    forged = rechained(
        tournament.envelopes, correction.version, data={**correction.data, "final_hash": other}
    )
    report = audit(forged, tournament.games)
    assert [m["type"] for m in report.mismatches] == ["ResultCorrected"] and len(report.corrections) == 1


def test_a_changed_game_event_breaks_its_chain_at_that_event(finished: Tournament) -> None:
    game = list(finished.games["g2-0"])
    game[40] = replace(game[40], at="2026-11-22T11:00:00.000000Z")
    report = audit(finished.envelopes, {**finished.games, "g2-0": game})
    assert not report.ok
    assert report.broken == BrokenPlace(
        "game g2-0", 41, None, "hash mismatch: the event's content is not what was hashed"
    )


def test_a_changed_tournament_event_breaks_the_tournament_chain(finished: Tournament) -> None:
    stream = list(finished.envelopes)
    stream[4] = replace(stream[4], actor="system")
    report = audit(stream, finished.games)
    assert report.broken is not None and (report.broken.stream, report.broken.version) == ("tournament", 5)


def test_a_game_rewritten_and_rechained_is_caught_by_the_final_hash(finished: Tournament) -> None:
    game = finished.games["g1-1"]
    end = game[-1]
    changed = rechained(game, end.version, data={**end.data, "totals": [99, 0], "winner": 0})
    report = audit(finished.envelopes, {**finished.games, "g1-1": changed})
    assert report.broken is None
    reasons = [m["reason"] for m in report.mismatches if m["game_id"] == "g1-1"]
    assert (
        reasons[0].startswith("final_hash") and "game_end is not the data of the game's GameEnded" in reasons
    )


def test_an_event_the_game_rules_cannot_fold_is_named(finished: Tournament) -> None:
    game = finished.games["g1-0"]
    version = next(e.version for e in game if e.type == "HandDealt")
    bad = rechained(game, version, data={})
    report = audit(finished.envelopes, {**finished.games, "g1-0": bad})
    assert report.broken is not None and not report.ok
    assert (report.broken.stream, report.broken.version) == ("game g1-0", version)
    assert report.broken.reason.startswith("the rules cannot fold it")


def test_a_missing_game_and_a_game_not_assigned_are_named(finished: Tournament) -> None:
    missing = {k: v for k, v in finished.games.items() if k != "g2-1"}
    report = audit(finished.envelopes, missing)
    assert report.broken == BrokenPlace(
        "game g2-1", None, None, "the tournament assigned it, its events are missing"
    )
    extra = audit(finished.envelopes, {**finished.games, "zz": finished.games["g1-0"]})
    assert extra.broken == BrokenPlace("game zz", None, None, "not a game the tournament assigned")


def test_a_stream_that_does_not_open_with_the_tournament_is_named(finished: Tournament) -> None:
    report = audit(finished.envelopes[1:], finished.games)
    assert report.broken is not None and (report.broken.stream, report.broken.version) == ("tournament", 1)


@pytest.mark.parametrize(
    ("game", "fmt", "entrants"),
    [("kahuna", "swiss", 4), ("ikibiti", "swiss", 4), ("arabana-opodopo", "tables", 7)],
    ids=["3:1 and 2:2", "I-9", "placement points"],
)
def test_each_scoring_scheme_audits_its_results_and_catches_changed_points(
    game: str, fmt: str, entrants: int
) -> None:
    tournament = played(seed=1, game=game, entrants=NAMES[:entrants], fmt=fmt)
    assert audit(tournament.envelopes, tournament.games).ok
    record = next(e for e in tournament.envelopes if e.type == "ResultRecorded")
    points = [p + 1 for p in record.data["points"]]
    forged = rechained(tournament.envelopes, record.version, data={**record.data, "points": points})
    report = audit(forged, tournament.games)
    assert [(m["version"], m["reason"]) for m in report.mismatches if m["type"] == "ResultRecorded"] == [
        (record.version, "places or points are not what the scoring gives for game_end")
    ]


def test_a_pairing_that_is_not_the_rules_own_is_a_mismatch(finished: Tournament) -> None:
    paired = [e for e in finished.envelopes if e.type == "RoundPaired"][1]
    tables = [list(reversed(t)) for t in paired.data["tables"]]  # the seats swapped at every table
    forged = rechained(finished.envelopes, paired.version, data={**paired.data, "tables": tables})
    report = audit(forged, finished.games)
    assert report.mismatches[0] == {
        "game_id": None,
        "round": 2,
        "table": None,
        "version": paired.version,
        "type": "RoundPaired",
        "reason": "not what the rules decide for PairRound from the events before it",
    }
    # what follows from it: each result names the seats as they were, and the close ranks otherwise
    assert [(m["type"], m["reason"]) for m in report.mismatches[1:]] == [
        ("ResultRecorded", "seats are not the seats of the game's table"),
        ("ResultRecorded", "seats are not the seats of the game's table"),
        ("TournamentClosed", "not what the rules decide for CloseTournament from the events before it"),
    ]


def test_a_closing_ranking_that_is_not_the_standings_is_a_mismatch(finished: Tournament) -> None:
    closed = finished.envelopes[-1]
    assert closed.type == "TournamentClosed"
    ranking = list(reversed(closed.data["ranking"]))
    forged = rechained(finished.envelopes, closed.version, data={**closed.data, "ranking": ranking})
    report = audit(forged, finished.games)
    assert [(m["type"], m["reason"]) for m in report.mismatches] == [
        ("TournamentClosed", "not what the rules decide for CloseTournament from the events before it")
    ]


def test_a_pairing_the_rules_refuse_is_a_mismatch(finished: Tournament) -> None:
    """A third round paired by hand where the Swiss has two: the rules refuse it."""
    last = finished.envelopes[-2]  # before the close
    extra = replace(finished.envelopes[-1], type="RoundPaired", data={"round": 3, "tables": [], "byes": []})
    forged = rechained([*finished.envelopes[:-1], extra], extra.version)
    report = audit(forged, finished.games)
    assert last.type != "RoundPaired"
    assert [m["reason"] for m in report.mismatches] == ["the rules refuse PairRound here (all_rounds_played)"]


@pytest.fixture(scope="module")
def commanded() -> Tournament:
    """A closed tournament whose games record their commands, as the service's games do."""
    tournament = played(seed=4, commands=True)
    tournament.run("CloseTournament")
    return tournament


def test_games_that_record_their_commands_are_refereed_by_the_audit(commanded: Tournament) -> None:
    report = audit(commanded.envelopes, commanded.games)

    assert report.ok and report.unrefereed == [] and report.to_json()["unrefereed"] == []


def test_games_stored_before_commands_were_recorded_are_listed_as_not_refereed(finished: Tournament) -> None:
    report = audit(finished.envelopes, finished.games)

    assert report.ok
    assert [g["game_id"] for g in report.unrefereed] == list(finished.games)
    assert all(g["from_version"] == 2 and "no commands" in g["reason"] for g in report.unrefereed)


def test_a_move_credited_to_the_seat_not_to_act_is_a_broken_place_of_its_game(commanded: Tournament) -> None:
    forged, version = out_of_turn(commanded.games["g2-0"])

    report = audit(commanded.envelopes, {**commanded.games, "g2-0": forged})

    assert report.broken is not None and not report.ok
    assert (report.broken.stream, report.broken.version) == ("game g2-0", version)
    assert report.broken.reason.startswith("the referee replay: seat 1 may not act here")
