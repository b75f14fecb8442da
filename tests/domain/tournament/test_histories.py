"""What the Dutch system is told of each entrant: pairing numbers by the lots, seats and
floats round by round, pairing byes; a late entrant's missed rounds hold no seat."""

from __future__ import annotations

import pytest
from tournament_given import created, game_end, paired, registered, started

from domain.actor import SYSTEM
from domain.decider import IllegalMove
from domain.tournament.histories import with_histories
from domain.tournament.schedule import pairing_standings


def test_histories_hold_pairing_numbers_seats_floats_and_pairing_byes() -> None:
    # Lots: Cy, Ada, Bo, Di, Ed: pairing numbers 1-5.
    game = started(5, lots=[2, 0, 1, 3, 4], rounds=3, late_entry=True).then("PairRound")
    # Round 1 by the Dutch system: 1-3 (Cy white), 4-2 (Di white), 5 (Ed) has the bye.
    assert [t.seats for t in game.state.round_tables(1)] == [("e3", "e2"), ("e4", "e1")]
    assert [b.entrant for b in game.state.byes] == ["e5"]
    game = game.play(0, game_end(0, 5, 2)).play(1, game_end(None, 4, 4))
    game = game.then("RegisterEntrant", name="Flo")
    game = game.then("DrawLots", SYSTEM, order=[0])
    # Round 2 by hand. Before it: Cy 3, Ed 3, Ada 2, Di 2, Bo 1, Flo 0.
    game = game.plus(paired(2, ["e5", "e3"], ["e2", "e1"], ["e6", "e4"]))
    game = game.play(0, game_end(0, 6, 1)).play(1, game_end(1, 2, 3)).play(2, game_end(1, 1, 4))
    told = {s.id: s for s in with_histories(game.state, pairing_standings(game.state))}
    assert {e: (s.number, s.colours, s.floats, s.pairing_byes) for e, s in told.items()} == {
        "e3": (1, (0, 1), ("", ""), 0),
        "e1": (2, (1, 1), ("", "D"), 0),
        "e2": (3, (1, 0), ("", "U"), 0),
        "e4": (4, (0, 1), ("", "D"), 0),
        "e5": (5, (None, 0), ("D", ""), 1),
        "e6": (6, (None, 0), ("", "U"), 0),
    }


def test_pairing_by_rating_numbers_the_highest_first_the_unrated_last_ties_by_lot() -> None:
    game = registered(5, format="swiss", rounds=2, pairing_numbers="ratings").then("StartTournament")
    ratings = {"e1": 3.5, "e2": None, "e3": 20.0, "e4": 3.5, "e5": None}
    assert game.rejects("DrawLots", SYSTEM, order=[4, 3, 2, 1, 0]) == "bad_ratings"
    assert game.rejects("DrawLots", SYSTEM, order=[4, 3, 2, 1, 0], ratings={"e1": 1}) == "bad_ratings"
    game = game.then("DrawLots", SYSTEM, order=[4, 3, 2, 1, 0], ratings=ratings)
    # Lots: e5, e4, e3, e2, e1. Ratings: e3 first; e4 before e1 (equal, e4's lot first); then
    # the unrated e5 before e2 by lot.
    assert game.state.pairing_order() == ["e3", "e4", "e1", "e5", "e2"]
    told = with_histories(game.state, pairing_standings(game.state))
    assert {s.id: s.number for s in told} == {"e3": 1, "e4": 2, "e1": 3, "e5": 4, "e2": 5}


def test_ratings_come_only_to_a_swiss_that_pairs_by_rating() -> None:
    game = registered(2, format="swiss", rounds=1).then("StartTournament")
    assert game.rejects("DrawLots", SYSTEM, order=[0, 1], ratings={"e1": 1, "e2": 2}) == "ratings_not_asked"
    assert registered(0).state.settings.pairing_numbers == "lots"
    with pytest.raises(IllegalMove) as refused:
        created(format="round_robin", rounds=None, pairing_numbers="ratings")
    assert refused.value.code == "bad_pairing_numbers"


def test_a_forfeited_game_holds_no_seat_and_its_winner_floats_down() -> None:
    game = started(4, rounds=2).then("PairRound")
    first, second = game.state.round_tables(1)
    game = game.then("AssignGame", table=0, game_id="g1-0")
    game = game.then("ForfeitSeat", game_id="g1-0", seat=1, reason="no_show")
    game = game.play(1, game_end(0, 5, 2))
    told = {s.id: s for s in with_histories(game.state, pairing_standings(game.state))}
    assert (told[first.seats[0]].colours, told[first.seats[0]].floats) == ((None,), ("D",))
    assert (told[first.seats[1]].colours, told[first.seats[1]].floats) == ((None,), ("",))
    assert told[second.seats[0]].colours == (0,) and told[second.seats[1]].colours == (1,)
