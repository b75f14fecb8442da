"""The board renderers, registered by kind: a game's module names its kind (`GameModule.renderer`),
and the SVG and text renderers, the status line and the notation ask this registry for it.

A renderer is a module `replays/render_<kind>.py` that defines `RENDERER`, found here by its name
(no list to edit for a new family); tests register theirs with `register_renderer`.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.games import GAMES

View = Mapping[str, Any]
Events = Sequence[Mapping[str, Any]]

ISLANDS = "islands"
"""The kind drawn for a game that is not registered (its notation writes any event it does not
know), as before kinds were declared."""


@dataclass(frozen=True)
class Drawing:
    """How a board is to be drawn: `caption` heads the legend; `board` overrides the view's own;
    `highlight_places` (islands, cells or hexes, as the kind names them) and `highlight_lines` are
    outlined; `notes` go under the
    legend; `standalone=False` inlines the SVG in an HTML page; `interactive` makes places
    buttons; `legend=False` draws the board alone."""

    caption: str = ""
    board: Any = None  # the board to draw on (the view's own, from its module, when None)
    highlight_places: tuple[Any, ...] = ()
    highlight_lines: tuple[Sequence[Any], ...] = ()
    notes: tuple[str, ...] = ()
    standalone: bool = True
    interactive: bool = False
    legend: bool = True


@dataclass(frozen=True)
class Renderer:
    """One kind of board: its SVG, its text, its status line, its notation and its style.

    `svg(view, drawing)`: the SVG text. `text(view, board)`: the board as lines of text (the
    heading, status and notes are the platform's; `board`, when not None, overrides the view's).
    `status(view)`: "Round 2 · play · Ana to move", or how the game ended. `notation(events,
    viewer)` writes a game's record and `parse(text)` reads it back. `style`: the constant CSS of
    its <style> block (the pages' policy admits it by hash).
    """

    kind: str
    svg: Callable[[View, Drawing], str]
    text: Callable[[View, Any], list[str]]
    status: Callable[[View], str]
    notation: Callable[[Events, str | None], str]
    parse: Callable[[str], Any]
    style: str = ""


RENDERERS: dict[str, Renderer] = {}
_found = False


def register_renderer(renderer: Renderer) -> Renderer:
    """Make `renderer` draw every game whose module names its kind."""
    known = RENDERERS.get(renderer.kind)
    if known is not None and known is not renderer:
        raise ValueError(f"a renderer of kind {renderer.kind!r} is registered already")
    RENDERERS[renderer.kind] = renderer
    return renderer


def unregister_renderer(kind: str) -> None:
    """Forget a renderer (for renderers registered only for a while, as tests do)."""
    RENDERERS.pop(kind, None)


def _find() -> None:
    """Register every `replays/render_<kind>.py` that defines RENDERER (once)."""
    global _found
    if _found:
        return
    _found = True
    package = importlib.import_module("replays")
    for info in pkgutil.iter_modules(package.__path__):
        if info.name.startswith("render_"):
            module = importlib.import_module(f"replays.{info.name}")
            found = getattr(module, "RENDERER", None)
            if isinstance(found, Renderer):
                register_renderer(found)


def renderers() -> Iterable[Renderer]:
    """Every registered renderer."""
    _find()
    return tuple(RENDERERS.values())


def kind_of(game: str) -> str:
    """The kind of renderer `game`'s module names (the islands' for a game not registered)."""
    module = GAMES.get(game)
    return ISLANDS if module is None else module.renderer


def renderer_of(game: str) -> Renderer:
    """The renderer of `game`; KeyError naming the kind when none is registered for it."""
    _find()
    kind = kind_of(game)
    try:
        return RENDERERS[kind]
    except KeyError:
        raise KeyError(f"no renderer of kind {kind!r} is registered (the game {game!r} names it)") from None


def renderer_for(view: View) -> Renderer:
    """The renderer of the game `view` is of."""
    return renderer_of(str(view.get("game", "")))


def game_title(view: View) -> str:
    """The game's title, as its module's words give it (its name when it is not registered)."""
    game = str(view.get("game", ""))
    module = GAMES.get(game)
    return game if module is None else module.words.title
