"""The domain benchmark runs: it plays whole games and reports figures (no speed is asserted)."""

from __future__ import annotations

import random

import pytest

from bench import domain
from bench.__main__ import PARTS, main
from bench.common import Figure
from domain.games import GAMES

DEFAULT_SETUPS, _ = domain.default_setups()


def test_every_registered_game_has_a_benchmark_setup() -> None:
    setups, skipped = domain.default_setups()

    assert skipped == []
    assert sorted(setup.game for setup in setups) == sorted(GAMES)
    assert all(2 <= setup.seats <= 4 for setup in setups)


# A Conquest of Paradise game takes seconds of rules alone: make test-long plays it here, and
# make test plays it once in the quick bench below.
SELF_PLAY = [
    pytest.param(setup, marks=pytest.mark.long) if setup.game == "conquest-of-paradise" else setup
    for setup in DEFAULT_SETUPS
]


@pytest.mark.parametrize("setup", SELF_PLAY, ids=lambda s: s.label)
def test_a_random_self_play_game_is_played_to_its_end(setup: domain.Setup) -> None:
    seen: list[str] = []

    played = domain.play_game(
        GAMES[setup.game],
        setup.to_setup(),
        random.Random(7),
        lambda _command, events: seen.extend(e.type for e in events),
    )

    assert played.games == 1
    assert seen[-1] == "GameEnded"
    assert played.events == len(seen)
    assert played.commands > played.system_commands
    # A game that waits for the system at its start (a deal, a layout) counts system commands;
    # one that does not may still ask later (Conquest of Paradise's dice), and Nanuuk!'s
    # learning games never ask.
    rules = GAMES[setup.game]
    if rules.pending_system(rules.initial_state(setup.to_setup())) is not None:
        assert played.system_commands > 0
    if setup.game.startswith("nanuuk-"):
        assert played.system_commands == 0


@pytest.fixture
def measured(monkeypatch: pytest.MonkeyPatch) -> list[Figure]:
    """The figures `python -m bench domain` reports, kept on the way: a Conquest of Paradise game
    costs seconds, so the quick bench is not played a second time for them."""
    kept: list[Figure] = []

    def run_and_keep(**options: object) -> list[Figure]:
        figures = domain.run(**options)  # type: ignore[arg-type]
        kept.extend(figures)
        return figures

    monkeypatch.setitem(PARTS, "domain", run_and_keep)
    return kept


def test_python_m_bench_domain_quick_reports_positive_figures(
    capsys: pytest.CaptureFixture[str], measured: list[Figure]
) -> None:
    assert main(["domain", "--quick"]) == 0

    labels = {figure.label for figure in measured}
    for setup in DEFAULT_SETUPS:
        assert {f"{setup.label}: games", f"{setup.label}: commands"} <= labels
    assert all(figure.part == "domain" and figure.value > 0 for figure in measured)
    out = capsys.readouterr().out
    assert "== summary" in out and "kahuna 2p: games" in out


def test_python_m_bench_domain_game_benchmarks_that_game_alone(
    capsys: pytest.CaptureFixture[str], measured: list[Figure]
) -> None:
    assert main(["domain", "--quick", "--game", "kahuna"]) == 0

    labels = {figure.label.split(":")[0] for figure in measured}
    assert labels == {"kahuna 2p", "kahuna 2p [edition=thames-kosmos]"}
    assert "arabana" not in capsys.readouterr().out


def test_python_m_bench_refuses_a_game_it_does_not_know(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as refused:
        main(["domain", "--game", "no-such-game"])

    assert refused.value.code == 2
    assert "unknown game 'no-such-game'" in capsys.readouterr().err


def test_the_summary_shows_each_parts_load_average_beside_its_figures(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(
        PARTS, "domain", lambda **_: [Figure("domain", "a game: commands", 12.0, "commands/s")]
    )
    # The run's opening line reads the load average first, then the part at its start and end.
    loads = iter([(1.0, 0.0, 0.0), (3.25, 0.0, 0.0), (7.5, 0.0, 0.0)])
    monkeypatch.setattr("bench.__main__.os.getloadavg", lambda: next(loads, (0.0, 0.0, 0.0)))
    assert main(["domain"]) == 0

    summary = capsys.readouterr().out.split("== summary")[1].splitlines()
    header = next(line for line in summary if line.startswith("part"))
    row = next(line for line in summary if "a game: commands" in line)
    assert header.split()[-1] == "load"
    assert row.split()[-1] == "3.2-7.5"
