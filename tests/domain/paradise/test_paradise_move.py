"""P-3.1..P-3.5 movement: transit, canoe moves, capacity, face-down stacks, rumors."""

from __future__ import annotations

from typing import Any

import pytest
from paradise_given import FIJI, SAMOA, TONGA, act, moving, place, tile

from domain.decider import IllegalMove
from domain.paradise.legal import legal_commands
from domain.paradise.module import PARADISE
from domain.paradise.state import State, counts
from domain.paradise.view import view

OCEAN_W = (4, 6)  # known ocean west of Tonga
OCEAN_WW = (3, 6)


def test_P3_1_transit_runs_along_a_chain_of_face_up_transports() -> None:
    state = moving(2)
    state = place(state, TONGA, 0, shown=True, transport=1, band=2)
    state = place(state, OCEAN_W, 0, shown=True, transport=1)
    state = place(state, OCEAN_WW, 0, shown=True, transport=2)  # at sea, the bands need canoes
    events, after = act(state, "Transit", 0, path=[list(TONGA), list(OCEAN_WW)], pieces={"band": 2})
    assert after.pieces(OCEAN_WW, 0)["band"] == 2 and events[0].data["how"] == "transit"
    with pytest.raises(IllegalMove) as refused:
        act(state, "Transit", 0, path=[list(TONGA), list(OCEAN_WW)], pieces={"transport": 1})
    assert refused.value.code == "not_enough_pieces"  # the chain's own canoe stays


def test_P3_1_transit_comes_before_any_other_move() -> None:
    state = moving(2)
    state = place(state, TONGA, 0, shown=True, transport=2, band=1)
    state = place(state, OCEAN_W, 0, shown=True, transport=1)
    _, state = act(state, "Move", 0, path=[list(TONGA), list(OCEAN_W)], pieces={"transport": 1})
    with pytest.raises(IllegalMove) as refused:
        act(state, "Transit", 0, path=[list(TONGA), list(OCEAN_W)], pieces={"band": 1})
    assert refused.value.code == "transit_over"


def test_P3_2_canoes_move_two_known_hexes_never_into_the_unknown() -> None:
    state = moving(2)
    state = place(state, TONGA, 0, transport=1)
    _, after = act(
        state, "Move", 0, path=[list(TONGA), list(OCEAN_W), list(OCEAN_WW)], pieces={"transport": 1}
    )
    assert after.pieces(OCEAN_WW, 0)["transport"] == 1
    for path in ([TONGA, (6, 6)], [TONGA, OCEAN_W, OCEAN_WW, (2, 7)]):
        with pytest.raises(IllegalMove) as refused:
            act(state, "Move", 0, path=[list(h) for h in path], pieces={"transport": 1})
        assert refused.value.code == "bad_path"


def test_P3_2_transports_enter_enemy_hexes_only_with_a_war_canoe() -> None:
    state = moving(2)
    state = place(state, (4, 4), 0, transport=1, war_canoe=1)
    with pytest.raises(IllegalMove):
        act(state, "Move", 0, path=[[4, 4], list(FIJI)], pieces={"transport": 1})
    _, after = act(state, "Move", 0, path=[[4, 4], list(FIJI)], pieces={"transport": 1, "war_canoe": 1})
    assert after.pieces(FIJI, 0)["war_canoe"] == 1


def test_P3_2_a_war_canoe_stops_at_an_enemy_group() -> None:
    state = moving(2)
    state = place(state, (4, 4), 0, war_canoe=1)
    with pytest.raises(IllegalMove) as refused:
        act(state, "Move", 0, path=[[4, 4], list(FIJI), [4, 6]], pieces={"war_canoe": 1})
    assert "stops" in refused.value.message


def test_P3_3_canoe_capacity_and_one_canoe_a_turn() -> None:
    state = moving(2)
    state = place(state, TONGA, 0, transport=1, war_canoe=1, band=2, colony=1)
    with pytest.raises(IllegalMove) as refused:
        act(
            state,
            "Move",
            0,
            path=[list(TONGA), list(OCEAN_W)],
            pieces={"transport": 1, "war_canoe": 1, "band": 2, "colony": 1},
        )
    assert refused.value.code == "over_capacity"
    with pytest.raises(IllegalMove):
        act(state, "Move", 0, path=[list(TONGA), list(OCEAN_W)], pieces={"war_canoe": 1, "colony": 1})
    _, state = act(
        state,
        "Move",
        0,
        path=[list(TONGA), list(OCEAN_W)],
        pieces={"transport": 1, "war_canoe": 1, "band": 2},
    )
    with pytest.raises(IllegalMove) as refused:
        act(state, "Move", 0, path=[list(OCEAN_W), list(OCEAN_WW)], pieces={"war_canoe": 1})
    assert refused.value.code == "not_enough_pieces"


