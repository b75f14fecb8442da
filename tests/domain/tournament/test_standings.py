"""Points and tie-breaks, each worked out by hand (docs/tournaments.md shows the same examples).

Entrants are e1 Ada, e2 Bo, ... in registration order. Tables are placed by hand (RoundPaired
facts), so no pairing engine takes part; results go through RecordResult as the service sends them.
"""

from __future__ import annotations

import pytest
from tournament_given import Given, game_end, paired, registered, started

from domain.islands.scoring import tournament_points
from domain.tournament.points import GameEnd, places_of, shared


def play_round(game: Given, round_: int, *tables: tuple[list[str], dict[str, object]]) -> Given:
    """Round `round_` with these tables (seat order) and their games' ends."""
    game = game.plus(paired(round_, *(seats for seats, _ in tables)))
    for index, (_, end) in enumerate(tables):
        game = game.play(index, end)
    return game


# --- points of one game ----------------------------------------------------------------


def ikibiti_result(end: dict[str, object]) -> tuple[list[float], list[float]]:
    """Points and island points of e1 (seat 0) and e2 (seat 1) after one Arabana-Ikibiti game."""
    game = started(2, game="arabana-ikibiti", rounds=1)
    game = play_round(game, 1, (["e1", "e2"], end))
    result = game.state.tables[0].result
    assert result is not None
    return list(result.points), list(result.island_points)


def test_I9_tie_scores_2_2_and_no_island_points() -> None:
    assert ikibiti_result(game_end(None, 4, 4)) == ([2, 2], [0, 0])


def test_I9_simple_win_scores_3_1_and_the_score_difference() -> None:
    assert ikibiti_result(game_end(1, 3, 7)) == ([1, 3], [-4, 4])


def test_I9_premature_win_in_round_3_scores_4_0_and_12_more_island_points() -> None:
    end = game_end(0, 5, 6, reason="premature", round=3)
    assert ikibiti_result(end) == ([4, 0], [11, -11])  # 5 - 6 + 12


def test_I9_premature_win_in_round_2_scores_5_0_and_24_more_island_points() -> None:
    end = game_end(1, 2, 0, reason="premature", round=2)
    assert ikibiti_result(end) == ([0, 5], [-22, 22])  # 0 - 2 + 24


@pytest.mark.parametrize(
    ("winner", "totals", "premature"),
    [(None, [3, 3], None), (0, [9, 2], None), (1, [4, 4], 3), (0, [0, 5], 2), (1, [1, 0], 3)],
)
def test_I9_points_agree_with_the_figure_the_game_itself_gives(
    winner: int | None, totals: list[int], premature: int | None
) -> None:
    reason = "premature" if premature else None
    end = game_end(winner, *totals, reason=reason, round=premature)
    own = tournament_points(winner, totals, premature)
    assert ikibiti_result(end) == (own["points"], own["island_points"])


def kahuna_result(end: dict[str, object]) -> tuple[list[float], list[float]]:
    game = play_round(started(2, rounds=1), 1, (["e1", "e2"], end))
    result = game.state.tables[0].result
    assert result is not None
    return list(result.points), list(result.island_points)


def test_kahuna_win_scores_3_1_and_the_score_difference_as_island_points() -> None:
    assert kahuna_result(game_end(0, 9, 4)) == ([3, 1], [5, -5])


def test_kahuna_draw_scores_2_2() -> None:
    assert kahuna_result(game_end(None, 6, 6)) == ([2, 2], [0, 0])


def test_kahuna_premature_win_is_a_simple_win_with_the_plain_difference() -> None:
    # K-9's premature end: the winner may hold fewer points; no I-9 bonus in Kahuna.
    end = game_end(0, 2, 3, reason="premature", round=2)
    assert kahuna_result(end) == ([3, 1], [-1, 1])


def test_placement_winner_first_the_rest_by_score_and_ties_share_the_points() -> None:
    # Default at 4: 6/4/2/0. Seats 1 and 2 tie for second: (4 + 2) / 2 = 3 each.
    end = GameEnd(winner=0, totals=(10, 7, 7, 3), reason="points", round=None)
    assert places_of(end) == (1, 2, 2, 4)
    assert shared((6, 4, 2, 0), places_of(end)) == (6, 3, 3, 0)


