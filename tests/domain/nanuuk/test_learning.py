"""L-1..L-8: the learning game and its variants."""

from __future__ import annotations

import pytest

from domain.nanuuk.board import ice_for
from tests.domain.nanuuk.game import Game, of


def enclose(game: Game, cell: list[int]) -> None:
    """Cracks every side of `cell`: a piece there is shut in by cracks and the edge."""
    ice = game.state.rules.ice
    game.crack(*[(list(a), list(b)) for a, b in ice.d_lines((cell[0], cell[1]))])


def finish_move(game: Game) -> list:
    """Crack the first offered line (if asked): the move's end."""
    events = []
    while "PlaceCrack" in game.types() or "EndMove" in game.types():
        kind = "PlaceCrack" if "PlaceCrack" in game.types() else "EndMove"
        events += game.do(kind, **(game.offered(kind)[0]))
    return events


def test_L1_hunters_only_two_each_with_two_players_and_the_24_cells_with_three() -> None:
    two = Game("nanuuk-learning", 2)
    assert [(p.kind, p.seat) for p in two.state.pieces] == [("hunter", 0)] * 2 + [("hunter", 1)] * 2
    assert not two.state.tokens and not two.state.sheets and not two.state.rules.ice.igloos
    assert len(two.state.rules.ice.cells) == 31
    three = Game("nanuuk-learning", 3)
    assert len(three.state.rules.ice.cells) == 24 and len(three.state.pieces) == 3
    assert three.state.rules.ice.cells == ice_for("not_in_3_player_game", igloos=False).cells
    four = Game("nanuuk-learning", 4)
    four.place([0, -2])
    assert four.refused("PlacePiece", piece=1, cell=[0, -2]) == "cannot_place"  # no igloo: one a cell


def test_L2_two_players_place_one_then_two_then_the_last() -> None:
    game = Game("nanuuk-learning", 2, first=1)
    assert game.state.to_place == ((1, 2), (0, 0), (0, 1), (1, 3))
    three = Game("nanuuk-learning", 3, first=2)
    assert three.state.to_place == ((2, 2), (0, 0), (1, 1))
    three.place([1, 0])
    assert three.refused("PlacePiece", piece=0, cell=[1, 0]) == "cannot_place"  # taken


def test_L3_a_turn_is_one_move_of_one_of_one_s_hunters_with_its_crack() -> None:
    game = Game("nanuuk-learning", 2)
    game.place([1, 0], [3, -2], [-2, 0], [-3, 2])
    assert {a["piece"] for a in game.offered("Move")} == {0, 1}
    events = game.do("Move", piece=1, cell=[-2, 2])
    events += finish_move(game)
    assert [e.type for e in events][-2:] == ["MoveEnded", "TurnEnded"] and game.state.active == 1
    assert len(of(events, "CrackPlaced")) == 1


def test_L4_with_three_players_a_hunter_that_cannot_move_goes_out_and_the_last_one_wins() -> None:
    game = Game("nanuuk-learning", 3)
    game.place([1, 0], [-2, 0], [0, -2])
    enclose(game, [-2, 0])
    events = game.do("Move", piece=0, cell=[1, 1]) + finish_move(game)
    assert of(events, "PieceOut") == [{"piece": 1, "seat": 1, "reason": "cannot_move"}]
    assert game.state.active == 2
    game.do("Move", piece=2, cell=[1, -2])
    finish_move(game)
    enclose(game, [1, -2])  # Cass shut in before her next turn
    events = game.do("Move", **game.offered("Move")[0]) + finish_move(game)
    ended = of(events, "GameEnded")
    assert ended == [{"winner": 0, "winners": [0], "totals": [2, 0, 1], "reason": "last_left"}]


def test_L4_with_two_players_one_hunter_shut_in_by_cracks_loses() -> None:
    game = Game("nanuuk-learning", 2)
    game.place([1, 0], [3, -2], [-2, 0], [-3, 2])
    enclose(game, [3, -2])  # Bodil's first hunter (piece 2); her second is free
    events = game.do("Move", piece=0, cell=[1, 1]) + finish_move(game)
    assert of(events, "GameEnded") == [{"winner": 0, "winners": [0], "totals": [1, 0], "reason": "shut_in"}]


def test_L4_with_two_players_a_hunter_held_by_pieces_does_not_lose_while_the_other_moves() -> None:
    game = Game("nanuuk-learning", 2)
    game.place([-2, 0], [2, -3], [1, -2], [2, -2])  # Bodil's 2 on the corner, held by 3, 1 and a crack
    game.crack(([1, -3], [2, -3]))
    events = game.do("Move", piece=0, cell=[-1, 0]) + finish_move(game)
    assert not of(events, "GameEnded") and game.state.active == 1
    assert {a["piece"] for a in game.offered("Move")} == {3}


