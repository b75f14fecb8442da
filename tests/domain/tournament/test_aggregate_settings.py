"""Creating a tournament: the settings it keeps and the ones it refuses, each with a stable code."""

from __future__ import annotations

from typing import Any

import pytest

from domain.decider import IllegalMove
from domain.tournament import module as tournament


def refusal(**request: Any) -> str:
    with pytest.raises(IllegalMove) as refused:
        tournament.created(request)
    return refused.value.code


def test_created_keeps_the_settings_with_their_defaults() -> None:
    data = tournament.created({"game": "arabana-ikibiti", "format": "swiss", "rounds": 5}).data
    assert data == {
        "name": "",
        "game": "arabana-ikibiti",
        "options": {},
        "format": "swiss",
        "rounds": 5,
        "double": False,
        "rated": True,
        "move_time_limit": None,
        "late_entry": False,
        "placement_points": {},
        "scoring": "i9",
        "table_sizes": [2],
        "pairing_numbers": "lots",
    }


def test_kahuna_scores_win_and_draw_and_opodopo_tables_score_by_placement() -> None:
    kahuna = tournament.created({"game": "kahuna", "format": "round_robin", "double": True}).data
    assert (kahuna["scoring"], kahuna["rounds"], kahuna["double"]) == ("win_draw", None, True)
    opodopo = tournament.created({"game": "arabana-opodopo", "format": "tables", "rounds": 4}).data
    assert opodopo["scoring"] == "placement"
    assert opodopo["table_sizes"] == [4, 3]
    assert opodopo["placement_points"] == {"4": [6, 4, 2, 0], "3": [6, 3, 0]}


def test_placement_points_set_by_the_organizer_replace_the_default_of_that_size() -> None:
    request = {
        "game": "arabana-opodopo",
        "format": "tables",
        "rounds": 4,
        "placement_points": {"4": [5, 3, 1, 0]},
    }
    assert tournament.created(request).data["placement_points"] == {"4": [5, 3, 1, 0], "3": [6, 3, 0]}


def test_the_game_and_its_options_are_checked_by_the_game_registry() -> None:
    assert refusal(game="chess", format="swiss", rounds=3) == "unknown_game"
    assert refusal(game="kahuna", format="swiss", rounds=3, options={"edition": "x"}) == "bad_option"
    assert refusal(game="kahuna", format="swiss", rounds=3, options=[1]) == "bad_options"


def test_N1_options_are_checked_for_every_table_size_the_format_plays() -> None:
    two_hunters = {"two_hunters": True}
    assert refusal(game="nanuuk", format="tables", rounds=2, options=two_hunters) == "bad_option"
    assert (
        refusal(game="nanuuk-bear-hunt", format="swiss", rounds=2, options={"play_on": True}) == "bad_option"
    )
    swiss = tournament.created({"game": "nanuuk", "format": "swiss", "rounds": 2, "options": two_hunters})
    assert swiss.data["options"] == two_hunters and swiss.data["table_sizes"] == [2]
    threes = tournament.created(
        {"game": "nanuuk-bear-hunt", "format": "tables", "rounds": 2, "options": {"play_on": True}}
    )
    assert threes.data["table_sizes"] == [3]


def test_an_option_refused_at_a_table_size_names_the_option_and_the_size() -> None:
    with pytest.raises(IllegalMove) as refused:
        tournament.created(
            {"game": "nanuuk", "format": "tables", "rounds": 2, "options": {"two_hunters": True}}
        )
    assert refused.value.field == "options.two_hunters"
    assert "tables of 4 seats" in refused.value.message


def test_the_format_must_fit_the_game() -> None:
    assert refusal(game="kahuna", format="knockout", rounds=3) == "bad_format"
    assert refusal(game="arabana-opodopo", format="swiss", rounds=3) == "format_not_for_game"
    assert refusal(game="kahuna", format="tables", rounds=3) == "format_not_for_game"


@pytest.mark.parametrize(
    ("request_", "code"),
    [
        ({"format": "swiss"}, "bad_rounds"),
        ({"format": "swiss", "rounds": 0}, "bad_rounds"),
        ({"format": "swiss", "rounds": True}, "bad_rounds"),
        ({"format": "round_robin", "rounds": 3}, "bad_rounds"),
        ({"format": "round_robin", "late_entry": True}, "late_entry_not_for_round_robin"),
        ({"format": "swiss", "rounds": 3, "double": True}, "bad_double"),
        ({"format": "swiss", "rounds": 3, "rated": "yes"}, "bad_flag"),
        ({"format": "swiss", "rounds": 3, "move_time_limit": 0}, "bad_time_limit"),
        ({"format": "swiss", "rounds": 3, "move_time_limit": "60"}, "bad_time_limit"),
        ({"format": "swiss", "rounds": 3, "move_time_limit": 2.5}, "bad_time_limit"),
        ({"format": "swiss", "rounds": 3, "placement_points": {"2": [3, 1]}}, "bad_placement_points"),
        ({"format": "swiss", "rounds": 3, "colour": "white"}, "unknown_setting"),
        ({"format": "swiss", "rounds": 3, "name": 7}, "bad_name"),
    ],
)
def test_bad_settings_are_refused_with_their_code(request_: dict[str, Any], code: str) -> None:
    assert refusal(game="kahuna", **request_) == code


@pytest.mark.parametrize(
    "points",
    [
        {"4": [6, 4, 2]},
        {"4": [0, 2, 4, 6]},
        {"4": [6, 4, 2, -1]},
        {"5": [5, 4, 3, 2, 1]},
        {"4": [6, 4, 2, 0.5]},
        [6],
    ],
)
def test_placement_points_are_one_whole_number_per_place_never_rising(points: Any) -> None:
    request = {"game": "arabana-opodopo", "format": "tables", "rounds": 3, "placement_points": points}
    assert refusal(**request) == "bad_placement_points"
