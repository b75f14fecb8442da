"""The computer players of Conquest of Paradise: worlds drawn from one seat's knowledge look to
that seat exactly like the real game (its view is the same), whatever they drew for what it
cannot see; random, greedy and ismcts players play whole games in every phase."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ai.knowledge import build
from ai.policies import Budget, choose, greedy_ranked
from ai.sim import mover
from domain.decider import Command, Event
from domain.games import rules_for
from domain.paradise import ai as paradise_ai
from record.redaction import redact_event

GAME = rules_for("conquest-of-paradise")


def setup(seats: int, **options: Any) -> dict[str, Any]:
    return {"game": GAME.name, "seats": [{"name": f"p{n}"} for n in range(seats)], "options": options}


class Log:
    """A game in memory with its events as the service would record them."""

    def __init__(self, created: dict[str, Any], rng: random.Random) -> None:
        self.rng = rng
        self.state = GAME.initial_state(created)
        self.records: list[tuple[int, Event]] = []
        self._add([GAME.created_event(created)])
        self._system()

    def _add(self, events: list[Event]) -> None:
        self.records += [(len(self.records) + n + 1, event) for n, event in enumerate(events)]

    def _system(self) -> None:
        while (request := GAME.pending_system(self.state)) is not None:
            events, self.state = GAME.apply(self.state, request.answer(self.rng))
            self._add(events)

    def play(self, command: Command) -> None:
        events, self.state = GAME.apply(self.state, command)
        self._add(events)
        self._system()

    def knowledge(self, seat: int) -> Any:
        seen = [redact_event(event, version, seat) for version, event in self.records]
        return build(seat, GAME.view(self.state, seat), seen)


SHOWING = frozenset({"CardRevealed", "CardUsed", "VictoryClaimed", "TurnStarted", "BattleStarted"})
"""Events after which a world is checked every time: they show what the draws must agree with."""


@pytest.mark.parametrize(
    ("seats", "options", "seed"),
    [
        (2, {}, 1),
        (3, {"malaria": True}, 2),
        (4, {"kumara": True, "saved_resources": True}, 3),
        (3, {"variable_start": True, "south_island": True}, 4),
        (4, {}, 5),
        (2, {"variable_start": True, "malaria": True, "kumara": True}, 6),
        (3, {"last_turn": 8}, 2),  # the marker moves to a seat whose VP the draws had put otherwise
        (3, {"last_turn": 8}, 33),  # a battle shows the viewer's own stack: the world keeps its own
        (4, {"last_turn": 10}, 104),  # a tile drawn face up: the world's pile loses that very tile
        # the second copy of a card, shown after the first was used: drawn at the latest draw
        (3, {"last_turn": 10, "saved_resources": True, "south_island": True}, 130),
        (4, {"last_turn": 10, "variable_start": True}, 173),  # the seat's own later draws stay in the deck
    ],
)
def test_a_world_looks_to_its_seat_exactly_like_the_game(
    seats: int, options: dict[str, Any], seed: int
) -> None:
    rng = random.Random(seed)
    log = Log(setup(seats, **{"last_turn": 4, **options}), rng)
    checked = 0
    while not GAME.is_terminal(log.state):
        seat = mover(GAME, log.state)
        assert seat is not None
        if rng.random() < 0.1 or log.records[-1][1].type in SHOWING:
            for viewer in range(seats):
                knowledge = log.knowledge(viewer)
                world = GAME.ai.world(knowledge, random.Random(seed))
                assert GAME.view(world, viewer) == GAME.view(log.state, viewer)
                checked += 1
        log.play(rng.choice(list(GAME.legal_commands(log.state, seat))))
    assert checked >= 4 * seats


@pytest.mark.parametrize("kind", ["random", "greedy", "ismcts"])
def test_each_player_plays_every_phase_of_a_game_to_its_end(kind: str) -> None:
    rng = random.Random(7)
    log = Log(setup(3, last_turn=3, malaria=True), rng)
    played: set[str] = set()
    while not GAME.is_terminal(log.state):
        seat = mover(GAME, log.state)
        assert seat is not None
        legal = list(GAME.legal_commands(log.state, seat))
        if seat == 0:
            body = choose(kind, log.knowledge(0), legal, random.Random(len(log.records)), Budget(60.0, 8))
            command = next(c for c in legal if c.to_json() == body)
            played.add(log.state.phase)
        else:
            command = rng.choice(legal)
        log.play(command)
    assert log.state.result is not None
    assert {"explore", "move", "build"} <= played


def test_greedy_prefers_a_village_to_ending_the_build_phase() -> None:
    rng = random.Random(2)
    log = Log(setup(2, last_turn=3), rng)
    while not (log.state.phase == "build" and mover(GAME, log.state) == 0):
        seat = mover(GAME, log.state)
        legal = [c for c in GAME.legal_commands(log.state, seat) if not c.args.get("orders")]
        log.play(rng.choice(legal))
    legal = list(GAME.legal_commands(log.state, 0))
    assert any(_village(c) for c in legal)
    ranked = greedy_ranked(log.knowledge(0), legal, random.Random(1))
    best = [c for _, c in ranked][:3]
    assert any(_village(c) for c in best)
    assert not _village(ranked[-1][1])


def _village(command: Command) -> bool:
    """A commit of build orders with a village among them."""
    return any(o["item"] in ("village", "settle") for o in command.args.get("orders", ()))


def test_P3_3_a_world_agrees_with_a_move_that_stopped_on_its_way() -> None:
    """Another seat's canoe put a passenger ashore or took one aboard halfway: each viewer's
    world draws which, and still counts every stack as the game does."""
    rng = random.Random(12)
    log = Log(setup(3, last_turn=6), rng)
    stopped = 0
    while not GAME.is_terminal(log.state) and stopped < 4:
        seat = mover(GAME, log.state)
        assert seat is not None
        legal = list(GAME.legal_commands(log.state, seat))
        stopping = [c for c in legal if c.args.get("stops")]
        log.play(rng.choice(stopping or legal))
        if stopping:
            stopped += 1
            for viewer in range(3):
                world = GAME.ai.world(log.knowledge(viewer), random.Random(stopped))
                assert GAME.view(world, viewer) == GAME.view(log.state, viewer)
    assert stopped == 4


def test_a_search_draws_its_first_worlds_anew_and_then_reuses_them() -> None:
    from domain.paradise.ai import WORLDS_KEPT, determinize

    rng = random.Random(4)
    log = Log(setup(3, last_turn=4), rng)
    for _ in range(30):
        seat = mover(GAME, log.state)
        assert seat is not None
        log.play(rng.choice(list(GAME.legal_commands(log.state, seat))))
    knowledge = log.knowledge(0)
    draws = random.Random(9)
    worlds = [GAME.ai.world(knowledge, draws) for _ in range(3 * WORLDS_KEPT)]
    assert worlds[0] == determinize(knowledge, random.Random(9))  # the first as greedy's one world
    kept = {id(w) for w in worlds[:WORLDS_KEPT]}
    assert len(kept) == WORLDS_KEPT and {id(w) for w in worlds[WORLDS_KEPT:]} <= kept
    assert all(GAME.view(w, 0) == GAME.view(log.state, 0) for w in worlds)


def test_the_searched_moves_are_spread_by_place_even_when_the_rules_list_one_move_object_twice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Kept move lists (domain/paradise/terrain.py) can hand one Move object to a list twice; the
    # spread must pick places in the list, as it did when every listed Move was an object of its own.
    moves = [Command("Move", 0, {"path": [[n, 0], [n, 1]], "pieces": {"band": 1}}) for n in range(30)]
    listed = [Command("EndMovement", 0, {}), *moves[:20], moves[3], *moves[20:]]
    monkeypatch.setattr(paradise_ai.legal, "legal_commands", lambda state, seat: listed)

    searched = paradise_ai.searched_moves(None, 0)  # type: ignore[arg-type]

    places = [n for n, c in enumerate(listed) if c.type == "Move"]
    step = len(places) / paradise_ai.MOVES_SEARCHED
    wanted = [listed[0]] + [listed[places[int(n * step)]] for n in range(paradise_ai.MOVES_SEARCHED)]
    assert searched == wanted
    assert sum(c.type == "Move" for c in searched) == paradise_ai.MOVES_SEARCHED
