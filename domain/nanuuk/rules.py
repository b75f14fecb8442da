"""What one Nanuuk! game is played with: its name, seats, ice, material and options (N-1, V, L)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.decider import IllegalMove
from domain.nanuuk.board import Ice, ice_for

NANUUK = "nanuuk"
LEARNING = "nanuuk-learning"
BEAR_HUNT = "nanuuk-bear-hunt"
BEAR_FLIGHT = "nanuuk-bear-flight"
PARTNERS = "nanuuk-partners"
HELPER = "nanuuk-helper"

SEATS = {
    NANUUK: (2, 4),
    LEARNING: (2, 4),
    BEAR_HUNT: (2, 3),
    BEAR_FLIGHT: (2, 2),
    PARTNERS: (4, 4),
    HELPER: (2, 2),
}
"""Each game name's fewest and most seats."""

ANIMALS = ("fish", "seal", "walrus", "whale")
POINTS = {"fish": 1, "seal": 2, "walrus": 3, "whale": 4}  # N-11
EQUIPMENT = ("harpoon", "husky", "sled", "kayak")
TOKENS = ("whale", "inuk", "fish", "seal", "walrus")

# N-1: bears, fish, seals, walrus, whales, Inuit by player count.
MATERIAL = {
    2: {"bear": 2, "fish": 3, "seal": 4, "walrus": 4, "whale": 3, "inuk": 3},
    3: {"bear": 2, "fish": 4, "seal": 4, "walrus": 4, "whale": 3, "inuk": 4},
    4: {"bear": 3, "fish": 6, "seal": 6, "walrus": 6, "whale": 3, "inuk": 4},
}
LEFT_OUT = {2: "not_in_2_player_game", 3: "not_in_3_player_game", 4: None}

EACH_STEP, MOVER_CHOOSES = "each_step", "mover_chooses"
AIMS = {"partner": 2, "right": -1, "left": 1}
"""L-7: whom a seat tries to shut in, as an offset in turn order."""

OPTIONS: dict[str, dict[str, Any]] = {
    NANUUK: {
        "two_hunters": False,
        "double_move_cracks": EACH_STEP,
        "keep_igloo_reachable": False,
        "pre_cracks": 0,
        "layout": None,
        "cracks": None,
    },
    LEARNING: {},
    BEAR_HUNT: {
        "bear_seat": 0,
        "crack_each_step": False,
        "bear_must_move_twice": False,
        "bear_may_stay": False,
        "play_on": False,
    },
    BEAR_FLIGHT: {"bears": 1, "bear_must_move_twice": False, "bear_may_stay": False},
    PARTNERS: {"aim": "partner"},
    HELPER: {},
}
"""Each game's options with their defaults."""


@dataclass(frozen=True)
class Rules:
    """One game's fixed facts: read once from its setup, never changed by play."""

    game: str
    seats: int
    ice: Ice
    options: Mapping[str, Any]

    @property
    def full(self) -> bool:
        """Nanuuk! itself (animals, equipment, igloos), not a learning game."""
        return self.game == NANUUK

    def option(self, name: str) -> Any:
        """The option's value (its default when not given)."""
        return self.options[name]

    @property
    def material(self) -> Mapping[str, int]:
        """N-1: the tokens and bears on the ice (4-player material with two hunters each)."""
        return MATERIAL[4 if self.options.get("two_hunters") else self.seats]


def _bad(name: str, message: str) -> IllegalMove:
    return IllegalMove("bad_option", message, f"options.{name}")


def _boolean(options: Mapping[str, Any], name: str) -> None:
    if not isinstance(options[name], bool):
        raise _bad(name, f"{name} is true or false")


def _whole(options: Mapping[str, Any], name: str, least: int, most: int) -> None:
    value = options[name]
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        raise _bad(name, f"{name} is a whole number from {least} to {most}")


def read_options(game: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The game's options with defaults filled in; IllegalMove(bad_option) on an unknown name
    or a value of the wrong kind (what depends on the seats is checked by `rules_of`)."""
    known = OPTIONS[game]
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise _bad(unknown[0], f"unknown options for {game}: {unknown}; allowed: {sorted(known)}")
    merged = {**known, **options}
    for name, default in known.items():
        if isinstance(default, bool):
            _boolean(merged, name)
    if game == NANUUK:
        if merged["double_move_cracks"] not in (EACH_STEP, MOVER_CHOOSES):
            raise _bad("double_move_cracks", f"double_move_cracks is one of {[EACH_STEP, MOVER_CHOOSES]}")
        _whole(merged, "pre_cracks", 0, 30)
    if game == BEAR_FLIGHT:
        _whole(merged, "bears", 1, 3)
    if game == BEAR_HUNT:
        _whole(merged, "bear_seat", 0, 2)
    if game == PARTNERS and merged["aim"] not in AIMS:
        raise _bad("aim", f"aim is one of {list(AIMS)}")
    return merged


def ice_of(game: str, seats: int, options: Mapping[str, Any]) -> Ice:
    """The ice a game is played on (N-1, L-1, L-5)."""
    if game == NANUUK:
        return ice_for(LEFT_OUT[4 if options.get("two_hunters") else seats])
    if game == BEAR_HUNT or (game == LEARNING and seats == 3):
        return ice_for(LEFT_OUT[3], igloos=False)
    return ice_for(None, igloos=False)


def rules_of(game: str, seats: int, options: Mapping[str, Any]) -> Rules:
    """The rules of `game` for `seats` seats; IllegalMove on a seat count or option they refuse."""
    least, most = SEATS[game]
    if not least <= seats <= most:
        raise IllegalMove("bad_seat_count", f"{game} is played by {least}-{most} seats, not {seats}")
    merged = read_options(game, options)
    if merged.get("two_hunters") and seats != 2:
        raise _bad("two_hunters", "two hunters each is a 2-player option")
    if game == BEAR_HUNT and merged["bear_seat"] >= seats:
        raise _bad("bear_seat", f"bear_seat is a seat 0..{seats - 1}")
    if game == BEAR_HUNT and merged["play_on"] and seats != 3:
        raise _bad("play_on", "the Inuit play on only with 3 seats, one Inuk each")
    return Rules(game, seats, ice_of(game, seats, merged), merged)
