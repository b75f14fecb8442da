"""The all-seeing player of the arena: our own ISMCTS searching the true state.

It is the ismcts player (ai.ismcts.search: the same tree, rollouts, evaluation and budget)
with one difference: every iteration's world is the game's true State, hands, stack order
and others' secret choices included, instead of a world sampled from the seat's knowledge.
Matched against the seat-limited player at equal budget, it measures what the search loses
by not seeing (docs/ai.md, "What the search loses by not seeing").

Only the arena holds a true State to hand it, so only the arena plays it: it is not among
ai.policies.KINDS, the players a computer seat of the service may be (a test checks that
the API refuses it and that ai.policies cannot reach it), and nothing in service/ imports
this module (an import contract in pyproject.toml).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any

from ai.ismcts import Budget, search
from ai.knowledge import SeatKnowledge
from ai.policies import Legal, commands
from domain.games import rules_for

SEEING = "seeing"
"""The arena's name of the all-seeing player."""
KNOWS_HANDS = "knows-hands"
"""The arena's half-seeing player: it sees every hand, not the stack's order."""


def choose_seeing(
    state: Any, knowledge: SeatKnowledge, legal: Legal, rng: random.Random, budget: Budget
) -> dict[str, Any]:
    """The most visited command of our MCTS searching `state`, the game's true State, within
    `budget`. `knowledge` only names the seat and the game; the search never samples from it."""
    return _most_visited(knowledge, legal, rng, budget, lambda: lambda _rng: state)


def knowing_hands_of(game: str) -> Callable[[Any, SeatKnowledge], Callable[[random.Random], Any]] | None:
    """The game's `AIHooks.knowing_hands` (worlds that hold the true hands), None without one."""
    hooks = rules_for(game).ai
    return None if hooks is None else hooks.knowing_hands


def hand_worlds(game: str, state: Any, knowledge: SeatKnowledge) -> Callable[[random.Random], Any]:
    """Worlds of `knowledge` holding every hand as `state`, the true State, has it; what no
    event shows (the stack's order) drawn anew each time: the game's `AIHooks.knowing_hands`."""
    knowing = knowing_hands_of(game)
    if knowing is None:
        raise ValueError(f"{game} gives no worlds that know the hands")
    return knowing(state, knowledge)


def choose_knowing_hands(
    game: str, state: Any, knowledge: SeatKnowledge, legal: Legal, rng: random.Random, budget: Budget
) -> dict[str, Any]:
    """The most visited command of our MCTS over worlds that hold the true hands (`hand_worlds`).

    Against the all-seeing player it bounds what reading the others' hands from their choices
    could ever win the seat-limited search: it reads them perfectly, and still draws blind."""
    return _most_visited(knowledge, legal, rng, budget, partial(hand_worlds, game, state, knowledge))


def _most_visited(
    knowledge: SeatKnowledge,
    legal: Legal,
    rng: random.Random,
    budget: Budget,
    worlds: Callable[[], Callable[[random.Random], Any]],
) -> dict[str, Any]:
    """The search's answer among `legal` over the worlds `worlds()` draws; the one command
    without a search (and without making the worlds' source)."""
    options = commands(knowledge.seat, legal)
    if not options:
        raise ValueError("no legal command to choose from")
    if len(options) == 1:
        return options[0].to_json()
    return search(knowledge, options, rng, budget, worlds=worlds()).command.to_json()
