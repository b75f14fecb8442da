"""Resign and Abort as rules over the record (domain/resign.py): given these events, when this
command, then these events or this refusal."""

from __future__ import annotations

from typing import Any

import pytest

from domain import resign
from domain.decider import Command, IllegalMove
from domain.ending import ending
from domain.tournament.points import places_of, read_game_end
from domain.undo import Record, undone

GAME_ENDED = "GameEnded"
"""Kahuna's end (the games these records are of), as its module declares it."""
SEATS = [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cai"}]


def _given(*moves: str, seats: int = 2, mode: str = "casual") -> list[Record]:
    """A game's record: GameCreated, then one event per actor named ("seat:0", "system", ...)."""
    created = Record(
        1, "GameCreated", {"game": "kahuna", "seats": SEATS[:seats], "mode": mode}, "organizer", "c"
    )
    return [created, *(Record(v, "Moved", {}, actor, f"c{v}") for v, actor in enumerate(moves, start=2))]


def _when(records: list[Record], kind: str, seat: int) -> list[Any]:
    return resign.decide(records, Command(kind, seat), GAME_ENDED)


def test_a_resigning_seat_loses_and_the_other_wins() -> None:
    [event] = _when(_given("system", "seat:0", "seat:1"), resign.RESIGN, 1)
    assert event.type == "GameResigned"
    assert event.data == {
        "seat": 1,
        "winner": 0,
        "winners": [0],
        "totals": [0, 0],
        "reason": "resigned",
        "resigned": 1,
    }


def test_at_a_table_of_three_the_others_share_the_win_and_the_resigner_is_placed_last() -> None:
    [event] = _when(_given(seats=3), resign.RESIGN, 0)
    assert (event.data["winner"], event.data["winners"]) == (None, [1, 2])
    assert places_of(read_game_end(event.data, 3)) == (3, 1, 1)


def test_a_two_player_resignation_places_the_resigner_second_whatever_the_totals() -> None:
    [event] = _when(_given(), resign.RESIGN, 0)
    assert places_of(read_game_end(event.data, 2)) == (2, 1)


def test_abort_is_allowed_until_a_second_seat_has_moved() -> None:
    assert [e.type for e in _when(_given("system", "seat:0", "seat:0"), resign.ABORT, 1)] == ["GameAborted"]
    assert [e.type for e in _when(_given(), resign.ABORT, 0)] == ["GameAborted"]
    with pytest.raises(IllegalMove) as refused:
        _when(_given("seat:0", "seat:1"), resign.ABORT, 0)
    assert refused.value.code == "abort_too_late"


def test_an_undone_move_does_not_count_against_the_abort() -> None:
    records = _given("seat:0", "seat:1")
    rewind = undone(2, 1)  # back to the state after seat 0's move
    records.append(Record(4, rewind.type, rewind.data, "seat:1", "c4"))
    assert resign.may_abort(records, GAME_ENDED)
    assert [e.type for e in _when(records, resign.ABORT, 1)] == ["GameAborted"]


def test_a_tournament_game_is_resigned_but_never_aborted() -> None:
    records = _given(mode="tournament")
    assert [e.type for e in _when(records, resign.RESIGN, 0)] == ["GameResigned"]
    with pytest.raises(IllegalMove) as refused:
        _when(records, resign.ABORT, 0)
    assert refused.value.code == "abort_not_allowed_in_tournament"


@pytest.mark.parametrize("end", [GAME_ENDED, "GameResigned", "GameAborted", "GameForfeited"])
def test_nothing_is_resigned_or_aborted_after_the_end(end: str) -> None:
    records = [*_given("seat:0"), Record(3, end, {"seat": 0}, "seat:0", "end")]
    assert ending(records, GAME_ENDED) is records[-1]
    for kind in (resign.RESIGN, resign.ABORT):
        with pytest.raises(IllegalMove) as refused:
            _when(records, kind, 1)
        assert refused.value.code == "game_over"


def test_a_resignation_and_an_abort_are_said_in_words() -> None:
    names = ["Ann", "Ben"]
    assert resign.describe({"type": "GameResigned", "data": {"seat": 1}}, names) == "Ben resigned"
    assert "Ann called the game off" in str(
        resign.describe({"type": "GameAborted", "data": {"seat": 0}}, names)
    )
    assert resign.describe({"type": "BridgePlaced", "data": {"seat": 0}}, names) is None