def test_placement_the_games_own_tie_break_puts_its_winner_alone_first() -> None:
    # O-9: equal scores, the winner finished its final turn first.
    end = GameEnd(winner=1, totals=(5, 5, 2), reason="points", round=None)
    assert places_of(end) == (2, 1, 3)
    assert shared((6, 3, 0), places_of(end)) == (3, 6, 0)


def test_placement_points_and_island_points_at_an_opodopo_table() -> None:
    game = started(4, game="arabana-opodopo", format="tables", rounds=1)
    game = play_round(game, 1, (["e3", "e1", "e4", "e2"], game_end(0, 12, 9, 9, 4)))
    lines = {line.entrant: (line.points, line.island_points) for line in game.standings}
    assert lines == {"e3": (6, 12), "e1": (3, 9), "e4": (3, 9), "e2": (0, 4)}
    assert game.ranking == ["e3", "e1", "e4", "e2"]  # e1 and e4 tie on all: the lot (e1 first)


def test_placement_points_are_the_organizers_when_set() -> None:
    game = started(3, game="arabana-opodopo", format="tables", rounds=1, placement_points={"3": [5, 2, 1]})
    game = play_round(game, 1, (["e1", "e2", "e3"], game_end(2, 3, 3, 8)))
    assert [game.line(e).points for e in ("e1", "e2", "e3")] == [1.5, 1.5, 5]


# --- tie-breaks, in order --------------------------------------------------------------


def test_points_come_first_then_island_points() -> None:
    """Round 1: Ada beats Bo 5:2, Cy and Di draw 4:4. Round 2: Cy beats Ada 6:3, Bo beats Di 7:1.
    Cy 2+3 = 5. Ada 3+1 = 4 with +3-3 = 0, Bo 1+3 = 4 with -3+6 = +3: Bo above Ada. Di 2+1 = 3."""
    game = play_round(started(4), 1, (["e1", "e2"], game_end(0, 5, 2)), (["e3", "e4"], game_end(None, 4, 4)))
    game = play_round(game, 2, (["e1", "e3"], game_end(1, 3, 6)), (["e2", "e4"], game_end(0, 7, 1)))
    assert [(line.entrant, line.points, line.island_points) for line in game.standings] == [
        ("e3", 5, 3),
        ("e2", 4, 3),
        ("e1", 4, 0),
        ("e4", 3, -6),
    ]


def test_buchholz_breaks_a_tie_on_points_and_island_points() -> None:
    """Ada beats Cy 4:2, Bo beats Di 4:2; then Cy beats Di 5:3. Ada and Bo: 3 points, +2 each.
    Ada met Cy (1 + 3 = 4 points), Bo met Di (1 + 1 = 2): Buchholz 4 against 2. Bo drew the
    better lot, so the lot alone would have put Bo first."""
    game = started(4, lots=[1, 0, 2, 3])
    game = play_round(game, 1, (["e1", "e3"], game_end(0, 4, 2)), (["e2", "e4"], game_end(0, 4, 2)))
    game = play_round(game, 2, (["e3", "e4"], game_end(0, 5, 3)))
    ada, bo = game.line("e1"), game.line("e2")
    assert (ada.points, ada.island_points, ada.buchholz) == (3, 2, 4)
    assert (bo.points, bo.island_points, bo.buchholz) == (3, 2, 2)
    assert bo.lot is not None and ada.lot is not None and bo.lot < ada.lot
    assert game.ranking == ["e3", "e1", "e2", "e4"]


