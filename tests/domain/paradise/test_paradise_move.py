"""P-3.1..P-3.5 movement: transit, canoe moves, capacity, face-down stacks, rumors."""

from __future__ import annotations

import pytest
from paradise_given import FIJI, SAMOA, TONGA, act, moving, place

from domain.core import IllegalMove
from domain.paradise.legal import legal_commands
from domain.paradise.view import view

OCEAN_W = (4, 6)  # known ocean west of Tonga
OCEAN_WW = (3, 6)


def test_P3_1_transit_runs_along_a_chain_of_face_up_transports() -> None:
    state = moving(2)
    state = place(state, TONGA, 0, shown=True, transport=1, band=2)
    state = place(state, OCEAN_W, 0, shown=True, transport=1)
    state = place(state, OCEAN_WW, 0, shown=True, transport=1)
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
