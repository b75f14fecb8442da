"""The island games' behaviour digest (bench/islands_digest.py) pins their rules: the hashes
below are those the rules gave before they were made faster (main at 3f062d6), and must not
move unless the rules are meant to change."""

import pytest

from bench.digest import game_digest
from bench.domain import Setup
from bench.islands_digest import SETUPS, main

PINNED = [
    (Setup("kahuna", 2), "84237748d5cfd5ec00c91cad9166f32117cd5f8aae8344e3940ecf5a00e2621d"),
    (
        Setup("kahuna", 2, {"edition": "thames-kosmos"}),
        "8c8fe3b9c1ba7ffa21d79c7ec5b052740778de0e146a27971644014b6ffb4cf4",
    ),
    (
        Setup("arabana-ikibiti", 2, {"seafarers": True}),
        "2d10d70bc32091c4aadc72a88181e0d6cd10ecadfd4c2871e7b375553a22ae3f",
    ),
    (
        Setup("arabana-opodopo", 3, {"gods": True}),
        "b892279a7b8d97918240299eab7101bdbeda4496e7a72a696b7d1fc744adde11",
    ),
]


@pytest.mark.parametrize(("setup", "expected"), PINNED, ids=[setup.label for setup, _ in PINNED])
def test_seeded_games_hash_as_before(setup: Setup, expected: str) -> None:
    assert setup in SETUPS
    digest, played = game_digest(setup, 0)
    assert played > 50
    assert digest == expected


def test_game_chooses_that_games_setups(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--game", "kahuna", "--games", "1", "--first", "1"]) == 0

    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[:2] for line in lines] == [
        ["kahuna_2p", "1"],
        ["kahuna_2p_[edition=thames-kosmos]", "1"],
    ]