def test_L5_the_bear_moves_one_or_two_cells_and_cracks_once_at_the_end() -> None:
    game = Game("nanuuk-bear-hunt", 3)  # Aput plays the bear (piece 0), Bodil and Cass an Inuk each
    game.place([1, 0], [-2, 0], [0, -2])
    cracks = len(game.state.cracks)
    game.do("Move", piece=0, cell=[1, 1])
    assert len(game.state.cracks) == cracks and game.types() == {"Move", "EndMove"}
    game.do("Move", piece=0, cell=[0, 2])
    events = finish_move(game)
    assert len(of(events, "CrackPlaced")) == 1 and of(events, "CrackPlaced")[0]["cell"] == [0, 2]
    assert game.state.active == 1


@pytest.mark.parametrize("option", ["crack_each_step", "bear_must_move_twice", "bear_may_stay"])
def test_L5_sub_options_change_the_bear_s_move(option: str) -> None:
    game = Game("nanuuk-bear-hunt", 3, **{option: True})
    game.place([1, 0], [-2, 0], [0, -2])
    if option == "bear_may_stay":
        assert {"piece": 0} in game.offered("Stay")
        events = game.do("Stay", piece=0) + finish_move(game)
        assert of(events, "PieceStayed") and of(events, "CrackPlaced")[0]["cell"] == [1, 0]
        return
    assert "Stay" not in game.types()
    game.do("Move", piece=0, cell=[1, 1])
    if option == "crack_each_step":
        assert "PlaceCrack" in game.types()
        game.do("PlaceCrack", **game.offered("PlaceCrack")[0])
        assert "EndMove" in game.types()
    else:
        assert game.types() == {"Move"} and game.refused("EndMove") == "must_step"


def test_L5_the_inuit_win_together_when_the_bear_is_shut_in() -> None:
    game = Game("nanuuk-bear-hunt", 3, first=1)
    game.place([-2, 0], [0, -2], [1, 0])  # Bodil's Inuk, Cass's Inuk, Aput's bear
    game.do("Move", piece=1, cell=[-1, 0])
    finish_move(game)
    enclose(game, [1, 0])
    events = game.do("Move", piece=2, cell=[1, -2]) + finish_move(game)
    assert of(events, "GameEnded") == [
        {"winner": None, "winners": [1, 2], "totals": [0, 1, 1], "reason": "bear_shut_in"}
    ]


def test_L5_the_bear_wins_when_an_inuk_is_shut_in_and_two_players_move_one_inuk_a_turn() -> None:
    game = Game("nanuuk-bear-hunt", 2)
    assert [(p.kind, p.seat) for p in game.state.pieces] == [("bear", 0), ("inuk", 1), ("inuk", 1)]
    game.place([1, 0], [-2, 0], [0, -2])
    game.do("Move", piece=0, cell=[1, 1])
    game.do("EndMove")
    finish_move(game)
    assert {a["piece"] for a in game.offered("Move")} == {1, 2}
    game.do("Move", piece=1, cell=[-1, 0])
    finish_move(game)
    enclose(game, [0, -2])
    game.do("Move", piece=0, cell=[2, 0])
    events = finish_move(game)
    assert of(events, "GameEnded")[0]["winners"] == [0]


def test_L5_playing_on_the_inuit_hunt_each_other_once_the_bear_is_caught() -> None:
    game = Game("nanuuk-bear-hunt", 3, first=1, play_on=True)
    game.place([-2, 0], [0, -2], [1, 0])
    game.do("Move", piece=1, cell=[-1, 0])
    finish_move(game)
    enclose(game, [1, 0])
    events = game.do("Move", piece=2, cell=[1, -2]) + finish_move(game)
    assert of(events, "PieceOut") == [{"piece": 0, "seat": 0, "reason": "shut_in"}] and game.state.active == 1
    enclose(game, list(game.state.pieces[2].cell))  # type: ignore[arg-type]
    events = game.do("Move", **game.offered("Move")[0]) + finish_move(game)
    assert of(events, "GameEnded") == [
        {"winner": 1, "winners": [1], "totals": [0, 1, 0], "reason": "inuk_shut_in"}
    ]


