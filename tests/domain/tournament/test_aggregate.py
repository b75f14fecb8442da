"""The tournament's commands: the events each gives and the refusals, each with a stable code.

Entrants are e1 Ada, e2 Bo, ... in registration order; the organizer sends commands unless a
test says otherwise (the service as SYSTEM, an entrant as its seat).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from tournament_given import Given, game_end, given, hash_of, paired, registered, started

from ai.policies import LEVELS
from domain.actor import ORGANIZER, SYSTEM, WORKER, Actor
from domain.decider import Event
from domain.tournament import module as tournament
from domain.tournament import schedule
from domain.tournament.berger import round_robin
from domain.tournament.entrants import AI_LEVELS
from domain.tournament.pairing import Pairing, Standing
from domain.turns import Shuffle

ADA, BO, CY = Actor.of_seat(1), Actor.of_seat(2), Actor.of_seat(3)


def facts(events: list[Event]) -> list[tuple[str, dict[str, Any]]]:
    return [(e.type, dict(e.data)) for e in events]


def in_round_one(count: int = 4, **settings: Any) -> Given:
    """Round 1 paired by hand: e1-e2, e3-e4, ... and no game assigned yet."""
    game = started(count, **{"rounds": count - 1, **settings})
    seats = [[f"e{n}", f"e{n + 1}"] for n in range(1, count, 2)]
    return game.plus(paired(1, *seats))


# --- registration ------------------------------------------------------------------------


def test_register_a_person_by_name_and_an_ai_seat_by_level() -> None:
    game = registered(1)
    assert facts(game.history[1:]) == [
        ("EntrantRegistered", {"entrant": "e1", "name": "Ada", "kind": "person", "level": None, "round": 0})
    ]
    assert facts(game.when("RegisterEntrant", kind="ai", level=3)) == [
        (
            "EntrantRegistered",
            {"entrant": "e2", "name": "AI level 3 (e2)", "kind": "ai", "level": 3, "round": 0},
        )
    ]


def test_ai_levels_are_those_of_the_computer_players() -> None:
    assert AI_LEVELS == LEVELS


@pytest.mark.parametrize(
    ("args", "code"),
    [
        ({"name": "  "}, "bad_name"),
        ({"name": "x" * 61}, "bad_name"),
        ({}, "bad_name"),
        ({"name": "ada"}, "name_taken"),
        ({"kind": "ai", "level": 9}, "bad_level"),
        ({"kind": "ai", "level": True}, "bad_level"),
        ({"kind": "ai"}, "bad_level"),
        ({"kind": "robot", "name": "R2"}, "bad_entrant_kind"),
    ],
)
def test_bad_entrants_are_refused(args: dict[str, Any], code: str) -> None:
    assert registered(1).rejects("RegisterEntrant", **args) == code


def test_a_name_is_free_again_once_its_entrant_withdrew() -> None:
    game = registered(1).then("WithdrawEntrant", entrant="e1")
    assert game.when("RegisterEntrant", name="Ada")[0].data["entrant"] == "e2"


def test_registering_after_the_start_is_refused_unless_late_entry_is_allowed() -> None:
    assert started(2, rounds=1).rejects("RegisterEntrant", name="Zoe") == "registration_closed"
    late = started(2, late_entry=True).plus(paired(1, ["e1", "e2"]))
    assert late.when("RegisterEntrant", name="Zoe")[0].data == {
        "entrant": "e3",
        "name": "Zoe",
        "kind": "person",
        "level": None,
        "round": 1,
    }


def test_a_late_entrant_needs_a_lot_before_the_next_pairing() -> None:
    game = started(2, late_entry=True).then("RegisterEntrant", name="Zoe")
    assert tournament.pending_system(game.state) == Shuffle({"order": 1}, "DrawLots")
    assert game.rejects("PairRound") == "lots_pending"
    assert game.draw_lots().state.lots == ("e1", "e2", "e3")


# --- withdrawing -------------------------------------------------------------------------


def test_an_entrant_withdraws_itself_but_not_another() -> None:
    game = registered(3)
    assert facts(game.when("WithdrawEntrant", BO, entrant="e2")) == [
        ("EntrantWithdrawn", {"entrant": "e2", "round": 0, "by": "seat:2"})
    ]
    assert game.rejects("WithdrawEntrant", BO, entrant="e3") == "not_your_entrant"
    assert game.rejects("WithdrawEntrant", entrant="e9") == "unknown_entrant"
    assert game.then("WithdrawEntrant", entrant="e3").rejects("WithdrawEntrant", entrant="e3") == (
        "already_withdrawn"
    )


def test_withdrawing_during_a_game_forfeits_it_and_the_other_wins() -> None:
    game = in_round_one(2).then("AssignGame", table=0, game_id="g1")
    events = game.when("WithdrawEntrant", ADA, entrant="e1")
    assert [e.type for e in events] == ["EntrantWithdrawn", "SeatForfeited", "RoundCompleted"]
    forfeit = events[1].data
    assert (forfeit["seat"], forfeit["entrant"], forfeit["reason"]) == (0, "e1", "withdrawal")
    assert (forfeit["points"], forfeit["island_points"], forfeit["places"]) == ([0, 3], [0, 0], [2, 1])


def test_a_withdrawn_entrant_is_no_longer_paired() -> None:
    game = started(4, format="round_robin", rounds=None).then("WithdrawEntrant", entrant="e4")
    events = game.when("PairRound")
    assert all("e4" not in table for table in events[0].data["tables"])


# --- start and lots ----------------------------------------------------------------------


def test_start_needs_enough_entrants_and_comes_once() -> None:
    assert registered(1).rejects("StartTournament") == "too_few_entrants"
    tables = registered(2, game="arabana-opodopo", format="tables")
    assert tables.rejects("StartTournament") == "too_few_entrants"
    assert started(2, rounds=1).rejects("StartTournament") == "already_started"
    assert registered(2).rejects("StartTournament", ADA) == "organizer_only"


def test_a_swiss_plays_no_more_rounds_than_a_round_robin_would() -> None:
    assert registered(4, rounds=4).rejects("StartTournament") == "too_many_rounds"
    assert registered(5, rounds=5).when("StartTournament")[0].data["rounds"] == 5
    # Late entrants may yet come and make the rounds possible.
    assert registered(4, rounds=4, late_entry=True).when("StartTournament")[0].data["rounds"] == 4


def test_a_round_robin_plays_as_many_rounds_as_its_berger_tables() -> None:
    for count, double in ((4, False), (5, False), (4, True)):
        game = registered(count, format="round_robin", rounds=None, double=double).then("StartTournament")
        order = [f"e{n}" for n in range(1, count + 1)]
        assert game.state.rounds == len(round_robin(order, double))


def test_the_lots_are_due_at_the_start_and_drawn_by_the_service_alone() -> None:
    game = registered(3).then("StartTournament")
    assert tournament.pending_system(game.state) == Shuffle({"order": 3}, "DrawLots")
    assert game.rejects("PairRound") == "lots_pending"
    assert game.rejects("DrawLots", ORGANIZER, order=[0, 1, 2]) == "system_only"
    assert game.rejects("DrawLots", SYSTEM, order=[0, 1, 1]) == "bad_lots"
    assert game.rejects("DrawLots", SYSTEM, order=[0, 1]) == "bad_lots"
    drawn = game.then("DrawLots", SYSTEM, order=[2, 0, 1])
    assert drawn.history[-1].data == {"entrants": ["e3", "e1", "e2"]}
    assert tournament.pending_system(drawn.state) is None
    assert drawn.rejects("DrawLots", SYSTEM, order=[]) == "lots_not_due"


# --- pairing -----------------------------------------------------------------------------


def test_a_round_robin_pairs_the_berger_table_of_the_lots_order() -> None:
    game = started(4, lots=[3, 1, 0, 2], format="round_robin", rounds=None)
    berger = round_robin(["e4", "e2", "e1", "e3"])
    for round_ in (1, 2, 3):
        events = game.when("PairRound")
        assert events[0].data == {
            "round": round_,
            "tables": [list(t) for t in berger[round_ - 1].tables],
            "byes": [],
        }
        game = game.plus(*events)
        for index in range(len(events[0].data["tables"])):
            game = game.play(index, game_end(0, 4, 2))
    assert game.rejects("PairRound") == "all_rounds_played"


def test_an_odd_round_robin_gives_a_bye_scored_as_a_win() -> None:
    game = started(3, format="round_robin", rounds=None)
    events = game.when("PairRound")
    bye = [e.data for e in events if e.type == "ByeGiven"]
    assert bye == [
        {
            "round": 1,
            "entrant": events[0].data["byes"][0],
            "points": 3,
            "island_points": 0,
            "reason": "pairing",
        }
    ]


def test_a_round_robin_opponent_of_a_withdrawn_entrant_sits_out_with_a_bye() -> None:
    game = started(4, format="round_robin", rounds=None).then("WithdrawEntrant", entrant="e1")
    events = game.when("PairRound")
    opponent = next(
        x for t in round_robin(["e1", "e2", "e3", "e4"])[0].tables if "e1" in t for x in t if x != "e1"
    )
    assert events[0].data["byes"] == [opponent]
    assert events[1].data["reason"] == "opponent_withdrawn"


def test_a_swiss_round_asks_the_engine_with_the_standings_and_records_its_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[list[Standing]] = []

    def engine(standings: list[Standing]) -> Pairing:
        seen.append(list(standings))
        return Pairing((("e2", "e4"), ("e3", "e1")))

    game = in_round_one(4, rounds=2).play(0, game_end(1, 2, 5)).play(1, game_end(0, 6, 1))
    monkeypatch.setattr(schedule, "pair_dutch", engine)
    events = game.when("PairRound")
    assert facts(events) == [
        ("RoundPaired", {"round": 2, "tables": [["e2", "e4"], ["e3", "e1"]], "byes": []})
    ]
    assert [(s.id, s.points, s.rank, s.opponents, s.seats, s.byes) for s in seen[0]] == [
        ("e3", 3, 0, frozenset({"e4"}), (1, 0), 0),
        ("e2", 3, 1, frozenset({"e1"}), (0, 1), 0),
        ("e1", 1, 2, frozenset({"e2"}), (1, 0), 0),
        ("e4", 1, 3, frozenset({"e3"}), (0, 1), 0),
    ]
    # The Dutch system reads pairing numbers (the lots), seats and floats round by round.
    assert [(s.id, s.number, s.colours, s.floats, s.pairing_byes) for s in seen[0]] == [
        ("e3", 3, (0,), ("",), 0),
        ("e2", 2, (1,), ("",), 0),
        ("e1", 1, (0,), ("",), 0),
        ("e4", 4, (1,), ("",), 0),
    ]
    # The record stands: a replay folds the tables, it never asks the engine again.
    monkeypatch.setattr(schedule, "pair_dutch", lambda standings: Pairing((("e1", "e2"), ("e3", "e4"))))
    replayed = given(game.history, events)
    assert [t.seats for t in replayed.state.round_tables(2)] == [("e2", "e4"), ("e3", "e1")]


def test_pairing_waits_for_every_result_of_the_round() -> None:
    game = in_round_one(4).play(0, game_end(0, 4, 2))
    assert game.rejects("PairRound") == "round_unfinished"
    assert registered(2).rejects("PairRound") == "not_started"


# --- games and results -------------------------------------------------------------------


def test_assign_a_game_to_a_table_of_the_current_round() -> None:
    game = in_round_one(4)
    assert facts(game.when("AssignGame", SYSTEM, table=1, game_id="g-7")) == [
        ("GameAssigned", {"round": 1, "table": 1, "game_id": "g-7", "seats": ["e3", "e4"]})
    ]
    assigned = game.then("AssignGame", table=0, game_id="g-1")
    assert game.rejects("AssignGame", table=2, game_id="g-9") == "unknown_table"
    assert game.rejects("AssignGame", table=0, game_id="") == "bad_game_id"
    assert assigned.rejects("AssignGame", table=0, game_id="g-2") == "game_already_assigned"
    assert assigned.rejects("AssignGame", table=1, game_id="g-1") == "game_id_taken"
    assert game.rejects("AssignGame", BO, table=1, game_id="g-2") == "organizer_only"


def test_record_a_result_from_the_games_end_with_its_final_hash() -> None:
    game = in_round_one(4).then("AssignGame", table=1, game_id="g-2")
    end = game_end(1, 3, 8)
    events = game.when("RecordResult", SYSTEM, game_id="g-2", result=end, final_hash=hash_of(5))
    assert facts(events) == [
        (
            "ResultRecorded",
            {
                "game_id": "g-2",
                "round": 1,
                "table": 1,
                "seats": ["e3", "e4"],
                "places": [2, 1],
                "points": [1, 3],
                "island_points": [-5, 5],
                "final_hash": hash_of(5),
                "game_end": end,
            },
        )
    ]


def test_the_last_result_of_a_round_completes_it() -> None:
    game = in_round_one(4).play(0, game_end(0, 4, 2)).then("AssignGame", table=1, game_id="g-2")
    events = game.when(
        "RecordResult", WORKER, game_id="g-2", result=game_end(None, 3, 3), final_hash=hash_of(2)
    )
    assert [e.type for e in events] == ["ResultRecorded", "RoundCompleted"]
    assert events[1].data == {"round": 1}


def test_refused_results() -> None:
    game = in_round_one(4).play(0, game_end(0, 4, 2), game="g-1").then("AssignGame", table=1, game_id="g-2")
    ok = {"result": game_end(0, 4, 2), "final_hash": hash_of(3)}
    assert game.rejects("RecordResult", SYSTEM, game_id="g-9", **ok) == "game_not_in_tournament"
    assert game.rejects("RecordResult", SYSTEM, game_id="g-1", **ok) == "result_already_recorded"
    assert game.rejects("RecordResult", ORGANIZER, game_id="g-2", **ok) == "system_only"
    assert (
        game.rejects("RecordResult", SYSTEM, game_id="g-2", result=ok["result"], final_hash="ab")
        == "bad_hash"
    )
    three = game_end(0, 4, 2, 1)
    assert (
        game.rejects("RecordResult", SYSTEM, game_id="g-2", result=three, final_hash=hash_of(3))
        == "bad_result"
    )
    no_round = {"winner": 0, "totals": [4, 2], "reason": "premature"}
    assert game.rejects("RecordResult", SYSTEM, game_id="g-2", result=no_round, final_hash=hash_of(3)) == (
        "bad_result"
    )
    bad_winner = game_end(2, 4, 2)
    assert game.rejects("RecordResult", SYSTEM, game_id="g-2", result=bad_winner, final_hash=hash_of(3)) == (
        "bad_result"
    )


# --- corrections -------------------------------------------------------------------------


def test_the_organizer_corrects_a_result_with_a_reason_and_the_standings_follow() -> None:
    game = in_round_one(2, rounds=1).play(0, game_end(0, 5, 3), game="g-1", final=1)
    assert game.ranking == ["e1", "e2"]
    events = game.when(
        "CorrectResult",
        game_id="g-1",
        result=game_end(1, 3, 5),
        final_hash=hash_of(9),
        reason="scores swapped",
    )
    data = events[0].data
    assert (events[0].type, data["points"], data["island_points"], data["final_hash"]) == (
        "ResultCorrected",
        [1, 3],
        [-2, 2],
        hash_of(9),
    )
    assert (data["reason"], data["by"]) == ("scores swapped", "organizer")
    assert data["before"] == {"places": [1, 2], "points": [3, 1], "final_hash": hash_of(1)}
    corrected = game.plus(*events)
    assert corrected.ranking == ["e2", "e1"]
    assert corrected.state.tables[0].result is not None
    assert corrected.state.tables[0].result.how == "corrected"


def test_refused_corrections() -> None:
    game = in_round_one(4).play(0, game_end(0, 5, 3), game="g-1").then("AssignGame", table=1, game_id="g-2")
    other = {"result": game_end(1, 3, 5)}
    assert game.rejects("CorrectResult", game_id="g-1", **other) == "reason_required"
    assert game.rejects("CorrectResult", game_id="g-1", reason="  ", **other) == "reason_required"
    assert game.rejects("CorrectResult", SYSTEM, game_id="g-1", reason="x", **other) == "organizer_only"
    assert game.rejects("CorrectResult", game_id="g-2", reason="x", **other) == "no_result_to_correct"
    assert game.rejects("CorrectResult", game_id="g-8", reason="x", **other) == "game_not_in_tournament"
    same = {"result": game_end(0, 5, 3)}
    assert game.rejects("CorrectResult", game_id="g-1", reason="x", **same) == "correction_changes_nothing"


# --- forfeits and byes -------------------------------------------------------------------


def test_a_seat_out_of_time_forfeits_with_the_clock_facts() -> None:
    game = in_round_one(2, move_time_limit=60).then("AssignGame", table=0, game_id="g-1")
    clock = {"limit": 60, "waited": 61.5, "since": "2026-01-01T10:00:00Z"}
    events = game.when("ForfeitSeat", WORKER, game_id="g-1", seat=1, reason="timeout", clock=clock)
    assert [e.type for e in events] == ["SeatForfeited", "RoundCompleted"]
    data = events[0].data
    assert (data["entrant"], data["clock"], data["points"], data["places"]) == ("e2", clock, [3, 0], [1, 2])
    assert data["final_hash"] is None


def test_refused_forfeits() -> None:
    game = in_round_one(2, move_time_limit=60).then("AssignGame", table=0, game_id="g-1")
    early = {"limit": 60, "waited": 59}
    assert game.rejects("ForfeitSeat", game_id="g-1", seat=1, reason="timeout", clock=early) == "bad_clock"
    assert game.rejects("ForfeitSeat", game_id="g-1", seat=1, reason="timeout") == "bad_clock"
    assert game.rejects("ForfeitSeat", game_id="g-1", seat=2, reason="no_show") == "bad_seat"
    assert game.rejects("ForfeitSeat", game_id="g-1", seat=0, reason="bored") == "bad_forfeit_reason"
    assert game.rejects("ForfeitSeat", ADA, game_id="g-1", seat=1, reason="no_show") == "organizer_only"
    no_limit = in_round_one(2).then("AssignGame", table=0, game_id="g-1")
    clock = {"limit": 60, "waited": 90}
    assert (
        no_limit.rejects("ForfeitSeat", game_id="g-1", seat=1, reason="timeout", clock=clock)
        == "no_time_limit"
    )
    done = no_limit.then("ForfeitSeat", game_id="g-1", seat=1, reason="no_show")
    assert done.rejects("ForfeitSeat", game_id="g-1", seat=0, reason="no_show") == "result_already_recorded"
    ended = {"result": game_end(0, 4, 2), "final_hash": hash_of(1)}
    assert done.rejects("RecordResult", SYSTEM, game_id="g-1", **ended) == "result_already_recorded"


def test_a_forfeit_at_a_table_gives_the_others_the_points_of_every_place_but_the_last() -> None:
    game = started(4, game="arabana-opodopo", format="tables").plus(paired(1, ["e1", "e2", "e3", "e4"]))
    game = game.then("AssignGame", table=0, game_id="g-1")
    events = game.when("ForfeitSeat", game_id="g-1", seat=2, reason="no_show")
    assert (events[0].data["points"], events[0].data["places"]) == ([4, 4, 0, 4], [1, 1, 4, 1])


def test_the_organizer_gives_a_late_entrant_a_bye_for_the_round_it_missed() -> None:
    game = in_round_one(2, late_entry=True).then("RegisterEntrant", name="Zoe").draw_lots()
    assert facts(game.when("GiveBye", entrant="e3")) == [
        ("ByeGiven", {"round": 1, "entrant": "e3", "points": 3, "island_points": 0, "reason": "organizer"})
    ]
    assert game.rejects("GiveBye", entrant="e1") == "already_paired"
    assert game.then("GiveBye", entrant="e3").rejects("GiveBye", entrant="e3") == "already_paired"
    assert game.then("WithdrawEntrant", entrant="e3").rejects("GiveBye", entrant="e3") == "entrant_withdrawn"
    assert started(2, rounds=1).rejects("GiveBye", entrant="e1") == "no_round"
    assert registered(2).rejects("GiveBye", entrant="e1") == "not_started"


# --- closing -----------------------------------------------------------------------------


def test_close_records_the_final_ranking_and_then_refuses_everything() -> None:
    game = in_round_one(2, rounds=1)
    assert game.rejects("CloseTournament") == "round_unfinished"
    game = game.play(0, game_end(1, 2, 6))
    events = game.when("CloseTournament")
    assert facts(events) == [("TournamentClosed", {"ranking": ["e2", "e1"], "rounds_played": 1})]
    closed = game.plus(*events)
    assert tournament.is_terminal(closed.state)
    assert closed.rejects("RegisterEntrant", name="Zoe") == "tournament_closed"
    assert closed.rejects("CorrectResult", game_id="g1-0", result=game_end(0, 6, 2), reason="x") == (
        "tournament_closed"
    )


def test_an_unknown_command_is_refused() -> None:
    assert registered(1).rejects("Shuffle") == "unknown_command"


# --- reading ------------------------------------------------------------------------------


def test_the_view_is_json_and_tells_an_entrant_which_it_is() -> None:
    game = in_round_one(2).play(0, game_end(0, 4, 2))
    seen = tournament.view(game.state, BO)
    assert json.loads(json.dumps(seen)) == seen
    assert seen["you"] == "e2"
    assert [line["entrant"] for line in seen["standings"]] == ["e1", "e2"]
    assert seen["tables"][0]["result"]["points"] == [3, 1]
    assert tournament.view(game.state, None)["you"] is None
    assert tournament.view(game.state, CY)["you"] is None


def test_evolve_leaves_the_state_alone_on_an_event_it_does_not_know() -> None:
    game = registered(2)
    assert tournament.evolve(game.state, Event("SomethingElse", {})) == game.state
