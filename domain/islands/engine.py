"""The island games as one Decider: initial_state, decide, evolve, legal_commands, view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.decider import IllegalMove
from domain.game_module import seat_counts
from domain.islands.decide import decide, decide_with_state
from domain.islands.evolve import evolve
from domain.islands.gods import pele_picks_due
from domain.islands.legal import legal_commands
from domain.islands.ruleset import ruleset_for
from domain.islands.setup import permutations_due
from domain.islands.state import ENDED, SCORING, SETUP, State
from domain.islands.view import view
from domain.turns import Pick, Score, Shuffle, SystemRequest

__all__ = [
    "decide",
    "decide_with_state",
    "evolve",
    "initial_state",
    "is_terminal",
    "legal_commands",
    "pending_system",
    "view",
]

MODES = ("casual", "tournament")


def initial_state(setup: Mapping[str, Any]) -> State:
    """The state right after GameCreated: material in stock, the deck unshuffled, phase setup."""
    rules = ruleset_for(setup["game"], setup.get("options") or {})
    names = tuple(s["name"] for s in setup["seats"])
    if not rules.min_seats <= len(names) <= rules.max_seats:
        raise IllegalMove(
            "bad_seat_count",
            f"{rules.game} is played by {seat_counts(rules.min_seats, rules.max_seats)}, not {len(names)}",
        )
    first = setup.get("first_seat", 0)
    if not isinstance(first, int) or not 0 <= first < len(names):
        raise IllegalMove("bad_first_seat", f"first_seat must be 0..{len(names) - 1}")
    mode = setup.get("mode", "casual")
    if mode not in MODES:
        raise IllegalMove("bad_mode", f"mode must be one of {list(MODES)}")
    return State(
        rules=rules,
        names=names,
        mode=mode,
        phase=SETUP,
        round=0,
        active=first,
        owners=(None,) * len(rules.board.lines),
        control=(None,) * len(rules.board.islands),
        stock=(rules.bridges,) * len(names),
        hands=((),) * len(names),
        stack=rules.deck,
        scores=(0,) * len(names),
        ships=(None,) * len(rules.board.sea_spaces) if rules.seafarers else (),
        ship_stock=(rules.markers,) * len(names) if rules.seafarers else (),
        free_bridges=tuple(rules.free_bridges_of(seat) for seat in range(len(names))),
        gods=(None,) * len(rules.board.islands) if rules.gods else (),
        stones=((),) * len(names),
    )


def is_terminal(state: State) -> bool:
    return state.phase == ENDED


def pending_system(state: State) -> SystemRequest | None:
    """The system work the game waits for, with what the service must draw at random for it.

    Shuffle -> ShuffleDeck{arg: permutation, ...}; Score -> ScoreRound{round} (on the
    worker); Pick -> DrawAtRandom{picks: {seat: index}} (Pele, G-7).
    """
    if state.phase == SETUP:
        return Shuffle(permutations_due(state), "ShuffleDeck")
    if state.phase == SCORING:
        return Score(state.round, "ScoreRound")
    if state.pending and state.pending[0].kind == "pele_draw":
        return Pick(pele_picks_due(state), "DrawAtRandom")
    return None
