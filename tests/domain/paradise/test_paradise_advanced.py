"""Q-A4 the South Island and Q-A5 Kumara."""

from __future__ import annotations

from dataclasses import replace

import pytest
from paradise_given import TONGA, act, declined, die, moving, place, started, tile, types

from domain.decider import Event, IllegalMove
from domain.paradise.advanced import kumara_result
from domain.paradise.empire import vp_halves
from domain.paradise.engine import settle
from domain.paradise.legal import legal_commands
from domain.paradise.state import Expedition, State, total

AOTEAROA = (8, 7)
KUMARA_HEX = (13, 5)


def test_QA4_revealing_aotearoa_places_te_waka_maui_south_of_it() -> None:
    state = started(2, south_island=True)
    state = tile(state, AOTEAROA, "Aotearoa", 4, brown=1, face_up=False, discoverers=(0,))
    events, state = act(state, "RevealTile", 0, hex=list(AOTEAROA))
    assert types(events) == ["TileRevealed", "SouthIslandPlaced"]
    south = state.islands[(8, 8)]
    assert south.name == "Te Waka Maui" and south.face_up and (8, 8) not in state.unknown


def test_QA4_without_the_option_or_with_a_face_up_tile_below_it_stays_out() -> None:
    state = started(2)
    state = tile(state, AOTEAROA, "Aotearoa", 4, brown=1, face_up=False, discoverers=(0,))
    events, _ = act(state, "RevealTile", 0, hex=list(AOTEAROA))
    assert types(events) == ["TileRevealed"]
    state = started(2, south_island=True)
    state = tile(state, (8, 8), "Rurutu", 1)
    state = tile(state, AOTEAROA, "Aotearoa", 4, brown=1, face_up=False, discoverers=(0,))
    events, state = act(state, "RevealTile", 0, hex=list(AOTEAROA))
    assert events[-1].data["hex"] is None and state.islands[(8, 8)].name == "Rurutu"


def test_QA4_bands_wade_between_aotearoa_and_te_waka_maui() -> None:
    state = moving(2, south_island=True)
    state = tile(state, AOTEAROA, "Aotearoa", 4, brown=1)
    state = tile(state, (8, 8), "Te Waka Maui", 3, brown=1)
    state = place(state, AOTEAROA, 0, band=1)
    _, after = act(state, "Move", 0, path=[list(AOTEAROA), [8, 8]], pieces={"band": 1})
    assert after.pieces((8, 8), 0)["band"] == 1


def kumara_ready() -> State:
    """Turn 1, seat 0 to explore, the sea known from Tonga to the 'to South America' hex."""
    state = started(2, kumara=True)
    path = [(col, row) for col in range(6, 14) for row in (5, 6)]
    state = replace(state, unknown=state.unknown - set(path), ocean=state.ocean | set(path))
    return state


def test_QA5_the_kumara_table() -> None:
    assert [kumara_result(r, False) for r in range(1, 8)] == [
        "lost",
        "return",
        "return",
        "disrupted",
        "explore",
        "explore",
        "explore",
    ]
    assert kumara_result(1, True) == "return"  # Ocean Chart


def test_QA5_an_explorer_reaches_south_america_for_kumara_and_two_vp() -> None:
    state = kumara_ready()
    with pytest.raises(IllegalMove):
        act(started(2), "SeekKumara", 0, hex=list(KUMARA_HEX))
    _, state = act(state, "SeekKumara", 0, hex=list(KUMARA_HEX))
    assert state.due is not None and state.due.what == "kumara"
    _, state = die(state, 5)
    assert state.choice is not None and state.choice.kind == "kumara"
    _, state = act(state, "KumaraStep", 0, hex=[14, 5])
    _, state = die(state, 6)
    _, state = act(state, "KumaraStep", 0, hex=[15, 4])
    _, state = die(state, 5)
    assert "south_america" in state.choice.options  # type: ignore[union-attr]
    before = vp_halves(state, 0)
    events, state = act(state, "ReachSouthAmerica", 0)
    assert types(events)[:2] == ["KumaraFound", "ExplorerReturned"]
    assert state.kumara[0] and vp_halves(state, 0) == before + 4


def test_QA5_galapagos_adds_one_to_later_rolls() -> None:
    state = kumara_ready()
    _, state = act(state, "SeekKumara", 0, hex=list(KUMARA_HEX))
    _, state = die(state, 5)
    _, state = act(state, "KumaraStep", 0, hex=[14, 5])
    _, state = die(state, 5)
    _, state = act(state, "KumaraStep", 0, hex=[14, 4])
    _, state = die(state, 5)
    _, state = act(state, "KumaraStep", 0, hex=[14, 3])
    assert state.galapagos[0]
    events, state = die(state, 3)
    assert events[0].data["roll"] == 4 and events[0].data["result"] == "disrupted"


def test_QA5_lost_on_a_one() -> None:
    state = kumara_ready()
    _, state = act(state, "SeekKumara", 0, hex=list(KUMARA_HEX))
    events, state = die(state, 1)
    assert "ExplorerLost" in types(events) and state.explorers[0] == "lost"
    assert state.expedition == Expedition(1)
    assert TONGA in state.islands and settle(state, []) == state


