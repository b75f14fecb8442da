"""The notation of the games on hexagonal cells: cells as signed axial pairs, a token per step.

Written from events as the Nanuuk! rules record them (docs/nanuuk.md), read back to the same
record, and written again to the same text (docs/notation.md, "Hexagonal cells").
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from replays.notation import NotationError
from replays.notation.build import record as island_record
from replays.notation.hex_build import format, record
from replays.notation.hex_cells import (
    HexTurn,
    Step,
    cell_text,
    parse,
    parse_cell,
    parse_step,
    render,
    step_text,
)


def ev(type_: str, version: int, **data: Any) -> dict[str, Any]:
    return {"type": type_, "version": version, "data": data}


def a_game() -> list[dict[str, Any]]:
    """The start of a 2-seat Nanuuk! game, one event of each kind a turn line tells."""
    setup = {"game": "nanuuk", "seats": [{"name": "Ana"}, {"name": "Ben Ali"}], "first_seat": 0}
    events = [
        {"type": "GameCreated", "data": setup},
        ev(
            "IceLaidOut",
            0,
            tokens=[{"cell": [-2, 1], "kind": "whale"}, {"cell": [1, -1], "kind": "fish"}],
            bears=[[0, 1]],
            cracks=[[[1, 0], [0, 1]]],
        ),
        ev("PiecePlaced", 0, piece=0, seat=0, cell=[0, -2]),
        ev("TurnEnded", 0, seat=0, next=1),
        ev("PiecePlaced", 0, piece=1, seat=1, cell=[-2, 2]),
        ev("TurnEnded", 0, seat=1, next=0),
        ev("PieceMoved", 0, piece=0, seat=0, **{"from": [0, -2], "to": [1, -2]}, kayak=False, sled=False),
        ev("CrackPlaced", 0, seat=0, cell=[1, -2], crack=[[1, -1], [0, -1]], kind="C", forced=False),
        ev("AnimalTaken", 0, piece=0, seat=0, cell=[1, -2], animal="fish"),
        ev("TurnEnded", 0, seat=0, next=1),
        ev("EquipmentUsed", 0, piece=1, seat=1, items=["husky", "sled"]),
        ev("PieceMoved", 0, piece=1, seat=1, **{"from": [-2, 2], "to": [-1, 2]}, kayak=True, sled=True),
        ev("CrackPlaced", 0, seat=1, cell=[-1, 2], crack=[[-1, 2], [0, 2]], kind="d", forced=True),
        ev("InukJoined", 0, piece=1, seat=1, cell=[-1, 2]),
        ev("BearSent", 0, piece=1, seat=1, bear=3, **{"from": [0, 1], "to": [2, -2]}),
        ev("AnimalLeft", 0, piece=1, seat=1, cell=[-1, 2], animal="seal"),
        ev("TurnEnded", 0, seat=1, next=0),
        ev("HarpoonReturned", 0, piece=0, seat=0),
        ev("AnimalExchanged", 0, piece=0, seat=0, animal="whale", equipment=["husky", "sled"], inuk=True),
        ev("AnimalBroughtIn", 0, piece=0, seat=0, animal="fish", inuk=False),
        ev("IglooVisitEnded", 0, piece=0, seat=0),
        ev("TurnEnded", 0, seat=0, next=1),
        ev("Undone", 0, to_version=17, requested_by=0, approved_by=[1]),
        ev("HunterRetired", 0, piece=0, seat=0),
        ev("TurnEnded", 0, seat=0, next=1),
        ev("TurnSkipped", 0, seat=1, reason="cannot_move"),
        ev("PieceStayed", 0, piece=1, seat=1, cell=[0, 0]),
        ev("PieceOut", 0, piece=1, seat=1, reason="shut_in"),
        ev(
            "GameEnded",
            0,
            winner=0,
            winners=[0],
            totals=[9, 2],
            reason="points",
            points=[9, 2],
            equipment=[["harpoon"], []],
        ),
    ]
    return [{**e, "version": n} for n, e in enumerate(events, start=1)]


def test_a_game_is_written_one_line_per_turn_with_cells_as_signed_axial_pairs() -> None:
    text = format(a_game())
    assert text.splitlines() == [
        '[Game "nanuuk"]',
        '[Seat1 "Ana"]',
        '[Seat2 "Ben Ali"]',
        '[Mode "casual"]',
        '[Result "Ana"]',
        "",
        "ice: whale(-2+1) fish(+1-1) bear(+0+1) cracks(+0+1|+1+0)",
        "1. Ana: 0@+0-2",
        '2. "Ben Ali": 1@-2+2',
        "3. Ana: 0:+0-2>+1-2 C~+0-1|+1-1 +fish",
        '4. "Ben Ali": !husky,sled 1:-2+2>-1+2ks d~-1+2|+0+2 +inuk ^3:+0+1>+2-2 -seal',
        "5. Ana: *harpoon $whale+inuk=husky,sled &fish leave",
        'undo: to(17) by(Ana) approved("Ben Ali")',
        "5. Ana: retire(0)",
        '6. "Ben Ali": skip(cannot_move)',
        '7. "Ben Ali": 1=+0+0 x1(shut_in)',
        "end: winners(Ana) reason(points) totals(9,2) points(9,2) equipment(1,0)",
    ]


def test_the_heading_has_the_island_grammar_s_tags_before_its_own_result() -> None:
    setup = {
        "game": "nanuuk",
        "seats": [{"name": "Ana"}, {"name": "Ben Ali"}],
        "mode": "tournament",
        "options": {"two_hunters": True, "layout": {"fish": [[1, -1]]}, "double_move_cracks": "each_step"},
    }
    events = [{**e, "at": "2026-03-04T05:06:07Z"} for e in a_game()]
    events[0] = {**events[0], "data": setup}

    tags = record(events, "Ben Ali").tags

    assert tags == (
        ("Game", "nanuuk"),
        ("Date", "2026-03-04"),
        ("Seat1", "Ana"),
        ("Seat2", "Ben Ali"),
        ("Mode", "tournament"),
        ("Options", "double_move_cracks=each_step layout.fish=[[1, -1]] two_hunters=true"),
        ("Viewer", "Ben Ali"),
        ("Result", "Ana"),
    )
    assert tags[:-1] == island_record(events, "Ben Ali").tags[:-1]


def test_reading_the_text_gives_the_record_of_the_events_and_writing_it_gives_the_text() -> None:
    events = a_game()
    text = format(events)
    assert parse(text) == record(events)
    assert render(parse(text)) == text


def test_a_cell_is_written_with_both_signs_and_read_back() -> None:
    assert cell_text([1, -2]) == "+1-2" and cell_text([0, 0]) == "+0+0" and cell_text([-10, 3]) == "-10+3"
    assert parse_cell("-10+3") == (-10, 3)


def test_a_token_no_rule_writes_is_refused_with_its_line() -> None:
    text = format(a_game()).replace("0@+0-2", "0@0-2")
    with pytest.raises(NotationError) as refused:
        parse(text)
    assert refused.value.line == 8
    with pytest.raises(NotationError):
        parse_step("~+0-1")


cells = st.tuples(st.integers(-12, 12), st.integers(-12, 12))
words = st.lists(
    st.sampled_from(["fish", "seal", "walrus", "whale", "husky", "sled", "kayak"]), min_size=1, max_size=3
)
steps = st.one_of(
    st.builds(lambda p, c: Step("place", p, (c,)), st.integers(0, 30), cells),
    st.builds(
        lambda p, a, b, f: Step("move", p, (a, b), flags=f),
        st.integers(0, 30),
        cells,
        cells,
        st.sampled_from(["", "k", "s", "ks"]),
    ),
    st.builds(lambda p, c: Step("stay", p, (c,)), st.integers(0, 30), cells),
    st.builds(
        lambda a, b, k: Step("crack", cells=tuple(sorted((a, b))), flags=k),
        cells,
        cells,
        st.sampled_from(["C", "d"]),
    ),
    st.builds(lambda w: Step("equip", words=tuple(w)), words),
    st.builds(lambda w: Step("take", words=(w[0],)), words),
    st.builds(lambda w: Step("leave", words=(w[0],)), words),
    st.builds(lambda p, a, b: Step("bear", p, (a, b)), st.integers(0, 30), cells, cells),
    st.builds(
        lambda w, i: Step("exchange", words=tuple(w), flags=i),
        words.filter(lambda w: len(w) > 1),
        st.sampled_from(["", "+inuk"]),
    ),
    st.builds(lambda w, i: Step("bring", words=(w[0],), flags=i), words, st.sampled_from(["", "+inuk"])),
    st.sampled_from([Step("join"), Step("harpoon"), Step("home")]),
    st.builds(lambda p: Step("retire", p), st.integers(0, 30)),
    st.builds(lambda p: Step("out", p, words=("shut_in",)), st.integers(0, 30)),
)


@given(st.lists(steps, max_size=8), st.sampled_from(["Ana", "Ben Ali", 'Q "x"']))
def test_every_step_reads_back_as_written(turn: list[Step], name: str) -> None:
    for step in turn:
        assert parse_step(step_text(step)) == step
    rec = parse(
        f'[Game "nanuuk"]\n\n1. {render_name(name)}:' + "".join(" " + step_text(s) for s in turn) + "\n"
    )
    assert rec.lines == (HexTurn(1, name, tuple(turn)),)


def render_name(name: str) -> str:
    import json

    return name if name.isalpha() else json.dumps(name)


GAMES_PLAYED = [
    ("nanuuk", 2, {}),
    ("nanuuk", 3, {"double_move_cracks": "mover_chooses", "pre_cracks": 3}),
    ("nanuuk", 4, {}),
    ("nanuuk-learning", 2, {}),
    ("nanuuk-bear-hunt", 3, {"bear_may_stay": True}),
    ("nanuuk-bear-flight", 2, {"bears": 3}),
    ("nanuuk-partners", 4, {}),
    ("nanuuk-helper", 2, {}),
]


@pytest.mark.parametrize(("game", "seats", "options"), GAMES_PLAYED)
def test_a_whole_random_game_of_each_mode_reads_back_and_every_event_is_told(
    game: str, seats: int, options: dict[str, Any]
) -> None:
    import random

    import replays.notation as notation
    from ai.table import Table

    setup = {
        "game": game,
        "seats": [{"name": f"P{n}"} for n in range(seats)],
        "first_seat": 0,
        "options": options,
    }
    table = Table(setup, random.Random(5))
    rng = random.Random(5)
    while not table.ended:
        seat = table.mover()
        assert seat is not None
        table.play(rng.choice(table.legal(seat)))
    events = [
        {"type": e.type, "version": n, "data": dict(e.data)} for n, e in enumerate(table.events, start=1)
    ]
    text = notation.format(events)
    assert text == format(events)  # the registry's board of cells chooses this grammar
    assert notation.parse(text) == record(events)
    assert render(notation.parse(text)) == text
    labels = {
        line.split(":")[0] for line in text.splitlines() if line and not line[0].isdigit() and line[0] != "["
    }
    assert labels <= {"ice", "end"}
    moved = sum(1 for e in events if e["type"] == "PieceMoved")
    assert text.count(">") - text.count("^") >= moved
