"""What differs between the island games, as data: material, deal, rounds and rule switches."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.core import IllegalMove
from domain.islands.board import Board, load_board


@dataclass(frozen=True)
class Ruleset:
    """One game's material and switches; the engine reads these, never the game name."""

    game: str
    board: Board
    copies: int  # cards per island
    bridges: int  # per player
    markers: int  # per player
    min_seats: int
    max_seats: int
    start_hand: int
    face_up: int
    hand_limit: int
    rounds: int
    edition: str = "original"

    @property
    def deck(self) -> tuple[str, ...]:
        """Every card of the game, sorted: the pool a shuffle permutes."""
        return tuple(sorted(name for name in self.board.names for _ in range(self.copies)))


KAHUNA_EDITIONS = ("original", "thames-kosmos")


def kahuna(options: Mapping[str, Any]) -> Ruleset:
    """K-1: the Kahuna board, 24 cards, 25 bridges and 10 markers each, 3 rounds."""
    edition = options.get("edition", "original")
    if edition not in KAHUNA_EDITIONS:
        raise IllegalMove("bad_option", f"options.edition must be one of {list(KAHUNA_EDITIONS)}")
    if edition != "original":
        raise IllegalMove("unsupported_option", "the thames-kosmos edition (K-9) is not available yet")
    return Ruleset(
        game="kahuna",
        board=load_board("kahuna"),
        copies=2,
        bridges=25,
        markers=10,
        min_seats=2,
        max_seats=2,
        start_hand=3,
        face_up=3,
        hand_limit=5,
        rounds=3,
        edition=edition,
    )


RULESETS = {"kahuna": kahuna}


def ruleset_for(game: str, options: Mapping[str, Any]) -> Ruleset:
    """The ruleset of `game` with `options` applied; IllegalMove for an unknown game or option."""
    if game not in RULESETS:
        raise IllegalMove("unknown_game", f"unknown game {game!r}; known: {sorted(RULESETS)}")
    unknown = set(options) - {"edition"}
    if unknown:
        raise IllegalMove("bad_option", f"unknown options for {game}: {sorted(unknown)}")
    return RULESETS[game](options)
