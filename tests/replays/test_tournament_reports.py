"""Reports of a small Swiss worked out by hand (replays.tournament_reports).

The Swiss of tournament_play.hand_swiss, scored 3:1 for a win, 2:2 for a draw, island points
the difference of the final scores, a bye 3 points:

    Ada  3 (+4, beat Cy 7-3)  + 3 (+4, beat Di 6-2)  = 6, island 8, Buchholz Cy 4 + Di 3 = 7
    Ed   3 (bye)              + 3 (+8, beat Bo 9-1)  = 6, island 8, Buchholz Bo 3
    Cy   1 (-4)               + 3 (bye)              = 4, island -4, Buchholz Ada 6
    Di   2 (draw with Bo)     + 1 (-4)               = 3, island -4, Buchholz Bo 3 + Ada 6 = 9
    Bo   2 (draw with Di)     + 1 (-8)               = 3, island -8, Buchholz Di 3 + Ed 6 = 9

Sonneborn-Berger: Ada 4 + 3 = 7, Ed 3, Cy 0, Di and Bo 1/2 x 3 = 1.5. Ada is ahead of Ed on
Buchholz, Di ahead of Bo on island points.
"""

from __future__ import annotations

import csv
import io
import random

import pytest

from domain.actor import SYSTEM
from replays.tournament_reports import crosstable, crosstable_csv, pairings, pairings_csv, standings_csv
from replays.tournament_trf import start_numbers, trf
from replays.trf import read_trf, score_mismatches
from tests.replays.tournament_play import NAMES, created, hand_swiss


@pytest.fixture(scope="module")
def view() -> dict:
    return hand_swiss().view


def csv_of(*rows: str) -> str:
    return "".join(row + "\r\n" for row in rows)


def test_standings_csv_lists_every_tie_break_in_order(view: dict) -> None:
    assert standings_csv(view) == csv_of(
        "rank,entrant,name,points,island_points,buchholz,sonneborn_berger,direct_encounter,games,byes,withdrawn",
        "1,e1,Ada,6,8,8,8,0,2,0,",
        "2,e2,Bo,5,0,3,1.5,0,1,1,",
        "3,e3,Cy,4,4,9,3,0,2,0,",
        "4,e5,Ed,4,-4,6,0,0,1,1,",
        "5,e4,Di,3,-8,9,2.5,0,2,0,",
    )


def test_crosstable_csv_has_a_column_per_opponent_by_rank(view: dict) -> None:
    assert crosstable_csv(view) == csv_of(
        "rank,entrant,name,1,2,3,4,5,points",
        "1,e1,Ada,,,1,1,,6",
        "2,e2,Bo,,,,,½,5",
        "3,e3,Cy,0,,,,1,4",
        "4,e5,Ed,0,,,,,4",
        "5,e4,Di,,½,0,,,3",
    )


def test_crosstable_names_each_meeting_with_its_round_and_game(view: dict) -> None:
    table = crosstable(view)
    assert [e["name"] for e in table["entrants"]] == ["Ada", "Bo", "Cy", "Ed", "Di"]
    assert table["cells"]["e1"]["e5"] == [{"round": 2, "outcome": 1.0, "how": "played", "game_id": "g2-0"}]
    assert table["cells"]["e2"]["e4"] == [{"round": 1, "outcome": 0.5, "how": "played", "game_id": "g1-1"}]
    assert "e4" not in table["cells"]["e1"]
    assert [e["byes"] for e in table["entrants"]] == [[], [2], [], [1], []]


def test_crosstable_writes_a_forfeit_as_the_trf_does_not_as_a_played_game() -> None:
    tournament = created("kahuna", NAMES[:4], rounds=1)
    tournament.run("PairRound")
    first, second = tournament.state.round_tables(1)
    tournament.run("AssignGame", table=first.index, game_id="g1-0")
    tournament.run("ForfeitSeat", game_id="g1-0", seat=1, reason="no_show")
    tournament.run("AssignGame", table=second.index, game_id="g1-1")
    end = {"winner": 1, "totals": [2, 6], "reason": "points"}
    tournament.run("RecordResult", SYSTEM, game_id="g1-1", result=end, final_hash="1" * 64)
    table = crosstable(tournament.view)
    winner, loser = first.seats
    assert [m["how"] for m in table["cells"][winner][loser]] == ["forfeit"]
    rows = {row[1]: row for row in csv.reader(io.StringIO(crosstable_csv(tournament.view)))}
    columns = {e: str(n) for n, e in enumerate((e["entrant"] for e in table["entrants"]), start=1)}
    head = rows["entrant"]

    def cell(entrant: str, opponent: str) -> str:
        return rows[entrant][head.index(columns[opponent])]

    assert (cell(winner, loser), cell(loser, winner)) == ("+", "-")
    played_first, played_second = second.seats
    assert (cell(played_first, played_second), cell(played_second, played_first)) == ("0", "1")


def test_crosstable_of_a_table_with_a_forfeit_marks_only_the_forfeiting_seat() -> None:
    tournament = created("arabana-opodopo", NAMES[:4], fmt="tables")
    tournament.run("PairRound")
    (table,) = tournament.state.round_tables(1)
    tournament.run("AssignGame", table=table.index, game_id="g1-0")
    tournament.run("ForfeitSeat", game_id="g1-0", seat=2, reason="no_show")
    rows = crosstable_csv(tournament.view).splitlines()
    forfeiting = table.seats[2]
    marks = {line.split(",")[1]: [c for c in line.split(",")[3:-1] if c] for line in rows[1:]}
    assert marks[forfeiting] == ["-", "-", "-"]
    assert all(sorted(m) == ["+", "½", "½"] for e, m in marks.items() if e != forfeiting)


