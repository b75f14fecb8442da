"""The search lists a node's commands once per fingerprint (AIHooks.moves_key); a command of that
listing that the world of an iteration refuses leaves the listing, so no child stays unvisited
(a child without visits once broke UCB1 with a division by zero)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest

from ai import ismcts
from ai.ismcts import Budget, search
from domain.decider import Command, IllegalMove
from domain.game_module import AIHooks, SearchSettings
from domain.turns import TERMINAL, Seats, ToAct

World = tuple[int, int]  # (which world, commands played)


@dataclass
class TwoWorlds:
    """Seat 0 goes or stays; then seat 1 answers A or B, and in world 1 the rules refuse B, which
    the listing (one per fingerprint, both worlds alike) still offers."""

    name: str = "two-worlds"

    @property
    def ai(self) -> AIHooks[World]:
        return AIHooks(
            world=lambda knowledge, rng: (rng.choice([0, 1]), 0),
            evaluate=lambda state, viewer: [0.5, 0.5],
            priors=lambda state, commands: [0.0] * len(commands),
            moves=lambda state, seat: [Command("A", 1), Command("B", 1)],
            moves_key=lambda state, seat: "same in both worlds",
            turn=lambda state: state[1],
            search=SearchSettings(rollout_commands=0),
        )

    def to_act(self, state: World) -> ToAct:
        return Seats((state[1],)) if state[1] < 2 else TERMINAL

    def apply(self, state: World, command: Command) -> tuple[list[Any], World]:
        if command.type == "B" and state[0] == 1:
            raise IllegalMove("refused", "not in this world")
        return [], (state[0], state[1] + 1)

    def pending_system(self, state: World) -> None:
        return None


@dataclass(frozen=True)
class Knows:
    seat: int = 0
    game: str = "two-worlds"


def test_a_listed_command_a_world_refuses_never_becomes_an_unvisited_child(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ismcts, "rules_for", lambda name: TwoWorlds())
    legal = [Command("Go", 0), Command("Stay", 0)]
    found = search(Knows(), legal, random.Random(4), Budget(iterations=300))  # type: ignore[arg-type]
    assert found.iterations == 300
    assert found.command in legal
