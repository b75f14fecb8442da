"""N-1, N-3..N-11: Nanuuk! itself, played on LAYOUT_2 (tests/domain/nanuuk/game.py)."""

from __future__ import annotations

from collections import Counter

from domain.decider import Event
from domain.nanuuk import events as ev
from tests.domain.nanuuk.game import IGLOO_E, IGLOO_N, IGLOO_W, LAYOUT_2, Game, line, of, settle, solo

HOME = [line(IGLOO_N, [1, -2]), line(IGLOO_N, [0, -1]), line(IGLOO_N, [-1, -1])]
"""The lines around the north igloo, kept free in walks that come back to it."""


def step(game: Game, cell: list[int], take: bool = False, keep: list[list[list[int]]] = HOME) -> list[Event]:
    """Aput's hunter steps to `cell`, takes its animal or not, and cracks away from `keep`."""
    events = game.do("Move", piece=0, cell=cell)
    if take:
        events += game.do("TakeAnimal")
    return events + settle(game, keep)


def test_N1_material_and_ice_by_player_count() -> None:
    expected = {2: (22, 2, 3, 4, 4, 3, 3), 3: (24, 2, 4, 4, 4, 3, 4), 4: (31, 3, 6, 6, 6, 3, 4)}
    for seats, (cells, bears, fish, seals, walrus, whales, inuit) in expected.items():
        game = Game("nanuuk", seats)
        game.system("LayOutIce", cells=list(range(cells - 3)))
        view_tokens = Counter(game.state.tokens.values())
        assert len(game.state.rules.ice.cells) == cells
        assert sum(p.kind == "bear" for p in game.state.pieces) == bears
        assert view_tokens == {"fish": fish, "seal": seals, "walrus": walrus, "whale": whales, "inuk": inuit}
        assert sum(p.kind == "hunter" for p in game.state.pieces) == seats


def test_N1_each_hunter_starts_with_the_harpoon_and_the_rest_in_the_igloo() -> None:
    game = Game("nanuuk", 2, layout=LAYOUT_2)
    assert [(set(s.carried), set(s.igloo), s.inuk, s.animals) for s in game.state.sheets] == [
        ({"harpoon"}, {"husky", "sled", "kayak"}, False, frozenset())
    ] * 2


def test_N1_two_hunters_each_play_the_4_player_material_and_board() -> None:
    game = Game("nanuuk", 2, two_hunters=True)
    game.system("LayOutIce", cells=list(range(28)))
    assert len(game.state.rules.ice.cells) == 31
    assert [p.seat for p in game.state.pieces if p.kind == "hunter"] == [0, 0, 1, 1]
    assert sum(p.kind == "bear" for p in game.state.pieces) == 3 and len(game.state.sheets) == 4


def test_N3_hunters_start_on_igloos_of_their_choice_in_turn() -> None:
    game = Game("nanuuk", 2, first=1, layout=LAYOUT_2)
    assert game.state.active == 1
    assert sorted(a["cell"] for a in game.offered("PlacePiece")) == sorted([IGLOO_N, IGLOO_E, IGLOO_W])
    assert game.refused("PlacePiece", piece=1, cell=[1, -2]) == "cannot_place"
    game.place(IGLOO_N, IGLOO_N)
    assert game.state.phase == "play" and game.state.active == 1


def test_N3_with_two_hunters_a_player_s_two_start_in_different_igloos() -> None:
    game = Game("nanuuk", 2, two_hunters=True)
    game.system("LayOutIce", cells=list(range(28)))
    game.place(IGLOO_N, IGLOO_N)  # Aput's first, Bodil's first
    assert game.state.to_place[0] == (0, 1)
    assert IGLOO_N not in [a["cell"] for a in game.offered("PlacePiece")]


def test_N4_a_hunter_that_cannot_move_stays_and_nothing_cracks() -> None:
    game = solo()
    cell = [0, -1]  # the seal's cell, by the north igloo: every line around it cracked but one
    sides = [[1, -1], [1, -2], [-1, -1], [-1, 0]]
    corners = [([1, -1], [1, -2]), ([1, -2], IGLOO_N), (IGLOO_N, [-1, -1]), ([-1, -1], [-1, 0])]
    game.crack(*[(cell, side) for side in sides], *corners)
    events = game.do("Move", piece=0, cell=[0, -1])  # the seal's cell: only the crossed side is free
    events += game.do("LeaveAnimal")
    assert of(events, "CrackPlaced")[0]["crack"] == line(IGLOO_N, [0, -1])
    skipped = of(events, "TurnSkipped")
    assert [s["seat"] for s in skipped] == [1, 0] and skipped[1]["reason"] == "cannot_move"
    assert of(events, "GameEnded") and len(of(events, "CrackPlaced")) == 1


