"""The arena: greedy beats random (a behaviour check, not a speed check), and the command line."""

from __future__ import annotations

import pytest

from ai.arena import Match, Player, main, report, run, wilson


def test_greedy_beats_random_in_a_short_arena_run() -> None:
    matches = [Match(n, "kahuna", 2, {}, Player("greedy"), Player("random"), seed=3) for n in range(20)]
    outcomes = run(matches, processes=1, progress=False)
    assert sum(o.share for o in outcomes) >= 0.7 * len(outcomes)
    assert {o.a_seat for o in outcomes} == {0, 1}, "the first seat alternates"
    assert "95% interval" in report(matches, outcomes)


def test_one_player_against_several_in_opodopo() -> None:
    matches = [
        Match(n, "arabana-opodopo", 3, {}, Player("greedy"), Player("random"), seed=4) for n in range(3)
    ]
    outcomes = run(matches, processes=1, progress=False)
    assert [o.a_seat for o in outcomes] == [0, 1, 2]
    assert all(0.0 <= o.share <= 1.0 for o in outcomes)


def test_wilson_interval() -> None:
    low, high = wilson(18, 20)
    assert 0.68 < low < 0.70 and 0.96 < high < 0.98
    assert wilson(0, 0) == (0.0, 1.0)


def test_the_command_line_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--games", "2", "--processes", "1", "--no-progress", "--a", "greedy", "--b", "random"]) == 0
    out = capsys.readouterr().out
    assert "A = greedy vs B = random" in out and "first" in out and "second" in out


@pytest.mark.parametrize(
    "argv,message",
    [
        (["--games", "0"], "--games must be at least 1"),
        (["--seats", "3"], "kahuna is played by 2 seats, not 3"),
        (["--game", "arabana-opodopo", "--seats", "2"], "arabana-opodopo is played by 3-4 seats"),
        (["--a", "greedy", "--level-a", "3"], "--level-a: greedy has no levels"),
        (["--b", "random", "--level-b", "1"], "--level-b: random has no levels"),
        (["--a", "genius"], "invalid choice"),
        (["--options", "{nope"], "--options is not JSON"),
        (["--options", '{"gods": true}'], "--options"),
        (["--iterations", "0"], "--iterations must be at least 1"),
        (["--iterations", "5", "--cpu-time"], "exclude each other"),
        (["--minutes", "0"], "--minutes must be above 0"),
        (["--a", "seeing", "--level-a", "9"], "invalid choice"),
    ],
)
def test_bad_arguments_exit_non_zero_with_a_message(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def test_the_help_speaks_of_95_percent_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "95% intervals" in out and "%%" not in out


def test_a_level_is_accepted_for_an_ismcts_player() -> None:
    from ai.arena import parse_args

    args = parse_args(["--a", "ismcts", "--level-a", "3"])
    assert (args.level_a, args.level_b) == (3, 2)
