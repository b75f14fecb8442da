"""What differs between the island games, as data: material, deal, rounds and rule switches."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.decider import IllegalMove
from domain.islands.board import Board, load_board


@dataclass(frozen=True)
class Handicap:
    """I-8: what the weaker seat receives."""

    seat: int
    free_bridges: int = 0
    extra_cards: int = 0
    hand_limit: int = 5


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
    scoring: str = "kahuna"  # kahuna (K-7), difference (I-5), places (O-8)
    pair: str = "remove"  # remove (K-4), remove_and_place (I-4), swap (O-4)
    place_needs_uncontrolled_end: bool = False  # I-2
    final_turns: bool = False  # I-6 / O-7 / K-9: one more turn each after the last card
    defer_final_turn: bool = False  # O-7
    premature_end: bool = False  # I-7
    tournament_points: bool = False  # I-9
    may_skip_draw: bool = False  # K-9
    tie_break: str = "none"  # none, third_scoring_then_bridges (K-9), final_turn_order (O-9)
    discard: str = "full_hand"  # full_hand (K-5, I-3), one_per_turn (O-5)
    choose_face_up: bool = False  # O-2
    relative_majority: bool = False  # O-6
    marker_limit_wins: bool = False  # O-10
    take_back_when_out: bool = False  # O-11
    seafarers: bool = False  # S-1..S-5
    gods: bool = False  # G-1..G-9
    handicap: Handicap | None = None
    # Tables the rules derive from these switches, built on first use by the module that
    # reads them (e.g. the commands a seat may send): rebuilt for every command, they cost
    # a tenth of the rules' time. Not part of the value: never compared, hashed or shown.
    derived: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def deck(self) -> tuple[str, ...]:
        """Every card of the game, sorted: the pool a shuffle permutes."""
        return tuple(sorted(name for name in self.board.names for _ in range(self.copies)))

    def hand_limit_of(self, seat: int) -> int:
        if self.handicap is not None and self.handicap.seat == seat:
            return self.handicap.hand_limit
        return self.hand_limit

    def start_hand_of(self, seat: int) -> int:
        if self.handicap is not None and self.handicap.seat == seat:
            return self.start_hand + self.handicap.extra_cards
        return self.start_hand

    def free_bridges_of(self, seat: int) -> int:
        if self.handicap is not None and self.handicap.seat == seat:
            return self.handicap.free_bridges
        return 0


DUEL: dict[str, Any] = dict(
    copies=2,
    bridges=25,
    markers=10,
    min_seats=2,
    max_seats=2,
    start_hand=3,
    face_up=3,
    hand_limit=5,
    rounds=3,
)
"""K-1/I-1: the material and deal Kahuna and Arabana-Ikibiti share."""

KAHUNA_EDITIONS = ("original", "thames-kosmos")


def _bad(field_name: str, allowed: str) -> IllegalMove:
    return IllegalMove("bad_option", f"options.{field_name} must be {allowed}", f"options.{field_name}")


def _only(options: Mapping[str, Any], allowed: set[str], game: str) -> None:
    unknown = set(options) - allowed
    if unknown:
        raise IllegalMove(
            "bad_option", f"unknown options for {game}: {sorted(unknown)}; allowed: {sorted(allowed)}"
        )


def _flag(options: Mapping[str, Any], name: str) -> bool:
    value = options.get(name, False)
    if not isinstance(value, bool):
        raise _bad(name, "true or false")
    return value


def kahuna(options: Mapping[str, Any]) -> Ruleset:
    """K-1: the Kahuna board, 24 cards, 25 bridges and 10 markers each, 3 rounds (K-9 optional)."""
    _only(options, {"edition"}, "kahuna")
    edition = options.get("edition", "original")
    if edition not in KAHUNA_EDITIONS:
        raise _bad("edition", f"one of {list(KAHUNA_EDITIONS)}")
    later = edition == "thames-kosmos"
    return Ruleset(
        game="kahuna",
        board=load_board("kahuna"),
        **DUEL,
        edition=edition,
        final_turns=later,
        premature_end=later,
        may_skip_draw=later,
        tie_break="third_scoring_then_bridges" if later else "none",
    )


def _handicap(raw: Any) -> Handicap | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise _bad("handicap", "an object with seat, free_bridges, extra_cards, hand_limit")
    _only(raw, {"seat", "free_bridges", "extra_cards", "hand_limit"}, "handicap")
    seat = raw.get("seat")
    if seat not in (0, 1) or isinstance(seat, bool):
        raise _bad("handicap.seat", "0 or 1")
    free = raw.get("free_bridges", 0)
    if not isinstance(free, int) or isinstance(free, bool) or not 0 <= free <= 3:
        raise _bad("handicap.free_bridges", "0, 1, 2 or 3")
    extra = raw.get("extra_cards", 0)
    if not isinstance(extra, int) or isinstance(extra, bool) or not 0 <= extra <= 2:
        raise _bad("handicap.extra_cards", "0, 1 or 2")
    limit = raw.get("hand_limit", 5)
    if limit not in (5, 6) or isinstance(limit, bool):
        raise _bad("handicap.hand_limit", "5 or 6")
    return Handicap(seat, free, extra, limit)


def arabana_ikibiti(options: Mapping[str, Any]) -> Ruleset:
    """I-1: as Kahuna on the Arabana-Ikibiti board, with I-2..I-9 and optional S and I-8."""
    _only(options, {"seafarers", "handicap"}, "arabana-ikibiti")
    return Ruleset(
        game="arabana-ikibiti",
        board=load_board("arabana-ikibiti"),
        **DUEL,
        scoring="difference",
        pair="remove_and_place",
        place_needs_uncontrolled_end=True,
        final_turns=True,
        premature_end=True,
        tournament_points=True,
        seafarers=_flag(options, "seafarers"),
        handicap=_handicap(options.get("handicap")),
    )


def arabana_opodopo(options: Mapping[str, Any]) -> Ruleset:
    """O-1: the Opodopo board for 3-4, 48 cards from a bag, 20 bridges, two rounds; G optional."""
    _only(options, {"gods"}, "arabana-opodopo")
    return Ruleset(
        game="arabana-opodopo",
        board=load_board("arabana-opodopo"),
        copies=3,
        bridges=20,
        markers=10,
        min_seats=3,
        max_seats=4,
        start_hand=4,
        face_up=4,
        hand_limit=5,
        rounds=2,
        scoring="places",
        pair="swap",
        final_turns=True,
        defer_final_turn=True,
        tie_break="final_turn_order",
        discard="one_per_turn",
        choose_face_up=True,
        relative_majority=True,
        marker_limit_wins=True,
        take_back_when_out=True,
        gods=_flag(options, "gods"),
    )


RULESETS = {
    "kahuna": kahuna,
    "arabana-ikibiti": arabana_ikibiti,
    "arabana-opodopo": arabana_opodopo,
}


_INTERNED: dict[Ruleset, Ruleset] = {}


def ruleset_for(game: str, options: Mapping[str, Any]) -> Ruleset:
    """The ruleset of `game` with `options` applied; IllegalMove for an unknown game or option.

    Equal rulesets are one object, so the tables derived from one (`derived`) are built once
    per process, not once per game or sampled world. There are only so many valid rulesets.
    """
    if game not in RULESETS:
        raise IllegalMove("unknown_game", f"unknown game {game!r}; known: {sorted(RULESETS)}")
    if not isinstance(options, Mapping):
        raise IllegalMove("bad_option", "options must be an object")
    rules = RULESETS[game](options)
    return _INTERNED.setdefault(rules, rules)