def test_N5_an_inuk_joins_and_an_animal_may_be_taken_or_left() -> None:
    game = solo(IGLOO_E)
    events = step(game, [2, -1], take=True)  # fish
    assert of(events, "AnimalTaken") == [{"piece": 0, "seat": 0, "cell": [2, -1], "animal": "fish"}]
    events = step(game, [3, -2])  # an Inuk: it joins by itself
    assert of(events, "InukJoined") and game.state.sheets[0].inuk and (3, -2) not in game.state.tokens
    events = step(game, [2, -2])  # walrus, left there
    assert of(events, "AnimalLeft") and game.state.tokens[(2, -2)] == "walrus"


def test_N5_a_whale_only_with_an_inuk_and_one_animal_of_a_kind() -> None:
    game = solo(IGLOO_E)
    step(game, [2, -1], take=True)
    step(game, [2, -2])
    game.do("Move", piece=0, cell=[2, -3])
    assert "TakeAnimal" not in game.types()  # a whale, and no Inuk along
    settle(game)
    inuk = solo(IGLOO_E)
    step(inuk, [2, -1], take=True)
    step(inuk, [3, -2])
    step(inuk, [2, -2])
    inuk.do("Move", piece=0, cell=[2, -3])
    assert "TakeAnimal" in inuk.types()
    inuk.do("TakeAnimal")
    settle(inuk)
    inuk.do("Move", piece=0, cell=[1, -2])  # a second fish: none taken, none offered
    assert "TakeAnimal" not in inuk.types()


def test_N6_a_bear_cannot_be_chased_while_the_ice_is_full() -> None:
    game = solo(IGLOO_W)
    assert [-1, 2] not in [a["cell"] for a in game.offered("Move")]  # the bear's cell
    assert game.refused("Move", piece=0, cell=[-1, 2]) == "cannot_move"


def test_N6_the_chased_bear_goes_to_a_free_cell_and_the_harpoon_home() -> None:
    game = solo()
    step(game, [0, -1], take=True)  # seal taken: the cell will be free once left
    assert [a for a in game.offered("Move") if a["cell"] == [1, -1]] == [
        {"piece": 0, "cell": [1, -1], "bear": [0, -1]}
    ]
    assert game.refused("Move", piece=0, cell=[1, -1]) == "cannot_move"  # where does the bear go?
    assert game.refused("Move", piece=0, cell=[1, -1], bear=[1, -2]) == "cannot_move"  # a fish there
    events = game.do("Move", piece=0, cell=[1, -1], bear=[0, -1])
    assert of(events, "BearSent") == [{"piece": 0, "seat": 0, "bear": 2, "from": [1, -1], "to": [0, -1]}]
    assert game.cell_of(2) == [0, -1] and game.cell_of(0) == [1, -1]
    sheet = game.state.sheets[0]
    assert "harpoon" not in sheet.carried and "harpoon" in sheet.igloo
    settle(game)
    game.do("Move", piece=0, cell=[1, -2])  # a fish, and no harpoon
    assert "TakeAnimal" not in game.types()
    assert game.refused("TakeAnimal") == "not_now"
    settle(game)
    events = game.do("Move", piece=0, cell=IGLOO_N)
    assert of(events, "HarpoonReturned") and "harpoon" in game.state.sheets[0].carried


def test_N6_a_cell_holding_only_an_inuk_is_no_free_cell_for_a_chased_bear() -> None:
    """The rulings list "no hunter, animal or igloo"; an Inuk is a piece on the ice too."""
    game = solo()
    step(game, [0, -1], take=True)  # the seal's cell, free once left
    inuit = [c for c, kind in game.state.tokens.items() if kind == "inuk"]
    assert len(inuit) == 3 and not [p for p in game.state.pieces if p.cell in inuit]
    chased_to = [a["bear"] for a in game.offered("Move") if "bear" in a]
    assert chased_to == [[0, -1]]
    for q, r in inuit:
        assert game.refused("Move", piece=0, cell=[1, -1], bear=[q, r]) == "cannot_move"


def test_N6_without_the_harpoon_no_bear_s_cell_may_be_entered() -> None:
    game = solo()
    step(game, [0, -1], take=True)
    game.do("Move", piece=0, cell=[1, -1], bear=[0, -1])
    settle(game)
    game.do("Move", piece=0, cell=[1, -2])
    settle(game)
    assert not [a for a in game.offered("Move") if a["cell"] == [0, -1]]  # the bear, and no harpoon


