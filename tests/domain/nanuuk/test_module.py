"""The Nanuuk! declarations: names, seats, options' refusals, who acts, views and words."""

from __future__ import annotations

import random

import pytest

from domain.decider import IllegalMove
from domain.games import rules_for
from domain.nanuuk.describe import CLAUSES, describe
from domain.nanuuk.module import GAMES
from domain.nanuuk.setup import initial_state
from domain.turns import CHANCE, TERMINAL, Seats
from tests.domain.nanuuk.game import LAYOUT_2, Game, setup
from tests.domain.nanuuk.test_playouts import MODES

SEAT_COUNTS = {
    "nanuuk": (2, 4),
    "nanuuk-learning": (2, 4),
    "nanuuk-bear-hunt": (2, 3),
    "nanuuk-bear-flight": (2, 2),
    "nanuuk-partners": (4, 4),
    "nanuuk-helper": (2, 2),
}


def test_every_game_is_registered_under_its_name_with_its_seats() -> None:
    assert {m.name for m in GAMES} == set(SEAT_COUNTS) == set(MODES)
    for name, (least, most) in SEAT_COUNTS.items():
        module = rules_for(name)
        assert (module.min_seats, module.max_seats) == (least, most)
        for seats in (least - 1, most + 1):
            with pytest.raises(IllegalMove) as refused:
                module.initial_state(setup(name, seats))
            assert refused.value.code == "bad_seat_count"


@pytest.mark.parametrize(
    "name, options, field, words",
    [
        ("nanuuk", {"colour": "red"}, "options.colour", "allowed: ['cracks', 'double_move_cracks'"),
        ("nanuuk", {"double_move_cracks": "twice"}, "options.double_move_cracks", "one of ['each_step'"),
        ("nanuuk", {"pre_cracks": 31}, "options.pre_cracks", "from 0 to 30"),
        ("nanuuk", {"keep_igloo_reachable": "yes"}, "options.keep_igloo_reachable", "true or false"),
        ("nanuuk-partners", {"aim": "up"}, "options.aim", "one of ['partner', 'right', 'left']"),
        ("nanuuk-bear-flight", {"bears": 4}, "options.bears", "from 1 to 3"),
        ("nanuuk-learning", {"two_hunters": True}, "options.two_hunters", "allowed: []"),
    ],
)
def test_check_options_refuses_with_the_field_and_what_is_allowed(
    name: str, options: dict[str, object], field: str, words: str
) -> None:
    with pytest.raises(IllegalMove) as refused:
        rules_for(name).check_options(options)
    assert (refused.value.code, refused.value.field) == ("bad_option", field)
    assert words in refused.value.message


@pytest.mark.parametrize(
    "name, seats, options, field",
    [
        ("nanuuk", 3, {"two_hunters": True}, "options.two_hunters"),
        ("nanuuk-bear-hunt", 2, {"play_on": True}, "options.play_on"),
        ("nanuuk-bear-hunt", 2, {"bear_seat": 2}, "options.bear_seat"),
    ],
)
def test_options_that_need_another_seat_count_are_refused_at_creation(
    name: str, seats: int, options: dict[str, object], field: str
) -> None:
    with pytest.raises(IllegalMove) as refused:
        initial_state(setup(name, seats, **options))
    assert (refused.value.code, refused.value.field) == ("bad_option", field)


@pytest.mark.parametrize(
    "name, seats, options, field",
    [
        ("nanuuk", 3, {"two_hunters": True}, "options.two_hunters"),
        ("nanuuk", 4, {"two_hunters": True}, "options.two_hunters"),
        ("nanuuk", 3, {"layout": LAYOUT_2}, "options.layout"),
        ("nanuuk-bear-hunt", 2, {"play_on": True}, "options.play_on"),
        ("nanuuk-bear-hunt", 2, {"bear_seat": 2}, "options.bear_seat"),
    ],
)
def test_N1_options_are_checked_against_the_seat_count_before_the_game_exists(
    name: str, seats: int, options: dict[str, object], field: str
) -> None:
    module = rules_for(name)
    module.check_options(options)  # alone, they read; only the seat count refuses them
    with pytest.raises(IllegalMove) as refused:
        module.check_options_for(options, seats)
    assert refused.value.code == "bad_option" and str(refused.value.field).startswith(field)


@pytest.mark.parametrize(
    "name, seats, options",
    [
        ("nanuuk", 2, {"two_hunters": True}),
        ("nanuuk", 2, {"layout": LAYOUT_2, "two_hunters": False}),
        ("nanuuk-bear-hunt", 3, {"play_on": True, "bear_seat": 2}),
        ("nanuuk-partners", 4, {"aim": "left"}),
    ],
)
def test_options_that_fit_the_seat_count_pass_the_check_and_create_the_game(
    name: str, seats: int, options: dict[str, object]
) -> None:
    rules_for(name).check_options_for(options, seats)
    assert initial_state(setup(name, seats, **options)).rules.seats == seats


