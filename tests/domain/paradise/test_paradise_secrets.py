"""P-0.4 the turn's phases, P-5.2 control, Q-2 hidden information and Q-3 chance as data."""

from __future__ import annotations

from dataclasses import replace

from paradise_given import NIUE, TONGA, act, building, draw, new, started, tile, types

from domain.paradise.empire import controller, vp_halves
from domain.paradise.module import PARADISE, learners
from domain.paradise.state import INDEPENDENT
from domain.paradise.tables import CHITS
from domain.turns import CHANCE, Draw, Seats
from domain.undo import Record


def test_P0_4_a_turn_runs_order_exploration_movement_construction_victory() -> None:
    state = new(2)
    phases = [state.phase]
    for command in (("ChooseOrder", 0, {"first": 1}), ("EndExploration", 1, {}), ("EndExploration", 0, {})):
        _, state = act(state, command[0], command[1], **command[2])
        phases.append(state.phase)
    for seat in (1, 0):
        assert PARADISE.to_act(state) == Seats((seat,))
        _, state = act(state, "EndMovement", seat)
    phases.append(state.phase)
    for seat in (0, 1):
        events, state = act(state, "EndBuild", seat)
    assert types(events)[-2:] == ["PhaseStarted", "TurnStarted"]
    assert phases == ["order", "explore", "explore", "move", "build"]
    assert state.turn == 2 and state.phase == "order"


def test_P5_2_a_group_is_controlled_by_whoever_has_a_village_there() -> None:
    state = started(2)
    assert controller(state.islands[TONGA]) == 0
    state = tile(state, NIUE, "Niue", 2)
    assert controller(state.islands[NIUE]) is None
    state = tile(state, NIUE, "Niue", 2, owner=1, villages=1)
    assert controller(state.islands[NIUE]) == 1
    assert controller(state.islands[(4, 5)]) == INDEPENDENT


def test_Q2_a_face_down_tile_and_a_drawn_card_teach_only_their_audience() -> None:
    record = Record(7, "TileFound", {"seat": 0}, "system", "c", {"tile": "Hawaii"}, (0,))
    assert learners(record, 3) == {0}
    moved = Record(8, "PiecesMoved", {"seat": 1}, "seat:1", "d", {"pieces": {}}, (1,))
    assert learners(moved, 3) == set()  # one's own stack teaches nothing
    revealed = Record(9, "BattleStarted", {}, "seat:0", "e")
    assert learners(revealed, 3) == {0, 1, 2}


def test_Q2_the_spectator_sees_counts_only() -> None:
    state = started(2)
    shown = PARADISE.view(state, None)
    assert all("pieces" not in stack for stack in shown["stacks"])
    assert all(player["cards"] is None for player in shown["players"]) and shown["draft"] is None


def test_Q3_every_chit_and_die_comes_from_the_system_as_its_own_event() -> None:
    state = started(2)
    _, state = act(state, "Explore", 0, hex=list(NIUE))
    assert PARADISE.to_act(state) is CHANCE
    request = PARADISE.pending_system(state)
    assert isinstance(request, Draw) and request.piles == {"chit": 88}
    events, after = draw(state, chit=0)
    assert [e.type for e in events][:1] == ["ChitDrawn"] and events[0].data["chit"] == 0
    again, _ = draw(state, chit=0)
    assert [dict(e.data) for e in again] == [dict(e.data) for e in events]  # the draw is data: replays agree
    import random

    command = request.answer(random.Random(1))
    assert command.seat is None and 0 <= command.args["draws"]["chit"] < 88


def test_Q2_describe_puts_events_in_words_without_their_secrets() -> None:
    state = started(2)
    _, state = act(state, "Explore", 0, hex=list(NIUE))
    island = next(n for n, c in enumerate(CHITS) if c.kind == "island")
    _, state = draw(state, chit=sum(state.chits[:island]))
    events, state = draw(state, tile=0)
    said = PARADISE.describe([{"type": e.type, "data": dict(e.data)} for e in events], ["Ann", "Ben"])
    assert said.startswith("Ann finds a face-down island tile") and state.islands[NIUE].name not in said


def test_Q2_vp_leave_out_face_down_cards_in_play_and_count_them_as_the_result_after_the_end() -> None:
    state = building(2, last_turn=1)
    state = replace(state, hands=(("Tattoo",), ()))  # a face-down card worth 1 VP
    public = vp_halves(state, 0) / 2
    for viewer in (None, 0, 1):
        shown = PARADISE.view(state, viewer)["players"]
        assert shown[0]["vp"] == public, viewer
        assert shown[0]["cards"] == (["Tattoo"] if viewer == 0 else None)

    for seat in (0, 1):
        _, state = act(state, "EndBuild", seat)

    assert state.result is not None and state.result["vp"][0] == public + 1
    for viewer in (None, 0, 1):
        shown = PARADISE.view(state, viewer)["players"]
        assert [p["vp"] for p in shown] == state.result["vp"], viewer
        assert [p["cards"] for p in shown] == state.result["cards"], viewer