def test_N7_animals_buy_the_equipment_the_hunter_lacks_or_are_brought_in() -> None:
    game = solo(IGLOO_E)
    step(game, [2, -1], take=True)
    step(game, [3, -2])
    step(game, [2, -2], take=True)
    step(game, [2, -3], take=True)
    step(game, [1, -2])
    game.do("Move", piece=0, cell=IGLOO_N)
    offered = {(c, a["animal"]) for c in ("Exchange", "BringIn") for a in game.offered(c)}
    assert offered == {(k, a) for k in ("Exchange", "BringIn") for a in ("fish", "walrus", "whale")}
    events = game.do("Exchange", animal="whale")  # the whale buys all three; its Inuk goes in
    assert of(events, "AnimalExchanged") == [
        {"piece": 0, "seat": 0, "animal": "whale", "equipment": ["husky", "sled", "kayak"], "inuk": True}
    ]
    assert game.refused("Exchange", animal="fish") == "cannot_exchange"  # the husky is carried
    game.do("BringIn", animal="fish")
    sheet = game.state.sheets[0]
    assert sheet.carried == {"harpoon", "husky", "sled", "kayak"} and not sheet.inuk and sheet.inuit == 1
    assert dict(sheet.brought) == {"whale": 1, "fish": 1} and sheet.animals == {"walrus"}


def test_N8_a_carried_kayak_crosses_one_crack_and_goes_home() -> None:
    game = solo()
    step(game, [0, -1], take=True)
    game.do("Move", piece=0, cell=IGLOO_N)
    game.do("Exchange", animal="seal")
    settle(game, HOME)
    game.crack((IGLOO_N, [1, -2]))
    assert {"piece": 0, "cell": [1, -2], "kayak": True} in game.offered("Move")
    assert game.refused("Move", piece=0, cell=[1, -2]) == "cannot_move"  # across a crack: say kayak
    events = game.do("Move", piece=0, cell=[1, -2], kayak=True)
    assert of(events, "EquipmentUsed") == [{"piece": 0, "seat": 0, "items": ["kayak"]}]
    assert "kayak" in game.state.sheets[0].igloo


def _sled_ready(**options: object) -> Game:
    """Aput's hunter back in the north igloo with husky and sled bought (fish, walrus)."""
    game = solo(**options)
    step(game, [1, -2], take=True)
    game.do("Move", piece=0, cell=IGLOO_N)
    game.do("Exchange", animal="fish")
    settle(game, HOME)
    step(game, [-1, -1], take=True)
    game.do("Move", piece=0, cell=IGLOO_N)
    game.do("Exchange", animal="walrus")
    settle(game, HOME)
    assert {"husky", "sled"} <= game.state.sheets[0].carried
    return game


def test_N9_husky_and_sled_give_a_double_move_cracking_at_each_step() -> None:
    game = _sled_ready()
    events = game.do("Move", piece=0, cell=[0, -1], sled=True)
    assert of(events, "EquipmentUsed")[0]["items"] == ["husky", "sled"]
    game.do("LeaveAnimal")
    game.do("PlaceCrack", **game.offered("PlaceCrack")[0])
    assert game.state.turn.more == 1 and game.state.active == 0
    assert "EndMove" in game.types()
    events = game.do("Move", piece=0, cell=[-1, 0])
    events += game.do("LeaveAnimal")
    if "PlaceCrack" in game.types():
        events += game.do("PlaceCrack", **game.offered("PlaceCrack")[0])
    assert of(events, "CrackPlaced") and of(events, "TurnEnded")


def test_N9_an_igloo_reached_on_the_first_step_re_equips_for_the_second() -> None:
    game = _sled_ready()
    step(game, [0, -1], take=True)  # a seal, to buy a kayak on the way
    game.crack((IGLOO_N, [1, -2]))
    game.do("Move", piece=0, cell=IGLOO_N, sled=True)
    game.do("Exchange", animal="seal")
    settle_crack = game.offered("PlaceCrack")
    if settle_crack:
        game.do("PlaceCrack", **next(a for a in settle_crack if a["crack"] != line(IGLOO_N, [-1, -1])))
    events = game.do("Move", piece=0, cell=[1, -2], kayak=True)
    assert of(events, "PieceMoved")[0]["kayak"] and of(events, "EquipmentUsed")[0]["items"] == ["kayak"]


def test_N10_a_hunter_in_an_igloo_may_retire_and_the_game_ends_after_a_round_without_moves() -> None:
    game = Game("nanuuk", 2, first=1, layout=LAYOUT_2)
    game.place(IGLOO_E, IGLOO_N)
    events = game.do("Retire", piece=1)
    assert of(events, "HunterRetired") and not of(events, "GameEnded")
    step(game, [1, -2])
    assert game.state.phase == "play"  # a move this round
    game.do("Move", piece=0, cell=IGLOO_N)
    settle(game)
    events = game.do("Retire", piece=0)
    ended = of(events, "GameEnded")
    assert ended and ended[0]["reason"] == "no_move_for_a_round"


