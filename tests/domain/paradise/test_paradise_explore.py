"""P-2 exploration: pre-move, discovery, tiles, voyage disrupted, knots, special situations."""

from __future__ import annotations

from dataclasses import replace

import pytest
from paradise_given import NIUE, SAMOA, TONGA, act, draw, started, types

from domain.decider import IllegalMove
from domain.paradise.explore import first_steps
from domain.paradise.state import LOST, Expedition
from domain.paradise.tables import CHITS

ISLAND_2 = next(n for n, c in enumerate(CHITS) if c.kind == "island" and c.knots == 2)
OCEAN_1 = next(n for n, c in enumerate(CHITS) if c.kind == "ocean" and c.knots == 1)
OCEAN_3 = next(n for n, c in enumerate(CHITS) if c.kind == "ocean" and c.knots == 3)
DISRUPTED = next(n for n, c in enumerate(CHITS) if c.kind == "disrupted")


def chit(state, kind: int) -> int:  # type: ignore[no-untyped-def]
    """The draw index that picks a chit of kind number `kind` from the cup."""
    return sum(state.chits[:kind])


def test_P2_1_explorer_starts_next_to_unknown_hexes_reached_through_friendly_known_hexes() -> None:
    state = started(2)
    steps = first_steps(state, 0)
    assert NIUE in steps and (5, 5) in steps and (5, 7) in steps
    assert (6, 4) not in steps and (6, 4) in first_steps(state, 1)  # only through Samoa, an enemy hex
    with pytest.raises(IllegalMove) as refused:
        act(state, "Explore", 0, hex=[10, 4])
    assert refused.value.code == "cannot_explore"


def test_P2_2_an_ocean_chit_makes_the_hex_ocean_and_adds_its_knots() -> None:
    state = started(2)
    events, state = act(state, "Explore", 0, hex=list(NIUE))
    assert types(events) == ["ExplorerEntered"] and state.due is not None and state.due.what == "chit"
    events, state = draw(state, chit=chit(state, OCEAN_3))
    assert events[0].data["kind"] == "ocean" and events[0].data["knots"] == 3
    assert NIUE in state.ocean and NIUE not in state.unknown
    assert state.expedition is not None and state.expedition.knots == 3


def test_P2_2_an_island_chit_draws_a_tile_face_down_known_only_to_its_discoverer() -> None:
    state = started(2)
    _, state = act(state, "Explore", 0, hex=list(NIUE))
    _, state = draw(state, chit=chit(state, ISLAND_2))
    assert state.due is not None and state.due.what == "tile"
    events, state = draw(state, tile=0)
    found = events[0]
    assert found.type == "TileFound" and found.audience == (0,) and "tile" not in found.data
    assert found.secret is not None and found.secret["tile"] == state.islands[NIUE].name
    assert not state.islands[NIUE].face_up and state.islands[NIUE].discoverers == (0,)
    from domain.paradise.view import view

    assert "name" in next(i for i in view(state, 0)["islands"] if i["hex"] == list(NIUE))
    assert "name" not in next(i for i in view(state, 1)["islands"] if i["hex"] == list(NIUE))
    events, state = act(state, "RevealTile", 0, hex=list(NIUE))
    assert events[0].data["tile"] == state.islands[NIUE].name and state.islands[NIUE].face_up


def test_P2_3_voyage_disrupted_the_seat_to_the_left_chooses_the_next_hex() -> None:
    state = started(2)
    _, state = act(state, "Explore", 0, hex=list(NIUE))
    _, state = draw(state, chit=chit(state, DISRUPTED))
    assert state.choice is not None and state.choice.kind == "redirect" and state.choice.seat == 1
    assert NIUE in state.unknown and tuple(NIUE) not in state.choice.options
    target = state.choice.options[0]
    with pytest.raises(IllegalMove):
        act(state, "Redirect", 0, hex=list(target))
    events, state = act(state, "Redirect", 1, hex=list(target))
    assert types(events) == ["VoyageRedirected", "ExplorerEntered"]
    assert state.expedition is not None and state.expedition.at == target and state.due is not None


