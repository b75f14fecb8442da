"""The record marks (service.record_marks) answer as the whole-record reads they replace, however
the record is split into the loads that extend them; and a long game's loads read only the
events they add."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from domain.ending import GAME_ABORTED, GAME_FORFEITED, GAME_RESIGNED, platform_end
from record.draws import ENTROPY_EVENT, entropy_before, entropy_from, entropy_log
from record.envelope import Envelope
from record.seat_keys import KEY_EVENT, seat_keys
from service.loaded import Loaded
from service.loading import extended
from service.record_marks import Marks, marks_of
from tests.seat_signing import SeatKey

KEYS = [SeatKey().jwk, SeatKey("Ed25519").jwk, SeatKey().jwk]
KINDS = ["Played", "Played", KEY_EVENT, ENTROPY_EVENT, GAME_RESIGNED, GAME_ABORTED, GAME_FORFEITED]


def envelope(version: int, kind: str, command_id: str, data: dict[str, Any]) -> Envelope:
    return Envelope(
        version=version,
        type=kind,
        schema=1,
        data=data,
        secret=None,
        audience=(),
        actor="seat:0",
        command_id=command_id,
        event_id=f"{command_id}:{version}",
        at="2026-11-29T00:00:00Z",
        prev_hash="",
        hash=f"h{version}",
        position=version,
    )


@st.composite
def records(draw: st.DrawFn) -> list[Envelope]:
    """GameCreated (a seat's key given in the setup, or none) and batches of events: moves,
    key registrations, entropy and platform ends, some command ids used by two batches."""
    setup_key = draw(st.sampled_from([None, 0]))
    seats: list[dict[str, Any]] = [{"name": "A"}, {"name": "B"}]
    if setup_key is not None:
        seats[setup_key]["public_key"] = KEYS[2]
    found = [envelope(1, "GameCreated", "create", {"game": "kahuna", "seats": seats})]
    for batch in range(draw(st.integers(0, 12))):
        command_id = draw(st.sampled_from([f"c{batch}", "c0", "create"]))
        for _ in range(draw(st.integers(1, 3))):
            kind = draw(st.sampled_from(KINDS))
            data: dict[str, Any] = {"seat": draw(st.integers(0, 1))}
            if kind == KEY_EVENT:
                data["key"] = KEYS[draw(st.integers(0, 1))]
            if kind == ENTROPY_EVENT:
                data["entropy"] = draw(st.sampled_from(["ab" * 16, "cd" * 16]))
            found.append(envelope(len(found) + 1, kind, command_id, data))
    return found


def written_by(records: list[Envelope], command_id: str) -> list[Envelope]:
    return [e for e in records if e.command_id == command_id]


@given(records(), st.data())
def test_the_marks_answer_as_the_whole_record_reads_whatever_the_loads_that_extend_them(
    found: list[Envelope], data: st.DataObject
) -> None:
    cuts = sorted(data.draw(st.lists(st.integers(0, len(found)), max_size=4)))
    marks = Marks()
    for start, end in zip([0, *cuts], [*cuts, len(found)], strict=True):
        marks = marks.after(found[start:end])
    assert marks == marks_of(found)
    assert marks.count == len(found)
    assert marks.platform_end == platform_end(found)
    assert marks.keys == seat_keys(found)
    assert marks.entropy == entropy_log(found)
    for command_id in {"create", "c0", "c1", "c5", "never"}:
        assert marks.written_by(found, command_id) == written_by(found, command_id)


def test_a_loaded_game_extended_by_new_events_reads_only_those(monkeypatch: Any) -> None:
    """A long record's marks are read once; each later extension reads just its new events."""
    found = [envelope(1, "GameCreated", "create", {"game": "kahuna", "seats": [{"name": "A"}]})]
    found += [envelope(n, "Played", f"c{n}", {"seat": 0}) for n in range(2, 4001)]
    read: list[int] = []
    after = Marks.after

    def counted(self: Marks, newer: Any) -> Marks:
        read.append(len(newer))
        return after(self, newer)

    monkeypatch.setattr(Marks, "after", counted)

    class Rules:
        @staticmethod
        def evolve(state: Any, event: Any) -> Any:
            return state

    loaded = Loaded("g", Rules(), None, found[:3990])
    assert loaded.platform_ended is None and read == [3990], "read once, on first use"
    assert loaded.written_by("c7") == [found[6]] and read == [3990], "and kept"
    grown = extended(loaded, found[3990:])
    assert read == [3990, 10]
    assert grown.written_by("c3995") == [found[3994]] and grown.seat_keys == {}
    ended = extended(grown, [envelope(4001, GAME_RESIGNED, "r", {"seat": 0})])
    assert read == [3990, 10, 1]
    assert ended.platform_ended is not None and ended.platform_ended.version == 4001


def test_the_marks_hold_the_entropy_each_draw_mixes_in() -> None:
    found = [envelope(1, "GameCreated", "create", {"game": "kahuna", "seats": [{"name": "A"}], "deal": {}})]
    found += [envelope(2, "Played", "c2", {"seat": 0})]
    found += [envelope(3, ENTROPY_EVENT, "c3", {"seat": 1, "entropy": "ab" * 16})]
    found += [envelope(n, "Played", f"c{n}", {"seat": 0}) for n in range(4, 9)]
    deal = {"entropy": "cd" * 16}
    marks = Marks().after(found[:2]).after(found[2:5]).after(found[5:])
    assert marks.entropy == entropy_log(found) == ((3, ("seat:1", "ab" * 16)),)
    for version in range(1, 10):
        assert entropy_from(deal, marks.entropy, version) == entropy_before(deal, found, version)
