"""The notation of Conquest of Paradise: a whole random game, as each viewer may see it, reads
back event by event (type, data, and the secret the viewer may read, `?` for the others);
hexes, paths and seats are written short; a bad line is refused with its number."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.decider import Event
from domain.games import rules_for
from domain.turns import Seats
from record.redaction import redact_event
from replays import notation
from replays.notation import paradise
from replays.notation.model import NotationError

GAME = rules_for("conquest-of-paradise")


def played(seats: int, seed: int, **options: Any) -> list[tuple[int, Event]]:
    rng = random.Random(seed)
    setup = {"game": GAME.name, "seats": [{"name": n} for n in ("Ann", "Ben", "Cai Lu", "Dee")[:seats]]}
    setup["options"] = {"last_turn": 3, **options}
    state = GAME.initial_state(setup)
    log: list[tuple[int, Event]] = [(1, GAME.created_event(setup))]
    while not GAME.is_terminal(state):
        request = GAME.pending_system(state)
        if request is not None:
            command = request.answer(rng)
        else:
            acting = GAME.to_act(state)
            assert isinstance(acting, Seats)
            command = rng.choice(list(GAME.legal_commands(state, acting.seats[0])))
        events, state = GAME.apply(state, command)
        for event in events:
            log.append((len(log) + 1, event))
    return log


def as_viewed(log: list[tuple[int, Event]], viewer: int | None) -> list[dict[str, Any]]:
    """The events as the service hands them to a viewer, with an actor and a command id (every
    three events one command: the notation groups by them, whatever they are)."""
    out = []
    for n, (version, event) in enumerate(log):
        shown = redact_event(event, version, viewer)
        shown["command_id"] = f"c{n // 3}"
        shown["actor"] = "system" if "seat" not in event.data else f"seat:{event.data['seat']}"
        out.append(shown)
    return out


@pytest.mark.parametrize(
    ("seats", "seed", "options"), [(2, 1, {}), (3, 2, {"malaria": True}), (4, 3, {"kumara": True})]
)
def test_P_notation_reads_back_every_event_as_each_viewer_saw_it(
    seats: int, seed: int, options: dict[str, Any]
) -> None:
    log = played(seats, seed, **options)
    for viewer in (None, *range(seats)):
        events = as_viewed(log, viewer)
        text = notation.format(events, None if viewer is None else f"seat {viewer}")
        record = notation.parse(text)
        assert isinstance(record, paradise.ParadiseRecord) and record.tag("Game") == GAME.name
        told = [t for step in record.steps for t in step.told]
        expected = [
            (
                e["type"],
                e["data"],
                e["secret"] if e.get("secret") is not None else ("?" if e.get("redacted") else None),
            )
            for e in events[1:]
        ]
        assert [(t.type, dict(t.data), t.secret) for t in told] == expected
        assert record.tag("Result") != "*"


def test_hexes_paths_and_seats_are_written_short() -> None:
    events = [
        {"type": "GameCreated", "data": {"game": GAME.name, "seats": [{"name": "Ann"}, {"name": "Ben"}]}},
        {
            "version": 2,
            "type": "PiecesMoved",
            "actor": "seat:1",
            "command_id": "a",
            "data": {"seat": 1, "path": [[5, 4], [4, 4]], "count": 2, "how": "move"},
            "secret": None,
            "redacted": True,
        },
        {
            "version": 3,
            "type": "Fight",
            "actor": "seat:0",
            "command_id": "b",
            "data": {"hex": [4, 4], "defender": -1},
        },
    ]
    text = paradise.format(events, "Ann")
    assert '2. Ben: PiecesMoved(count=2;how="move";path=5.4>4.4;seat=Ben){?}' in text
    assert "3. Ann: Fight(defender=-1;hex=4.4)" in text


def test_a_bad_line_is_refused_with_its_number() -> None:
    good = '[Game "conquest-of-paradise"]\n[Seat1 "Ann"]\n\n2. Ann: Explore(hex=5.7)\n'
    assert notation.parse(good).steps[0].told[0].data == {"hex": [5, 7]}
    with pytest.raises(NotationError) as bad:
        notation.parse(good + "3. Ann: Explore(hex=5.7\n")
    assert bad.value.line == 5


def test_P3_3_a_move_s_stops_are_written_short_and_read_back() -> None:
    moved = {
        "version": 2,
        "type": "PiecesMoved",
        "actor": "seat:1",
        "command_id": "a",
        "data": {
            "seat": 1,
            "path": [[5, 6], [4, 6], [3, 6], [3, 5]],
            "count": 3,
            "how": "move",
            "stops": [{"at": 1, "drop": 1, "take": 0}, {"at": 2, "drop": 1, "take": 2}],
        },
    }
    secret = {
        "pieces": {"transport": 2, "war_canoe": 0, "band": 0, "colony": 1, "rumor": 0},
        "aboard_war": 0,
        "stops": [
            {"at": 1, "drop": {"colony": 1}, "take": {}},
            {"at": 2, "drop": {"band": 1}, "take": {"band": 2, "colony": 1}},
        ],
    }
    created = {
        "type": "GameCreated",
        "data": {"game": GAME.name, "seats": [{"name": "Ann"}, {"name": "Ben"}]},
    }
    for event, written in (
        ({**moved, "secret": None, "redacted": True}, "{?}"),
        ({**moved, "secret": secret}, "stops=@1-colony,@2-band+2band&colony}"),
    ):
        text = paradise.format([created, event], "Ben")
        assert "path=5.6>4.6>3.6>3.5;seat=Ben;stops=@1-1,@2-1+2)" in text and written in text
        told = notation.parse(text).steps[0].told[0]
        assert dict(told.data) == moved["data"]
        assert told.secret == (event["secret"] if event.get("secret") else "?")