def test_P3_4_stacks_are_face_down_to_the_others() -> None:
    state = moving(2)
    state = place(state, TONGA, 0, transport=1, band=2)
    events, state = act(
        state, "Move", 0, path=[list(TONGA), list(OCEAN_W)], pieces={"transport": 1, "band": 1}
    )
    moved = events[0]
    assert moved.audience == (0,) and moved.secret == {
        "pieces": {"transport": 1, "war_canoe": 0, "band": 1, "colony": 0, "rumor": 0},
        "aboard_war": 0,
    }
    assert "pieces" not in moved.data and moved.data["count"] == 2
    theirs = next(s for s in view(state, 1)["stacks"] if s["hex"] == list(OCEAN_W))
    mine = next(s for s in view(state, 0)["stacks"] if s["hex"] == list(OCEAN_W))
    assert theirs == {"hex": list(OCEAN_W), "seat": 0, "count": 2, "face_up_transport": False}
    assert mine["pieces"]["band"] == 1


def test_P3_4_one_transport_may_be_face_up_after_transit() -> None:
    state = moving(2)
    state = place(state, TONGA, 0, transport=1)
    events, state = act(state, "FlipTransport", 0, hex=list(TONGA))
    assert events[0].data["shown"] and state.stack(TONGA, 0).shown and not state.transit_open


def test_P3_5_rumors_move_alone_and_go_when_a_battle_reaches_them() -> None:
    state = moving(2)
    state = place(state, TONGA, 0, rumor=1)
    _, after = act(state, "Move", 0, path=[list(TONGA), list(OCEAN_W)], pieces={"rumor": 1})
    assert after.pieces(OCEAN_W, 0)["rumor"] == 1
    state = place(state, (4, 4), 0, war_canoe=1)
    state = place(state, SAMOA, 1, band=1, rumor=2)
    _, state = act(state, "Move", 0, path=[[4, 4], list(SAMOA)], pieces={"war_canoe": 1})
    _, state = act(state, "EndMovement", 0)
    _, state = act(state, "Fight", 0, hex=list(SAMOA), defender=1)
    assert state.pieces(SAMOA, 1)["rumor"] == 0


def test_P3_2_legal_moves_are_all_accepted() -> None:
    state = moving(2)
    state = place(state, TONGA, 0, transport=2, war_canoe=1, band=2, colony=1, rumor=1)
    commands = legal_commands(state, 0)
    assert any(c.type == "Move" for c in commands)
    for command in commands:
        act(state, command.type, 0, **command.args)


# P-3.3 on the way: canoes put passengers ashore and take them aboard at stops.

ISLE = OCEAN_W  # a face-up tile laid on the ocean west of Tonga: land halfway to OCEAN_WW
WAY = [list(TONGA), list(ISLE), list(OCEAN_WW)]


def _isle(state: State, **fields: Any) -> State:
    return tile(state, ISLE, "Isle", 2, **fields)


def test_P3_3_a_colony_goes_ashore_halfway_and_the_canoe_goes_on() -> None:
    state = _isle(place(moving(2), TONGA, 0, transport=1, colony=1))
    stops = [{"at": 1, "drop": {"colony": 1}}]
    events, after = act(state, "Move", 0, path=WAY, pieces={"transport": 1, "colony": 1}, stops=stops)
    assert after.pieces(ISLE, 0)["colony"] == 1 and after.stack(ISLE, 0).spent["colony"] == 1
    assert after.pieces(OCEAN_WW, 0)["transport"] == 1 and after.pieces(OCEAN_WW, 0)["colony"] == 0
    assert (TONGA, 0) not in after.stacks
    moved = events[0]
    assert moved.data["stops"] == [{"at": 1, "drop": 1, "take": 0}] and moved.data["count"] == 2
    assert moved.secret["stops"] == [{"at": 1, "drop": {"colony": 1}, "take": {}}]
    theirs = {tuple(s["hex"]): s for s in view(after, 1)["stacks"] if s["seat"] == 0}
    assert theirs[ISLE] == {"hex": list(ISLE), "seat": 0, "count": 1, "face_up_transport": False}


