"""Random legal games of the island variants to the end, checking the invariants after every command.

The invariants (invariants.py) are recomputed from the board files: bridges, ships, markers,
places, cards, scorings and results; the stored events refold to the live state; no view shows
what its seat may not know. The random games must reach each variant's rules, and legal_commands
must list exactly what decide accepts.
"""

from __future__ import annotations

import random
from itertools import combinations, combinations_with_replacement, product
from typing import Any

import pytest
from given import (
    IKIBITI,
    KAHUNA,
    OPODOPO,
    OPODOPO_ALL_OUT,
    OPODOPO_TEN,
    Table,
    layout,
    random_game,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import check_random_game

from domain.decider import Command, Event, IllegalMove
from domain.islands import engine
from domain.islands.state import State
from tests.hypothesis_profiles import examples

HANDICAP = {"seat": 1, "free_bridges": 2, "extra_cards": 1, "hand_limit": 6}
VARIANTS = {
    "ikibiti": IKIBITI,
    "ikibiti-seafarers-handicap": IKIBITI.with_options(seafarers=True, handicap=HANDICAP),
    "opodopo-3": OPODOPO.with_options(seats=3),
    "opodopo-4-gods": OPODOPO.with_options(gods=True),
}
LATER_KAHUNA = KAHUNA.with_options(edition="thames-kosmos")


SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


@pytest.mark.parametrize("table", VARIANTS.values(), ids=VARIANTS.keys())
@given(seed=SEEDS)
def test_random_games_keep_the_invariants(table: Table, seed: int) -> None:
    check_random_game(table, seed)


@settings(max_examples=examples(share=4))  # Kahuna's own rules have the full count in test_kahuna_playouts
@given(seed=SEEDS)
def test_random_later_kahuna_games_keep_the_invariants(seed: int) -> None:
    check_random_game(LATER_KAHUNA, seed)


# Games opening on a position, bridges laid before the first deal, for rules random play
# seldom reaches: O-11 (a seat with all 20 bridges out) and O-10 (a seat holding ten islands).
THREE = OPODOPO.with_options(seats=3)
POSITIONS = {
    "opodopo-3-all-out": (THREE, [THREE.created(), *layout(THREE.board, OPODOPO_ALL_OUT)]),
    "opodopo-4-ten-islands": (OPODOPO, [OPODOPO.created(), *layout(OPODOPO.board, [OPODOPO_TEN])]),
}


@pytest.mark.parametrize("name", POSITIONS)
@settings(max_examples=examples(share=8))
@given(seed=SEEDS)
def test_random_games_from_rare_positions_keep_the_invariants(name: str, seed: int) -> None:
    table, start = POSITIONS[name]
    check_random_game(table, seed, start)


def reached(table: Table, start: list[Event], games: int) -> set[str]:
    """The commands, events and event causes a few random games reach."""
    seen: set[str] = set()
    for seed in range(games):
        for command, events, _state in random_game(random.Random(seed), table, start):
            seen.update([command.type] if command else [])
            seen.update(["PlaceBridge:take_back"] if command and "take_back" in command.args else [])
            seen.update(e.type for e in events)
            seen.update(f"{e.type}:{e.data.get('cause') or e.data.get('reason')}" for e in events)
    return seen


# What the random games must reach, so that the invariants above are checked where it matters.
REACHED = {
    "ikibiti": {"RemoveBridge", "DiscardCards", "BridgeRemoved:majority", "IslandLost", "FinalTurnsStarted"},
    "ikibiti-seafarers-handicap": {"PlaceShip", "MoveShip", "PlaceFreeBridge", "ShipSunk:collision"},
    "opodopo-3": {"ChooseFaceUp", "SwapBridge", "BridgeRemoved:relative_majority", "DeferFinalTurn"},
    "opodopo-4-gods": {"UseKu", "TakeCard", "UsePele", "DrawAtRandom", "GiveCards", "UseLono", "UseKanaloa",
                       "KaneScored", "ChooseRemoval"},
    "kahuna-thames-kosmos": {"SkipDraw", "FinalTurnsStarted", "GameEnded:premature"},
    "opodopo-3-all-out": {"PlaceBridge:take_back", "PlayCard", "BridgeRemoved:taken_back"},
    "opodopo-4-ten-islands": {"GameEnded:eleventh_island"},
}  # fmt: skip


OPENINGS = {
    **{name: (table, []) for name, table in VARIANTS.items()},
    "kahuna-thames-kosmos": (LATER_KAHUNA, []),
    **POSITIONS,
}


# A seat left without bridges (I-7 through K-9) is rare in random Kahuna play: about one game in 25.
GAMES = {"kahuna-thames-kosmos": 24}


@pytest.mark.parametrize("name", REACHED)
def test_random_games_reach_the_variant_rules(name: str) -> None:
    table, start = OPENINGS[name]
    assert not REACHED[name] - reached(table, start, games=GAMES.get(name, 12))


# --- legal_commands against decide ------------------------------------------------------------


def canonical(command: Command) -> tuple[str, int | None, str]:
    """A command with the order of its cards and islands made irrelevant."""
    args = {k: sorted(v) if isinstance(v, list) else v for k, v in command.args.items()}
    return command.type, command.seat, repr(sorted(args.items()))


def candidates(rnd: random.Random, table: Table, state: State, seat: int) -> list[Command]:
    """Every command a client could send: each kind over every line, sea, card and seat."""
    board, hand = table.board, sorted(state.hands[seat])
    cards = sorted({*hand, rnd.choice(board.islands)})
    lines = [list(line) for line in board.lines]
    seas = [list(sea) for sea in board.seas]
    pairs = [list(pair) for pair in combinations_with_replacement(cards, 2)]
    discards = [list(some) for size in range(1, len(hand) + 1) for some in set(combinations(hand, size))]

    def every(kind: str, **choices: list[Any]) -> list[Command]:
        """`kind` with each combination of the argument values in `choices`."""
        names = list(choices)
        return [
            Command(kind, seat, dict(zip(names, values, strict=True)))
            for values in product(*choices.values())
        ]

    near = [line for line in lines if set(line) & set(cards)]
    own = [list(state.rules.board.lines[n]) for n, owner in enumerate(state.owners) if owner == seat]
    backs = [*own, rnd.choice(lines)] if state.stock[seat] == 0 else [rnd.choice(lines)]
    commands = [
        *every("PlaceBridge", card=cards, line=lines),
        *every("PlaceBridge", card=cards, line=near, take_back=backs),
        *every("RemoveBridge", cards=pairs, line=lines),
        *every("SwapBridge", cards=pairs, line=lines),
        *every("SwapBridge", cards=[[card] for card in cards], line=lines, kanaloa=[True]),
        *every("DiscardCards", cards=discards),
        *every("DrawCard", source=["face_up"], card=board.islands),
        *every("DrawCard", source=["stack"]),
        *(Command(kind, seat, {}) for kind in ("EndTurn", "SkipDraw", "DeferFinalTurn", "UsePele")),
        *(c for kind in ("PlaceFreeBridge", "TakeBackBridge", "UseKanaloa", "ChooseRemoval")
          for c in every(kind, line=lines)),
        *(c for kind in ("PlayCard", "TakeCard", "ChooseFaceUp") for c in every(kind, card=cards)),
        *every("UseKu", target=list(range(state.seats))),
        *every("UseLono", source=["face_up"], card=board.islands),
        *every("UseLono", source=["stack"]),
        *every("MoveShip", **{"from": seas, "to": seas}),
    ]  # fmt: skip
    for sea in seas:
        trios = set(combinations_with_replacement([c for c in hand if c in sea], 3))
        commands += every("PlaceShip", cards=[list(trio) for trio in trios], sea=[sea])
    if state.pending and state.pending[0].kind == "pele_return":
        victims = [str(v) for v in state.pending[0].options]
        gifts = [
            dict(zip(victims, cards, strict=True))
            for cards in product(sorted(set(hand)), repeat=len(victims))
        ]
        commands += every("GiveCards", gifts=gifts)
    return commands


def sampled_states(table: Table, start: list[Event]) -> list[State]:
    """Every sixth state of one random game."""
    return [
        state for n, (_c, _e, state) in enumerate(random_game(random.Random(3), table, start)) if n % 6 == 0
    ]


@pytest.mark.parametrize("name", OPENINGS)
def test_legal_commands_are_exactly_those_decide_accepts(name: str) -> None:
    table, start = OPENINGS[name]
    rnd = random.Random(7)
    for state in sampled_states(table, start):
        for seat in range(state.seats):
            legal = engine.legal_commands(state, seat)
            listed = {canonical(c) for c in legal}
            assert len(listed) == len(legal), "no command is listed twice"
            sent = candidates(rnd, table, state, seat)
            assert listed <= {canonical(c) for c in sent}, "the candidates cover every listed command"
            for command in sent:
                try:
                    engine.decide(state, command)
                except IllegalMove:
                    assert canonical(command) not in listed, command
                else:
                    assert canonical(command) in listed, command
