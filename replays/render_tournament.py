"""A tournament as one self-contained HTML page: standings, crosstable, rounds, links to games."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def render_tournament_html(view: Mapping[str, Any], game_links: Mapping[str, str]) -> str:
    """The page of `view` (domain.tournament.module.view); `game_links` maps a game id to the
    address of its player page. Nothing is fetched from elsewhere: styles are inline."""
    raise NotImplementedError