def test_QA4_a_beaten_force_wades_back_to_the_other_new_zealand_tile() -> None:
    from domain.paradise.combat import start_battle
    from domain.paradise.engine import evolve

    state = moving(2, south_island=True)
    state = tile(state, AOTEAROA, "Aotearoa", 4, brown=1, owner=1, villages=1)
    state = tile(state, (8, 8), "Te Waka Maui", 3, brown=1, owner=1, villages=1)
    state = place(state, AOTEAROA, 1, band=2, colony=1)
    state = place(state, (7, 7), 0, war_canoe=3)
    _, state = act(state, "Move", 0, path=[[7, 7], list(AOTEAROA)], pieces={"war_canoe": 3})
    for event in start_battle(state, AOTEAROA, 0, 1):
        state = evolve(state, event)
    _, state = declined(state)
    for _ in range(3):  # the two bands and the local warrior are removed
        if state.choice is not None:
            _, state = act(state, "Lose", 1, piece=state.choice.options[0])
        _, state = die(state, 6)
    assert dict(state.pieces((8, 8), 1)) == {
        "transport": 0,
        "war_canoe": 0,
        "band": 0,
        "colony": 1,
        "rumor": 0,
    }


RURUTU = (9, 7)
"""Next to Aotearoa, as near as Te Waka Maui."""


def beaten_on_aotearoa(enemy_on_rurutu: bool = False, **defenders: int) -> tuple[list[Event], State]:
    """Seat 1 holds Aotearoa, Te Waka Maui and Rurutu; seat 0 beats its force on Aotearoa, every
    defender panicking (all survive), and the battle's events with the state after them."""
    from domain.paradise.combat import start_battle
    from domain.paradise.engine import evolve

    state = moving(2, south_island=True)
    state = tile(state, AOTEAROA, "Aotearoa", 4, brown=1, owner=1, villages=1)
    state = tile(state, (8, 8), "Te Waka Maui", 3, brown=1, owner=1, villages=1)
    state = tile(state, RURUTU, "Rurutu", 1, owner=1, villages=1)
    state = place(state, AOTEAROA, 1, **defenders)
    if enemy_on_rurutu:
        state = place(state, RURUTU, 0, band=1)
    state = place(state, (7, 7), 0, war_canoe=3)
    _, state = act(state, "Move", 0, path=[[7, 7], list(AOTEAROA)], pieces={"war_canoe": 3})
    seen = start_battle(state, AOTEAROA, 0, 1)
    for event in seen:
        state = evolve(state, event)
    more, state = declined(state)
    seen += more
    while state.battle is not None and state.battle.winner is None:
        if state.choice is not None and state.choice.kind == "casualty":
            events, state = act(state, "Lose", 1, piece=state.choice.options[0])
        else:
            events, state = die(state, 4)  # a defender's fighter panics
        seen += events
    return seen, state


def test_P3_7_nearest_groups_at_one_distance_are_the_loser_s_choice_each_with_what_it_takes() -> None:
    events, state = beaten_on_aotearoa(transport=1, band=2, colony=1)
    required = next(e for e in events if e.type == "RetreatRequired").data
    assert required["options"] == [[8, 8], list(RURUTU)]
    wading = {"transport": 1, "war_canoe": 0, "band": 2, "colony": 1, "rumor": 0}
    sailing = {"transport": 1, "war_canoe": 0, "band": 1, "colony": 0, "rumor": 0}
    assert required["takes"] == [wading, sailing]
    # what the options carry is no more than the battle showed every seat
    shown = next(e for e in events if e.type == "BattleStarted").data["pieces"][1]
    assert all(take[k] <= shown[k] for take in required["takes"] for k in take)
    assert state.choice is not None and state.choice.kind == "retreat" and state.choice.seat == 1
    assert {tuple(c.args["hex"]) for c in legal_commands(state, 1)} == {(8, 8), RURUTU}

    events, state = act(state, "Retreat", 1, hex=list(RURUTU))

    assert next(e for e in events if e.type == "Retreated").data["pieces"] == sailing
    assert dict(state.pieces(RURUTU, 1)) == sailing  # the band and colony no canoe carries are removed
    assert total(state.pieces((8, 8), 1)) == 0 and total(state.pieces(AOTEAROA, 1)) == 0


def test_QA4_a_loser_choosing_the_other_new_zealand_tile_wades_there_whole() -> None:
    _, state = beaten_on_aotearoa(transport=1, band=2, colony=1)

    events, state = act(state, "Retreat", 1, hex=[8, 8])

    wading = {"transport": 1, "war_canoe": 0, "band": 2, "colony": 1, "rumor": 0}
    assert next(e for e in events if e.type == "Retreated").data["pieces"] == wading
    assert dict(state.pieces((8, 8), 1)) == wading and total(state.pieces(RURUTU, 1)) == 0


def test_QA4_a_retreat_offered_before_options_carried_their_counts_takes_the_canoes_load() -> None:
    from domain.paradise.combat import retreat_required

    _, state = beaten_on_aotearoa(transport=1, band=2, colony=1)
    load = {"transport": 1, "war_canoe": 0, "band": 1, "colony": 0, "rumor": 0}
    old = {"hex": list(AOTEAROA), "seat": 1, "pieces": load, "options": [[8, 8], list(RURUTU)]}
    state = retreat_required(state, old, None)

    events, _ = act(state, "Retreat", 1, hex=[8, 8])

    assert next(e for e in events if e.type == "Retreated").data["pieces"] == load


def test_P3_7_a_retreat_never_goes_to_a_group_holding_enemy_fighters() -> None:
    events, state = beaten_on_aotearoa(enemy_on_rurutu=True, transport=1, band=2, colony=1)

    retreated = next(e for e in events if e.type == "Retreated").data
    assert "RetreatRequired" not in types(events) and retreated["to"] == [8, 8]
    assert total(state.pieces(RURUTU, 1)) == 0 and state.pieces((8, 8), 1)["band"] == 2
