"""The computer players of Nanuuk! and its learning games (domain/nanuuk/ai.py).

Nothing is hidden and nothing is drawn after the layout: the one world a search uses is
the state itself, folded from the events the seat's knowledge holds.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from ai.ismcts import Budget, search
from ai.policies import choose, commands
from ai.sim import as_command
from ai.table import Table
from domain.games import GAMES, register_game, rules_for, unregister_game
from domain.nanuuk.module import GAMES as NANUUK_GAMES

SETUPS = [
    ("nanuuk", 2, {}),
    ("nanuuk", 2, {"two_hunters": True}),
    ("nanuuk", 3, {}),
    ("nanuuk", 4, {}),
    ("nanuuk-learning", 2, {}),
    ("nanuuk-learning", 3, {}),
    ("nanuuk-bear-hunt", 3, {}),
    ("nanuuk-bear-flight", 2, {"bears": 2}),
    ("nanuuk-partners", 4, {}),
    ("nanuuk-helper", 2, {}),
]


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    """The family's games in the registry (as domain/games.py registers them)."""
    added = [m.name for m in NANUUK_GAMES if m.name not in GAMES]
    for module in NANUUK_GAMES:
        register_game(module)
    yield
    for name in added:
        unregister_game(name)


def table(game: str, seats: int, options: dict[str, Any], seed: int = 1) -> Table:
    setup = {
        "game": game,
        "seats": [{"name": f"P{n}"} for n in range(seats)],
        "first_seat": 0,
        "options": options,
    }
    return Table(setup, random.Random(seed))


def play_random(t: Table, commands_: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(commands_):
        if t.ended:
            return
        seat = t.mover()
        assert seat is not None
        t.play(rng.choice(t.legal(seat)))


@pytest.mark.parametrize(("game", "seats", "options"), SETUPS)
def test_the_world_is_the_state_folded_from_the_seats_events(
    game: str, seats: int, options: dict[str, Any]
) -> None:
    t = table(game, seats, options)
    hooks = rules_for(game).ai
    assert hooks is not None
    for n in range(6):
        play_random(t, 7, seed=n)
        if t.ended:
            break
        seat = t.mover()
        assert seat is not None
        knowledge = t.knowledge(seat)
        world = hooks.world(knowledge, random.Random(0))
        assert world == t.state
        assert hooks.world(knowledge, random.Random(1)) is world  # folded once, then kept


def test_an_undone_move_is_not_in_the_world() -> None:
    from ai.knowledge import build
    from domain.decider import Event
    from record.redaction import redact_event

    t = table("nanuuk", 2, {})
    before = t.state
    kept = list(t.events)
    play_random(t, 3, seed=4)
    undone = Event("Undone", {"to_version": len(kept), "requested_by": 0, "approved_by": []})
    shown = [redact_event(e, n, 0) for n, e in enumerate([*t.events, undone], start=1)]
    knowledge = build(0, rules_for("nanuuk").view(before, 0), shown)
    hooks = rules_for("nanuuk").ai
    assert hooks is not None and hooks.world(knowledge, random.Random(0)) == before


@pytest.mark.parametrize(("game", "seats", "options"), SETUPS)
def test_win_chances_are_shares_of_one_and_the_end_gives_them_to_the_winners(
    game: str, seats: int, options: dict[str, Any]
) -> None:
    hooks = rules_for(game).ai
    assert hooks is not None
    t = table(game, seats, options, seed=3)
    rng = random.Random(3)
    while not t.ended:
        chances = hooks.evaluate(t.state, None)
        assert len(chances) == seats and abs(sum(chances) - 1) < 1e-9 and min(chances) >= 0
        seat = t.mover()
        assert seat is not None
        t.play(rng.choice(t.legal(seat)))
    result = t.result()
    assert result is not None
    winners = result["winners"] or []
    end = hooks.evaluate(t.state, None)
    if winners:
        assert [round(c, 9) for c in end] == [1 / len(winners) if s in winners else 0.0 for s in range(seats)]


def test_greedy_takes_the_animal_it_may_take() -> None:
    """N-5: taking is worth points; leaving it gains nothing."""
    for seed in range(40):
        t = table("nanuuk", 2, {}, seed=seed)
        rng = random.Random(seed)
        while not t.ended:
            seat = t.mover()
            assert seat is not None
            legal = t.legal(seat)
            if {c.type for c in legal} == {"TakeAnimal", "LeaveAnimal"}:
                body = choose("greedy", t.knowledge(seat), legal, rng, Budget(iterations=1))
                assert body["type"] == "TakeAnimal"
                return
            t.play(rng.choice(legal))
    pytest.fail("no game offered an animal to take")


def test_greedy_beats_random_in_nanuuk() -> None:
    """A short arena (the long one is in docs/ai.md): greedy wins most games against random."""
    from ai.arena import Match, Player, play

    wins = sum(
        play(Match(n, "nanuuk", 2, {}, Player("greedy"), Player("random"), 5)).share for n in range(12)
    )
    assert wins >= 9


@pytest.mark.parametrize(("game", "seats", "options"), SETUPS)
def test_ismcts_answers_a_legal_command_in_every_game(game: str, seats: int, options: dict[str, Any]) -> None:
    t = table(game, seats, options, seed=2)
    play_random(t, 5, seed=2)
    seat = t.mover()
    assert seat is not None
    legal = commands(seat, t.legal(seat))
    if len(legal) < 2:
        play_random(t, 1, seed=3)
        seat = t.mover()
        assert seat is not None
        legal = commands(seat, t.legal(seat))
    found = search(t.knowledge(seat), legal, random.Random(1), Budget(iterations=60))
    assert found.command in legal and found.iterations == 60
    t.play(as_command(found.command.to_json(), seat))
