"""The domain benchmark shows whether a command costs more late in a game than early."""

from __future__ import annotations

import itertools
import random

from bench import domain
from domain.games import GAMES

LATER_KAHUNA = domain.Setup("kahuna", 2, {"edition": "thames-kosmos"})


def test_a_played_game_times_the_commands_of_each_round() -> None:
    setup = domain.Setup("kahuna", 2)
    played = domain.play_game(GAMES["kahuna"], setup.to_setup(), random.Random(3))
    assert sorted(played.rounds) == [0, 1, 2, 3]  # 0: the deal, before the first round
    assert sum(commands for commands, _ in played.rounds.values()) == played.commands
    assert all(seconds > 0 for _, seconds in played.rounds.values())


def test_the_rounds_spans_time_the_whole_game_without_gaps() -> None:
    # A clock that advances one tick per reading: spans that follow each other without a
    # gap add up to the ticks between the first reading and the last.
    ticks = itertools.count()
    setup = domain.Setup("kahuna", 2)
    played = domain.play_game(
        GAMES["kahuna"], setup.to_setup(), random.Random(3), clock=lambda: float(next(ticks))
    )
    readings = next(ticks)
    assert sum(seconds for _, seconds in played.rounds.values()) == readings - 1
    assert readings == len(played.rounds) + 1  # one reading per round's start, one at the end


def test_the_later_kahuna_edition_is_benchmarked_beside_the_original() -> None:
    setups, skipped = domain.all_setups()
    assert LATER_KAHUNA in setups, skipped


def test_the_figures_give_commands_per_second_in_the_first_and_the_last_round() -> None:
    figures = domain.run(quick=True, setups=[LATER_KAHUNA])
    labels = [figure.label for figure in figures]
    assert f"{LATER_KAHUNA.label}: first round" in labels
    assert f"{LATER_KAHUNA.label}: last round" in labels
    assert all(figure.value > 0 for figure in figures)
