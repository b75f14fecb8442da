"""P-0 set-up, the data tables (Q-D1..Q-D6) and P-1 turn order (Q-5)."""

from __future__ import annotations

import pytest
from paradise_given import SAMOA, TONGA, act, draw, new, started

from domain.decider import IllegalMove
from domain.paradise import tables
from domain.paradise.empire import controlled, vp_halves
from domain.paradise.setup import check_options
from domain.paradise.state import ORDER, START


def test_QD1_pieces_per_player_come_from_the_data_file() -> None:
    assert tables.PIECES == {"transport": 8, "war_canoe": 6, "band": 10, "colony": 6, "rumor": 2}
    assert tables.DISCOVERY_MARKERS == 3


def test_QD2_build_chart() -> None:
    assert tables.COSTS["village"] == 2 and tables.COSTS["card"] == 2 and tables.COSTS["rumor"] == 0
    assert tables.CARDS_PER_TURN == 1


def test_QD3_targets_by_player_count() -> None:
    assert tables.TARGETS == {2: 28, 3: 25, 4: 22}
    assert tables.HALVES["linked_atoll"] == 1 and tables.HALVES["village"] == 2


def test_QD4_thirty_tiles_te_waka_maui_set_aside() -> None:
    assert len(tables.TILES) == 30
    assert [t.name for t in tables.TILES.values() if t.set_aside] == ["Te Waka Maui"]
    assert sum(t.atoll for t in tables.TILES.values()) == 7
    assert (tables.TILES["Hawaii"].green, tables.TILES["Hawaii"].brown) == (4, 1)


def test_QD5_eighty_eight_chits_one_per_unknown_hex() -> None:
    assert sum(c.count for c in tables.CHITS) == 88 == len(tables.BOARD.unknown)
    assert sum(c.count for c in tables.CHITS if c.kind == "disrupted") == 6


def test_QD6_twenty_seven_cards() -> None:
    assert len(tables.DECK) == 27 and tables.DECK.count("Pa") == 2
    assert tables.CARDS["Severe Deforestation"].penalty == 2


def test_P0_3_two_players_start_on_tonga_and_samoa_with_two_villages_and_two_bands() -> None:
    state = new(2)
    assert state.bases == (TONGA, SAMOA)
    assert state.islands[TONGA].villages == 2 and state.islands[TONGA].owner == 0
    assert state.pieces(TONGA, 0)["band"] == 2 and state.pieces(SAMOA, 1)["band"] == 2
    assert state.phase == ORDER and state.turn == 1
    assert len(state.tiles) == 29 and sum(state.chits) == 88


def test_P0_2_three_players_place_historic_tiles_and_draw_setup_chits() -> None:
    state = new(3)
    assert state.phase == START and state.due is not None
    assert set(state.due.piles) == {"ocean_0", "ocean_1", "island_0", "island_1", "island_2"}
    hiva = tables.BOARD.historic["Hiva"]
    assert state.bases[2] == hiva and state.islands[hiva].villages == 2
    flint = tables.BOARD.historic["Flint Is."]
    assert state.islands[flint].face_up and state.islands[flint].owner is None
    assert all(at in state.ocean for at in tables.BOARD.setup_ocean)
    _, state = draw(state, **{name: 0 for name in state.due.piles})
    assert sum(state.chits) == 88 - 5 == len(state.unknown)
    assert state.phase == ORDER


def test_P0_2_four_players_put_one_more_island_chit_out() -> None:
    state = new(4)
    assert state.due is not None and len(state.due.piles) == 6
    _, state = draw(state, **{name: 0 for name in state.due.piles})
    assert sum(state.chits) == len(state.unknown) == 88 - 6
    assert len(state.tiles) == sum(
        c for c, chit in zip(state.chits, tables.CHITS, strict=True) if chit.kind == "island"
    )


def test_P0_2_seat_counts_and_options_are_checked() -> None:
    with pytest.raises(IllegalMove) as refused:
        new(5)
    assert refused.value.code == "bad_seat_count"
    for bad in ({"malaria": "yes"}, {"end_shift": 4}, {"fog": True}, {"last_turn": 0}):
        with pytest.raises(IllegalMove) as refused:
            check_options(bad)
        assert refused.value.code == "bad_option"


def test_P1_1_marker_goes_to_the_last_in_vp() -> None:
    state = new(2)
    from dataclasses import replace

    from domain.paradise.order import marker_holder

    island = state.islands[TONGA]
    richer = replace(state, islands={**state.islands, TONGA: replace(island, villages=3)})
    assert vp_halves(richer, 0) > vp_halves(richer, 1)
    assert marker_holder(richer) == 1


def test_Q5_ties_for_the_marker_follow_tonga_raiatea_hiva_samoa() -> None:
    assert new(2).marker == 0  # Tonga before Samoa
    state = new(4)
    _, state = draw(state, **{name: 0 for name in state.due.piles})  # type: ignore[union-attr]
    assert state.marker == 0
    from dataclasses import replace

    from domain.paradise.order import marker_holder

    tonga = state.islands[TONGA]
    state = replace(state, islands={**state.islands, TONGA: replace(tonga, villages=3)})
    assert marker_holder(state) == 3  # Raiatea, then Hiva, then Samoa


def test_P1_2_marker_holder_names_first_seat_and_direction() -> None:
    state = new(3)
    _, state = draw(state, **{name: 0 for name in state.due.piles})  # type: ignore[union-attr]
    with pytest.raises(IllegalMove) as refused:
        act(state, "ChooseOrder", 1, first=0, clockwise=True)
    assert refused.value.code == "not_your_turn"
    events, state = act(state, "ChooseOrder", 0, first=1, clockwise=False)
    assert events[0].data["order"] == [1, 0, 2] and state.order == (1, 0, 2)
    assert state.phase == "explore" and state.expedition is not None and state.expedition.seat == 1


def test_P1_2_a_bad_first_seat_is_refused() -> None:
    state = new(2)
    for bad in (2, -1, "0", True):
        with pytest.raises(IllegalMove) as refused:
            act(state, "ChooseOrder", 0, first=bad)
        assert refused.value.code == "bad_seat"


def test_P0_3_each_player_controls_its_base_at_start() -> None:
    state = started(2)
    assert controlled(state, 0) == [TONGA] and controlled(state, 1) == [SAMOA]


def test_P0_1_the_map_known_west_unknown_east_unexplorable_east_edge() -> None:
    board = tables.BOARD
    assert (board.columns, board.rows) == (16, 10) and len(board.unknown) == 88
    assert all(col >= 14 for col, _ in board.east_ocean) and not board.east_ocean & board.unknown
    independents = [p.name for p in board.printed if not p.base]
    assert "Fiji" in independents and "Tuvalu" in independents
    state = new(2)
    assert all(at in state.ocean for at in board.east_ocean)
