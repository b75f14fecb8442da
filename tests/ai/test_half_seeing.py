"""The half-seeing search (bench.where_it_loses, and the arena's `knows-hands` player) draws
worlds the seat cannot tell from the real one, holding every hand as it is and the stack's
order drawn anew."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import islice
from typing import Any

import pytest

import ai.seeing
from ai.arena import Match, Player, main, play
from ai.ismcts import Budget, search
from ai.policies import KINDS, POLICIES, choose, commands
from ai.seeing import KNOWS_HANDS, choose_knowing_hands, hand_worlds
from ai.sim import as_command
from ai.table import Table
from bench.where_it_loses import knowing_hands
from domain.games import rules_for
from domain.islands.worlds import consistent, truth


def decisions(seed: int) -> Iterator[tuple[Any, Any]]:
    """(true state, knowledge of the seat to move) along a greedy Kahuna game."""
    setup = {"game": "kahuna", "seats": [{"name": "A"}, {"name": "B"}], "first_seat": 0, "options": {}}
    table, rng = Table(setup, random.Random(seed)), random.Random(seed)
    while not table.ended:
        seat = table.mover()
        assert seat is not None
        legal, knowledge = commands(seat, table.legal(seat)), table.knowledge(seat)
        yield table.state, knowledge
        table.play(as_command(choose("greedy", knowledge, legal, rng, Budget(iterations=1)), seat))


def test_a_half_seeing_world_fits_the_view_holds_the_hands_and_draws_the_stack_anew() -> None:
    rng = random.Random(3)
    orders = 0
    for state, knowledge in decisions(301):
        real, world = truth(state), knowing_hands(state, knowledge)(rng)
        consistent(knowledge.seen, truth(world))
        assert world.hands == real.hands
        assert sorted(world.stack + world.hidden) == sorted(real.stack + real.hidden)
        assert world.hidden[: len(knowledge.own_hidden)] == knowledge.own_hidden
        orders += world.stack != real.stack
    assert orders, "the stack's order is drawn anew"


@pytest.mark.parametrize(
    "game,seats", [("kahuna", 2), ("arabana-ikibiti", 2), ("arabana-opodopo", 3)], ids=lambda v: str(v)
)
def test_the_half_seeing_arena_player_plays_whole_legal_games(game: str, seats: int) -> None:
    match = Match(1, game, seats, {}, Player("ismcts"), Player(KNOWS_HANDS), seed=2, iterations=3)
    outcome = play(match)
    assert outcome.commands > 0 and 0.0 <= outcome.share <= 1.0
    assert outcome.moves.get("knows-hands L2", 0) > 0


def test_the_half_seeing_player_searches_worlds_with_the_true_hands(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its search is given `hand_worlds` of the true state, never the seat's own sampler."""
    given: list[Any] = []

    def recording(knowledge: Any, options: Any, rng: Any, budget: Any, worlds: Any) -> Any:
        given.append(worlds)
        return search(knowledge, options, rng, budget, worlds=worlds)

    monkeypatch.setattr(ai.seeing, "search", recording)
    rng = random.Random(5)
    searched = 0
    for state, knowledge in islice(decisions(302), 0, 60, 7):
        legal = commands(knowledge.seat, rules_for("kahuna").legal_commands(state, knowledge.seat))
        body = choose_knowing_hands("kahuna", state, knowledge, legal, rng, Budget(iterations=4))
        assert body in [c.to_json() for c in legal]
        if len(given) > searched:  # a decision with a choice: its worlds hold this state's hands
            searched = len(given)
            assert truth(given[-1](rng)).hands == truth(state).hands
    assert searched >= 3, "some decisions had a choice"


def test_the_half_seeing_player_is_the_arenas_only() -> None:
    assert KNOWS_HANDS not in KINDS and KNOWS_HANDS not in POLICIES
    state, knowledge = next(decisions(302))
    with pytest.raises(ValueError, match="gives no worlds that know the hands"):
        hand_worlds("conquest-of-paradise", state, knowledge)


@pytest.mark.parametrize("game", ["conquest-of-paradise", "nanuuk"])
def test_the_arena_refuses_the_half_seeing_player_where_no_hands_are_hidden_alike(
    game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--game", game, "--a", "knows-hands", "--b", "seeing"])
    assert exited.value.code == 2
    assert "gives no worlds that know the hands" in capsys.readouterr().err
