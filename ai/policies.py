"""The computer players: random, greedy and ismcts, each `choose(knowledge, legal, rng, budget)`.

Every player gets the seat's knowledge (ai.knowledge.SeatKnowledge: its view and what the
events showed it), the commands legal for it now (as GET /legal lists them) and a seeded
random.Random; it answers one of those commands as the body to post. None ever holds
the game's State: the greedy and ismcts players rebuild worlds from the knowledge.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ai.ismcts import Budget, search
from ai.knowledge import SeatKnowledge
from ai.sim import as_command, step
from domain.decider import Command, IllegalMove
from domain.games import rules_for

KINDS = ("random", "greedy", "ismcts")
LEVELS = (1, 2, 3, 4, 5)
LEVEL_SECONDS: dict[int, float] = {1: 0.1, 2: 0.3, 3: 1.0, 4: 2.5, 5: 5.0}
"""Seconds of search per command of an ismcts player, by level (ARCHIPELAGO_AI_SECONDS overrides)."""

Legal = Sequence[Command | Mapping[str, Any]]
Policy = Callable[[SeatKnowledge, Legal, random.Random, Budget], dict[str, Any]]


def budget_for(level: int, environ: Mapping[str, str] | None = None) -> Budget:
    """The search budget of `level`, from LEVEL_SECONDS and the environment.

    ARCHIPELAGO_AI_SECONDS="1=0.1,2=0.3,..." replaces some levels' seconds;
    ARCHIPELAGO_AI_BUDGET_SCALE multiplies them; ARCHIPELAGO_AI_MAX_ITERATIONS caps the
    iterations of every search (tests use a small cap so that they stay fast).
    """
    env = os.environ if environ is None else environ
    if level not in LEVELS:
        raise ValueError(f"level must be one of {list(LEVELS)}")
    seconds = dict(LEVEL_SECONDS)
    for item in filter(None, env.get("ARCHIPELAGO_AI_SECONDS", "").split(",")):
        name, _, value = item.partition("=")
        seconds[int(name)] = float(value)
    scale = float(env.get("ARCHIPELAGO_AI_BUDGET_SCALE") or 1.0)
    cap = env.get("ARCHIPELAGO_AI_MAX_ITERATIONS")
    return Budget(seconds=seconds[level] * scale, iterations=int(cap) if cap else None)


def commands(seat: int, legal: Legal) -> list[Command]:
    """`legal` as Commands of `seat`, in a stable order (the search and the tie-breaks rely on it)."""
    found = [c if isinstance(c, Command) else as_command(c, seat) for c in legal]
    return sorted(found, key=lambda c: (c.type, repr(sorted(c.args.items()))))


def choose_random(
    knowledge: SeatKnowledge, legal: Legal, rng: random.Random, budget: Budget
) -> dict[str, Any]:
    """A uniformly random legal command."""
    return rng.choice(commands(knowledge.seat, legal)).to_json()


def choose_greedy(
    knowledge: SeatKnowledge, legal: Legal, rng: random.Random, budget: Budget
) -> dict[str, Any]:
    """The command after which the evaluation is best, in one world drawn from the knowledge.

    Others' cards are sampled for the rules to run, but the evaluation counts them unseen.
    """
    return greedy_ranked(knowledge, legal, rng)[0][1].to_json()


def greedy_ranked(knowledge: SeatKnowledge, legal: Legal, rng: random.Random) -> list[tuple[float, Command]]:
    """Every legal command with the seat's win chance right after it, best first."""
    me = knowledge.seat
    game = rules_for(knowledge.game)
    if game.ai is None:
        raise ValueError(f"{game.name} gives no evaluation: only the random player plays it")
    world = game.ai.world(knowledge, rng)
    ranked = []
    for command in commands(me, legal):
        try:
            after = step(game, world, command, rng)
        except IllegalMove:
            continue
        ranked.append((game.ai.evaluate(after, me)[me] + 1e-9 * rng.random(), command))
    ranked.sort(key=lambda pair: -pair[0])
    if not ranked:
        raise ValueError("no legal command to choose from")
    return ranked


def choose_ismcts(
    knowledge: SeatKnowledge, legal: Legal, rng: random.Random, budget: Budget
) -> dict[str, Any]:
    """The most visited command of an information-set MCTS within `budget`."""
    options = commands(knowledge.seat, legal)
    if len(options) == 1:
        return options[0].to_json()
    return search(knowledge, options, rng, budget).command.to_json()


POLICIES: dict[str, Policy] = {"random": choose_random, "greedy": choose_greedy, "ismcts": choose_ismcts}


def choose(
    kind: str, knowledge: SeatKnowledge, legal: Legal, rng: random.Random, budget: Budget
) -> dict[str, Any]:
    """The command (a body ready to post) the `kind` player picks among `legal`."""
    if kind not in POLICIES:
        raise ValueError(f"unknown player {kind!r}; known: {list(KINDS)}")
    if not legal:
        raise ValueError("no legal command to choose from")
    return POLICIES[kind](knowledge, legal, rng, budget)