def test_pairings_list_each_rounds_tables_results_and_byes(view: dict) -> None:
    rounds = pairings(view)
    assert [[[s["name"] for s in t["seats"]] for t in r["tables"]] for r in rounds] == [
        [["Ada", "Cy"], ["Di", "Bo"]],
        [["Ed", "Ada"], ["Cy", "Di"]],
    ]
    assert [[b["name"] for b in r["byes"]] for r in rounds] == [["Ed"], ["Bo"]]
    assert rounds[1]["tables"][0]["result"]["points"] == [1, 3]
    assert pairings_csv(view) == csv_of(
        "round,table,game_id,entrants,points,how",
        "1,1,g1-0,Ada - Cy,3-1,played",
        "1,2,g1-1,Di - Bo,2-2,played",
        "1,bye,,Ed,3,pairing",
        "2,1,g2-0,Ed - Ada,1-3,played",
        "2,2,g2-1,Cy - Di,3-1,played",
        "2,bye,,Bo,3,pairing",
    )


def test_trf_numbers_entrants_by_their_lots_and_declares_rounds_and_points(view: dict) -> None:
    # columns: 001, start number 5-8, name 15-47, points 81-84, rank 86-89, rounds from 92
    def player(number: int, name: str, points: str, rank: int, rounds: str) -> str:
        line = f"001 {number:>4}" + " " * 6 + f"{name:<33}" + " " * 33 + f"{points:>4} {rank:>4}  {rounds}"
        assert line[14:47].strip() == name and line[80:84].strip() == points and line[91:95] == rounds[:4]
        return line

    assert trf(view) == "\n".join(
        [
            "012 Island Open",
            "062 5",
            "XXR 2",
            "XXC white1",
            "XXS WW=3 BW=3 FW=3 WD=2 BD=2 WL=1 BL=1 FL=0 PAB=3 FPB=3 HPB=2 ZPB=0",
            "BBW  3.0",
            "BBD  2.0",
            "BBL  1.0",
            "BBZ  0.0",
            "BBF  0.0",
            "BBU  3.0",
            player(1, "Ada", "6.0", 1, "0003 w 1  0005 b 1"),
            player(2, "Bo", "5.0", 2, "0004 b =  0000 - U"),
            player(3, "Cy", "4.0", 3, "0001 b 0  0004 w 1"),
            player(4, "Di", "3.0", 5, "0002 w =  0003 b 0"),
            player(5, "Ed", "4.0", 4, "0000 - U  0001 w 0"),
            "",
        ]
    )


def test_trf_start_numbers_are_the_pairing_numbers() -> None:
    tournament = created("kahuna", NAMES[:4], rounds=1)
    view = {**tournament.view, "pairing_order": ["e3", "e1", "e4", "e2"]}
    numbers = {
        line[14:47].strip(): int(line[4:8]) for line in trf(view).splitlines() if line.startswith("001")
    }
    assert numbers == {"Cy": 1, "Ada": 2, "Di": 3, "Bo": 4}


def test_trf_reads_back_with_the_same_pairings_and_scores(view: dict) -> None:
    read = read_trf(trf(view))
    numbers = start_numbers(view)
    called = {e["id"]: e["name"] for e in view["entrants"]}
    by_number = {p.number: p for p in read.players}
    for table in view["tables"]:
        first, second = (numbers[e] for e in table["seats"])
        game = by_number[first].games[table["round"] - 1]
        assert (game.opponent, game.colour) == (second, "w")
        assert by_number[second].games[table["round"] - 1].opponent == first
    for bye in view["byes"]:
        assert by_number[numbers[bye["entrant"]]].games[bye["round"] - 1].result == "U"
    for line in view["standings"]:
        player = by_number[numbers[line["entrant"]]]
        assert (player.name, player.points, player.rank) == (
            called[line["entrant"]],
            line["points"],
            line["rank"] + 1,
        )
    assert read.rounds == 2 and score_mismatches(read) == []


def test_an_i9_tournament_maps_its_results_to_one_half_and_nought() -> None:
    tournament = created("ikibiti", NAMES[:4], rounds=1)
    tournament.play_round(random.Random(3))
    text = trf(tournament.view)
    assert not any(line[:3] in ("XXS", "BBW") for line in text.splitlines())
    read = read_trf(text)
    assert score_mismatches(read) == []
    assert sorted(p.points for p in read.players) in ([0, 0, 1, 1], [0, 0.5, 0.5, 1], [0.5] * 4)


def test_trf_marks_a_forfeit_and_a_round_not_played() -> None:
    tournament = created("kahuna", NAMES[:4], rounds=2, late_entry=True)
    tournament.play_round(random.Random(2))
    tournament.run("RegisterEntrant", name="Late")
    tournament.draw_lots()
    tournament.run("PairRound")
    tournament.run("AssignGame", table=0, game_id="g2-0")
    table = tournament.state.table_of_game("g2-0")
    assert table is not None
    tournament.run("ForfeitSeat", game_id="g2-0", seat=1, reason="no_show")
    for other in tournament.state.round_tables(2)[1:]:
        tournament.run("AssignGame", table=other.index, game_id=f"g2-{other.index}")
        tournament.run("ForfeitSeat", game_id=f"g2-{other.index}", seat=0, reason="no_show")
    lines = {
        line[14:47].strip(): line for line in trf(tournament.view).splitlines() if line.startswith("001")
    }
    first, second = (tournament.state.entrant(e) for e in table.seats)
    assert first is not None and second is not None
    assert lines[first.name][106:] == "w +" and lines[second.name][106:] == "b -"
    assert lines["Late"][91:99] == "0000 - Z"


def test_trf_refuses_a_tournament_at_tables() -> None:
    view = {**hand_swiss().view, "format": "tables"}
    with pytest.raises(ValueError, match="two players"):
        trf(view)