def test_N11_animals_count_carried_or_home_plus_two_in_an_igloo_and_ties_go_to_equipment() -> None:
    game = solo()
    step(game, [1, -2], take=True)
    game.do("Move", piece=0, cell=IGLOO_N)
    game.do("Exchange", animal="fish")  # 1 point, and a husky carried
    settle(game)
    game.fold(ev.animal_brought_in(1, 1, "fish", False))  # Bodil: 1 point too, harpoon only
    events = game.do("Retire", piece=0)
    assert of(events, "GameEnded") == [
        {
            "winner": 0,
            "winners": [0],
            "totals": [3, 3],
            "reason": "no_move_for_a_round",
            "points": [3, 3],
            "equipment": [2, 1],
        }
    ]


def test_N4_a_blocked_hunter_in_an_igloo_stays_and_is_never_made_to_retire() -> None:
    """Aput's hunter in the north igloo: two exits cracked, the third held by Bodil's hunter.
    It stays (its turn is skipped, nothing cracks) and may still move once the way is open."""
    game = Game("nanuuk", 2, first=1, layout=LAYOUT_2)
    game.place(IGLOO_E, IGLOO_N)  # Bodil's hunter (piece 1), then Aput's (piece 0)
    game.crack((IGLOO_N, [1, -2]), (IGLOO_N, [-1, -1]))
    game.put(1, [-1, 0])
    events = game.do("Move", piece=1, cell=[0, -1])  # onto the north igloo's last open exit
    events += game.do("LeaveAnimal")
    cracks = len(game.state.cracks)
    events += game.do("PlaceCrack", **game.offered("PlaceCrack")[0])
    assert of(events, "TurnSkipped") == [{"seat": 0, "next": 1, "reason": "cannot_move"}]
    assert len(game.state.cracks) == cracks + 1  # Bodil's crack only: none for the hunter that stays
    assert game.state.active == 1 and not game.state.pieces[0].retired
    assert game.state.phase == "play" and not of(events, "HunterRetired")
    game.do("Move", piece=1, cell=[-1, 0])  # Bodil steps off the exit
    settle_bodil = [a for a in game.offered("PlaceCrack") if line(IGLOO_N, [0, -1]) != a["crack"]]
    while game.state.active == 1:
        if "LeaveAnimal" in game.types():
            game.do("LeaveAnimal")
        else:
            game.do("PlaceCrack", **(settle_bodil or game.offered("PlaceCrack"))[0])
    assert game.types() == {"Move", "Retire"} and {"piece": 0, "cell": [0, -1]} in game.offered("Move")


def test_N10_with_two_hunters_each_two_retirements_do_not_end_the_game_while_hunters_can_move() -> None:
    game = Game("nanuuk", 2, two_hunters=True)
    game.system("LayOutIce", cells=list(range(28)))
    game.place(IGLOO_N, IGLOO_N, IGLOO_E, IGLOO_E)  # Aput's 0 and 1, Bodil's 2 and 3
    events = game.do("Retire", piece=0) + game.do("Retire", piece=2)
    assert not of(events, "GameEnded")
    assert game.state.active == 0 and {a["piece"] for a in game.offered("Move")} == {1}
    events = game.do("Retire", piece=1)
    assert not of(events, "GameEnded") and {a["piece"] for a in game.offered("Move")} == {3}
    events = game.do("Retire", piece=3)  # now no hunter is left to move: a whole round passed
    ended = of(events, "GameEnded")
    assert ended and ended[0]["reason"] == "no_move_for_a_round"
    assert all(p.retired for p in game.state.pieces if p.kind == "hunter")


def test_N4_a_game_stored_waiting_for_a_blocked_hunter_to_retire_goes_on() -> None:
    """Folded from the events the former N-4 wrote (Aput asked to move, blocked in the north
    igloo): nothing is stuck, Retire is still offered there and the game plays on."""
    game = Game("nanuuk", 2, first=1, layout=LAYOUT_2)
    game.place(IGLOO_E, IGLOO_N)
    game.crack((IGLOO_N, [1, -2]), (IGLOO_N, [-1, -1]))
    game.fold(ev.piece_moved(1, 1, (2, 0), (0, -1), False, False, False))
    game.fold(ev.turn_ended(1, 0, True))
    assert game.state.active == 0 and game.types() == {"Retire"}
    events = game.do("Retire", piece=0)
    assert game.state.phase == "play" and game.state.active == 1 and of(events, "HunterRetired")
