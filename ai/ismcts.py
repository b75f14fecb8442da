"""Single-observer information-set Monte Carlo tree search (Cowling, Powley and Whitehouse, 2012).

One tree for the searching seat, its nodes keyed by the commands played from the root.
Each iteration samples a world the seat cannot tell from the real one (ai.sampling),
walks down the tree among the commands legal in that world (UCB1 with availability
counts), adds one node, plays a short rollout (the game's cheap move order with some
noise, to the end of the next seat's turn) and backs up the evaluation's win chances,
each node scoring the chance of the seat that chose its command. The root's children
start with a few virtual visits worth the evaluation right after each command (what the
greedy player sees), so a short search never does worse than that guess by much.
The answer is the most visited command. The constants (UCB1's, the virtual visits, the
rollout's length and noise) are the game's: AIHooks.search (domain.game_module.SearchSettings).
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ai.knowledge import SeatKnowledge
from ai.sim import ident, key, mover
from ai.steps import Steps
from domain.decider import Command, IllegalMove
from domain.game_module import AIHooks, GameModule, SearchSettings
from domain.games import rules_for


@dataclass(frozen=True)
class Budget:
    """How long a search may run: seconds, iterations, or both (whichever first).

    The seconds are wall time, or with `cpu` the CPU time of the searching process: the
    arena's equal-time matches on a shared machine, where other work takes a share of the
    wall time that differs from one search to the next."""

    seconds: float | None = None
    iterations: int | None = None
    cpu: bool = False

    def __post_init__(self) -> None:
        if self.seconds is None and self.iterations is None:
            raise ValueError("a budget needs seconds or iterations")


@dataclass(eq=False, slots=True)
class Node:
    # No pointer to the parent: a walk keeps its path, so a finished search's tree holds no
    # cycle and is freed at once by reference counting, not later by the cycle collector.
    command: Command | None
    seat: int | None  # who chose `command`
    children: dict[Any, Node] = field(default_factory=dict)  # by ai.sim.ident of the command
    visits: float = 0.0
    total: float = 0.0
    avail: float = 0.0
    legal: dict[Any, Moves] = field(default_factory=dict)  # by the game's moves_key

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


@dataclass(eq=False, slots=True)
class Moves:
    """The commands searched at a node in the worlds of one fingerprint, each with its ident;
    those still without a child, in the same order; and their children once every one of them
    has one (from then on UCB1 picks among them)."""

    moves: list[tuple[Hashable, Command]]
    children: list[Node] | None = None
    untried: list[tuple[Hashable, Command]] = field(init=False)

    def __post_init__(self) -> None:
        self.untried = self.moves


@dataclass(frozen=True)
class Searched:
    """A search's answer: the command, and per root command its visits and estimated win chance."""

    command: Command
    chances: dict[str, float]
    visits: dict[str, float]
    iterations: int
    seconds: float

    @property
    def best_chance(self) -> float:
        return self.chances[key(self.command)]


def search(
    knowledge: SeatKnowledge,
    legal: Sequence[Command],
    rng: random.Random,
    budget: Budget,
    clock: Callable[[], float] | None = None,
    worlds: Callable[[random.Random], Any] | None = None,
) -> Searched:
    """Search from `knowledge` among `legal` (the seat's commands now) within `budget`, its
    seconds read on `clock` (default: wall time, or CPU time for a `cpu` budget).

    Each iteration's world comes from the game's sampler, drawn from the knowledge; `worlds`
    replaces it (the arena's all-seeing player, ai.seeing, hands the true state)."""
    if clock is None:
        clock = time.process_time if budget.cpu else time.perf_counter
    if worlds is None:
        worlds = _sampler(knowledge)
    started = clock()
    deadline = None if budget.seconds is None else started + budget.seconds
    me = knowledge.seat
    game = rules_for(knowledge.game)
    hooks = _hooks(game)
    root = Node(None, None)
    for command in legal:
        root.children[ident(command)] = Node(command, me)
    iterations = 0
    steps = Steps(game, hooks.search.keep_steps)
    with _without_cycle_collection():
        _priors(game, steps, root, me, worlds, rng)
        while len(root.children) > 1:
            if budget.iterations is not None and iterations >= budget.iterations:
                break
            # One iteration at least, however long the priors took: a search that never looked
            # would answer with the priors' order alone (and a busy machine could make it so).
            if deadline is not None and iterations and clock() >= deadline:
                break
            _iterate(game, steps, root, worlds(rng), rng)
            iterations += 1
        answers = [(c.command, c.visits, c.mean) for c in root.children.values() if c.command is not None]
        # The tree goes before the collector is back: its first collection, due at once after
        # a search's allocations, would otherwise walk every node of a tree about to be freed.
        del root, steps
    best, _, _ = max(answers, key=lambda answer: (answer[1], answer[2]))
    return Searched(
        command=best,
        chances={key(command): mean for command, _, mean in answers},
        visits={key(command): visits for command, visits, _ in answers},
        iterations=iterations,
        seconds=clock() - started,
    )


