"""The arena's all-seeing player: the ismcts search over the true state. It plays legal games,
reads the hidden cards where they decide the move, and no computer seat of the service can be it."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

import ai.ismcts
from ai.arena import Match, Player, play
from ai.ismcts import Budget, search
from ai.policies import KINDS, POLICIES, choose, commands
from ai.seeing import SEEING, choose_seeing
from ai.sim import as_command, key, step
from ai.table import Table
from domain.decider import Command
from domain.games import rules_for

FAMILIES = [
    ("kahuna", 2, {}),
    ("arabana-ikibiti", 2, {}),
    ("arabana-opodopo", 3, {}),
    ("nanuuk", 2, {}),
    ("nanuuk-learning", 2, {}),
    ("conquest-of-paradise", 2, {"last_turn": 2}),
]


@pytest.mark.parametrize("game,seats,options", FAMILIES, ids=lambda v: str(v))
def test_the_all_seeing_player_plays_whole_legal_games(game: str, seats: int, options: dict) -> None:
    """A whole game against the seat-limited search: the table refuses any illegal command."""
    match = Match(1, game, seats, options, Player("ismcts"), Player(SEEING), seed=2, iterations=3)
    outcome = play(match)
    assert outcome.commands > 0 and 0.0 <= outcome.share <= 1.0
    assert outcome.moves.get("seeing L2", 0) > 0, "the all-seeing player, in the first seat, moved"


def _greedy_game_until_a_draw_decided_by_the_stack(seed: int) -> tuple[Table, int, list[Command], dict]:
    """The first draw decision of a greedy Kahuna game where the stack's top card decides: one
    card on top makes the stack the best draw, another a face-up card (the seat's win chance
    one step on, in the true state), both by a margin. Answers the table, the seat, its legal
    commands and, per top card, (the state with it on top, the best draw, the margin)."""
    game = rules_for("kahuna")
    assert game.ai is not None
    setup = {"game": "kahuna", "seats": [{"name": "A"}, {"name": "B"}], "first_seat": 0, "options": {}}
    table, rng = Table(setup, random.Random(seed)), random.Random(seed)
    while not table.ended:
        seat = table.mover()
        assert seat is not None
        legal = commands(seat, table.legal(seat))
        if legal and all(c.type == "DrawCard" for c in legal) and len(legal) >= 2:
            tops: dict[str, Any] = {}
            stack = table.state.stack
            for n, card in enumerate(stack):
                if card in tops:
                    continue
                state = replace(table.state, stack=(card, *stack[:n], *stack[n + 1 :]))
                chances = {
                    key(c): game.ai.evaluate(step(game, state, c, random.Random(0)), seat)[seat]
                    for c in legal
                }
                ranked = sorted(chances, key=chances.__getitem__, reverse=True)
                tops[card] = (state, ranked[0], chances[ranked[0]] - chances[ranked[1]])
            clear = {card: found for card, found in tops.items() if found[2] > 0.03}
            if len({found[1] == key(legal[-1]) for found in clear.values()}) == 2:
                return table, seat, legal, clear
        table.play(
            as_command(choose("greedy", table.knowledge(seat), legal, rng, Budget(iterations=1)), seat)
        )
    raise AssertionError("no such draw decision in the game")


def test_given_the_true_state_it_finds_the_draw_that_the_hidden_top_card_decides() -> None:
    table, seat, legal, tops = _greedy_game_until_a_draw_decided_by_the_stack(2)
    game = rules_for("kahuna")
    assert legal[-1].args == {"source": "stack"}, "the stack is listed last"
    from_stack = next(card for card, found in tops.items() if found[1] == key(legal[-1]))
    from_row = next(card for card, found in tops.items() if found[1] != key(legal[-1]))
    good, bad = tops[from_stack][0], tops[from_row][0]
    assert game.view(good, seat) == game.view(bad, seat), (
        "the two states differ only in what the seat cannot see"
    )
    knowledge = table.knowledge(seat)
    stack = key(legal[-1])
    for card, wanted in ((from_stack, True), (from_row, False)):
        # The hidden card decides between the stack and the face-up row; among face-up cards
        # the search may see further than one step, so any of them is the row's answer.
        answers = [
            key(choose_seeing(tops[card][0], knowledge, legal, random.Random(n), Budget(iterations=300)))
            for n in range(5)
        ]
        assert sum((answer == stack) == wanted for answer in answers) >= 4, (card, wanted, answers)
    # The seat-limited search has only the knowledge, the same for both: one answer for both.
    assert choose("ismcts", knowledge, legal, random.Random(1), Budget(iterations=100)) in [
        c.to_json() for c in legal
    ]


def test_the_all_seeing_search_never_draws_a_world_from_the_knowledge(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = Table(
        {"game": "kahuna", "seats": [{"name": "A"}, {"name": "B"}], "first_seat": 0}, random.Random(4)
    )
    seat = table.mover()
    assert seat is not None
    legal = commands(seat, table.legal(seat))

    def no_sampling(knowledge: object) -> object:
        raise AssertionError("a world was sampled from the seat's knowledge")

    monkeypatch.setattr(ai.ismcts, "_sampler", no_sampling)
    with pytest.raises(AssertionError, match="sampled"):
        search(table.knowledge(seat), legal, random.Random(1), Budget(iterations=5))
    body = choose_seeing(table.state, table.knowledge(seat), legal, random.Random(1), Budget(iterations=5))
    assert body in [c.to_json() for c in legal]


def test_a_computer_seat_can_never_be_the_all_seeing_player() -> None:
    table = Table(
        {"game": "kahuna", "seats": [{"name": "A"}, {"name": "B"}], "first_seat": 0}, random.Random(4)
    )
    seat = table.mover()
    assert seat is not None
    assert SEEING not in KINDS and SEEING not in POLICIES
    with pytest.raises(ValueError, match="unknown player"):
        choose(SEEING, table.knowledge(seat), table.legal(seat), random.Random(1), Budget(iterations=1))


def test_a_cpu_time_budget_reads_the_process_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A `cpu` budget's seconds are this process's CPU time: read on a CPU clock that moves
    10 ms a look, 50 ms are the same iterations as a wall budget on such a clock."""
    table = Table(
        {"game": "kahuna", "seats": [{"name": "A"}, {"name": "B"}], "first_seat": 0}, random.Random(1)
    )
    seat = table.mover()
    assert seat is not None
    legal = commands(seat, table.legal(seat))
    looks = iter(range(10_000))
    monkeypatch.setattr(ai.ismcts.time, "process_time", lambda: next(looks) / 100)
    found = search(table.knowledge(seat), legal, random.Random(1), Budget(seconds=0.05, cpu=True))
    assert found.iterations == 5