def test_sonneborn_berger_breaks_a_tie_on_buchholz() -> None:
    """Ada beats Cy and loses to Di; Bo beats Di and loses to Cy; then Cy beats Di. Every game 4:2.
    Ada and Bo: 4 points, island 0, Buchholz Cy 7 + Di 5 = 12 each. Sonneborn-Berger: Ada beat
    Cy (7), Bo beat Di (5)."""
    game = started(4, lots=[1, 0, 2, 3])
    game = play_round(game, 1, (["e1", "e3"], game_end(0, 4, 2)), (["e2", "e4"], game_end(0, 4, 2)))
    game = play_round(game, 2, (["e1", "e4"], game_end(1, 2, 4)), (["e2", "e3"], game_end(1, 2, 4)))
    game = play_round(game, 3, (["e3", "e4"], game_end(0, 4, 2)))
    ada, bo = game.line("e1"), game.line("e2")
    assert (ada.points, ada.island_points, ada.buchholz, ada.sonneborn_berger) == (4, 0, 12, 7)
    assert (bo.points, bo.island_points, bo.buchholz, bo.sonneborn_berger) == (4, 0, 12, 5)
    assert game.ranking == ["e3", "e4", "e1", "e2"]


def test_direct_encounter_breaks_a_tie_on_sonneborn_berger() -> None:
    """Round 1: Ada beats Bo, Ed beats Cy, Di beats Flo. Round 2: Cy beats Ada, Bo beats Di.
    Every game 4:2. Ada and Bo: 4 points, island 0, Buchholz 8, Sonneborn-Berger 4 (Ada beat
    Bo's 4, Bo beat Di's 4). Ada beat Bo: Ada first, though Bo drew the better lot. Cy has
    4 points too but Buchholz 7 (Ada 4, Ed 3); Di Buchholz 5 (Bo 4, Flo 1)."""
    game = started(6, lots=[1, 0, 2, 3, 4, 5])
    game = play_round(
        game,
        1,
        (["e1", "e2"], game_end(0, 4, 2)),
        (["e5", "e3"], game_end(0, 4, 2)),
        (["e4", "e6"], game_end(0, 4, 2)),
    )
    game = play_round(game, 2, (["e3", "e1"], game_end(0, 4, 2)), (["e2", "e4"], game_end(0, 4, 2)))
    figures = [
        (line.entrant, line.points, line.island_points, line.buchholz, line.sonneborn_berger)
        for line in game.standings
    ]
    assert figures == [
        ("e1", 4, 0, 8, 4),
        ("e2", 4, 0, 8, 4),
        ("e3", 4, 0, 7, 4),
        ("e4", 4, 0, 5, 1),
        ("e5", 3, 2, 4, 4),
        ("e6", 1, -2, 4, 0),
    ]
    assert (game.line("e1").direct_encounter, game.line("e2").direct_encounter) == (1, 0)


def test_the_lot_breaks_a_tie_on_everything_else() -> None:
    """Ada beats Bo, Bo beats Cy, Cy beats Ada, all 4:2: 4 points, island 0, Buchholz 8,
    Sonneborn-Berger 4 and one direct win each. The lots drawn Cy, Bo, Ada decide."""
    game = started(3, lots=[2, 1, 0])
    game = play_round(game, 1, (["e1", "e2"], game_end(0, 4, 2)))
    game = play_round(game, 2, (["e2", "e3"], game_end(0, 4, 2)))
    game = play_round(game, 3, (["e3", "e1"], game_end(0, 4, 2)))
    assert {
        (line.points, line.island_points, line.buchholz, line.sonneborn_berger) for line in game.standings
    } == {(4, 0, 8, 4)}
    assert {line.direct_encounter for line in game.standings} == {1}
    assert game.ranking == ["e3", "e2", "e1"]


def test_a_bye_adds_points_but_no_opponent_to_buchholz() -> None:
    game = started(3, rounds=2)
    game = game.plus(paired(1, ["e1", "e2"])).then("GiveBye", entrant="e3")
    assert game.line("e3").points == 3
    game = game.play(0, game_end(0, 4, 2))
    assert (game.line("e3").buchholz, game.line("e1").buchholz) == (0, 1)


def test_an_entrant_who_withdrew_before_the_start_is_not_listed_one_who_played_stays_marked() -> None:
    game = registered(5).then("WithdrawEntrant", entrant="e5").then("StartTournament").draw_lots()
    game = play_round(game, 1, (["e1", "e2"], game_end(0, 4, 2)), (["e3", "e4"], game_end(0, 4, 2)))
    game = game.then("WithdrawEntrant", entrant="e1")
    assert game.ranking == ["e1", "e3", "e2", "e4"]
    assert [line.withdrawn for line in game.standings] == [True, False, False, False]
