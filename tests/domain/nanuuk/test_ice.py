"""X-1..X-4: the ice, moving on it, and where the crack of a move goes."""

from __future__ import annotations

import json
from pathlib import Path

from domain.nanuuk import board
from tests.domain.nanuuk.game import Game, line, of

CENTRE = [0, 0]
AROUND = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]]  # in turning order
STAR = [line(AROUND[i], AROUND[(i + 1) % 6]) for i in range(6)]  # X-3's C lines of the centre
SIDES = [line(CENTRE, c) for c in AROUND]  # its d lines


def learning(first: int = 0) -> Game:
    """A 2-player learning game (31 cells): Aput's hunters 0, 1, Bodil's 2, 3."""
    return Game("nanuuk-learning", 2, first)


def test_X1_lines_join_two_cells_of_ice_and_edge_sides_never_crack() -> None:
    raw = json.loads((Path(board.__file__).parent / "boards" / "nanuuk.json").read_text())
    cells = {tuple(c) for c in raw["cells"]}
    ice = board.ice_for(None, igloos=False)
    assert len(ice.lines) == 72  # 31 cells of a hexagon of radius 3 without its corners
    for a, b in ice.lines:
        assert a in cells and b in cells and b in ice.near(a)
    corner = (2, -3)  # on the edge: three of its six sides touch the sea
    assert sorted(ice.d_lines(corner)) == [((1, -3), (2, -3)), ((1, -2), (2, -3)), ((2, -3), (2, -2))]
    left_out = board.ice_for("not_in_3_player_game", igloos=False)
    assert all((0, 0) not in side for side in left_out.lines)  # water has no line


def test_X2_a_piece_steps_to_a_free_neighbour_across_no_crack() -> None:
    game = learning()
    game.place([1, 0], [3, -2], [-2, 0], [0, 2])
    game.crack(([1, 0], [1, -1]))
    steps = sorted(a["cell"] for a in game.offered("Move") if a["piece"] == 0)
    assert steps == [[0, 0], [0, 1], [1, 1], [2, -1], [2, 0]]  # not across the crack, not off the ice
    assert game.refused("Move", piece=0, cell=[1, -1]) == "cannot_move"
    assert game.refused("Move", piece=0, cell=[3, 0]) == "cannot_move"  # off the board
    assert game.refused("Move", piece=2, cell=[-1, 0]) == "cannot_move"  # not Aput's hunter


def test_X2_one_piece_a_cell_but_hunters_share_igloos() -> None:
    game = learning()
    game.place([1, 0], [3, -2], [0, 0], [0, 2])
    assert game.refused("Move", piece=0, cell=[0, 0]) == "cannot_move"
    full = Game("nanuuk", 2, layout=json.loads(json.dumps(_layout())))
    full.place([0, -2], [0, -2])  # N-3: both hunters in one igloo
    assert full.cell_of(0) == full.cell_of(1) == [0, -2]


def _layout() -> dict[str, list[list[int]]]:
    from tests.domain.nanuuk.game import LAYOUT_2

    return LAYOUT_2


def test_X3_the_crack_goes_on_a_free_C_line_of_the_mover_s_choice() -> None:
    game = learning()
    game.place([1, 0], [3, -2], [-2, 0], [-3, 2])
    game.do("Move", piece=0, cell=CENTRE)
    offered = sorted(a["crack"] for a in game.offered("PlaceCrack"))
    assert offered == sorted(STAR)
    assert (
        game.refused("PlaceCrack", crack=SIDES[0]) == "crack_not_allowed"
    )  # a d line while C lines are free
    events = game.do("PlaceCrack", crack=STAR[2])
    assert of(events, "CrackPlaced") == [
        {"seat": 0, "cell": CENTRE, "crack": STAR[2], "kind": "C", "forced": False}
    ]
    assert of(events, "TurnEnded")[0]["next"] == 1


def test_X3_only_when_every_C_line_is_cracked_a_d_line_cracks() -> None:
    game = learning()
    game.place([1, 0], [3, -2], [-2, 0], [-3, 2])
    game.crack(*[tuple(s) for s in STAR])
    game.do("Move", piece=0, cell=CENTRE)
    offered = sorted(a["crack"] for a in game.offered("PlaceCrack"))
    assert offered == sorted(SIDES)  # the line just crossed too: it is free
    game.do("PlaceCrack", crack=SIDES[3])
    assert tuple(map(tuple, SIDES[3])) in {tuple(map(tuple, line)) for line in _cracks(game)}


def test_X3_a_single_free_line_cracks_without_asking_and_none_means_no_crack() -> None:
    game = learning()
    game.place([1, 0], [3, -2], [-2, 0], [-3, 2])
    game.crack(*[tuple(s) for s in STAR[1:]])
    events = game.do("Move", piece=0, cell=CENTRE)
    assert of(events, "CrackPlaced") == [
        {"seat": 0, "cell": CENTRE, "crack": STAR[0], "kind": "C", "forced": True}
    ]
    enclosed = learning()
    enclosed.place([1, 0], [3, -2], [-2, 0], [-3, 2])
    enclosed.crack(*[tuple(s) for s in STAR], *[tuple(s) for s in SIDES[1:]])
    before = len(enclosed.state.cracks)
    events = enclosed.do("Move", piece=0, cell=CENTRE)
    assert len(enclosed.state.cracks) == before + 1  # the crossed side, the last free line
    assert of(events, "CrackPlaced")[0]["crack"] == SIDES[0]


def _cracks(game: Game) -> list[list[list[int]]]:
    return [[list(a), list(b)] for a, b in sorted(game.state.cracks)]


def test_X4_a_crack_stays_for_the_rest_of_the_game() -> None:
    game = learning()
    game.place([1, 0], [3, -2], [-2, 0], [-3, 2])
    game.do("Move", piece=0, cell=CENTRE)
    game.do("PlaceCrack", crack=STAR[0])
    for _ in range(6):
        game.do("Move", **game.offered("Move")[0])
        if game.offered("PlaceCrack"):
            game.do("PlaceCrack", **game.offered("PlaceCrack")[0])
        assert STAR[0] in _cracks(game)
        assert all(a["crack"] != STAR[0] for a in game.offered("PlaceCrack"))