def test_P2_4_five_knots_send_the_explorer_home_six_lose_it() -> None:
    state = started(2)
    _, state = act(state, "Explore", 0, hex=list(NIUE))
    _, state = draw(state, chit=chit(state, OCEAN_3))
    _, state = act(state, "Explore", 0, hex=[7, 6])
    events, state = draw(state, chit=chit(state, ISLAND_2))
    events, state = draw(state, tile=0)
    assert "ExplorerReturned" in types(events) and state.explorers[0] == "home"
    assert state.expedition is not None and state.expedition.seat == 1
    state = started(2)
    _, state = act(state, "Explore", 0, hex=list(NIUE))
    _, state = draw(state, chit=chit(state, OCEAN_3))
    _, state = act(state, "Explore", 0, hex=[7, 6])
    events, state = draw(state, chit=chit(state, OCEAN_3))
    assert "ExplorerLost" in types(events) and state.explorers[0] == LOST


def test_P2_4_a_lost_explorer_sits_out_the_next_exploration() -> None:
    state = started(2)
    state = replace(state, explorers=(LOST, "home"), expedition=None)
    from domain.paradise.engine import settle

    events: list = []
    state = settle(state, events)
    assert types(events)[:2] == ["ExplorerRecovered", "ExpeditionStarted"]
    assert state.explorers[0] == "home" and state.expedition is not None and state.expedition.seat == 1


def test_P2_5_crossing_a_known_hex_costs_two_knots() -> None:
    state = started(2)
    _, state = act(state, "Explore", 0, hex=list(NIUE))
    _, state = draw(state, chit=chit(state, OCEAN_1))
    events, state = act(state, "Explore", 0, hex=list(TONGA))
    assert events[0].data["penalty"] == 2 and state.expedition is not None and state.expedition.knots == 3
    with pytest.raises(IllegalMove) as refused:
        act(state, "EndExploration", 0)
    assert refused.value.code == "must_explore"


def test_P2_5_examining_another_s_face_down_tile_costs_two_knots_and_shows_it() -> None:
    state = started(2)
    _, state = act(state, "Explore", 0, hex=list(NIUE))
    _, state = draw(state, chit=chit(state, OCEAN_1))
    _, state = act(state, "Explore", 0, hex=[6, 5])
    _, state = draw(state, chit=chit(state, ISLAND_2))
    _, state = draw(state, tile=0)
    _, state = act(state, "EndExploration", 0)
    assert state.expedition == Expedition(1)
    events, state = act(state, "Explore", 1, hex=[6, 5])
    assert types(events) == ["ExplorerEntered", "TileExamined", "TileRevealed"]
    assert events[1].audience == (1,) and events[0].data["penalty"] == 2
    assert state.islands[(6, 5)].face_up  # every player has seen it now


def test_P2_6_resolution_leaves_ocean_and_face_down_tiles_on_the_map() -> None:
    state = started(2)
    _, state = act(state, "Explore", 0, hex=list(NIUE))
    _, state = draw(state, chit=chit(state, ISLAND_2))
    _, state = draw(state, tile=3)
    _, state = act(state, "EndExploration", 0)
    assert NIUE in state.islands and not state.islands[NIUE].face_up
    assert state.explorers[0] == "home" and sum(state.chits) == 87 and len(state.tiles) == 28
    assert SAMOA not in state.unknown


def test_QD6_navigation_ignores_the_first_voyage_disrupted() -> None:
    state = started(2)
    state = replace(state, revealed=(("Navigation",), ()))
    _, state = act(state, "Explore", 0, hex=list(NIUE))
    events, state = draw(state, chit=chit(state, DISRUPTED))
    assert events[0].data.get("ignored") and state.due is not None and state.choice is None


def test_P2_3_with_no_explorable_hex_next_to_it_the_explorer_stays_and_takes_two_knots() -> None:
    state = replace(started(2), unknown=frozenset({NIUE}))  # nothing else left to explore
    _, state = act(state, "Explore", 0, hex=list(NIUE))

    events, state = draw(state, chit=chit(state, DISRUPTED))

    assert state.choice is None and NIUE in state.unknown and sum(state.chits) == 87
    assert state.expedition is not None and state.expedition.knots == 2
    assert "ExplorerReturned" not in types(events)
    _, state = act(state, "Explore", 0, hex=list(NIUE))  # it may try the same hex again
    assert state.due is not None and state.due.what == "chit"
