"""The arena's budgets (CPU time, iterations), its time limit on a run, and its all-seeing player's
place on the command line."""

from __future__ import annotations

import pytest

from ai.arena import Match, Player, main, parse_args, run
from ai.ismcts import Budget
from bench import arena as bench_arena


def _match(n: int, **budget: object) -> Match:
    return Match(n, "kahuna", 2, {}, Player("greedy"), Player("random"), seed=3, **budget)  # type: ignore[arg-type]


def test_a_match_gives_its_players_cpu_seconds_or_iterations() -> None:
    assert _match(0).budget(2) == Budget(seconds=0.3)
    assert _match(0, cpu_time=True).budget(4) == Budget(seconds=2.5, cpu=True)
    assert _match(0, cpu_time=True, budget_scale=0.5).budget(2) == Budget(seconds=0.15, cpu=True)
    assert _match(0, iterations=700).budget(4) == Budget(iterations=700)


def test_a_run_starts_no_game_past_its_time_and_reports_those_played() -> None:
    """On a clock that moves a minute a look, 150 s let the first looks start games, then none."""
    looks = iter(range(0, 10_000, 60))
    outcomes = run(
        [_match(n) for n in range(10)], processes=1, progress=False, seconds=150, clock=lambda: next(looks)
    )
    # Look 0 sets the deadline at 150; looks at 60 and 120 start games 0 and 1, the look at 180 ends it.
    assert [o.number for o in outcomes] == [0, 1]


def test_the_all_seeing_player_is_named_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    args = parse_args(["--a", "ismcts", "--b", "seeing", "--level-b", "4", "--cpu-time"])
    assert (args.b, args.level_b, args.cpu_time) == ("seeing", 4, True)
    argv = ["--a", "ismcts", "--b", "seeing", "--iterations", "3", "--games", "2", "--processes", "1"]
    assert main([*argv, "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "A = ismcts L2 vs B = seeing L2, 3 iterations a search" in out
    assert "load average" in out


def test_bench_arena_quick_reports_a_win_rate_and_the_load(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench_arena, "FAMILIES", (("kahuna", 2, {}, 10),))
    figures = bench_arena.run(quick=True)
    assert [f.label for f in figures][0] == "kahuna 2p: ismcts vs seeing, 1 games"
    assert (
        figures[0].unit == "% won" and figures[1].unit.startswith("% - ") and figures[2].unit == "at its end"
    )
    assert 0 <= figures[0].value <= 100 and figures[2].value >= 0


def test_where_it_loses_prices_each_players_choices_and_restores_the_settings() -> None:
    from ai import ismcts
    from bench import where_it_loses

    before = vars(ismcts)["rules_for"]
    counts, given = where_it_loses.measure(5, 1, 40, 300)
    assert vars(ismcts)["rules_for"] is before, "the changed settings last only for their searches"
    assert sum(counts.values()) >= 2
    for kind in counts:
        assert set(given[kind]) == {"seeing", *where_it_loses.HALF_SEEING, "ismcts", *where_it_loses.VARIANTS}
        assert all(value >= 0.0 for value in given[kind].values()), "nothing beats the reference's best"
