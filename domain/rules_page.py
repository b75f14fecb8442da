"""The shape of a rules page: a game's text for players, kept in its family's folder beside its
other words (GameWords.rules)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Section:
    """One heading of a rules page and its paragraphs."""

    heading: str
    paragraphs: tuple[str, ...]


@dataclass(frozen=True)
class RulesPage:
    """What a player reads about one game: a summary, sections, and each option in words."""

    title: str
    summary: str
    sections: tuple[Section, ...]
    options: Mapping[str, str] = field(default_factory=dict)
    #: The game this one is a variant of (its page links back there), if any.
    variant_of: str | None = None