def test_the_seated_check_still_refuses_what_check_options_refuses() -> None:
    with pytest.raises(IllegalMove) as refused:
        rules_for("nanuuk").check_options_for({"pre_cracks": 31}, 2)
    assert (refused.value.code, refused.value.field) == ("bad_option", "options.pre_cracks")


def test_who_acts_the_system_for_the_layout_then_a_seat_then_nobody() -> None:
    module = rules_for("nanuuk")
    game = Game("nanuuk", 2)
    assert module.to_act(game.state) is CHANCE
    request = module.pending_system(game.state)
    assert request is not None
    game.system("LayOutIce", **request.answer(random.Random(1)).args)
    assert module.to_act(game.state) == Seats((0,)) and module.pending_system(game.state) is None
    assert game.refused("LayOutIce") == "not_now"  # a seat never lays out the ice
    learning = Game("nanuuk-learning", 2, first=1)
    assert module.to_act(learning.state) == Seats((1,))  # no chance at all
    finished = Game("nanuuk", 2, first=1, layout=LAYOUT_2)
    finished.place([2, 0], [0, -2])
    finished.do("Retire", piece=1)
    finished.do("Retire", piece=0)
    assert module.to_act(finished.state) is TERMINAL and module.is_terminal(finished.state)
    assert finished.refused("Move", piece=0, cell=[1, -2]) == "game_over"


def test_commands_out_of_turn_or_malformed_are_refused_with_their_codes() -> None:
    game = Game("nanuuk", 2, layout=LAYOUT_2)
    assert game.refused("PlacePiece", seat=1, piece=1, cell=[0, -2]) == "not_your_turn"
    assert game.refused("Fly", piece=0) == "unknown_command"
    assert game.refused("PlacePiece", piece=0, cell=[0]) == "bad_command"
    assert game.refused("PlacePiece", piece="0", cell=[0, -2]) == "bad_command"
    assert game.refused("PlacePiece", piece=0, cell=[0, -2], colour=1) == "bad_command"
    assert game.refused("Move", piece=0, cell=[0, -1]) == "not_now"


def test_the_view_is_the_documented_one_and_the_same_for_every_seat() -> None:
    game = Game("nanuuk", 2, layout=LAYOUT_2)
    game.place([0, -2], [2, 0])
    module = rules_for("nanuuk")
    seen = module.view(game.state, 0)
    assert {k: v for k, v in seen.items() if k != "viewer"} == {
        k: v for k, v in module.view(game.state, None).items() if k != "viewer"
    }
    assert set(seen) == {
        "game", "phase", "active", "viewer", "to_act", "seats", "result", "options", "ice", "water",
        "igloos", "cracks", "pieces", "tokens", "sheets", "scores", "awaiting",
    }  # fmt: skip
    assert seen["pieces"][0] == {
        "piece": 0,
        "kind": "hunter",
        "seat": 0,
        "cell": [0, -2],
        "retired": False,
        "out": False,
    }
    assert seen["sheets"][1]["carried"] == {"equipment": ["harpoon"], "animals": [], "inuk": False}
    assert seen["scores"] == [2, 2] and seen["to_act"] == [0]
    assert seen["awaiting"] == {"stage": "move", "piece": None, "cell": None}
    assert (
        len(seen["ice"]) == 22
        and len(seen["water"]) == 9
        and {"cell": [-2, 0], "kind": "whale"} in seen["tokens"]
    )


def test_every_event_of_the_rules_is_put_into_words() -> None:
    game = Game("nanuuk", 2, first=1, layout=LAYOUT_2)
    game.place([2, 0], [0, -2])
    retired = game.do("Retire", piece=1)
    sentence = describe([{"type": e.type, "data": dict(e.data)} for e in retired], ["Aput", "Bodil"])
    assert sentence == "Bodil's hunter retires to the igloo"
    moved = game.do("Move", piece=0, cell=[1, -2])
    words = describe([{"type": e.type, "data": dict(e.data)} for e in moved], ["Aput", "Bodil"])
    assert words == "Aput moves piece 0 0,-2 → 1,-2"
    kinds = {"IceLaidOut", "PiecePlaced", "EquipmentUsed", "PieceMoved", "PieceStayed", "StepsEnded",
             "CrackPlaced", "InukJoined", "AnimalTaken", "AnimalLeft", "BearSent", "HarpoonReturned",
             "AnimalExchanged", "AnimalBroughtIn", "IglooVisitEnded", "HunterRetired", "MoveEnded",
             "MoveSkipped", "TurnEnded", "TurnSkipped", "PieceOut", "GameEnded"}  # fmt: skip
    assert kinds <= set(CLAUSES)