def test_L6_each_player_moves_a_bear_then_their_own_inuk() -> None:
    game = Game("nanuuk-bear-flight", 2, bears=2)
    assert [(p.kind, p.seat) for p in game.state.pieces] == [
        ("inuk", 0),
        ("inuk", 1),
        ("bear", None),
        ("bear", None),
    ]
    game.place([1, 0], [-2, 0], [0, 2], [2, -2])
    assert {a["piece"] for a in game.offered("Move")} == {2, 3}
    game.do("Move", piece=3, cell=[2, -3])
    finish_move(game)
    assert {a["piece"] for a in game.offered("Move")} == {0} and game.state.active == 0
    game.do("Move", piece=0, cell=[1, 1])
    finish_move(game)
    assert game.state.active == 1
    enclose(game, [1, 1])
    events = game.do("Move", piece=2, cell=[-1, 2]) + finish_move(game)
    events += game.do("Move", piece=1, cell=[-1, 0]) + finish_move(game)
    assert of(events, "GameEnded") == [
        {"winner": 1, "winners": [1], "totals": [0, 1], "reason": "inuk_shut_in"}
    ]


@pytest.mark.parametrize("aim, winner", [("partner", 3), ("right", 2), ("left", 0)])
def test_L7_the_first_player_who_cannot_move_makes_the_one_aiming_at_them_win(aim: str, winner: int) -> None:
    game = Game("nanuuk-partners", 4, aim=aim)
    game.place([1, 0], [-2, 0], [0, -2], [2, 1])
    enclose(game, [-2, 0])  # Bodil (seat 1) shut in
    events = game.do("Move", piece=0, cell=[1, 1]) + finish_move(game)
    totals = [int(s == winner) for s in range(4)]
    assert of(events, "GameEnded") == [
        {"winner": winner, "winners": [winner], "totals": totals, "reason": "partner_shut_in"}
    ]


def test_L8_each_places_their_bear_then_the_other_s_inuk_and_moves_either_piece() -> None:
    game = Game("nanuuk-helper", 2)
    assert game.state.to_place == ((0, 0), (1, 2), (0, 3), (1, 1))
    game.place([1, 0], [-2, 0], [0, -2], [2, 1])
    assert {a["piece"] for a in game.offered("Move")} == {0, 1}


def test_L8_a_shut_in_inuk_does_not_lose_a_shut_in_bear_does() -> None:
    game = Game("nanuuk-helper", 2)
    game.place([1, 0], [-2, 0], [0, -2], [2, 1])  # bears 0 (Aput), 2 (Bodil); Inuit 3, 1
    enclose(game, [0, -2])  # Bodil's Inuk
    events = game.do("Move", piece=0, cell=[1, 1]) + finish_move(game)
    assert not of(events, "GameEnded") and game.state.active == 1
    enclose(game, [1, 1])  # Aput's bear
    events = game.do("Move", piece=2, cell=[-1, 0]) + finish_move(game)
    assert of(events, "GameEnded") == [
        {"winner": 1, "winners": [1], "totals": [0, 1], "reason": "bear_shut_in"}
    ]


# "Shut in" takes into account every move its owner must or may make first in that turn:
# L-6's bear move before the Inuk's, or moving the owner's other piece (L-8, 2-player L-5).

CORNER, HOLD = [-3, 1], [-2, 1]
"""A corner cell whose sides but one (to HOLD) are cracked: a piece there moves only to HOLD."""


def corner_held(game: Game) -> None:
    """Cracks every side of CORNER but the one to HOLD."""
    ice = game.state.rules.ice
    held = tuple(sorted([tuple(CORNER), tuple(HOLD)]))
    game.crack(*[(list(a), list(b)) for a, b in ice.d_lines((CORNER[0], CORNER[1])) if (a, b) != held])


def test_L6_an_inuk_held_only_by_a_bear_is_not_shut_in_when_moving_a_bear_first_frees_it() -> None:
    game = Game("nanuuk-bear-flight", 2, bears=1)
    corner_held(game)
    game.place(CORNER, [2, -1], HOLD)  # Aput's Inuk, Bodil's Inuk, the bear
    assert game.state.phase == "play" and game.state.active == 0
    assert {a["piece"] for a in game.offered("Move")} == {2}
    game.do("Move", piece=2, cell=[-1, 1])
    game.do("EndMove")
    events = finish_move(game)
    assert not of(events, "GameEnded") and {"piece": 0, "cell": HOLD} in game.offered("Move")


