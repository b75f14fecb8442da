"""Where the seat-limited search loses against the all-seeing one, decision by decision.

    python -m bench.where_it_loses [N] [GAMES] [STRIDE] [FIRST]

On every STRIDE-th command with a choice of GAMES greedy Kahuna games (seeds FIRST...), a
reference search of the true state (4N iterations, as the all-seeing player searches) prices
every legal command; then the all-seeing search, a half-seeing one (worlds holding the true
hands, the stack's order drawn anew), the ismcts search and ismcts with one of
Kahuna's search settings changed each choose with N iterations, and the table sums, per kind
of decision, the win chance each choice gave up against the reference's best. Paired on the
same positions and budgets in iterations, so neither the deals' luck nor the machine's load
enters the comparison (docs/ai.md, "What the search loses by not seeing"). The half-seeing
column splits what ismcts gives up beyond seeing between the others' hands and the stack.
"""

from __future__ import annotations

import random
import sys
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from ai import ismcts
from ai.ismcts import Budget, search
from ai.policies import choose, commands
from ai.seeing import hand_worlds
from ai.sim import as_command, key
from ai.table import Table
from domain.decider import Command
from domain.game_module import GameModule, SearchSettings

VARIANTS: dict[str, dict[str, Any]] = {
    # Each a setting spelled out, so that a column means the same whatever Kahuna's defaults.
    "exploration 0.5": {"exploration": 0.5},
    "exploration 0.7": {"exploration": 0.7},
    "prior worlds 8": {"prior_worlds": 8},
    "exploration 1.0": {"exploration": 1.0},
    "rollouts of 1 turn": {"rollout_turns": 1},
}


def knowing_hands(state: Any, knowledge: Any) -> Callable[[random.Random], Any]:
    """Kahuna's worlds holding every hand as `state` has it (its `AIHooks.knowing_hands`)."""
    return hand_worlds("kahuna", state, knowledge)


HALF_SEEING: dict[str, Callable[[Any, Any], Callable[[random.Random], Any]]] = {
    "knows hands": knowing_hands,
}
"""A search that sees one part of what ismcts cannot: every hand, not the stack's order.

(One seeing the stack's order would see the hands as well: with the face-down pile empty, as
it mostly is, the cards neither in the stack nor seen are the others' hands.)"""


@contextmanager
def settings(changes: dict[str, Any]) -> Iterator[None]:
    """Searches of Kahuna with its search settings changed, for as long as the block runs."""
    original = vars(ismcts)["rules_for"]

    def changed(name: str) -> GameModule[Any]:
        game: GameModule[Any] = original(name)
        if game.ai is None or not changes:
            return game
        tuned: SearchSettings = replace(game.ai.search, **changes)
        return replace(game, ai=replace(game.ai, search=tuned))

    vars(ismcts)["rules_for"] = changed
    try:
        yield
    finally:
        vars(ismcts)["rules_for"] = original


def kind(legal: Sequence[Command], state: Any) -> str:
    """The kind of a decision: what its legal commands do."""
    if state.pending:
        return f"pending {state.pending[0].kind}"
    types = sorted({c.type for c in legal})
    return "draw only" if types == ["DrawCard"] else "turn: " + ", ".join(types)


def measure(
    n: int, games: int, stride: int, first: int
) -> tuple[dict[str, int], dict[str, dict[str, float]]]:
    """Decisions per kind, and per kind and player the win chance given up in all."""
    counts: dict[str, int] = defaultdict(int)
    given: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    setup = {"game": "kahuna", "seats": [{"name": "A"}, {"name": "B"}], "first_seat": 0, "options": {}}
    for number in range(first, first + games):
        table, rng, moves = Table(setup, random.Random(number)), random.Random(number), 0
        while not table.ended:
            seat = table.mover()
            assert seat is not None
            legal, knowledge = commands(seat, table.legal(seat)), table.knowledge(seat)
            if moves % stride == 2 and len(legal) > 1:
                state, found = table.state, kind(legal, table.state)
                counts[found] += 1
                true = lambda _rng, state=state: state  # noqa: E731
                reference = search(knowledge, legal, random.Random(7), Budget(iterations=4 * n), worlds=true)
                best = max(reference.chances.values())
                seeing = search(knowledge, legal, random.Random(8), Budget(iterations=n), worlds=true)
                given[found]["seeing"] += best - reference.chances[key(seeing.command)]
                for name, half in HALF_SEEING.items():
                    worlds = half(state, knowledge)
                    chosen = search(
                        knowledge, legal, random.Random(8), Budget(iterations=n), worlds=worlds
                    ).command
                    given[found][name] += best - reference.chances[key(chosen)]
                for name, changes in {"ismcts": {}, **VARIANTS}.items():
                    with settings(changes):
                        chosen = search(knowledge, legal, random.Random(8), Budget(iterations=n)).command
                    given[found][name] += best - reference.chances[key(chosen)]
            body = choose("greedy", knowledge, legal, rng, Budget(iterations=1))
            table.play(as_command(body, seat))
            moves += 1
    return counts, given


def main(argv: Sequence[str] | None = None) -> int:
    raw = list(sys.argv[1:] if argv is None else argv)
    if len(raw) > 4 or not all(a.isdigit() and int(a) > 0 for a in raw):
        print(
            "usage: python -m bench.where_it_loses [N [GAMES [STRIDE [FIRST]]]], whole numbers above 0",
            file=sys.stderr,
        )
        return 2
    args = [int(a) for a in raw]
    n, games, stride, first = (*args, *[1000, 4, 5, 300][len(args) :])[:4]
    counts, given = measure(n, games, stride, first)
    players = ["seeing", *HALF_SEEING, "ismcts", *VARIANTS]
    print(f"{n} iterations a search, {games} greedy Kahuna games from seed {first}, every {stride}th command")
    print("win chance given up against a 4N-iteration search of the true state, summed per kind of decision")
    print(" | ".join(["decision", "count", *players]))
    for found in sorted(counts, key=lambda k: -given[k]["ismcts"]):
        print(" | ".join([found, str(counts[found]), *(f"{given[found][p]:.3f}" for p in players)]))
    print(
        " | ".join(
            ["all", str(sum(counts.values()))] + [f"{sum(g[p] for g in given.values()):.3f}" for p in players]
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
