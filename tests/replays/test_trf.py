"""The TRF-16 writer: a small Swiss tournament written out by hand, column by column."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from replays.trf import PointSystem, TrfGame, TrfPlayer, TrfTournament, read_trf, score_mismatches, write_trf

# Five players, two rounds. Round 1: 1-4 1:0, 5-2 0:1, 3 has the bye.
# Round 2: 2-1 0:1, 3-5 draw, 4 has the bye.
PLAYERS = (
    TrfPlayer(
        1,
        "Ngata, Ana",
        2.0,
        1,
        (TrfGame(4, "w", "1"), TrfGame(2, "b", "1")),
        sex="w",
        rating=1850,
        federation="NZL",
        fide_id="12345678",
        birth=date(1990, 4, 1),
    ),
    TrfPlayer(2, "Rua, Ben", 1.0, 3, (TrfGame(5, "b", "1"), TrfGame(1, "w", "0")), sex="m", title="FM"),
    TrfPlayer(3, "Tane, Cy", 1.5, 2, (TrfGame(None, "-", "U"), TrfGame(5, "w", "="))),
    TrfPlayer(4, "Wiri, Dee", 1.0, 3, (TrfGame(1, "b", "0"), TrfGame(None, "-", "U"))),
    TrfPlayer(5, "Hemi, Eli", 0.5, 5, (TrfGame(2, "w", "0"), TrfGame(3, "b", "="))),
)
TOURNAMENT = TrfTournament(
    name="Kahuna Open",
    players=PLAYERS,
    city="Wellington",
    federation="NZL",
    start=date(2026, 3, 7),
    end=date(2026, 3, 8),
    arbiter="Moana Kerei",
    round_dates=(date(2026, 3, 7), date(2026, 3, 8)),
)

# Each line is written in two pieces: columns 1-89, then the rounds from column 90 (round 1
# at 92-99, round 2 at 102-109). Column ruler of the first piece (1-based):
#             1         2         3         4         5         6         7         8
#    12345678901234567890123456789012345678901234567890123456789012345678901234567890123456789
EXPECTED = (
    "012 Kahuna Open\n"
    "022 Wellington\n"
    "032 NZL\n"
    "042 2026/03/07\n"
    "052 2026/03/08\n"
    "062 5\n"
    "102 Moana Kerei\n"
    "132                                                                                      "
    "  26/03/07  26/03/08\n"
    "001    1 w    Ngata, Ana                        1850 NZL    12345678 1990/04/01  2.0    1"
    "  0004 w 1  0002 b 1\n"
    "001    2 m FM Rua, Ben                                                           1.0    3"
    "  0005 b 1  0001 w 0\n"
    "001    3      Tane, Cy                                                           1.5    2"
    "  0000 - U  0005 w =\n"
    "001    4      Wiri, Dee                                                          1.0    3"
    "  0001 b 0  0000 - U\n"
    "001    5      Hemi, Eli                                                          0.5    5"
    "  0002 w 0  0003 b =\n"
)


def test_write_trf_gives_the_hand_written_report_of_a_small_swiss() -> None:
    assert write_trf(TOURNAMENT) == EXPECTED


def _columns(line: str, first: int, last: int) -> str:
    """The text of 1-based columns first..last, as the TRF-16 spec numbers them."""
    return line[first - 1 : last]


def test_player_line_fields_sit_in_the_trf16_columns() -> None:
    line = write_trf(TOURNAMENT).splitlines()[8]
    assert _columns(line, 1, 3) == "001"
    assert _columns(line, 5, 8) == "   1"
    assert _columns(line, 10, 10) == "w"
    assert _columns(line, 15, 47) == "Ngata, Ana".ljust(33)
    assert _columns(line, 49, 52) == "1850"
    assert _columns(line, 54, 56) == "NZL"
    assert _columns(line, 58, 68) == "12345678".rjust(11)
    assert _columns(line, 70, 79) == "1990/04/01"
    assert _columns(line, 81, 84) == " 2.0"
    assert _columns(line, 86, 89) == "   1"
    assert (_columns(line, 92, 95), _columns(line, 97, 97), _columns(line, 99, 99)) == ("0004", "w", "1")
    assert (_columns(line, 102, 105), _columns(line, 107, 107), _columns(line, 109, 109)) == (
        "0002",
        "b",
        "1",
    )


def test_a_title_is_right_aligned_in_columns_11_to_13() -> None:
    line = write_trf(TOURNAMENT).splitlines()[9]
    assert _columns(line, 10, 13) == "m FM"


def test_a_pairing_allocated_bye_is_opponent_0000_no_colour_result_u() -> None:
    line = write_trf(TOURNAMENT).splitlines()[10]
    assert _columns(line, 92, 99) == "0000 - U"


def test_round_dates_sit_at_columns_92_and_102_as_yy_mm_dd() -> None:
    line = write_trf(TOURNAMENT).splitlines()[7]
    assert (_columns(line, 1, 3), _columns(line, 92, 99), _columns(line, 102, 109)) == (
        "132",
        "26/03/07",
        "26/03/08",
    )


def test_header_lines_without_a_value_are_left_out() -> None:
    text = write_trf(TrfTournament("Club night", (TrfPlayer(1, "Solo", 0.0, 1),)))
    assert text == "012 Club night\n062 1\n001    1      Solo" + " " * 63 + "0.0    1\n"


def test_players_are_written_in_start_number_order() -> None:
    text = write_trf(TrfTournament("T", tuple(reversed(PLAYERS))))
    assert [line[4:8] for line in text.splitlines() if line.startswith("001")] == [
        f"{n:>4}" for n in range(1, 6)
    ]


@pytest.mark.parametrize(
    "game",
    [
        TrfGame(9, "w", "1"),  # no such player
        TrfGame(1, "w", "1"),  # the player himself
        TrfGame(2, "x", "1"),  # no colour
        TrfGame(2, "w", "2"),  # no result
        TrfGame(None, "w", "1"),  # a colour without an opponent
        TrfGame(2, "-", "1"),  # an opponent without a colour
    ],
)
def test_a_round_the_format_cannot_hold_is_refused(game: TrfGame) -> None:
    players = (TrfPlayer(1, "A", 1.0, 1, (game,)), TrfPlayer(2, "B", 0.0, 2))
    with pytest.raises(ValueError):
        write_trf(TrfTournament("T", players))


@pytest.mark.parametrize("points", [100.0, -1.0, 1.25])
def test_points_the_99_9_field_cannot_hold_are_refused(points: float) -> None:
    with pytest.raises(ValueError):
        write_trf(TrfTournament("T", (TrfPlayer(1, "A", points, 1),)))


def test_two_players_with_one_start_number_are_refused() -> None:
    with pytest.raises(ValueError):
        write_trf(TrfTournament("T", (TrfPlayer(1, "A", 0.0, 1), TrfPlayer(1, "B", 0.0, 2))))


# --- the lines pairing programs read, and reading a file back -----------------------------

THREE_TWO_ONE = PointSystem(win=3, draw=2, loss=1, forfeit_loss=0, pairing_bye=3, full_bye=3, half_bye=2)


def test_rounds_the_initial_colour_and_a_point_system_follow_the_header() -> None:
    two = TrfTournament(
        "Kahuna Open",
        (
            TrfPlayer(1, "Ana", 3.0, 1, (TrfGame(2, "w", "1"),)),
            TrfPlayer(2, "Ben", 1.0, 2, (TrfGame(1, "b", "0"),)),
        ),
        rounds=5,
        points=THREE_TWO_ONE,
        white1=True,
    )
    lines = write_trf(two).splitlines()
    assert lines[:9] == [
        "012 Kahuna Open",
        "062 2",
        "XXR 5",
        "XXC white1",
        "XXS WW=3 BW=3 FW=3 WD=2 BD=2 WL=1 BL=1 FL=0 PAB=3 FPB=3 HPB=2 ZPB=0",
        "BBW  3.0",
        "BBD  2.0",
        "BBL  1.0",
        "BBZ  0.0",
    ]
    assert lines[9:11] == ["BBF  0.0", "BBU  3.0"]


def test_the_standard_point_system_needs_no_line() -> None:
    assert not any(line[:3] in ("XXS", "BBW") for line in write_trf(TOURNAMENT).splitlines())


def test_read_trf_reads_back_what_write_trf_wrote() -> None:
    assert read_trf(EXPECTED) == TOURNAMENT
    assert write_trf(read_trf(EXPECTED)) == EXPECTED
    scored = replace(TOURNAMENT, rounds=7, white1=True, points=replace(THREE_TWO_ONE, loss=0.5))
    assert read_trf(write_trf(scored)) == scored


def test_read_trf_names_the_line_it_cannot_read() -> None:
    with pytest.raises(ValueError, match="line 2"):
        read_trf("012 T\n001    x      Solo\n")


def test_score_mismatches_finds_points_the_results_do_not_give() -> None:
    assert score_mismatches(TOURNAMENT) == []
    three = replace(TOURNAMENT, points=THREE_TWO_ONE)
    # Ana won twice (6), Ben won once and lost once (4), ... every 1 / 1/2 / 0 total is wrong.
    assert score_mismatches(three) == [1, 2, 3, 4, 5]
