"""The rules pages: /rules lists every registered game, /rules/<game> explains one to players.

Each game's text is its own, in its family's folder (domain/<family>/rules_page.py), declared
with its other words (GameWords.rules); the board picture is the renderer's own drawing of the
game at its start, reached through the registry like every other page, so a page shows the
board the game is played on.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from flask import Blueprint, render_template

from domain.games import GAMES
from domain.rules_page import RulesPage
from replays.render_svg import render_svg

bp = Blueprint("web_rules", __name__)


def pages() -> dict[str, RulesPage]:
    """Every registered game's rules page by name, in the registry's order.

    Asked of the registry at each call, never kept: a game registered after this module was
    imported (a family that lives in the tests) has its page too."""
    return {name: rules.words.rules for name, rules in GAMES.items() if rules.words.rules is not None}


def page_of(game: str) -> RulesPage | None:
    """The rules page of a registered game; None for a name the registry does not hold."""
    return pages().get(game)


def option_words(game: str, option: str) -> str:
    """What a game's option does, in words for players ('' when its page says nothing)."""
    found = page_of(game)
    return found.options.get(option, "") if found is not None else ""


@lru_cache(maxsize=32)
def board_picture(game: str) -> str:
    """The board as the renderer draws it before the first move, for the game's fewest seats."""
    rules = GAMES[game]
    seats = [{"name": f"Player {n + 1}"} for n in range(rules.min_seats)]
    state = rules.initial_state({"game": game, "seats": seats, "options": {}, "first_seat": 0})
    return render_svg(rules.view(state, None), standalone=False, interactive=False, caption="")


@bp.get("/rules")
def index() -> Any:
    """Every registered game with its rules page, families together in the registry's order."""
    return render_template("rules_index.html", games=list(pages().items()))


@bp.get("/rules/<game>")
def game_page(game: str) -> Any:
    """One game's rules with its board; a name no game has: a 404 page in words."""
    every = pages()
    found = every.get(game)
    if found is None:
        return render_template("rules_missing.html", game=game, games=sorted(every)), 404
    variant_of = every.get(found.variant_of) if found.variant_of else None
    return render_template(
        "rules_game.html",
        game=game,
        page=found,
        board=board_picture(game),
        variant_of=found.variant_of if variant_of else None,
        parent=variant_of,
        variants=[(name, p) for name, p in every.items() if p.variant_of == game],
        options=[(name.replace("_", " ").capitalize(), words) for name, words in found.options.items()],
    )
