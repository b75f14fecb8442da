"""Every game's golden game, replayed offline as `replays` does: the whole game as one HTML page,
a frame per step, headed by the game's own title and ended by its renderer's status line."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.games import rules_for
from replays import archive
from replays.frames import replay
from replays.render_html import game_page
from replays.renderers import renderer_of
from tests.families.registered import EVERY_GAME
from tests.golden.test_golden import FILES


def shortest(game: str) -> Path:
    """The game's golden game with the fewest events (the quickest to draw)."""
    games = [path for path in FILES if archive.read(path.read_bytes()).header["game"] == game]
    assert games, f"{game} has no golden game"
    return min(games, key=lambda path: path.stat().st_size)


@pytest.mark.usefixtures("test_families")
@pytest.mark.parametrize("game", EVERY_GAME)
def test_a_golden_game_of_every_game_replays_offline_as_one_page(game: str) -> None:
    read = archive.read(shortest(game).read_bytes())
    played = replay(read)

    page = game_page(played)

    last = played.view()
    assert rules_for(game).words.title in page
    assert page.count("<svg") >= len(played.steps)
    assert renderer_of(game).status(last) in page