def test_L6_an_inuk_the_chosen_bear_move_leaves_held_stays_and_does_not_lose() -> None:
    game = Game("nanuuk-bear-flight", 2, bears=1)
    corner_held(game)
    game.place(CORNER, [2, -1], HOLD)
    game.do("Move", piece=2, cell=[-1, 1])
    events = game.do("Move", piece=2, cell=HOLD) + finish_move(game)  # back where it held the Inuk
    assert of(events, "MoveSkipped") == [{"seat": 0, "part": 1, "reason": "cannot_move"}]
    assert not of(events, "GameEnded") and game.state.active == 1


def test_L6_an_inuk_every_bear_move_would_hold_is_shut_in() -> None:
    """The bear's only ways: onto HOLD, or back to its cell, whose one free C line is the
    Inuk's last side (X-3): whatever the bear does, the Inuk cannot move."""
    game = Game("nanuuk-bear-flight", 2, bears=1)
    corner_held(game)
    bear = [-3, 2]  # beside CORNER and HOLD
    game.crack((bear, [-2, 2]), *[(HOLD, c) for c in ([-1, 1], [-1, 0], [-2, 2], [-2, 0])])
    game.place(CORNER, [2, -1], bear)
    assert of(game.events, "GameEnded") == [
        {"winner": 1, "winners": [1], "totals": [0, 1], "reason": "inuk_shut_in"}
    ]


def test_L8_a_bear_held_only_by_its_own_inuk_is_not_shut_in() -> None:
    game = Game("nanuuk-helper", 2)
    corner_held(game)
    game.place(CORNER, [2, -1], [1, -2], HOLD)  # Aput's bear, Bodil's bear, Bodil's Inuk, Aput's Inuk
    assert not of(game.events, "GameEnded") and game.state.active == 0
    assert {a["piece"] for a in game.offered("Move")} == {1}  # the Inuk moves; the bear cannot yet
    game.do("Move", piece=1, cell=[-1, 1])
    events = finish_move(game)
    assert not of(events, "GameEnded") and game.state.active == 1
    assert ((-3, 1), (-2, 1)) not in game.state.cracks and game.state.pieces[0].cell == (-3, 1)
    game.do("Move", piece=2, cell=[2, -2])
    finish_move(game)
    assert {"piece": 0, "cell": HOLD} in game.offered("Move")


def test_L8_a_bear_its_own_inuk_cannot_free_is_shut_in() -> None:
    game = Game("nanuuk-helper", 2)
    corner_held(game)
    game.crack(*[(HOLD, c) for c in ([-1, 1], [-1, 0], [-2, 2], [-2, 0])])  # the Inuk cannot move
    game.place(CORNER, [2, -1], [1, -2], HOLD)
    assert of(game.events, "GameEnded") == [
        {"winner": 1, "winners": [1], "totals": [0, 1], "reason": "bear_shut_in"}
    ]


def test_L5_with_two_players_an_inuk_held_only_by_the_other_inuk_is_not_shut_in() -> None:
    game = Game("nanuuk-bear-hunt", 2, first=1)
    corner_held(game)
    game.place(CORNER, [2, -1], HOLD)  # Bodil's first Inuk, Aput's bear, Bodil's second Inuk
    assert not of(game.events, "GameEnded") and game.state.active == 1
    assert {a["piece"] for a in game.offered("Move")} == {2}
    game.do("Move", piece=2, cell=[-1, 1])
    events = finish_move(game)
    assert not of(events, "GameEnded") and game.state.active == 0


@pytest.mark.parametrize("play_on", [False, True])
def test_L5_a_step_that_shuts_in_the_bear_and_an_inuk_wins_for_the_inuit(play_on: bool) -> None:
    """Bodil's Inuk steps between the bear and Cass's Inuk, each left with no other side: the
    mover's capture counts first. Playing on, the bear leaves and Cass, shut in, loses."""
    game = Game("nanuuk-bear-hunt", 3, first=1, play_on=play_on)
    bear, cass, between = [-3, 1], [-2, -1], [-2, 0]
    game.crack((bear, [-2, 1]), (cass, [-1, -1]))
    game.place([-1, 0], cass, bear)  # Bodil's Inuk, Cass's Inuk, Aput's bear
    events = game.do("Move", piece=1, cell=between) + finish_move(game)
    if play_on:
        assert of(events, "PieceOut") == [{"piece": 0, "seat": 0, "reason": "shut_in"}]
        assert of(events, "GameEnded") == [
            {"winner": 1, "winners": [1], "totals": [0, 1, 0], "reason": "inuk_shut_in"}
        ]
    else:
        assert of(events, "GameEnded") == [
            {"winner": None, "winners": [1, 2], "totals": [0, 1, 1], "reason": "bear_shut_in"}
        ]