def test_P3_3_a_canoe_takes_a_band_aboard_halfway() -> None:
    state = _isle(place(place(moving(2), TONGA, 0, transport=1), ISLE, 0, band=1))
    stops = [{"at": 1, "take": {"band": 1}}]
    events, after = act(state, "Move", 0, path=WAY, pieces={"transport": 1}, stops=stops)
    assert after.pieces(OCEAN_WW, 0) == counts(transport=1, band=1)
    assert after.stack(OCEAN_WW, 0).spent == counts(transport=1, band=1)
    assert (ISLE, 0) not in after.stacks and events[0].data["stops"] == [{"at": 1, "drop": 0, "take": 1}]


def test_P3_3_a_band_taken_aboard_a_war_canoe_fights_where_it_ends() -> None:
    state = _isle(place(place(moving(2), TONGA, 0, war_canoe=1), ISLE, 0, band=1))
    stops = [{"at": 1, "take": {"band": 1}}]
    events, after = act(state, "Move", 0, path=WAY, pieces={"war_canoe": 1}, stops=stops)
    assert events[0].secret["aboard_war"] == 1 and after.stack(OCEAN_WW, 0).aboard_war == 1


def test_P3_3_a_passenger_put_ashore_rides_no_other_canoe_this_turn() -> None:
    state = _isle(place(moving(2), TONGA, 0, transport=2, colony=1))
    ashore = [{"at": 1, "drop": {"colony": 1}}]
    _, state = act(state, "Move", 0, path=WAY, pieces={"transport": 1, "colony": 1}, stops=ashore)
    with pytest.raises(IllegalMove) as refused:
        act(state, "Move", 0, path=WAY, pieces={"transport": 1}, stops=[{"at": 1, "take": {"colony": 1}}])
    assert (refused.value.code, refused.value.field) == ("not_enough_pieces", "stops")


def test_P3_3_refused_taking_aboard_a_piece_that_moved_already() -> None:
    state = _isle(place(moving(2), TONGA, 0, transport=2, band=1))
    _, state = act(state, "Move", 0, path=[list(TONGA), list(ISLE)], pieces={"transport": 1, "band": 1})
    with pytest.raises(IllegalMove) as refused:
        act(state, "Move", 0, path=WAY, pieces={"transport": 1}, stops=[{"at": 1, "take": {"band": 1}}])
    assert (refused.value.code, refused.value.field) == ("not_enough_pieces", "stops")


def test_P3_3_refused_taking_aboard_where_the_piece_is_not() -> None:
    state = _isle(place(place(moving(2), TONGA, 0, transport=1), OCEAN_WW, 0, band=1))
    with pytest.raises(IllegalMove) as refused:  # the band waits a hex further on
        act(state, "Move", 0, path=WAY, pieces={"transport": 1}, stops=[{"at": 1, "take": {"band": 1}}])
    assert (refused.value.code, refused.value.field) == ("not_enough_pieces", "stops")


def test_P3_3_refused_over_capacity_on_a_later_leg() -> None:
    state = _isle(place(place(moving(2), TONGA, 0, transport=1, colony=1), ISLE, 0, band=1))
    stops = [{"at": 1, "take": {"band": 1}}]
    with pytest.raises(IllegalMove) as refused:
        act(state, "Move", 0, path=WAY, pieces={"transport": 1, "colony": 1}, stops=stops)
    assert (refused.value.code, refused.value.field) == ("over_capacity", "stops")
    swap = [{"at": 1, "drop": {"colony": 1}, "take": {"band": 1}}]  # ashore first, then aboard: it fits
    _, after = act(state, "Move", 0, path=WAY, pieces={"transport": 1, "colony": 1}, stops=swap)
    assert after.pieces(OCEAN_WW, 0) == counts(transport=1, band=1) and after.pieces(ISLE, 0) == counts(
        colony=1
    )


@pytest.mark.parametrize("kind", ["transport", "war_canoe", "rumor"])
def test_P3_3_refused_putting_a_canoe_or_rumor_ashore_halfway(kind: str) -> None:
    state = _isle(place(moving(2), TONGA, 0, transport=2, war_canoe=1, rumor=1))
    pieces = {"transport": 2, "war_canoe": 1, "rumor": 1}
    for part in ("drop", "take"):
        with pytest.raises(IllegalMove) as refused:
            act(state, "Move", 0, path=WAY, pieces=pieces, stops=[{"at": 1, part: {kind: 1}}])
        assert (refused.value.code, refused.value.field) == ("stop_kind", "stops")


