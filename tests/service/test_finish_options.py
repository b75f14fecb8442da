"""Whether a seat may still abort, remembered once false: the answer is the rules' answer over the
whole record, also after an undo takes the second seat's move back."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest

from domain import resign
from service import finishing

SEATS = [{"name": "Ann"}, {"name": "Ben"}]


@dataclass(frozen=True)
class Stored:
    version: int
    type: str
    data: dict[str, Any] = field(default_factory=dict)
    actor: str = "system"
    hash: str = ""


def record(*moves: tuple[str, dict[str, Any]] | str, game: str = "g1") -> SimpleNamespace:
    created = Stored(
        1, "GameCreated", {"game": "kahuna", "seats": SEATS, "mode": "casual"}, "organizer", "h1"
    )
    rest = []
    for version, move in enumerate(moves, start=2):
        if isinstance(move, tuple):  # a rewind, asked for by seat 0
            rest.append(Stored(version, move[0], move[1], "seat:0", f"h{version}"))
        else:  # a move by the seat named
            rest.append(Stored(version, "Moved", {}, move, f"h{version}"))
    return SimpleNamespace(
        game_id=game, trusted=[created, *rest], rules=SimpleNamespace(end_event="GameEnded")
    )


@pytest.fixture(autouse=True)
def forgotten() -> None:
    finishing._PAST_ABORT.clear()


def rules_answer(loaded: SimpleNamespace) -> bool:
    return resign.may_abort(loaded.trusted, loaded.rules.end_event)


def test_once_both_seats_moved_the_answer_stays_false_while_nothing_rewinds() -> None:
    moves = ["seat:0", "seat:1"]
    assert finishing.may_abort(record(*moves)) is False
    longer = record(*moves, "seat:0", "seat:1")
    assert finishing.may_abort(longer) is rules_answer(longer) is False


def test_an_undo_of_the_second_seats_move_lets_the_game_be_aborted_again() -> None:
    assert finishing.may_abort(record("seat:0", "seat:1")) is False
    undone = record("seat:0", "seat:1", ("Undone", {"to_version": 2}))
    assert rules_answer(undone) is True
    assert finishing.may_abort(undone) is True


def test_another_record_under_the_same_id_is_asked_afresh() -> None:
    assert finishing.may_abort(record("seat:0", "seat:1")) is False
    other = record("seat:0")
    assert finishing.may_abort(other) is rules_answer(other) is True


def test_each_look_reads_only_the_events_since_the_last(monkeypatch: pytest.MonkeyPatch) -> None:
    """Remembered at the newest event it was asked at, not the first: a long game's views do not
    read ever more of the record."""
    moves = ["seat:0", "seat:1"] * 200
    assert finishing.may_abort(record(*moves[:2])) is False
    assert finishing.may_abort(record(*moves[:300])) is False
    assert finishing._PAST_ABORT["g1"] == (301, "h301")
    read: list[int] = []
    still_holds = finishing._still_holds

    def counted(records: Any, version: int, digest: str) -> bool:
        read.append(len(records) - version)
        return still_holds(records, version, digest)

    monkeypatch.setattr(finishing, "_still_holds", counted)
    assert finishing.may_abort(record(*moves[:302])) is False
    assert read == [2] and finishing._PAST_ABORT["g1"] == (303, "h303")
    undone = record(*moves[:302], ("Undone", {"to_version": 2}))
    assert finishing.may_abort(undone) is rules_answer(undone) is True
