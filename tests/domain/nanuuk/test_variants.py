"""V-1, V-2: the variants of Nanuuk!'s cracks."""

from __future__ import annotations

from domain.nanuuk.events import turn_ended
from tests.domain.nanuuk.game import IGLOO_N, LAYOUT_2, Game, line, of
from tests.domain.nanuuk.test_nanuuk_rules import _sled_ready


def test_V1_the_mover_chooses_one_crack_at_the_end_of_the_double_move() -> None:
    game = _sled_ready(double_move_cracks="mover_chooses")
    offered = [a for a in game.offered("Move") if a["cell"] == [0, -1]]
    assert offered == [
        {"piece": 0, "cell": [0, -1]},
        {"piece": 0, "cell": [0, -1], "sled": True, "one_crack": False},
        {"piece": 0, "cell": [0, -1], "sled": True, "one_crack": True},
    ]
    cracks = len(game.state.cracks)
    game.do("Move", piece=0, cell=[0, -1], sled=True, one_crack=True)
    game.do("LeaveAnimal")
    assert len(game.state.cracks) == cracks and "PlaceCrack" not in game.types()  # none yet
    events = game.do("Move", piece=0, cell=[-1, 0])
    events += game.do("LeaveAnimal")
    if "PlaceCrack" in game.types():
        events += game.do("PlaceCrack", **game.offered("PlaceCrack")[0])
    assert len(of(events, "CrackPlaced")) == 1 and of(events, "CrackPlaced")[0]["cell"] == [-1, 0]


def test_V1_without_the_variant_each_step_cracks_and_no_choice_is_offered() -> None:
    game = _sled_ready()
    assert {"piece": 0, "cell": [0, -1], "sled": True} in game.offered("Move")
    assert not [a for a in game.offered("Move") if "one_crack" in a]


def _cut_off(**options: object) -> Game:
    """Aput's hunter on the corner 2,-3 with one way home left (to 1,-2); Bodil's steps to 2,-2."""
    game = Game("nanuuk", 2, layout=LAYOUT_2, **options)
    game.place(IGLOO_N, IGLOO_N)
    game.put(0, [2, -3])
    game.put(1, [2, -1])
    game.crack(([2, -3], [2, -2]))
    game.fold(turn_ended(0, 1, True))  # Bodil to move
    return game


def test_V2_a_crack_may_not_cut_a_hunter_off_from_every_igloo_when_another_choice_exists() -> None:
    for protect, expected in ((False, 4), (True, 3)):
        game = _cut_off(keep_igloo_reachable=protect)
        game.do("Move", piece=1, cell=[2, -2])
        game.do("LeaveAnimal")
        offered = [a["crack"] for a in game.offered("PlaceCrack")]
        assert len(offered) == expected
        assert (line([1, -2], [2, -3]) in offered) is not protect