def test_P3_3_refused_putting_ashore_what_is_not_aboard_or_in_open_ocean() -> None:
    state = place(moving(2), TONGA, 0, transport=1, colony=1)
    pieces = {"transport": 1, "colony": 1}
    with pytest.raises(IllegalMove) as refused:
        act(_isle(state), "Move", 0, path=WAY, pieces=pieces, stops=[{"at": 1, "drop": {"band": 1}}])
    assert (refused.value.code, refused.value.field) == ("not_aboard", "stops")
    with pytest.raises(IllegalMove) as refused:  # OCEAN_W without the tile: open ocean
        act(state, "Move", 0, path=WAY, pieces=pieces, stops=[{"at": 1, "drop": {"colony": 1}}])
    assert (refused.value.code, refused.value.field) == ("no_landing", "stops")
    beside = place(state, OCEAN_W, 0, shown=True, transport=1)  # a canoe of its own waits there
    _, after = act(beside, "Move", 0, path=WAY, pieces=pieces, stops=[{"at": 1, "drop": {"colony": 1}}])
    assert after.pieces(OCEAN_W, 0) == counts(transport=1, colony=1)


def test_P3_3_refused_taking_a_conquered_group_s_last_piece_aboard() -> None:
    state = _isle(place(place(moving(2), TONGA, 0, transport=1), ISLE, 0, band=1), garrison=0)
    with pytest.raises(IllegalMove) as refused:
        act(state, "Move", 0, path=WAY, pieces={"transport": 1}, stops=[{"at": 1, "take": {"band": 1}}])
    assert (refused.value.code, refused.value.field) == ("garrison", "stops")


@pytest.mark.parametrize(
    ("stops", "code"),
    [
        ({"at": 1}, "bad_stops"),
        ([{"at": 2, "take": {"band": 1}}], "bad_stops"),  # the path's end is no stop
        ([{"at": 0, "take": {"band": 1}}], "bad_stops"),
        ([{"at": 1}], "bad_stops"),  # a stop that does nothing
        ([{"at": 1, "drop": {"band": -1}}], "bad_stops"),
        ([{"at": 1, "take": {"band": 1}, "swim": True}], "bad_stops"),
        ([{"at": 1, "take": {"band": 1}}, {"at": 1, "take": {"band": 1}}], "bad_stops"),
    ],
)
def test_P3_3_refused_malformed_stops(stops: Any, code: str) -> None:
    state = _isle(place(place(moving(2), TONGA, 0, transport=1), ISLE, 0, band=2))
    with pytest.raises(IllegalMove) as refused:
        act(state, "Move", 0, path=WAY, pieces={"transport": 1}, stops=stops)
    assert (refused.value.code, refused.value.field) == (code, "stops")


def test_P3_3_refused_stops_for_pieces_without_a_canoe() -> None:
    state = _isle(place(place(moving(2), TONGA, 0, rumor=1), ISLE, 0, band=1))
    with pytest.raises(IllegalMove) as refused:
        act(state, "Move", 0, path=WAY, pieces={"rumor": 1}, stops=[{"at": 1, "take": {"band": 1}}])
    assert (refused.value.code, refused.value.field) == ("no_canoe", "stops")


def test_P3_3_a_move_without_stops_records_the_event_as_before() -> None:
    state = place(moving(2), TONGA, 0, transport=1, band=1)
    for extra in ({}, {"stops": []}):
        events, _ = act(state, "Move", 0, path=WAY, pieces={"transport": 1, "band": 1}, **extra)
        assert set(events[0].data) == {"seat", "path", "count", "how"}
        assert set(events[0].secret) == {"pieces", "aboard_war"}


def test_P3_3_legal_moves_put_ashore_and_take_aboard_halfway_and_are_accepted() -> None:
    state = _isle(place(place(moving(2), TONGA, 0, transport=2, colony=1), ISLE, 0, band=1))
    stopping = [c for c in legal_commands(state, 0) if c.args.get("stops")]
    parts = {part for c in stopping for stop in c.args["stops"] for part in stop if part != "at"}
    assert parts == {"drop", "take"} and len(stopping) <= 4
    for command in stopping:
        act(state, command.type, 0, **command.args)


def test_P3_3_describe_tells_how_many_go_ashore_never_which() -> None:
    state = _isle(place(moving(2), TONGA, 0, transport=1, colony=1))
    stops = [{"at": 1, "drop": {"colony": 1}}]
    events, _ = act(state, "Move", 0, path=WAY, pieces={"transport": 1, "colony": 1}, stops=stops)
    said = PARADISE.describe([{"type": e.type, "data": dict(e.data)} for e in events], ["Ann", "Ben"])
    assert "(1 put ashore)" in said and "colony" not in said