@contextmanager
def _without_cycle_collection() -> Iterator[None]:
    """Python's cycle collector paused while the search runs, then as it was.

    Its full collections walk every live object, the growing tree among them, again and
    again: a fifth of a search's CPU time. The tree holds no cycle (nodes keep no parent),
    so nothing a search leaves waits for the collector. Searches run in the worker's jobs
    and the arena's processes, one at a time.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _hooks(game: GameModule[Any]) -> AIHooks[Any]:
    if game.ai is None:
        raise ValueError(f"{game.name} gives no search hooks: only the random player plays it")
    return game.ai


def _sampler(knowledge: SeatKnowledge) -> Callable[[random.Random], Any]:
    """Worlds drawn from the seat's knowledge by the game's own sampler."""
    hooks = _hooks(rules_for(knowledge.game))
    return lambda rng: hooks.world(knowledge, rng)


def _priors(
    game: GameModule[Any],
    steps: Steps,
    root: Node,
    me: int,
    worlds: Callable[[random.Random], Any],
    rng: random.Random,
) -> None:
    """Virtual visits per root command worth the evaluation right after it, over a few worlds."""
    hooks = _hooks(game)
    settings = hooks.search
    sums = dict.fromkeys(root.children, 0.0)
    for _ in range(settings.prior_worlds):
        world = worlds(rng)
        for k, child in root.children.items():
            assert child.command is not None
            try:
                after = steps.step(world, child.command, rng)
            except IllegalMove:
                continue
            sums[k] += steps.evaluate(hooks, after, me)[me]
    for k, child in root.children.items():
        child.visits = child.avail = float(settings.prior_visits)
        child.total = settings.prior_visits * sums[k] / settings.prior_worlds


def _iterate(game: GameModule[Any], steps: Steps, root: Node, state: Any, rng: random.Random) -> None:
    hooks = _hooks(game)
    exploration = hooks.search.exploration
    node = root
    path = [root]
    while True:
        seat = steps.mover(state)  # None at the end too: `to_act` answers nobody then
        if seat is None:
            break
        found = _moves(hooks, steps, node, state, seat, at_root=node is root)
        if not found.moves:
            break
        children = found.children
        untried: list[tuple[Hashable, Command]] = []
        if children is None:
            # Children only come, never go: narrowing the last visit's list finds the same.
            untried = found.untried = [(i, m) for i, m in found.untried if i not in node.children]
            if not untried:
                children = found.children = [node.children[i] for i, _ in found.moves]
        if children is None:
            chosen, command = untried[
                _noisy_best(hooks.priors(state, [m for _, m in untried]), rng.random, 1.0)
            ]
            try:
                state = steps.step(state, command, rng)
            except IllegalMove:
                # The listing of another world of this fingerprint held a command this world
                # refuses: it leaves the listing rather than become a child never visited.
                found.moves = [(i, m) for i, m in found.moves if i != chosen]
                found.untried = [(i, m) for i, m in untried if i != chosen]
                break
            child = Node(command, seat)
            node.children[chosen] = child
        else:
            child = _ucb_best(children, exploration)
            command = child.command  # type: ignore[assignment]
            try:
                state = steps.step(state, command, rng)
            except IllegalMove:
                break
        node = child
        path.append(node)
        if untried:
            break
    chances = _rollout(game, steps, state, rng)
    for visited in path:
        if visited.seat is not None:
            visited.visits += 1
            visited.total += chances[visited.seat]


def _ucb_best(children: list[Node], exploration: float) -> Node:
    """The first child of the highest UCB1 value, each child's availability counted first."""
    best, top = children[0], -math.inf
    log, sqrt = math.log, math.sqrt
    for child in children:
        child.avail += 1
        visits = child.visits  # never 0: root children start with virtual visits, others with their own
        value = child.total / visits + exploration * sqrt(log(child.avail) / visits)
        if value > top:
            best, top = child, value
    return best


def _moves(hooks: AIHooks[Any], steps: Steps, node: Node, state: Any, seat: int, at_root: bool) -> Moves:
    """The commands the search tries here (those the game finds worth searching), listed once
    per fingerprint since walks come back to the same nodes; the root's are its children."""
    fingerprint = _ROOT if at_root else steps.moves_key(hooks.moves_key, state, seat)
    cached = node.legal.get(fingerprint)
    if cached is None:
        if at_root:
            cached = Moves([(i, c.command) for i, c in node.children.items() if c.command is not None])
        else:
            cached = Moves(steps.listing(hooks, state, seat, fingerprint))
        node.legal[fingerprint] = cached
    return cached


_ROOT = object()  # the root's one list: its commands are those it was given


def _rollout(game: GameModule[Any], steps: Steps, state: Any, rng: random.Random) -> list[float]:
    """Play cheap moves to the end of the next seat's turn; the win chances there."""
    hooks = _hooks(game)
    settings: SearchSettings = hooks.search
    noise = rng.random
    turns = 0
    before = hooks.turn(state)
    for _ in range(settings.rollout_commands):
        seat = mover(game, state)
        if seat is None:
            break
        legal = game.legal_commands(state, seat)
        if not legal:
            break
        command = legal[_noisy_best(hooks.priors(state, legal), noise, settings.rollout_noise)]
        state = steps.step(state, command, rng)
        after = hooks.turn(state)
        if after != before:
            turns += 1
            if turns >= settings.rollout_turns:
                break
        before = after
    return steps.evaluate(hooks, state, None)


def _noisy_best(values: Sequence[float], noise: Callable[[], float], scale: float) -> int:
    """The position of the highest of `values` each plus `scale` times a fresh noise draw
    (the first of equals), the draws taken in order: a list and one `max`, not a key
    function called per command, at every step of every rollout."""
    noisy = [value + scale * noise() for value in values]
    return noisy.index(max(noisy))
